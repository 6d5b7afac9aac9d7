"""Statistics of a stored run: per-profile summaries and paired differences with 95%
confidence intervals (normal approximation; the same deals under each profile, so the
differences are paired game by game)."""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from paiqi_core.runs.store import Store

Z95 = 1.959964

GAME_METRICS = {
    "actions": "SUM(actions)",
    "stuck": "SUM(covers) + SUM(passes)",
    "covers": "SUM(covers)",
    "passes": "SUM(passes)",
    "bursts": "SUM(burst)",
    "closures": "SUM(closures)",
    "last_seven": "SUM(last_seven)",
    "all_covered": "SUM(all_covered)",
    "jokers": "SUM(jokers)",
}


@dataclass(frozen=True)
class Estimate:
    """A mean with the half-width of its 95% confidence interval (NaN, and None as data,
    from fewer than two values: one deal gives no interval, and claims no difference)."""

    n: int
    mean: float
    half_width: float  # of the 95% interval

    @staticmethod
    def of(n: int, total: float, squares: float) -> Estimate:
        """The estimate from a count, a sum and a sum of squares."""
        if n == 0:
            return Estimate(0, math.nan, math.nan)
        mean = total / n
        if n < 2:
            return Estimate(n, mean, math.nan)
        var = max(squares / n - mean * mean, 0.0) * n / (n - 1)
        return Estimate(n, mean, Z95 * math.sqrt(var / n))

    def text(self, digits: int = 3) -> str:
        """``mean ± half-width`` (``± n/a (one deal)`` without an interval)."""
        return f"{self.mean:+.{digits}f} {plus_minus(self.half_width, digits)}"

    def as_dict(self) -> dict[str, float | None]:
        """The estimate as data: n, mean, ci95 (None without an interval)."""
        ci = None if math.isnan(self.half_width) and self.n == 1 else self.half_width
        return {"n": self.n, "mean": self.mean, "ci95": ci}


NO_INTERVAL = "± n/a (one deal)"  # an estimate from a single deal has no interval


def plus_minus(half_width: float | None, digits: int = 3) -> str:
    """``± half-width``, or ``NO_INTERVAL`` when there is none (fewer than two deals)."""
    if half_width is None or math.isnan(half_width):
        return NO_INTERVAL
    return f"± {half_width:.{digits}f}"


def _total(n: int, total: float | None, squares: float | None) -> Estimate | None:
    """The mean total over the rows that keep one; None for a family without totals."""
    return None if not n or total is None or squares is None else Estimate.of(n, total, squares)


def _by(store: Store, run: str, profile: str, column: str) -> list[dict[str, Any]]:
    """Win rate, mean total and money for each value of ``column`` ("seat" or "agent")."""
    rows = store.expand(run).query(
        f"SELECT {column}, COUNT(*), SUM(win), SUM(win*win), COUNT(total), SUM(total), "
        "SUM(total*total), SUM(money_value), SUM(money_value*money_value) FROM seats "
        f"WHERE run = ? AND profile = ? GROUP BY {column} ORDER BY {column}",
        run,
        profile,
    )
    return [
        {
            column: key,
            "win": Estimate.of(n, w, w2),
            "total": _total(nt, t, t2),
            "money": Estimate.of(n, m, m2),
        }
        for key, n, w, w2, nt, t, t2, m, m2 in rows
    ]


def per_seat(store: Store, run: str, profile: str) -> list[dict[str, Any]]:
    """Win rate, mean total and money by seat (first-player advantage)."""
    return _by(store, run, profile, "seat")


def per_agent(store: Store, run: str, profile: str) -> list[dict[str, Any]]:
    """Win rate, mean total and money by agent (the skill gap between agents)."""
    return _by(store, run, profile, "agent")


def per_game(store: Store, run: str, profile: str) -> dict[str, Estimate]:
    """Per-game means: length, how often players got stuck, special events."""
    sums = ", ".join(f"{expr} AS {name}" for name, expr in GAME_METRICS.items())
    agg = ", ".join(f"COUNT(*), SUM({m}), SUM({m}*{m})" for m in GAME_METRICS)
    row = next(
        store.expand(run).query(
            f"SELECT {agg} FROM (SELECT {sums} FROM seats WHERE run = ? AND profile = ? "
            "GROUP BY game)",
            run,
            profile,
        )
    )
    return {
        name: Estimate.of(row[3 * i], row[3 * i + 1] or 0, row[3 * i + 2] or 0)
        for i, name in enumerate(GAME_METRICS)
    }


def paired(store: Store, run: str, base: str, other: str) -> dict[str, Estimate]:
    """Mean differences other − base, game by game on the same deals."""
    sums = ", ".join(f"{expr} AS {name}" for name, expr in GAME_METRICS.items())
    seat_money = "SUM(CASE WHEN seat = 0 THEN money_value ELSE 0 END) AS seat0_money"
    seat_win = "SUM(CASE WHEN seat = 0 THEN win ELSE 0 END) AS seat0_win"
    metrics = [*GAME_METRICS, "seat0_money", "seat0_win"]
    per = (
        f"SELECT game, {sums}, {seat_money}, {seat_win} FROM seats "
        "WHERE run = ? AND profile = ? GROUP BY game"
    )
    diffs = ", ".join(f"(o.{m} - b.{m})" for m in metrics)
    agg = ", ".join(f"COUNT(*), SUM(d{i}), SUM(d{i}*d{i})" for i in range(len(metrics)))
    cols = ", ".join(f"{d} AS d{i}" for i, d in enumerate(diffs.split(", ")))
    row = next(
        store.expand(run).query(
            f"SELECT {agg} FROM (SELECT {cols} FROM ({per}) b JOIN ({per}) o USING (game))",
            run,
            base,
            run,
            other,
        )
    )
    return {
        m: Estimate.of(row[3 * i], row[3 * i + 1] or 0, row[3 * i + 2] or 0)
        for i, m in enumerate(metrics)
    }


def winners_differ(store: Store, run: str, base: str, other: str) -> Estimate:
    """How often the same deal has a different winner (or set of winners)."""
    rows = store.expand(run).query(
        "SELECT game, profile, GROUP_CONCAT(seat) FROM (SELECT game, profile, seat FROM seats "
        "WHERE run = ? AND profile IN (?, ?) AND win > 0 ORDER BY game, profile, seat) "
        "GROUP BY game, profile ORDER BY game",
        run,
        base,
        other,
    )
    n = differ = 0
    for game, group in _by_game(rows):
        del game
        if len(group) == 2:
            n += 1
            differ += group[base] != group[other]
    return Estimate.of(n, differ, differ)


def _by_game(rows: Iterator[tuple[Any, ...]]) -> Iterator[tuple[int, dict[str, str]]]:
    current: int | None = None
    group: dict[str, str] = {}
    for game, profile, seats in rows:
        if game != current and current is not None:
            yield current, group
            group = {}
        current = game
        group[profile] = seats
    if current is not None:
        yield current, group


def games_summary(store: Store, run: str, profile: str) -> dict[str, Any]:
    """The per-seat summary of ``paiqi simulate`` (the shape of ``Summary.as_dict``)."""
    rows = list(store.expand(run).query(
        "SELECT seat, COUNT(*), AVG(win), AVG(total), COUNT(total), AVG(money_value), "
        "AVG(covers + passes), SUM(actions) FROM seats WHERE run = ? AND profile = ? "
        "GROUP BY seat ORDER BY seat", run, profile))  # fmt: skip
    games = rows[0][1] if rows else 0
    out: dict[str, Any] = {
        "profile": profile,
        "games": games,
        "players": len(rows),
        "mean_actions": round(sum(r[7] for r in rows) / max(games, 1), 2),
        "win_rate": [round(r[2], 4) for r in rows],
        "mean_money": [round(r[5], 4) for r in rows],
        "mean_stuck": [round(r[6], 3) for r in rows],
    }
    if rows and rows[0][4]:
        out["mean_total"] = [round(r[3], 3) for r in rows]
    return out
