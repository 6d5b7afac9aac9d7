"""The settlement of a finished game, broken down for a person to follow.

Per seat: the total and how it is made (bonuses, covered points, the meld exemption), the
rank, the label, the bust, the winner's multiplier and the money; then who pays whom and
why. The scoring spells its settlement out itself (``Scoring.settle``: the parts of each
total, a winner's multiplier, what a payer pays and why); each part is shown only where it
adds up to what the scorer gave, and a scoring that spells nothing out is shown by its
totals and money alone. Nothing here reads a hook's name or a scoring parameter. The rules
that settled the game are quoted as ``paiqi explain`` words them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from paiqi_core.cards import card_text
from paiqi_core.outcome import Money, PlayerOutcome, Result, money_json, money_text
from paiqi_core.profile.explain import rules_in_effect, shown
from paiqi_core.rules import Rules
from paiqi_core.slots import SeatSettlement


def settlement(rules: Rules, outcomes: Sequence[PlayerOutcome], result: Result) -> dict[str, Any]:
    """The settlement of a finished game, seat by seat, with every payment and its reason,
    and the scoring rules in effect as ``paiqi explain`` words them."""
    facts = rules.facts
    settle = getattr(rules.scoring, "settle", None)
    spelled: list[SeatSettlement] = (
        settle(outcomes, result, rules.topology.cut)
        if callable(settle)
        else [SeatSettlement()] * len(outcomes)
    )
    n = len(outcomes)
    exempt = list(result.exempt) if result.exempt is not None else [0] * n
    winners = result.winners
    seats: list[dict[str, Any]] = []
    multipliers: dict[int, tuple[int, str]] = {}
    for s, o in enumerate(outcomes):
        parts, made = list(spelled[s].parts), spelled[s].made
        total = None if result.total is None else result.total[s]
        if made is None or made != total:
            parts = []  # the parts do not make this scorer's total: show the total alone
        label = result.labels[s] if result.labels is not None else ""
        row: dict[str, Any] = {
            "seat": s,
            "rank": result.rank[s],
            "winner": s in winners,
            "label": label,
            "total": total,
            "parts": parts,
            "covered": [card_text(c) for c in o.covered],
            "covered_points": o.covered_points if facts.covered_points_count else None,
            "exempt": exempt[s] or 0,
            "money": money_json(result.money[s]),
            "passes": o.passes,
            # how the seat's game ended: out in this order, burst, left with the joker, or
            # still holding cards (counted: Fan Tan and chips settle by them)
            "out": None if o.finish is None else o.finish + 1,
            "burst_order": None if o.burst is None else o.burst + 1,
            "left_with_joker": o.left_with_joker,
            "cards_left": o.hand_left,
        }
        points = spelled[s].bust_points
        if facts.bust_above is not None and s not in winners and points is not None:
            row["bust"] = points > facts.bust_above
            row["bust_points"] = points
        if s in winners:
            multipliers[s] = spelled[s].multiplier
            row["multiplier"], row["multiplier_for"] = multipliers[s]
        seats.append(row)
    payments = _payments(spelled, result, multipliers)
    return {
        "objective": facts.objective,
        "winners": list(winners),
        "seats": seats,
        "payments": payments,
        "house": money_json(result.house) if result.house else 0,
        "rules": [
            {"rule": r["rule"], "value": shown(r["value"]), "means": r["means"]}
            for r in rules_in_effect(rules.profile)
            if r["rule"].startswith("scoring.")
        ],
    }


def _payments(
    spelled: Sequence[SeatSettlement],
    result: Result,
    multipliers: Mapping[int, tuple[int, str]],
) -> list[dict[str, Any]]:
    """Who pays whom, and why: each payer's amount goes to the winners, split equally and
    multiplied by each winner's own multiplier. Empty when the money does not settle that
    way (nothing is invented: the payments shown add up to the scorer's money)."""
    winners = result.winners
    money = [Fraction(m) for m in result.money]
    direct = []  # payments from seat to seat beside the pot: first taken out of the money
    for p, seat_settles in enumerate(spelled):
        for to, amount, why in seat_settles.gives:
            money[p] += amount
            money[to] -= amount
            direct.append({"from": p, "to": to, "amount": money_json(_exact(amount)), "why": why})
    if not winners or any(money[s] > 0 for s in range(len(money)) if s not in winners):
        return []
    weight = {w: multipliers.get(w, (1, ""))[0] for w in winners}
    total_weight = sum(weight.values())
    out = []
    paid = Fraction(0)
    for p in (s for s in range(len(money)) if s not in winners and money[s] < 0):
        base = spelled[p].pays
        for w in winners:
            amount = -money[p] * weight[w] / total_weight
            paid += amount
            why = ""
            if base is not None:
                value, words = base
                if value / len(winners) * weight[w] == amount:
                    extra = [f"÷ {len(winners)} winners"] if len(winners) > 1 else []
                    mult, because = multipliers.get(w, (1, ""))
                    if mult != 1:
                        extra.append(f"× {mult} (seat {w}'s {because})")
                    why = " ".join([*words, *extra]) + f" = {money_text(amount)}"
            out.append({"from": p, "to": w, "amount": money_json(_exact(amount)), "why": why})
    if paid != sum(money[w] for w in winners) + Fraction(result.house):
        return []
    return out + direct


def _exact(x: Fraction) -> Money:
    return x.numerator if x.denominator == 1 else x
