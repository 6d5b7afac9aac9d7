"""Cards as small integers and their text form.

A card is ``suit * 13 + rank`` with suits S H D C (0..3) and ranks A..K (0..12);
the joker is 52. A set of cards is an int bitmask. Text output uses ``S7``, ``H10``,
``DA``, ``JOKER``; input also accepts ``T`` for ten, suit symbols and Chinese suit names.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

SUITS = "SHDC"
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
JOKER = 52
SEVEN = 6  # rank index of the 7
SUIT_MASK = 0x1FFF  # 13 bits

_SUIT_ALIASES = {
    "S": 0, "♠": 0, "♤": 0, "黑桃": 0, "黑": 0,
    "H": 1, "♥": 1, "♡": 1, "紅心": 1, "红心": 1, "紅桃": 1, "红桃": 1,
    "D": 2, "♦": 2, "♢": 2, "方塊": 2, "方块": 2,
    "C": 3, "♣": 3, "♧": 3, "梅花": 3,
}  # fmt: skip
_RANK_ALIASES = {r: i for i, r in enumerate(RANKS)} | {"T": 9, "1": 0}


class CardError(ValueError):
    """Text that is not a card."""


def card(suit: int, rank: int) -> int:
    """The card number of ``suit`` (0..3, S H D C) and ``rank`` (0..12, A..K)."""
    return suit * 13 + rank


def suit_of(c: int) -> int:
    """The suit (0..3) of a card number."""
    return c // 13


def rank_of(c: int) -> int:
    """The rank index (0 = A .. 12 = K) of a card number."""
    return c % 13


def points(c: int) -> int:
    """Face points: A=1, 2..10, J=11, Q=12, K=13 (the joker counts 0)."""
    return 0 if c == JOKER else c % 13 + 1


CARD_POINTS = tuple(points(c) for c in range(JOKER + 1))  # points(c) by card number


def card_text(c: int) -> str:
    """The text of a card: ``S7``, ``H10``, ``DA``, ``JOKER``."""
    if c == JOKER:
        return "JOKER"
    if not 0 <= c < 52:
        raise CardError(f"{c} is not a card number")
    return SUITS[c // 13] + RANKS[c % 13]


def parse_card(text: str) -> int:
    """The card number of a text such as ``S7``, ``h10``, ``♠A``, ``黑桃K`` or ``JOKER``."""
    t = str(text).strip()
    known = _CANONICAL.get(t)  # the text paiqi writes: records are read card by card
    if known is not None:
        return known
    if t.upper() in ("JOKER", "JK", "鬼牌"):
        return JOKER
    for alias, s in _SUIT_ALIASES_LONGEST_FIRST:
        if t.upper().startswith(alias):
            r = _RANK_ALIASES.get(t[len(alias) :].strip().upper())
            if r is not None:
                return s * 13 + r
            break
    raise CardError(f"'{text}' is not a card (write e.g. S7, H10, DA, CK or JOKER)")


_SUIT_ALIASES_LONGEST_FIRST = sorted(_SUIT_ALIASES.items(), key=lambda kv: -len(kv[0]))
_CANONICAL = {card_text(c): c for c in range(JOKER + 1)}


def parse_cards(items: Iterable[str] | str) -> list[int]:
    """Parse cards and ranges like ``H5-H8`` (low to high, A=1 .. K=13)."""
    if isinstance(items, str):
        items = items.replace(",", " ").split()
    out: list[int] = []
    for item in items:
        text = str(item).strip()
        if "-" in text[1:] and text.upper() != "JOKER":
            lo_text, hi_text = text.split("-", 1)
            lo, hi = parse_card(lo_text), parse_card(hi_text)
            if lo == JOKER or hi == JOKER or lo // 13 != hi // 13 or lo > hi:
                raise CardError(f"'{text}' is not a range of one suit from low to high")
            out.extend(range(lo, hi + 1))
        else:
            out.append(parse_card(text))
    return out


def mask_of(cards: Iterable[int]) -> int:
    """The bitmask of a collection of card numbers."""
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def bits(mask: int) -> Iterator[int]:
    """Card numbers in a mask, ascending."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def cards_text(mask_or_cards: int | Iterable[int]) -> list[str]:
    """The texts of the cards of a mask or a list, in order."""
    cards = bits(mask_or_cards) if isinstance(mask_or_cards, int) else mask_or_cards
    return [card_text(c) for c in cards]


def full_deck(jokers: int = 0) -> list[int]:
    """The 52 cards in card order, then ``jokers`` jokers."""
    return list(range(52)) + [JOKER] * jokers
