"""鬥雀 covering scoring: totals, ranks with every tie-break, and the settlement."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any, NamedTuple

from paiqi_core.cards import CARD_POINTS, CARDS, card_text
from paiqi_core.core.results import core_score
from paiqi_core.forms import form
from paiqi_core.hooks.registry import Params, pack_of, register
from paiqi_core.limits import Limits
from paiqi_core.outcome import (
    PlayerOutcome,
    Result,
    exact,
    money_text,
    points_text,
)
from paiqi_core.slots import Scoring, ScoringFacts, SeatSettlement

PARAMS = (
    "stake",
    "bust_above",
    "last_seven_bonus",
    "completion_bonus",
    "clean_bonus",
    "big_head",
    "middle_head",
    "bust_multiplier",
    "winner_multiplier",
    "count",
    "pay",
    "clean_multiplier",
    "base",
    "finishers",
    "finishers_collect",
    "spare_least",
    "all_covered_pay",
)


BIG, MIDDLE = "大頭", "中頭"
POINTS = CARD_POINTS.__getitem__
# distance of a covered card's points from 7, by card number (a tie-break): the same point
# value as the total, so a covered joker (0 points) is 7 away
DEVIATION = tuple(abs(CARD_POINTS[c] - 7) for c in range(CARDS)).__getitem__


@register(
    "scoring",
    "covering",
    params=PARAMS,
    requires={"ending.method": "all_empty"},
    summary="鬥雀 covering: bonuses minus covered points, ranks, heads, bust and winner "
    "multipliers, stake {stake}",
)
def covering(p: Params) -> Scoring:
    """鬥雀 totals, ranks with every tie-break, and the settlement."""
    stake = exact(Fraction(str(p["stake"])))
    bust_above = int(p["bust_above"])
    last_seven, completion, clean = (
        int(p[k]) for k in ("last_seven_bonus", "completion_bonus", "clean_bonus")
    )
    big, middle, bust_mult = int(p["big_head"]), int(p["middle_head"]), int(p["bust_multiplier"])
    mult_last_seven, mult_all_covered, mult_clean = winner_multipliers(p)
    by_cards = p.get("count", "points") == "cards"  # 以蓋牌張數: a covered card costs 1
    cost = covered_cards if by_cards else covered_points
    pairs = p.get("pay", "winner") == "pairs"  # QQ 排七: every two players settle
    clean_mult = int(p.get("clean_multiplier", 1))
    own = p.get("pay", "winner") == "totals"  # twstar 排7, poker7: nobody pays anybody
    table = Totals.of(p) if own else None

    facts = ScoringFacts(
        objective="money",
        closure_bonus=(completion,) * 4,
        last_seven_bonus=last_seven,
        clean_bonus=clean + (table.clean_worth() if table else 0),
        covered_points_count=not by_cards,
        bust_above=None if pairs or own else bust_above,
    )
    compiled = form(
        "covering",
        stake=stake,
        bust_above=bust_above,
        last_seven_bonus=last_seven,
        completion_bonus=completion,
        clean_bonus=clean,
        big_head=big,
        middle_head=middle,
        bust_multiplier=bust_mult,
        winner_multiplier=(mult_last_seven, mult_all_covered, mult_clean),
        **({"count": "cards"} if by_cards else {}),
        **({"pay": "pairs", "clean_multiplier": clean_mult} if pairs else {}),
        **(table.form() if table else {}),
    )
    score = core_score(compiled, pack_of(p), Fraction(stake))
    most = max(mult_last_seven, mult_all_covered, mult_clean, 1)

    def bounds(limits: Limits) -> tuple[Fraction, Fraction]:
        """No payer pays more than a hand's most covered points (or cards) times the
        largest head, bust and winner multipliers; no winner collects more than the others
        pay."""
        most_cost = limits.hand if by_cards else limits.most_points(limits.hand)
        if table is not None:
            made = 4 * completion + last_seven + clean
            low, high = table.bounds(limits.players, most_cost)
            return low * Fraction(stake), (made + high) * Fraction(stake)
        if pairs:  # each of the others' totals lies within bonuses + most_cost of one's own
            apart = 4 * completion + last_seven + clean + most_cost
            most_pair = (limits.players - 1) * apart * clean_mult * Fraction(stake)
            return -most_pair, most_pair
        worst = max(big, middle, 1) * max(bust_mult, 1) * most
        pays = most_cost * worst * Fraction(stake)
        return -pays, (limits.players - 1) * pays

    by_win = (mult_all_covered, mult_last_seven, mult_clean)  # all covered, out on a 7, clean

    def settle(
        outcomes: Sequence[PlayerOutcome], result: Result, rows_cut: bool
    ) -> list[SeatSettlement]:
        """Each seat's bonuses and covered points, a winner's multiplier, and what a payer
        pays: its points, x the head, x the bust, x the stake."""
        out = []
        extra = table.parts(outcomes, cost, last_seven) if table else None
        for seat, o in enumerate(outcomes):
            parts: list[dict[str, Any]] = []
            if o.all_covered and not pairs and not own:
                parts.append({"what": "全蓋: every card covered, covered points not counted",
                              "points": 0})  # fmt: skip
            else:
                if o.completions:
                    n = len(o.completions)
                    parts.append({"what": f"接龍 × {n}", "points": completion * n,
                                  "rule": "completion_bonus"})  # fmt: skip
                if o.last_seven:
                    parts.append({"what": "尾張7", "points": last_seven,
                                  "rule": "last_seven_bonus"})  # fmt: skip
                if o.clean:
                    parts.append({"what": "全脫手", "points": clean, "rule": "clean_bonus"})
                parts += covered_part(o, cost=cost)
            if table is not None and extra is not None:  # the base first, then the rest
                start = [{"what": "base", "points": table.base, "rule": "base"}]
                parts = start[: 1 if table.base else 0] + parts + extra[seat]
            if pairs or own:  # no winner's multiplier, no payer's payment, no bust
                out.append(SeatSettlement(tuple(parts), sum(int(x["points"]) for x in parts)))
                continue
            multiplier = collects_with(o, by_win, ("全蓋", "尾張7", "全脫手"))
            points = cost(o)
            pays = None
            if result.total is not None:
                t = result.total[seat]
                label = result.labels[seat] if result.labels is not None else ""
                amount, words = Fraction(-t), [points_text(-t)]
                head = {BIG: big, MIDDLE: middle}.get(label)
                if head is not None:
                    amount *= head
                    words.append(f"× {head} ({label})")
                amount, words = busted(
                    amount, words, points, bust_above, bust_mult, "card" if by_cards else "point"
                )
                amount *= Fraction(stake)
                words.append(f"× stake {money_text(stake)}")
                pays = (amount, tuple(words))
            made = sum(int(part["points"]) for part in parts)
            out.append(SeatSettlement(tuple(parts), made, multiplier, pays, points))
        return out

    return Scoring(score, facts, compiled, bounds, no_fixed_sum if own else zero_sum, settle)


class Totals(NamedTuple):
    """Where each player's money is its own total (scoring.pay: totals): what adds to the
    totals besides bonuses and covered cards (twstar 排7, the poker7 app)."""

    base: int  # points every player starts a game with
    finishers: tuple[tuple[int, int], ...]  # by players out clean: each of them, each other
    collect: bool  # a player out clean collects the others' covered cost
    spare: bool  # with nobody out clean, the fewest covered points cost nothing
    all_covered: tuple[int, int]  # 全蓋: that player, each other

    @staticmethod
    def of(p: Params) -> Totals:
        """The scoring rules' amounts."""
        pay = p.get("all_covered_pay") or (0, 0)
        return Totals(
            int(p.get("base", 0)),
            tuple((int(a), int(b)) for a, b in p.get("finishers") or ()),
            bool(p.get("finishers_collect", False)),
            bool(p.get("spare_least", False)),
            (int(pay[0]), int(pay[1])),
        )

    def form(self) -> dict[str, Any]:
        """The form's parameters (the defaults left out)."""
        out: dict[str, Any] = {"pay": "totals"}
        if self.base:
            out["base"] = self.base
        if self.finishers:
            out["finishers"] = self.finishers
        if self.collect:
            out["finishers_collect"] = True
        if self.spare:
            out["spare_least"] = True
        if self.all_covered != (0, 0):
            out["all_covered_pay"] = self.all_covered
        return out

    def clean_worth(self) -> int:
        """Roughly what going out clean is worth beyond the clean bonus (a clean hand is an
        event of the game where it is worth anything)."""
        gains = [a - b for a, b in self.finishers]
        return max([*gains, 0]) + (1 if self.collect else 0)

    def entry(self, k: int) -> tuple[int, int]:
        """The table's amounts for ``k`` players out: (0, 0) for none or past the table."""
        return self.finishers[k - 1] if 1 <= k <= len(self.finishers) else (0, 0)

    def bounds(self, players: int, most_cost: int) -> tuple[int, int]:
        """The least and most a seat's total can be, bonuses for completions, 尾張7 and a
        clean hand left out of the most (尾張7 takes the place of a finisher's amount)."""
        gains = [a for a, _ in self.finishers] + [0]
        others = [b for _, b in self.finishers] + [0]
        a, b = self.all_covered
        collect = (players - 1) * most_cost if self.collect else 0
        low = self.base - most_cost + min(*others, *gains) + min(a, 0) + (players - 1) * min(b, 0)
        high = self.base + max(*gains, *others) + collect + max(a, 0) + (players - 1) * max(b, 0)
        return low, high

    def parts(
        self,
        outcomes: Sequence[PlayerOutcome],
        cost: Callable[[PlayerOutcome], int],
        last_seven: int,
    ) -> list[list[dict[str, Any]]]:
        """Each seat's parts of the total beyond the base, bonuses and covered cards: the
        finishers' table, what a clean player collects, the spared points, 全蓋."""
        costs = [cost(o) for o in outcomes]
        collected: int = sum(costs)
        k = len([o for o in outcomes if o.clean])
        gain, other = self.entry(k)
        out = []
        for seat, o in enumerate(outcomes):
            parts: list[dict[str, Any]] = []
            went = f"{k} out without covering"
            if o.clean and last_seven and o.last_seven and gain:
                parts.append({"what": f"{went}: 尾張7 instead", "points": 0,
                              "rule": "finishers"})  # fmt: skip
            elif o.clean and gain:
                parts.append({"what": f"{went}: each of them", "points": gain,
                              "rule": "finishers"})  # fmt: skip
            elif not o.clean and other:
                parts.append({"what": f"{went}: each other player", "points": other,
                              "rule": "finishers"})  # fmt: skip
            if o.clean and self.collect and collected:
                parts.append({"what": "the others' covered cards", "points": collected,
                              "rule": "finishers_collect"})  # fmt: skip
            if k == 0 and self.spare and costs[seat] == min(costs) and costs[seat]:
                parts.append({"what": "fewest covered: not counted", "points": costs[seat],
                              "rule": "spare_least"})  # fmt: skip
            for u, w in enumerate(outcomes):
                amount = self.all_covered[0 if u == seat else 1]
                if w.all_covered and amount:
                    what = "全蓋" if u == seat else "another's 全蓋"
                    parts.append({"what": what, "points": amount, "rule": "all_covered_pay"})
            out.append(parts)
        return out


def collects_with(
    o: PlayerOutcome, multipliers: tuple[int, int, int], names: tuple[str, str, str]
) -> tuple[int, str]:
    """What a winner collects with and why: the multiplier (all covered, out on a 7,
    clean) of the first of those that holds for ``o``, named as the table names it; 1."""
    for holds, multiplier, name in zip(
        (o.all_covered, o.last_seven, o.clean), multipliers, names, strict=True
    ):
        if holds:
            return multiplier, name
    return 1, ""


def covered_points(o: PlayerOutcome) -> int:
    """What covered cards cost where each counts its face points (A = 1 … K = 13)."""
    return o.covered_points


def covered_cards(o: PlayerOutcome) -> int:
    """What covered cards cost where each counts 1 (以蓋牌張數)."""
    return len(o.covered)


def covered_part(
    o: PlayerOutcome, exempt: int = 0, cost: Callable[[PlayerOutcome], int] = covered_points
) -> list[dict[str, Any]]:
    """The covered cards' cost (``cost``: their points, or 1 each) against a total, and the
    points of melds not counted."""
    parts: list[dict[str, Any]] = []
    if cost(o):
        parts.append({"what": "covered", "cards": [card_text(c) for c in o.covered],
                      "points": -cost(o)})  # fmt: skip
    if exempt:
        parts.append({"what": "melds not counted", "points": exempt, "rule": "melds"})
    return parts


def busted(
    amount: Fraction,
    words: list[str],
    points: int,
    above: int,
    multiplier: int,
    unit: str = "point",
) -> tuple[Fraction, list[str]]:
    """A payment with the bust applied, where the covered ``points`` (or cards: ``unit``)
    exceed ``above``."""
    if points > above:
        amount *= multiplier
        plural = "s" if points != 1 else ""
        words.append(f"× {multiplier} (爆點: {points} covered {unit}{plural} > {above})")
    return amount, words


def no_fixed_sum(limits: Limits) -> None:
    """Each player keeps its own total: what the seats make adds up to no fixed sum."""
    return None


def zero_sum(limits: Limits) -> Fraction:
    """Money only changes hands: every game's money adds up to 0."""
    return Fraction(0)


def winner_multipliers(p: Params) -> tuple[int, int, int]:
    """(last seven, all covered, clean) multipliers of a winner, from the scoring rules."""
    wm = p["winner_multiplier"]
    return int(wm["last_seven"]), int(wm["all_covered"]), int(wm["clean"])
