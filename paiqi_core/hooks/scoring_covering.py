"""鬥雀 covering scoring: totals, ranks with every tie-break, and the settlement."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from paiqi_core.cards import SEVEN
from paiqi_core.hooks.registry import register
from paiqi_core.hooks.scoring_simple import Scorer
from paiqi_core.outcome import PlayerOutcome, Result, competition_ranks

PARAMS = (
    "stake", "bust_above", "last_seven_bonus", "completion_bonus", "clean_bonus",
    "big_head", "middle_head", "bust_multiplier", "winner_multiplier",
)  # fmt: skip


BIG, MIDDLE = "大頭", "中頭"


def head_labels(totals: Mapping[int, int]) -> dict[int, str]:
    """大頭/中頭 among the payers (seat -> negative total), with the tie table of the rules.

    Lowest unique: 大頭; second lowest unique as well: 中頭. Lowest shared by exactly two:
    both 中頭, no 大頭. Lowest shared by three or more: neither. A lone payer is 大頭.
    """
    heads = {seat: "" for seat in totals}
    if not totals:
        return heads
    counts = Counter(totals.values())
    levels = sorted(counts)
    lowest = levels[0]
    if counts[lowest] == 1:
        heads[_seat_of(totals, lowest)] = BIG
        if len(levels) > 1 and counts[levels[1]] == 1:
            heads[_seat_of(totals, levels[1])] = MIDDLE
    elif counts[lowest] == 2:
        for seat, t in totals.items():
            if t == lowest:
                heads[seat] = MIDDLE
    return heads


def _seat_of(totals: Mapping[int, int], value: int) -> int:
    return next(s for s, t in totals.items() if t == value)


@register(
    "scoring",
    "covering",
    params=PARAMS,
    requires={"ending.method": "all_empty"},
    summary="鬥雀 covering: bonuses minus covered points, ranks, heads, bust and winner "
    "multipliers, stake {stake}",
)
def covering(p: Mapping[str, Any]) -> Scorer:
    stake = Fraction(str(p["stake"]))
    bust_above = int(p["bust_above"])
    last_seven, completion, clean = (
        int(p[k]) for k in ("last_seven_bonus", "completion_bonus", "clean_bonus")
    )
    big, middle, bust_mult = int(p["big_head"]), int(p["middle_head"]), int(p["bust_multiplier"])
    wm = p["winner_multiplier"]
    mult_last_seven, mult_all_covered, mult_clean = (
        int(wm["last_seven"]),
        int(wm["all_covered"]),
        int(wm["clean"]),
    )

    def achievement(o: PlayerOutcome) -> int:
        """尾張7 > 全脫手 > 接龍 > none, compared only between players who covered nothing."""
        if o.covered:
            return 0
        if is_last_seven(o):
            return 3
        if o.clean:
            return 2
        return 1 if o.completions else 0

    def total(o: PlayerOutcome) -> int:
        if o.all_covered:
            return 0
        bonus = completion * len(o.completions)
        if is_last_seven(o):
            bonus += last_seven
        if o.clean:
            bonus += clean
        return bonus - o.covered_points

    def winner_multiplier(o: PlayerOutcome) -> int:
        if o.all_covered:
            return mult_all_covered
        if is_last_seven(o):
            return mult_last_seven
        return mult_clean if o.clean else 1

    def score(outcomes: Sequence[PlayerOutcome]) -> Result:
        totals = [total(o) for o in outcomes]
        keys: list[tuple[object, ...]] = [
            (
                not o.all_covered,
                -t,
                len(o.covered),
                sum(abs(c % 13 + 1 - 7) for c in o.covered),
                -achievement(o),
            )
            for o, t in zip(outcomes, totals, strict=True)
        ]
        rank = competition_ranks(keys)
        winners = tuple(s for s, r in enumerate(rank) if r == 1)
        payers = {s: t for s, t in enumerate(totals) if t < 0 and s not in winners}
        heads = head_labels(payers)
        head_mult = {BIG: big, MIDDLE: middle, "": 1}
        money = [Fraction(0)] * len(outcomes)
        labels = [""] * len(outcomes)
        for w in winners:
            labels[w] = "winner"
        for seat, t in payers.items():
            bust = bust_mult if outcomes[seat].covered_points > bust_above else 1
            base = Fraction(-t) * head_mult[heads[seat]] * bust * stake
            share = base / len(winners)
            for w in winners:
                amount = share * winner_multiplier(outcomes[w])
                money[w] += amount
                money[seat] -= amount
            labels[seat] = heads[seat]
        return Result(
            rank=rank,
            winners=winners,
            money=tuple(money),
            total=tuple(totals),
            labels=tuple(labels),
        )

    return score


def is_last_seven(o: PlayerOutcome) -> bool:
    return o.last_play is not None and o.last_play < 52 and o.last_play % 13 == SEVEN
