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
    params=(
        "ante",
        "pass_cost",
        "card_cost",
        "extra_ante",
        "extra_ante_from",
        "able_pass_cost",
        "held_seven_pay",
    ),
    summary=(
        "each player antes {ante}, each pass costs {pass_cost}; the first out takes the pot, "
        "and each other player pays them {card_cost} for every card still held"
    ),
)
def chips(p: Params) -> Scoring:
    """Antes and pass chips into a pot that the first player out takes, and a payment to
    the winner for each card the others still hold; Hoyle's penalties besides: an extra
    ante by hand size, a price for a pass made when able and a payment from a player who
    held a 7 back to the holders of its 6 and 8."""
    ante, pass_cost = int(p["ante"]), int(p["pass_cost"])
    card_cost = int(p.get("card_cost", 0))
    extra_ante = int(p.get("extra_ante", 0))
    extra_from = str(p.get("extra_ante_from", "short"))
    able_cost = int(p.get("able_pass_cost", 0))
    held_pay = int(p.get("held_seven_pay", 0))
    hoyle: dict[str, int | str] = {}
    if extra_ante:
        hoyle.update(extra_ante=extra_ante, extra_ante_from=extra_from)
    if able_cost:
        hoyle["able_pass_cost"] = able_cost
    if held_pay:
        hoyle["held_seven_pay"] = held_pay

    compiled = form("chips", ante=ante, pass_cost=pass_cost, card_cost=card_cost, **hoyle)
    score = core_score(compiled, pack_of(p))

    def bounds(limits: Limits) -> tuple[Fraction, Fraction]:
        """No seat pays more than its ante, its most passes (each when able, holding every
        7 it can hold back: two neighbours each) and its fullest hand; the winner takes the
        others' chips, and a seat may be paid for every pass of the others."""
        passes = limits.passes_per_seat
        if passes is None:
            raise ValueError("passes are unbounded, so are the chips they cost")
        blocked = 8 * held_pay  # a pass holding back every 7: their 6s and 8s
        uneven = limits.cards % limits.players != 0  # (then some hands are a card short)
        antes = ante + (extra_ante if uneven else 0)
        pays = antes + passes * (pass_cost + able_cost) + limits.hand * card_cost
        others = limits.players - 1
        return Fraction(-pays - passes * blocked), Fraction(others * (pays + passes * blocked))

    def settle(
        outcomes: Sequence[PlayerOutcome], result: Result, rows_cut: bool
    ) -> list[SeatSettlement]:
        """What each seat put in the pot: its ante (with the extra ante of its hand's size)
        and its passes' chips (more for those made when able), and what it pays for the
        cards it still holds; the chips a 7 held back pays the holders of its 6 and 8 go
        from player to player and are not among them."""
        sizes = [o.hand_size for o in outcomes]
        out = []
        for s, o in enumerate(outcomes):
            extra = o.hand_size > min(sizes) if extra_from == "long" else o.hand_size < max(sizes)
            antes = ante + (extra_ante if extra else 0)
            cards = o.hand_left * card_cost
            words = [f"ante {antes}"]
            if o.passes and pass_cost:
                words.append(f"+ {o.passes} passes × {pass_cost}")
            able = o.able_passes * able_cost
            if able:
                words.append(f"+ {o.able_passes} passes when able × {able_cost}")
            if cards:
                words.append(f"+ {o.hand_left} cards held × {card_cost}")
            paid = Fraction(antes + o.passes * pass_cost + able + cards)
            out.append(SeatSettlement(pays=(paid, tuple(words)), gives=held_back(outcomes, s)))
        return out

    def held_back(
        outcomes: Sequence[PlayerOutcome], s: int
    ) -> tuple[tuple[int, Fraction, str], ...]:
        """What seat ``s`` gives the holders of the 6s and 8s of the 7s it held back."""
        gives = []
        o = outcomes[s]
        for suit, times in enumerate(o.held_back if held_pay else ()):
            seven = 13 * suit + o.centre
            for card in (seven - 1, seven + 1):
                for t, other in enumerate(outcomes):
                    if t != s and card in other.neighbours and times:
                        held = f"{times} passes holding {card_text(seven)}"
                        why = f"{held} × {held_pay} ({card_text(card)})"
                        gives.append((t, Fraction(times * held_pay), why))
        return tuple(gives)

    return Scoring(score, ScoringFacts(objective="money"), compiled, bounds, zero_sum, settle)
