"""Two players on the same deals, seated in turn: the edge of the first per deal.

``duel(game, first, second, seeds)`` plays each deal twice at a table of four (A B A B and
B A B A; at other sizes the two players alternate round the table, then change places), so
both sit in every seat on the same cards. A deal's edge is the first player's mean objective
over its seats less the second's (money, rank points or a share of the win: the profile's
own, ``rules.facts.objective``), and ``Edge`` is their mean with a 95% interval. At a table
of other players (``others``: random ones, say), each of the two sits alone among them in
every seat in turn, on the same cards (``table_edge``).
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass

from paiqi_core.agents import Agent, make_agent
from paiqi_core.engine import Game
from paiqi_core.search.objective import check_objective, utilities
from paiqi_core.slots import Objective


@dataclass(frozen=True)
class Edge:
    """The first player's mean edge per deal over the second, its 95% half-width, deals."""

    mean: float
    half_width: float
    deals: int

    def text(self, unit: str) -> str:
        """``+0.081 ± 0.030 wins a deal (200 deals)``; one deal gives no interval."""
        if self.deals < 2:
            return f"{self.mean:+.3f} {unit} a deal ({self.deals} deal: too few for an interval)"
        return f"{self.mean:+.3f} ± {self.half_width:.3f} {unit} a deal ({self.deals} deals)"


def edge_of(edges: Sequence[float]) -> Edge:
    """The mean of per-deal ``edges`` with its 95% interval (normal approximation)."""
    n = len(edges)
    if n == 0:
        return Edge(0.0, math.inf, 0)
    mean = sum(edges) / n
    var = sum((e - mean) ** 2 for e in edges) / (n - 1) if n > 1 else math.inf
    return Edge(mean, 1.96 * math.sqrt(var / n), n)


def deal_edge(game: Game, first: str, second: str, seed: int) -> float:
    """The first player's edge on the deal of ``seed`` (see the module)."""
    objective = check_objective(str(game.rules.facts.objective))
    n = game.players
    mine: list[float] = []
    theirs: list[float] = []
    for turn in range(2):
        names = [(first, second)[(seat + turn) % 2] for seat in range(n)]
        rng = random.Random(seed * 2 + turn)
        players = [make_agent(name, rng, game) for name in names]
        values = _played(game, players, seed, objective)
        for seat, name in enumerate(names):
            (mine if name == first else theirs).append(values[seat])
    return sum(mine) / len(mine) - sum(theirs) / len(theirs)


def table_edge(game: Game, first: str, second: str, seed: int, others: str) -> float:
    """The first player's edge on the deal of ``seed`` where each of the two sits alone
    among ``others`` players (random ones, say): each takes every seat in turn on the same
    cards, the others drawing from the same streams, and the edge is the first's mean
    objective less the second's."""
    objective = check_objective(str(game.rules.facts.objective))
    n = game.players
    mine: list[float] = []
    theirs: list[float] = []
    for seat in range(n):
        for name, into in ((first, mine), (second, theirs)):
            players = [
                make_agent(name if s == seat else others, random.Random(seed * 97 + s), game)
                for s in range(n)
            ]
            into.append(_played(game, players, seed, objective)[seat])
    return sum(mine) / n - sum(theirs) / n


def _played(game: Game, players: Sequence[Agent], seed: int, objective: Objective) -> list[float]:
    """Every seat's value of the deal of ``seed`` played out by ``players``."""
    state = game.new_state(seed=seed)
    while not state.over:
        seat = state.turn
        state.apply_unchecked(players[seat].act(state.observation(seat)))
    return utilities(state.result(), objective)
