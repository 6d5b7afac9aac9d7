"""Scoring hooks for families that end at the first player out."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from paiqi_core.cards import card_text
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
    params=("penalty", "losers"),
    summary="the first player out wins (penalty points: {penalty}; the others: {losers})",
)
def first_out(p: Params) -> Scoring:
    """The first player out wins; nobody else is ranked. With penalty points, each
    player's total is minus what the cards still held count (summed over a match): a point
    a card (``cards``), their pip values (``pips``) or their ranks' values (``ranks``); with
    ``losers: by_penalty`` they place the players still holding cards, fewest first."""
    penalty = p.get("penalty", "none")
    if penalty == "none":
        compiled = form("first_out")
        score = core_score(compiled, pack_of(p))
        return Scoring(score, ScoringFacts(objective="win"), compiled, win_bounds, one_win)
    losers = p.get("losers", "unranked")
    compiled = form(
        "first_out", penalty=penalty, **({"losers": losers} if losers != "unranked" else {})
    )
    score = core_score(compiled, pack_of(p))
    most = PENALTY_MOST[penalty]

    def bounds(limits: Limits) -> tuple[Fraction, Fraction]:
        """From the most a card counts for every card of the fullest hand, to none."""
        return Fraction(-most * limits.hand), Fraction(0)

    def settle(
        outcomes: Sequence[PlayerOutcome], result: Result, rows_cut: bool
    ) -> list[SeatSettlement]:
        """The penalty points of the cards each seat still holds."""
        out = []
        for o, total in zip(outcomes, result.total or (), strict=True):
            what = f"{o.hand_left} cards held"
            if penalty != "cards" and o.held:
                what += ": " + " ".join(card_text(c) for c in o.held)
            parts = ({"what": what, "points": total},) if o.hand_left else ()
            out.append(SeatSettlement(parts, total))
        return out

    facts = ScoringFacts(objective="points")
    return Scoring(score, facts, compiled, bounds, None, settle)


# the most one card still held counts, by scoring.penalty (a joker counts that much)
PENALTY_MOST = {"cards": 1, "pips": 10, "ranks": 13}


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
