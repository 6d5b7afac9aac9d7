"""Matches: several games scored by rank points (Japanese 七並べ).

The player with the most points wins; a tie goes to whoever ranked higher in the last game
(players still tied share the win).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from paiqi_core.outcome import Result


@dataclass(frozen=True)
class MatchResult:
    """A finished match: rank points by seat, the winners, games played."""

    points: tuple[int, ...]
    winners: tuple[int, ...]
    games: int


def run_match(results: Sequence[Result]) -> MatchResult:
    """Add up the rank points (each game's ``total``) of a match's games."""
    if not results:
        raise ValueError("a match needs at least one game")
    players = len(results[0].rank)
    points = [0] * players
    for r in results:
        if r.total is None:
            raise ValueError("a match needs a scoring that gives rank points (placement)")
        points = [a + b for a, b in zip(points, r.total, strict=True)]
    best = max(points)
    tied = [s for s in range(players) if points[s] == best]
    last = results[-1].rank
    top = min(last[s] for s in tied)
    winners = tuple(s for s in tied if last[s] == top)
    return MatchResult(tuple(points), winners, len(results))
