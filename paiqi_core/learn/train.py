"""``paiqi train``: a belief model for one rule set, from games played on this machine.

Training runs in rounds of expert iteration:

1. games of rule-based players (``normal`` at every seat) are read at a share of their
   decisions (``learn.data``), and a model is fitted to them (``learn.fit``);
2. games in which ``expert`` players using that model sit beside rule-based ones are read
   the same way, and the model is fitted again to every row so far (the others' moves the
   belief reads then include the learned player's own);
3. a policy model is fitted to the decisions the ``expert`` players of those games took
   (``learn.policy``): the search's choices, which ``expert`` then takes as the action its
   search must beat (one round of expert iteration);
4. ``expert`` with the final models meets ``hard`` on the same deals (``learn.duel``).

The belief model is written after each fit, the policy beside it (a run stopped half way
leaves a usable model). Given ``games``, each round plays that many games and each fit makes
a fixed number of passes, so the same command makes the same model; given only ``minutes``,
the rounds share the time. The policy is the action ``expert``'s search must beat only where
it guesses the search's choices better than the rule-based player
(``learn.policy.predicts_search``).
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
from paiqi_core.learn.data import Rows, positions_and_choices
from paiqi_core.learn.duel import Edge, deal_edge, edge_of
from paiqi_core.learn.fit import Epoch, Measure, fit_apart, gain_over, measure
from paiqi_core.learn.model import (
    BELIEF,
    POLICY,
    BeliefModel,
    cache_dir,
    file_name,
    model_for,
    remember,
)
from paiqi_core.learn.policy import predicts_search

SHARE = 0.3  # the share of decisions read
CHUNK = 10  # games a worker plays at a time
EPOCHS = 20  # passes over the rows a fit makes where games are counted
HELD = 10  # one game in HELD is held out to measure the model
# the share of the time of each step where only minutes are given
TIME_SHARE = {"rules": 0.28, "fit": 0.11, "expert": 0.26, "refit": 0.11, "policy": 0.06,
              "duel": 0.18}  # fmt: skip
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
        """Where the belief model is written."""
        return self.out or cache_dir() / file_name(self.game.rules.fingerprint)

    @property
    def policy_path(self) -> Path:
        """Where the policy model is written: beside the belief model (``policy-KEY.npz``
        beside ``belief-KEY.npz``, else ``NAME-policy.npz`` beside ``NAME.npz``)."""
        if self.out is not None:
            name = self.out.name
            if name.startswith(f"{BELIEF}-"):  # belief-KEY.npz: policy-KEY.npz, as expert looks
                return self.out.with_name(POLICY + name[len(BELIEF) :])
            return self.out.with_name(self.out.stem + "-policy.npz")
        return cache_dir() / file_name(self.game.rules.fingerprint, POLICY)


@dataclass
class Report:
    """What training measured, step by step."""

    rows: dict[str, int] = field(default_factory=dict)
    games: dict[str, int] = field(default_factory=dict)
    uniform: Measure | None = None
    epochs: list[Epoch] = field(default_factory=list)
    rule_based: Measure | None = None  # the rule-based player's choices against the search's
    policy_epochs: list[Epoch] = field(default_factory=list)
    over_rules: tuple[float, float] | None = None  # the policy's gain on it, its error
    edge: Edge | None = None
    seconds: dict[str, float] = field(default_factory=dict)


# -- workers ---------------------------------------------------------------------------
_GAME: Game | None = None


def _start(profile: str, overrides: Sequence[str], model: str | None, policy: str | None) -> None:
    """A worker's set-up: the game, and the models ``expert`` uses (files just written)."""
    global _GAME
    from paiqi_core.profile import load_profile

    _GAME = Game(load_profile(profile, list(overrides)))
    if model is not None:
        remember(_GAME.rules.fingerprint, BeliefModel.load(Path(model)))
    if policy is not None:
        remember(_GAME.rules.fingerprint, BeliefModel.load(Path(policy), POLICY))


def _rows(
    players: Sequence[str], seeds: Sequence[int], chooser: str | None
) -> tuple[Rows, Rows, int]:
    assert _GAME is not None
    belief = model_for(_GAME.rules.fingerprint, BELIEF) if chooser is not None else None
    cards, choices = positions_and_choices(_GAME, players, seeds, SHARE, chooser, belief)
    return cards, choices, len(seeds)


def _edge(seed: int) -> float:
    assert _GAME is not None
    return deal_edge(_GAME, "expert", "hard", seed)


class Pool:
    """Worker processes that know the game (and a model), and keep ``workers`` chunks of
    work under way while a clock or a count allows."""

    def __init__(self, plan: Plan, model: Path | None, policy: Path | None = None) -> None:
        self.plan = plan
        workers = plan.workers or os.cpu_count() or 1
        self.workers = workers
        self.pool = ProcessPoolExecutor(
            workers,
            # not forked: the fitting library runs threads, which a fork would copy half way
            mp_context=multiprocessing.get_context("forkserver" if os.name == "posix" else "spawn"),
            initializer=_start,
            initargs=(
                plan.profile,
                list(plan.overrides),
                str(model) if model else None,
                str(policy) if policy else None,
            ),
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


def _chunks(
    base: int, players: Sequence[str], count: int | None, chooser: str | None
) -> Iterator[tuple[Any, ...]]:
    """(players, seeds, chooser) jobs of ``CHUNK`` games from seed ``base`` on (``count``
    games, or without end)."""
    at = 0
    while count is None or at < count:
        size = CHUNK if count is None else min(CHUNK, count - at)
        yield (tuple(players), tuple(range(base + at, base + at + size)), chooser)
        at += size


# -- the steps ---------------------------------------------------------------------------
Say = Callable[[str], None]
Tick = Callable[[str, int, int | None], None]  # (step, done, total or None)


def _read(
    plan: Plan, model: Path | None, players: Sequence[str], base: int, seconds: float | None,
    tick: Tick, step: str, chooser: str | None = None,
) -> tuple[Rows, Rows, int]:  # fmt: skip
    parts: list[Rows] = []
    chosen: list[Rows] = []
    played = 0
    with Pool(plan, model) as pool:
        count = plan.round_games(step)
        jobs = _chunks(base, players, count, chooser)
        for rows, choices, games in pool.run(_rows, jobs, seconds):
            parts.append(rows)
            chosen.append(choices)
            played += games
            tick(step, played, count if plan.games is not None else None)
    return Rows.join(parts), Rows.join(chosen), played


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

    epochs, limit = _passes(plan, seconds)
    return fit_apart(train, held, seconds=limit, seed=plan.seed, epochs=epochs, report=told)


def _passes(plan: Plan, seconds: float) -> tuple[int, float]:
    """A fit's passes and time: ``EPOCHS`` where games are counted (the same model each
    time), else up to 200 while ``seconds`` last."""
    if plan.games is not None:
        return EPOCHS, float("inf")
    return 200, seconds


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
    rows, _, played = _read(plan, None, ["normal"], base, timed("rules"), tick, "rules")
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
    more, choices, played = _read(
        plan, plan.path, ["expert", "normal"], base + 500_000, timed("expert"), tick, "expert",
        chooser="expert",
    )  # fmt: skip
    report.games["expert"], report.rows["expert"] = played, len(more)
    report.rows["choices"] = len(choices)
    say(f"  {played} games, {len(more):,} cards read, {len(choices):,} of expert's decisions")
    report.seconds["expert"] = time.perf_counter() - clock
    clock = time.perf_counter()
    everything = Rows.join([rows, more]) if len(more) else rows
    model = _fit(plan, everything, budget.get("refit", 0.0), say, report)
    model.meta = _meta(plan, report)
    model.save(plan.path)
    report.seconds["refit"] = time.perf_counter() - clock

    clock = time.perf_counter()
    policy = _fit_policy(plan, choices, budget.get("policy", 0.0), say, report)
    report.seconds["policy"] = time.perf_counter() - clock

    clock = time.perf_counter()
    deals = plan.duel_deals
    if deals is None and plan.games is not None:
        deals = max(1, int(plan.games * DUEL_SHARE))
    say(f"expert against hard on the same deals ({_deals(deals, budget)})")
    edges: list[float] = []
    seeds = ((base + 900_000 + i,) for i in range(deals if deals is not None else 10**9))
    with Pool(plan, plan.path, plan.policy_path if policy is not None else None) as pool:
        for value in pool.run(_edge, seeds, timed("duel")):
            edges.append(value)
            tick("duel", len(edges), deals)
    report.edge = edge_of(edges)
    report.seconds["duel"] = time.perf_counter() - clock
    model.meta = {**_meta(plan, report), "edge_over_hard": report.edge.__dict__}
    model.save(plan.path)
    if policy is not None:
        policy.meta = {**_policy_meta(plan, report), "edge_over_hard": report.edge.__dict__}
        policy.save(plan.policy_path)
    return model, report


def _fit_policy(
    plan: Plan, choices: Rows, seconds: float, say: Say, report: Report
) -> BeliefModel | None:
    """The policy fitted to expert's decisions (written to ``plan.policy_path``), or None
    where too few were read to hold some out."""
    train, held = _split(choices)
    if not len(train) or not len(held):
        say("no policy: too few of expert's decisions were read")
        plan.policy_path.unlink(missing_ok=True)  # (not one of another run beside this belief)
        return None
    # the rule-based player's own choices (ties shared) scored as a policy would be
    report.rule_based = measure(held, held.offset + 30.0 * held.x[:, :, 2])
    say(
        f"a policy from expert's {len(choices):,} decisions (the rule-based player takes "
        f"expert's action at {report.rule_based.p_true:.3f} of them)"
    )

    def told(epoch: Epoch) -> None:
        report.policy_epochs.append(epoch)
        if epoch.epoch % 5 and epoch.epoch != 1:
            return
        say(
            f"  pass {epoch.epoch:2d}: loss {epoch.loss:.4f}; held out: takes expert's action "
            f"{epoch.held.top:.3f}"
        )

    epochs, limit = _passes(plan, seconds)
    policy = fit_apart(
        train, held, seconds=limit, seed=plan.seed, epochs=epochs, report=told, kind=POLICY,
        batch=256,
    )  # fmt: skip
    logits = held.offset + policy.scores(held.x.astype(np.float64))
    report.over_rules = gain_over(held, logits, held.offset + held.x[:, :, 2])
    policy.meta = _policy_meta(plan, report)
    policy.save(plan.policy_path)
    gain, error = report.over_rules
    guess = (
        f"  it takes expert's action {gain:+.3f} ± {1.96 * error:.3f} more often than the "
        "rule-based player"
    )
    if predicts_search(policy):
        say(f"{guess}: expert's search beats the policy's action")
    else:
        say(f"{guess}, within chance: expert's search beats the rule-based action")
    return policy


def _policy_meta(plan: Plan, report: Report) -> dict[str, Any]:
    last = report.policy_epochs[-1].held if report.policy_epochs else None
    base = report.rule_based
    return {
        **_meta(plan, report),
        "kind": POLICY,
        "held_out": None if last is None else last.__dict__,
        "rule_based": None if base is None else base.__dict__,
        "over_rules": None
        if report.over_rules is None
        else dict(zip(("mean", "error"), report.over_rules, strict=True)),
    }


def _amount(plan: Plan, step: str, budget: dict[str, float]) -> str:
    if plan.games is not None:
        return f"{plan.round_games(step)} games"
    return f"{budget[step] / 60:.1f} min"


def _deals(deals: int | None, budget: dict[str, float]) -> str:
    if deals is not None:
        return f"{deals} deals"
    return f"{budget['duel'] / 60:.1f} min"
