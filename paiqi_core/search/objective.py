"""What a search player optimises: the profile's own objective, read from its rules.

``money`` (the profile settles money): a seat's money; ``points`` (it ranks, with rank
points): a seat's rank points; ``win``: a share of the win (1 for a sole winner, 1/k for k
tied winners). A player may be given another objective than its profile's.
"""

from __future__ import annotations

import random

from paiqi_core.engine import State
from paiqi_core.outcome import Result
from paiqi_core.slots import OBJECTIVES, Objective


def check_objective(objective: str) -> Objective:
    """``objective`` if it is one a player can optimise, else ValueError."""
    for known in OBJECTIVES:
        if objective == known:
            return known
    raise ValueError(f"unknown objective '{objective}' (known: {', '.join(OBJECTIVES)})")


def utilities(result: Result, objective: Objective) -> list[float]:
    """Every seat's value of a finished game under ``objective``."""
    if objective == "money":
        return [float(m) for m in result.money]
    if objective == "points" and result.total is not None:
        return [float(t) for t in result.total]
    share = 1.0 / len(result.winners) if result.winners else 0.0
    return [share if seat in result.winners else 0.0 for seat in range(len(result.rank))]


def finish(state: State, rng: random.Random, policy: str = "random") -> None:
    """Play ``state`` to its end: every seat random (the compiled fast loop), or every seat
    the rule-based ``heuristic`` player (slower, closer to how people play)."""
    if state.over:
        return
    if policy == "random":
        state.play_random(rng)
        return
    from paiqi_core.agents import HeuristicAgent

    players = [HeuristicAgent(rng, game=state.game) for _ in range(state.game.players)]
    while not state.over:
        seat = state.turn
        state.apply_unchecked(players[seat].act(state.observation(seat)))


POLICIES = ("random", "heuristic")
