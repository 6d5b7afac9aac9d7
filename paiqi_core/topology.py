"""The rank topology of a suit, built as a graph once and compiled to a lookup table.

Nodes are the rank indices of the pack (0=A .. 12=K; a short pack keeps a range of them,
``paiqi_core.pack``); an edge joins two ranks that may be laid next to each other: a path
A..K with the ace low, 2..K,A with the ace high, and with ``wrap`` the ace and king joined
into a ring. A row's legal extensions are the free neighbours of the connected part of the
row that holds its centre card (the 7 unless the rules name another rank): this also covers
cards that lie on the table without being joined to the centre (they extend nothing until
the gap is filled). An empty row offers its centre card. Below, "the 7" is the centre.

Three options change that per row state: ``tunnel`` (once one side of the 7 has reached its
end, the other side is closed next to the 7 and is played from its far end instead),
``cut`` ends (斬龍: a card at either end of the line closes the row) and the order in which
a row leaves its 7 (``sides``: the 8 before the 6, the 6 before the 8, or both before
anything further out).

The compiled table maps each of the 8192 possible row masks to the mask of playable ranks,
so the engine finds a suit's extensions with one list index. Both speeds of the rule core
read that table (``paiqi_core.core``): a rule that only changes which ranks a row offers
is a change of this table alone.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import TYPE_CHECKING

from paiqi_core.cards import RANKS, SEVEN
from paiqi_core.pack import ALL_RANKS, line_of

if TYPE_CHECKING:
    import networkx as nx

RANK_COUNT = 13
ROW_STATES = 1 << RANK_COUNT
ACE, KING = 0, 12


def rank_graph(ace: str, ace_king: str = "none", ranks: int = ALL_RANKS) -> nx.Graph:
    """The adjacency of the ranks of ``ranks`` (a mask, a range along the line): ``low``
    puts A below 2, ``high`` puts A above K; ``wrap`` joins A and K (ace low) into a ring."""
    import networkx as nx  # only where the graph is built: importing it costs ~100 ms

    if ace not in ("low", "high"):
        raise ValueError(f"unknown ace position {ace!r}")
    g = nx.Graph()
    nx.add_path(g, [r for r in line_of(ace) if ranks >> r & 1])
    if ace_king == "wrap":
        g.add_edge(ACE, KING)
    return g


@dataclass(frozen=True)
class Topology:
    """A suit's rank order compiled: the playable ranks of every possible row."""

    name: str
    extensions: tuple[int, ...]  # row mask -> mask of playable ranks
    reachable: frozenset[int] = frozenset()  # rows built by play from the empty row
    order: tuple[int, ...] = tuple(range(13))  # ranks along the line, lowest first
    ring: bool = False  # rows run on across the A-K junction (wrap, tunnel)
    ace_king: str = "none"  # none, wrap or tunnel
    cut: bool = False  # a card at an end of the line closes its row (斬龍)
    sides: str = "either"  # the order in which a row leaves its 7 (``SIDES``)
    centre: int = SEVEN  # the rank every row starts from
    ranks: int = ALL_RANKS  # the ranks of the pack, a mask
    _beyond: dict[int, int] = field(default_factory=dict, compare=False, repr=False)

    @property
    def line(self) -> tuple[int, ...]:
        """The ranks of the pack along a row's line, lowest first (its ends are the first
        and the last)."""
        return tuple(r for r in self.order if self.ranks >> r & 1)

    def beyond(self, row: int, rank: int) -> int | None:
        """The rank just beyond ``rank`` (a playable place of ``row``) for a joker move: the
        next empty place in the direction away from the row's 7, skipping cards laid there
        by a burst and running on across the A-K junction where the row does (wrap,
        tunnel). None where nothing lies beyond, or the direction is not defined (``rank``
        touches the 7's part of the row on both sides or on neither)."""
        key = row | rank << RANK_COUNT
        got = self._beyond.get(key)
        if got is None:
            got = self._beyond[key] = self._find_beyond(row, rank)
        return None if got < 0 else got

    def _find_beyond(self, row: int, rank: int) -> int:
        order, ring = self.order, self.ring
        place = {r: i for i, r in enumerate(order)}

        def step(i: int, d: int) -> int | None:
            j = i + d
            if ring:
                return j % RANK_COUNT
            return j if 0 <= j < RANK_COUNT else None

        centre = self.centre
        joined, todo = {place[centre]}, [place[centre]]  # the centre's part of the row
        if not row >> centre & 1:
            return -1
        while todo:
            i = todo.pop()
            for d in (-1, 1):
                j = step(i, d)
                if j is not None and j not in joined and row >> order[j] & 1:
                    joined.add(j)
                    todo.append(j)
        x = place[rank]
        below, above = step(x, -1) in joined, step(x, 1) in joined
        if below == above:
            return -1
        d = 1 if below else -1
        j = step(x, d)
        while j is not None and j != x and row >> order[j] & 1:
            j = step(j, d)
        if j is None or j == x:
            return -1
        y = order[j]
        return y if self.extensions[row | 1 << rank] >> y & 1 else -1


def _bits_of(mask: int) -> list[int]:
    return [r for r in range(RANK_COUNT) if mask >> r & 1]


SIDES = ("either", "high_first", "low_first", "both_first", "up")


@cache
def compile_topology(
    ace: str,
    ends: str = "open",
    ace_king: str = "none",
    sides: str = "either",
    centre: int = SEVEN,
    ranks: int = ALL_RANKS,
) -> Topology:
    """Lookup table for ``ace`` (low/high), ``ends`` (open/cut), ``ace_king``
    (none/wrap/tunnel; wrap and tunnel need the ace low and every rank), ``sides``, the
    order in which a row leaves its 7: ``either`` side first; ``high_first``, no 6 before
    the 8; ``low_first``, no 8 before the 6; ``both_first``, nothing beyond the 6 and the 8
    until both are down; ``up``, only the next rank above the row's run from its 7 (on
    round the corner where the ace and king are joined); the ``centre`` rank (the 7 of all
    of these) and the pack's ``ranks`` (a mask of a range along the line)."""
    if sides not in SIDES:
        raise ValueError(f"unknown order of a row's sides {sides!r}")
    if ends not in ("open", "cut"):
        raise ValueError(f"unknown row ends {ends!r}")
    if ace_king not in ("none", "wrap", "tunnel"):
        raise ValueError(f"unknown ace-king option {ace_king!r}")
    if ace_king != "none" and ace != "low":
        raise ValueError(f"{ace_king} needs the ace low")
    if ace_king != "none" and ranks != ALL_RANKS:
        raise ValueError(f"{ace_king} needs every rank in the pack")
    if not ranks >> centre & 1:
        raise ValueError("the centre rank is not in the pack")
    import networkx as nx

    g = rank_graph(ace, ace_king, ranks)
    if not nx.is_connected(g):
        raise ValueError("the rank topology is not connected")
    neighbours = [0] * RANK_COUNT
    for a, b in g.edges:
        neighbours[a] |= 1 << b
        neighbours[b] |= 1 << a
    seven = 1 << centre
    ends_mask = sum(1 << n for n in g.nodes if g.degree(n) <= 1)
    low_side = sum(1 << r for r in range(centre + 1))  # A..7 (tunnel: the ace low)
    high_side = sum(1 << r for r in range(centre, RANK_COUNT))  # 7..K
    table = [0] * ROW_STATES
    for mask in range(ROW_STATES):
        if ends == "cut" and mask & ends_mask:
            continue  # closed: nothing more of this suit may be played
        if not mask & seven:  # (cards a burst laid wait for their 7, which opens the row)
            table[mask] = seven
            continue
        if ace_king == "tunnel" and (mask & high_side == high_side) != (
            mask & low_side == low_side
        ):
            table[mask] = _tunnel(mask, centre, high_complete=mask & high_side == high_side)
            continue
        component, frontier = seven, seven
        while frontier:
            grown = 0
            for r in _bits_of(frontier):
                grown |= neighbours[r]
            frontier = grown & mask & ~component
            component |= frontier
        reach = 0
        for r in _bits_of(component):
            reach |= neighbours[r]
        table[mask] = reach & ~mask
    line = [r for r in line_of(ace) if ranks >> r & 1]
    if sides == "up":
        _upward_only(table, line, centre, ring=ace_king != "none")
    elif sides != "either":
        _order_the_sides(table, sides, line, centre)
    name = f"ace-{ace}/{ends}" + (f"/{ace_king}" if ace_king != "none" else "")
    name += f"/{sides}" if sides != "either" else ""
    if ranks != ALL_RANKS:
        name += f"/{RANKS[line[0]]}-{RANKS[line[-1]]}"
    name += f"/centre-{RANKS[centre]}" if centre != SEVEN else ""
    reachable = _reachable(table)
    order = line_of(ace)
    return Topology(
        name,
        tuple(table),
        reachable,
        order=order,
        ring=ace_king != "none",
        ace_king=ace_king,
        cut=ends == "cut",
        sides=sides,
        centre=centre,
        ranks=ranks,
    )


def _reachable(table: list[int]) -> frozenset[int]:
    seen, todo = {0}, [0]
    while todo:
        row = todo.pop()
        for r in _bits_of(table[row]):
            after = row | 1 << r
            if after not in seen:
                seen.add(after)
                todo.append(after)
    return frozenset(seen)


def _order_the_sides(table: list[int], sides: str, line: list[int], centre: int) -> None:
    """Take from each row with its 7 down what ``sides`` does not allow yet: the 6 while
    the 8 is missing (``high_first``), the 8 while the 6 is (``low_first``), everything but
    the 6 and the 8 while either is (``both_first``). The 6 and the 8 are the centre's
    neighbours along the ``line``; where the centre ends the line, the side it lacks is
    never waited for. A rank beyond the 6 or the 8 is playable only through them, so
    nothing else needs taking."""
    at = line.index(centre)
    six = 1 << line[at - 1] if at > 0 else 0
    eight = 1 << line[at + 1] if at + 1 < len(line) else 0
    for mask in range(ROW_STATES):
        if not mask >> centre & 1:
            continue
        if sides == "high_first" and eight and not mask & eight:
            table[mask] &= ~six
        elif sides == "low_first" and six and not mask & six:
            table[mask] &= ~eight
        elif sides == "both_first" and (mask & (six | eight)) != six | eight:
            table[mask] &= six | eight


def _upward_only(table: list[int], line: list[int], centre: int, *, ring: bool) -> None:
    """Keep of each row with its 7 down only the rank just above its run upwards from the
    7 (``sides`` up): none where the run reaches the top of the ``line``, or, on a ``ring``,
    comes round to the rank below the 7 (the row is complete)."""
    at = line.index(centre)
    ahead = line[at + 1 :] + (line[:at] if ring else [])  # the ranks above the 7, in order
    for mask in range(ROW_STATES):
        if not mask >> centre & 1:
            continue
        nxt = next((r for r in ahead if not mask >> r & 1), None)
        table[mask] &= 0 if nxt is None else 1 << nxt


def _tunnel(mask: int, centre: int, *, high_complete: bool) -> int:
    """The other side, closed next to the 7, is played from its far end: the first missing
    rank counting from A upwards (7..K complete) or from K downwards (A..7 complete)."""
    ranks = range(centre) if high_complete else range(KING, centre, -1)
    for r in ranks:
        if not mask >> r & 1:
            return 1 << r
    return 0


def stacked_fits(ext: Sequence[int], planes: Sequence[int]) -> int:
    """The cards that may be laid on a table given as its planes (the cards down at least
    once, twice, three times: one plane per deck in play), under the rows' extensions
    ``ext``: the next copy of a card down k times fits where its rank extends the
    (k+1)-th plane's row and k copies of it lie, as the rule core keeps a suit's copies
    (``core.kernel._row_frontier``). With one plane, the extensions of every row."""
    out = 0
    for suit in range(4):
        shift = 13 * suit
        below = ALL_RANKS
        for plane in planes:
            row = (plane >> shift) & ALL_RANKS
            out |= (ext[row] & below) << shift
            below = row
    return out
