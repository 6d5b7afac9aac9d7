"""What one seat may see of a game: its own hand, the table, and public facts only.

An ``Observation`` is a snapshot taken in constant time: card sets are kept as masks (with
tuple views for reading), and the move history is a view of the state's public log, which
the state extends move by move, instead of a copy rebuilt on every turn. In the public log
a cover is ``HIDDEN_COVER`` whoever made it; a seat's own covered cards are in
``own_covered``.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import islice
from typing import Any, NamedTuple, overload

from paiqi_core.actions import DRAW, HIDDEN_COVER, HIDDEN_GIVE, action_text
from paiqi_core.cards import bits, with_copies
from paiqi_core.core.plain import kernel


class History(Sequence[tuple[int, int]]):
    """The first ``n`` entries of a public log: (seat, action) with covers hidden."""

    __slots__ = ("_log", "_n")

    def __init__(self, log: list[tuple[int, int]], n: int) -> None:
        self._log = log  # append-only: the first n entries never change
        self._n = n

    def __len__(self) -> int:
        return self._n

    @overload
    def __getitem__(self, i: int) -> tuple[int, int]: ...
    @overload
    def __getitem__(self, i: slice) -> tuple[tuple[int, int], ...]: ...
    def __getitem__(self, i: int | slice) -> Any:
        if isinstance(i, slice):
            return tuple(self._log[: self._n][i])
        if i < 0:
            i += self._n
        if not 0 <= i < self._n:
            raise IndexError("history index out of range")
        return self._log[i]

    def __iter__(self) -> Iterator[tuple[int, int]]:
        return islice(self._log, self._n)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, History):
            return self._n == other._n and (self._log is other._log or list(self) == list(other))
        if isinstance(other, Sequence):
            return tuple(self) == tuple(other)
        return NotImplemented

    def __hash__(self) -> int:
        return hash(tuple(self))

    def texts(self) -> tuple[tuple[int, str], ...]:
        """The history as (seat, text) pairs, e.g. ``(1, "cover")``, ``(2, "H8")``."""
        return tuple((seat, action_text(a)) for seat, a in self)

    def __repr__(self) -> str:
        return f"History({list(self.texts())!r})"


def home(obs: Observation, card: int) -> int:
    """The place ``card`` goes to on the table ``obs`` shows: its own, or where a trump took
    it (``obs.trumped``), the trump row's place of its rank."""
    if obs.door_card is None:
        return card
    return int(kernel.trump_place(card, obs.trumped, obs.door_card))


class Remembered(NamedTuple):
    """An entry of the history as one seat remembers it (``Observation.remembered``)."""

    seat: int
    action: int  # as every seat sees it (``actions.public_action``)
    card: int | None  # the card behind a hidden cover, give or draw, where this seat knows it
    to: int | None  # for a card handed on, the seat that took it (which passed just before)


class Observation(NamedTuple):
    """What one seat may see: its own hand, the table, and public counts only."""

    seat: int
    hand_mask: int
    table_mask: int
    turn: int
    hand_counts: tuple[int, ...]
    covered_counts: tuple[int, ...]
    pass_counts: tuple[int, ...]
    covered_mask: int  # this seat's own covered cards
    opened: tuple[int, ...]  # suits in the order their 7 was played
    finished: tuple[int, ...]  # seats in the order they emptied their hands
    bursts: tuple[int, ...]  # seats in the order they burst (their hands lie on the table)
    laid: tuple[int, ...]  # by burst, the hand laid face up (a mask; a joker in it is removed)
    left: tuple[int, ...]  # seats that left holding only the joker
    jokers_at: int  # the places jokers hold on the table, a card mask (0: none)
    history: History  # (seat, action) of every move and event; covers hidden
    legal: tuple[int, ...]  # legal actions if it is this seat's turn, else empty
    terminal: bool
    door_card: int | None = None  # the card cut before play, shown to everybody, if any
    cover_order: tuple[int, ...] = ()  # this seat's covered cards in the order it covered them
    # the seat to move plays again after a card that ended its line (turn.extra_after_end)
    extra_play: bool = False
    dealt_counts: tuple[int, ...] = ()  # cards dealt, by seat (public)
    pool_mask: int = 0  # the cards dealt to no seat, face up: anyone may play them
    leftover_mask: int = 0  # the cards of ``pool_mask`` as dealt (a play of one is from it)
    # the cards this seat handed to the player who passed, or took from the one before it,
    # in order (``turn.pass_takes``); the history shows each as ``HIDDEN_GIVE``
    handed: tuple[int, ...] = ()
    hand_on: bool = False  # the seat to move hands a card to the player who passed
    stock: int = 0  # the cards left in the stock, face down (deck.leftover: stock)
    # the cards this seat drew from the stock, in order (``turn.draw``); the history shows
    # each draw as ``DRAW``
    drawn: tuple[int, ...] = ()
    drew: bool = False  # the seat to move has just drawn a card it may play
    # with several decks (deck.decks): the cards this seat holds twice and three times, and
    # those on the table twice and three times, masks (``hand_mask`` and ``table_mask`` hold
    # each card once)
    hand_copies: tuple[int, int] = (0, 0)
    table_copies: tuple[int, int] = (0, 0)
    # the places of other suits where a trump lies (layout.trumps): ``table_mask`` holds
    # places, and such a place holds the trump of its rank (``door_card`` names trumps), its
    # own card then going to the trump row's place of its rank
    trumped: int = 0
    # the seat to move lays on the block of cards of its turn (turn.lay blocks): another
    # card of the block, or a pass that stops the turn (no pass is counted)
    laying: bool = False

    def remembered(self) -> list[Remembered]:
        """The history as this seat remembers it: each entry with the card this seat knows
        behind it (its own covers, the cards it handed on or took, its own draws) and, for a
        card handed on, the seat that took it: the seat of the entry just before."""
        own, handed, drawn = iter(self.cover_order), iter(self.handed), iter(self.drawn)
        me = self.seat
        out = []
        before = -1
        for seat, action in self.history:
            card = to = None
            if action == HIDDEN_COVER and seat == me:
                card = next(own, None)
            elif action == HIDDEN_GIVE:
                to = before
                if me in (seat, to):
                    card = next(handed, None)
            elif action == DRAW and seat == me:
                card = next(drawn, None)
            out.append(Remembered(seat, action, card, to))
            before = seat
        return out

    @property
    def pool(self) -> tuple[int, ...]:
        """The cards dealt to no seat that lie face up, ascending (``deck.leftover``)."""
        return tuple(bits(self.pool_mask))

    @property
    def hand(self) -> tuple[int, ...]:
        """This seat's cards, ascending (a card held twice, twice)."""
        if self.hand_copies == (0, 0):
            return tuple(bits(self.hand_mask))
        return tuple(with_copies(self.hand_mask, *self.hand_copies))

    @property
    def table(self) -> tuple[int, ...]:
        """The cards on the table, ascending (a card down twice, twice)."""
        if self.table_copies == (0, 0):
            return tuple(bits(self.table_mask))
        return tuple(with_copies(self.table_mask, *self.table_copies))

    @property
    def own_covered(self) -> tuple[int, ...]:
        """The cards this seat covered, ascending."""
        return tuple(bits(self.covered_mask))
