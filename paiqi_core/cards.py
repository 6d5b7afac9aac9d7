"""Cards as small integers and their text form.

A card is ``suit * 13 + rank`` with suits S H D C (0..3) and ranks A..K (0..12);
the jokers are 52 and up (``MAX_JOKERS`` of them; all alike, each text ``JOKER``). A set of
cards is an int bitmask. Text output uses ``S7``, ``H10``,
``DA``, ``JOKER``; input also accepts ``T`` for ten, suit symbols and Chinese suit names.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

SUITS = "SHDC"
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
JOKER = 52  # the first joker; a pack's jokers are JOKER, JOKER + 1, ...
MAX_JOKERS = 4
JOKERS = ((1 << MAX_JOKERS) - 1) << JOKER  # the jokers' bits
SUITED = (1 << JOKER) - 1  # the bits of the 52 suited cards
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


def is_joker(c: int) -> bool:
    """Whether the card number ``c`` is a joker."""
    return JOKER <= c < JOKER + MAX_JOKERS


def points(c: int) -> int:
    """Face points: A=1, 2..10, J=11, Q=12, K=13 (a joker counts 0)."""
    return 0 if c >= JOKER else c % 13 + 1


CARDS = JOKER + MAX_JOKERS  # card numbers: the 52, then the jokers
CARD_POINTS = tuple(points(c) for c in range(CARDS))  # points(c) by card number
EVERY_CARD = (1 << CARDS) - 1  # every card number's bit


def card_text(c: int) -> str:
    """The text of a card: ``S7``, ``H10``, ``DA``, ``JOKER``."""
    if is_joker(c):
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
_CANONICAL = {card_text(c): c for c in range(JOKER + 1)}  # JOKER: the first joker


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
    """The bitmask of a collection of card numbers. Jokers are alike: each joker listed
    takes the lowest joker bit not yet taken (``JOKER JOKER`` is both of two jokers)."""
    m = 0
    for c in cards:
        if is_joker(c):
            free = JOKERS & ~m
            if not free:
                raise CardError(f"more than {MAX_JOKERS} jokers")
            m |= free & -free
        else:
            m |= 1 << c
    return m


def alike_card(c: int) -> int:
    """A card's number, any joker as the first (``JOKER``): the jokers are alike."""
    return JOKER if is_joker(c) else c


def one_joker(mask: int) -> int:
    """``mask`` with its jokers as one: the first joker's bit if it holds any (where one
    entry stands for the alike jokers; how many is a count kept beside)."""
    return mask & ~JOKERS | (1 << JOKER) if mask & JOKERS else mask


def hand_masks(hands: Iterable[Iterable[int]]) -> list[int]:
    """The masks of hands given as card numbers, by seat: the alike jokers (any joker
    number stands for a joker) take the joker bits one after another in seat order, so that
    no two seats hold the same one."""
    masks, joker = [], JOKER
    for hand in hands:
        mask = 0
        for c in hand:
            if is_joker(c):
                if joker == JOKER + MAX_JOKERS:
                    raise CardError(f"more than {MAX_JOKERS} jokers")
                mask |= 1 << joker
                joker += 1
            else:
                mask |= 1 << c
        masks.append(mask)
    return masks


MAX_COPIES = 3  # of a card, with several decks


def planes(cards: Iterable[int]) -> tuple[int, int, int]:
    """The cards of a hand (or of the table) with several decks, given as card numbers with
    their repeats, as three masks: the cards held once or more, twice or more, and three
    times."""
    once = twice = thrice = 0
    for c in cards:
        bit = 1 << c
        if thrice & bit:
            raise CardError(f"more than {MAX_COPIES} copies of {card_text(c)}")
        if twice & bit:
            thrice |= bit
        elif once & bit:
            twice |= bit
        else:
            once |= bit
    return once, twice, thrice


def with_copies(once: int, twice: int = 0, thrice: int = 0) -> list[int]:
    """The card numbers of a hand given as its planes (``planes``), each as many times as
    it is held, ascending."""
    return sorted([*bits(once), *bits(twice), *bits(thrice)])


def alike(mask: int) -> int:
    """``mask`` with its jokers as the first jokers: which of the alike jokers a hand holds
    is no one's knowledge, only how many (what a seat is shown)."""
    jokers = mask & JOKERS
    if jokers & (jokers + (1 << JOKER)):  # not already the lowest ones
        return mask & SUITED | ((1 << jokers.bit_count()) - 1) << JOKER
    return mask


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
    return list(range(52)) + list(range(JOKER, JOKER + jokers))
