"""Playouts for search players: finish many games in progress at once in the kernel.

``fast_finish(states, policy, seeds)`` plays each ``State`` on to its end (the states are
left as they are) with every seat ``random``, ``eager`` (a card whenever one can be
played) or ``heuristic`` (the rule-based player, ``fast.heuristic``), drawing from the
stream of its seed (``paiqi_core.streams.Stream(seed)``), and returns every seat's utility
of each finished game under the profile's objective (money, rank points or a share of the
win). The games are those ``search.objective.finish(state.clone(), Stream(seed), policy)``
plays, move for move, so the utilities are the same.

``fast_finish_after(state, actions, seeds)`` is the same for each legal action of one state:
every action is played and the game finished with the stream of every seed (PIMC's inner
loops over a sampled deal), and the state is turned into the kernel's form only once.

``finisher(game)`` is what a search player asks for: that function bound to its game, or
None when playouts should stay in Python (the engine chosen is ``python``, numba is not
installed, or the rules have a hook without a compiled form).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING

import numpy as np

from paiqi_core.core import layout as L
from paiqi_core.fast.compiled import compiled_game

if TYPE_CHECKING:
    from paiqi_core.engine import Game, State

Finisher = Callable[..., np.ndarray]
EXACT = 1 << 53  # integers up to this convert to float exactly


def encode(state: State) -> np.ndarray:
    """The kernel's state vector of a Python ``State``: its own, with the log's count at
    0 (the kernel logs what it plays from there)."""
    v = np.array(state.st, dtype=np.int64)
    v[L.LOGLEN] = 0
    return v


def fast_finish(
    states: Sequence[State],
    policy: str = "random",
    seeds: Sequence[int] = (),
    objective: str | None = None,
) -> np.ndarray:
    """Every seat's utility (games x seats, float) of each state played to its end under
    ``policy`` with the stream of its seed; ``objective`` (money, points or win) defaults
    to the profile's own. The states must share one game, and its rules must compile."""
    if not states:
        return np.zeros((0, 0))
    if len(seeds) != len(states):
        raise ValueError(f"{len(states)} states need {len(states)} seeds, not {len(seeds)}")
    game = states[0].game
    compiled = compiled_game(game.rules)
    start = np.stack([encode(s) for s in states])
    played = compiled.play_on(start, seeds, policy)
    aim = objective or game.rules.facts.objective
    return utilities(played.res, played.game, compiled.stake, aim)


def fast_finish_after(
    state: State,
    actions: Sequence[int],
    seeds: Sequence[int],
    policy: str = "random",
    objective: str | None = None,
) -> np.ndarray:
    """Every seat's utility (seeds x actions x seats) of ``state`` after each action of
    ``actions`` (legal actions of the player to move), finished under ``policy`` with the
    stream of each seed: what ``state.clone()``, ``apply_unchecked(action)`` and
    ``search.objective.finish`` with ``Stream(seed)`` give, for every pair."""
    game = state.game
    compiled = compiled_game(game.rules)
    pairs = len(seeds) * len(actions)
    start = np.broadcast_to(encode(state), (pairs, L.STATE))
    first = [a for _ in seeds for a in actions]
    played = compiled.play_on(start, [s for s in seeds for _ in actions], policy, first=first)
    aim = objective or game.rules.facts.objective
    values = utilities(played.res, played.game, compiled.stake, aim)
    return values.reshape(len(seeds), len(actions), game.players)


def utilities(res: np.ndarray, game: np.ndarray, stake: Fraction, objective: str) -> np.ndarray:
    """Utilities of scored kernel games, as ``search.objective.utilities`` gives them for
    their results (money as ``float`` of the exact amount)."""
    if objective == "money":
        num = res[:, :, L.X_MONEY] * stake.numerator
        den = game[:, L.G_DEN] * stake.denominator
        if np.abs(num).max(initial=0) < EXACT and den.max(initial=0) < EXACT:
            # both exact in floating point: one correctly rounded division, as Fraction does
            return num / den[:, None]
        return np.array(
            [
                [float(Fraction(int(n), int(d))) for n in row]
                for row, d in zip(num, den, strict=True)
            ]
        )
    if objective == "points" and game.shape[0] and game[:, L.G_HAS_TOTAL].all():
        return res[:, :, L.X_TOTAL].astype(float)
    winners = game[:, L.G_WINNERS].astype(float)
    return res[:, :, L.X_WIN] / winners[:, None]


def finisher(game: Game) -> Finisher | None:
    """``fast_finish`` for ``game``'s states, or None when playouts stay in Python: the
    engine in use (``use``) is ``python``, numba is missing, or the rules do not compile
    (``fast.why_not``). Every policy plays every rule the kernel plays (the rule-based
    player weighs the platform's meld exemption too)."""
    from paiqi_core.fast import engine_in_use, why_not

    if engine_in_use() == "python" or why_not(game.rules) is not None:
        return None
    return fast_finish
