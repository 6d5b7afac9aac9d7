"""Deals drawn from one seat's belief in the kernel: the placement chain, the hands a
placement deals, and the replay that checks a deal against what the seat saw.

The Python belief (``paiqi_core.belief``) places the unseen cards by a Markov chain and
replays the game from each deal its placement implies. Where the history moved no card
unseen (no covers, gives or draws: 七並べ, Fan Tan) the same three steps run here, for a
whole pool of deals at once:

- ``placements(chain, hidden, allowed, tilt, steps, seed, out)`` moves the chain (a place
  per unseen card) ``steps`` steps before each placement it writes to ``out``: it swaps two
  cards between places, or rotates three, where every card may go to its new place, and
  takes the move with the Metropolis probability of the learned ``tilt`` (``exp`` of the
  change of the sum of ``tilt[card][place]``), as ``Belief._mix`` does;
- ``dealt(...)`` turns each placement into the game's start: every hand as dealt (the
  unseen cards placed, the cards seen leaving the hand, jokers numbered in seat order) put
  into the start all deals share;
- ``replayed(...)`` plays each start through the history's moves, refusing a deal under
  which a move other than a card would not be legal or the game would not reach the very
  state the seat saw (every slot of the state but the hands), as ``Belief.state_of`` does;
  it counts, as ``fast.inference.agreement`` does, the others' moves that had a choice and
  those of them the rule-based player would not have made.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from paiqi_core.core.layout import COVER, DEALT, HAND, JOKER_CARD, OVER, STATE, SUITED, TURN
from paiqi_core.fast.inference import played
from paiqi_core.fast.tree import legal_into

NO_DEAL = -1  # ``dealt``'s mark of a placement whose counts do not add up


@njit(cache=True, nogil=True)
def placements(
    chain: np.ndarray,
    hidden: np.ndarray,
    allowed: np.ndarray,
    tilt: np.ndarray,
    steps: int,
    seed: int,
    out: np.ndarray,
) -> None:
    """``out.shape[0]`` placements of the chain, ``steps`` steps apart (``chain`` is left at
    the last one)."""
    np.random.seed(seed)
    n = chain.shape[0]
    for k in range(out.shape[0]):
        if n >= 2:
            for _ in range(steps):
                i = int(np.random.random() * n)
                j = int(np.random.random() * n)
                pi = chain[i]
                pj = chain[j]
                if pi == pj:
                    continue
                if n > 2 and np.random.random() < 1.0 / 3.0:  # i to j's place, j to k's, k to i's
                    m = int(np.random.random() * n)
                    pm = chain[m]
                    if (
                        pm != pi
                        and pm != pj
                        and allowed[pj] >> hidden[i] & 1
                        and allowed[pm] >> hidden[j] & 1
                        and allowed[pi] >> hidden[m] & 1
                    ):
                        gain = (
                            tilt[i, pj] + tilt[j, pm] + tilt[m, pi]
                            - tilt[i, pi] - tilt[j, pj] - tilt[m, pm]
                        )  # fmt: skip
                        if gain >= 0 or np.random.random() < np.exp(gain):
                            chain[i] = pj
                            chain[j] = pm
                            chain[m] = pi
                elif allowed[pj] >> hidden[i] & 1 and allowed[pi] >> hidden[j] & 1:
                    gain = tilt[i, pj] + tilt[j, pi] - tilt[i, pi] - tilt[j, pj]
                    if gain >= 0 or np.random.random() < np.exp(gain):
                        chain[i] = pj
                        chain[j] = pi
        out[k, :] = chain


@njit(cache=True, nogil=True)
def _popcount(x: int) -> int:
    n = 0
    while x:
        x &= x - 1
        n += 1
    return n


@njit(cache=True, nogil=True)
def dealt(
    chosen: np.ndarray,
    hidden: np.ndarray,
    seat_of: np.ndarray,
    known: np.ndarray,
    sizes: np.ndarray,
    jokers: int,
    opens: int,
    mover: int,
    start: np.ndarray,
    out: np.ndarray,
) -> None:
    """The start of each placement's game into ``out`` (``out[g, 0]`` is ``NO_DEAL`` where
    its counts do not add up, or the first seat dealt one of the cards ``opens`` is not
    ``mover``). ``seat_of[p]``: the seat of place p; ``known[t]``: the cards seat t is seen
    to hold or to have laid (for the searching seat, its hand too); ``sizes[t]``: its
    cards dealt; ``start``: the game as dealt, with the cards put out before play."""
    seats = sizes.shape[0]
    hands = np.zeros(seats, np.int64)
    for g in range(chosen.shape[0]):
        hands[:] = known
        for i in range(chosen.shape[1]):
            hands[seat_of[chosen[g, i]]] |= np.int64(1) << hidden[i]
        out[g, :] = start
        joker = JOKER_CARD
        first = -1
        for t in range(seats):
            suited = hands[t] & SUITED
            extra = sizes[t] - _popcount(suited)
            if extra < 0 or joker + extra > JOKER_CARD + jokers:
                out[g, 0] = NO_DEAL
                break
            hand = suited | ((np.int64(1) << extra) - 1) << joker
            joker += extra
            if first < 0 and hand & opens:
                first = t
            out[g, HAND + t] = hand & ~(start[DEALT + t] & ~start[HAND + t])  # less put out
            out[g, DEALT + t] = hand
        if out[g, 0] != NO_DEAL and opens and max(first, 0) != mover:
            out[g, 0] = NO_DEAL


@njit(cache=True, nogil=True)
def replayed(
    starts: np.ndarray,
    moves: np.ndarray,
    R: np.ndarray,
    ext: np.ndarray,
    beyond: np.ndarray,
    me: int,
    seen: np.ndarray,
    compared: np.ndarray,
    out: np.ndarray,
) -> None:
    """Each start (``starts[g, 0] != NO_DEAL``) played through ``moves`` (seat, action) in
    place; ``out[g]``: (1 where the game reaches ``seen`` in every slot ``compared`` marks,
    else 0; the others' moves that had a choice; those of them the rule-based player would
    not have made)."""
    log = np.empty((0, 2), np.int32)
    jx = np.empty(16, np.int64)
    jy = np.empty(16, np.int64)
    legal = np.empty(256, np.int64)
    for g in range(starts.shape[0]):
        out[g, 0] = 0
        out[g, 1] = 0
        out[g, 2] = 0
        st = starts[g]
        if st[0] == NO_DEAL:
            continue
        fine = True
        choices = 0
        other = 0
        for i in range(moves.shape[0]):
            seat = moves[i, 0]
            action = moves[i, 1]
            if st[OVER] or st[TURN] != seat:
                fine = False
                break
            if action >= COVER:  # a card held is laid where it fits; other moves are checked
                n = legal_into(st, R, beyond, log, jx, jy, legal)
                found = False
                for k in range(n):
                    if legal[k] == action:
                        found = True
                        break
                if not found:
                    fine = False
                    break
            a = played(st, R, ext, beyond, log, jx, jy, me, seat, action)
            if a >= 0:
                choices += 1
                other += 1 - a
        if fine:
            for k in range(STATE):
                if compared[k] and st[k] != seen[k]:
                    fine = False
                    break
        out[g, 0] = 1 if fine else 0
        out[g, 1] = choices
        out[g, 2] = other
