"""How well a sampled deal explains the other players' moves, in the kernel.

``agreement(starts, moves, counts, R, ext, beyond, me, out)`` replays, for each candidate
deal g, its game from ``starts[g]`` (the state as dealt) through its moves
``moves[g, :counts[g]]`` (seat, action; events happen by themselves), and counts the moves
of the other seats that had a choice (``out[g, 0]``) and those of them the rule-based
player (``heuristic.choices``) would not have made from that deal (``out[g, 1]``). A deal
under which the others played as that player does explains their moves better than one
under which they kept making moves it would not.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from paiqi_core.core.kernel import apply
from paiqi_core.core.layout import STATE
from paiqi_core.fast.heuristic import agrees


@njit(cache=True, nogil=True)
def agreement(
    starts: np.ndarray,
    moves: np.ndarray,
    counts: np.ndarray,
    R: np.ndarray,
    ext: np.ndarray,
    beyond: np.ndarray,
    me: int,
    out: np.ndarray,
) -> None:
    """Choices and disagreements of the other seats' moves under each candidate deal."""
    st = np.zeros(STATE, np.int64)
    log = np.empty((0, 2), np.int32)
    jx = np.empty(16, np.int64)
    jy = np.empty(16, np.int64)
    for g in range(starts.shape[0]):
        st[:] = starts[g]
        choices = 0
        other = 0
        for i in range(counts[g]):
            seat = moves[g, i, 0]
            action = moves[g, i, 1]
            a = played(st, R, ext, beyond, log, jx, jy, me, seat, action)
            if a >= 0:
                choices += 1
                other += 1 - a
        out[g, 0] = choices
        out[g, 1] = other


@njit(cache=True, nogil=True)
def played(
    st: np.ndarray,
    R: np.ndarray,
    ext: np.ndarray,
    beyond: np.ndarray,
    log: np.ndarray,
    jx: np.ndarray,
    jy: np.ndarray,
    me: int,
    seat: int,
    action: int,
) -> int:
    """``action`` of ``seat`` applied to ``st``; whether the rule-based player would have
    made it (1, else 0), or -1 for a move of ``me`` or one without a choice."""
    a = agrees(st, R, ext, beyond, jx, jy, action) if seat != me else -1
    apply(st, R, ext, beyond, log, action)
    return a
