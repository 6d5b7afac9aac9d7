"""The rank topology of a suit, built as a graph once and compiled to a lookup table.

Nodes are rank indices (0=A .. 12=K); an edge joins two ranks that may be laid next to
each other. A row's legal extensions are the free neighbours of the connected part of the
row that holds the 7: this also covers cards that lie on the table without being joined
to their 7 (they extend nothing until the gap is filled). An empty row offers its 7.

The compiled table maps each of the 8192 possible row masks to the mask of playable ranks,
so the engine finds a suit's extensions with one list index.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import networkx as nx

from paiqi_core.cards import SEVEN

RANK_COUNT = 13
ROW_STATES = 1 << RANK_COUNT


def rank_graph(ace: str) -> nx.Graph:
    """The adjacency of ranks: ``low`` puts A below 2, ``high`` puts A above K."""
    g = nx.Graph()
    g.add_nodes_from(range(RANK_COUNT))
    nx.add_path(g, range(1, RANK_COUNT))  # 2 .. K
    if ace == "low":
        g.add_edge(0, 1)
    elif ace == "high":
        g.add_edge(12, 0)
    else:
        raise ValueError(f"unknown ace position {ace!r}")
    return g


@dataclass(frozen=True)
class Topology:
    name: str
    extensions: tuple[int, ...]  # row mask -> mask of playable ranks
    end_ranks: frozenset[int]  # ranks with a single neighbour (the ends of the line)


@cache
def compile_topology(ace: str, ends: str = "open") -> Topology:
    """Lookup table for ``ace`` (low/high) and ``ends``: with ``cut`` (斬龍) a row that
    holds a card at either end of the line (A or K with the ace low) is closed."""
    if ends not in ("open", "cut"):
        raise ValueError(f"unknown row ends {ends!r}")
    g = rank_graph(ace)
    if not nx.is_connected(g):
        raise ValueError(f"rank topology {ace!r} is not connected")
    neighbours = [0] * RANK_COUNT
    for a, b in g.edges:
        neighbours[a] |= 1 << b
        neighbours[b] |= 1 << a
    seven = 1 << SEVEN
    ends_mask = sum(1 << n for n in g.nodes if g.degree(n) == 1)
    table = [0] * ROW_STATES
    for mask in range(ROW_STATES):
        if ends == "cut" and mask & ends_mask:
            continue  # closed: nothing more of this suit may be played
        if not mask & seven:
            table[mask] = seven if mask == 0 else 0
            continue
        component, frontier = seven, seven
        while frontier:
            grown = 0
            f = frontier
            while f:
                low = f & -f
                grown |= neighbours[low.bit_length() - 1]
                f ^= low
            frontier = grown & mask & ~component
            component |= frontier
        reach = 0
        c = component
        while c:
            low = c & -c
            reach |= neighbours[low.bit_length() - 1]
            c ^= low
        table[mask] = reach & ~mask
    end_ranks = frozenset(n for n in g.nodes if g.degree(n) == 1)
    return Topology(name=f"ace-{ace}/{ends}", extensions=tuple(table), end_ranks=end_ranks)
