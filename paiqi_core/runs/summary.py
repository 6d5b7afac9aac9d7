"""The report of a stored run as data: what ``compare`` prints and ``report`` draws."""

from __future__ import annotations

import json
from typing import Any


def compare_report(store: Any, run_id: str, spec: Any) -> dict[str, Any]:
    """The report of a stored run as data: per-game, per-seat, per-agent and paired figures."""
    from paiqi_core.runs import stats

    profiles = list(spec.profiles)
    out: dict[str, Any] = {"run": run_id, "spec": json.loads(spec.to_json()), "profiles": {}}
    for p in profiles:
        out["profiles"][p] = {
            "per_game": {k: v.as_dict() for k, v in stats.per_game(store, run_id, p).items()},
            "per_seat": [_jsonable(r) for r in stats.per_seat(store, run_id, p)],
            "per_agent": [_jsonable(r) for r in stats.per_agent(store, run_id, p)],
        }
    base = profiles[0]
    out["paired"] = {
        other: {
            **{k: v.as_dict() for k, v in stats.paired(store, run_id, base, other).items()},
            "winner_differs": stats.winners_differ(store, run_id, base, other).as_dict(),
        }
        for other in profiles[1:]
    }
    return out


def _jsonable(row: dict[str, Any]) -> dict[str, Any]:
    """A stats row as data: estimates become {n, mean, ci95} (``total``: None in families
    that keep no totals)."""
    return {k: v.as_dict() if hasattr(v, "as_dict") else v for k, v in row.items()}
