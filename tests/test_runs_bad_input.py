"""Stored runs and their statistics under bad, huge or damaged input: every such case ends
in one line on stderr and exit status 2 (nothing stored), a run's batches are made as they
are needed, ``paiqi sql`` only reads, a damaged run leaves the others readable, and a
figure from fewer than two deals claims no interval."""

from __future__ import annotations

import argparse
import io
import itertools
import json
import os
import random
import signal
import sqlite3
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from paiqi_core import Game
from paiqi_core.cli import main
from paiqi_core.cli.common import BadInput
from paiqi_core.cli.runs import cmd_sql
from paiqi_core.runs.batch import Batch, BatchSpec
from paiqi_core.runs.execute import execute
from paiqi_core.runs.run import InOrder, batches
from paiqi_core.runs.store import RunSpec, Store
from paiqi_core.seeds import game_seed
from paiqi_core.simulate import play_game

from .test_runs_reliability import interrupted

Capsys = pytest.CaptureFixture[str]


def cli(capsys: Capsys, *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    assert "Traceback" not in err
    return status, out, err


def refused(capsys: Capsys, tmp_path: Path, *argv: str) -> str:
    """The one line a refused command prints; checks that it wrote no file."""
    status, out, err = cli(capsys, *argv)
    assert (status, out) == (2, "")
    assert len(err.splitlines()) == 1, err
    assert list(tmp_path.iterdir()) == []
    return err.strip()


# -- item: what a run may ask for ---------------------------------------------------------

HUGE = str(10**26)
BEYOND_INT64 = str(2**63)


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (f"compare doujue platform --games {HUGE} DB", "--games: 100,000,000,000,000,000"),
        (f"compare doujue platform --games {BEYOND_INT64} DB", "--games: 9,223,372,036,854"),
        ("compare doujue platform --games 1000000001 DB", "--games: 1,000,000,001 is more than"),
        (f"sweep doujue --vary scoring.stake=1,2 --games {HUGE} DB", "--games: 100,000"),
        (f"tournament doujue --agents random,heuristic --games {HUGE} DB", "--games: 100,000"),
        (f"simulate doujue --games {HUGE}", "--games: 100,000,000"),
        ("simulate doujue --games 0", "--games: 0 is not a positive number of games"),
        (f"simulate doujue --sessions {HUGE}", "--sessions: 100,000"),
        ("simulate doujue --sessions 0", "--sessions: 0 is not a positive number"),
        (f"simulate doujue --matches {HUGE}", "--matches: 100,000"),
        ("simulate doujue --matches -2", "--matches: -2 is not a positive number"),
        ("simulate doujue --seed -1", "--seed: -1 is not a seed from 0 to"),
        (f"compare doujue platform --seed {BEYOND_INT64} DB", "--seed: 9223372036854775808 is"),
        (f"tournament doujue --agents random,easy --seed {HUGE} DB", "--seed: 1000000000"),
        ("compare doujue platform --batch 0 DB", "--batch: 0 is not a positive number"),
        (f"compare doujue platform --batch {HUGE} DB", "--batch: 100,000"),
        ("compare doujue platform --workers -1 DB", "--workers: -1 is not a positive number"),
        ("compare doujue platform --workers 100000 DB", "--workers: 100,000 is more than"),
        ("compare doujue platform --skill 0 DB", "--skill: 0 is not a positive number"),
        (f"sweep doujue --vary scoring.stake=1,2 --skill {HUGE} DB", "--skill: 100,000"),
        ("compare doujue platform --deal-share -3 DB", "--deal-share: -3 is not a positive"),
        (f"compare doujue platform --deal-share {HUGE} DB", "--deal-share: 100,000"),
        ("compare doujue platform --deal-share 2 --replays 1 DB", "--replays: 1 is too few"),
        (f"compare doujue platform --deal-share 2 --replays {HUGE} DB", "--replays: 100,000"),
        # each option within bounds, but deals times replays beyond what a run may play
        (
            "compare doujue platform --deal-share 100000 --replays 100000 DB",
            "compare: doujue · deals replayed would play 10,000,000,000 games, more than the most",
        ),
        ("bench doujue --games 0", "--games: 0 is not a positive number"),
        (f"bench doujue --games {HUGE}", "--games: 100,000"),
    ],
)
def test_counts_out_of_bounds_are_refused_in_one_line(
    tmp_path: Path, capsys: Capsys, argv: str, message: str
) -> None:
    db = str(tmp_path / "r.db")
    args = [db if a == "DB" else a for a in argv.split()]
    args = [a for b in args for a in (["--db", b] if b == db else [b])]
    assert refused(capsys, tmp_path, *args).startswith(message)


class Counted:
    """An iterator of many batch specs that counts how many were taken."""

    def __init__(self, count: int) -> None:
        self.taken = 0
        self.specs = (BatchSpec("doujue", (), (), False, 0, start, 1) for start in range(count))

    def __iter__(self) -> Iterator[BatchSpec]:
        for spec in self.specs:
            self.taken += 1
            yield spec


class Enough(Exception):
    """Stops an execution after its first batch."""


@pytest.mark.parametrize("workers", [1, 2])
def test_batches_are_made_as_they_are_needed(workers: int) -> None:
    many = Counted(10**6)

    def done(spec: BatchSpec, batch: Batch) -> None:
        raise Enough

    with pytest.raises(Enough):
        execute(many, workers, done)
    assert many.taken <= 2 * workers + 1  # what the workers hold, not the whole run


def test_a_huge_run_plans_its_batches_lazily() -> None:
    spec = RunSpec("compare", ("doujue", "platform"), (), (), False, 0, 10**9, 1, 4)
    first = list(itertools.islice(batches(spec, {("doujue", 0)}), 3))
    assert [(b.profile, b.start) for b in first] == [
        ("platform", 0),
        ("doujue", 1),
        ("platform", 1),
    ]


def test_records_in_order_read_the_order_as_needed() -> None:
    out = io.StringIO()
    order = (("p", start) for start in itertools.count())  # no end: never listed
    writer = InOrder(out, order)
    writer.add(("p", 1), ["b"])
    assert out.getvalue() == ""
    writer.add(("p", 0), ["a"])
    assert out.getvalue() == "a\nb\n"


# -- item: --resume last ------------------------------------------------------------------


@pytest.mark.parametrize("command", ["compare", "sweep", "tournament"])
def test_resume_last_resumes_the_last_run_of_the_command(
    tmp_path: Path, capsys: Capsys, command: str
) -> None:
    db = tmp_path / "r.db"
    compare = RunSpec("compare", ("doujue", "platform"), (), (), False, 0, 6, 2, 4)
    first = interrupted(db, compare, 1)
    if command == "compare":
        second = interrupted(db, compare, 2)
    else:
        start = {
            "sweep": ["sweep", "doujue", "--vary", "scoring.stake=1,2"],
            "tournament": ["tournament", "doujue", "--agents", "random,easy"],
        }[command]
        status, _, _ = cli(capsys, *start, "--games", "4", "--db", str(db), "-q", "--json")
        assert status == 0
        with Store.reader(db) as store:
            second = store.runs()[-1].id
        compare_last = interrupted(db, compare, 1)  # a later run of another command
        del compare_last
    status, out, err = cli(capsys, command, "--resume", "last", "--db", str(db), "-q", "--json")
    assert (status, err) == (0, "")
    assert json.loads(out)["run"] == second
    with Store.reader(db) as store:
        info = {r.id: r for r in store.runs()}
    assert info[second].played == info[second].total
    assert info[first].played < info[first].total  # the earlier run is left as it was


def test_resume_last_of_a_file_without_such_a_run(tmp_path: Path, capsys: Capsys) -> None:
    db = tmp_path / "r.db"
    interrupted(db, RunSpec("compare", ("doujue", "platform"), (), (), False, 0, 6, 2, 4), 1)
    status, out, err = cli(capsys, "sweep", "--resume", "last", "--db", str(db))
    assert (status, out) == (2, "")
    assert err == f"--resume last: {db} holds no sweep run\n"


# -- item: paiqi sql only reads, and stops -----------------------------------------------

COUNTING = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < {n}) "


@pytest.fixture(scope="module")
def results(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A results file of two short runs (a compare, then a sweep)."""
    db = tmp_path_factory.mktemp("results") / "r.db"
    for argv in (
        ["compare", "doujue", "platform", "--games", "3"],
        ["sweep", "doujue", "--vary", "scoring.stake=1,2", "--games", "3"],
    ):
        assert main([*argv, "--db", str(db), "-q", "--json", "--workers", "1"]) == 0
    return db


def _files(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


@pytest.mark.parametrize(
    "query",
    [
        "VACUUM INTO '{folder}/copy.db'",
        "ATTACH DATABASE '{folder}/new.db' AS new",
        "ATTACH DATABASE ':memory:' AS new",
        "PRAGMA user_version = 7",
        "PRAGMA journal_mode = WAL",
        "DELETE FROM runs",
        "CREATE TABLE kept (x)",
        "CREATE TEMP TABLE kept (x)",
        "UPDATE runs SET command = 'x'",
    ],
)
def test_sql_refuses_whatever_is_not_a_read(results: Path, capsys: Capsys, query: str) -> None:
    folder = results.parent
    before = _files(folder)
    query = query.format(folder=folder)
    status, out, err = cli(capsys, "sql", query, "--db", str(results))
    assert (status, out) == (2, "")
    assert err == (
        "sql: this command only reads the file: ATTACH, VACUUM INTO, writes and pragmas "
        f"that set something are refused (in: {query})\n"
    )
    assert _files(folder) == before


def test_sql_still_answers_reads_recursion_and_describing_pragmas(
    results: Path, capsys: Capsys
) -> None:
    status, out, _ = cli(
        capsys, "sql", "SELECT COUNT(*) AS n FROM seats", "--db", str(results), "--json"
    )
    assert (status, json.loads(out)) == (0, [{"n": (3 * 2 + 3 * 2) * 4}])
    query = COUNTING.format(n=3) + "SELECT x FROM c"
    assert json.loads(cli(capsys, "sql", query, "--db", str(results), "--json")[1]) == [
        {"x": 1}, {"x": 2}, {"x": 3}
    ]  # fmt: skip
    status, out, _ = cli(capsys, "sql", "PRAGMA table_info('runs')", "--db", str(results), "--json")
    assert [c["name"] for c in json.loads(out)] == ["id", "created", "command", "spec"]


def sql_args(db: Path, query: str, **options: object) -> argparse.Namespace:
    return argparse.Namespace(query=query, db=str(db), run=None, csv=False, json=True, **options)


def test_sql_timeout_stops_a_long_query(results: Path, capsys: Capsys) -> None:
    query = COUNTING.format(n=10**12) + "SELECT COUNT(*) FROM c"
    start = time.monotonic()
    with pytest.raises(BadInput) as e:
        cmd_sql(sql_args(results, query, timeout=0.5, limit=None))
    assert str(e.value) == f"sql: stopped after --timeout 0.5 seconds (in: {query})"
    assert time.monotonic() - start < 30


def test_sql_limit_prints_the_first_rows(results: Path, capsys: Capsys) -> None:
    query = COUNTING.format(n=10**12) + "SELECT x FROM c"  # endless: only 2 rows are read
    assert cmd_sql(sql_args(results, query, timeout=None, limit=2)) == 0
    out, err = capsys.readouterr()
    assert json.loads(out) == [{"x": 1}, {"x": 2}]
    assert err == "sql: the first 2 rows only (--limit 2)\n"


@pytest.mark.parametrize(("option", "value"), [("timeout", 0.0), ("timeout", -1.0), ("limit", 0)])
def test_sql_bounds_out_of_range_are_refused(results: Path, option: str, value: float) -> None:
    options: dict[str, object] = {"timeout": None, "limit": None, option: value}
    with pytest.raises(BadInput, match=f"^--{option}: "):
        cmd_sql(sql_args(results, "SELECT 1", **options))


def test_ctrl_c_stops_a_long_query(results: Path, capsys: Capsys) -> None:
    query = COUNTING.format(n=2 * 10**7) + "SELECT COUNT(*) FROM c"  # some 20 s or more
    timer = threading.Timer(0.5, os.kill, (os.getpid(), signal.SIGINT))
    start = time.monotonic()
    timer.start()
    status, out, err = cli(capsys, "sql", query, "--db", str(results))
    timer.join()
    assert (status, out, err) == (130, "", "sql: interrupted; nothing printed\n")
    assert time.monotonic() - start < 10


# -- item: a damaged run leaves the others readable -------------------------------------


def _damaged(results: Path, tmp_path: Path, spec: bytes) -> tuple[Path, str, str]:
    """A copy of ``results`` whose first run's spec is ``spec``: (file, damaged, intact)."""
    db = tmp_path / "damaged.db"
    db.write_bytes(results.read_bytes())
    con = sqlite3.connect(db)
    damaged, intact = (r for (r,) in con.execute("SELECT id FROM runs ORDER BY created"))
    con.execute("UPDATE runs SET spec = CAST(? AS TEXT) WHERE id = ?", (spec, damaged))
    con.commit()
    con.close()
    return db, damaged, intact


@pytest.mark.parametrize(
    ("spec", "why"),
    [
        (b"null", "not a run's options"),
        (b'{"command": "compare", "profiles": [', "not a run's options"),
        (b'{"profiles": ["doujue"]}', "not a run's options"),
        (b'["a list"]', "not a run's options"),
        (b'{"command": "comp\xff\xfe', "not UTF-8 text"),
    ],
    ids=["null", "broken JSON", "missing keys", "a list", "not UTF-8"],
)
def test_a_damaged_run_is_named_and_the_others_stay_readable(
    results: Path, tmp_path: Path, capsys: Capsys, spec: bytes, why: str
) -> None:
    db, damaged, intact = _damaged(results, tmp_path, spec)
    line = (
        f"{db}: run {damaged} is damaged: its options (runs.spec) are {why}; the other runs "
        "of the file can still be read\n"
    )
    for argv in (
        ["report", damaged, "--json"],
        ["sql", "SELECT COUNT(*) FROM seats", "--run", damaged],
        ["compare", "--resume", damaged],
    ):
        assert cli(capsys, *argv, "--db", str(db)) == (2, "", line)
    status, out, _ = cli(capsys, "report", "--db", str(db), "--json")
    assert status == 0
    assert json.loads(out)[-1] == {"run": damaged, "damaged": line.strip()}
    status, out, _ = cli(capsys, "report", "--db", str(db))
    assert status == 0
    assert "DAMAGED" in next(ln for ln in out.splitlines() if ln.startswith(damaged))
    status, out, _ = cli(capsys, "report", intact, "--db", str(db), "--json")
    assert (status, json.loads(out)["run"]) == (0, intact)
    query = "SELECT COUNT(*) AS n FROM seats"
    status, out, _ = cli(capsys, "sql", query, "--run", intact, "--db", str(db), "--json")
    assert (status, json.loads(out)) == (0, [{"n": 3 * 2 * 4}])  # 3 deals, 2 values, 4 seats


def test_a_run_of_an_unknown_generator_is_named_not_played(
    results: Path, tmp_path: Path, capsys: Capsys
) -> None:
    """A run stored by a version that deals with a generator this one does not know (a
    later one) is named in one line, like a damaged run, and never resumed with other deals."""
    con = sqlite3.connect(results)
    (text,) = con.execute("SELECT spec FROM runs ORDER BY created").fetchone()
    con.close()
    spec = json.loads(text)
    assert spec["generator"] == "splitmix64-lemire"
    spec["generator"] = "pcg64"
    db, damaged, _ = _damaged(results, tmp_path, json.dumps(spec).encode())
    line = (
        f"{db}: run {damaged} is damaged: its options (runs.spec) are for a generator this "
        "version does not know ('pcg64'; it knows splitmix64-lemire, splitmix64, mt19937); the "
        "other runs of the file can still be read\n"
    )
    for argv in (["report", damaged, "--json"], ["compare", "--resume", damaged]):
        assert cli(capsys, *argv, "--db", str(db)) == (2, "", line)


def test_a_file_damaged_page_by_page_is_one_line(
    results: Path, tmp_path: Path, capsys: Capsys
) -> None:
    """Bytes flipped in every page but the first: each command ends with one line, or reads
    what it still can; never a traceback."""
    data = bytearray(results.read_bytes())
    page = int.from_bytes(data[16:18], "big")
    rng = random.Random(7)
    for start in range(page, len(data), page):
        for _ in range(8):
            data[start + rng.randrange(page)] ^= 0xFF
    db = tmp_path / "flipped.db"
    db.write_bytes(bytes(data))
    for argv in (["report"], ["report", "last"], ["sql", "SELECT COUNT(*) FROM seats"]):
        status, out, err = cli(capsys, *argv, "--db", str(db))
        assert status in (0, 2)
        if status == 2:
            assert (out, len(err.splitlines())) == ("", 1)
            assert str(db) in err


# -- item: a run with no finished games ---------------------------------------------------


@pytest.mark.parametrize("json_", [[], ["--json"]])
def test_a_run_with_no_finished_games_is_not_reported(
    tmp_path: Path, capsys: Capsys, json_: list[str]
) -> None:
    db = tmp_path / "r.db"
    run_id = interrupted(
        db, RunSpec("compare", ("doujue", "platform"), (), (), False, 0, 4, 2, 4), 0
    )
    out_dir = tmp_path / "out"
    for run in (run_id, "last"):
        status, out, err = cli(
            capsys, "report", run, "--db", str(db), "--out", str(out_dir), *json_
        )
        assert (status, out) == (2, "")
        assert err == (
            f"run {run_id} in {db} has no finished games yet, so there is nothing to report: "
            f"play it with  paiqi compare --db {db} --resume {run_id}\n"
        )
    assert not out_dir.exists()


# -- item: a sweep's values must change the rules -----------------------------------------


@pytest.mark.parametrize(
    ("vary", "message"),
    [
        ("scoring.stake=1.0,1", "--vary:1:19: scoring.stake: 1 gives the same rules as 1.0"),
        ("scoring.stake=2,3,2.0", "--vary:1:19: scoring.stake: 2.0 gives the same rules as 2"),
        ("id=a,b", "--vary:1:1: id: names or describes the profile and changes nothing"),
        ("name=a,b", "--vary:1:1: name: names or describes the profile and changes nothing"),
        ("description=a,b", "--vary:1:1: description: names or describes the profile"),
    ],
)
def test_a_sweep_of_values_that_play_alike_is_refused(
    tmp_path: Path, capsys: Capsys, vary: str, message: str
) -> None:
    db = str(tmp_path / "r.db")
    line = refused(capsys, tmp_path, "sweep", "doujue", "--vary", vary, "--games", "2", "--db", db)
    assert line.startswith(message)


# -- item: one deal gives no interval -----------------------------------------------------


PAIR = (("platform", 1), ("doujue", -1))


def test_one_deal_gives_no_interval_and_claims_no_difference(
    tmp_path: Path, capsys: Capsys
) -> None:
    db = str(tmp_path / "r.db")
    status, out, _ = cli(capsys, "compare", "doujue", "platform", "--games", "1", "--db", db, "-q")
    assert status == 0
    lines = out.splitlines()
    assert not [ln for ln in lines if ln.endswith((" *", "± 0")) or "± 0.0" in ln]
    # seat 0's money on the one deal, platform less doujue, as the two games settle it
    deal = game_seed(0, 0)
    gap = sum(play_game(Game(p), deal).result().money[0] * s for p, s in PAIR)
    assert f"{gap:+.3f} ± n/a (one deal)" in out and gap != 0
    status, out, _ = cli(capsys, "report", "last", "--db", db, "--json")
    paired = json.loads(out)["paired"]["platform"]
    assert paired["seat0_money"] == {"n": 1, "mean": float(gap), "ci95": None}
    args = ["tournament", "doujue", "--agents", "random,heuristic", "--games", "1"]
    status, out, _ = cli(capsys, *args, "--db", db, "-q")
    assert status == 0
    assert "better" not in out and "+1200" not in out
    edge = next(ln for ln in out.splitlines() if ln.startswith("random vs heuristic"))
    assert edge.endswith("± n/a (one deal)  no clear edge")
    rating = next(ln for ln in out.splitlines() if ln.startswith("heuristic") and "n/a" in ln)
    assert rating.split()[1:] == ["n/a", "n/a", "(one", "deal)"]
    # the design measures pool the deal's seatings, which are no independent draws: no
    # interval, and the skill gap names no player as better
    assert "rated best" not in out and "skill gap: n/a" in out
    rows = out.split("design measures")[1].split("rules in effect")[0].splitlines()[3:]
    assert rows and not [row for row in rows if "±" in row]
    status, out, _ = cli(capsys, "report", "last", "--db", db, "--json")
    measures = json.loads(out)["design"]["rule_sets"]
    assert all(m["ci95"] is None for rs in measures.values() for m in rs["measures"].values())


# -- item: long phases are not silent on a terminal ---------------------------------------


@pytest.mark.parametrize("tty", [True, False])
def test_computing_a_report_is_shown_on_a_terminal_only(
    results: Path, capsys: Capsys, monkeypatch: pytest.MonkeyPatch, tty: bool
) -> None:
    monkeypatch.setattr(sys.stderr, "isatty", lambda: tty)
    status, _, err = cli(capsys, "report", "last", "--db", str(results), "--json")
    assert status == 0
    if tty:
        assert err.startswith("sweep: computing the figures of 6 games...\r")
        assert err.endswith("\r")  # erased once the figures are ready
    else:
        assert err == ""
    status, _, err = cli(capsys, "compare", "--resume", "last", "--db", str(results), "-q")
    assert (status, err) == (0, "")  # -q: nothing on stderr, terminal or not
