"""Turn-flow hooks: who opens, what a stuck player does, when the game ends."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from paiqi_core.actions import COVER, PASS
from paiqi_core.cards import SEVEN, bits, parse_card
from paiqi_core.hooks.registry import register

Start = Callable[[Sequence[int], int | None], tuple[int, int | None]]


@dataclass(frozen=True)
class Opening:
    """``start(hands, door_card)`` gives the seat that moves first and the card its first
    move must play (None: any legal card)."""

    start: Start
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
    return Opening(lambda hands, door: (holder(hands, card), card))


@register("opening", "first_seat", summary="seat 0 (the dealer's left) moves first; any 7 may open")
def first_seat(p: Mapping[str, Any]) -> Opening:
    return Opening(lambda hands, door: (0, None))


@register(
    "opening",
    "door_card",
    summary="a door card (門牌) is cut before play; the holder of the 7 of its suit moves first "
    "and must open with it",
)
def door_card(p: Mapping[str, Any]) -> Opening:
    def start(hands: Sequence[int], door: int | None) -> tuple[int, int | None]:
        if door is None or door >= 52:
            raise ValueError("this opening needs a door card (a suited card)")
        seven = 13 * (door // 13) + SEVEN
        return holder(hands, seven), seven

    return Opening(start, uses_door_card=True)


@dataclass(frozen=True)
class Stuck:
    name: str
    actions: Callable[[int], list[int]]  # hand mask -> actions of a player with no play
    coverable: int = 0  # cards that may be covered (for ``cover``)


SEVENS = sum(1 << (13 * suit + SEVEN) for suit in range(4))
EVERY_CARD = (1 << 53) - 1


@register(
    "stuck",
    "cover",
    params=("cover_sevens",),
    summary="a player with no legal play covers a card face down",
)
def cover(p: Mapping[str, Any]) -> Stuck:
    coverable = EVERY_CARD if p.get("cover_sevens", True) else EVERY_CARD & ~SEVENS

    def actions(hand: int) -> list[int]:
        # A hand of only uncoverable cards cannot happen (a held 7 is always playable);
        # should a house rule make it happen, any card may be covered.
        return [COVER + c for c in bits(hand & coverable or hand)]

    return Stuck("cover", actions, coverable)


@register("stuck", "pass", summary="a player with no legal play passes")
def pass_(p: Mapping[str, Any]) -> Stuck:
    only_pass = [PASS]
    return Stuck("pass", lambda hand: list(only_pass))


@dataclass(frozen=True)
class Ending:
    at_first_out: bool  # the game ends when a player empties their hand


@register(
    "ending",
    "all_empty",
    summary="players leave as their hands empty; the game ends when every hand is empty",
)
def all_empty(p: Mapping[str, Any]) -> Ending:
    return Ending(at_first_out=False)


@register("ending", "first_out", summary="the game ends when a player lays their last card")
def first_out(p: Mapping[str, Any]) -> Ending:
    return Ending(at_first_out=True)
