"""The skill gap: how much better a strong player does than a weak one under each profile,
on the same deals, and which profile rewards skill more.

Each profile's skill pairing plays the strong and the weak player in alternate seats, each
distinct seating of every deal once (``compare --skill``). Per deal, the gap is the strong
player's mean over its seats less the weak player's: in the profile's own objective (money,
rank points or win share), in places (the weak player's mean rank less the strong one's),
and standardised: the objective's gap divided by the objective's standard deviation over
the pairing's seat-games. Objectives differ between profiles (money in one, rank points in
another), so profiles are set side by side in that last unit. The skill pairings of all
profiles play the same deals, so the difference between two profiles' gaps is paired deal
by deal, which removes most of the luck of the deal from it.
"""

from __future__ import annotations

import math
from collections import defaultdict
from typing import Any

from paiqi_core.runs.stats import Estimate
from paiqi_core.runs.store import RunSpec, Store

# the column of the seats table that holds each objective
UTILITY = {"money": "money_value", "points": "total", "win": "win"}


def deal_edges(store: Store, run: str, name: str, a: str, b: str, column: str) -> dict[int, float]:
    """Per deal of rule set ``name``: player ``a``'s mean ``column`` over its seats less
    player ``b``'s (deals where either did not play are left out)."""
    values: dict[int, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    for deal, agent, value in store.expand(run).query(
        f"SELECT deal, agent, {column} FROM seats WHERE run = ? AND profile = ?", run, name
    ):
        values[deal][agent].append(float(value or 0.0))
    return {
        deal: sum(by[a]) / len(by[a]) - sum(by[b]) / len(by[b])
        for deal, by in sorted(values.items())
        if by.get(a) and by.get(b)
    }


def estimate(values: list[float]) -> Estimate:
    """The mean of ``values`` with its 95% interval."""
    return Estimate.of(len(values), sum(values), sum(v * v for v in values))


def spread(store: Store, run: str, name: str, column: str) -> float:
    """The standard deviation of ``column`` over every seat-game of rule set ``name``."""
    n, total, squares = next(
        store.expand(run).query(
            f"SELECT COUNT({column}), SUM({column}), SUM({column}*{column}) FROM seats "
            "WHERE run = ? AND profile = ?",
            run,
            name,
        )
    )
    if not n or n < 2:
        return 0.0
    mean = total / n
    return math.sqrt(max(squares / n - mean * mean, 0.0) * n / (n - 1))


def skill_report(
    store: Store, run: str, spec: RunSpec, objectives: dict[str, str]
) -> dict[str, Any] | None:
    """The skill gap of every profile of a run that played one (None otherwise): per profile,
    the gap in its own objective, in places (ranks), and in standard deviations of its
    objective (the unit that sets profiles side by side); per profile after the first, its
    standardised gap less the base profile's (the first, or a sweep's baseline), paired on
    the same deals; and the profile
    whose gap is largest, with whether the data show it clearly."""
    if not spec.skill:
        return None
    strong, weak = spec.skill
    gaps: dict[str, dict[int, float]] = {}
    profiles: dict[str, Any] = {}
    for p in spec.profiles:
        name = spec.skill_name(p)
        objective = objectives.get(p, "win")
        column = UTILITY[objective]
        edges = deal_edges(store, run, name, strong, weak, column)
        sd = spread(store, run, name, column)
        gaps[p] = {d: e / sd for d, e in edges.items()} if sd else dict.fromkeys(edges, 0.0)
        places = deal_edges(store, run, name, weak, strong, "rank")  # a lower rank is better
        profiles[p] = {
            "rule_set": name,
            "objective": objective,
            "utility": estimate(list(edges.values())).as_dict(),
            "places": estimate(list(places.values())).as_dict(),
            "standardised": estimate(list(gaps[p].values())).as_dict(),
            "spread": sd,
        }
    base = spec.base
    paired = {}
    for p in spec.profiles:
        if p == base:
            continue
        common = gaps[base].keys() & gaps[p].keys()
        paired[p] = estimate([gaps[p][d] - gaps[base][d] for d in sorted(common)]).as_dict()
    best = max(spec.profiles, key=lambda p: _mean(profiles[p]["standardised"]))
    clear = all(_clearly_above(gaps, best, p) for p in spec.profiles if p != best)
    return {
        "strong": strong,
        "weak": weak,
        "deals": spec.skill_deals,
        "profiles": profiles,
        "paired": paired,
        "base": base,
        "most": best,
        "clear": clear,
    }


def _mean(e: dict[str, float]) -> float:
    m = e["mean"]
    return float("-inf") if m != m else m  # NaN (no deals) ranks last


def _clearly_above(gaps: dict[str, dict[int, float]], a: str, b: str) -> bool:
    """Whether ``a``'s win-share gap is above ``b``'s, paired on deals, with the 95% interval
    of the difference clear of zero."""
    common = sorted(gaps[a].keys() & gaps[b].keys())
    e = estimate([gaps[a][d] - gaps[b][d] for d in common])
    return e.n > 1 and e.mean - e.half_width > 0
