"""Planning one seat's moves several deep over sampled deals, in the kernel (POMCP).

``walk(deals, lucks, me, R, ext, beyond, objective, settings, out)`` is the search of
Silver and Veness (2010) with the other seats modelled as the rule-based player: iteration
i plays on from deal ``deals[i % len(deals)]`` (a state in which the hidden cards are one
guess at where they lie), drawing from the stream of ``lucks[i]``. The others move as
``fast.heuristic`` picks; the searching seat ``me`` chooses in a tree whose nodes are what
it has seen (its own moves and the others', their covers seen as passes), adds one node an
iteration and values it by one rule-based playout to the end. Where a node is chosen from,
the score is PUCT with the rule-based move given ``settings[PRIOR]`` of the prior, or plain
UCB1 (``settings[PLAIN]``); rewards are scaled to 0..1 by the least and most seen so far.

``out`` receives the root's statistics, one row a legal action tried:
(action, visits, sum of values, sum of squared values), and ``walk`` returns the number of
rows and, in ``out[-1, 0]``, the rule-based player's move at the root.

``legal_into(st, R, beyond, log, jx, jy, out)`` lists the legal actions as
``State.legal_actions`` lists them.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from paiqi_core.core.bits import lowest
from paiqi_core.core.kernel import apply, options
from paiqi_core.core.layout import (
    BY_DRAW,
    BY_GIVE,
    COVER,
    DRAW,
    DRAWN,
    DREW,
    G_DEN,
    G_HAS_TOTAL,
    G_WINNERS,
    GAME_FIELDS,
    GEN,
    GIVE,
    JOKER,
    KEY,
    OVER,
    PASS,
    PHASE,
    R_PLAYERS,
    SEAT_FIELDS,
    STATE,
    TURN,
    X_MONEY,
    X_TOTAL,
    X_WIN,
)
from paiqi_core.core.scoring import WORK, score
from paiqi_core.fast.heuristic import heuristic
from paiqi_core.fast.play import HEURISTIC, finish

MONEY, POINTS, WIN = 0, 1, 2  # objectives
WIDTH = 64  # actions kept a node
DEPTH = 512  # own decisions on one path, at most
# settings
EXPLORATION, PRIOR, UCB, PLAIN = 0, 1, 2, 3
SETTINGS = 4


@njit(cache=True, nogil=True)
def legal_into(
    st: np.ndarray,
    R: np.ndarray,
    beyond: np.ndarray,
    log: np.ndarray,
    jx: np.ndarray,
    jy: np.ndarray,
    out: np.ndarray,
) -> int:
    """The legal actions of the player to move into ``out``, ascending as
    ``State.legal_actions`` lists them (plays, covers or a pass, joker moves); their count."""
    if st[OVER]:
        return 0
    can, njokers, covers, may_pass, by = options(st, R, beyond, log, jx, jy)
    n = 0
    while can:
        out[n] = lowest(can)
        can &= can - 1
        n += 1
    base = GIVE if by == BY_GIVE else COVER
    while covers:
        out[n] = base + lowest(covers)
        covers &= covers - 1
        n += 1
    if may_pass:
        out[n] = PASS
        n += 1
    elif by == BY_DRAW and st[PHASE] != DREW:
        out[n] = DRAW
        n += 1
    for j in range(njokers):
        out[n] = JOKER + 64 * jx[j] + jy[j]
        n += 1
    return n


@njit(cache=True, nogil=True)
def value_of(
    st: np.ndarray, R: np.ndarray, me: int, objective: int, res: np.ndarray, game: np.ndarray,
    work: np.ndarray,
) -> float:  # fmt: skip
    """Seat ``me``'s utility of the finished game in ``st`` (money before the stake, which
    scales every seat alike)."""
    res[:, :] = 0
    game[:] = 0
    score(st, R, res, game, work)
    if objective == MONEY:
        return res[me, X_MONEY] / game[G_DEN]
    if objective == POINTS and game[G_HAS_TOTAL]:
        return float(res[me, X_TOTAL])
    return res[me, X_WIN] / max(game[G_WINNERS], 1)


@njit(cache=True, nogil=True)
def _mix(h: int, x: int) -> int:
    h = (h ^ (x + 0x9E3779B97F4A7C15)) * 0x100000001B3
    return h ^ (h >> 29)


@njit(cache=True, nogil=True)
def _random(seed: np.ndarray, n: int) -> int:
    """A number below ``n`` from the xorshift stream in ``seed[0]``."""
    x = seed[0]
    x ^= x << 13
    x ^= (x >> 7) & 0x01FFFFFFFFFFFFFF
    x ^= x << 17
    seed[0] = x
    return int((x >> 11) & 0xFFFFFFFFFFFF) % n


@njit(cache=True, nogil=True)
def walk(
    deals: np.ndarray,
    lucks: np.ndarray,
    me: int,
    R: np.ndarray,
    ext: np.ndarray,
    beyond: np.ndarray,
    objective: int,
    settings: np.ndarray,
    seed: int,
    out: np.ndarray,
) -> int:
    """The search of the module's docstring; the count of root rows in ``out``."""
    iterations = lucks.shape[0]
    nodes = iterations + 2
    cap = 1
    while cap < 2 * nodes:
        cap *= 2
    keys = np.zeros(cap, np.int64)
    where = np.full(cap, -1, np.int64)
    acts = np.zeros((nodes, WIDTH), np.int64)
    visits = np.zeros((nodes, WIDTH), np.int64)
    sums = np.zeros((nodes, WIDTH), np.float64)
    squares = np.zeros(WIDTH, np.float64)  # the root's
    width = np.zeros(nodes, np.int64)
    favourite = np.zeros(nodes, np.int64)
    path_node = np.zeros(DEPTH, np.int64)
    path_slot = np.zeros(DEPTH, np.int64)
    moves = np.zeros(WIDTH * 4, np.int64)
    st = np.zeros(STATE, np.int64)
    log = np.empty((0, 2), np.int32)
    jx = np.zeros(16, np.int64)
    jy = np.zeros(16, np.int64)
    res = np.zeros((R[R_PLAYERS], SEAT_FIELDS), np.int64)
    game = np.zeros(GAME_FIELDS, np.int64)
    work = np.zeros(WORK, np.int64)
    rng = np.full(1, seed | 1, np.int64)
    made = 0
    low = np.inf
    high = -np.inf
    explore = settings[EXPLORATION]
    prior = settings[PRIOR]
    ucb = settings[UCB]
    plain = settings[PLAIN] != 0
    for it in range(iterations):
        st[:] = deals[it % deals.shape[0]]
        st[KEY] = lucks[it]
        st[DRAWN] = 0
        st[GEN] = 0
        h = 1
        depth = 0
        value = 0.0
        while True:
            if st[OVER]:
                value = value_of(st, R, me, objective, res, game, work)
                break
            seat = st[TURN]
            n = legal_into(st, R, beyond, log, jx, jy, moves)
            if seat != me or n == 1:
                action = moves[0] if n == 1 else heuristic(st, R, ext, beyond, jx, jy)
                seen = PASS if COVER <= action < PASS and seat != me else action
                h = _mix(h, seat + 16 * seen)
                apply(st, R, ext, beyond, log, action)
                continue
            # the node of what ``me`` has seen: found, or made
            i = (h ^ (h >> 32)) & (cap - 1)
            while where[i] >= 0 and keys[i] != h:
                i = (i + 1) & (cap - 1)
            if where[i] < 0:
                keys[i] = h
                where[i] = made
                favourite[made] = heuristic(st, R, ext, beyond, jx, jy)
                made += 1
            node = where[i]
            # a legal action not tried here yet: tried now and valued by a playout
            untried = 0
            for k in range(n):
                a = moves[k]
                found = False
                for s in range(width[node]):
                    if acts[node, s] == a:
                        found = True
                        break
                if not found:
                    moves[n + untried] = a
                    untried += 1
            if untried > 0 and width[node] < WIDTH:
                action = moves[n + _random(rng, untried)]
                slot = width[node]
                acts[node, slot] = action
                width[node] += 1
                path_node[depth] = node
                path_slot[depth] = slot
                depth += 1
                apply(st, R, ext, beyond, log, action)
                finish(st, R, ext, beyond, log, HEURISTIC, jx, jy)
                value = value_of(st, R, me, objective, res, game, work)
                break
            # else the tried action of best score
            span = high - low
            if span <= 0:
                span = 1.0
            total = 0
            for s in range(width[node]):
                total += visits[node, s]
            best = -np.inf
            slot = -1
            rest = (1.0 - prior) / max(n - 1, 1)
            for k in range(n):
                a = moves[k]
                for s in range(width[node]):
                    if acts[node, s] != a:
                        continue
                    v = visits[node, s]
                    mean = (sums[node, s] / v - low) / span if v > 0 else 1.0
                    if plain:
                        bonus = ucb * np.sqrt(np.log(max(total, 1)) / max(v, 1))
                    else:
                        p = prior if a == favourite[node] else rest
                        bonus = explore * p * np.sqrt(total) / (1 + v)
                    if mean + bonus > best:
                        best = mean + bonus
                        slot = s
                    break
            if slot < 0 or depth >= DEPTH:  # (no room: the rest by the rule-based player)
                finish(st, R, ext, beyond, log, HEURISTIC, jx, jy)
                value = value_of(st, R, me, objective, res, game, work)
                break
            path_node[depth] = node
            path_slot[depth] = slot
            depth += 1
            action = acts[node, slot]
            h = _mix(h, seat + 16 * action)
            apply(st, R, ext, beyond, log, action)
        low = min(low, value)
        high = max(high, value)
        for d in range(depth):
            visits[path_node[d], path_slot[d]] += 1
            sums[path_node[d], path_slot[d]] += value
            if path_node[d] == 0:
                squares[path_slot[d]] += value * value
    if made == 0:
        return 0
    for s in range(width[0]):
        out[s, 0] = acts[0, s]
        out[s, 1] = visits[0, s]
        out[s, 2] = sums[0, s]
        out[s, 3] = squares[s]
    out[out.shape[0] - 1, 0] = favourite[0]
    return width[0]
