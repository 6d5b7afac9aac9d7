"""``paiqi train``: a learned belief for one rule set, for the ``expert`` player."""

from __future__ import annotations

import argparse
import importlib.util
import sys
from pathlib import Path

from paiqi_core.cli.common import EXIT_OK, BadInput, load_games, print_json
from paiqi_core.engine import Game
from paiqi_core.learn.fit import MissingExtra
from paiqi_core.learn.model import cache_dir, shipped_dir

MAX_MINUTES = 24 * 60


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The options of ``paiqi train``."""
    p.add_argument("profile", help="built-in profile id or a profile file")
    p.add_argument(
        "--minutes",
        type=float,
        default=None,
        help="how long to train, games and fitting and the closing match shared (default 10)",
    )
    p.add_argument(
        "--games",
        type=int,
        help="games per round instead of a time: the same command then makes the same model",
    )
    p.add_argument(
        "--out",
        metavar="FILE",
        help=f"where to write the model (default: the model folder, {cache_dir()}, where "
        "expert finds it; PAIQI_MODELS names another folder)",
    )
    p.add_argument(
        "--duel-deals",
        type=int,
        metavar="N",
        help="deals of the closing match against hard (default: a tenth of --games, or "
        "a fifth of the time)",
    )
    p.add_argument(
        "--plot",
        metavar="FILE.png",
        help="also draw the training curves (held-out figures and loss by pass) as a PNG "
        "(needs pip install 'paiqi[plots]')",
    )
    p.add_argument("--seed", type=int, default=0, help="seed of the games (default 0)")
    p.add_argument("--workers", type=int, help="processes (default: every core)")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress bar")


def cmd_train(args: argparse.Namespace) -> int:
    """``paiqi train``: play, read, fit, measure (see ``paiqi_core.learn.train``)."""
    from paiqi_core.learn.train import Plan, train

    (game,) = load_games([args.profile], args.set)
    if args.minutes is not None and not 0 < args.minutes <= MAX_MINUTES:
        raise BadInput(f"--minutes: a time between 0 and {MAX_MINUTES} minutes, not {args.minutes}")
    if args.games is not None and args.games < 10:
        raise BadInput(f"--games: at least 10 games a round, not {args.games}")
    if args.games is not None and args.minutes is not None:
        raise BadInput("--games and --minutes: give one (games fix the run, minutes bound it)")
    if args.workers is not None and args.workers < 1:
        raise BadInput(f"--workers: at least 1, not {args.workers}")
    if args.duel_deals is not None and args.duel_deals < 1:
        raise BadInput(f"--duel-deals: at least 1, not {args.duel_deals}")
    out = Path(args.out) if args.out else None
    if out is not None and out.suffix != ".npz":
        raise BadInput(f"--out {args.out}: a model file ends in .npz")
    plot = Path(args.plot) if args.plot else None
    if plot is not None:
        from paiqi_core.runs.report import plot_hint, plots_available

        if plot.suffix.lower() != ".png":
            raise BadInput(f"--plot {args.plot}: the curves are written as a .png file")
        if not plots_available():
            raise BadInput(f"--plot needs matplotlib: {plot_hint()}")
        writable(plot)
    if not all(importlib.util.find_spec(name) for name in ("jax", "optax")):
        # (found, not imported: the fitting runs in a process of its own)
        raise BadInput("paiqi train needs JAX and optax: pip install 'paiqi[learn]'")
    plan = Plan(
        game=game,
        profile=args.profile,
        overrides=list(args.set),
        out=out,
        minutes=10.0 if args.minutes is None else args.minutes,
        games=args.games,
        seed=args.seed,
        workers=args.workers or 0,
        duel_deals=args.duel_deals,
    )
    writable(plan.path)
    quiet = args.quiet or args.json or not sys.stderr.isatty()
    shown = [False]  # a progress line is on the terminal

    def say(line: str) -> None:
        if shown[0]:
            sys.stderr.write("\r\x1b[K")
            shown[0] = False
        if not args.json:
            print(line, flush=True)

    def tick(step: str, done: int, total: int | None) -> None:
        if quiet:
            return
        of = f"/{total}" if total is not None else ""
        what = "deals" if step == "duel" else "games"
        sys.stderr.write(f"\r\x1b[K  {step}: {done}{of} {what}")
        sys.stderr.flush()
        shown[0] = True

    rules = game.rules
    say(
        f"training a belief and a policy for {rules.name} ({rules.id}; rules "
        f"{rules.fingerprint[:12]})"
    )
    try:
        model, report = train(plan, say, tick)
    except MissingExtra as e:
        raise BadInput(str(e)) from None
    finally:
        if shown[0]:
            sys.stderr.write("\r\x1b[K")
    if plot is not None:
        from paiqi_core.learn.curves import plot_curves

        title = f"belief of {rules.id} (rules {rules.fingerprint[:12]})"  # (no CJK font needed)
        plot_curves(report.epochs, report.uniform, plot, title)
    policy = plan.policy_path if report.policy_epochs else None
    if args.json:
        print_json({"model": str(plan.path), "policy": policy and str(policy), **model.meta})
        return EXIT_OK
    if report.edge is not None:
        print(f"expert over hard: {report.edge.text(objective_unit(game))}")
    steps = ", ".join(f"{step} {t:.0f} s" for step, t in report.seconds.items())
    print(f"trained in {_minutes(sum(report.seconds.values()))} ({steps})")
    print(f"model written to {plan.path}")
    if policy is not None:
        print(f"policy written to {policy}")
    if plot is not None:
        print(f"training curves drawn in {plot}")
    found = {cache_dir().resolve(), shipped_dir().resolve()}
    if out is not None and out.parent.resolve() not in found:
        print(f"(expert reads models from {cache_dir()}: copy them there, or set PAIQI_MODELS)")
    return EXIT_OK


def writable(path: Path) -> None:
    """BadInput unless a model can be written at ``path`` (checked before training, so a
    run is not lost at its end): its folder made if need be, and a file written there."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        probe = path.parent / f".{path.name}.probe"
        probe.write_bytes(b"")
        probe.unlink()
    except OSError as e:
        raise BadInput(f"cannot write the model to {path}: {e.strerror or e}") from None
    if path.exists() and path.is_dir():
        raise BadInput(f"cannot write the model to {path}: it is a folder")


def _minutes(seconds: float) -> str:
    whole = round(seconds)
    return f"{whole // 60} min {whole % 60} s" if whole >= 60 else f"{whole} s"


def objective_unit(game: Game) -> str:
    """The unit of the profile's objective, per deal: money, rank points or wins."""
    objective = str(game.rules.facts.objective)
    return {"money": "money", "points": "rank points"}.get(objective, "wins")
