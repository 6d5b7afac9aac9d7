"""The cards in play: the ranks of the pack, the centre rank every row starts from, and
the jokers.

The whole pack is 52 cards with 7 at the centre. Short packs keep a range of ranks along
the rows' line: 36 cards are 6..A and 32 cards 7..A with the ace high (Девятка, Karten-
Domino); a centre other than 7 starts every row from that rank (the 9 of Девятка, the 8 or
the 10 of Karten-Domino). A card is still ``suit * 13 + rank`` (``paiqi_core.cards``): a
short pack is a subset of the 52, so card numbers, masks and actions mean the same
everywhere.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from paiqi_core.cards import JOKER, RANKS, SEVEN, SUIT_MASK

ALL_RANKS = SUIT_MASK  # the 13 ranks, a mask of rank indices


def line_of(ace: str) -> tuple[int, ...]:
    """Rank indices along a row's line, lowest first: A..K with the ace ``low``, 2..K,A
    with it ``high``."""
    return tuple(range(13)) if ace == "low" else (*range(1, 13), 0)


def rank_index(text: str) -> int:
    """The rank index (A=0 .. K=12) of a rank's text: ``A``, ``2``..``10``, ``J``, ``Q``,
    ``K``."""
    try:
        return RANKS.index(text)
    except ValueError:
        raise ValueError(f"{text!r} is not a rank (A, 2..10, J, Q, K)") from None


def rank_range(text: str, ace: str) -> int:
    """The ranks of ``text``, ``LOW-HIGH`` along the line the ace gives (``6-A`` with the
    ace high: 6..K and the ace), as a mask of rank indices."""
    low, sep, high = text.partition("-")
    if not sep:
        raise ValueError(f"{text!r} is not a range of ranks such as 6-A")
    line = line_of(ace)
    a, b = line.index(rank_index(low)), line.index(rank_index(high))
    if a >= b:
        where = "2..K, A" if ace == "high" else "A, 2..K"
        raise ValueError(
            f"{text} does not run up the rows' line, which runs {where} with the ace {ace}"
        )
    return sum(1 << r for r in line[a : b + 1])


@dataclass(frozen=True)
class Pack:
    """The cards of a game: ``ranks`` (a mask of rank indices, every suit alike), the
    ``centre`` rank that starts a row, ``jokers``, and the ``decks`` shuffled together
    (each suited card that many times)."""

    ranks: int = ALL_RANKS
    centre: int = SEVEN
    jokers: int = 0
    decks: int = 1

    @cached_property
    def suited(self) -> int:
        """The suited cards of the pack, a card mask."""
        return sum(self.ranks << (13 * suit) for suit in range(4))

    @cached_property
    def cards(self) -> tuple[int, ...]:
        """The cards in card order (each deck's in turn), then the jokers: what is shuffled
        and dealt."""
        jokers = tuple(range(JOKER, JOKER + self.jokers))  # all alike, each its own bit
        one = tuple(c for c in range(52) if self.suited >> c & 1)
        return one * self.decks + jokers

    @cached_property
    def centre_cards(self) -> tuple[int, ...]:
        """The centre card of each suit, in suit order."""
        return tuple(13 * suit + self.centre for suit in range(4))

    @cached_property
    def centres(self) -> int:
        """The centre cards, a card mask."""
        return sum(1 << c for c in self.centre_cards)

    @property
    def whole(self) -> bool:
        """Whether every rank is in the pack."""
        return self.ranks == ALL_RANKS

    @property
    def size(self) -> int:
        """How many cards are dealt (the jokers included)."""
        return len(self.cards)

    @property
    def centre_text(self) -> str:
        """The centre rank's text: ``7``."""
        return RANKS[self.centre]


STANDARD = Pack()
