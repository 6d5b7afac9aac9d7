"""Terminal text of summaries and comparison reports."""

from __future__ import annotations

from typing import Any

from paiqi_core.textui import table


def games_text(d: dict[str, Any], seed: int) -> str:
    """The per-seat table of plain games."""
    has_total = "mean_total" in d
    has_money = any(d["mean_money"])
    head = ["seat", "win rate"] + (["mean total"] if has_total else [])
    head += (["mean money"] if has_money else []) + ["stuck/game"]
    rows = []
    for seat in range(d["players"]):
        row: list[Any] = [seat, f"{d['win_rate'][seat]:.3f}"]
        if has_total:
            row.append(f"{d['mean_total'][seat]:+.2f}")
        if has_money:
            row.append(f"{d['mean_money'][seat]:+.2f}")
        row.append(f"{d['mean_stuck'][seat]:.2f}")
        rows.append(row)
    title = f"{d['profile']}: {d['games']} games, seed {seed}, {d['mean_actions']} actions a game"
    return title + "\n" + table(head, rows)


def matches_text(s: Any, seed: int) -> str:
    """The per-seat table of matches."""
    d = s.as_dict()
    title = f"{s.profile}: {s.matches} matches of {s.games} games, seed {seed}"
    rows = [
        [seat, f"{d['match_win_rate'][seat]:.3f}", f"{d['mean_match_points'][seat]:.2f}"]
        for seat in range(s.players)
    ]
    return title + "\n" + table(["seat", "match win rate", "mean match points"], rows)


def sessions_text(s: Any, seed: int) -> str:
    """The per-seat table of sessions."""
    d = s.as_dict()
    bankroll = f", bankroll {s.bankroll}" if s.bankroll is not None else ""
    title = (
        f"{s.profile}: {s.sessions} sessions of {s.hands} hands{bankroll}, seed {seed}; "
        f"{d['mean_hands_played']} hands played on average, {s.ended_early} ended early "
        "(a player could not pay)"
    )
    rows = [
        [seat, f"{d['session_win_rate'][seat]:.3f}", f"{d['mean_session_money'][seat]:+.2f}"]
        for seat in range(s.players)
    ]
    return title + "\n" + table(["seat", "session win rate", "mean session money"], rows)


def compare_text(report: dict[str, Any], db: str, workers: int | None = None) -> str:
    """The terminal text of a comparison report."""
    spec = report["spec"]
    agents = ",".join(spec["agents"]) or "random"
    lines = [
        f"run {report['run']} in {db}: {spec['games']} deals, seed {spec['seed']}, agents "
        f"{agents}{' rotated' if spec['rotate'] else ''}"
        + ("" if workers is None else f", {workers} workers"),
        "",
        "per game (means; intervals in --json and the report)",
    ]
    metrics = [
        "actions",
        "stuck",
        "covers",
        "passes",
        "bursts",
        "closures",
        "last_seven",
        "all_covered",
        "jokers",
    ]
    rows = [
        [p] + [f"{d['per_game'][m]['mean']:.3g}" for m in metrics]
        for p, d in report["profiles"].items()
    ]
    lines.append(table(["profile", *metrics], rows))
    for p, d in report["profiles"].items():
        lines += ["", f"{p}: by seat"]
        seat_rows = [
            [
                r["seat"],
                _ci(r["win"]),
                "" if r["total"] is None else _ci(r["total"], 2),
                _ci(r["money"], 2),
            ]
            for r in d["per_seat"]
        ]
        lines.append(table(["seat", "win rate", "mean total", "mean money"], seat_rows))
        if len(d["per_agent"]) > 1:
            agent_rows = [[r["agent"], _ci(r["win"]), _ci(r["money"], 2)] for r in d["per_agent"]]
            lines += [table(["agent", "win rate", "mean money"], agent_rows)]
    base = next(iter(report["profiles"]))
    for other, diff in report["paired"].items():
        lines += ["", f"{other} − {base}, paired on the same deals (mean ± 95% CI)"]
        rows = [[k, _ci(v)] for k, v in diff.items()]
        lines.append(table(["difference", "value"], rows))
    return "\n".join(lines)


def _ci(e: dict[str, float], digits: int = 3) -> str:
    return f"{e['mean']:+.{digits}f} ± {e['ci95']:.{digits}f}"
