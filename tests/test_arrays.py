"""The report's figures computed from NumPy arrays of the rows (``runs.arrays``): by hand on
a tiny run, and the same to the last bit as the SQL queries and Python loops they replace,
on runs with shared wins, split pots, cut suits, a tournament and an earlier paiqi's file;
and the same figures whether a run's rows are kept as blocks or in the seats table of the
paiqi before blocks, or partly each (a run that paiqi started and this one finished)."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest

from paiqi_core.cli import main
from paiqi_core.profile import load_profile
from paiqi_core.runs import arrays
from paiqi_core.runs.block import encode_rows
from paiqi_core.runs.design import Games, Setting, paired, summary
from paiqi_core.runs.store import RunSpec, Store

Capsys = pytest.CaptureFixture[str]
Z = 1.959964

# profile, game, deal, seat, agent, rank, win, total, money, money_value, actions, covers,
# passes, burst, closures, last_seven, all_covered, jokers, turn_order, leads, deficit,
# cards_left, events
ROWS = {
    "A": [
        ("A", 0, 0, 0, "x", 1, 1.0, 3, "10", 10.0, 5, 0, 1, 0, 1, 0, 0, 0, 0, 2, 0, 0, "clean"),
        ("A", 0, 0, 1, "y", 2, 0.0, -3, "-10", -10.0, 4, 2, 0, 0, 0, 0, 0, 0, 1, 1, 4, 3, ""),
        ("A", 1, 1, 0, "x", 1, 0.5, 0, "0", 0.0, 6, 1, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0, "bust"),
        ("A", 1, 1, 1, "y", 1, 0.5, 0, "0", 0.0, 6, 1, 0, 0, 1, 0, 0, 0, 0, 1, 5, 0,
         "cut swap:2"),
    ],
    "B": [
        ("B", 0, 0, 0, "x", 2, 0.0, 0, "-1/3", -1 / 3, 7, 0, 2, 0, 0, 0, 0, 0, 0, 1, 3, 2, ""),
        ("B", 0, 0, 1, "y", 1, 1.0, 0, "1/3", 1 / 3, 7, 0, 0, 0, 0, 0, 0, 0, 1, 1, 0, 0, ""),
        ("B", 1, 1, 0, "x", 1, 1.0, 0, "2", 2.0, 3, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, ""),
        ("B", 1, 1, 1, "y", 2, 0.0, 0, "-2", -2.0, 2, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 1, ""),
    ],
}  # fmt: skip


def _tiny(tmp_path: Path) -> tuple[Store, str]:
    """A store holding the rows above: rule sets A and B, two games of two seats each."""
    store = Store(tmp_path / "tiny.db")
    spec = RunSpec("compare", ("A", "B"), (), (), False, 0, 2, 2, 2)
    pagat = load_profile("pagat", ())
    run = store.new_run(spec, {"A": pagat, "B": pagat})
    for name, rows in ROWS.items():
        store.add_batch(run, name, 0, encode_rows(name, rows))
    return store, run


def _is(e: Any, n: int, mean: float, half: float | None = None) -> None:
    """``e`` (an estimate, or its data) has count ``n``, mean ``mean`` and, if given,
    half-width ``half``."""
    if isinstance(e, dict):
        e = _e(e)
    assert e.n == n
    assert e.mean == pytest.approx(mean)
    if half is not None:
        assert e.half_width == pytest.approx(half)


def test_the_figures_of_a_tiny_run_by_hand(tmp_path: Path) -> None:
    store, run = _tiny(tmp_path)
    a, b = arrays.read(store, run, "A"), arrays.read(store, run, "B")
    assert a.games.tolist() == [0, 1] and a.seats == 2 and a.recorded
    # lengths 9 and 12: mean 10.5, sample variance 4.5, half width 1.96 * sqrt(4.5 / 2)
    per_game = arrays.per_game(a)
    _is(per_game["actions"], 2, 10.5, Z * 1.5)
    _is(per_game["stuck"], 2, 2.5)  # covers + passes: 3 and 2
    seat0, seat1 = arrays.by(a, "seat")
    _is(seat0["win"], 2, 0.75)  # a win and half a win
    _is(seat0["money"], 2, 5.0)
    _is(seat0["total"], 2, 1.5)
    _is(seat1["win"], 2, 0.25)
    assert [r["agent"] for r in arrays.by(a, "agent")] == ["x", "y"]
    # B less A, game by game: actions 14 − 9 and 5 − 12; seat 0's money −1/3 − 10 and 2 − 0
    diff = arrays.paired(a, b)
    _is(diff["actions"], 2, -1.0)
    _is(diff["seat0_money"], 2, (-1 / 3 - 10 + 2) / 2)
    _is(diff["seat0_win"], 2, (-1 + 0.5) / 2)
    # the winners differ on both deals: seat 0 then seat 1; both seats then seat 0
    _is(arrays.winners_differ(a, b), 2, 1.0)
    setting = Setting(objective="money", unit="cards", players=2, possible=None, money=True)
    games = arrays.design_games([a], setting, Games())
    got = summary(games, setting)
    m = got["measures"]
    assert got["games"] == 2 and got["recorded"]
    # first movers: seat 0 won game 0 (1 − 1/2), seat 1 shared game 1 (1/2 − 1/2)
    _is(m["seat_advantage"], 2, 0.25)
    _is(m["seat_advantage_objective"], 2, 5.0)  # 10 − 0 and 0 − 0
    _is(m["decisiveness"], 2, 10.0)  # money: 10 − (−10) and 0 − 0
    _is(m["lead_changes"], 2, 1.0)  # leads 3 and 1: 2 and 0 changes
    _is(m["comeback"], 2, 0.25)  # game 1: seat 1 won half, having trailed by 5 >= 3
    assert m["length_sd"]["mean"] == pytest.approx(math.sqrt(4.5))
    assert math.isnan(m["length_sd"]["ci95"])  # one game left: no spread to leave out
    events = got["events"]
    _is((events["cover"]), 2, 2.0)
    _is((events["pass"]), 2, 0.5)
    _is((events["complete"]), 2, 1.5)  # closures 1 and 3, less game 1's cut suit
    _is((events["swap"]), 2, 1.0)
    _is((events["clean"]), 2, 0.5)
    other = arrays.design_games([b], setting, Games())
    _is((summary(other, setting)["measures"]["decisiveness"]), 2, (2 / 3 + 4) / 2)
    # lead changes of B: 1 and 0; less A's 2 and 0
    _is((paired(games, other)["lead_changes"]), 2, -0.5)


def _e(d: dict[str, Any]) -> Any:
    """An estimate's data as an object with n, mean and half_width."""
    from paiqi_core.runs.stats import Estimate

    return Estimate(d["n"], d["mean"], d["ci95"])


def _both(capsys: Capsys, monkeypatch: pytest.MonkeyPatch, argv: list[str]) -> list[str]:
    """The JSON text of a report with the arrays and without them (the SQL and loops)."""
    out = []
    for numpy in (True, False):
        monkeypatch.setattr(arrays, "available", lambda numpy=numpy: numpy)
        assert main([*argv, "--json"]) == 0
        out.append(json.dumps(json.loads(capsys.readouterr().out)))
    return out


def test_the_same_figures_as_the_queries_to_the_last_bit(
    tmp_path: Path, capsys: Capsys, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = str(tmp_path / "r.db")
    # shared wins (a third each), split pots, covers and busts, cut suits, passes, bursts
    argv = ["compare", "doujue", "platform-zhanlong", "shichinarabe", "--games", "1500"]
    assert main([*argv, "--db", db, "-q", "--workers", "1", "--json"]) == 0
    run = json.loads(capsys.readouterr().out)["run"]
    fast, slow = _both(capsys, monkeypatch, ["report", run, "--db", db])
    assert fast == slow
    con = Store.reader(Path(db)).expand()
    shared = next(con.query("SELECT COUNT(*) FROM seats WHERE win > 0 AND win < 0.5"))[0]
    assert shared > 0  # a win shared three ways was among them
    split = next(
        con.query("SELECT COUNT(*) FROM seats WHERE money_value != CAST(money_value AS INTEGER)")
    )[0]
    assert split > 0  # and a pot split in thirds


def test_a_tournament_and_an_earlier_file_give_the_same_figures(
    tmp_path: Path, capsys: Capsys, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "t.db"
    argv = ["tournament", "doujue", "--agents", "random,normal", "--games", "30"]
    assert main([*argv, "--db", str(db), "-q", "--workers", "1", "--json"]) == 0
    run = json.loads(capsys.readouterr().out)["run"]
    fast, slow = _both(capsys, monkeypatch, ["report", run, "--db", str(db)])
    assert fast == slow
    from tests.test_design import _as_earlier

    db2 = tmp_path / "e.db"
    assert main(["compare", "doujue", "pagat", "--games", "40", "--db", str(db2), "-q",
                 "--workers", "1", "--json"]) == 0  # fmt: skip
    run = json.loads(capsys.readouterr().out)["run"]
    _as_earlier(db2)
    fast, slow = _both(capsys, monkeypatch, ["report", run, "--db", str(db2)])
    assert fast == slow
    assert '"recorded": false' in fast


# a compare run with every kind of rule set: profiles, skill pairings and replayed deals, in
# batches of 20 games (profiles: 5 batches each; skill pairings: 2; replayed deals: 1)
MIXED = ["compare", "doujue", "pagat", "--games", "100", "--batch", "20", "--seed", "7",
         "--skill", "20", "--skill-agents", "heuristic,random", "--deal-share", "6",
         "--replays", "2"]  # fmt: skip


def _report(capsys: Capsys, *argv: str) -> str:
    """What ``paiqi ARGV`` prints, having succeeded."""
    assert main(list(argv)) == 0
    out, err = capsys.readouterr()
    assert "Traceback" not in err
    return out


def test_a_file_of_rows_reports_what_its_blocks_did(
    tmp_path: Path, capsys: Capsys, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The paiqi just before blocks kept every row in the file's seats table: a run read
    from there reports exactly what it reports from its blocks, to the last character."""
    from tests.test_design import _as_rows_file

    db = tmp_path / "r.db"
    assert main([*MIXED, "--db", str(db), "-q", "--workers", "1", "--json"]) == 0
    run = json.loads(capsys.readouterr().out)["run"]
    blocks = _report(capsys, "report", run, "--db", str(db), "--json")
    listing = _report(capsys, "report", "--db", str(db), "--json")
    fast, slow = _both(capsys, monkeypatch, ["report", run, "--db", str(db)])
    assert fast == slow
    _as_rows_file(db)
    monkeypatch.undo()  # the arrays again
    assert _report(capsys, "report", run, "--db", str(db), "--json") == blocks
    assert _report(capsys, "report", "--db", str(db), "--json") == listing
    assert _both(capsys, monkeypatch, ["report", run, "--db", str(db)]) == [fast, slow]
    assert json.loads(blocks)["design"]["rule_sets"]["doujue"]["recorded"]


def test_a_run_of_a_rows_file_resumed_here_reports_as_if_played_straight(
    tmp_path: Path, capsys: Capsys, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A run started by the paiqi just before blocks (its rows in the seats table) and
    finished by this one (its later batches as blocks) holds the rows, and reports the
    figures, of the same run played straight."""
    import sqlite3

    from tests.test_design import _as_rows_file

    straight, cut = tmp_path / "straight.db", tmp_path / "cut.db"
    runs = []
    for db in (straight, cut):
        assert main([*MIXED, "--db", str(db), "-q", "--workers", "1", "--json"]) == 0
        runs.append(json.loads(capsys.readouterr().out)["run"])
    whole, part = runs
    # the run as that paiqi left it, stopped after the first batch of each rule set
    _as_rows_file(cut)
    con = sqlite3.connect(cut)
    with con:
        con.execute("DELETE FROM seats WHERE game >= 20")
        con.execute("DELETE FROM batches WHERE start >= 20")
    con.close()
    with Store.reader(cut) as store:
        spec = store.spec(part)
        assert spec is not None
        assert store.runs()[0].played == 4 * 20 + 2 * 12  # replayed deals: 12 games each
    resumed = _report(capsys, "compare", "--resume", part, "--db", str(cut), "-q", "--workers",
                      "1", "--json")  # fmt: skip
    with Store.reader(cut) as store:
        assert store.columns("batches") == ("run", "profile", "start", "rows")
        # the first batches in the table, the later ones as blocks
        stored = {
            (name, start, blob is not None)
            for name, start, blob in store.query("SELECT profile, start, rows FROM batches")
        }
        assert stored == {
            (name, start, start > 0)
            for name in spec.rule_sets
            for start in range(0, spec.games_of(name), spec.batch_of(name))
        }
        assert len(stored) == 2 * 5 + 2 * 2 + 2
        table = list(store.query("SELECT DISTINCT profile, game FROM main.seats"))
        assert sorted(table) == sorted(
            (name, game) for name in spec.rule_sets for game in range(min(20, spec.games_of(name)))
        )
        sql = "SELECT * FROM seats ORDER BY profile, game, seat"
        mixed = [r[1:] for r in store.expand().query(sql)]
    with Store.reader(straight) as store:
        played = [r[1:] for r in store.expand().query(sql)]
    assert mixed == played
    assert len(played) == 4 * (2 * 100 + 2 * 40 + 2 * 12)

    def figures(text: str) -> dict[str, Any]:
        report: dict[str, Any] = json.loads(text)
        assert report.pop("run") in runs
        return report

    expected = figures(_report(capsys, "report", whole, "--db", str(straight), "--json"))
    assert figures(resumed) == expected
    assert figures(_report(capsys, "report", part, "--db", str(cut), "--json")) == expected
    # and the same with the SQL queries and loops as with the arrays
    for text in _both(capsys, monkeypatch, ["report", part, "--db", str(cut)]):
        assert figures(text) == expected
