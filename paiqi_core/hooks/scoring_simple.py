"""Scoring hooks for families that end at the first player out."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from paiqi_core.core.results import core_score
from paiqi_core.forms import form
from paiqi_core.hooks.registry import Params, pack_of, register
from paiqi_core.hooks.scoring_covering import zero_sum
from paiqi_core.limits import Limits
from paiqi_core.outcome import PlayerOutcome, Result
from paiqi_core.slots import Scoring, ScoringFacts, SeatSettlement


@register(
    "scoring",
    "first_out",
    params=("penalty",),
    summary="the first player out wins; nobody else is ranked (penalty points: {penalty})",
)
def first_out(p: Params) -> Scoring:
    """The first player out wins; nobody else is ranked. With penalty points, each
    player's total is minus a point for every card still held (summed over a match)."""
    if p.get("penalty", "none") == "none":
        compiled = form("first_out")
        score = core_score(compiled, pack_of(p))
        return Scoring(score, ScoringFacts(objective="win"), compiled, win_bounds, one_win)
    compiled = form("first_out", penalty="cards")
    score = core_score(compiled, pack_of(p))

    def bounds(limits: Limits) -> tuple[Fraction, Fraction]:
        """From a point for every card of the fullest hand to none."""
        return Fraction(-limits.hand), Fraction(0)

    def settle(
        outcomes: Sequence[PlayerOutcome], result: Result, rows_cut: bool
    ) -> list[SeatSettlement]:
        """A penalty point for each card still held."""
        out = []
        for o in outcomes:
            parts = [{"what": f"{o.hand_left} cards held", "points": -o.hand_left}]
            out.append(SeatSettlement(tuple(parts) if o.hand_left else (), -o.hand_left))
        return out

    facts = ScoringFacts(objective="points")
    return Scoring(score, facts, compiled, bounds, None, settle)


def win_bounds(limits: Limits) -> tuple[Fraction, Fraction]:
    """A seat gets a share of the win: from none of it to all of it."""
    return Fraction(0), Fraction(1)


def one_win(limits: Limits) -> Fraction:
    """The winners' shares of the win add up to one."""
    return Fraction(1)


@register(
    "scoring",
    "chips",
    params=("ante", "pass_cost", "card_cost"),
    summary=(
        "each player antes {ante}, each pass costs {pass_cost}; the first out takes the pot, "
        "and each other player pays them {card_cost} for every card still held"
    ),
)
def chips(p: Params) -> Scoring:
    """Antes and pass chips into a pot that the first player out takes, and a payment to
    the winner for each card the others still hold."""
    ante, pass_cost = int(p["ante"]), int(p["pass_cost"])
    card_cost = int(p.get("card_cost", 0))

    compiled = form("chips", ante=ante, pass_cost=pass_cost, card_cost=card_cost)
    score = core_score(compiled, pack_of(p))

    def bounds(limits: Limits) -> tuple[Fraction, Fraction]:
        """No seat pays more than its ante, its most passes and its fullest hand; the
        winner takes the others' chips."""
        passes = limits.passes_per_seat
        if passes is None:
            raise ValueError("passes are unbounded, so are the chips they cost")
        pays = Fraction(ante + passes * pass_cost + limits.hand * card_cost)
        return -pays, (limits.players - 1) * pays

    def settle(
        outcomes: Sequence[PlayerOutcome], result: Result, rows_cut: bool
    ) -> list[SeatSettlement]:
        """What each seat put in the pot: its ante and its passes' chips, and what it pays
        for the cards it still holds."""
        out = []
        for o in outcomes:
            cards = o.hand_left * card_cost
            words = [f"ante {ante}"]
            if o.passes:
                words.append(f"+ {o.passes} passes × {pass_cost}")
            if cards:
                words.append(f"+ {o.hand_left} cards held × {card_cost}")
            paid = Fraction(ante + o.passes * pass_cost + cards)
            out.append(SeatSettlement(pays=(paid, tuple(words))))
        return out

    return Scoring(score, ScoringFacts(objective="money"), compiled, bounds, zero_sum, settle)
