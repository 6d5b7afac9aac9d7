"""``paiqi simulate``, ``compare``, ``report`` and ``bench``: games with agents, stored runs
and their reports."""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path
from typing import Any

from paiqi_core import resources
from paiqi_core.cli.common import (
    EXIT_OK,
    FAMILIES,
    BadInput,
    err,
    load_games,
    print_json,
)
from paiqi_core.cli.text import compare_text, games_text, matches_text, sessions_text
from paiqi_core.engine import Game
from paiqi_core.runs.summary import compare_report
from paiqi_core.textui import Progress, table


def cmd_simulate(args: argparse.Namespace) -> int:
    """``paiqi simulate``: games, sessions or matches with agents, summarised per seat."""
    from paiqi_core.agents import AGENTS

    if args.games < 1:
        raise BadInput(f"--games: {args.games} is not a positive number of games")
    for flag in ("sessions", "matches"):
        value = getattr(args, flag)
        if value is not None and value < 1:
            raise BadInput(f"--{flag}: {value} is not a positive number of {flag}")
    if args.sessions and args.matches:
        raise BadInput("--sessions and --matches: choose one")
    games = load_games(args.profiles, args.set)
    agents = [a.strip() for a in args.agents.split(",")] if args.agents else []
    for a in agents:
        if a not in AGENTS:
            raise BadInput(f"--agents: unknown agent '{a}' (known: {', '.join(AGENTS)})")
    for game in games:
        if agents and len(agents) != game.players:
            raise BadInput(f"--agents: {len(agents)} agents for {game.players} seats")
    if not (args.sessions or args.matches):
        return _simulate_games(args, games, agents)
    from paiqi_core.simulate import simulate_matches, simulate_sessions

    out = open(args.records, "w", encoding="utf-8") if args.records else None  # noqa: SIM115
    summaries: list[Any] = []
    count = args.sessions or args.matches
    run = simulate_sessions if args.sessions else simulate_matches
    try:
        for game in games:
            with Progress(count, game.id, enabled=not args.quiet) as bar:
                summaries.append(
                    run(game, count, args.seed, agents=agents, records=out, progress=bar.update)
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


def _simulate_games(args: argparse.Namespace, games: list[Game], agents: list[str]) -> int:
    """Plain games: batches on every core, rows streamed into a store (a temporary file
    unless --db names one, so memory stays flat however many games), the summary read back
    from it; with --records, every game's record written in game order."""
    from paiqi_core.runs import stats
    from paiqi_core.runs.execute import default_workers
    from paiqi_core.runs.run import run
    from paiqi_core.runs.store import RunSpec, Store

    names = args.profiles or list(resources.builtin_profiles())
    workers = args.workers or default_workers()
    summaries = []
    out = open(args.records, "w", encoding="utf-8") if args.records else None  # noqa: SIM115
    try:
        with tempfile.TemporaryDirectory(prefix="paiqi-") as scratch:
            store = Store(Path(args.db) if args.db else Path(scratch) / "runs.db")
            try:
                for name, game in zip(names, games, strict=True):
                    spec = RunSpec("simulate", (name,), tuple(args.set), tuple(agents), False,
                                   args.seed, args.games, args.batch, game.players)  # fmt: skip
                    run_id = store.new_run(spec)
                    with Progress(args.games, game.id, enabled=not args.quiet) as bar:
                        run(store, run_id, workers, bar.update, args.dask, out)
                    summary = stats.games_summary(store, run_id, name)
                    summary["profile"] = game.id
                    summaries.append(summary)
            finally:
                store.close()
    finally:
        if out is not None:
            out.close()
    if args.json:
        print_json(summaries)
        return EXIT_OK
    for summary in summaries:
        print()
        print(games_text(summary, args.seed))
    if args.records:
        print(f"\nrecords: {args.records}")
    return EXIT_OK


def cmd_compare(args: argparse.Namespace) -> int:
    """``paiqi compare``: the same deals under several profiles, stored and paired."""
    from paiqi_core.agents import AGENTS
    from paiqi_core.runs.execute import default_workers
    from paiqi_core.runs.run import run, total_games
    from paiqi_core.runs.store import RunSpec, Store

    store = Store(Path(args.db))
    try:
        if args.resume:
            spec = store.spec(args.resume)
            if spec is None:
                raise BadInput(f"--resume: no run '{args.resume}' in {args.db}")
            run_id = args.resume
        else:
            if not args.profiles:
                args.profiles = list(FAMILIES)
            if len(args.profiles) < 2:
                raise BadInput("compare: name two profiles or more (or --resume RUN)")
            if len(set(args.profiles)) < len(args.profiles):
                raise BadInput("compare: name each profile once")
            if args.games < 1 or args.batch < 1:
                raise BadInput("--games and --batch: positive numbers")
            games = load_games(args.profiles, args.set)
            players = {g.players for g in games}
            if len(players) > 1:
                raise BadInput(
                    "compare: the profiles seat different numbers of players "
                    f"({', '.join(f'{g.id}: {g.players}' for g in games)})"
                )
            agents = tuple(a.strip() for a in args.agents.split(",")) if args.agents else ()
            for a in agents:
                if a not in AGENTS:
                    raise BadInput(f"--agents: unknown agent '{a}' (known: {', '.join(AGENTS)})")
            if agents and len(agents) != games[0].players:
                raise BadInput(f"--agents: {len(agents)} agents for {games[0].players} seats")
            spec = RunSpec(
                "compare",
                tuple(args.profiles),
                tuple(args.set),
                agents,
                args.rotate,
                args.seed,
                args.games,
                args.batch,
                games[0].players,
            )
            run_id = store.new_run(spec)
        workers = args.workers or default_workers()
        total = total_games(spec) * len(spec.profiles)
        try:
            with Progress(total, "compare", enabled=not args.quiet) as bar:
                run(store, run_id, workers, bar.update, args.dask)
        except KeyboardInterrupt:
            err(
                f"interrupted: finished batches are saved in {args.db}; continue with\n"
                f"  paiqi compare --db {args.db} --resume {run_id}"
            )
            return 130
        report = compare_report(store, run_id, spec)
        if args.json:
            print_json(report)
        else:
            print(compare_text(report, args.db, workers))
        return EXIT_OK
    finally:
        store.close()


def cmd_report(args: argparse.Namespace) -> int:
    """``paiqi report``: tables, plots and an HTML page of a stored run."""
    from paiqi_core.runs.report import PLOT_EXTRA, plots_available, write_report
    from paiqi_core.runs.store import Store

    if not Path(args.db).is_file():
        raise BadInput(f"{args.db}:1:1: (root): no such results file")
    store = Store(Path(args.db))
    try:
        runs = [r[0] for r in store.runs()]
        if args.run is None:
            if not runs:
                raise BadInput(f"{args.db}: holds no run")
            print("\n".join(runs))
            return EXIT_OK
        run_id = runs[-1] if args.run == "last" else args.run
        spec = store.spec(run_id)
        if spec is None:
            raise BadInput(f"no run '{args.run}' in {args.db} (runs: {', '.join(runs) or 'none'})")
        report = compare_report(store, run_id, spec)
    finally:
        store.close()
    text = compare_text(report, args.db)
    if args.json:
        print_json(report)
        return EXIT_OK
    print(text)
    folder = Path(args.out or f"paiqi-report-{run_id}")
    written = write_report(report, text, folder)
    print(f"\nwrote {', '.join(str(p) for p in written)}")
    if len(written) == 1 and not plots_available():
        print(f"(no plots: {PLOT_EXTRA})")
    return EXIT_OK


def cmd_bench(args: argparse.Namespace) -> int:
    """``paiqi bench``: random-play games per second, per profile."""
    from paiqi_core.runs.batch import BatchSpec, run_batch

    rows = []
    for name, game in zip(
        args.profiles or list(resources.builtin_profiles()),
        load_games(args.profiles, args.set),
        strict=True,
    ):
        spec = BatchSpec(name, tuple(args.set), (), False, args.seed, 0, args.games)
        run_batch(BatchSpec(name, tuple(args.set), (), False, args.seed, 0, 1))  # compile once
        best = 0.0
        for _ in range(args.repeat):
            t0 = time.perf_counter()
            run_batch(spec)
            best = max(best, args.games / (time.perf_counter() - t0))
        rows.append({"profile": game.id, "games": args.games, "games_per_second": round(best)})
    if args.json:
        print_json(rows)
    else:
        print(
            table(
                ["profile", "games", f"games/s (best of {args.repeat})"],
                [[r["profile"], r["games"], r["games_per_second"]] for r in rows],
            )
        )
    return EXIT_OK
