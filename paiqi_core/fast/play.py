"""Batches in the kernel: deal and play games from their streams' keys, or play on from
given states with streams of given keys; score each game, and read the course of each dealt game
from its log. Compiled once and cached on disk (numba ``cache=True``)."""

from __future__ import annotations

import numpy as np
from numba import njit

from paiqi_core.core.bits import hot
from paiqi_core.core.kernel import apply, deal, play_out
from paiqi_core.core.layout import (
    DECK_ROOM,
    DRAWN,
    G_LOG_FULL,
    GEN,
    KEY,
    LEAD,
    LOGLEN,
    OVER,
    STATE,
)
from paiqi_core.core.scoring import WORK, score
from paiqi_core.fast.course import COURSE_WORK, course
from paiqi_core.fast.heuristic import heuristic

HEURISTIC = 2  # every seat the rule-based player (``heuristic``); kernel.RANDOM, EAGER below


@hot
def finish(
    st: np.ndarray,
    R: np.ndarray,
    ext: np.ndarray,
    beyond: np.ndarray,
    log: np.ndarray,
    policy: int,
    jx: np.ndarray,
    jy: np.ndarray,
) -> None:
    """Play the game in ``st`` to its end, every seat under ``policy``: random or eager
    (``kernel.play_out``), or ``HEURISTIC``."""
    if policy != HEURISTIC:
        play_out(st, R, ext, beyond, log, policy, jx, jy)
        return
    while not st[OVER]:
        action = heuristic(st, R, ext, beyond, jx, jy)
        apply(st, R, ext, beyond, log, action)


@njit(cache=True, nogil=True)
def play_deals(
    keys: np.ndarray,
    R: np.ndarray,
    ext: np.ndarray,
    beyond: np.ndarray,
    policy: int,
    res: np.ndarray,
    game: np.ndarray,
    states: np.ndarray,
    logs: np.ndarray,
    room: int,
    generator: int,
    leads: np.ndarray,
) -> None:
    """Deal game g from the stream of key ``keys[g]`` (``paiqi_core.streams``), play it to
    its end under ``policy``, score it into ``res[g]`` and ``game[g]`` and read its course
    from its log (``course``). ``states`` (games x STATE, or no rows) receives each final
    state and ``logs`` (games x room x 2, or room 0) each log; without them a log of
    ``room`` entries is kept for the reading only. A game whose log outgrows its room is
    marked ``G_LOG_FULL`` and its course is not read. ``generator`` is how the streams
    draw (``layout.GEN``). ``leads`` (by game, or empty) is 1 + the seat that moves first
    in place of the opening's first mover (``layout.LEAD``), 0 for the opening's."""
    st = np.zeros(STATE, np.int64)
    led = leads.shape[0] > 0
    deck = np.empty(DECK_ROOM, np.int64)
    jx = np.empty(16, np.int64)
    jy = np.empty(16, np.int64)
    work = np.zeros(WORK, np.int64)
    reading = np.zeros(COURSE_WORK, np.int64)
    scratch = np.zeros((room, 2), np.int32)
    keep = states.shape[0] > 0
    kept_logs = logs.shape[1] > 0
    for g in range(keys.shape[0]):
        log = logs[g] if kept_logs else scratch
        st[KEY] = keys[g]
        st[DRAWN] = 0
        st[GEN] = generator
        st[LEAD] = leads[g] if led else 0
        deal(st, R, ext, beyond, log, deck)
        finish(st, R, ext, beyond, log, policy, jx, jy)
        score(st, R, res[g], game[g], work)
        if st[LOGLEN] > log.shape[0]:
            game[g, G_LOG_FULL] = 1
        else:
            game[g, G_LOG_FULL] = 0
            course(st, R, log, res[g], reading)
        if keep:
            states[g, :] = st


@njit(cache=True, nogil=True)
def play_states(
    start: np.ndarray,
    first: np.ndarray,
    keys: np.ndarray,
    R: np.ndarray,
    ext: np.ndarray,
    beyond: np.ndarray,
    policy: int,
    res: np.ndarray,
    game: np.ndarray,
    states: np.ndarray,
) -> None:
    """Play on from ``start[g]`` (a state vector), first applying action ``first[g]`` (if
    not negative: a legal action of the player to move), with the stream of ``keys[g]`` to
    the end under ``policy``, and score it; the final state goes to ``states[g]`` if it
    has rows."""
    st = np.zeros(STATE, np.int64)
    log = np.empty((0, 2), np.int32)
    jx = np.empty(16, np.int64)
    jy = np.empty(16, np.int64)
    work = np.zeros(WORK, np.int64)
    keep = states.shape[0] > 0
    for g in range(keys.shape[0]):
        st[:] = start[g]
        st[KEY] = keys[g]
        st[DRAWN] = 0
        st[GEN] = 0
        if first[g] >= 0:
            apply(st, R, ext, beyond, log, first[g])
        finish(st, R, ext, beyond, log, policy, jx, jy)
        score(st, R, res[g], game[g], work)
        if keep:
            states[g, :] = st
