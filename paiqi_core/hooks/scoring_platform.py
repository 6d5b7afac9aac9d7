"""斬龍/點差 platform scoring: totals with meld exemption, labels, two settlements, fee."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from paiqi_core.core.results import core_score
from paiqi_core.forms import form
from paiqi_core.hooks.registry import Params, pack_of, register
from paiqi_core.hooks.scoring_covering import (
    busted,
    collects_with,
    covered_part,
    winner_multipliers,
    zero_sum,
)
from paiqi_core.limits import Limits
from paiqi_core.outcome import (
    PlayerOutcome,
    Result,
    money_text,
    ordinal,
)
from paiqi_core.slots import Scoring, ScoringFacts, SeatSettlement

PARAMS = (
    "settlement",
    "head_amounts",
    "rate",
    "bust_above",
    "bust_multiplier",
    "closure_bonus",
    "all_covered_total",
    "all_covered_busts",
    "last_seven_bonus",
    "clean_bonus",
    "melds",
    "fee",
    "winner_multiplier",
)

SMALL, MIDDLE, BIG = "小頭", "中頭", "大頭"


@register(
    "scoring",
    "platform",
    params=PARAMS,
    requires={"ending.method": "all_empty"},
    readings=("middle-ties-share-label", "all-covered-never-busts"),
    summary="斬龍/點差 platform: 脫手, 十三蓋, 尾張七 and closure bonuses minus covered points "
    "outside melds; losers pay by {settlement}",
)
def platform(p: Params) -> Scoring:
    """斬龍/點差 platform totals, labels, heads or point-difference settlement, fee."""
    method = p["settlement"]
    amounts = {
        SMALL: p["head_amounts"]["small"],
        MIDDLE: p["head_amounts"]["middle"],
        BIG: p["head_amounts"]["big"],
    }
    rate, bust_above, bust_mult = int(p["rate"]), int(p["bust_above"]), int(p["bust_multiplier"])
    closure_bonus = tuple(int(b) for b in p["closure_bonus"])
    all_covered_total = int(p["all_covered_total"])
    all_covered_busts = bool(p["all_covered_busts"])
    last_seven, clean = int(p["last_seven_bonus"]), int(p["clean_bonus"])
    melds = bool(p["melds"])
    fee = Fraction(str(p["fee"]))
    mult_last_seven, mult_all_covered, mult_clean = winner_multipliers(p)

    facts = ScoringFacts(
        objective="money",
        closure_bonus=(closure_bonus[0], closure_bonus[1], closure_bonus[2], closure_bonus[3]),
        last_seven_bonus=last_seven,
        clean_bonus=clean,
        covered_points_count=True,
        bust_above=bust_above,
        melds_exempt=melds,
    )
    compiled = form(
        "platform",
        settlement=method,
        head_amounts=(int(amounts[SMALL]), int(amounts[MIDDLE]), int(amounts[BIG])),
        rate=rate,
        bust_above=bust_above,
        bust_multiplier=bust_mult,
        closure_bonus=closure_bonus,
        all_covered_total=all_covered_total,
        all_covered_busts=all_covered_busts,
        last_seven_bonus=last_seven,
        clean_bonus=clean,
        melds=melds,
        fee=fee,
        winner_multiplier=(mult_last_seven, mult_all_covered, mult_clean),
    )
    score = core_score(compiled, pack_of(p))
    most = max(mult_last_seven, mult_all_covered, mult_clean, 1)

    def bounds(limits: Limits) -> tuple[Fraction, Fraction]:
        """No payer pays more than the largest head amount (or difference of totals, at
        its rate) times the bust and winner multipliers; no winner collects more than
        the others pay."""
        if method == "heads":
            base = max(int(v) for v in amounts.values())
        else:
            best = max(all_covered_total, sum(closure_bonus) + max(last_seven, clean))
            worst = min(all_covered_total, -limits.most_points(limits.hand))
            base = (best - worst) * rate
        pays = Fraction(base * max(bust_mult, 1) * most)
        return -pays, (limits.players - 1) * pays

    by_win = (mult_all_covered, mult_last_seven, mult_clean)  # all covered, out on a 7, clean

    def settle(
        outcomes: Sequence[PlayerOutcome], result: Result, rows_cut: bool
    ) -> list[SeatSettlement]:
        """Each seat's closures, bonuses, covered points and melds not counted, a winner's
        multiplier, and what a payer pays: its head amount or its difference from the
        winner at the rate, x the bust."""
        word = "斬龍" if rows_cut else "接龍"
        exempts = result.exempt if result.exempt is not None else (0,) * len(outcomes)
        out = []
        for seat, o in enumerate(outcomes):
            exempt = exempts[seat]
            parts: list[dict[str, Any]] = []
            if o.all_covered:
                parts.append({"what": "十三蓋", "points": all_covered_total,
                              "rule": "all_covered_total"})  # fmt: skip
            else:
                for k in o.completions:
                    what = f"{word} of the suit opened {ordinal(k)}"
                    parts.append({"what": what, "points": closure_bonus[k - 1],
                                  "rule": "closure_bonus"})  # fmt: skip
                if o.last_seven:
                    parts.append({"what": "尾張七", "points": last_seven,
                                  "rule": "last_seven_bonus"})  # fmt: skip
                elif o.clean:
                    parts.append({"what": "脫手", "points": clean, "rule": "clean_bonus"})
                parts += covered_part(o, exempt)
            multiplier = collects_with(o, by_win, ("十三蓋", "尾張七", "脫手"))
            if o.all_covered:
                points = o.covered_points if all_covered_busts else 0
            else:
                points = o.covered_points - exempt
            pays = None
            label = result.labels[seat] if result.labels is not None else ""
            if result.total is not None and (method != "heads" or label in amounts):
                if method == "heads":
                    amount = Fraction(int(amounts[label]))
                    words = [f"{money_text(amount)} ({label})"]
                else:
                    best, t = result.total[result.winners[0]], result.total[seat]
                    amount = Fraction((best - t) * rate)
                    words = [f"({best} - {t}) × rate {rate}"]
                amount, words = busted(amount, words, points, bust_above, bust_mult)
                pays = (amount, tuple(words))
            made = sum(int(part["points"]) for part in parts)
            out.append(SeatSettlement(tuple(parts), made, multiplier, pays, points))
        return out

    # a house fee takes money off the table: no constant sum then
    return Scoring(score, facts, compiled, bounds, zero_sum if fee == 0 else None, settle)
