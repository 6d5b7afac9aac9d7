"""Stored runs keep their integrity and bad input never ends in a traceback.

A run plays the rules it stored when it started, whatever happens to the profile files; a
resume plays those rules or refuses; one process plays a run at a time; Ctrl-C always ends
the command with status 130 and keeps every finished batch whole; unusable results files,
options and records are located one-line errors (exit status 2) that leave no file behind;
reading a results file never writes to it."""

from __future__ import annotations

import json
import multiprocessing
import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from paiqi_core.cli import main
from paiqi_core.hooks import registry
from paiqi_core.hooks.scoring_simple import first_out
from paiqi_core.outcome import Result
from paiqi_core.profile import Location, Problem, ProfileError, load_profile
from paiqi_core.runs.run import run
from paiqi_core.runs.store import RunSpec, Store
from paiqi_core.slots import Scoring

from .conftest import ROOT

Capsys = pytest.CaptureFixture[str]
HOUSE = "extends: doujue\nscoring:\n  stake: {stake}\n"


def cli(capsys: Capsys, *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    assert "Traceback" not in err
    return status, out, err


def rows(db: Path, run_id: str | None = None) -> list[tuple[Any, ...]]:
    """A run's rows without the run id, in order (the only run when none is named): the
    rows of its blocks, unpacked."""
    with Store.reader(db) as store:
        run_id = run_id or store.runs()[-1].id
        sql = "SELECT * FROM seats WHERE run = ? ORDER BY profile, game, seat"
        return [r[1:] for r in store.expand(run_id).query(sql, run_id)]


def interrupted(db: Path, spec: RunSpec, batches: int) -> str:
    """A run of ``spec`` in ``db`` stopped (Ctrl-C, in effect) after ``batches`` batches."""
    with Store(db) as store:
        run_id = interrupted_in(store, spec, batches)
        assert len(store.finished(run_id)) == batches
    return run_id


def whole(db: Path, spec: RunSpec) -> list[tuple[Any, ...]]:
    """The rows of an uninterrupted run of ``spec``."""
    with Store(db) as store:
        run_id = store.new_run(spec)
        run(store, run_id, 1)
    found = rows(db, run_id)
    assert len(found) == spec.all_games * spec.players  # every game's rows, once
    return found


def resume(capsys: Capsys, db: Path, run_id: str, *extra: str) -> tuple[int, str, str]:
    return cli(capsys, "compare", "--resume", run_id, "--db", str(db), "-q", "--json", *extra)


# -- a resumed run never mixes rule sets ----------------------------------------------


def test_a_run_stores_the_resolved_rules_of_each_profile(tmp_path: Path) -> None:
    spec = RunSpec(
        "compare", ("doujue", "doujue-tunnel"), ("scoring.stake=3",), (), False, 0, 4, 2, 4
    )
    with Store(tmp_path / "r.db") as store:
        run_id = store.new_run(spec)
        stored = list(store.query("SELECT profile, fingerprint, rules FROM rules WHERE run = ?",
                                  run_id))  # fmt: skip
    assert [p for p, _, _ in stored] == ["doujue", "doujue-tunnel"]
    for name, fingerprint, text in stored:
        profile = load_profile(name, ["scoring.stake=3"])
        assert fingerprint == profile.fingerprint
        assert json.loads(text) == profile.resolved()
    assert json.loads(stored[0][2])["scoring"]["stake"] == 3


@pytest.mark.parametrize("move", [False, True], ids=["file edited", "other file, same name"])
def test_resume_plays_the_stored_rules_whatever_the_file_holds_now(
    tmp_path: Path, capsys: Capsys, monkeypatch: pytest.MonkeyPatch, move: bool
) -> None:
    first, second = tmp_path / "a", tmp_path / "b"
    first.mkdir()
    second.mkdir()
    (first / "house.yaml").write_text(HOUSE.format(stake=1), encoding="utf-8")
    monkeypatch.chdir(first)
    spec = RunSpec("compare", ("house.yaml", "doujue"), (), (), False, 4, 60, 20, 4)
    expected = whole(tmp_path / "whole.db", spec)
    db = tmp_path / "cut.db"
    run_id = interrupted(db, spec, 2)
    if move:  # resumed from another folder, whose house.yaml says something else
        (second / "house.yaml").write_text(HOUSE.format(stake=1000), encoding="utf-8")
        monkeypatch.chdir(second)
    else:  # the file edited between the interrupt and the resume
        (first / "house.yaml").write_text(HOUSE.format(stake=1000), encoding="utf-8")
    status, _, _ = resume(capsys, db, run_id, "--workers", "2")
    assert status == 0
    assert rows(db, run_id) == expected
    # the same deals: the house rules are doujue's, so the money matches game by game
    house = [r[1:] for r in expected if r[0] == "house.yaml"]
    assert house == [r[1:] for r in expected if r[0] == "doujue"]


@pytest.fixture
def hooks(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Hooks registered by a test are gone after it."""
    for slot in registry.SLOTS:
        monkeypatch.setitem(registry._REGISTRY, slot, dict(registry._REGISTRY[slot]))
    yield


def _first_out(fail: Exception | None = None) -> Scoring:
    """pagat's scoring (the first player out wins); ``fail`` is raised when a game is
    scored in a process other than the test's (a worker)."""
    parent = os.getpid()
    base = first_out({})

    def score(outcomes: Any) -> Result:
        if fail is not None and os.getpid() != parent:
            raise fail
        return base.score(outcomes)

    return Scoring(score, base.facts)


def test_resume_refuses_rules_this_installation_cannot_play(
    tmp_path: Path, capsys: Capsys, hooks: None
) -> None:
    registry.register("scoring", "house_first", summary="first out wins")(lambda p: _first_out())
    profile = tmp_path / "house.yaml"
    profile.write_text("extends: pagat\nscoring:\n  method: house_first\n", encoding="utf-8")
    spec = RunSpec("compare", (str(profile), "pagat"), (), (), False, 0, 40, 20, 4)
    db = tmp_path / "r.db"
    run_id = interrupted(db, spec, 1)
    del registry._REGISTRY["scoring"]["house_first"]  # the plugin is uninstalled
    status, out, err = resume(capsys, db, run_id)
    assert (status, out) == (2, "")
    assert "scoring.method: unknown scoring hook 'house_first'" in err
    assert f"as stored in {db}, run {run_id}" in err
    assert f"--resume {run_id}: the rules stored with this run cannot be played here" in err
    with Store.reader(db) as store:
        assert len(store.finished(run_id)) == 1  # nothing more was played


def test_resume_refuses_stored_rules_that_now_load_differently(
    tmp_path: Path, capsys: Capsys
) -> None:
    db = tmp_path / "r.db"
    run_id = interrupted(
        db, RunSpec("compare", ("doujue", "pagat"), (), (), False, 0, 40, 20, 4), 1
    )
    con = sqlite3.connect(db)
    with con:  # the rules no longer match the fingerprint taken when the run started
        con.execute("UPDATE rules SET rules = replace(rules, '\"stake\": 1', '\"stake\": 9')")
    con.close()
    status, _, err = resume(capsys, db, run_id)
    assert status == 2
    assert f"run {run_id}: the stored rules of doujue load differently" in err
    assert "playing on would mix two rule sets in one run" in err


OLD_SCHEMA = """
CREATE TABLE runs (id TEXT PRIMARY KEY, created REAL, command TEXT, spec TEXT);
CREATE TABLE batches (run TEXT, profile TEXT, start INTEGER, PRIMARY KEY (run, profile, start));
"""


def test_a_run_stored_before_runs_kept_their_rules_is_not_resumed(
    tmp_path: Path, capsys: Capsys
) -> None:
    """A file written by an earlier paiqi: runs, batches and seats, no rules table."""
    from tests.test_design import _as_rows_file

    db = tmp_path / "old.db"
    spec = RunSpec("compare", ("doujue", "pagat"), (), (), False, 0, 40, 20, 4)
    run_id = interrupted(db, spec, 1)
    _as_rows_file(db)  # its rows in the seats table, its batches without blocks
    con = sqlite3.connect(db)
    with con:
        con.execute("DROP TABLE rules")
    con.close()
    status, _, err = resume(capsys, db, run_id)
    assert status == 2
    assert err.startswith(f"{db}: run {run_id} holds no rules for doujue, pagat: it was started")
    assert "cannot be known; start a new run" in err
    # its figures can still be reported (read-only, without the rules)
    status, out, _ = cli(capsys, "report", run_id, "--db", str(db), "--json")
    assert status == 0
    old = json.loads(out)
    assert old["profiles"]["doujue"]["objective"] is None
    assert old["profiles"]["doujue"]["per_game"]["actions"]["n"] == 20  # its finished batch


@pytest.mark.parametrize(
    ("extra", "named"),
    [
        (["doujue", "pagat"], "PROFILE"),
        (["--games", "100"], "--games"),
        (["--set", "scoring.stake=1000"], "--set"),
        (["--agents", "heuristic,random,random,random"], "--agents"),
        (["--rotate"], "--rotate"),
        (["--seed", "0"], "--seed"),  # even the value it started with
        (["--batch", "20"], "--batch"),
        (["--games", "100", "--seed", "1"], "--games, --seed"),
    ],
)
def test_resume_refuses_options_that_would_change_the_run(
    tmp_path: Path, capsys: Capsys, extra: list[str], named: str
) -> None:
    db = tmp_path / "r.db"
    run_id = interrupted(
        db, RunSpec("compare", ("doujue", "pagat"), (), (), False, 0, 40, 20, 4), 1
    )
    status, _, err = resume(capsys, db, run_id, *extra)
    assert status == 2
    assert err == (
        f"--resume {run_id}: a resumed run keeps the profiles, rules and options it started "
        f"with; leave out {named}\n"
    )
    with Store.reader(db) as store:
        assert len(store.finished(run_id)) == 1


def test_an_empty_resume_is_an_error_not_a_new_run(tmp_path: Path, capsys: Capsys) -> None:
    db = tmp_path / "r.db"
    interrupted(db, RunSpec("compare", ("doujue", "pagat"), (), (), False, 0, 40, 20, 4), 1)
    for empty in ("", "  "):
        status, out, err = cli(capsys, "compare", "--resume", empty, "--db", str(db))
        assert (status, out) == (2, "")
        assert err == f"--resume: name a run ('paiqi report --db {db}' lists them)\n"
    with Store.reader(db) as store:
        assert len(store.runs()) == 1


def test_resume_of_an_unknown_run_names_the_runs_there(tmp_path: Path, capsys: Capsys) -> None:
    db = tmp_path / "r.db"
    run_id = interrupted(
        db, RunSpec("compare", ("doujue", "pagat"), (), (), False, 0, 40, 20, 4), 1
    )
    status, _, err = cli(capsys, "compare", "--resume", "nope", "--db", str(db))
    assert status == 2
    assert err == f"--resume: no run 'nope' in {db} (runs: {run_id})\n"
    status, _, err = cli(capsys, "compare", "--resume", "nope", "--db", str(tmp_path / "x.db"))
    assert (status, err) == (2, f"{tmp_path / 'x.db'}: no such results file\n")
    assert not (tmp_path / "x.db").exists()


# -- one process plays a run at a time -------------------------------------------------


def test_a_run_being_played_is_not_resumed_twice(tmp_path: Path, capsys: Capsys) -> None:
    db = tmp_path / "r.db"
    spec = RunSpec("compare", ("doujue", "pagat"), (), (), False, 0, 40, 20, 4)
    run_id = interrupted(db, spec, 1)
    with Store(db) as store, store.lock(run_id):  # another player holds the run
        status, _, err = resume(capsys, db, run_id)
        assert status == 2
        assert err == (
            f"{db}: run {run_id} is being played by another paiqi process (process "
            f"{os.getpid()}); let it finish, or stop it and resume then\n"
        )
        assert len(store.finished(run_id)) == 1
    assert not list(tmp_path.glob("*.lock"))  # its holder removed the lock file
    status, _, _ = resume(capsys, db, run_id)  # free again
    assert status == 0
    assert rows(db, run_id) == whole(tmp_path / "whole.db", spec)


def _paiqi(*args: str, cwd: Path) -> subprocess.Popen[str]:
    """``paiqi`` in a new process of its own session (its own process group)."""
    return subprocess.Popen(
        [sys.executable, "-m", "paiqi_core.cli", *args],
        cwd=cwd,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )


def _wait_for_lock(proc: subprocess.Popen[str], folder: Path) -> None:
    """Wait until ``proc`` holds the lock of its run (its games have started)."""
    deadline = time.monotonic() + 30
    while not list(folder.glob("*.lock")):
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < deadline
        time.sleep(0.002)


def _wait_for_group_gone(group: int) -> None:
    """Wait until no process of the process group ``group`` is left."""
    deadline = time.monotonic() + 30
    while True:
        try:
            os.killpg(group, 0)
        except ProcessLookupError:
            return
        assert time.monotonic() < deadline
        time.sleep(0.01)


def test_two_processes_resuming_one_run(tmp_path: Path, capsys: Capsys) -> None:
    """The second is refused while the first plays; a killed player leaves the run free."""
    db = tmp_path / "r.db"
    spec = RunSpec("compare", ("doujue", "pagat"), (), (), False, 0, 6000, 100, 4)
    run_id = interrupted(db, spec, 1)
    # the Python engine: still playing when the second process tries
    first = _paiqi("compare", "--resume", run_id, "--db", str(db), "-q", "--engine", "python",
                   cwd=tmp_path)  # fmt: skip
    _wait_for_lock(first, tmp_path)
    status, _, err = resume(capsys, db, run_id)
    assert status == 2
    assert f"run {run_id} is being played by another paiqi process (process {first.pid})" in err
    os.killpg(first.pid, signal.SIGKILL)  # dies holding the lock: the system drops it
    first.wait()
    _wait_for_group_gone(first.pid)  # its worker processes, killed too, hold it till they go
    assert list(tmp_path.glob("*.lock"))  # its file stays, unlocked
    status, _, err = resume(capsys, db, run_id)
    assert status == 0, err
    assert not list(tmp_path.glob("*.lock"))
    assert rows(db, run_id) == whole(tmp_path / "whole.db", spec)


# -- Ctrl-C ---------------------------------------------------------------------------


def test_ctrl_c_exits_130_keeps_whole_batches_and_resumes_to_the_same_rows(
    tmp_path: Path,
) -> None:
    """SIGINT to the process group, as a terminal sends it, at several moments of a run
    on two workers: each time the command ends with status 130 within a few seconds and
    says how to resume; the stored batches are whole; the resume ends with the rows of an
    uninterrupted run."""
    deals, batch = 4000, 50
    spec = RunSpec("compare", ("doujue", "pagat"), (), (), False, 0, deals, batch, 4)
    expected = whole(tmp_path / "whole.db", spec)
    options = ["--games", str(deals), "--batch", str(batch), "--workers", "2", "-q"]
    for attempt, delay in enumerate((0.0, 0.05, 0.15, 0.3)):
        folder = tmp_path / f"try{attempt}"
        folder.mkdir()
        db = folder / "runs.db"
        # the Python engine: still playing at each moment the signal comes
        proc = _paiqi("compare", "doujue", "pagat", *options, "--db", str(db), "--engine",
                      "python", cwd=folder)  # fmt: skip
        _wait_for_lock(proc, folder)
        time.sleep(delay)
        assert proc.poll() is None, "the run ended before the signal: make it longer"
        os.killpg(proc.pid, signal.SIGINT)
        sent = time.monotonic()
        _, err = proc.communicate(timeout=15)
        assert time.monotonic() - sent < 5
        assert proc.returncode == 130, err
        assert "Traceback" not in err
        assert err.startswith(f"interrupted: finished batches are saved in {db}; continue with")
        run_id = err.split()[-1]
        with Store.reader(db) as store:
            finished = store.finished(run_id)
            # a batch's rows are its block, in the row that marks it finished: none without
            sql = "SELECT profile, start FROM batches WHERE run = ? AND rows IS NULL"
            blockless = list(store.query(sql, run_id))
            sql = "SELECT profile, game FROM seats WHERE run = ?"
            stored = list(store.expand(run_id).query(sql, run_id))
        assert len(finished) < 2 * deals // batch
        assert blockless == []
        # every stored batch is whole, and only finished batches have rows
        assert sorted(stored) == sorted(
            (p, g) for p, start in finished for g in range(start, start + batch) for _ in range(4)
        )
        done = _paiqi("compare", "--resume", run_id, "--db", str(db), "-q", cwd=folder)
        assert done.wait(timeout=60) == 0, done.communicate()
        assert rows(db, run_id) == expected


# -- errors in workers ----------------------------------------------------------------


@pytest.mark.parametrize("workers", ["1", "2"])
def test_a_hook_failing_in_a_game_is_a_located_error(
    tmp_path: Path, capsys: Capsys, hooks: None, workers: str
) -> None:
    boom = ValueError("no score for this hand")
    registry.register("scoring", "house_boom", summary="fails")(lambda p: _first_out(boom))
    profile = tmp_path / "boom.yaml"
    profile.write_text("extends: pagat\nscoring:\n  method: house_boom\n", encoding="utf-8")
    db = tmp_path / "r.db"
    args = ["compare", "pagat", str(profile), "--games", "40", "--batch", "10", "-q"]
    args += ["--engine", "python"]  # no line saying that the plugin's rules play in Python
    if workers == "1":  # in this process the hook does not fail: nothing to see
        assert cli(capsys, *args, "--db", str(db), "--workers", "1")[0] == 0
        return
    status, out, err = cli(capsys, *args, "--db", str(db), "--workers", workers)
    assert (status, out) == (2, "")
    line = next(i for i, text in enumerate(Path(__file__).read_text().splitlines(), 1)
                if "raise fail" in text)  # fmt: skip
    first, *rest = err.splitlines()
    assert first.startswith(f"{__file__}:{line}: in score: ValueError: no score for this hand "
                            f"(playing {profile}, games ")  # fmt: skip
    assert rest[0] == f"finished batches are saved in {db}; once that is fixed, continue with"
    assert rest[1].startswith(f"  paiqi compare --db {db} --resume ")
    assert multiprocessing.active_children() == []


def test_a_profile_error_raised_in_a_worker_comes_back_located(
    tmp_path: Path, capsys: Capsys, hooks: None
) -> None:
    where = Location("house.yaml", 3, 9)
    problem = ProfileError([Problem(where, ("scoring", "method"), "not at this table")])
    registry.register("scoring", "house_err", summary="fails")(lambda p: _first_out(problem))
    profile = tmp_path / "err.yaml"
    profile.write_text("extends: pagat\nscoring:\n  method: house_err\n", encoding="utf-8")
    args = ["compare", "pagat", str(profile), "--games", "40", "--batch", "10", "-q"]
    args += ["--engine", "python"]  # no line saying that the plugin's rules play in Python
    status, _, err = cli(capsys, *args, "--db", str(tmp_path / "r.db"), "--workers", "2")
    assert (status, err) == (2, "house.yaml:3:9: scoring.method: not at this table\n")
    assert multiprocessing.active_children() == []


# -- options that were silently accepted, errors that were tracebacks ---------------------


POSITIVE = "is not a positive number of"
BAD_OPTIONS = [
    ("simulate pagat --batch 0 DB", f"--batch: 0 {POSITIVE} games per batch"),
    ("simulate pagat --batch -1 DB", f"--batch: -1 {POSITIVE} games per batch"),
    ("compare pagat doujue --batch 0 DB", f"--batch: 0 {POSITIVE} games per batch"),
    ("simulate pagat --workers 0 DB", f"--workers: 0 {POSITIVE} processes"),
    ("compare pagat doujue --workers -3 DB", f"--workers: -3 {POSITIVE} processes"),
    ("compare pagat doujue --games 0 DB", f"--games: 0 {POSITIVE} games"),
    ("bench pagat --games -1", f"--games: -1 {POSITIVE} games"),
    ("bench pagat --repeat 0", f"--repeat: 0 {POSITIVE} repeats"),
    (
        "simulate platform --sessions 2 --workers 2",
        "--workers: only for plain games; --sessions are played one after another",
    ),
    ("simulate platform --matches 2 DB", "--db: only for plain games; --matches are"),
    (
        "simulate pagat --matches 2",
        "--matches: pagat gives no points (its scoring, first_out, is played for going "
        "out first), and a match adds up points game by game: play single games, or give "
        "it rank or penalty points, e.g. --set scoring.method=placement",
    ),
    (
        "simulate doujue --matches 2",
        "--matches: doujue gives no points (its scoring, covering, is played for money)",
    ),
]


@pytest.mark.parametrize(("args", "message"), BAD_OPTIONS)
def test_bad_options_are_refused(tmp_path: Path, capsys: Capsys, args: str, message: str) -> None:
    db = tmp_path / "r.db"
    argv = [a for b in args.split() for a in (["--db", str(db)] if b == "DB" else [b])]
    status, out, err = cli(capsys, *argv)
    assert (status, out) == (2, "")
    assert err.startswith(message)
    assert len(err.splitlines()) == 1
    assert list(tmp_path.iterdir()) == []


def test_matches_with_a_placement_scoring_play(capsys: Capsys) -> None:
    args = ["simulate", "pagat", "--matches", "3", "--set", "scoring.method=placement", "--json"]
    status, out, _ = cli(capsys, *args, "--set", "match.games=2", "-q")
    assert status == 0
    (summary,) = json.loads(out)
    assert summary["matches"] == 3 and summary["games_per_match"] == 2
    # pagat ends when the first player goes out, and placement ranks the three still holding
    # cards together, second: 3 + 2 + 2 + 2 = 9 rank points a game, 18 a match of two (each
    # seat's mean over three matches is written to 3 decimals: thirds round)
    assert sum(summary["mean_match_points"]) == pytest.approx(18, abs=4 * 0.0005)


@pytest.mark.parametrize("where", ["folder", "missing folder"])
def test_records_that_cannot_be_written(tmp_path: Path, capsys: Capsys, where: str) -> None:
    target = tmp_path if where == "folder" else tmp_path / "nope" / "games.jsonl"
    db = tmp_path / "r.db"
    status, out, err = cli(capsys, "simulate", "pagat", "--games", "4", "--records", str(target),
                           "--db", str(db))  # fmt: skip
    assert (status, out) == (2, "")
    if where == "folder":
        expected = (
            f"--records {target}: is a folder; name a file, such as {target / 'games.jsonl'}\n"
        )
    else:
        expected = f"--records {target}: no such folder: {target.parent}\n"
    assert err == expected
    assert not db.exists()


def test_different_player_counts_suggest_seating_them_alike(tmp_path: Path, capsys: Capsys) -> None:
    three = tmp_path / "three.yaml"
    three.write_text("extends: shichinarabe\nplayers: 3\n", encoding="utf-8")
    db = tmp_path / "r.db"
    status, _, err = cli(capsys, "compare", "doujue", str(three), "--db", str(db))
    assert status == 2
    assert err == (
        f"compare: the profiles seat different numbers of players (doujue: 4, {three}: 3); "
        "the same deals need the same table: seat them alike, e.g. --set players=4\n"
    )
    assert not db.exists()
    # the suggestion works
    status, _, _ = cli(capsys, "compare", "doujue", str(three), "--set", "players=4",
                       "--games", "8", "--db", str(db), "-q", "--workers", "1")  # fmt: skip
    assert status == 0


@pytest.mark.parametrize(
    "args",
    [
        ["compare", "pagat", "nope"],
        ["compare", "pagat", "doujue", "--agents", "random,clever,random,random"],
        ["compare", "pagat", "doujue", "--set", "scoring.nope=1"],
        ["compare", "pagat"],
        ["compare", "pagat", "doujue", "--dask", "nope://host"],
        ["simulate", "nope", "--db"],
    ],
)
def test_a_failed_command_creates_no_results_file(
    tmp_path: Path, capsys: Capsys, args: list[str]
) -> None:
    db = tmp_path / "r.db"
    args = [*args, str(db)] if args[-1] == "--db" else [*args, "--db", str(db)]
    status, _, _ = cli(capsys, *args)
    assert status == 2
    assert list(tmp_path.iterdir()) == []


# -- results files that cannot be used, and files only read -------------------------------


def _results(folder: Path) -> Path:
    db = folder / "good.db"
    spec = RunSpec("compare", ("doujue", "pagat"), (), (), False, 0, 40, 20, 4)
    with Store(db) as store:
        run(store, store.new_run(spec), 1)
    return db


def _unusable(kind: str, folder: Path, create: bool) -> tuple[Path, str]:
    """A --db path of ``kind`` and the message it gets from a command that creates the
    file when missing (``create``) or one that only opens it."""
    path = folder / "x.db"
    if kind == "text":
        path.write_text("id,games\n1,2\n", encoding="utf-8")
        return path, f"{path}: not a results file (not an SQLite database)"
    if kind == "random bytes":
        path.write_bytes(random.Random(1).randbytes(5000))
        return path, f"{path}: not a results file (not an SQLite database)"
    if kind == "truncated":
        good = _results(folder).read_bytes()
        path.write_bytes(good[: len(good) // 3])
        cut = f"cut short ({len(good) // 3} bytes of {len(good)})"
        return path, f"{path}: damaged results file: {cut}"
    if kind == "unrelated runs table":
        con = sqlite3.connect(path)
        con.execute("CREATE TABLE runs (name TEXT, km REAL)")
        con.commit()
        con.close()
        return path, (f"{path}: not a results file: its table 'runs' has columns name, km, not "
                      "paiqi's (id, created, command, spec)")  # fmt: skip
    if kind == "directory":
        path.mkdir()
        return path, f"{path}: is a folder, not a results file"
    if kind == "/dev/null":
        return Path("/dev/null"), "/dev/null: not a regular file, so not a results file"
    assert kind == "missing folder"
    path = folder / "nope" / "x.db"
    if create:
        return path, f"{path}: no such folder: {path.parent}"
    return path, f"{path}: no such results file"


KINDS = ["text", "random bytes", "truncated", "unrelated runs table", "directory", "/dev/null",
         "missing folder"]  # fmt: skip


def _snapshot(folder: Path) -> dict[str, tuple[bytes, int]]:
    return {p.name: (p.read_bytes(), p.stat().st_mtime_ns) for p in folder.iterdir() if p.is_file()}


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize(
    "command",
    [
        ["report", "--json"],
        ["report", "last"],
        ["compare", "pagat", "doujue", "--games", "4", "-q"],
        ["simulate", "pagat", "--games", "4", "-q"],
        ["compare", "--resume", "20261201-000000-abcdef"],
    ],
    ids=["list", "report", "compare", "simulate", "resume"],
)
def test_an_unusable_results_file_is_a_clear_error(
    tmp_path: Path, capsys: Capsys, kind: str, command: list[str]
) -> None:
    creates = command[0] != "report" and "--resume" not in command
    path, message = _unusable(kind, tmp_path, creates)
    before = _snapshot(tmp_path)
    status, out, err = cli(capsys, *command, "--db", str(path))
    assert (status, out, err) == (2, "", message + "\n")
    assert _snapshot(tmp_path) == before  # nothing written, nothing created beside it


@pytest.mark.parametrize("mode", ["at rest", "marked for a log"])
def test_reading_a_results_file_writes_nothing(tmp_path: Path, capsys: Capsys, mode: str) -> None:
    db = _results(tmp_path)
    assert db.read_bytes()[18:20] == b"\x01\x01"  # closed by its writer: no write-ahead log
    if mode == "marked for a log":  # as an earlier paiqi left its files
        con = sqlite3.connect(db)
        con.execute("PRAGMA journal_mode = WAL")
        con.close()
        assert db.read_bytes()[18:20] == b"\x02\x02"
    before = _snapshot(tmp_path)
    assert cli(capsys, "report", "--db", str(db))[0] == 0
    assert cli(capsys, "report", "last", "--db", str(db), "--json")[0] == 0
    assert _snapshot(tmp_path) == before


def test_a_file_being_written_is_read_with_its_log(tmp_path: Path, capsys: Capsys) -> None:
    """A report of a run still being played sees the batches committed so far, and leaves
    the writer's files as they were."""
    db = _results(tmp_path)
    spec = RunSpec("compare", ("pagat", "bicycle"), (), (), False, 0, 40, 20, 4)
    with Store(db) as writer:
        run_id = interrupted_in(writer, spec, 1)
        assert (tmp_path / "good.db-wal").exists()
        status, out, _ = cli(capsys, "report", run_id, "--db", str(db), "--json")
        assert status == 0
        assert json.loads(out)["profiles"]["pagat"]["per_game"]["actions"]["n"] == 20


def interrupted_in(store: Store, spec: RunSpec, batches: int) -> str:
    run_id = store.new_run(spec)
    seen: list[int] = []

    def stop(done: int) -> None:
        seen.append(done)
        if len(seen) > batches:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run(store, run_id, 1, stop)
    return run_id


def _on_a_read_only_disk(db: Path, *args: str) -> tuple[int, str, str, list[str]]:
    """``paiqi ARGS --db COPY`` where COPY is ``db`` on a file system mounted read-only
    (what a read-only folder is to root, whom file permissions do not bind), in a private
    mount namespace; and the files that folder holds afterwards."""
    import shlex
    import subprocess
    import sys

    folder = db.parent / "mnt"
    folder.mkdir()
    copy = folder / db.name
    listing = db.parent / "listing"
    command = " ".join(shlex.quote(a) for a in [sys.executable, "-m", "paiqi_core.cli", *args])
    script = (
        f"mount -t tmpfs none {folder} && cp {db} {folder}/ && mount -o remount,ro {folder} && "
        f"{command} --db {copy}; status=$?; ls -A {folder} > {listing}; exit $status"
    )
    done = subprocess.run(
        ["unshare", "-m", "sh", "-c", script],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parent.parent)},
    )
    files = listing.read_text().split()
    folder.rmdir()
    return done.returncode, done.stdout, done.stderr.replace(str(copy), "DB"), files


def test_a_read_only_results_file_in_a_read_only_folder_is_reported(
    tmp_path: Path, capsys: Capsys
) -> None:
    folder = tmp_path / "archive"
    folder.mkdir()
    db = _results(folder)
    if os.geteuid() != 0:  # file permissions make the folder read-only
        db.chmod(0o444)
        folder.chmod(0o555)
        try:
            assert cli(capsys, "report", "--db", str(db))[0] == 0
            assert cli(capsys, "report", "last", "--db", str(db), "--json")[0] == 0
            status, _, err = cli(
                capsys, "compare", "pagat", "doujue", "--games", "4", "--db", str(db)
            )
            assert status == 2 and err.startswith(f"{db}: ")
            assert sorted(p.name for p in folder.iterdir()) == ["good.db"]
        finally:
            folder.chmod(0o755)
        return
    # as root: a read-only file system
    status, out, err, files = _on_a_read_only_disk(db, "report")
    assert (status, err, files) == (0, "", ["good.db"]), err
    assert "compare" in out
    status, out, err, files = _on_a_read_only_disk(db, "report", "last", "--json")
    assert status == 0 and files == ["good.db"] and json.loads(out)["run"]
    status, _, err, files = _on_a_read_only_disk(db, "compare", "pagat", "doujue", "--games", "4")
    assert status == 2 and err.startswith("DB: ") and files == ["good.db"], err
