"""Planning several moves deep where passing is a choice: POMCP with the others modelled.

``guided`` and ``expert`` value each action by one move and then the rule-based player for
everyone, the searching seat included. Where a seat may pass while it holds a playable card
(七並べ), what a move is worth depends on the seat's own later moves: which cards it holds
back and when it lets them go. ``Planner`` searches those too, as Silver and Veness's
POMCP (2010) with the others modelled: ``ITERATIONS`` times it plays on from one of
``DEALS`` deals drawn from the seat's belief (weighed as ``expert`` weighs them), the others
move as the rule-based player, and its own moves are chosen in a tree whose nodes are what
it has seen, one node added an iteration and valued by one rule-based playout to the end.
A node's moves are scored by PUCT with the rule-based move given ``PRIOR`` of the prior.
At the root, as ``guided`` does, it plays the rule-based move unless another did better by
more than ``CONFIDENCE`` standard errors.

The tree is walked in the kernel (``fast.tree``): 4,096 iterations take some 10 to 60 ms
in 七並べ, and drawing the deals in Python most of the rest of a decision. ``plans(game)``
says where ``expert`` plans: passing is a choice and the compiled engine plays the rules
with the rule-based player. At tables where players must play when they can (Fan Tan,
鬥雀) planning did no better than ``expert``'s one-move search (docs/players.md).
"""

from __future__ import annotations

import math
import random
from typing import TYPE_CHECKING

import numpy as np

from paiqi_core.belief import Belief, InconsistentObservation
from paiqi_core.engine import Game, Observation
from paiqi_core.search.inference import compiled_player, worlds
from paiqi_core.search.kernel_deals import drawable, weighed_starts
from paiqi_core.search.objective import Objective

if TYPE_CHECKING:
    from collections.abc import Callable

ITERATIONS = 4096
DEALS = 64  # deals a decision (``expert:NxM`` plans over N)
EXPLORATION = 1.0  # PUCT's constant, for rewards scaled to 0..1
PRIOR = 0.5  # the rule-based move's share of the prior (the rest shared by the others)
CONFIDENCE = 1.0  # standard errors another root move must be ahead by
UCB = 0.7  # UCB1's constant, where the tree is searched without the prior


def plans(game: Game) -> bool:
    """Whether ``expert`` plans at ``game``'s tables: a pass is a choice, and the compiled
    engine plays the rules with the rule-based player."""
    return not game.rules.must_play and compiled_player(game)


class Planner:
    """The search of the module's docstring for one seat's decisions; ``plain``: UCB1
    without the prior, the root move visited most (for comparison)."""

    def __init__(
        self,
        rng: random.Random,
        game: Game,
        objective: Objective,
        belief_of: Callable[[Observation], Belief],
        slack: float | None,
        *,
        iterations: int = ITERATIONS,
        deals: int = DEALS,
        plain: bool = False,
        weigh: bool = True,
    ) -> None:
        from paiqi_core.fast.compiled import compiled_game

        if iterations < 1 or deals < 1:
            raise ValueError("a planner needs at least one iteration and one deal")
        self.rng = rng
        self.game = game
        self.compiled = compiled_game(game.rules)
        self.objective = objective
        self.belief_of = belief_of
        self.slack = slack
        self.iterations = iterations
        self.deals = deals
        self.plain = plain
        self.weigh = weigh

    def root(self, observation: Observation) -> tuple[dict[int, tuple[int, float, float]], int]:
        """The root's statistics, by action: (visits, sum of values, sum of their squares);
        and the rule-based move there."""
        from paiqi_core.fast.finish import encode
        from paiqi_core.fast.tree import EXPLORATION as AT_EXPLORATION
        from paiqi_core.fast.tree import MONEY, POINTS, SETTINGS, WIDTH, WIN, walk
        from paiqi_core.fast.tree import PLAIN as AT_PLAIN
        from paiqi_core.fast.tree import PRIOR as AT_PRIOR
        from paiqi_core.fast.tree import UCB as AT_UCB

        rng = self.rng
        belief = self.belief_of(observation)
        if self.weigh and drawable(belief):  # the kernel draws and weighs them
            starts = weighed_starts(belief, rng, self.slack, self.deals)
        elif self.weigh:
            draws = worlds(belief, rng, self.slack, self.deals)
            starts = np.stack([encode(next(draws)[1]) for _ in range(self.deals)])
        else:
            starts = np.stack([encode(belief.sample(rng)) for _ in range(self.deals)])
        settings = np.zeros(SETTINGS)
        settings[AT_EXPLORATION] = EXPLORATION
        settings[AT_PRIOR] = PRIOR
        settings[AT_UCB] = UCB
        settings[AT_PLAIN] = self.plain
        lucks = np.random.default_rng(rng.getrandbits(64)).integers(
            0, 1 << 63, size=self.iterations, dtype=np.int64
        )
        out = np.zeros((WIDTH + 1, 4))
        aim = {"money": MONEY, "points": POINTS, "win": WIN}[self.objective]
        c = self.compiled
        n = walk(starts, lucks, observation.seat, c.R, c.ext, c.beyond, aim, settings,
                 rng.getrandbits(62), out)  # fmt: skip
        rows = {int(a): (int(v), float(s), float(q)) for a, v, s, q in out[:n]}
        return rows, int(out[-1, 0])

    def act(self, observation: Observation, prior: int) -> int:
        """The move to play: ``prior`` (the rule-based move) unless another did better at
        the root by ``CONFIDENCE`` standard errors; with ``plain``, the root move visited
        most. ``prior`` too where no deal agrees with what the seat has seen."""
        legal = observation.legal
        if len(legal) == 1:
            return legal[0]
        try:
            rows, _ = self.root(observation)
        except InconsistentObservation:
            return prior
        if self.plain and rows:
            return max(rows, key=lambda a: rows[a][0])
        return overrule(rows, prior)


def overrule(rows: dict[int, tuple[int, float, float]], prior: int) -> int:
    """``prior``, or the move whose mean beats ``prior``'s by the most once ``CONFIDENCE``
    standard errors (of the two means, apart) are taken off, where that is above zero."""
    if prior not in rows or rows[prior][0] < 2:
        return prior
    prior_mean, prior_var = _mean_var(rows[prior])
    prior_n = rows[prior][0]
    best, best_bound = prior, 0.0
    for action, row in rows.items():
        if action == prior or row[0] < 2:
            continue
        mean, var = _mean_var(row)
        gap = mean - prior_mean
        bound = gap - CONFIDENCE * math.sqrt(var / row[0] + prior_var / prior_n)
        if gap > 0 and bound > best_bound:
            best, best_bound = action, bound
    return best


def _mean_var(row: tuple[int, float, float]) -> tuple[float, float]:
    """The mean and the sample variance of ``row`` (visits, sum, sum of squares)."""
    n, total, squares = row
    mean = total / n
    return mean, max(squares / n - mean * mean, 0.0) * n / (n - 1)
