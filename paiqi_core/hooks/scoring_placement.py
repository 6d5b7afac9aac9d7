"""Placement scoring (Japanese 七並べ): ranks by how each player left the game."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from paiqi_core.forms import form
from paiqi_core.hooks.registry import Params, register
from paiqi_core.limits import Limits
from paiqi_core.outcome import PlayerOutcome, Result
from paiqi_core.slots import Scoring, ScoringFacts


def placement_ranks(outcomes: Sequence[PlayerOutcome]) -> tuple[int, ...]:
    """Finishers in the order they went out; then the players still holding cards (tied);
    then a player who left holding only the joker; then the players who burst, the
    earliest burst ranking lowest."""
    groups: list[list[int]] = []
    finishers = sorted((o.finish, s) for s, o in enumerate(outcomes) if o.finish is not None)
    groups += [[s] for _, s in finishers]
    holders = [
        s
        for s, o in enumerate(outcomes)
        if o.finish is None and o.burst is None and not o.left_with_joker
    ]
    if holders:
        groups.append(holders)
    groups += [[s] for s, o in enumerate(outcomes) if o.left_with_joker]
    bursts = sorted(
        ((o.burst, s) for s, o in enumerate(outcomes) if o.burst is not None), reverse=True
    )
    groups += [[s] for _, s in bursts]
    rank = [0] * len(outcomes)
    place = 1
    for group in groups:
        for s in group:
            rank[s] = place
        place += len(group)
    return tuple(rank)


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

    def score(outcomes: Sequence[PlayerOutcome]) -> Result:
        rank = placement_ranks(outcomes)
        total = rank_points(rank, fixed)
        winners = tuple(s for s, r in enumerate(rank) if r == 1)
        return Result(rank=rank, winners=winners, money=(0,) * len(outcomes), total=total)

    points = None if fixed is None else tuple(int(x) for x in fixed)
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

    return Scoring(score, facts, form("placement", place_points=points), bounds, total)
