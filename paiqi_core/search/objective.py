"""What a search player optimises: the profile's own objective, read from its rules.

``money`` (the profile settles money): a seat's money; ``points`` (it ranks, with rank
points): a seat's rank points; ``win``: a share of the win (1 for a sole winner, 1/k for k
tied winners). A player may be given another objective than its profile's.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from paiqi_core.actions import COVER, JOKER
from paiqi_core.engine import Game, State
from paiqi_core.outcome import Result
from paiqi_core.search.budget import Budget
from paiqi_core.slots import OBJECTIVES, Objective
from paiqi_core.streams import Stream


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
    """Play ``state`` to its end: every seat ``random`` (uniform over its legal actions: the
    core's own random play, ``State.play_random``), ``eager`` (a random card whenever one
    can be played, a pass or a cover only when none can), or the rule-based ``heuristic``
    player (slower, closer to how people play)."""
    if state.over:
        return
    if policy == "random":
        state.play_random(rng)
        return
    kept, state.rng = state.rng, rng  # a card drawn from a stock is drawn from ``rng`` too
    try:
        _finish(state, rng, policy)
    finally:
        state.rng = kept


def _finish(state: State, rng: random.Random, policy: str) -> None:
    if policy == "eager":
        if state.game.rules.must_play:
            state.play_random(rng)  # the same thing: nothing is chosen instead of a play
            return
        while not state.over:
            legal = state.legal_actions()
            plays = [a for a in legal if a < COVER or a >= JOKER]
            options = plays or legal
            state.apply_unchecked(options[rng.randrange(len(options))])
        return
    from paiqi_core.agents import HeuristicAgent

    players = [HeuristicAgent(rng, game=state.game) for _ in range(state.game.players)]
    while not state.over:
        seat = state.turn
        state.apply_unchecked(players[seat].act(state.observation(seat)))


POLICIES = ("random", "eager", "heuristic")


def playout_values(
    world: State, actions: Sequence[int], lucks: Sequence[int], policy: str, objective: Objective
) -> list[list[list[float]]]:
    """Every seat's utility (by luck, by action, by seat) of ``world`` after each of
    ``actions``, finished under ``policy`` with the stream of ``luck`` (``Stream(luck)``,
    ``paiqi_core.streams``): by the compiled
    engine when it can play these rules under this policy (``paiqi_core.fast``: the same
    values, many times sooner), else in Python."""
    from paiqi_core.fast import installed

    if installed():
        from paiqi_core.fast.finish import fast_finish_after, finisher

        if finisher(world.game) is not None:
            values = fast_finish_after(world, actions, lucks, policy, objective)
            return values.tolist()
    out = []
    for luck in lucks:
        row = []
        for action in actions:
            state = world.clone()
            state.apply_unchecked(action)
            finish(state, Stream(luck), policy)
            row.append(utilities(state.result(), objective))
        out.append(row)
    return out


class SearchPlayer:
    """What every search player shares: the game it plays, its budget per decision, the
    objective it optimises and the policy of its playouts."""

    name = "search"
    pairs = False  # whether its strength reads NxM (deals x playouts)

    def __init__(
        self,
        rng: random.Random,
        *,
        game: Game | None = None,
        budget: Budget | str | None = None,
        objective: str | None = None,
        rollout: str = "random",
    ) -> None:
        if game is None:
            raise ValueError("a search player needs the game's rules")
        if rollout not in POLICIES:
            raise ValueError(f"unknown rollout policy '{rollout}' (known: {', '.join(POLICIES)})")
        self.rng = rng
        self.game = game
        if isinstance(budget, str):
            budget = Budget.parse(budget, pairs=self.pairs)
        self.budget = budget or self.default_budget()
        self.objective = check_objective(objective or game.rules.facts.objective)
        self.rollout = rollout

    def default_budget(self) -> Budget:
        """The budget when none is given."""
        return Budget(iterations=100)
