"""Tournaments: every player meets every other on the same deals, seats rotated.

For each pair of players A and B, each deal is played with A and B taking alternate seats
(A B A B at a table of four), once for every distinct rotation of that seating (A B A B and
B A B A at four; A B A, B A A and A A B at three), so that each sits in every seat; every
pair plays the same deals (duplicate play). A pairing is stored as one rule set of a run,
named ``A vs B``, with its own line-up of players by seat.

The report, read from the stored rows: each player's win rate and mean utility (money,
rank points or win share: the profile's objective) over every seat it played, with 95%
intervals; the head-to-head matrix, A's mean edge over B per deal (A's mean utility less
B's on the same deal) with its interval; and Bradley-Terry ratings on an Elo scale, a deal
counting as a win for whichever of the two did better on it. The skill gap is the edge of
the best-rated player over the worst-rated one; the design measures (``runs.design``) pool
every pairing's games, which all play one profile.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Sequence
from itertools import combinations
from typing import Any

from paiqi_core.rating import bradley_terry
from paiqi_core.runs.stats import Estimate
from paiqi_core.runs.store import RunSpec, Store, lineup

SEPARATOR = " vs "
UTILITY = {"money": "money_value", "points": "total", "win": "win"}


def pairing(a: str, b: str) -> str:
    """The name of the pairing of players ``a`` and ``b``."""
    return f"{a}{SEPARATOR}{b}"


def tournament_spec(
    agents: Sequence[str],
    overrides: Sequence[str],
    seed: int,
    deals: int,
    batch: int,
    players: int,
    search_batch: int = 0,
) -> RunSpec:
    """The run of a tournament between ``agents`` (two or more, distinct); pairings with a
    search player are played ``search_batch`` games a batch (0: ``batch``)."""
    pairs = list(combinations(agents, 2))
    return RunSpec(
        "tournament",
        tuple(pairing(a, b) for a, b in pairs),
        tuple(overrides),
        tuple(agents),
        True,
        seed,
        deals,
        batch,
        players,
        tuple(lineup(a, b, players) for a, b in pairs),
        distinct=True,
        search_batch=search_batch,
    )


def tournament_report(store: Store, run_id: str, spec: RunSpec, objective: str) -> dict[str, Any]:
    """The tournament's tables as data: per player, head to head, and ratings."""
    column = UTILITY[objective]
    marks = ", ".join("?" * len(spec.profiles))
    # the pairings' games (not the replayed deals of a deal share)
    rows = store.expand(run_id).query(
        f"SELECT profile, deal, agent, win, {column} FROM seats WHERE run = ? AND profile IN "
        f"({marks}) ORDER BY profile, deal",
        run_id,
        *spec.profiles,
    )
    sums: dict[str, list[float]] = defaultdict(lambda: [0, 0.0, 0.0, 0.0, 0.0])
    by_deal: dict[tuple[str, int], dict[str, list[float]]] = defaultdict(dict)
    for profile, deal, agent, win, value in rows:
        value = float(value or 0.0)
        s = sums[agent]
        s[0] += 1
        s[1] += win
        s[2] += win * win
        s[3] += value
        s[4] += value * value
        by_deal[(profile, deal)].setdefault(agent, []).append(value)
    agents = list(spec.agents)
    players = [
        {
            "agent": a,
            "seat_games": int(sums[a][0]),
            "win": Estimate.of(int(sums[a][0]), sums[a][1], sums[a][2]).as_dict(),
            "utility": Estimate.of(int(sums[a][0]), sums[a][3], sums[a][4]).as_dict(),
        }
        for a in agents
    ]
    k = len(agents)
    wins = [[0.0] * k for _ in range(k)]
    edges: dict[tuple[str, str], list[float]] = defaultdict(list)
    for (profile, _), seated in by_deal.items():
        a, b = profile.split(SEPARATOR)
        edge = _mean(seated.get(a, [])) - _mean(seated.get(b, []))
        edges[(a, b)].append(edge)
        i, j = agents.index(a), agents.index(b)
        if edge > 0:
            wins[i][j] += 1
        elif edge < 0:
            wins[j][i] += 1
        else:
            wins[i][j] += 0.5
            wins[j][i] += 0.5
    head_to_head: list[dict[str, Any]] = []
    for (a, b), deal_edges in edges.items():
        n = len(deal_edges)
        total, squares = sum(deal_edges), sum(v * v for v in deal_edges)
        head_to_head.append(
            {"a": a, "b": b, "deals": n, "edge": Estimate.of(n, total, squares).as_dict()}
        )
    ratings = bradley_terry(agents, wins)
    from paiqi_core.runs.design import design_report

    ranked = sorted(ratings, key=lambda r: r.elo)
    strong, weak = ranked[-1].player, ranked[0].player
    gap = next(
        (
            h["edge"] if h["a"] == strong else {**h["edge"], "mean": -h["edge"]["mean"]}
            for h in head_to_head
            if {h["a"], h["b"]} == {strong, weak}
        ),
        None,
    )
    return {
        "run": run_id,
        "command": "tournament",
        "objective": objective,
        "spec": {"agents": agents, "deals": spec.games, "seed": spec.seed, "players": spec.players},
        "players": players,
        "head_to_head": head_to_head,
        "ratings": [{"agent": r.player, "elo": r.elo, "ci95": r.ci95} for r in ratings],
        "skill_gap": None if gap is None else {"strong": strong, "weak": weak, "edge": gap},
        "design": design_report(store, run_id, spec),
    }


def _mean(values: Sequence[float]) -> float:
    """The mean (NaN for no values)."""
    return sum(values) / len(values) if values else math.nan
