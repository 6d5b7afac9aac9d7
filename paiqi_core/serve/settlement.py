"""The settlement of a finished game, broken down for a person to follow.

Per seat: the total and how it is made (bonuses, covered points, the meld exemption), the
rank, the label, the bust, the winner's multiplier and the money; then who pays whom and
why. The scorer itself only gives totals, ranks, labels and money, so the parts are worked
out here from the public facts and the scoring rules, and each is shown only where it adds
up to what the scorer gave (a plugin scorer that settles differently is shown by its
totals and money alone). The rules that settled the game are quoted as ``paiqi explain``
words them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from paiqi_core.cards import card_text
from paiqi_core.hooks import registry
from paiqi_core.outcome import Money, PlayerOutcome, Result, money_json
from paiqi_core.profile.explain import rules_in_effect, shown
from paiqi_core.rules import Rules


def _fmt(x: Money | Fraction) -> str:
    """Money as text: 12, -3/2."""
    f = Fraction(x)
    return str(f.numerator) if f.denominator == 1 else f"{f.numerator}/{f.denominator}"


def _winner_multiplier(sec: Mapping[str, Any], o: PlayerOutcome) -> tuple[int, str]:
    """The multiplier a winner collects with, and why (from ``winner_multiplier``)."""
    wm = sec.get("winner_multiplier")
    if not isinstance(wm, Mapping):
        return 1, ""
    platform = "closure_bonus" in sec
    if o.all_covered:
        return int(wm["all_covered"]), "十三蓋" if platform else "全蓋"
    if o.last_seven:
        return int(wm["last_seven"]), "尾張七" if platform else "尾張7"
    if o.clean:
        return int(wm["clean"]), "脫手" if platform else "全脫手"
    return 1, ""


def _parts(
    sec: Mapping[str, Any], o: PlayerOutcome, exempt: int, cut: bool
) -> tuple[list[dict[str, Any]], int | None]:
    """The bonuses and deductions that make a covering or platform total, and their sum
    (None when the scoring is neither)."""
    parts: list[dict[str, Any]] = []
    points = o.covered_points
    if "completion_bonus" in sec and "stake" in sec:  # 鬥雀 covering
        if o.all_covered:
            return [
                {"what": "全蓋: every card covered, covered points not counted", "points": 0}
            ], 0
        if o.completions:
            bonus = int(sec["completion_bonus"])
            n = len(o.completions)
            parts.append({"what": f"接龍 × {n}", "points": bonus * n, "rule": "completion_bonus"})
        if o.last_seven:
            parts.append(
                {
                    "what": "尾張7",
                    "points": int(sec["last_seven_bonus"]),
                    "rule": "last_seven_bonus",
                }
            )
        if o.clean:
            parts.append(
                {"what": "全脫手", "points": int(sec["clean_bonus"]), "rule": "clean_bonus"}
            )
    elif "closure_bonus" in sec and "settlement" in sec:  # platform
        if o.all_covered:
            total = int(sec["all_covered_total"])
            parts.append({"what": "十三蓋", "points": total, "rule": "all_covered_total"})
            return parts, total
        closure = list(sec["closure_bonus"])
        word = "斬龍" if cut else "接龍"
        for k in o.completions:
            parts.append(
                {
                    "what": f"{word} of the suit opened {_ordinal(k)}",
                    "points": int(closure[k - 1]),
                    "rule": "closure_bonus",
                }
            )
        if o.last_seven:
            parts.append(
                {
                    "what": "尾張七",
                    "points": int(sec["last_seven_bonus"]),
                    "rule": "last_seven_bonus",
                }
            )
        elif o.clean:
            parts.append({"what": "脫手", "points": int(sec["clean_bonus"]), "rule": "clean_bonus"})
    else:
        return [], None
    if points:
        covered = [card_text(c) for c in o.covered]
        parts.append({"what": "covered", "cards": covered, "points": -points})
    if exempt:
        parts.append({"what": "melds not counted", "points": exempt, "rule": "melds"})
    return parts, sum(int(p["points"]) for p in parts)


def _points(n: int) -> str:
    """``1 point``, ``17 points``."""
    return f"{n} point" if n in (1, -1) else f"{n} points"


def _ordinal(k: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(k, f"{k}th")


def _base(
    sec: Mapping[str, Any],
    seat: int,
    result: Result,
    o: PlayerOutcome,
) -> tuple[Fraction, list[str]] | None:
    """What a payer pays before the split among winners and their multipliers, and the
    factors in words (None for a scoring this page cannot spell out)."""
    totals, winners = result.total, result.winners
    label = result.labels[seat] if result.labels is not None else ""
    if totals is None:
        if "ante" in sec and "pass_cost" in sec:  # chips
            ante, cost = int(sec["ante"]), int(sec["pass_cost"])
            words = [f"ante {ante}"]
            if o.passes:
                words.append(f"+ {o.passes} passes × {cost}")
            return Fraction(ante + o.passes * cost), words
        return None
    t = totals[seat]
    if "completion_bonus" in sec and "stake" in sec:  # 鬥雀 covering
        heads = {"大頭": int(sec["big_head"]), "中頭": int(sec["middle_head"])}
        words = [_points(-t)]
        amount = Fraction(-t)
        if label in heads:
            amount *= heads[label]
            words.append(f"× {heads[label]} ({label})")
    elif "settlement" in sec:  # platform
        if sec["settlement"] == "heads":
            by_label = {"小頭": "small", "中頭": "middle", "大頭": "big"}
            if label not in by_label:
                return None
            amount = Fraction(int(sec["head_amounts"][by_label[label]]))
            words = [f"{_fmt(amount)} ({label})"]
        else:
            best = totals[winners[0]]
            amount = Fraction((best - t) * int(sec["rate"]))
            words = [f"({best} - {t}) × rate {sec['rate']}"]
    else:
        return None
    exempt = result.exempt[seat] if result.exempt is not None else 0
    points = _bust_points(sec, o, exempt)
    if points > int(sec["bust_above"]):
        amount *= int(sec["bust_multiplier"])
        words.append(
            f"× {sec['bust_multiplier']} (爆點: {points} covered "
            f"point{'s' if points != 1 else ''} > {sec['bust_above']})"
        )
    if "stake" in sec:
        stake = Fraction(str(sec["stake"]))
        amount *= stake
        words.append(f"× stake {_fmt(stake)}")
    return amount, words


def _bust_points(sec: Mapping[str, Any], o: PlayerOutcome, exempt: int) -> int:
    """The covered points the bust looks at."""
    if o.all_covered and "all_covered_busts" in sec:
        return o.covered_points if sec["all_covered_busts"] else 0
    return o.covered_points - exempt


def _read_params(rules: Rules) -> dict[str, Any]:
    """The scoring rules that the chosen scorer reads (the section also holds the defaults
    of every other scorer's rules)."""
    section = rules.profile.section("scoring")
    hook = registry.lookup("scoring", str(section["method"]))
    return {k: v for k, v in section.items() if k in hook.params or k == "method"}


def settlement(rules: Rules, outcomes: Sequence[PlayerOutcome], result: Result) -> dict[str, Any]:
    """The settlement of a finished game, seat by seat, with every payment and its reason,
    and the scoring rules in effect as ``paiqi explain`` words them."""
    sec = _read_params(rules)
    facts = rules.facts
    n = len(outcomes)
    exempt = list(result.exempt) if result.exempt is not None else [0] * n
    winners = result.winners
    seats: list[dict[str, Any]] = []
    multipliers: dict[int, tuple[int, str]] = {}
    for s, o in enumerate(outcomes):
        parts, made = _parts(sec, o, exempt[s], rules.topology.cut)
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
        if facts.bust_above is not None and s not in winners:
            points = _bust_points(sec, o, exempt[s])
            row["bust"] = points > facts.bust_above
            row["bust_points"] = points
        if s in winners:
            multipliers[s] = _winner_multiplier(sec, o)
            row["multiplier"], row["multiplier_for"] = multipliers[s]
        seats.append(row)
    payments = _payments(sec, result, outcomes, multipliers)
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
    sec: Mapping[str, Any],
    result: Result,
    outcomes: Sequence[PlayerOutcome],
    multipliers: Mapping[int, tuple[int, str]],
) -> list[dict[str, Any]]:
    """Who pays whom, and why: each payer's amount goes to the winners, split equally and
    multiplied by each winner's own multiplier. Empty when the money does not settle that
    way (nothing is invented: the payments shown add up to the scorer's money)."""
    winners = result.winners
    money = [Fraction(m) for m in result.money]
    if not winners or any(money[s] > 0 for s in range(len(money)) if s not in winners):
        return []
    weight = {w: multipliers.get(w, (1, ""))[0] for w in winners}
    total_weight = sum(weight.values())
    out = []
    paid = Fraction(0)
    for p in (s for s in range(len(money)) if s not in winners and money[s] < 0):
        base = _base(sec, p, result, outcomes[p])
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
                    why = " ".join([*words, *extra]) + f" = {_fmt(amount)}"
            out.append({"from": p, "to": w, "amount": money_json(_exact(amount)), "why": why})
    if paid != sum(money[w] for w in winners) + Fraction(result.house):
        return []
    return out


def _exact(x: Fraction) -> Money:
    return x.numerator if x.denominator == 1 else x
