"""``paiqi sweep``: every value a rule set of one stored run on the same deals, differences
from the baseline recomputed by hand, resume to the same rows, and located bad input."""

from __future__ import annotations

import json
import math
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest

from paiqi_core.cli import main
from paiqi_core.runs.run import run
from paiqi_core.runs.store import RunSpec, Store
from paiqi_core.runs.sweep import split_values, sweep_points

Capsys = pytest.CaptureFixture[str]
Z = 1.959964


def sweep(capsys: Capsys, db: Path, *argv: str) -> dict[str, Any]:
    status = main(["sweep", *argv, "--db", str(db), "--workers", "1", "-q", "--json"])
    out, err = capsys.readouterr()
    assert status == 0, err
    report: dict[str, Any] = json.loads(out)
    return report


def seats(db: Path, run: str) -> list[tuple[Any, ...]]:
    with Store.reader(db) as store:
        rows = store.expand(run).query(
            "SELECT * FROM seats WHERE run = ? ORDER BY profile, game, seat", run
        )
        return [r[1:] for r in rows]


def test_values_are_split_at_commas_outside_brackets() -> None:
    assert split_values("1,2, 3") == [("1", 0), ("2", 2), (" 3", 4)]
    assert [v for v, _ in split_values("[4,1,2,3],[1,1,1,1]")] == ["[4,1,2,3]", "[1,1,1,1]"]
    assert [v for v, _ in split_values("{small: 1, big: 2},'a,b'")] == [
        "{small: 1, big: 2}",
        "'a,b'",
    ]


def test_a_sweep_stores_one_rule_set_per_value_on_the_same_deals(
    tmp_path: Path, capsys: Capsys
) -> None:
    db = tmp_path / "s.db"
    report = sweep(capsys, db, "shichinarabe", "--vary", "turn.pass_limit=1,3,5",
                   "--games", "30", "--baseline", "3")  # fmt: skip
    names = ["turn.pass_limit=1", "turn.pass_limit=3", "turn.pass_limit=5"]
    assert list(report["points"]) == names
    assert report["baseline"] == "turn.pass_limit=3"
    store = Store.reader(db).expand(report["run"])
    con = store.db
    stored = dict(con.execute("SELECT profile, rules FROM rules WHERE run = ?", (report["run"],)))
    assert sorted(stored) == sorted(names)
    for name in names:
        assert json.loads(stored[name])["turn"]["pass_limit"] == int(name[-1])
    spec = RunSpec.from_json(
        con.execute("SELECT spec FROM runs WHERE id = ?", (report["run"],)).fetchone()[0]
    )
    assert spec.command == "sweep" and spec.sweep == "shichinarabe"
    assert spec.vary == (("turn.pass_limit", ("1", "3", "5")),)
    # every value plays deals 0..29, each deal once, the same hands (one 52-card deck)
    by: dict[str, list[tuple[int, int]]] = defaultdict(list)
    for profile, game, deal in con.execute(
        "SELECT DISTINCT profile, game, deal FROM seats WHERE run = ?", (report["run"],)
    ):
        by[profile].append((game, deal))
    assert all(sorted(v) == [(g, g) for g in range(30)] for v in by.values())
    assert report["deals_differ"] is False
    # passes used never exceed the value's limit, and some player uses all of them
    for name in names:
        limit = int(name[-1])
        most = con.execute(
            "SELECT MAX(passes) FROM seats WHERE run = ? AND profile = ?", (report["run"], name)
        ).fetchone()[0]
        assert most == limit
    # the differences from the baseline, recomputed from the rows, game by game
    length: dict[str, dict[int, int]] = defaultdict(dict)
    bursts: dict[str, dict[int, int]] = defaultdict(dict)
    for profile, game, actions, burst in con.execute(
        "SELECT profile, game, SUM(actions), SUM(burst) FROM seats WHERE run = ? "
        "GROUP BY profile, game", (report["run"],)
    ):  # fmt: skip
        length[profile][game] = actions
        bursts[profile][game] = burst
    store.close()
    rows = {r["key"]: r for r in report["measures"]}
    for name in ("turn.pass_limit=1", "turn.pass_limit=5"):
        for key, data in (("length", length), ("fires:burst", bursts)):
            diffs = [data[name][g] - data["turn.pass_limit=3"][g] for g in range(30)]
            mean = sum(diffs) / 30
            sd = math.sqrt(sum((d - mean) ** 2 for d in diffs) / 29)
            got = rows[key]["diff"][name]
            assert got["mean"] == pytest.approx(mean)
            assert got["ci95"] == pytest.approx(Z * sd / math.sqrt(30))
    assert "turn.pass_limit=3" not in rows["length"]["diff"]  # the baseline itself
    # the report of the stored run: the same figures, and the plots
    folder = tmp_path / "report"
    assert main(["report", report["run"], "--db", str(db), "--out", str(folder)]) == 0
    text = capsys.readouterr().out
    assert "differences from the baseline turn.pass_limit=3" in text
    assert "by turn.pass_limit:" in text
    for png in ("measures.png", "rules_fired.png", "differences.png"):
        assert (folder / png).read_bytes().startswith(b"\x89PNG")
    assert "<img" in (folder / "report.html").read_text(encoding="utf-8")
    assert main(["report", report["run"], "--db", str(db), "--json"]) == 0
    again = json.loads(capsys.readouterr().out)
    assert again["measures"] == report["measures"]


def test_a_grid_of_two_rules(tmp_path: Path, capsys: Capsys) -> None:
    db = tmp_path / "g.db"
    report = sweep(capsys, db, "platform", "--vary", "scoring.bust_above=30,60",
                   "--vary", "scoring.settlement=heads,difference", "--games", "12",
                   "--baseline", "60,heads")  # fmt: skip
    assert list(report["points"]) == [
        "scoring.bust_above=30, scoring.settlement=heads",
        "scoring.bust_above=30, scoring.settlement=difference",
        "scoring.bust_above=60, scoring.settlement=heads",
        "scoring.bust_above=60, scoring.settlement=difference",
    ]
    assert report["baseline"] == "scoring.bust_above=60, scoring.settlement=heads"
    bust = next(r for r in report["measures"] if r["key"] == "fires:bust")
    # a lower threshold never busts fewer players on the same deals
    assert bust["diff"]["scoring.bust_above=30, scoring.settlement=heads"]["mean"] >= 0
    assert main(["report", report["run"], "--db", str(db), "--out", str(tmp_path / "r")]) == 0
    assert (tmp_path / "r" / "measures.png").exists()


def test_the_joker_changes_the_deck_and_the_report_says_so(tmp_path: Path, capsys: Capsys) -> None:
    report = sweep(capsys, tmp_path / "j.db", "doujue", "--vary", "deck.jokers=0,1",
                   "--games", "20")  # fmt: skip
    assert report["deals_differ"] is True
    fired = next(r for r in report["measures"] if r["key"] == "fires:swap")
    assert "deck.jokers=0" not in fired["by"]  # no joker, no swap rule in effect
    assert main(["report", report["run"], "--db", str(tmp_path / "j.db"), "--out",
                 str(tmp_path / "r")]) == 0  # fmt: skip
    assert "different decks" in capsys.readouterr().out


def test_an_interrupted_sweep_resumes_to_the_same_rows(tmp_path: Path, capsys: Capsys) -> None:
    points = sweep_points("pagat", ["players=4"], ["turn.pass_limit=1,2"], None)
    assert points.names == ("turn.pass_limit=1", "turn.pass_limit=2")
    spec = RunSpec("sweep", points.names, ("players=4",), (), False, 5, 30, 10, 4,
                   share_deals=4, replays=3, sweep="pagat", vary=points.vary)  # fmt: skip
    whole_db, part_db = tmp_path / "whole.db", tmp_path / "part.db"
    with Store(whole_db) as store:
        whole = store.new_run(spec, points.rules)
        run(store, whole, 1)
    seen: list[int] = []

    def stop(done: int) -> None:
        seen.append(done)
        if len(seen) > 3:
            raise KeyboardInterrupt

    with Store(part_db) as store:
        part = store.new_run(spec, points.rules)
        with pytest.raises(KeyboardInterrupt):
            run(store, part, 1, stop)
        assert len(store.finished(part)) == 3
    assert main(["sweep", "--resume", part, "--db", str(part_db), "-q", "--json"]) == 0
    resumed = json.loads(capsys.readouterr().out)
    assert seats(part_db, part) == seats(whole_db, whole)
    assert len(seats(part_db, part)) == 4 * (30 + 30 + 12 + 12)
    # a resumed sweep refuses options that would change it
    status = main(["sweep", "--resume", part, "--db", str(part_db), "--vary", "a.b=1,2"])
    assert status == 2
    assert "leave out --vary" in capsys.readouterr().err
    assert resumed["design"]["deal_share"]["replays"] == 3


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--vary", "turn.pass_limt=1,2"],
         "--vary:1:6: turn.pass_limt: unknown key; did you mean 'pass_limit'?"),
        (["--vary", "turn.pass_limit=1,-1"],
         "--vary:1:19: turn.pass_limit: -1 is less than the minimum of 0"),
        (["--vary", "turn.pass_limit=2,3", "--vary", "deck.jokers=0, lots"],
         "--vary:2:16: deck.jokers: 'lots' is not of type 'integer'"),
        (["--vary", "turn.pass_limit=2,,3"],
         "--vary:1:19: turn.pass_limit: an empty value: give the values as KEY=V1,V2,... "
         "with no empty one"),
        (["--vary", "turn.pass_limit"],
         "--vary:1:1: (root): 'turn.pass_limit' is not KEY=V1,V2,... (e.g. "
         "turn.pass_limit=1,2,3)"),
        (["--vary", "turn.pass_limit=2,3,2"],
         "--vary:1:21: turn.pass_limit: 2 gives the same rules as 2: give each value once"),
        (["--vary", "turn.pass_limit=2,3", "--vary", "turn.pass_limit=4,5"],
         "--vary:2:1: turn.pass_limit: varied twice (--vary 1 and 2): give its values once"),
        (["--vary", "turn.pass_limit=2,3", "--set", "turn.pass_limit=4"],
         "--vary:1:1: turn.pass_limit: also given by --set: give it once, with --vary to "
         "vary it"),
        (["--vary", "turn.pass_limit=2"],
         "--vary:1:17: turn.pass_limit: a sweep needs two values or more"),
        (["--vary", "players=3,4"],
         "sweep: the values seat different numbers of players (players=3: 3, players=4: 4); "
         "the same deals need the same table: sweep one number of players at a time"),
        (["--vary", "turn.pass_limit=2,3", "--baseline", "4"],
         "--baseline 4: 4 is not one of the values of turn.pass_limit (2, 3)"),
        (["--vary", "turn.pass_limit=2,3", "--replays", "4"],
         "--replays: give --deal-share DEALS too (how many deals to replay)"),
        (["--vary", "turn.pass_limit=2,3", "--deal-share", "5", "--replays", "1"],
         "--replays: 1 is too few: a deal must be played twice or more to tell the deal "
         "from the play"),
        ([], "sweep: name a rule to vary and its values, e.g. --vary turn.pass_limit=1,2,3"),
    ],
)  # fmt: skip
def test_bad_input_is_located_and_writes_nothing(
    tmp_path: Path, capsys: Capsys, argv: list[str], message: str
) -> None:
    db = tmp_path / "bad.db"
    status = main(["sweep", "shichinarabe", *argv, "--games", "5", "--db", str(db)])
    err = capsys.readouterr().err
    assert status == 2
    assert err == message + "\n"
    assert not db.exists()


def test_a_sweep_names_one_profile(tmp_path: Path, capsys: Capsys) -> None:
    for profiles in ([], ["doujue", "pagat"]):
        status = main(["sweep", *profiles, "--vary", "scoring.stake=1,2", "--db",
                       str(tmp_path / "x.db")])  # fmt: skip
        assert status == 2
        assert capsys.readouterr().err == "sweep: name one profile (or --resume RUN)\n"
