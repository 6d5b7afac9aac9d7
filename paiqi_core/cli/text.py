"""Terminal text of summaries and comparison reports."""

from __future__ import annotations

import math
from typing import Any

from paiqi_core.runs.stats import NO_INTERVAL, plus_minus
from paiqi_core.runs.summary import (
    METRIC_LABELS,
    PAIRED_LABELS,
    WINNER_DIFFERS,
    has_money,
    has_total,
    money_compared,
    pairing_of,
    shown_metrics,
)
from paiqi_core.textui import table

RANK_POINTS = "mean points"
POINTS_NOTE = (
    "points: under a placement scoring, rank points, what each place in a game is worth (3, "
    "2, 1, 0 with four players, unless the profile sets scoring.place_points); under penalty "
    "points (scoring.penalty), minus what the cards still held count; a match adds them up"
)


def total_label(objective: str | None) -> str:
    """The heading of the total column: points (rank or penalty) when the scoring counts
    them."""
    return RANK_POINTS if objective == "points" else "mean total"


def games_text(d: dict[str, Any], seed: int, objective: str | None = None) -> str:
    """The per-seat table of plain games (``objective``: what the profile's scoring aims at;
    ``points`` labels the totals as points, rank or penalty)."""
    total = "mean_total" in d
    money = any(d["mean_money"])
    head = ["seat", "win rate"] + ([total_label(objective)] if total else [])
    head += (["mean money"] if money else []) + ["stuck/game"]
    rows = []
    for seat in range(d["players"]):
        row: list[Any] = [seat, f"{d['win_rate'][seat]:.3f}"]
        if total:
            sign = "" if objective == "points" else "+"  # (penalty points carry their minus)
            row.append(f"{d['mean_total'][seat]:{sign}.2f}")
        if money:
            row.append(f"{d['mean_money'][seat]:+.2f}")
        row.append(f"{d['mean_stuck'][seat]:.2f}")
        rows.append(row)
    title = f"{d['profile']}: {d['games']} games, seed {seed}, {d['mean_actions']} actions a game"
    note = f"\n{POINTS_NOTE}" if total and objective == "points" else ""
    return title + "\n" + table(head, rows) + note


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
    if s.target is not None:
        title += f", {s.reached} ended by a player reaching ±{s.target}"
    rows = [
        [seat, f"{d['session_win_rate'][seat]:.3f}", f"{d['mean_session_money'][seat]:+.2f}"]
        for seat in range(s.players)
    ]
    return title + "\n" + table(["seat", "session win rate", "mean session money"], rows)


def compare_text(report: dict[str, Any], db: str, workers: int | None = None) -> str:
    """The terminal text of a comparison report: the words of the plots, money only for
    profiles that settle it, totals named rank points where they are."""
    spec = report["spec"]
    agents = ",".join(spec["agents"]) or "random"
    lines = [
        f"run {report['run']} in {db}: {spec['games']} deals, seed {spec['seed']}, agents "
        f"{agents}{' rotated' if spec['rotate'] else ''}"
        + ("" if workers is None else f", {workers} workers"),
    ]
    profiles = report["profiles"]
    metrics = shown_metrics(report)
    lines += ["", "per game: means (95% intervals in --json and the report)"]
    rows = [
        [METRIC_LABELS[m].replace(" per game", "")]
        + [f"{d['per_game'][m]['mean']:.3g}" for d in profiles.values()]
        for m in metrics
    ]
    lines.append(table(["", *profiles], rows))
    unseen = [METRIC_LABELS[m].split(" per game")[0] for m in METRIC_LABELS if m not in metrics]
    if unseen:
        lines.append(f"never seen under any profile: {', '.join(unseen)}")
    points = False
    for p, d in profiles.items():
        seats = d["per_seat"]
        money, total = has_money(seats), has_total(seats)
        points |= total and d.get("objective") == "points"
        missing = [] if money else ["settles no money"]
        missing += [] if total else ["keeps no totals"]
        lines += ["", f"{p}: by seat" + (f" ({p} {' and '.join(missing)})" if missing else "")]
        head = ["seat", "win rate"]
        head += [total_label(d.get("objective"))] if total else []
        head += ["mean money"] if money else []
        # rank points are never negative: no sign, as for rates
        show_total = _rate if d.get("objective") == "points" else _ci
        seat_rows = [
            [r["seat"], _rate(r["win"])]
            + ([show_total(r["total"], 2)] if total else [])
            + ([_ci(r["money"], 2)] if money else [])
            for r in seats
        ]
        lines.append(table(head, seat_rows))
        if len(d["per_agent"]) > 1:
            agent_money = has_money(d["per_agent"])
            agent_rows = [
                [r["agent"], _rate(r["win"])] + ([_ci(r["money"], 2)] if agent_money else [])
                for r in d["per_agent"]
            ]
            head = ["agent", "win rate"] + (["mean money"] if agent_money else [])
            lines += [table(head, agent_rows)]
    if points:
        lines += ["", POINTS_NOTE]
    base = next(iter(profiles))
    if report.get("deals_differ"):
        lines += [
            "",
            "the profiles deal from different packs (other ranks, jokers or decks), so the same "
            "deal number is not the same hands: differences are paired game by game but not "
            "on the same cards (still valid, only less precise)",
        ]
    pairing = pairing_of(report)
    for other, diff in report["paired"].items():
        lines += ["", f"{other} − {base}, {pairing} (mean ± 95% CI)"]
        money = money_compared(report, base, other)
        seen = shown_metrics({"profiles": {p: profiles[p] for p in (base, other)}})
        keys = [
            k
            for k in PAIRED_LABELS
            if k in diff
            and (k not in METRIC_LABELS or k in seen)  # never seen under either: not shown
            and (money or k != "seat0_money")
        ]
        rows = [[PAIRED_LABELS[k], _ci(diff[k])] for k in keys]
        if "winner_differs" in diff:
            rows.append([WINNER_DIFFERS, _rate(diff["winner_differs"])])
        lines.append(table(["difference", "value"], rows))
        if "seat0_money" in diff and not money:
            without = [p for p in (base, other) if not has_money(profiles[p]["per_seat"])]
            settle = "settles" if len(without) == 1 else "settle"
            lines.append(f"seat 0 money is not compared: {' and '.join(without)} {settle} no money")
    if "design" in report:
        lines += design_lines(report)
    if "skill" in report:
        lines += ["", *skill_lines(report["skill"], pairing)]
    return "\n".join(lines)


def skill_lines(skill: dict[str, Any], pairing: str = "paired on the same deals") -> list[str]:
    """The skill gap section: each profile's gap, the paired differences, and which profile
    rewards skill more."""
    strong, weak = skill["strong"], skill["weak"]
    lines = [
        f"skill gap: {strong} against {weak} in alternate seats, {skill['deals']} deals per "
        f"profile, the same deals for every profile; per deal, {strong}'s mean less {weak}'s "
        "(mean ± 95% CI)"
    ]
    rows = [
        [p, f"{_ci(d['utility'], 2)} {d['objective']}", _ci(d["places"], 2), _ci(d["standardised"])]
        for p, d in skill["profiles"].items()
    ]
    lines.append(table(["profile", "own objective", "places", "standard deviations"], rows))
    profiles = list(skill["profiles"])
    for other, diff in skill["paired"].items():
        lines.append(
            f"{other} − {skill.get('base', profiles[0])}: {_ci(diff)} standard deviations, "
            + pairing
            + (" (clear)" if _clear(diff) else " (not clear)")
        )
    most = skill["most"]
    lines.append(
        f"rewards skill most: {most}"
        + (
            " (clear against every other profile)"
            if skill["clear"]
            else " (not clearly more than every other profile at these deals: play more)"
        )
    )
    return lines


def _ci(e: dict[str, Any], digits: int = 3) -> str:
    """A signed mean with its interval: a difference, money, a total."""
    return f"{e['mean']:+.{digits}f} {plus_minus(e['ci95'], digits)}"


def _rate(e: dict[str, Any], digits: int = 3) -> str:
    """A rate (a share, never below zero) with its interval: no sign."""
    return f"{e['mean']:.{digits}f} {plus_minus(e['ci95'], digits)}"


def _sure(e: dict[str, Any]) -> bool:
    """Whether an edge's 95% interval leaves out zero (never without an interval)."""
    return _clear(e)


UTILITY_NAMES = {"money": "money per game", "points": "points per game", "win": "win share"}


def tournament_text(report: dict[str, Any], db: str, workers: int | None = None) -> str:
    """The terminal text of a tournament: players, head to head, ratings."""
    spec = report["spec"]
    utility = UTILITY_NAMES[report["objective"]]
    lines = [
        f"run {report['run']} in {db}: tournament of {', '.join(spec['agents'])} on "
        f"{spec['deals']:,} deals, seed {spec['seed']}, every pair on the same deals, seats "
        "rotated" + ("" if workers is None else f", {workers} workers"),
        "",
        f"by player (the objective is {report['objective']}; 95% intervals)",
    ]
    rows = [
        [
            p["agent"],
            f"{p['seat_games']:,}",
            _rate(p["win"]),
            _ci(p["utility"]),
        ]
        for p in report["players"]
    ]
    lines.append(table(["player", "seat-games", "win rate", utility], rows))
    lines += ["", f"head to head: the first player's edge per deal, in {utility}"]
    rows = []
    for h in report["head_to_head"]:
        e = h["edge"]
        sure = _sure(e)
        verdict = (h["a"] if e["mean"] > 0 else h["b"]) + " better" if sure else "no clear edge"
        rows.append(
            [
                f"{h['a']} vs {h['b']}",
                f"{h['deals']:,}",
                _ci(e),
                verdict,
            ]
        )
    lines.append(table(["pairing", "deals", "edge", ""], rows))
    lines += ["", "ratings (Bradley-Terry on deals won, Elo scale, first player at 0)"]
    one_deal = spec["deals"] < 2  # a rating from one deal claims what it cannot know
    rows = [
        [r["agent"], "n/a" if one_deal else f"{r['elo']:+.0f}",
         NO_INTERVAL[2:] if one_deal else "" if r["ci95"] is None else f"± {r['ci95']:.0f}"]
        for r in sorted(report["ratings"], key=lambda r: -r["elo"])
    ]  # fmt: skip
    lines.append(table(["player", "Elo", "95%"], rows))
    if "design" in report:
        from paiqi_core.runs.design import POOLED

        lines += design_lines(report, [POOLED])
        gap = report.get("skill_gap")
        if gap is not None and one_deal:
            lines.append("skill gap: n/a (one deal rates no player above another)")
        elif gap is not None:
            lines.append(
                f"skill gap: {gap['strong']} (rated best) against {gap['weak']} (rated worst), "
                f"edge per deal {estimate_text(gap['edge'])} {utility}"
            )
    return "\n".join(lines)


def estimate_text(e: dict[str, Any] | None, signed: bool = True) -> str:
    """``mean ± half-width`` with two significant digits of the interval, both to the same
    place (``n/a`` when there is no estimate)."""
    if e is None:
        return ""
    mean = float("nan") if e["mean"] is None else float(e["mean"])
    ci = float("nan") if e["ci95"] is None else float(e["ci95"])
    if math.isnan(mean):
        return "n/a"
    sign = "+" if signed else ""
    if math.isnan(ci):
        return f"{mean:{sign}.3g}" + (f" {NO_INTERVAL}" if e.get("n") == 1 else "")
    if ci <= 0:
        return f"{mean:{sign}.3g} ± 0"
    places = min(max(1 - math.floor(math.log10(ci)), 0), 6)
    return f"{mean:{sign}.{places}f} ± {ci:.{places}f}"


def _clear(e: dict[str, Any]) -> bool:
    """Whether a difference's 95% interval leaves out zero."""
    mean, ci = e.get("mean"), e.get("ci95")
    if mean is None or ci is None or math.isnan(mean) or math.isnan(ci):
        return False
    return abs(mean) > ci


SIGNED = {"seat_advantage", "seat_advantage_objective", "skill_gap"}


def measures_lines(
    rows: list[dict[str, Any]],
    names: list[str],
    heads: list[str],
    base: str | None,
    pairing: str = "paired on the same deals",
) -> list[str]:
    """The measures table (one row per measure, one column per rule set) and the table of
    differences from ``base`` (a star marks an interval clear of zero)."""
    table_rows = [
        [f"{r['label']} [{r['unit']}]"]
        + [estimate_text(r["by"].get(n), r["key"] in SIGNED) for n in names]
        for r in rows
    ]
    lines = [table(["measure (mean ± 95% interval)", *heads], table_rows)]
    others = [(n, h) for n, h in zip(names, heads, strict=True) if n != base]
    if base is None or not others:
        return lines
    from paiqi_core.runs.design import identical

    diff_rows = []
    same = []
    for r in rows:
        if identical(r):
            same.append(r["label"])
            continue
        cells = []
        for n, _ in others:
            d = r["diff"].get(n)
            cells.append("" if d is None else estimate_text(d) + (" *" if _clear(d) else ""))
        if any(cells):
            diff_rows.append([r["label"], *cells])
    lines += [
        "",
        f"differences from the baseline {base}, {pairing} "
        "(mean ± 95% interval; * the interval leaves out zero)",
        table(["measure", *(h for _, h in others)], diff_rows),
    ]
    if same:
        lines.append(f"the same on every deal under every value: {'; '.join(same)}")
    return lines


def never_fired_lines(report: dict[str, Any], names: list[str]) -> list[str]:
    """The special rules in effect that never fired, per rule set (or one line if alike)."""
    sets = report["design"]["rule_sets"]
    never = {n: sets[n].get("never_fired") for n in names if n in sets}
    known = {n: v for n, v in never.items() if v is not None}
    if not known:
        return []
    from paiqi_core.runs.design import EVENTS

    texts = {n: "; ".join(EVENTS.get(e, e) for e in v) if v else "none" for n, v in known.items()}
    games = {n: sets[n]["games"] for n in known}
    if len(set(texts.values())) == 1:
        n = next(iter(known))
        return [f"rules in effect that never fired ({games[n]:,} games each): {texts[n]}"]
    return ["rules in effect that never fired:"] + [
        f"  {n} ({games[n]:,} games): {t}" for n, t in texts.items()
    ]


def design_notes(report: dict[str, Any], names: list[str]) -> list[str]:
    """What the measures' units and margins are, and what the rows of an earlier paiqi
    lack."""
    sets = report["design"]["rule_sets"]
    lines: list[str] = []
    first = next((sets[n] for n in names if n in sets), None)
    if first is None:
        return lines
    if not all(sets[n]["recorded"] for n in names if n in sets):
        lines.append(
            "seat advantage, decisiveness, drama and some special rules are left out: the "
            "rows do not record them (written by an earlier paiqi); a new run records them"
        )
    units: dict[str, list[str]] = {}
    for n in names:
        if n in sets:
            units.setdefault(f"{sets[n]['unit']} (a comeback: the winner trailed by "
                             f"{sets[n]['margin']} or more)", []).append(n)  # fmt: skip
    if len(units) == 1:
        lines.append(f"standings count {next(iter(units))}; definitions: docs/design.md")
    else:
        lines.append(
            "standings count "
            + "; ".join(f"{unit} under {', '.join(who)}" for unit, who in units.items())
            + "; definitions: docs/design.md"
        )
    share = report["design"].get("deal_share")
    if share:
        agents = ",".join(share["agents"]) or "random"
        lines.append(
            f"deal share: {share['deals']:,} deals, each played {share['replays']} times by "
            f"{agents}, one seat further round and with fresh random streams each time"
        )
    return lines


def sweep_text(report: dict[str, Any], db: str, workers: int | None = None) -> str:
    """The terminal text of a sweep: every measure against the value, and the differences
    from the baseline."""
    spec = report["spec"]
    agents = ",".join(spec["agents"]) or "random"
    names = list(report["points"])
    vary = report["vary"]
    lines = [
        f"run {report['run']} in {db}: sweep of {report['profile']}, {spec['games']:,} deals "
        f"per value, seed {spec['seed']}, agents {agents}{' rotated' if spec['rotate'] else ''}"
        + ("" if workers is None else f", {workers} workers"),
        "varied: "
        + "; ".join(f"{v['rule']} = {', '.join(v['values'])}" for v in vary)
        + f"; baseline {report['baseline']}",
    ]
    if report.get("deals_differ"):
        lines.append(
            "the values deal from different decks (a joker added), so the same deal number "
            "is not the same hands: differences are paired game by game but not on the same "
            "cards (still valid, only less precise)"
        )
    heads = (
        [", ".join(report["points"][n].values()) for n in names]
        if len(vary) > 1
        else [report["points"][n][vary[0]["rule"]] for n in names]
    )
    title = ", ".join(v["rule"] for v in vary)
    lines += ["", f"by {title}:"]
    lines += measures_lines(
        report["measures"], names, heads, report["baseline"], pairing_of(report)
    )
    lines += ["", *never_fired_lines(report, names), *design_notes(report, names)]
    if "skill" in report:
        lines += ["", *skill_lines(report["skill"], pairing_of(report))]
    return "\n".join(lines)


def design_lines(report: dict[str, Any], names: list[str] | None = None) -> list[str]:
    """The design measures section of a comparison (or tournament) report."""
    from paiqi_core.runs.design import measure_rows

    names = list(report["profiles"]) if names is None else names
    rows = [r for r in measure_rows(report, names) if r["key"] != "skill_gap"]
    base = report["design"].get("base")
    lines = ["", "design measures"]
    lines += measures_lines(rows, names, names, base, pairing_of(report))
    lines += ["", *never_fired_lines(report, names), *design_notes(report, names)]
    return lines
