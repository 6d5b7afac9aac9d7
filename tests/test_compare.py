"""Stored runs: the same results on one process and on several, nothing lost or doubled
by an interruption and a resume, and paired statistics that match hand computation."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from paiqi_core.cli import main
from paiqi_core.runs.run import run
from paiqi_core.runs.stats import Estimate, paired, winners_differ
from paiqi_core.runs.store import RunSpec, Store
from paiqi_core.runs.summary import METRIC_LABELS

from .conftest import ROOT

SPEC = RunSpec("compare", ("doujue", "doujue-tunnel"), (), (), False, 5, 120, 25, 4)


def rows_of(store: Store, run_id: str) -> list[tuple[object, ...]]:
    return sorted(store.expand(run_id).query("SELECT * FROM seats WHERE run = ?", run_id))


def results(tmp_path: Path, name: str, workers: int) -> list[tuple[object, ...]]:
    store = Store(tmp_path / f"{name}.db")
    run_id = store.new_run(SPEC)
    run(store, run_id, workers)
    return [r[1:] for r in rows_of(store, run_id)]


def test_one_process_and_two_give_identical_rows(tmp_path: Path) -> None:
    one = results(tmp_path, "one", 1)
    two = results(tmp_path, "two", 2)
    assert len(one) == 2 * 120 * 4
    assert one == two


def test_an_interrupted_run_resumes_to_the_same_rows(tmp_path: Path) -> None:
    whole = results(tmp_path, "whole", 1)
    store = Store(tmp_path / "cut.db")
    run_id = store.new_run(SPEC)
    seen: list[int] = []

    def stop_after_three(done: int) -> None:
        seen.append(done)
        if len(seen) == 4:  # the initial call, then three finished batches
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run(store, run_id, 1, stop_after_three)
    assert len(store.finished(run_id)) == 3
    assert len(rows_of(store, run_id)) == 3 * 25 * 4
    run(store, run_id, 2)
    assert [r[1:] for r in rows_of(store, run_id)] == whole


def test_estimate_by_hand() -> None:
    # values 1, 2, 3, 4: mean 2.5, sample variance 5/3, half width 1.96 * sqrt(5/3 / 4)
    e = Estimate.of(4, 10, 30)
    assert e.mean == 2.5
    assert e.half_width == pytest.approx(1.959964 * (5 / 12) ** 0.5)


def test_paired_differences_of_a_profile_with_itself_are_zero(tmp_path: Path) -> None:
    store = Store(tmp_path / "same.db")
    same = str(ROOT / "variants" / "pagat.yaml")  # the built-in pagat, named by its path
    spec = RunSpec("compare", ("pagat", same), (), (), False, 1, 60, 20, 4)
    run_id = store.new_run(spec)
    run(store, run_id, 1)
    diff = paired(store, run_id, "pagat", same)
    assert all(e.n == 60 and e.mean == 0 and e.half_width == 0 for e in diff.values())
    assert winners_differ(store, run_id, "pagat", same).mean == 0


def test_same_deals_under_both_profiles(tmp_path: Path) -> None:
    """doujue and doujue-tunnel differ only on rows that reach an end: on the same deal the
    first moves agree, so the per-game action count is 52 under both."""
    store = Store(tmp_path / "deals.db")
    run_id = store.new_run(SPEC)
    run(store, run_id, 1)
    actions = dict(
        store.expand(run_id).query(
            "SELECT profile, SUM(actions) FROM seats WHERE run = ? GROUP BY profile", run_id
        )
    )
    assert actions == {"doujue": 120 * 52, "doujue-tunnel": 120 * 52}


def test_compare_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "cli.db")
    args = ["compare", "doujue", "platform", "--games", "80", "--batch", "20", "--db", db, "-q"]
    assert main([*args, "--workers", "1", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert set(report["profiles"]) == {"doujue", "platform"}
    assert report["paired"]["platform"]["actions"]["n"] == 80
    assert main([*args, "--workers", "2"]) == 0
    text = capsys.readouterr().out
    assert "platform − doujue, paired on the same deals" in text
    assert "share of deals with another winner" in text
    assert "seat 0 money per game" in text  # both settle money: compared


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["compare", "doujue"], "name two profiles or more"),
        (
            ["compare", "doujue", "THREE"],
            "seat different numbers of players",
        ),
        (["compare", "doujue", "doujue"], "name each profile once"),
        (
            ["compare", "doujue", "pagat", "--agents", "random,clever,random,random"],
            "unknown agent 'clever'",
        ),
    ],
)
def test_compare_bad_input(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    three = tmp_path / "three.yaml"
    three.write_text("extends: shichinarabe\nplayers: 3\n", encoding="utf-8")
    args = [str(three) if a == "THREE" else a for a in args]
    assert main([*args, "--db", str(tmp_path / "x.db")]) == 2
    assert message in capsys.readouterr().err


def test_simulate_on_one_or_two_processes_or_in_process_agrees(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    base = ["simulate", "platform", "--games", "90", "--seed", "3", "--batch", "20", "-q"]
    outputs = []
    for extra in (["--workers", "1"], ["--workers", "2"], ["--records", str(tmp_path / "r")]):
        assert main([*base, *extra, "--json"]) == 0
        outputs.append(json.loads(capsys.readouterr().out))
    assert outputs[0] == outputs[1]
    by_records = outputs[2][0]
    for key in ("win_rate", "mean_money", "mean_total", "mean_stuck", "mean_actions"):
        assert by_records[key] == outputs[0][0][key], key


def test_simulate_keeps_rows_in_a_db(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "sim.db"
    assert main(["simulate", "pagat", "--games", "40", "--db", str(db), "-q"]) == 0
    with Store.reader(db) as store:
        ((count, wins),) = store.expand().query("SELECT COUNT(*), SUM(win) FROM seats")
    assert (count, wins) == (160, 40)  # one winner a game in pagat


def test_compare_defaults_to_one_profile_of_each_family(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["compare", "--games", "20", "--db", str(tmp_path / "f.db"), "--json", "-q"]
    assert main([*args, "--workers", "1"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert list(report["profiles"]) == ["doujue", "platform", "shichinarabe", "pagat"]
    assert set(report["paired"]) == {"platform", "shichinarabe", "pagat"}


def test_rotation_plays_each_deal_once_per_seat_of_the_agents(tmp_path: Path) -> None:
    store = Store(tmp_path / "rot.db")
    spec = RunSpec("compare", ("pagat", "bicycle"), (), ("heuristic", "random", "random",
                   "random"), True, 2, 10, 7, 4)  # fmt: skip
    run_id = store.new_run(spec)
    run(store, run_id, 2)
    rows = list(store.expand(run_id).query(
        "SELECT deal, game, seat FROM seats WHERE run = ? AND profile = 'pagat' "
        "AND agent = 'heuristic' ORDER BY game", run_id))  # fmt: skip
    # 10 deals x 4 rotations; in rotation r of a deal the heuristic agent sits in seat r
    assert [(d, g) for d, g, _ in rows] == [(g // 4, g) for g in range(40)]
    assert [s for _, g, s in rows] == [g % 4 for g in range(40)]


def cells(line: str) -> list[str]:
    """The cells of a line of a text table (columns are two spaces apart or more)."""
    return re.split(r"\s{2,}", line.strip())


def test_tables_speak_words_and_show_what_each_profile_has(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = str(tmp_path / "words.db")
    args = ["compare", "doujue", "pagat", "shichinarabe", "--games", "100", "--db", db, "-q"]
    assert main([*args, "--workers", "1"]) == 0
    text = capsys.readouterr().out
    assert main(["report", "last", "--db", db, "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    for code in ("last_seven", "all_covered", "winner_differs", "seat0_money", "seat0_win"):
        assert code not in text
    sections = {part.split("\n", 1)[0]: part.splitlines() for part in text.split("\n\n")}
    # doujue settles money and keeps totals (covered points and bonuses)
    doujue = sections["doujue: by seat"]
    assert cells(doujue[1]) == ["seat", "win rate", "mean total", "mean money"]
    # pagat settles no money and keeps no totals: win rates only
    pagat = sections["pagat: by seat (pagat settles no money and keeps no totals)"]
    assert cells(pagat[1]) == ["seat", "win rate"]
    # shichinarabe's totals are rank points: 3, 2, 1, 0 by place, so 6 a game over the seats
    shichi = sections["shichinarabe: by seat (shichinarabe settles no money)"]
    assert cells(shichi[1]) == ["seat", "win rate", "mean points"]
    points = [float(cells(line)[2].split()[0]) for line in shichi[3:7]]
    assert sum(points) == pytest.approx(6, abs=0.02)
    note = (
        "points: under a placement scoring, rank points, what each place in a game is worth "
        "(3, 2, 1, 0 with four players, unless the profile sets scoring.place_points); under "
        "penalty points (scoring.penalty), minus what the cards still held count; a match "
        "adds them up"
    )
    assert [note] in sections.values()
    # a rate has no sign
    for table in (doujue, pagat, shichi):
        for line in table[3:7]:
            assert re.fullmatch(r"0\.\d{3} ± 0\.\d{3}", cells(line)[1]), line
    # per game: one row per quantity seen under some profile, in words; the others named
    per_game = {m: [d["per_game"][m]["mean"] for d in report["profiles"].values()]
                for m in report["profiles"]["doujue"]["per_game"]}  # fmt: skip
    seen = [m for m, means in per_game.items() if any(means)]
    table = sections["per game: means (95% intervals in --json and the report)"]
    assert [cells(line)[0] for line in table[3 : 3 + len(seen)]] == [
        METRIC_LABELS[m].replace(" per game", "") for m in seen
    ]
    unseen = [METRIC_LABELS[m].split(" per game")[0] for m in per_game if m not in seen]
    assert table[-1] == f"never seen under any profile: {', '.join(unseen)}"
    # paired: differences keep their sign; seat 0's money only where both settle money
    paired = sections["pagat − doujue, paired on the same deals (mean ± 95% CI)"]
    labels = [cells(line)[0] for line in paired[3:-1]]
    assert labels[:3] == ["actions per game", "stuck turns per game", "cards covered per game"]
    assert "seat 0 win rate" in labels and "seat 0 money per game" not in labels
    assert re.fullmatch(r"[+-]\d+\.\d{3} ± \d+\.\d{3}", cells(paired[3])[1])
    assert re.fullmatch(r"0\.\d{3} ± 0\.\d{3}", cells(paired[-2])[1])
    assert cells(paired[-2])[0] == "share of deals with another winner"
    assert paired[-1] == "seat 0 money is not compared: pagat settles no money"
    shichi_paired = sections["shichinarabe − doujue, paired on the same deals (mean ± 95% CI)"]
    assert "bursts per game" in [cells(line)[0] for line in shichi_paired]  # shichinarabe's
    objectives = {p: d["objective"] for p, d in report["profiles"].items()}
    assert objectives == {"doujue": "money", "pagat": "win", "shichinarabe": "points"}


def test_simulate_names_rank_points(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "shichinarabe", "doujue", "--games", "40", "-q"]) == 0
    shichi, doujue = (part.splitlines() for part in capsys.readouterr().out.strip().split("\n\n"))
    assert cells(shichi[1]) == ["seat", "win rate", "mean points", "stuck/game"]
    assert shichi[-1].startswith("points: under a placement scoring, rank points")
    assert all("+" not in line for line in shichi[3:7])  # rank points are never negative
    assert cells(doujue[1]) == ["seat", "win rate", "mean total", "mean money", "stuck/game"]


def test_compare_of_different_packs_does_not_claim_the_same_deals(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Девятка deals 36 cards and Pagat 52: deal number k is other hands under each, so the
    differences are paired game by game, not on the same cards, and the report says so."""
    db = str(tmp_path / "packs.db")
    args = ["compare", "pagat", "devyatka", "--games", "40", "--batch", "20", "--db", db, "-q"]
    assert main([*args, "--workers", "1", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["deals_differ"] is True
    assert main([*args, "--workers", "1"]) == 0
    text = capsys.readouterr().out
    assert "devyatka − pagat, paired game by game" in text
    assert "paired on the same deals" not in text
    assert "the profiles deal from different packs" in text
