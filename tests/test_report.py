"""paiqi report: tables, PNG plots and a self-contained HTML page of a stored run."""

from __future__ import annotations

from pathlib import Path

import pytest

from paiqi_core.cli import main
from paiqi_core.runs import report as report_module

PNG = b"\x89PNG\r\n\x1a\n"


@pytest.fixture
def db(tmp_path: Path) -> Path:
    path = tmp_path / "runs.db"
    args = ["compare", "doujue", "platform", "--games", "60", "--batch", "30", "--db", str(path)]
    assert main([*args, "-q", "--workers", "1"]) == 0
    return path


def test_report_writes_plots_and_a_page(
    db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    capsys.readouterr()
    out = tmp_path / "report"
    assert main(["report", "last", "--db", str(db), "--out", str(out)]) == 0
    text = capsys.readouterr().out
    assert "platform − doujue, paired on the same deals" in text
    pngs = sorted(p.name for p in out.glob("*.png"))
    assert pngs == ["paired_platform.png", "per_game.png", "win_rate_by_seat.png"]
    assert all((out / name).read_bytes().startswith(PNG) for name in pngs)
    page = (out / "report.html").read_text(encoding="utf-8")
    assert page.count("data:image/png;base64,") == 3  # self-contained
    assert "winner_differs" in page and "doujue" in page


def test_report_without_matplotlib_still_writes_the_tables(
    db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(report_module, "_plt", lambda: None)
    out = tmp_path / "plain"
    assert main(["report", "last", "--db", str(db), "--out", str(out)]) == 0
    assert [p.name for p in out.iterdir()] == ["report.html"]
    assert "paiqi[plots]" in capsys.readouterr().out


def test_report_lists_runs_and_refuses_unknown_ones(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    capsys.readouterr()
    assert main(["report", "--db", str(db)]) == 0
    (run_id,) = capsys.readouterr().out.split()
    assert main(["report", "nope", "--db", str(db)]) == 2
    assert f"no run 'nope' in {db} (runs: {run_id})" in capsys.readouterr().err
    assert main(["report", "last", "--db", str(db.parent / "missing.db")]) == 2
