"""``paiqi simulate``, ``compare``, ``report`` and ``bench``: games with agents, stored runs
and their reports.

Every option is checked, and every profile loaded, before a results or records file is
created or opened for writing: bad input leaves no file behind. Problems with a results
file, a run or a plugin's hook become one clear message and exit status 2.
"""

from __future__ import annotations

import argparse
import functools
import sqlite3
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import replace
from datetime import datetime
from pathlib import Path
from typing import IO, Any

from paiqi_core.cli.common import (
    EXIT_OK,
    FAMILIES,
    BadInput,
    err,
    load_games,
    print_json,
)
from paiqi_core.cli.text import (
    compare_text,
    games_text,
    matches_text,
    sessions_text,
    sweep_text,
    tournament_text,
)
from paiqi_core.engine import Game
from paiqi_core.profile import ProfileError
from paiqi_core.rules import Rules
from paiqi_core.runs.batch import BatchError
from paiqi_core.runs.store import RunInfo, RunSpec, StoreError
from paiqi_core.runs.summary import compare_report
from paiqi_core.textui import Progress, Status, table

BATCH = 250  # games per batch unless --batch says otherwise
SEARCH_BATCH = 10  # games per batch with a search player at the table, unless --batch says


def _search_batch(args: argparse.Namespace) -> int:
    """Games per batch of rule sets with a search player: short batches, so that progress
    shows and an interruption loses little, unless ``--batch`` sets one size for all."""
    return SEARCH_BATCH if args.batch is None else 0


COMPARE_GAMES = 10000  # deals per profile of compare unless --games says otherwise
TOURNAMENT_DEALS = 200  # deals per pairing of a tournament unless --games says otherwise
Command = Callable[[argparse.Namespace], int]


def _bad_input_on_failure(command: Command) -> Command:
    """Report an unusable results file, a busy run, or a plugin's hook failing in a game
    as bad input (exit status 2, one clear message), like a bad profile."""

    @functools.wraps(command)
    def wrapped(args: argparse.Namespace) -> int:
        try:
            return command(args)
        except (StoreError, BatchError) as e:
            raise BadInput(str(e)) from None
        except sqlite3.DatabaseError as e:  # a page found damaged while a figure is read
            raise BadInput(f"{getattr(args, 'db', None)}: damaged results file ({e})") from None

    return wrapped


# The most a run may ask for: games (or deals, sessions, matches, replays) of one option,
# and of each rule set a run plays; a seed; worker processes. Checked before any file is
# written, so that a mistyped number is refused at once instead of filling a disk.
MAX_GAMES = 1_000_000_000
MAX_SEED = 2**63 - 1
MAX_WORKERS = 1024


def _positive(value: int, flag: str, what: str, most: int = MAX_GAMES) -> int:
    """``value`` of ``flag`` if it is a number of ``what`` from 1 to ``most``."""
    if value < 1:
        raise BadInput(f"{flag}: {value} is not a positive number of {what}")
    if value > most:
        raise BadInput(f"{flag}: {value:,} is more than the most allowed ({most:,} {what})")
    return value


def _seed(value: int | None) -> int:
    """``--seed``: 0 unless given; from 0 to ``MAX_SEED``."""
    if value is None:
        return 0
    if not 0 <= value <= MAX_SEED:
        raise BadInput(f"--seed: {value} is not a seed from 0 to {MAX_SEED:,} (2^63 - 1)")
    return value


def _check_size(spec: RunSpec) -> None:
    """Refuse a run that would play more than ``MAX_GAMES`` games of a rule set (deals
    times seatings, or deals times replays), before anything is stored."""
    for name in spec.rule_sets:
        games = spec.games_of(name)
        if games > MAX_GAMES:
            raise BadInput(
                f"{spec.command}: {name} would play {games:,} games, more than the most a run "
                f"plays of one rule set ({MAX_GAMES:,}): ask for fewer deals or replays"
            )


def _workers(args: argparse.Namespace) -> int:
    """``--workers``: every core unless given; 0 or fewer is refused."""
    from paiqi_core.runs.execute import default_workers

    if args.workers is None:
        return default_workers()
    return _positive(args.workers, "--workers", "processes", MAX_WORKERS)


def _batch(args: argparse.Namespace) -> int:
    return BATCH if args.batch is None else _positive(args.batch, "--batch", "games per batch")


def _agents(text: str | None, games: Sequence[Game]) -> tuple[str, ...]:
    """The agents by seat of ``--agents`` (empty: all random), checked against the seats."""
    from paiqi_core.agents import resolve

    agents = tuple(a.strip() for a in text.split(",")) if text else ()
    for a in agents:
        try:
            resolve(a)
        except ValueError as e:
            raise BadInput(f"--agents: {e}") from None
    for game in games:
        if agents and len(agents) != game.players:
            raise BadInput(f"--agents: {len(agents)} agents for {game.players} seats ({game.id})")
    return agents


def _engine(args: argparse.Namespace, rules: dict[str, Rules]) -> str:
    """``--engine`` checked against the rules to play: ``fast`` refuses rules the compiled
    engine cannot play (or a missing numba); ``auto`` says in one line which are played by
    the Python engine, and why. Games with other players than random ones are played in
    Python whatever the engine (their search players' playouts follow it)."""
    engine: str = args.engine
    if engine == "python":
        return engine
    from paiqi_core import fast

    reasons = {name: why for name, r in rules.items() if (why := fast.why_not(r)) is not None}
    if not reasons:
        return engine
    if not fast.installed():
        reason = next(iter(reasons.values()))
        if engine == "fast":
            raise BadInput(f"--engine fast: {reason}")
        err(f"playing with the Python engine: {reason}")
        return engine
    if engine == "fast":
        raise BadInput("--engine fast: " + "; ".join(reasons.values()))
    err("; ".join(f"playing {name} with the Python engine: {why}" for name, why in reasons.items()))
    return engine


def _check_dask(address: str | None) -> None:
    if address:
        from paiqi_core.runs.execute import check_dask

        check_dask(address)


def _check_records(path: str) -> Path:
    """A records file that can be written: not a folder, in a folder that exists."""
    p = Path(path)
    if p.is_dir():
        raise BadInput(f"--records {path}: is a folder; name a file, such as {p / 'games.jsonl'}")
    if not p.parent.is_dir():
        raise BadInput(f"--records {path}: no such folder: {p.parent}")
    return p


def _open_records(path: Path) -> IO[str]:
    from paiqi_core.records import open_records  # whole lines, cut back on a full disk

    try:
        return open_records(path)
    except OSError as e:
        raise BadInput(f"--records {path}: cannot write: {e.strerror}") from None


@_bad_input_on_failure
def cmd_simulate(args: argparse.Namespace) -> int:
    """``paiqi simulate``: games, sessions or matches with agents, summarised per seat."""
    _positive(args.games, "--games", "games")
    _seed(args.seed)
    for flag in ("sessions", "matches"):
        value = getattr(args, flag)
        if value is not None:
            _positive(value, f"--{flag}", flag)
    if args.sessions and args.matches:
        raise BadInput("--sessions and --matches: choose one")
    whole = "--sessions" if args.sessions else "--matches" if args.matches else None
    if whole:
        plain = [f for f in ("db", "dask", "workers", "batch") if getattr(args, f) is not None]
        if plain:
            flags = ", ".join(f"--{f}" for f in plain)
            raise BadInput(
                f"{flags}: only for plain games; {whole} are played one after another in this "
                "process and summarised, not stored"
            )
    batch, workers = _batch(args), _workers(args)
    games = load_games(args.profiles, args.set)
    agents = _agents(args.agents, games)
    names = args.profiles or [g.id for g in games]  # (the built-ins that take the --set)
    if args.matches:
        for name, game in zip(names, games, strict=True):
            _check_matches(name, game)
    records = _check_records(args.records) if args.records else None
    _check_dask(args.dask)
    engine = _engine(args, {name: g.rules for name, g in zip(names, games, strict=True)})
    if not whole:
        return _simulate_games(args, names, games, agents, batch, workers, records, engine)
    from paiqi_core.simulate import simulate_matches, simulate_sessions

    out = _open_records(records) if records else None
    summaries: list[Any] = []
    count = args.sessions or args.matches
    run = simulate_sessions if args.sessions else simulate_matches
    try:
        for game in games:
            with Progress(count, game.id, enabled=not args.quiet) as bar:
                summaries.append(
                    run(
                        game,
                        count,
                        args.seed,
                        agents=agents,
                        records=out,
                        progress=bar.update,
                        engine=engine,
                    )
                )
    finally:
        if out is not None:
            out.close()
    if args.json:
        print_json([s.as_dict() for s in summaries])
        return EXIT_OK
    for summary in summaries:
        print()
        text = sessions_text if args.sessions else matches_text
        print(text(summary, args.seed))
    if args.records:
        print(f"\nrecords: {args.records}")
    return EXIT_OK


def _check_matches(name: str, game: Game) -> None:
    """A match adds up points (rank or penalty): refuse a profile whose scoring gives none."""
    objective = game.rules.facts.objective
    if objective != "points":
        method = game.rules.profile.get("scoring.method")
        aim = "money" if objective == "money" else "going out first"
        raise BadInput(
            f"--matches: {name} gives no points (its scoring, {method}, is played for "
            f"{aim}), and a match adds up points game by game: play single games, or give "
            "it rank or penalty points, e.g. --set scoring.method=placement"
        )


def _simulate_games(
    args: argparse.Namespace,
    names: list[str],
    games: list[Game],
    agents: tuple[str, ...],
    batch: int,
    workers: int,
    records: Path | None,
    engine: str = "python",
) -> int:
    """Plain games: batches on every core, rows streamed into a store (a temporary file
    unless --db names one, so memory stays flat however many games), the summary read back
    from it; with --records, every game's record written in game order."""
    from paiqi_core.runs import stats
    from paiqi_core.runs.run import run
    from paiqi_core.runs.store import RunSpec, Store, check_path

    if args.db:
        check_path(Path(args.db), create=True)
    summaries = []
    objectives = [g.rules.facts.objective for g in games]
    with tempfile.TemporaryDirectory(prefix="paiqi-") as scratch:
        store = Store(Path(args.db) if args.db else Path(scratch) / "runs.db")
        out = None
        try:
            out = _open_records(records) if records else None
            for name, game in zip(names, games, strict=True):
                spec = RunSpec("simulate", (name,), tuple(args.set), agents, False,
                               args.seed, args.games, batch, game.players,
                               search_batch=_search_batch(args))  # fmt: skip
                run_id = store.new_run(spec, {name: game.rules.profile})
                with Progress(args.games, game.id, enabled=not args.quiet) as bar:
                    run(store, run_id, workers, bar.update, args.dask, out, engine)
                summary = stats.games_summary(store, run_id, name)
                summary["profile"] = game.id
                summaries.append(summary)
        finally:
            if out is not None:
                out.close()
            store.close()
    if args.json:
        print_json(summaries)
        return EXIT_OK
    for summary, objective in zip(summaries, objectives, strict=True):
        print()
        print(games_text(summary, args.seed, objective))
    if args.records:
        print(f"\nrecords: {args.records}")
    return EXIT_OK


@_bad_input_on_failure
def cmd_compare(args: argparse.Namespace) -> int:
    """``paiqi compare``: the same deals under several profiles, stored and paired."""
    if args.resume is not None:
        return _resume(args)
    from paiqi_core.runs.store import RunSpec, Store, check_path

    profiles = args.profiles or list(FAMILIES)
    if len(profiles) < 2:
        raise BadInput("compare: name two profiles or more (or --resume RUN)")
    if len(set(profiles)) < len(profiles):
        raise BadInput("compare: name each profile once")
    deals = COMPARE_GAMES if args.games is None else _positive(args.games, "--games", "games")
    batch, workers = _batch(args), _workers(args)
    games = load_games(profiles, args.set)
    players = [g.players for g in games]
    if len(set(players)) > 1:
        raise BadInput(
            "compare: the profiles seat different numbers of players "
            f"({', '.join(f'{n}: {g.players}' for n, g in zip(profiles, games, strict=True))}); "
            f"the same deals need the same table: seat them alike, e.g. --set players={players[0]}"
        )
    agents = _agents(args.agents, games)
    skill = _skill(args)
    share_deals, replays = _deal_share(args)
    _check_dask(args.dask)
    check_path(Path(args.db), create=True)
    spec = RunSpec(
        "compare",
        tuple(profiles),
        tuple(args.set),
        agents,
        bool(args.rotate),
        _seed(args.seed),
        deals,
        batch,
        players[0],
        skill=skill,
        skill_deals=args.skill or 0,
        search_batch=_search_batch(args),
        share_deals=share_deals,
        replays=replays,
        share_agents=agents if share_deals else (),
    )
    _check_size(spec)
    with Store(Path(args.db)) as store:
        rules = {name: game.rules.profile for name, game in zip(profiles, games, strict=True)}
        run_id = store.new_run(spec, rules)
        return _play(args, store, run_id, spec, workers)


@_bad_input_on_failure
def cmd_sweep(args: argparse.Namespace) -> int:
    """``paiqi sweep``: one profile under every value of a rule, on the same deals."""
    if args.resume is not None:
        return _resume(args)
    from paiqi_core.engine import Game
    from paiqi_core.runs.store import RunSpec, Store, check_path
    from paiqi_core.runs.sweep import SweepError, sweep_points

    if len(args.profiles) != 1:
        raise BadInput("sweep: name one profile (or --resume RUN)")
    if not args.vary:
        raise BadInput(
            "sweep: name a rule to vary and its values, e.g. --vary turn.pass_limit=1,2,3"
        )
    deals = COMPARE_GAMES if args.games is None else _positive(args.games, "--games", "games")
    batch, workers = _batch(args), _workers(args)
    (profile,) = args.profiles
    try:
        sweep = sweep_points(profile, args.set, args.vary, args.baseline)
    except SweepError as e:
        raise BadInput(str(e)) from None
    games = [Game(rules) for rules in sweep.rules.values()]
    agents = _agents(args.agents, games)
    skill = _skill(args)
    share_deals, replays = _deal_share(args)
    _check_dask(args.dask)
    check_path(Path(args.db), create=True)
    spec = RunSpec(
        "sweep",
        sweep.names,
        tuple(args.set),
        agents,
        bool(args.rotate),
        _seed(args.seed),
        deals,
        batch,
        games[0].players,
        skill=skill,
        skill_deals=args.skill or 0,
        share_deals=share_deals,
        replays=replays,
        share_agents=agents if share_deals else (),
        sweep=profile,
        vary=sweep.vary,
        baseline="" if sweep.baseline == sweep.names[0] else sweep.baseline,
    )
    _check_size(spec)
    with Store(Path(args.db)) as store:
        run_id = store.new_run(spec, sweep.rules)
        return _play(args, store, run_id, spec, workers)


SKILL_AGENTS = ("hard", "easy")
REPLAYS = 8  # games per deal of --deal-share unless --replays says otherwise


def _deal_share(args: argparse.Namespace) -> tuple[int, int]:
    """(deals, replays) of ``--deal-share`` and ``--replays``, checked; (0, 0) without."""
    if args.deal_share is None:
        if args.replays is not None:
            raise BadInput("--replays: give --deal-share DEALS too (how many deals to replay)")
        return 0, 0
    _positive(args.deal_share, "--deal-share", "deals")
    replays = REPLAYS if args.replays is None else args.replays
    if replays < 2:
        raise BadInput(
            f"--replays: {replays} is too few: a deal must be played twice or more to tell "
            "the deal from the play"
        )
    return args.deal_share, _positive(replays, "--replays", "games per deal")


def _skill(args: argparse.Namespace) -> tuple[str, ...]:
    """The (strong, weak) players of ``--skill``, checked; empty without it."""
    player = getattr(args, "skill_player", None)
    if args.skill is None:
        for flag, value in (("--skill-agents", args.skill_agents), ("--skill-player", player)):
            if value is not None:
                raise BadInput(f"{flag}: give --skill DEALS too (how many deals to play)")
        return ()
    _positive(args.skill, "--skill", "deals")
    if player is not None:
        if args.skill_agents is not None:
            raise BadInput("--skill-player and --skill-agents: give one (the player, or both)")
        from paiqi_core.agents import resolve

        strong, weak = player.strip(), SKILL_AGENTS[1]
        _agents(strong, ())  # a known name
        if resolve(strong) == resolve(weak):
            raise BadInput(f"--skill-player: a player stronger than {weak}, e.g. expert")
        return strong, weak
    if args.skill_agents is None:
        return SKILL_AGENTS
    names = tuple(a.strip() for a in args.skill_agents.split(","))
    if len(names) != 2 or names[0] == names[1]:
        raise BadInput("--skill-agents: name two different players, strong first: hard,easy")
    _agents(",".join(names), ())  # every name known
    return names


def _resume(args: argparse.Namespace) -> int:
    """``compare --resume RUN``: play the rest of a stored run, with its stored rules and
    options; refuses options that would change it."""
    from paiqi_core.runs.run import stored_rules
    from paiqi_core.runs.store import Store

    run_id = args.resume.strip()
    if not run_id:
        raise BadInput(f"--resume: name a run ('paiqi report --db {args.db}' lists them)")
    changed = [
        flag
        for flag, value in (
            ("PROFILE", args.profiles),
            ("--games", args.games),
            ("--set", args.set),
            ("--agents", args.agents),
            ("--rotate", args.rotate),
            ("--skill", getattr(args, "skill", None)),
            ("--skill-agents", getattr(args, "skill_agents", None)),
            ("--skill-player", getattr(args, "skill_player", None)),
            ("--deal-share", getattr(args, "deal_share", None)),
            ("--replays", getattr(args, "replays", None)),
            ("--vary", getattr(args, "vary", None)),
            ("--baseline", getattr(args, "baseline", None)),
            ("--seed", args.seed),
            ("--batch", args.batch),
        )
        if value is not None and value != []  # None and [] mark an option left out
    ]
    if changed:
        raise BadInput(
            f"--resume {run_id}: a resumed run keeps the profiles, rules and options it "
            f"started with; leave out {', '.join(changed)}"
        )
    workers = _workers(args)
    _check_dask(args.dask)
    with Store(Path(args.db), create=False) as store:
        if run_id == "last":  # the last run this command started in the file
            mine = [r.id for r in store.runs() if r.command == args.command]
            if not mine:
                raise BadInput(f"--resume last: {args.db} holds no {args.command} run")
            run_id = mine[-1]
        spec = store.spec(run_id)
        if spec is None:
            runs = ", ".join(r.id for r in store.runs()) or "none"
            raise BadInput(f"--resume: no run '{run_id}' in {args.db} (runs: {runs})")
        try:
            stored_rules(store, run_id)
        except ProfileError as e:
            raise BadInput(
                f"{e}\n--resume {run_id}: the rules stored with this run cannot be played "
                "here (above), so nothing was played; install what they need, or start a "
                "new run"
            ) from None
        return _play(args, store, run_id, spec, workers)


def _play(args: argparse.Namespace, store: Any, run_id: str, spec: Any, workers: int) -> int:
    """Play a run's unfinished batches and print its report; on Ctrl-C (exit 130) or a
    failure in a game, say how to continue."""
    from paiqi_core.rules import rules_of
    from paiqi_core.runs.execute import ExecutorError
    from paiqi_core.runs.run import run, stored_rules

    hint = f"  paiqi {spec.command} --db {args.db} --resume {run_id}"
    total = spec.all_games
    stored = {name: rules_of(profile) for name, profile in stored_rules(store, run_id).items()}
    if spec.command == "tournament":  # every pairing plays the same rules
        stored = dict([next(iter(stored.items()))])
    else:  # a skill pairing has search players: it plays in Python, and says nothing
        stored = {name: rules for name, rules in stored.items() if name in spec.profiles}
    engine = _engine(args, stored)
    try:
        with Progress(total, spec.command, enabled=not args.quiet) as bar:
            run(store, run_id, workers, bar.update, args.dask, engine=engine)
    except KeyboardInterrupt:
        err(f"interrupted: finished batches are saved in {args.db}; continue with\n{hint}")
        return 130
    except (BatchError, ExecutorError) as e:
        raise BadInput(
            f"{e}\nfinished batches are saved in {args.db}; once that is fixed, continue with"
            f"\n{hint}"
        ) from None
    with Status(_computing(spec), enabled=not args.quiet):
        report, text = _report(store, run_id, spec, args.db, workers)
    if args.json:
        print_json(report)
    else:
        print(text)
    return EXIT_OK


def _computing(spec: RunSpec) -> str:
    """The note shown while a run's figures are computed."""
    return f"{spec.command}: computing the figures of {spec.all_games:,} games..."


def _report(
    store: Any, run_id: str, spec: Any, db: str, workers: int | None = None
) -> tuple[dict[str, Any], str]:
    """A stored run's report as data, and as text."""
    if spec.command == "tournament":
        from paiqi_core.rules import rules_of
        from paiqi_core.runs.run import stored_rules
        from paiqi_core.runs.tournament import tournament_report

        objective = rules_of(next(iter(stored_rules(store, run_id).values()))).facts.objective
        report = tournament_report(store, run_id, spec, objective)
        return report, tournament_text(report, db, workers)
    if spec.command == "sweep":
        from paiqi_core.runs.sweep import sweep_report

        report = sweep_report(store, run_id, spec)
        return report, sweep_text(report, db, workers)
    report = compare_report(store, run_id, spec)
    return report, compare_text(report, db, workers)


@_bad_input_on_failure
def cmd_tournament(args: argparse.Namespace) -> int:
    """``paiqi tournament``: every player against every other on the same deals."""
    if args.resume is not None:
        return _resume(args)
    from paiqi_core.runs.store import Store, check_path
    from paiqi_core.runs.tournament import tournament_spec

    if not args.profiles or len(args.profiles) != 1:
        raise BadInput("tournament: name one profile (or --resume RUN)")
    if not args.agents:
        raise BadInput("tournament: name the players, e.g. --agents random,heuristic,hard")
    (game,) = load_games(args.profiles, args.set)
    names = [a.strip() for a in args.agents.split(",")]
    _agents(",".join(names), ())  # every name known
    if len(names) < 2 or len(set(names)) < len(names):
        raise BadInput("--agents: name two players or more, each once")
    deals = TOURNAMENT_DEALS if args.games is None else _positive(args.games, "--games", "games")
    batch, workers = _batch(args), _workers(args)
    share_deals, replays = _deal_share(args)
    _check_dask(args.dask)
    check_path(Path(args.db), create=True)
    spec = tournament_spec(
        names, args.set, _seed(args.seed), deals, batch, game.players,
        search_batch=_search_batch(args),
    )  # fmt: skip
    if share_deals:  # the players in turn round the table, one seat further each replay
        seated = tuple(names[seat % len(names)] for seat in range(game.players))
        spec = replace(spec, share_deals=share_deals, replays=replays, share_agents=seated)
    _check_size(spec)
    with Store(Path(args.db)) as store:
        run_id = store.new_run(spec, dict.fromkeys(spec.profiles, game.rules.profile))
        return _play(args, store, run_id, spec, workers)


@_bad_input_on_failure
def cmd_report(args: argparse.Namespace) -> int:
    """``paiqi report``: tables, plots and an HTML page of a stored run (the file is only
    read); without a run, the runs the file holds."""
    from paiqi_core.runs.report import plot_hint, plots_available, write_report
    from paiqi_core.runs.store import Store

    with Store.reader(Path(args.db)) as store:
        runs = store.runs()
        if args.run is None:
            damaged = store.damaged()
            if not runs and not damaged:
                raise BadInput(f"{args.db}: holds no run")
            if args.json:
                listed = [_run_data(r) for r in runs]
                print_json(listed + [{"run": r, "damaged": why} for r, why in damaged.items()])
            else:
                print(runs_text(runs, damaged))
            return EXIT_OK
        if not args.run.strip():
            raise BadInput(f"report: name a run, or 'last' ('paiqi report --db {args.db}')")
        if args.run == "last" and not runs:
            raise BadInput(f"{args.db}: holds no run")
        run_id = runs[-1].id if args.run == "last" else args.run
        spec = store.spec(run_id)
        if spec is None:
            known = ", ".join(r.id for r in runs) or "none"
            raise BadInput(f"no run '{args.run}' in {args.db} (runs: {known})")
        if not any(r.played for r in runs if r.id == run_id):
            raise BadInput(
                f"run {run_id} in {args.db} has no finished games yet, so there is nothing to "
                f"report: play it with  paiqi {spec.command} --db {args.db} --resume {run_id}"
            )
        with Status(_computing(spec)):
            report, text = _report(store, run_id, spec, args.db)
    if args.json:
        print_json(report)
        return EXIT_OK
    print(text)
    folder = Path(args.out or f"paiqi-report-{run_id}")
    try:
        if report.get("command") == "tournament":
            from paiqi_core.runs.tournament_report import write_tournament_report

            written = write_tournament_report(report, text, folder)
        elif report.get("command") == "sweep":
            from paiqi_core.runs.sweep_report import write_sweep_report

            written = write_sweep_report(report, text, folder)
        else:
            written = write_report(report, text, folder)
    except OSError as e:
        raise BadInput(f"--out {folder}: cannot write the report: {e.strerror}") from None
    print(f"\nwrote {', '.join(str(p) for p in written)}")
    if len(written) == 1 and not plots_available():
        print(f"(no plots: matplotlib is not installed; {plot_hint()})")
    return EXIT_OK


def _run_data(r: RunInfo) -> dict[str, Any]:
    """A listed run as data."""
    return {
        "run": r.id,
        "started": datetime.fromtimestamp(r.created).isoformat(timespec="seconds"),
        "command": r.command,
        "profiles": list(r.spec.profiles),
        "deals": r.spec.games,
        "games": r.total,
        "played": r.played,
    }


def runs_text(runs: Sequence[RunInfo], damaged: dict[str, str] | None = None) -> str:
    """The runs of a results file, oldest first: when, what, how far; then the damaged
    runs (``Store.damaged``), each marked, with a line on each below the table."""
    rows = []
    for r in runs:
        spec = r.spec
        deals = f"{spec.games:,}" + (f" × {spec.seatings} seatings" if spec.rotate else "")
        played = f"{r.played:,} of {r.total:,}" + ("" if r.played >= r.total else ", unfinished")
        rows.append(
            [
                r.id,
                datetime.fromtimestamp(r.created).strftime("%Y-%m-%d %H:%M"),
                r.command,
                ", ".join(spec.profiles),
                deals,
                played,
            ]
        )
    for run in damaged or {}:
        rows.append([run, "?", "?", "?", "?", "DAMAGED: cannot be read"])
    head = ["run", "started", "command", "profiles", "deals", "games played"]
    notes = [f"\n{why}" for why in (damaged or {}).values()]
    return table(head, rows) + "".join(notes)


@_bad_input_on_failure
def cmd_bench(args: argparse.Namespace) -> int:
    """``paiqi bench``: random-play games per second, per profile."""
    from paiqi_core import fast
    from paiqi_core.runs.batch import BatchSpec, run_batch

    _positive(args.games, "--games", "games")
    _positive(args.repeat, "--repeat", "repeats", 1000)
    _seed(args.seed)
    games = load_games(args.profiles, args.set)
    names = args.profiles or [g.id for g in games]  # (the built-ins that take the --set)
    engine = _engine(args, {name: g.rules for name, g in zip(names, games, strict=True)})
    rows = []
    for name, game in zip(names, games, strict=True):
        rules = game.rules.profile
        spec = BatchSpec(
            name, tuple(args.set), (), False, args.seed, 0, args.games, rules=rules, engine=engine
        )
        # compile (or load the compiled kernel) once, outside the timing
        run_batch(BatchSpec(name, (), (), False, args.seed, 0, 1, rules=rules, engine=engine))
        best = 0.0
        for _ in range(args.repeat):
            t0 = time.perf_counter()
            run_batch(spec)
            best = max(best, args.games / (time.perf_counter() - t0))
        used = "fast" if fast.plays(game.rules, (), engine) else "python"
        rows.append(
            {
                "profile": game.id,
                "engine": used,
                "games": args.games,
                "games_per_second": round(best),
            }
        )
    if args.json:
        print_json(rows)
    else:
        print(
            table(
                ["profile", "engine", "games", f"games/s (best of {args.repeat})"],
                [[r["profile"], r["engine"], r["games"], r["games_per_second"]] for r in rows],
            )
        )
    return EXIT_OK


SQL_TIMEOUT = None  # seconds a query may run unless --timeout says (None: no limit)


def sql_options(p: argparse.ArgumentParser) -> None:
    """The options of ``paiqi sql`` that bound a query: ``--timeout`` and ``--limit``."""
    p.add_argument(
        "--timeout",
        type=float,
        metavar="SECONDS",
        help="stop a query that runs longer than this (default: no limit; Ctrl-C stops any query)",
    )
    p.add_argument("--limit", type=int, metavar="N", help="print at most N rows (default: all)")


def _sql_limits(args: argparse.Namespace) -> tuple[float | None, int | None]:
    """``--timeout`` and ``--limit`` of ``paiqi sql``, checked (None: no limit)."""
    timeout = getattr(args, "timeout", SQL_TIMEOUT)
    limit = getattr(args, "limit", None)
    if timeout is not None and not 0 < timeout < 10**9:
        raise BadInput(f"--timeout: {timeout:g} is not a number of seconds above 0")
    if limit is not None:
        _positive(limit, "--limit", "rows")
    return timeout, limit


@contextmanager
def _interrupting(db: Any) -> Iterator[list[int]]:
    """Ctrl-C inside the block stops the SQLite statement running on ``db`` (which then
    raises ``OperationalError: interrupted``); the list yielded says whether it came."""
    import signal

    stopped: list[int] = []

    def stop(signum: int, frame: Any) -> None:
        stopped.append(signum)
        db.interrupt()

    try:
        previous = signal.signal(signal.SIGINT, stop)
    except ValueError:  # not the main thread: no signals here
        yield stopped
        return
    try:
        yield stopped
    finally:
        signal.signal(signal.SIGINT, previous)


@_bad_input_on_failure
def cmd_sql(args: argparse.Namespace) -> int:
    """``paiqi sql``: an SQL query of a results file's rows (the file is only read), with
    the ``seats`` table holding one row per game per seat of the runs chosen."""
    import csv
    import sqlite3
    import sys

    from paiqi_core.runs.store import Store, reading_only

    if not args.query.strip():
        raise BadInput('sql: an empty query (e.g. "SELECT COUNT(*) FROM seats")')
    with Store.reader(Path(args.db)) as store:
        known = [r.id for r in store.runs()]
        if not known:
            raise BadInput(f"{args.db}: holds no run")
        chosen = [known[-1] if r == "last" else r for r in args.run or ()]
        missing = [r for r in chosen if r not in known]
        damaged = store.damaged()
        for r in missing:
            if r in damaged:
                raise BadInput(damaged[r])
        if missing:
            raise BadInput(f"no run '{missing[0]}' in {args.db} (runs: {', '.join(known)})")
        if "seats" in args.query.lower():  # else the rows need not be unpacked
            with Progress(1, "unpacking") as bar:

                def shown(done: int, total: int) -> None:
                    bar.total = total
                    bar.update(done)

                store.expand(*chosen, progress=shown)
        timeout, limit = _sql_limits(args)
        try:
            with reading_only(store.db, timeout), _interrupting(store.db) as stopped:
                cursor = store.db.execute(args.query)
                head = [d[0] for d in cursor.description or ()]
                rows = cursor.fetchall() if limit is None else cursor.fetchmany(limit + 1)
        except sqlite3.Error as e:
            if stopped:
                err("sql: interrupted; nothing printed")
                return 130
            if str(e) == "interrupted":
                raise BadInput(
                    f"sql: stopped after --timeout {timeout:g} seconds (in: {args.query})"
                ) from None
            if "not authorized" in str(e) or "authorization denied" in str(e):
                raise BadInput(
                    "sql: this command only reads the file: ATTACH, VACUUM INTO, writes "
                    f"and pragmas that set something are refused (in: {args.query})"
                ) from None
            raise BadInput(f"sql: {e} (in: {args.query})") from None
    if limit is not None and len(rows) > limit:
        rows = rows[:limit]
        err(f"sql: the first {limit:,} rows only (--limit {limit})")
    if args.json:
        print_json([dict(zip(head, r, strict=True)) for r in rows])
    elif args.csv:
        writer = csv.writer(sys.stdout, lineterminator="\n")
        writer.writerow(head)
        writer.writerows(rows)
    elif head:
        print(table(head, [["NULL" if c is None else c for c in r] for r in rows]))
    return EXIT_OK
