"""paiqi report: tables, PNG plots and a self-contained HTML page of a stored run."""

from __future__ import annotations

import base64
import contextlib
import io
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from paiqi_core import resources as runs_package
from paiqi_core.cli import main
from paiqi_core.resources import source_checkout
from paiqi_core.runs import report as report_module

PNG = b"\x89PNG\r\n\x1a\n"


def _compare(path: Path, *args: str) -> Path:
    assert (
        main(["compare", *args, "--batch", "100", "--db", str(path), "-q", "--workers", "1"]) == 0
    )
    return path


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return _compare(tmp_path / "runs.db", "doujue", "platform", "--games", "60")


@dataclass(frozen=True)
class Written:
    """What ``paiqi report last`` wrote: its folder, printed text, PNG names and page."""

    out: Path
    text: str
    pngs: list[str]
    page: str

    def figures(self) -> list[tuple[str, str, str]]:
        """(title, image source, caption) of every figure of the page."""
        return re.findall(
            r"<figure[^>]*><h2>(.*?)</h2><img src='([^']*)'[^>]*>"
            r"<figcaption>(.*?)</figcaption></figure>",
            self.page,
            re.S,
        )

    def captions(self) -> dict[str, str]:
        return {title: caption for title, _, caption in self.figures()}


def _written(folder: Path, *compare: str) -> tuple[Path, Written]:
    """Play a small run into ``folder/runs.db`` and write its report once."""
    db = _compare(folder / "runs.db", *compare)
    out = folder / "report"
    with contextlib.redirect_stdout(io.StringIO()) as text:
        assert main(["report", "last", "--db", str(db), "--out", str(out)]) == 0
    pngs = sorted(p.name for p in out.glob("*.png"))
    return db, Written(out, text.getvalue(), pngs, (out / "report.html").read_text("utf-8"))


@pytest.fixture(scope="module")
def random_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Written]:
    """One agent kind (random everywhere); doujue settles money and keeps totals, pagat
    does neither."""
    return _written(tmp_path_factory.mktemp("random"), "doujue", "pagat", "--games", "200")


@pytest.fixture(scope="module")
def agents_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Written]:
    """Two agent kinds, rotated round the seats (25 deals, 100 games per profile)."""
    agents = ["--agents", "heuristic,random,random,random", "--rotate"]
    folder = tmp_path_factory.mktemp("agents")
    return _written(folder, "doujue", "platform", "--games", "25", *agents)


@pytest.fixture(scope="module")
def moneyless_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Written]:
    """No money anywhere: pagat settles none and shichinarabe counts points only."""
    folder = tmp_path_factory.mktemp("moneyless")
    return _written(folder, "pagat", "shichinarabe", "--games", "100")


def _data(db: Path) -> dict[str, Any]:
    with contextlib.redirect_stdout(io.StringIO()) as out:
        assert main(["report", "last", "--db", str(db), "--json"]) == 0
    data: dict[str, Any] = json.loads(out.getvalue())
    return data


def test_one_agent_kind_gives_these_plots_each_embedded_with_a_caption(
    random_run: tuple[Path, Written],
) -> None:
    _, r = random_run
    assert "pagat − doujue, paired on the same deals" in r.text  # the tables are printed
    assert r.pngs == [
        "design.png",
        "money_by_seat.png",
        "paired_pagat.png",
        "per_game.png",
        "total_by_seat.png",
        "win_rate_by_seat.png",
    ]
    for name in r.pngs:
        assert (r.out / name).read_bytes().startswith(PNG), name
    figures = r.figures()
    assert len(figures) == len(r.pngs) == r.page.count("<img ") == r.page.count("<figcaption>")
    embedded = set()
    for title, src, caption in figures:
        assert src.startswith("data:image/png;base64,"), title  # self-contained
        embedded.add(base64.b64decode(src.split(",", 1)[1]))
        assert len(caption) > 80, title  # says how to read the plot
    assert embedded == {(r.out / name).read_bytes() for name in r.pngs}
    titles = [t for t, _, _ in figures]
    assert titles[0] == "Win rate by seat"
    assert "pagat − doujue (baseline: doujue), paired on the same deals" in titles
    captions = r.captions()
    assert "200 games per profile" in captions["Win rate by seat"]
    assert "whiskers are 95% confidence intervals" in captions["Win rate by seat"]
    # pagat settles no money and keeps no totals: drawn for doujue only, and said so
    assert "settle no money: pagat" in captions["Mean money by seat"]
    assert "keep no totals: pagat" in captions["Mean total by seat"]
    assert "share of deals with another winner" in r.page and "<h2>Tables</h2>" in r.page


def test_per_game_panels_leave_out_what_never_happened(
    random_run: tuple[Path, Written],
) -> None:
    db, r = random_run
    report = _data(db)
    shown = report_module.shown_metrics(report)
    # covers only happen in doujue, passes only in pagat: each keeps its panel
    assert {"actions", "stuck", "covers", "passes", "closures"} <= set(shown)
    assert not {"bursts", "jokers"} & set(shown)  # neither profile has them
    for m in shown:
        assert any(d["per_game"][m]["mean"] for d in report["profiles"].values())
    not_drawn = r.captions()["Per-game means by profile"].split("not drawn: ")[1]
    assert "bursts" in not_drawn and "joker moves" in not_drawn


def test_several_agent_kinds_add_the_skill_gap_plot(agents_run: tuple[Path, Written]) -> None:
    _, r = agents_run
    assert r.pngs == [
        "design.png",
        "money_by_seat.png",
        "paired_platform.png",
        "per_agent.png",
        "per_game.png",
        "total_by_seat.png",
        "win_rate_by_seat.png",
    ]
    assert all((r.out / name).read_bytes().startswith(PNG) for name in r.pngs)
    skill = r.captions()["Skill gap between agents"]
    assert "heuristic 100, random 300" in skill  # seat-games of each agent
    assert "every agent sat in every seat equally often" in skill


def test_no_money_anywhere_means_no_money_plot(moneyless_run: tuple[Path, Written]) -> None:
    db, r = moneyless_run
    for d in _data(db)["profiles"].values():
        assert all(s["money"]["mean"] == 0 and s["money"]["ci95"] == 0 for s in d["per_seat"])
    assert r.pngs == [
        "design.png",
        "paired_shichinarabe.png",
        "per_game.png",
        "total_by_seat.png",  # shichinarabe counts points
        "win_rate_by_seat.png",
    ]
    assert "money" not in " ".join(t for t, _, _ in r.figures()).lower()
    total = r.captions()["Mean total by seat"]
    assert "For shichinarabe the total is points: rank points, what a placement scoring" in total


def test_report_without_matplotlib_still_writes_the_tables(
    db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(report_module, "_plt", lambda: None)
    monkeypatch.setattr(runs_package, "source_checkout", lambda: None)  # installed paiqi
    out = tmp_path / "plain"
    assert main(["report", "last", "--db", str(db), "--out", str(out)]) == 0
    assert [p.name for p in out.iterdir()] == ["report.html"]
    printed = capsys.readouterr().out
    assert "(no plots: matplotlib is not installed; pip install 'paiqi[plots]')" in printed
    page = (out / "report.html").read_text(encoding="utf-8")
    assert "<img" not in page and "pip install &#x27;paiqi[plots]&#x27;" in page
    assert "platform − doujue, paired on the same deals" in page  # the tables


def test_the_plots_hint_from_a_source_checkout_installs_its_extra(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(runs_package, "source_checkout", lambda: tmp_path)
    monkeypatch.chdir(tmp_path)
    assert report_module.plot_hint() == "pip install -e '.[plots]' (from the source checkout)"
    monkeypatch.chdir(tmp_path.parent)
    assert (
        report_module.plot_hint()
        == f"pip install -e '{tmp_path}[plots]' (from the source checkout)"
    )
    # this test runs from a checkout: the real detection finds it
    checkout = source_checkout()
    assert checkout is not None and (checkout / "paiqi_core").is_dir()


def test_report_lists_runs_with_what_and_when(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = _compare(tmp_path / "two.db", "doujue", "platform", "--games", "60")
    agents = ["--agents", "heuristic,random,random,random", "--rotate"]
    _compare(db, "pagat", "bicycle", "--games", "10", *agents)
    capsys.readouterr()
    assert main(["report", "--db", str(db)]) == 0
    head, _rule, *lines = capsys.readouterr().out.splitlines()
    assert head.split() == ["run", "started", "command", "profiles", "deals", "games", "played"]
    assert len(lines) == 2
    first, second = (re.split(r"\s{2,}", line.strip()) for line in lines)
    assert re.fullmatch(r"\d{8}-\d{6}-[0-9a-f]{6}", first[0])
    assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d", first[1])
    # 60 deals under two profiles: 120 games; 10 deals in 4 seatings under two: 80
    assert first[2:] == ["compare", "doujue, platform", "60", "120 of 120"]
    assert second[2:] == ["compare", "pagat, bicycle", "10 × 4 seatings", "80 of 80"]
    assert main(["report", "--db", str(db), "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)
    assert [(r["profiles"], r["deals"], r["games"], r["played"]) for r in listed] == [
        (["doujue", "platform"], 60, 120, 120),
        (["pagat", "bicycle"], 10, 80, 80),
    ]


def test_report_refuses_unknown_runs(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    capsys.readouterr()
    assert main(["report", "--db", str(db), "--json"]) == 0
    (run_id,) = [r["run"] for r in json.loads(capsys.readouterr().out)]
    assert main(["report", "nope", "--db", str(db)]) == 2
    assert f"no run 'nope' in {db} (runs: {run_id})" in capsys.readouterr().err
    assert main(["report", "last", "--db", str(db.parent / "missing.db")]) == 2
    assert capsys.readouterr().err == f"{db.parent / 'missing.db'}: no such results file\n"
    assert not (db.parent / "missing.db").exists()
