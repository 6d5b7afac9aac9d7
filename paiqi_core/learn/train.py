"""``paiqi train``: a belief model for one rule set, from games played on this machine.

Training runs in rounds of expert iteration:

1. games of rule-based players (``normal`` at every seat) are read at a share of their
   decisions (``learn.data``), and a model is fitted to them (``learn.fit``);
2. games in which ``expert`` players using that model sit beside rule-based ones are read
   the same way, and the model is fitted again to every row so far (the others' moves the
   belief reads then include the learned player's own);
3. ``expert`` with the final model meets ``hard`` on the same deals (``learn.duel``).

The model is written after each fit (a run stopped half way leaves a usable model). Given
``games``, each round plays that many games and each fit makes a fixed number of passes, so
the same command makes the same model; given only ``minutes``, the rounds share the time.
"""

from __future__ import annotations

import multiprocessing
import os
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from paiqi_core.engine import Game
from paiqi_core.learn.data import Rows, positions
from paiqi_core.learn.duel import Edge, deal_edge, edge_of
from paiqi_core.learn.fit import Epoch, Measure, fit_apart, measure
from paiqi_core.learn.model import BeliefModel, cache_dir, file_name, remember

SHARE = 0.3  # the share of decisions read
CHUNK = 10  # games a worker plays at a time
EPOCHS = 20  # passes over the rows a fit makes where games are counted
HELD = 10  # one game in HELD is held out to measure the model
# the share of the time of each step where only minutes are given
TIME_SHARE = {"rules": 0.30, "fit": 0.12, "expert": 0.26, "refit": 0.12, "duel": 0.20}
DUEL_SHARE = 0.1  # with counted games: the deals of the duel, per game of a round
MAX_GAMES = 1500  # games a round plays at most while time lasts (some 0.5 GB of rows)


@dataclass
class Plan:
    """What to train: the game (its profile and overrides), where the model goes, the
    time or the games, the seed and the workers."""

    game: Game
    profile: str
    overrides: Sequence[str]
    out: Path | None = None
    minutes: float = 10.0
    games: int | None = None  # games per round (fixes the run: the same model each time)
    seed: int = 0
    workers: int = 0  # processes (0: every core)
    duel_deals: int | None = None

    def round_games(self, step: str) -> int | None:
        """The games of a round where they are counted: ``games``, a quarter of that with
        expert players (their decisions take some 30 times longer), at most ``MAX_GAMES``
        while the time lasts."""
        if self.games is None:
            return MAX_GAMES
        return self.games if step == "rules" else max(CHUNK, self.games // 4)

    @property
    def path(self) -> Path:
        """Where the model is written."""
        return self.out or cache_dir() / file_name(self.game.rules.fingerprint)


@dataclass
class Report:
    """What training measured, step by step."""

    rows: dict[str, int] = field(default_factory=dict)
    games: dict[str, int] = field(default_factory=dict)
    uniform: Measure | None = None
    epochs: list[Epoch] = field(default_factory=list)
    edge: Edge | None = None
    seconds: dict[str, float] = field(default_factory=dict)


# -- workers ---------------------------------------------------------------------------
_GAME: Game | None = None


def _start(profile: str, overrides: Sequence[str], model: str | None) -> None:
    """A worker's set-up: the game, and the model ``expert`` uses (a file just written)."""
    global _GAME
    from paiqi_core.profile import load_profile

    _GAME = Game(load_profile(profile, list(overrides)))
    if model is not None:
        remember(_GAME.rules.fingerprint, BeliefModel.load(Path(model)))


def _rows(players: Sequence[str], seeds: Sequence[int]) -> tuple[Rows, int]:
    assert _GAME is not None
    return positions(_GAME, players, seeds, SHARE), len(seeds)


def _edge(seed: int) -> float:
    assert _GAME is not None
    return deal_edge(_GAME, "expert", "hard", seed)


class Pool:
    """Worker processes that know the game (and a model), and keep ``workers`` chunks of
    work under way while a clock or a count allows."""

    def __init__(self, plan: Plan, model: Path | None) -> None:
        self.plan = plan
        workers = plan.workers or os.cpu_count() or 1
        self.workers = workers
        self.pool = ProcessPoolExecutor(
            workers,
            # not forked: the fitting library runs threads, which a fork would copy half way
            mp_context=multiprocessing.get_context("forkserver" if os.name == "posix" else "spawn"),
            initializer=_start,
            initargs=(plan.profile, list(plan.overrides), str(model) if model else None),
        )

    def __enter__(self) -> Pool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.pool.shutdown(cancel_futures=True)

    def run(
        self, work: Callable[..., Any], jobs: Iterator[tuple[Any, ...]], seconds: float | None
    ) -> Iterator[Any]:
        """The results of ``work(*job)`` as they finish, submitting jobs while fewer than two
        per worker are under way and (with ``seconds``) the time lasts."""
        end = time.perf_counter() + seconds if seconds is not None else None
        running: list[Future[Any]] = []
        more = True
        while True:
            while more and len(running) < 2 * self.workers:
                if end is not None and time.perf_counter() > end:
                    more = False
                    break
                job = next(jobs, None)
                if job is None:
                    more = False
                    break
                running.append(self.pool.submit(work, *job))
            if not running:
                return
            done = running.pop(0)
            yield done.result()


def _chunks(base: int, players: Sequence[str], count: int | None) -> Iterator[tuple[Any, ...]]:
    """(players, seeds) jobs of ``CHUNK`` games from seed ``base`` on (``count`` games, or
    without end)."""
    at = 0
    while count is None or at < count:
        size = CHUNK if count is None else min(CHUNK, count - at)
        yield (tuple(players), tuple(range(base + at, base + at + size)))
        at += size


# -- the steps ---------------------------------------------------------------------------
Say = Callable[[str], None]
Tick = Callable[[str, int, int | None], None]  # (step, done, total or None)


def _read(
    plan: Plan, model: Path | None, players: Sequence[str], base: int, seconds: float | None,
    tick: Tick, step: str,
) -> tuple[Rows, int]:  # fmt: skip
    parts: list[Rows] = []
    played = 0
    with Pool(plan, model) as pool:
        count = plan.round_games(step)
        for rows, games in pool.run(_rows, _chunks(base, players, count), seconds):
            parts.append(rows)
            played += games
            tick(step, played, count if plan.games is not None else None)
    return Rows.join(parts), played


def _split(rows: Rows) -> tuple[Rows, Rows]:
    held = rows.game % HELD == 0
    return rows.take(~held), rows.take(held)


def _fit(plan: Plan, rows: Rows, seconds: float, say: Say, report: Report) -> BeliefModel:
    train, held = _split(rows)
    report.uniform = measure(held, held.offset.astype(np.float64))  # (the same held rows)

    def told(epoch: Epoch) -> None:
        report.epochs.append(epoch)
        if epoch.epoch % 5 and epoch.epoch != 1:
            return  # (a line every fifth pass)
        say(
            f"  pass {epoch.epoch:2d}: loss {epoch.loss:.4f}; held out: true place "
            f"{epoch.held.p_true:.3f}, likeliest right {epoch.held.top:.3f}"
        )

    epochs = EPOCHS if plan.games is not None else 200
    limit = seconds if plan.games is None else float("inf")
    return fit_apart(train, held, seconds=limit, seed=plan.seed, epochs=epochs, report=told)


def _meta(plan: Plan, report: Report) -> dict[str, Any]:
    last = report.epochs[-1].held if report.epochs else None
    return {
        "fingerprint": plan.game.rules.fingerprint,
        "profile": plan.profile,
        "overrides": list(plan.overrides),
        "seed": plan.seed,
        "games": report.games,
        "rows": report.rows,
        "held_out": None if last is None else last.__dict__,
        "uniform": None if report.uniform is None else report.uniform.__dict__,
        "seconds": {step: round(t, 1) for step, t in report.seconds.items()},
        "made": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
    }


def train(plan: Plan, say: Say, tick: Tick) -> tuple[BeliefModel, Report]:
    """Train a model as ``plan`` says (see the module), writing it to ``plan.path`` after
    each fit; ``say`` gets a line per step and per pass, ``tick`` the games played."""
    report = Report()
    total = plan.minutes * 60
    budget = {k: v * total for k, v in TIME_SHARE.items()} if plan.games is None else {}

    def timed(step: str) -> float | None:
        return budget.get(step)

    base = plan.seed * 1_000_003
    clock = time.perf_counter()
    say(f"round 1: rule-based players at every seat ({_amount(plan, 'rules', budget)})")
    rows, played = _read(plan, None, ["normal"], base, timed("rules"), tick, "rules")
    report.games["rules"], report.rows["rules"] = played, len(rows)
    _, held = _split(rows)
    uniform = measure(held, held.offset.astype(np.float64))
    say(
        f"  {played} games, {len(rows):,} cards read; the uniform belief: true place "
        f"{uniform.p_true:.3f}, likeliest right {uniform.top:.3f}"
    )
    report.seconds["rules"] = time.perf_counter() - clock
    clock = time.perf_counter()
    model = _fit(plan, rows, budget.get("fit", 0.0), say, report)
    model.meta = _meta(plan, report)
    model.save(plan.path)
    report.seconds["fit"] = time.perf_counter() - clock

    clock = time.perf_counter()
    say(f"round 2: expert players beside rule-based ones ({_amount(plan, 'expert', budget)})")
    more, played = _read(
        plan, plan.path, ["expert", "normal"], base + 500_000, timed("expert"), tick, "expert"
    )
    report.games["expert"], report.rows["expert"] = played, len(more)
    say(f"  {played} games, {len(more):,} cards read")
    report.seconds["expert"] = time.perf_counter() - clock
    clock = time.perf_counter()
    everything = Rows.join([rows, more]) if len(more) else rows
    model = _fit(plan, everything, budget.get("refit", 0.0), say, report)
    model.meta = _meta(plan, report)
    model.save(plan.path)
    report.seconds["refit"] = time.perf_counter() - clock

    clock = time.perf_counter()
    deals = plan.duel_deals
    if deals is None and plan.games is not None:
        deals = max(1, int(plan.games * DUEL_SHARE))
    say(f"expert against hard on the same deals ({_deals(deals, budget)})")
    edges: list[float] = []
    seeds = ((base + 900_000 + i,) for i in range(deals if deals is not None else 10**9))
    with Pool(plan, plan.path) as pool:
        for value in pool.run(_edge, seeds, timed("duel")):
            edges.append(value)
            tick("duel", len(edges), deals)
    report.edge = edge_of(edges)
    report.seconds["duel"] = time.perf_counter() - clock
    model.meta = {**_meta(plan, report), "edge_over_hard": report.edge.__dict__}
    model.save(plan.path)
    return model, report


def _amount(plan: Plan, step: str, budget: dict[str, float]) -> str:
    if plan.games is not None:
        return f"{plan.round_games(step)} games"
    return f"{budget[step] / 60:.1f} min"


def _deals(deals: int | None, budget: dict[str, float]) -> str:
    if deals is not None:
        return f"{deals} deals"
    return f"{budget['duel'] / 60:.1f} min"
