"""The ``paiqi`` command line.

Exit status: 0 success, 1 a check failed (verify, replay), 2 bad input (with the located
error on stderr, never a traceback).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from paiqi_core import resources
from paiqi_core.engine import Game
from paiqi_core.profile import ProfileError, load_profile
from paiqi_core.profile.errors import format_path
from paiqi_core.profile.explain import explain_text, readings_of, rules_in_effect
from paiqi_core.profile.ranges import range_notes
from paiqi_core.runs.execute import ExecutorError
from paiqi_core.textui import Progress, table

EXIT_OK, EXIT_FAILED, EXIT_BAD_INPUT = 0, 1, 2
FAMILIES = ("doujue", "platform", "shichinarabe", "pagat")  # one built-in profile a family


class BadInput(Exception):
    """Input that cannot be used; the message is already located."""


def _err(message: str) -> None:
    print(message, file=sys.stderr)


def _print_json(data: Any) -> None:
    print(json.dumps(data, ensure_ascii=False, indent=2, default=str))


# -- list / explain / validate --------------------------------------------------------
def cmd_list(args: argparse.Namespace) -> int:
    """``paiqi list``: the built-in profiles."""
    rows = []
    for pid in resources.builtin_profiles():
        p = load_profile(pid)
        rows.append(
            {
                "id": pid,
                "name": p.name,
                "players": p.get("players"),
                "extends": p.chain[1] if len(p.chain) > 1 else "",
            }
        )
    if args.json:
        _print_json(rows)
    else:
        print(
            table(
                ["id", "name", "players", "extends"],
                [[r["id"], r["name"], r["players"], r["extends"]] for r in rows],
            )
        )
    return EXIT_OK


def cmd_explain(args: argparse.Namespace) -> int:
    """``paiqi explain``: every rule in effect and where it came from."""
    profile = load_profile(args.profile, args.set)
    if args.json:
        _print_json(
            {
                "id": profile.id,
                "name": profile.name,
                "chain": list(profile.chain),
                "rules": list(rules_in_effect(profile)),
                "readings": readings_of(profile),
            }
        )
    else:
        print(explain_text(profile))
    return EXIT_OK


def cmd_validate(args: argparse.Namespace) -> int:
    """``paiqi validate``: check profile files; exit 2 on any problem."""
    status = EXIT_OK
    for ref in args.files:
        try:
            profile = load_profile(ref, args.set)
            Game(profile)
            if not args.quiet:
                print(f"ok {ref} ({profile.id}: {profile.name})")
            for note in range_notes(profile):
                _err(f"{note.location}: {format_path(note.path)}: note: {note.message}")
        except ProfileError as e:
            _err(str(e))
            status = EXIT_BAD_INPUT
    return status


# -- verify ------------------------------------------------------------------------
def cmd_verify(args: argparse.Namespace) -> int:
    """``paiqi verify``: run the examples of Markdown and scenario files."""
    from paiqi_core.verify import verify_paths

    paths = [Path(p) for p in args.paths]
    missing = [str(p) for p in paths if not p.exists()]
    if missing:
        raise BadInput("\n".join(f"{m}:1:1: (root): no such file or folder" for m in missing))
    out = None if args.json else sys.stdout
    report = verify_paths(paths, out=out, quiet=args.quiet, err=sys.stderr)
    if args.json:
        _print_json(report.as_dict())
    if report.errors:
        return EXIT_BAD_INPUT
    return EXIT_FAILED if report.failed else EXIT_OK


# -- simulate / replay / bench ---------------------------------------------------------
def _profiles(names: Sequence[str], overrides: Sequence[str]) -> list[Game]:
    return [Game(load_profile(n, overrides)) for n in (names or list(resources.builtin_profiles()))]


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
    games = _profiles(args.profiles, args.set)
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
        _print_json([s.as_dict() for s in summaries])
        return EXIT_OK
    for summary in summaries:
        print()
        text = _sessions_text if args.sessions else _matches_text
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
        _print_json(summaries)
        return EXIT_OK
    for summary in summaries:
        print()
        print(_games_text(summary, args.seed))
    if args.records:
        print(f"\nrecords: {args.records}")
    return EXIT_OK


def _games_text(d: dict[str, Any], seed: int) -> str:
    has_total = "mean_total" in d
    has_money = any(d["mean_money"])
    head = ["seat", "win rate"] + (["mean total"] if has_total else [])
    head += (["mean money"] if has_money else []) + ["stuck/game"]
    rows = []
    for seat in range(d["players"]):
        row: list[Any] = [seat, f"{d['win_rate'][seat]:.3f}"]
        if has_total:
            row.append(f"{d['mean_total'][seat]:+.2f}")
        if has_money:
            row.append(f"{d['mean_money'][seat]:+.2f}")
        row.append(f"{d['mean_stuck'][seat]:.2f}")
        rows.append(row)
    title = f"{d['profile']}: {d['games']} games, seed {seed}, {d['mean_actions']} actions a game"
    return title + "\n" + table(head, rows)


def _matches_text(s: Any, seed: int) -> str:
    d = s.as_dict()
    title = f"{s.profile}: {s.matches} matches of {s.games} games, seed {seed}"
    rows = [
        [seat, f"{d['match_win_rate'][seat]:.3f}", f"{d['mean_match_points'][seat]:.2f}"]
        for seat in range(s.players)
    ]
    return title + "\n" + table(["seat", "match win rate", "mean match points"], rows)


def _sessions_text(s: Any, seed: int) -> str:
    d = s.as_dict()
    bankroll = f", bankroll {s.bankroll}" if s.bankroll is not None else ""
    title = (
        f"{s.profile}: {s.sessions} sessions of {s.hands} hands{bankroll}, seed {seed}; "
        f"{d['mean_hands_played']} hands played on average, {s.ended_early} ended early "
        "(a player could not pay)"
    )
    rows = [
        [seat, f"{d['session_win_rate'][seat]:.3f}", f"{d['mean_session_money'][seat]:+.2f}"]
        for seat in range(s.players)
    ]
    return title + "\n" + table(["seat", "session win rate", "mean session money"], rows)


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
            games = _profiles(args.profiles, args.set)
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
            _err(
                f"interrupted: finished batches are saved in {args.db}; continue with\n"
                f"  paiqi compare --db {args.db} --resume {run_id}"
            )
            return 130
        report = compare_report(store, run_id, spec)
        if args.json:
            _print_json(report)
        else:
            print(compare_text(report, args.db, workers))
        return EXIT_OK
    finally:
        store.close()


def compare_report(store: Any, run_id: str, spec: Any) -> dict[str, Any]:
    """The report of a stored run as data: per-game, per-seat, per-agent and paired figures."""
    from paiqi_core.runs import stats

    profiles = list(spec.profiles)
    out: dict[str, Any] = {"run": run_id, "spec": json.loads(spec.to_json()), "profiles": {}}
    for p in profiles:
        out["profiles"][p] = {
            "per_game": {k: v.as_dict() for k, v in stats.per_game(store, run_id, p).items()},
            "per_seat": [_jsonable(r) for r in stats.per_seat(store, run_id, p)],
            "per_agent": [_jsonable(r) for r in stats.per_agent(store, run_id, p)],
        }
    base = profiles[0]
    out["paired"] = {
        other: {
            **{k: v.as_dict() for k, v in stats.paired(store, run_id, base, other).items()},
            "winner_differs": stats.winners_differ(store, run_id, base, other).as_dict(),
        }
        for other in profiles[1:]
    }
    return out


def _jsonable(row: dict[str, Any]) -> dict[str, Any]:
    """A stats row as data: estimates become {n, mean, ci95} (``total``: None in families
    that keep no totals)."""
    return {k: v.as_dict() if hasattr(v, "as_dict") else v for k, v in row.items()}


def compare_text(report: dict[str, Any], db: str, workers: int | None = None) -> str:
    """The terminal text of a comparison report."""
    spec = report["spec"]
    agents = ",".join(spec["agents"]) or "random"
    lines = [
        f"run {report['run']} in {db}: {spec['games']} deals, seed {spec['seed']}, agents "
        f"{agents}{' rotated' if spec['rotate'] else ''}"
        + ("" if workers is None else f", {workers} workers"),
        "",
        "per game (means; intervals in --json and the report)",
    ]
    metrics = [
        "actions",
        "stuck",
        "covers",
        "passes",
        "bursts",
        "closures",
        "last_seven",
        "all_covered",
        "jokers",
    ]
    rows = [
        [p] + [f"{d['per_game'][m]['mean']:.3g}" for m in metrics]
        for p, d in report["profiles"].items()
    ]
    lines.append(table(["profile", *metrics], rows))
    for p, d in report["profiles"].items():
        lines += ["", f"{p}: by seat"]
        seat_rows = [
            [
                r["seat"],
                _ci(r["win"]),
                "" if r["total"] is None else _ci(r["total"], 2),
                _ci(r["money"], 2),
            ]
            for r in d["per_seat"]
        ]
        lines.append(table(["seat", "win rate", "mean total", "mean money"], seat_rows))
        if len(d["per_agent"]) > 1:
            agent_rows = [[r["agent"], _ci(r["win"]), _ci(r["money"], 2)] for r in d["per_agent"]]
            lines += [table(["agent", "win rate", "mean money"], agent_rows)]
    base = next(iter(report["profiles"]))
    for other, diff in report["paired"].items():
        lines += ["", f"{other} − {base}, paired on the same deals (mean ± 95% CI)"]
        rows = [[k, _ci(v)] for k, v in diff.items()]
        lines.append(table(["difference", "value"], rows))
    return "\n".join(lines)


def _ci(e: dict[str, float], digits: int = 3) -> str:
    return f"{e['mean']:+.{digits}f} ± {e['ci95']:.{digits}f}"


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
        _print_json(report)
        return EXIT_OK
    print(text)
    folder = Path(args.out or f"paiqi-report-{run_id}")
    written = write_report(report, text, folder)
    print(f"\nwrote {', '.join(str(p) for p in written)}")
    if len(written) == 1 and not plots_available():
        print(f"(no plots: {PLOT_EXTRA})")
    return EXIT_OK


def cmd_replay(args: argparse.Namespace) -> int:
    """``paiqi replay``: re-run records and report every disagreement."""
    from paiqi_core.records import read_records, replay

    bad = failed = ok = 0
    for path in args.files:
        if not Path(path).is_file():
            raise BadInput(f"{path}:1:1: (root): no such file")
        for item in read_records(Path(path)):
            if isinstance(item, ProfileError):
                _err(str(item))
                bad += 1
                continue
            try:
                problems = replay(item.data)
            except ProfileError as e:
                _err(f"{path}:{item.line}:1: profile: {e}")
                bad += 1
                continue
            if problems:
                failed += 1
                print(f"FAIL {path}:{item.line}")
                for p in problems:
                    print(f"    {p}")
            else:
                ok += 1
    print(f"{ok} replayed exactly, {failed} disagreed, {bad} malformed")
    if bad:
        return EXIT_BAD_INPUT
    return EXIT_FAILED if failed else EXIT_OK


def cmd_bench(args: argparse.Namespace) -> int:
    """``paiqi bench``: random-play games per second, per profile."""
    from paiqi_core.runs.batch import BatchSpec, run_batch

    rows = []
    for name, game in zip(
        args.profiles or list(resources.builtin_profiles()),
        _profiles(args.profiles, args.set),
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
        _print_json(rows)
    else:
        print(
            table(
                ["profile", "games", f"games/s (best of {args.repeat})"],
                [[r["profile"], r["games"], r["games_per_second"]] for r in rows],
            )
        )
    return EXIT_OK


# -- parser ------------------------------------------------------------------------
def _batch_options(p: argparse.ArgumentParser) -> None:
    """Options of the commands that run games in batches."""
    p.add_argument("--workers", type=int, default=0, help="processes (default: every core)")
    p.add_argument("--batch", type=int, default=250, help="games per batch (default 250)")
    p.add_argument(
        "--dask",
        metavar="local|tcp://HOST:PORT",
        help="run the batches on a Dask cluster (pip install 'paiqi[dask]')",
    )


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of every command."""
    parser = argparse.ArgumentParser(
        prog="paiqi",
        description="Rule profiles for 排七 / Sevens / Fan Tan: explain, "
        "validate, verify documented examples, simulate and replay games.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    def add(
        name: str,
        func: Callable[[argparse.Namespace], int],
        help_: str,
        *,
        json_: bool = True,
        sets: bool = True,
    ) -> argparse.ArgumentParser:
        p = sub.add_parser(name, help=help_, description=help_)
        p.set_defaults(func=func)
        if json_:
            p.add_argument("--json", action="store_true", help="print data as JSON")
        if sets:
            p.add_argument(
                "--set",
                action="append",
                default=[],
                metavar="KEY=VALUE",
                help="override a rule, e.g. --set scoring.stake=2 (repeatable)",
            )
        return p

    add("list", cmd_list, "list the built-in profiles", sets=False)
    p = add(
        "explain", cmd_explain, "every rule in effect, in plain language, and where it came from"
    )
    p.add_argument("profile", help="built-in profile id or a profile file")
    p = add(
        "validate", cmd_validate, "check profile files; located errors, exit 2 if any", json_=False
    )
    p.add_argument("files", nargs="+", metavar="FILE")
    p.add_argument("-q", "--quiet", action="store_true", help="print only errors")
    p = add(
        "verify", cmd_verify, "run the examples in Markdown files and scenario files", sets=False
    )
    p.add_argument("paths", nargs="+", metavar="PATH", help="files or folders (.md, .yaml)")
    p.add_argument("-q", "--quiet", action="store_true", help="print only failures and the summary")
    p = add("simulate", cmd_simulate, "play games with agents and summarise them per seat")
    p.add_argument(
        "profiles",
        nargs="*",
        metavar="PROFILE",
        help="profile ids or files (default: every built-in profile)",
    )
    p.add_argument("--games", type=int, default=1000, help="games per profile (default 1000)")
    p.add_argument(
        "--sessions",
        type=int,
        metavar="N",
        help="play N whole sessions (session.hands hands each, running money) "
        "instead of single games",
    )
    p.add_argument(
        "--matches",
        type=int,
        metavar="N",
        help="play N whole matches (match.games games each, rank points) instead of single games",
    )
    p.add_argument("--seed", type=int, default=0, help="run seed (default 0)")
    p.add_argument("--agents", default="", help="agents by seat, e.g. random,random,random,random")
    p.add_argument(
        "--records",
        metavar="FILE.jsonl",
        help="write every game as a record, in game order",
    )
    _batch_options(p)
    p.add_argument("--db", help="keep one row per game per seat in this SQLite file")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress bar")
    p = add(
        "compare",
        cmd_compare,
        "play the same deals under several profiles on all cores and compare them, "
        "paired game by game, with 95% confidence intervals",
    )
    p.add_argument(
        "profiles",
        nargs="*",
        metavar="PROFILE",
        help=f"profiles to compare (default: {' '.join(FAMILIES)})",
    )
    p.add_argument("--games", type=int, default=10000, help="deals per profile (default 10000)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument(
        "--agents", default="", help="agents by seat, e.g. heuristic,random,random,random"
    )
    p.add_argument(
        "--rotate", action="store_true", help="play each deal once per seat rotation of the agents"
    )
    _batch_options(p)
    p.add_argument("--db", default="paiqi-runs.db", help="results file (default paiqi-runs.db)")
    p.add_argument("--resume", metavar="RUN", help="finish an interrupted run of --db")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress bar")
    p = add(
        "report",
        cmd_report,
        "tables, PNG plots and a self-contained HTML page of a stored run",
        sets=False,
    )
    p.add_argument("run", nargs="?", help="run id, or 'last' (default: list the runs)")
    p.add_argument("--db", default="paiqi-runs.db", help="results file (default paiqi-runs.db)")
    p.add_argument("--out", metavar="FOLDER", help="where to write (default paiqi-report-RUN)")
    p = add(
        "replay",
        cmd_replay,
        "re-run game records and report any disagreement",
        json_=False,
        sets=False,
    )
    p.add_argument("files", nargs="+", metavar="FILE.jsonl")
    p = add("bench", cmd_bench, "games per second of random play, per profile")
    p.add_argument("profiles", nargs="*", metavar="PROFILE")
    p.add_argument("--games", type=int, default=5000)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--repeat", type=int, default=3)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; the exit status (0 ok, 1 a failed check, 2 bad input)."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        result: int = args.func(args)
        return result
    except (ProfileError, BadInput, ExecutorError) as e:
        _err(str(e))
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        _err("interrupted")
        return 130
    except BrokenPipeError:
        return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
