"""The report of a stored run as data: what ``compare`` prints and ``report`` draws, with
the words both use for each quantity and what each profile has (money, totals)."""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterable
from typing import Any

# per-game metrics: the unit of each panel
METRIC_LABELS = {
    "actions": "actions per game (length)",
    "stuck": "stuck turns per game (covers + passes)",
    "covers": "cards covered per game",
    "passes": "passes per game",
    "bursts": "bursts per game",
    "closures": "suits closed per game",
    "last_seven": "last-seven finishes per game (last card a 7)",
    "all_covered": "all-covered hands per game",
    "jokers": "joker moves per game",
}
PAIRED_LABELS = {
    **{k: v.split(" (")[0] for k, v in METRIC_LABELS.items()},
    "seat0_win": "seat 0 win rate",
    "seat0_money": "seat 0 money per game",
}
WINNER_DIFFERS = "share of deals with another winner"  # winners differ on the same deal


def compare_report(store: Any, run_id: str, spec: Any) -> dict[str, Any]:
    """The report of a stored run as data: per-game, per-seat, per-agent and paired figures,
    and each profile's objective (``points``: its totals are rank points; None when the
    stored rules cannot be read here)."""
    from paiqi_core.runs import stats

    profiles = list(spec.profiles)
    objectives = _objectives(store, run_id)
    out: dict[str, Any] = {"run": run_id, "spec": json.loads(spec.to_json()), "profiles": {}}
    base = profiles[0]

    def figures(p: str) -> Callable[[Any], dict[str, Any]]:
        return lambda s: {
            "objective": objectives.get(p),
            "per_game": {k: v.as_dict() for k, v in stats.per_game(s, run_id, p).items()},
            "per_seat": [_jsonable(r) for r in stats.per_seat(s, run_id, p)],
            "per_agent": [_jsonable(r) for r in stats.per_agent(s, run_id, p)],
        }

    def differences(other: str) -> Callable[[Any], dict[str, Any]]:
        return lambda s: {
            **{k: v.as_dict() for k, v in stats.paired(s, run_id, base, other).items()},
            "winner_differs": stats.winners_differ(s, run_id, base, other).as_dict(),
        }

    rows = _rows(store, run_id, spec)
    if rows is not None:  # every figure from the arrays of each profile's rows, read once
        from paiqi_core.runs import arrays

        out["profiles"] = {
            p: {
                "objective": objectives.get(p),
                "per_game": {k: v.as_dict() for k, v in arrays.per_game(rows[p]).items()},
                "per_seat": [_jsonable(r) for r in arrays.by(rows[p], "seat")],
                "per_agent": [_jsonable(r) for r in arrays.by(rows[p], "agent")],
            }
            for p in profiles
        }
        out["paired"] = {
            o: {
                **{k: v.as_dict() for k, v in arrays.paired(rows[base], rows[o]).items()},
                "winner_differs": arrays.winners_differ(rows[base], rows[o]).as_dict(),
            }
            for o in profiles[1:]
        }
    else:
        # the queries of every profile and pair at once, on as many cores as there are
        found = store.each([figures(p) for p in profiles] + [differences(o) for o in profiles[1:]])
        out["profiles"] = dict(zip(profiles, found[: len(profiles)], strict=True))
        out["paired"] = dict(zip(profiles[1:], found[len(profiles) :], strict=True))
    from paiqi_core.runs.skill import skill_report

    skill = skill_report(store, run_id, spec, objectives)
    if skill is not None:
        out["skill"] = skill
    from paiqi_core.runs.design import design_report

    out["design"] = design_report(store, run_id, spec, rows)
    out["deals_differ"] = decks_differ(store, run_id, spec)
    return out


def pairing_of(report: dict[str, Any]) -> str:
    """How a report's differences are paired: on the same deals, or game by game where its
    profiles deal from different packs (the same deal number is then other hands)."""
    return "paired game by game" if report.get("deals_differ") else "paired on the same deals"


def decks_differ(store: Any, run_id: str, spec: Any) -> bool | None:
    """Whether the run's profiles (or a sweep's points) deal from different packs (a joker
    or a deck added, other ranks), so that their deals are not the same hands (None when
    the stored rules cannot be read here)."""
    from paiqi_core.profile import ProfileError
    from paiqi_core.runs.store import StoreError

    try:
        stored = store.rules(run_id)
    except (StoreError, ProfileError):
        return None
    keys = ("deck.jokers", "deck.decks", "deck.ranks")
    decks = {tuple(stored[p].get(k) for k in keys) for p in spec.profiles if p in stored}
    return len(decks) > 1


def _rows(store: Any, run_id: str, spec: Any) -> dict[str, Any] | None:
    """Each profile's rows as arrays (``runs.arrays``), read at once on as many cores as
    there are; None without NumPy, or when a profile has no rows yet (the queries of
    ``runs.stats`` report that case)."""
    from paiqi_core.runs import arrays

    if not arrays.available():
        return None
    profiles = list(spec.profiles)
    found = store.each([arrays.reader(run_id, p, spec) for p in profiles])
    if any(not len(r.games) for r in found):
        return None
    return dict(zip(profiles, found, strict=True))


def _objectives(store: Any, run_id: str) -> dict[str, str]:
    """What each profile's scoring aims at (money, points, win), from the run's stored
    rules; empty when they cannot be read (a run stored by an earlier paiqi, a plugin
    not installed here)."""
    from paiqi_core.profile import ProfileError
    from paiqi_core.rules import rules_of
    from paiqi_core.runs.store import StoreError

    try:
        return {p: rules_of(r).facts.objective for p, r in store.rules(run_id).items()}
    except (StoreError, ProfileError):
        return {}


def _jsonable(row: dict[str, Any]) -> dict[str, Any]:
    """A stats row as data: estimates become {n, mean, ci95} (``total``: None in families
    that keep no totals)."""
    return {k: v.as_dict() if hasattr(v, "as_dict") else v for k, v in row.items()}


def _nonzero(x: Any) -> bool:
    v = math.nan if x is None else float(x)
    return not math.isnan(v) and v != 0


def has_money(rows: Iterable[dict[str, Any]]) -> bool:
    """Whether per-seat (or per-agent) rows show money changing hands: a profile that
    settles none has every mean and interval zero."""
    return any(_nonzero(r["money"]["mean"]) or _nonzero(r["money"]["ci95"]) for r in rows)


def has_total(rows: Iterable[dict[str, Any]]) -> bool:
    """Whether per-seat rows keep a total (a score before money)."""
    return any(r["total"] is not None for r in rows)


def shown_metrics(report: dict[str, Any]) -> list[str]:
    """The per-game metrics worth showing: those not zero under every profile."""
    profiles = list(report["profiles"].values())
    names = list(profiles[0]["per_game"]) if profiles else []
    return [m for m in names if any(_nonzero(d["per_game"][m]["mean"]) for d in profiles)]


def money_compared(report: dict[str, Any], base: str, other: str) -> bool:
    """Whether seat 0's money means something between two profiles: both settle money."""
    return all(has_money(report["profiles"][p]["per_seat"]) for p in (base, other))
