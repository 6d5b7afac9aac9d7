"""Placement scoring (Japanese 七並べ): ranks by how each player left the game."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from paiqi_core.core.results import core_score
from paiqi_core.forms import form
from paiqi_core.hooks.registry import Params, pack_of, register
from paiqi_core.limits import Limits
from paiqi_core.slots import Scoring, ScoringFacts


def rank_points(rank: Sequence[int], fixed: Sequence[int] | None = None) -> tuple[int, ...]:
    """Points by rank: ``fixed`` (rank 1 first), or players-1 down to 0 (3/2/1/0, 2/1/0)."""
    points = list(fixed) if fixed else list(range(len(rank) - 1, -1, -1))
    return tuple(points[r - 1] if r - 1 < len(points) else 0 for r in rank)


@register(
    "scoring",
    "placement",
    params=("place_points",),
    summary="ranks: finishers in order, the last holder, a joker-only leaver, then bursts "
    "(earliest last); rank points for matches",
)
def placement(p: Params) -> Scoring:
    """Ranks by how each player left the game; rank points as the total."""
    fixed = p.get("place_points")

    points = None if fixed is None else tuple(int(x) for x in fixed)
    compiled = form("placement", place_points=points)
    facts = ScoringFacts(objective="points", place_points=points)

    def by_rank(limits: Limits) -> list[int]:
        """The points of each rank 1..players (ranks beyond the list score 0)."""
        given = list(points) if points else list(range(limits.players - 1, -1, -1))
        return (given + [0] * limits.players)[: limits.players]

    def bounds(limits: Limits) -> tuple[Fraction, Fraction]:
        """From the least to the most points a rank gets."""
        each = by_rank(limits)
        return Fraction(min(each)), Fraction(max(each))

    def total(limits: Limits) -> Fraction | None:
        """Every rank's points, where no two seats can share a rank: only seats still
        holding cards at the end share one, so at most one may hold cards then."""
        if limits.turns is None or limits.holding_at_end > 1:
            return None
        return Fraction(sum(by_rank(limits)))

    return Scoring(core_score(compiled, pack_of(p)), facts, compiled, bounds, total)
