"""The course of a kernel game, read from its log as ``runs.trace`` reads a Python game's:
each seat's place in turn order from the first mover, the times it took the lead, its
largest deficit to the best standing, and the cuts, swaps and leaves of its log.

``runs.trace`` stays the reference and says what the figures mean; this is the same reading,
entry by entry, compiled. A game's log is the Python game's log, so the figures are the same.
"""

from __future__ import annotations

import numpy as np

from paiqi_core.core.bits import face_points, hot, popcount, step
from paiqi_core.core.layout import (
    BURST,
    COVER,
    DEALT,
    DEALT_THRICE,
    DEALT_TWICE,
    JOKER,
    LEAVE,
    LOGLEN,
    MAX_SEATS,
    PASS,
    PLACE,
    R_COURSE_COVERS,
    R_PLAYERS,
    SWAP,
    TRUMP,
    X_CUTS,
    X_DEFICIT,
    X_LEADS,
    X_LEAVES,
    X_SWAPS,
    X_TURN_ORDER,
)

# the scratch vector of a reading (``work``)
C_HELD = 0  # by seat: cards held
C_PEN = MAX_SEATS  # by seat: points of the cards covered
C_OUT = 2 * MAX_SEATS  # by seat: 1 once out of the game (burst, or left holding only the joker)
C_BEST = 3 * MAX_SEATS  # the best standing
C_LEADER = C_BEST + 1  # the seat that took the lead last, -1: none yet
COURSE_WORK = C_LEADER + 1


@step
def _standing(work: np.ndarray, covers: bool, seat: int) -> int:
    return work[C_PEN + seat] if covers else work[C_HELD + seat]


@step
def _behind(work: np.ndarray, res: np.ndarray, covers: bool, seat: int) -> None:
    """Note how far ``seat`` trails the best standing now."""
    if not work[C_OUT + seat]:
        gap = _standing(work, covers, seat) - work[C_BEST]
        if gap > res[seat, X_DEFICIT]:
            res[seat, X_DEFICIT] = gap


@step
def _lead(work: np.ndarray, res: np.ndarray, seat: int) -> None:
    """``seat`` alone has the best standing: a new leader unless it already led."""
    if work[C_LEADER] != seat:
        work[C_LEADER] = seat
        res[seat, X_LEADS] += 1


@hot
def _rescan(work: np.ndarray, res: np.ndarray, n: int, covers: bool) -> None:
    """Find the best standing among players still in, and its one holder if one."""
    found = False
    best = 0
    holder = -1
    shared = False
    for s in range(n):
        if work[C_OUT + s]:
            continue
        v = _standing(work, covers, s)
        if not found or v < best:
            found = True
            best = v
            holder = s
            shared = False
        elif v == best:
            shared = True
    if not found:
        return
    work[C_BEST] = best
    if not shared:
        _lead(work, res, holder)


@hot
def course(
    st: np.ndarray, R: np.ndarray, log: np.ndarray, res: np.ndarray, work: np.ndarray
) -> None:
    """Read the log of the finished game in ``st`` (its ``st[LOGLEN]`` entries, all within
    ``log``) into the course fields of ``res`` (seat x field), with ``work`` (COURSE_WORK
    long) as scratch."""
    n = R[R_PLAYERS]
    covers = R[R_COURSE_COVERS] != 0
    for s in range(n):
        work[C_HELD + s] = (
            popcount(st[DEALT + s]) + popcount(st[DEALT_TWICE + s]) + popcount(st[DEALT_THRICE + s])
        )
        work[C_PEN + s] = 0
        work[C_OUT + s] = 0
        res[s, X_LEADS] = 0
        res[s, X_DEFICIT] = 0
        res[s, X_CUTS] = 0
        res[s, X_SWAPS] = 0
        res[s, X_LEAVES] = 0
    work[C_BEST] = 0
    work[C_LEADER] = -1
    first = -1
    started = False
    for i in range(st[LOGLEN]):
        seat = int(log[i, 0])
        action = int(log[i, 1])
        if not started and (action <= PASS or action >= JOKER):  # the first move
            started = True
            _rescan(work, res, n, covers)
            first = seat
        if action < PASS or action >= JOKER:  # a play, a cover or a joker move
            if covers:
                if action >= COVER and action < PASS:
                    was = work[C_PEN + seat]
                    card = action - COVER
                    work[C_PEN + seat] = was + face_points(card)
                    if was == work[C_BEST]:  # the best standing (or its holder) may change
                        _rescan(work, res, n, covers)
                    gap = work[C_PEN + seat] - work[C_BEST]
                    if gap > res[seat, X_DEFICIT]:
                        res[seat, X_DEFICIT] = gap
                continue
            gap = work[C_HELD + seat] - work[C_BEST]
            if gap > res[seat, X_DEFICIT]:
                res[seat, X_DEFICIT] = gap
            work[C_HELD + seat] -= 2 if JOKER <= action < TRUMP else 1  # a joker and a card
            if work[C_HELD + seat] < work[C_BEST]:
                work[C_BEST] = work[C_HELD + seat]
                _lead(work, res, seat)
        elif action == PASS:
            if not covers:
                _behind(work, res, covers, seat)
        elif action < PLACE:  # a suit cut at an end of its line (斬龍)
            res[seat, X_CUTS] += 1
        elif action < SWAP:  # a 7 put out before play
            work[C_HELD + seat] -= 1
        elif action < BURST:
            res[seat, X_SWAPS] += 1  # the holder's card for the joker: hand size unchanged
        elif action in (BURST, LEAVE):
            _behind(work, res, covers, seat)
            work[C_OUT + seat] = 1
            if action == LEAVE:
                res[seat, X_LEAVES] += 1
            _rescan(work, res, n, covers)
    if not started:  # every card went to the table before play
        _rescan(work, res, n, covers)
    for s in range(n):  # deficits of players who have not moved since
        _behind(work, res, covers, s)
    start = first if first > 0 else 0
    for s in range(n):
        res[s, X_TURN_ORDER] = (s - start + n) % n
