"""Ratings of players from head-to-head results: the Bradley-Terry model on an Elo scale.

Player i beats player j with probability ``p_i / (p_i + p_j)``. The strengths are the
maximum-likelihood fit (Hunter's MM iterations; a draw counts half a win each way) and are
shown as Elo points, ``400 * log10(p)``, the first player fixed at 0. Their 95% intervals
come from the observed Fisher information of the log-strengths, relative to the first
player (whose rating is fixed, so it has none).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

Z95 = 1.959964
ELO = 400 / math.log(10)  # Elo points per unit of natural log-strength


@dataclass(frozen=True)
class Rating:
    """One player's rating on the Elo scale, with the half-width of its 95% interval
    (None for the reference player, or when the results cannot pin it down)."""

    player: str
    elo: float
    ci95: float | None


def bradley_terry(players: Sequence[str], wins: Sequence[Sequence[float]]) -> list[Rating]:
    """Ratings from ``wins[i][j]``, the (possibly fractional) number of times player i beat
    player j. A player who never lost (or never won) has no finite rating: it is capped at
    a gap of 1,200 Elo points, with no interval."""
    k = len(players)
    games = [[wins[i][j] + wins[j][i] for j in range(k)] for i in range(k)]
    total_wins = [sum(wins[i][j] for j in range(k) if j != i) for i in range(k)]
    strength = [1.0] * k
    for _ in range(2000):
        new = []
        for i in range(k):
            denominator = sum(
                games[i][j] / (strength[i] + strength[j])
                for j in range(k)
                if j != i and games[i][j]
            )
            new.append(max(total_wins[i], 1e-9) / denominator if denominator else strength[i])
        scale = math.exp(sum(math.log(s) for s in new) / k)
        new = [s / scale for s in new]
        moved = max(abs(math.log(a) - math.log(b)) for a, b in zip(new, strength, strict=True))
        strength = new
        if moved < 1e-10:
            break
    theta = [math.log(s) - math.log(strength[0]) for s in strength]
    cap = 1200 / ELO
    bounded = [max(-cap, min(cap, t)) for t in theta]
    errors = _standard_errors(theta, games)
    out = []
    for i, name in enumerate(players):
        extreme = total_wins[i] == 0 or total_wins[i] == sum(games[i])
        se = None if i == 0 or extreme or errors is None else errors[i - 1]
        out.append(Rating(name, bounded[i] * ELO, None if se is None else Z95 * se * ELO))
    return out


def _standard_errors(
    theta: Sequence[float], games: Sequence[Sequence[float]]
) -> list[float] | None:
    """Standard errors of the log-strengths of players 1..k-1 (player 0 fixed)."""
    k = len(theta)
    if k < 2:
        return []
    info = [[0.0] * k for _ in range(k)]
    for i in range(k):
        for j in range(k):
            if i != j and games[i][j]:
                p = 1 / (1 + math.exp(theta[j] - theta[i]))
                w = games[i][j] * p * (1 - p)
                info[i][i] += w
                info[i][j] -= w
    reduced = [row[1:] for row in info[1:]]
    inverse = _invert(reduced)
    if inverse is None:
        return None
    return [math.sqrt(max(inverse[i][i], 0.0)) for i in range(k - 1)]


def _invert(matrix: list[list[float]]) -> list[list[float]] | None:
    """The inverse of a small square matrix (Gauss-Jordan), or None if it is singular."""
    n = len(matrix)
    a = [row[:] + [1.0 if i == j else 0.0 for j in range(n)] for i, row in enumerate(matrix)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(a[r][col]))
        if abs(a[pivot][col]) < 1e-12:
            return None
        a[col], a[pivot] = a[pivot], a[col]
        lead = a[col][col]
        a[col] = [x / lead for x in a[col]]
        for r in range(n):
            if r != col and a[r][col]:
                factor = a[r][col]
                a[r] = [x - factor * y for x, y in zip(a[r], a[col], strict=True)]
    return [row[n:] for row in a]
