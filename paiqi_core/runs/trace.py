"""What a finished game's log says about its course: who moved first, how often the lead
changed hands, how far behind each player fell, and which special rules fired for whom.

These facts become columns of the rows a run stores (``runs.batch.game_rows``), so the
design measures of a run (``runs.design``) are read from the store like every other figure.
They are computed from the game's log alone (the hands as dealt and every action and
automatic event, in order), so any engine that keeps the same log gives the same values.

The standing of a player at a moment is what they still have to get rid of: the cards in
their hand, or, when stuck players cover cards (so that every player sheds one card a turn
and hand sizes say nothing), the points of the cards they have covered so far. Lower is
better. Players who burst or left holding only the joker are out of the game and are no
longer compared. The leader is the one player whose standing is strictly best; while two
or more share the best standing there is no leader, and the last leader is kept.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from paiqi_core.actions import BURST, COVER, JOKER, LEAVE, PASS, PLACE, SWAP, TRUMP
from paiqi_core.cards import CARD_POINTS


class Trace(NamedTuple):
    """Per seat: place in turn order from the first mover (0: moved first), times the seat
    took the lead, its largest deficit to the best standing, and per-seat event counts read
    from the log (cut, swap, leave)."""

    turn_order: list[int]
    leads: list[int]
    deficit: list[int]
    cuts: list[int]
    swaps: list[int]
    leaves: list[int]


def trace(log: Sequence[tuple[int, int]], dealt: Sequence[int], covers: bool) -> Trace:
    """The course of a game from its ``log`` ((seat, action) in order), the number of cards
    ``dealt`` by seat and whether standings count ``covers`` (covered points) rather than
    cards held."""
    return _Course(dealt, covers).run(log)


class _Course:
    """The running standings of one game, updated entry by entry of its log."""

    def __init__(self, dealt: Sequence[int], covers: bool) -> None:
        n = self.n = len(dealt)
        self.covers = covers
        self.held = list(dealt)
        self.pen = [0] * n
        self.standing = self.pen if covers else self.held
        self.out = [False] * n
        self.leads, self.deficit = [0] * n, [0] * n
        self.cuts, self.swaps, self.leaves = [0] * n, [0] * n, [0] * n
        self.leader = -1
        self.best = 0

    def run(self, log: Sequence[tuple[int, int]]) -> Trace:
        """Read the log through; the trace."""
        first = -1
        started = False
        covers = self.covers
        held, pen, deficit = self.held, self.pen, self.deficit
        for seat, action in log:
            if not started and (action <= PASS or action >= JOKER):  # the first move
                started = True
                self.rescan()
                first = seat
            if action < PASS or action >= JOKER:  # a play, a cover or a joker move
                if covers:
                    if action >= COVER and action < PASS:
                        was = pen[seat]
                        pen[seat] += CARD_POINTS[action - COVER]
                        if was == self.best:  # the best standing (or its holder) may change
                            self.rescan()
                        gap = pen[seat] - self.best
                        if gap > deficit[seat]:
                            deficit[seat] = gap
                    continue
                gap = held[seat] - self.best
                if gap > deficit[seat]:
                    deficit[seat] = gap
                held[seat] -= 2 if JOKER <= action < TRUMP else 1  # a joker and the card beyond
                if held[seat] < self.best:
                    self.best = held[seat]
                    if self.leader != seat:
                        self.leader = seat
                        self.leads[seat] += 1
            elif action == PASS:
                if not covers:
                    self.behind(seat)
            elif action < PLACE:  # a suit cut at an end of its line (斬龍)
                self.cuts[seat] += 1
            elif action < SWAP:  # a 7 put out before play
                held[seat] -= 1
            elif action < BURST:
                self.swaps[seat] += 1  # the holder's card for the joker: hand size unchanged
            elif action in (BURST, LEAVE):
                self.behind(seat)
                self.out[seat] = True
                if action == LEAVE:
                    self.leaves[seat] += 1
                self.rescan()
        if not started:  # every card went to the table before play
            self.rescan()
        for seat in range(self.n):  # deficits of players who have not moved since
            self.behind(seat)
        start = max(first, 0)
        order = [(s - start) % self.n for s in range(self.n)]
        return Trace(order, self.leads, deficit, self.cuts, self.swaps, self.leaves)

    def behind(self, seat: int) -> None:
        """Note how far ``seat`` trails the best standing now."""
        if not self.out[seat]:
            gap = self.standing[seat] - self.best
            if gap > self.deficit[seat]:
                self.deficit[seat] = gap

    def lead(self, seat: int) -> None:
        """``seat`` alone has the best standing: a new leader unless it already led."""
        if self.leader != seat:
            self.leader = seat
            self.leads[seat] += 1

    def rescan(self) -> None:
        """Find the best standing among players still in, and its one holder if one."""
        standing, out = self.standing, self.out
        best, holder, shared = None, -1, False
        for s in range(self.n):
            if out[s]:
                continue
            v = standing[s]
            if best is None or v < best:
                best, holder, shared = v, s, False
            elif v == best:
                shared = True
        if best is None:
            return
        self.best = best
        if not shared:
            self.lead(holder)
