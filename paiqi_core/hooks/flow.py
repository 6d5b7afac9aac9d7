"""Turn-flow hooks: who opens, what a stuck player does, when the game ends."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from paiqi_core.actions import COVER, PASS
from paiqi_core.cards import SEVEN, bits, parse_card
from paiqi_core.hooks.registry import register


class Start(NamedTuple):
    seat: int  # the seat that moves first
    first_card: int | None = None  # the card the first move must play, if any
    placed: tuple[tuple[int, int], ...] = ()  # (seat, card) put on the table before play


@dataclass(frozen=True)
class Opening:
    """``start(hands, door_card)`` says who moves first, what they must play and which
    cards go to the table before play."""

    start: Callable[[Sequence[int], int | None], Start]
    uses_door_card: bool = False  # a card is cut at random before play


def holder(hands: Sequence[int], card: int) -> int:
    bit = 1 << card
    return next((seat for seat, hand in enumerate(hands) if hand & bit), 0)


@register(
    "opening",
    "holder_leads",
    params=("card",),
    summary="the holder of {card} moves first and must open with it",
)
def holder_leads(p: Mapping[str, Any]) -> Opening:
    card = parse_card(p["card"])
    return Opening(lambda hands, door: Start(holder(hands, card), card))


@register("opening", "first_seat", summary="seat 0 (the dealer's left) moves first; any 7 may open")
def first_seat(p: Mapping[str, Any]) -> Opening:
    return Opening(lambda hands, door: Start(0))


@register(
    "opening",
    "door_card",
    summary="a door card (門牌) is cut before play; the holder of the 7 of its suit moves first "
    "and must open with it",
)
def door_card(p: Mapping[str, Any]) -> Opening:
    def start(hands: Sequence[int], door: int | None) -> Start:
        if door is None or door >= 52:
            raise ValueError("this opening needs a door card (a suited card)")
        seven = 13 * (door // 13) + SEVEN
        return Start(holder(hands, seven), seven)

    return Opening(start, uses_door_card=True)


SEVEN_CARDS = tuple(13 * suit + SEVEN for suit in range(4))


@register(
    "opening",
    "sevens_out",
    params=("card",),
    summary="every 7 goes to the table right after the deal; the player who held {card} "
    "moves first",
)
def sevens_out(p: Mapping[str, Any]) -> Opening:
    card = parse_card(p["card"])

    def start(hands: Sequence[int], door: int | None) -> Start:
        placed = tuple((holder(hands, c), c) for c in SEVEN_CARDS if any(h >> c & 1 for h in hands))
        return Start(holder(hands, card), None, placed)

    return Opening(start)


@dataclass(frozen=True)
class Stuck:
    """What a player may do instead of playing.

    ``actions(hand, passes_used)``: the actions of a player with no legal play; an empty list
    means the player bursts (is out, the hand laid on the table). ``voluntary(hand,
    passes_used)``: what may be chosen instead of a play when playing is not compulsory.
    """

    name: str
    actions: Callable[[int, int], list[int]]
    voluntary: Callable[[int, int], list[int]]
    coverable: int = 0  # cards that may be covered (for ``cover``)
    limit: int | None = None  # passes a player may make in a game (for ``pass``)
    may_burst: bool = False  # whether ``actions`` can come back empty


SEVENS = sum(1 << c for c in SEVEN_CARDS)
EVERY_CARD = (1 << 53) - 1


def _covers(coverable: int) -> Callable[[int, int], list[int]]:
    def actions(hand: int, passes_used: int = 0) -> list[int]:
        # A hand of only uncoverable cards cannot happen (a held 7 is always playable);
        # should a house rule make it happen, any card may be covered.
        return [COVER + c for c in bits(hand & coverable or hand)]

    return actions


@register(
    "stuck",
    "cover",
    params=("cover_sevens",),
    summary="a player with no legal play covers a card face down",
)
def cover(p: Mapping[str, Any]) -> Stuck:
    coverable = EVERY_CARD if p.get("cover_sevens", True) else EVERY_CARD & ~SEVENS
    covers = _covers(coverable)
    return Stuck("cover", covers, covers, coverable)


@register(
    "stuck",
    "pass",
    params=("pass_limit", "out_of_passes"),
    summary="a player with no legal play passes",
)
def pass_(p: Mapping[str, Any]) -> Stuck:
    limit = p.get("pass_limit")
    covers = _covers(EVERY_CARD) if p.get("out_of_passes") == "cover" else None

    def voluntary(hand: int, passes_used: int) -> list[int]:
        return [PASS] if limit is None or passes_used < limit else []

    def actions(hand: int, passes_used: int) -> list[int]:
        if limit is None or passes_used < limit:
            return [PASS]
        return covers(hand, 0) if covers else []  # []: the player bursts

    return Stuck(
        "pass", actions, voluntary, limit=limit, may_burst=limit is not None and not covers
    )


@dataclass(frozen=True)
class Ending:
    mode: str  # "all_empty", "first_out" or "one_left"

    @property
    def at_first_out(self) -> bool:
        return self.mode == "first_out"


@register(
    "ending",
    "all_empty",
    summary="players leave as their hands empty; the game ends when every hand is empty",
)
def all_empty(p: Mapping[str, Any]) -> Ending:
    return Ending("all_empty")


@register("ending", "first_out", summary="the game ends when a player lays their last card")
def first_out(p: Mapping[str, Any]) -> Ending:
    return Ending("first_out")


@register(
    "ending",
    "one_left",
    summary="players leave as they finish, burst or keep only the joker; the game ends when "
    "one player still holds cards",
)
def one_left(p: Mapping[str, Any]) -> Ending:
    return Ending("one_left")
