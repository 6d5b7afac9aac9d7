"""The rank topology as kernel arrays: a row's playable ranks, and where a joker move
plays beyond a place (``Topology.beyond``, tabulated for every row and rank)."""

from __future__ import annotations

import numpy as np

from paiqi_core.core.bits import tabulate
from paiqi_core.topology import Topology

ROWS = 1 << 13


@tabulate
def _step(i: int, d: int, ring: bool) -> int:
    j = i + d
    if ring:
        return j % 13
    return j if 0 <= j < 13 else -1


@tabulate
def _beyond(
    row: int, rank: int, order: np.ndarray, ring: bool, ext: np.ndarray, centre: int
) -> int:
    """``Topology._find_beyond``: the next empty place beyond ``rank`` in the direction away
    from the centre's part of the row, running on across the A-K junction where rows do; -1
    for none."""
    if not (row >> centre) & 1:
        return -1
    place = np.empty(13, np.int64)
    for i in range(13):
        place[order[i]] = i
    joined = np.zeros(13, np.bool_)
    todo = np.empty(13, np.int64)
    ntodo = 1
    todo[0] = place[centre]
    joined[place[centre]] = True
    while ntodo:
        ntodo -= 1
        i = todo[ntodo]
        for d in (-1, 1):
            j = _step(i, d, ring)
            if j >= 0 and not joined[j] and (row >> order[j]) & 1:
                joined[j] = True
                todo[ntodo] = j
                ntodo += 1
    x = place[rank]
    lo = _step(x, -1, ring)
    hi = _step(x, 1, ring)
    below = lo >= 0 and joined[lo]
    above = hi >= 0 and joined[hi]
    if below == above:
        return -1
    d = 1 if below else -1
    j = _step(x, d, ring)
    while j >= 0 and j != x and (row >> order[j]) & 1:
        j = _step(j, d, ring)
    if j < 0 or j == x:
        return -1
    y = order[j]
    return y if (ext[row | (1 << rank)] >> y) & 1 else -1


@tabulate
def _beyond_table(order: np.ndarray, ring: bool, ext: np.ndarray, centre: int) -> np.ndarray:
    table = np.empty(ROWS * 13, np.int8)
    for row in range(ROWS):
        for rank in range(13):
            table[row * 13 + rank] = _beyond(row, rank, order, ring, ext, centre)
    return table


def extensions(topology: Topology) -> np.ndarray:
    """Row mask -> mask of playable ranks."""
    return np.array(topology.extensions, dtype=np.int64)


def beyond_table(topology: Topology) -> np.ndarray:
    """Row mask * 13 + rank -> the rank a joker move in place of ``rank`` plays beyond it
    (-1: none)."""
    return _beyond_table(
        np.array(topology.order, dtype=np.int64),
        topology.ring,
        extensions(topology),
        topology.centre,
    )
