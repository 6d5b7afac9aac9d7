"""Turn-flow hooks: who opens, what a stuck player does, when the game ends."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from paiqi_core.actions import COVER, PASS
from paiqi_core.cards import bits, parse_card
from paiqi_core.hooks.registry import register


@dataclass(frozen=True)
class Opening:
    first_seat: Callable[[Sequence[int]], int]  # hands (masks) -> seat that moves first
    first_card: int | None  # the card the first move must play, if fixed


@register(
    "opening",
    "holder_leads",
    params=("card",),
    summary="the holder of {card} moves first and must open with it",
)
def holder_leads(p: Mapping[str, Any]) -> Opening:
    card = parse_card(p["card"])
    bit = 1 << card

    def first_seat(hands: Sequence[int]) -> int:
        for seat, hand in enumerate(hands):
            if hand & bit:
                return seat
        return 0

    return Opening(first_seat, card)


@register("opening", "first_seat", summary="seat 0 (the dealer's left) moves first; any 7 may open")
def first_seat(p: Mapping[str, Any]) -> Opening:
    return Opening(lambda hands: 0, None)


@dataclass(frozen=True)
class Stuck:
    name: str
    actions: Callable[[int], list[int]]  # hand mask -> actions of a player with no play


@register("stuck", "cover", summary="a player with no legal play covers any card face down")
def cover(p: Mapping[str, Any]) -> Stuck:
    return Stuck("cover", lambda hand: [COVER + c for c in bits(hand)])


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
