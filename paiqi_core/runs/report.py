"""Reports of a stored run: terminal tables, PNG plots and one self-contained HTML page.

Plots need matplotlib (``pip install 'paiqi[plots]'``, or the ``plots`` extra of a source
checkout); without it the tables are still written and the report says how to get them.

Every plot is drawn from the report data of ``paiqi_core.runs.summary.compare_report`` alone (means
and 95% half-widths already aggregated by the store), so the cost does not grow with the
number of games. Each profile keeps one colour in every plot.
"""

from __future__ import annotations

import base64
import html
import io
import math
import textwrap
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from paiqi_core.runs import install_hint
from paiqi_core.runs.summary import (
    METRIC_LABELS,
    PAIRED_LABELS,
    has_money,
    has_total,
    money_compared,
    pairing_of,
    shown_metrics,
)


def plot_hint() -> str:
    """How to get the plots here: install matplotlib through paiqi's ``plots`` extra."""
    return install_hint("plots")


# Okabe–Ito: distinguishable with the common colour-vision deficiencies; yellow last.
PALETTE = (
    "#0072B2",
    "#E69F00",
    "#009E73",
    "#CC79A7",
    "#56B4E9",
    "#D55E00",
    "#555555",
    "#F0E442",
)

STYLE = {
    "font.size": 10,
    "axes.titlesize": 10.5,
    "axes.labelsize": 10,
    "xtick.labelsize": 9,
    "ytick.labelsize": 9,
    "legend.fontsize": 9,
    "figure.titlesize": 12,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.axisbelow": True,
    "axes.grid": True,
    "axes.grid.axis": "y",
    "grid.color": "#e4e4e4",
}
DPI = 110


@dataclass(frozen=True)
class Plot:
    """One figure of the report: its file name, a title, how to read it, and the PNG."""

    name: str
    title: str
    caption: str
    png: bytes


def _plt() -> Any:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return None
    return plt


def plots_available() -> bool:
    """Whether matplotlib is installed, so that reports can hold plots."""
    return _plt() is not None


def figures(report: dict[str, Any]) -> dict[str, bytes]:
    """PNG images of the report, by file name (empty without matplotlib)."""
    return {p.name: p.png for p in plots(report)}


def plots(report: dict[str, Any]) -> list[Plot]:
    """The report's plots in reading order (empty without matplotlib)."""
    plt = _plt()
    if plt is None:
        return []
    out: list[Plot] = []
    with plt.rc_context(STYLE):
        for make in (
            _win_by_seat,
            _money_by_seat,
            _total_by_seat,
            _per_agent,
            _per_game,
            design_plot,
        ):
            made = make(plt, report)
            if made is not None:
                out.append(made)
        for other in report.get("paired", {}):
            paired = _paired(plt, report, other)
            if paired is not None:
                out.append(paired)
        if report.get("skill"):
            out.append(_skill_gap(plt, report))
    return out


# ---------------------------------------------------------------------------- helpers


def _colours(report: dict[str, Any]) -> dict[str, str]:
    return {p: PALETTE[i % len(PALETTE)] for i, p in enumerate(report["profiles"])}


def _num(x: Any) -> float:
    """A mean or half-width as a float; NaN when missing."""
    return math.nan if x is None else float(x)


def _nonzero(x: Any) -> bool:
    v = _num(x)
    return not math.isnan(v) and v != 0


def _png(plt: Any, fig: Any) -> bytes:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=DPI)
    plt.close(fig)
    return buf.getvalue()


def _games(report: dict[str, Any]) -> dict[str, int]:
    """Games played under each profile (deals × rotations)."""
    return {
        p: int(d["per_game"]["actions"]["n"]) if d["per_game"] else 0
        for p, d in report["profiles"].items()
    }


def _games_text(report: dict[str, Any]) -> str:
    games = _games(report)
    counts = set(games.values())
    if len(counts) == 1:
        return f"{counts.pop():,} games per profile"
    return "games per profile: " + ", ".join(f"{p} {n:,}" for p, n in games.items())


def _players(report: dict[str, Any]) -> int:
    spec_players = report["spec"].get("players")
    if spec_players:
        return int(spec_players)
    return max((len(d["per_seat"]) for d in report["profiles"].values()), default=0)


def _seating_note(report: dict[str, Any]) -> str:
    spec = report["spec"]
    agents = list(spec.get("agents") or [])
    if len(set(agents)) <= 1:
        return ""
    if spec.get("rotate"):
        return (
            " Each deal was played once per rotation of the agents round the table, so every "
            "agent sat in every seat equally often."
        )
    placed = ", ".join(f"{a} in seat {s}" for s, a in enumerate(agents))
    return f" The agents kept their seats ({placed}), so seat differences include their skill."


CI_TEXT = "whiskers are 95% confidence intervals"


def _grouped_bars(
    ax: Any,
    report: dict[str, Any],
    groups: list[str],
    values: Callable[[dict[str, Any]], Iterable[tuple[str, dict[str, Any]]]],
    profiles: list[str],
) -> None:
    """Bars grouped along x by ``groups``, one bar per profile in its colour, with the
    95% interval as whiskers. ``values(profile_data)`` yields (group, estimate)."""
    colours = _colours(report)
    width = 0.8 / max(len(profiles), 1)
    for i, p in enumerate(profiles):
        by_group = dict(values(report["profiles"][p]))
        xs, ys, es = [], [], []
        for j, g in enumerate(groups):
            if g in by_group:
                est = by_group[g]
                xs.append(j - 0.4 + width * (i + 0.5))
                ys.append(_num(est["mean"]))
                es.append(_num(est.get("ci95")))
        ax.bar(
            xs,
            ys,
            width * 0.92,
            yerr=es if any(not math.isnan(e) for e in es) else None,
            capsize=3,
            color=colours[p],
            label=p,
            error_kw={"elinewidth": 1.1, "ecolor": "#222222"},
        )
    ax.set_xticks(range(len(groups)))
    ax.set_xticklabels(groups)
    ax.set_xlim(-0.6, len(groups) - 0.4)


def _equal_share(ax: Any, players: int) -> None:
    """The dashed line of a win rate no seat or agent would beat by chance: 1/players."""
    ax.axhline(1 / players, color="#444444", ls="--", lw=1, label=f"equal share (1/{players})")


def _label_bars(ax: Any) -> None:
    """The value at the end of every bar (for bars drawn without an interval)."""
    for bars in ax.containers:
        if hasattr(bars, "patches"):  # bars, not whiskers
            ax.bar_label(bars, fmt="%.2f", padding=2, fontsize=8)


def _pm(mean: float, ci: float) -> str:
    """``mean ± ci`` with two significant digits of the interval, both to the same place."""
    if math.isnan(mean):
        return "n/a"
    if math.isnan(ci) or ci <= 0:
        return f"{mean:+.3g}"
    places = min(max(1 - math.floor(math.log10(ci)), 0), 6)
    return f"{mean:+.{places}f} ± {ci:.{places}f}"


def _legend(ax: Any, source: Any = None) -> None:
    """The profile legend right of ``ax``, from the artists of ``source`` (default ``ax``)."""
    handles, labels = (source or ax).get_legend_handles_labels()
    order = sorted(range(len(labels)), key=lambda i: labels[i].startswith("equal share"))
    if handles:
        ax.legend(
            [handles[i] for i in order],
            [labels[i] for i in order],
            frameon=False,
            loc="upper left",
            bbox_to_anchor=(1.0, 1.0),
        )


# ---------------------------------------------------------------------------- by seat


def _seat_labels(report: dict[str, Any]) -> list[str]:
    return [f"seat {s}" for s in range(_players(report))]


def _win_by_seat(plt: Any, report: dict[str, Any]) -> Plot | None:
    profiles = [p for p, d in report["profiles"].items() if d["per_seat"]]
    if not profiles:
        return None
    seats = _seat_labels(report)
    fig, ax = plt.subplots(figsize=(8, 3.8), layout="constrained")
    _grouped_bars(
        ax,
        report,
        seats,
        lambda d: ((f"seat {r['seat']}", r["win"]) for r in d["per_seat"]),
        profiles,
    )
    _equal_share(ax, len(seats))
    ax.set_ylabel("win rate (share of games won)")
    title = "Win rate by seat"
    ax.set_title(title + " (seat 0 sits left of the dealer; turns go 0, 1, 2, …)")
    _legend(ax)
    caption = (
        f"Bars are each seat's share of the wins over {_games_text(report)} (a shared win "
        f"counts as a part); {CI_TEXT}. Seats are numbered in turn order from the dealer's "
        "left, and who opens depends on the profile's rules. A seat whose whisker stays clear "
        "of the dashed equal-share line wins more (or less) than its share."
    ) + _seating_note(report)
    return Plot("win_rate_by_seat.png", title, caption, _png(plt, fig))


@dataclass(frozen=True)
class _SeatFigure:
    """A by-seat plot of one estimate of the per-seat rows."""

    key: str  # of the per-seat rows
    has: Callable[[Iterable[dict[str, Any]]], bool]  # whether a profile's rows have it
    file: str
    title: str
    subtitle: str
    ylabel: str
    caption: str  # with {games} and {ci}
    missing: str  # why a profile without it is left out


MONEY_BY_SEAT = _SeatFigure(
    "money",
    has_money,
    "money_by_seat.png",
    "Mean money by seat",
    "what each seat wins or pays per game",
    "money per game",
    "Bars are the mean money a seat won (above zero) or paid (below) per game, over {games}; "
    "{ci}. Money shows the seat advantage in what is paid, not only in who wins; a whisker "
    "that crosses zero means the seat's gain or loss is within chance.",
    "they settle no money",
)
TOTAL_BY_SEAT = _SeatFigure(
    "total",
    has_total,
    "total_by_seat.png",
    "Mean total by seat",
    "the profile's score of a game, before money",
    "total per game (points)",
    "Bars are the mean total (the score the profile counts, such as bonuses less the points "
    "of covered cards) per game by seat, over {games}; {ci}.",
    "they keep no totals",
)


def _by_seat(plt: Any, report: dict[str, Any], figure: _SeatFigure) -> Plot | None:
    key = figure.key
    profiles = [p for p, d in report["profiles"].items() if figure.has(d["per_seat"])]
    if not profiles:
        return None
    without = [p for p in report["profiles"] if p not in profiles]
    fig, ax = plt.subplots(figsize=(8, 3.8), layout="constrained")
    _grouped_bars(
        ax,
        report,
        _seat_labels(report),
        lambda d: ((f"seat {r['seat']}", r[key]) for r in d["per_seat"] if r[key] is not None),
        profiles,
    )
    ax.axhline(0, color="#444444", lw=0.9)
    ax.set_ylabel(figure.ylabel)
    ax.set_title(f"{figure.title} ({figure.subtitle})")
    _legend(ax)
    caption = figure.caption.format(games=_games_text(report), ci=CI_TEXT)
    ranked = [p for p in profiles if report["profiles"][p].get("objective") == "points"]
    if key == "total" and ranked:
        caption += (
            f" For {', '.join(ranked)} the total is points: rank points, what a placement "
            "scoring gives each place in a game, or minus the penalty points of the cards "
            "still held (a match adds them up)."
        )
    if without:
        caption += f" Left out, as {figure.missing}: {', '.join(without)}."
    return Plot(figure.file, figure.title, caption + _seating_note(report), _png(plt, fig))


def _money_by_seat(plt: Any, report: dict[str, Any]) -> Plot | None:
    return _by_seat(plt, report, MONEY_BY_SEAT)


def _total_by_seat(plt: Any, report: dict[str, Any]) -> Plot | None:
    return _by_seat(plt, report, TOTAL_BY_SEAT)


# ---------------------------------------------------------------------------- by agent


def _per_agent(plt: Any, report: dict[str, Any]) -> Plot | None:
    agents: list[str] = []
    for d in report["profiles"].values():
        agents += [r["agent"] for r in d["per_agent"] if r["agent"] not in agents]
    if len(agents) < 2:
        return None
    profiles = [p for p, d in report["profiles"].items() if d["per_agent"]]
    money = [p for p in profiles if has_money(report["profiles"][p]["per_agent"])]
    panels = 2 if money else 1
    fig, axes = plt.subplots(
        1, panels, figsize=(4.4 * panels + 1.6, 3.8), squeeze=False, layout="constrained"
    )
    ax = axes[0][0]
    _grouped_bars(
        ax, report, agents, lambda d: ((r["agent"], r["win"]) for r in d["per_agent"]), profiles
    )
    players = _players(report)
    if players:
        _equal_share(ax, players)
    ax.set_ylabel("win rate (share of games won)")
    ax.set_title("Win rate by agent")
    if money:
        ax_money = axes[0][1]
        _grouped_bars(
            ax_money,
            report,
            agents,
            lambda d: ((r["agent"], r["money"]) for r in d["per_agent"]),
            money,
        )
        ax_money.axhline(0, color="#444444", lw=0.9)
        ax_money.set_ylabel("money per game")
        ax_money.set_title("Mean money by agent")
    _legend(axes[0][-1], axes[0][0])
    title = "Skill gap between agents"
    fig.suptitle(title + ": " + " vs ".join(agents))
    seat_games = "; ".join(
        f"{p}: " + ", ".join(f"{r['agent']} {int(r['win']['n']):,}" for r in d["per_agent"])
        for p, d in report["profiles"].items()
        if p in profiles
    )
    caption = (
        f"Bars are means over every seat an agent played (seat-games, {seat_games}); "
        f"{CI_TEXT}. The dashed line is an equal share of the wins (1/{players}); the gap "
        "between agents shows how much skill the rules reward."
    )
    if money:
        caption += " Right: money won (above zero) or paid (below) per game."
        if len(money) < len(profiles):
            left_out = ", ".join(p for p in profiles if p not in money)
            caption += f" Left out of the money panel, as they settle no money: {left_out}."
    return Plot("per_agent.png", title, caption + _seating_note(report), _png(plt, fig))


def _skill_gap(plt: Any, report: dict[str, Any]) -> Plot:
    """Each profile's skill gap in standard deviations of its objective, and each profile's
    gap less the first profile's, paired on the same deals."""
    skill = report["skill"]
    profiles = list(skill["profiles"])
    colours = _colours(report)
    fig, axes = plt.subplots(1, 2, figsize=(10, 3.8), squeeze=False, layout="constrained")
    ax = axes[0][0]
    for i, p in enumerate(profiles):
        e = skill["profiles"][p]["standardised"]
        ax.bar(i, _num(e["mean"]), yerr=_num(e["ci95"]), color=colours.get(p, PALETTE[0]),
               capsize=4)  # fmt: skip
    ax.set_xticks(range(len(profiles)), profiles)
    ax.axhline(0, color="#444444", lw=0.9)
    ax.set_ylabel("gap (standard deviations of the objective)")
    ax.set_title(f"{skill['strong']} less {skill['weak']}, per profile")
    ax = axes[0][1]
    others = list(skill["paired"])
    for i, p in enumerate(others):
        e = skill["paired"][p]
        ax.bar(i, _num(e["mean"]), yerr=_num(e["ci95"]), color=colours.get(p, PALETTE[0]),
               capsize=4)  # fmt: skip
    base = skill.get("base", profiles[0])
    ax.set_xticks(range(len(others)), [f"{p} − {base}" for p in others])
    ax.axhline(0, color="#444444", lw=0.9)
    ax.set_ylabel("difference of gaps (standard deviations)")
    ax.set_title(f"Against the baseline, {pairing_of(report)}")
    title = "Skill gap"
    fig.suptitle(f"{title}: {skill['strong']} against {skill['weak']}")
    own = "; ".join(
        f"{p}: {_pm(_num(d['utility']['mean']), _num(d['utility']['ci95']))} {d['objective']}"
        for p, d in skill["profiles"].items()
    )
    most = skill["most"] + ("" if skill["clear"] else " (not clearly, at these deals)")
    caption = (
        f"{skill['strong']} and {skill['weak']} play in alternate seats, every distinct seating "
        f"of each of {skill['deals']:,} deals, the same deals under every profile. Left: per "
        f"deal, {skill['strong']}'s mean objective less {skill['weak']}'s, divided by the "
        f"objective's standard deviation so that profiles of different objectives compare; "
        f"in each profile's own units: {own}. Right: each profile's gap less the baseline's, "
        f"deal by deal; {CI_TEXT}. Rewards skill most: {most}."
    )
    return Plot("skill_gap.png", title, caption, _png(plt, fig))


# ---------------------------------------------------------------------------- per game


def _panels(plt: Any, count: int, profiles: list[str]) -> tuple[Any, Any, bool]:
    """A figure of ``count`` small panels, three a line, each wide enough for a bar per
    profile; and whether the profile names under the bars must be turned to fit."""
    cols = min(3, count)
    lines = math.ceil(count / cols)
    width = max(2.9, 0.6 * len(profiles) + 1.4)
    fig, axes = plt.subplots(
        lines, cols, figsize=(width * cols, 2.8 * lines), squeeze=False, layout="constrained"
    )
    return fig, axes, len(profiles) > 2 or max(len(p) for p in profiles) > 10


def _per_game(plt: Any, report: dict[str, Any]) -> Plot | None:
    metrics = shown_metrics(report)
    if not metrics:
        return None
    profiles = list(report["profiles"])
    colours = _colours(report)
    fig, axes, rotate = _panels(plt, len(metrics), profiles)
    for k, ax in enumerate(axes.flat):
        if k >= len(metrics):
            ax.set_visible(False)
            continue
        m = metrics[k]
        ests = [report["profiles"][p]["per_game"][m] for p in profiles]
        means = [_num(e["mean"]) for e in ests]
        cis = [_num(e["ci95"]) for e in ests]
        ax.bar(
            range(len(profiles)),
            means,
            0.7,
            yerr=cis,
            capsize=4,
            color=[colours[p] for p in profiles],
            error_kw={"elinewidth": 1.1, "ecolor": "#222222"},
        )
        top = max(
            (
                y + (e if not math.isnan(e) else 0)
                for y, e in zip(means, cis, strict=True)
                if not math.isnan(y)
            ),
            default=0.0,
        )
        for x, (y, e) in enumerate(zip(means, cis, strict=True)):
            if not math.isnan(y):
                above = y + (0 if math.isnan(e) else e)
                ax.annotate(
                    _short(y),
                    (x, above),
                    xytext=(0, 2),
                    textcoords="offset points",
                    ha="center",
                    va="bottom",
                    fontsize=8.5,
                )
        ax.set_ylim(0, top * 1.25 if top > 0 else 1)
        ax.set_title(textwrap.fill(METRIC_LABELS.get(m, m), 26), fontsize=10)
        ax.set_xticks(range(len(profiles)))
        if rotate:
            ax.set_xticklabels(profiles, rotation=25, ha="right")
        else:
            ax.set_xticklabels(profiles)
    dropped = [m for m in METRIC_LABELS if m not in metrics]
    title = "Per-game means by profile"
    fig.suptitle(title + " (each panel has its own scale)")
    caption = (
        f"One panel per quantity, each on its own scale; bars are means per game over "
        f"{_games_text(report)} and {CI_TEXT}. Counts are summed over all players of a game: "
        "0.02 bursts per game means about 2 bursts in 100 games."
    )
    if dropped:
        names = ", ".join(METRIC_LABELS[m].split(" per game")[0] for m in dropped)
        caption += f" Never seen under any profile, so not drawn: {names}."
    return Plot("per_game.png", title, caption, _png(plt, fig))


# rules fired that the per-game plot already draws
DRAWN_PER_GAME = ("cover", "pass", "burst", "last_seven", "all_covered", "joker")


def design_plot(plt: Any, report: dict[str, Any]) -> Plot | None:
    """The design measures, one panel each, one bar per profile with its interval."""
    if "design" not in report:
        return None
    from paiqi_core.runs.design import measure_rows

    profiles = list(report["profiles"])
    rows = [
        r
        for r in measure_rows(report, profiles)
        if r["key"] != "skill_gap"
        and r["key"].removeprefix("fires:") not in DRAWN_PER_GAME
        and any(not math.isnan(_num(e["mean"])) for e in r["by"].values())
    ]
    if not rows:
        return None
    colours = _colours(report)
    fig, axes, rotate = _panels(plt, len(rows), profiles)
    for k, ax in enumerate(axes.flat):
        if k >= len(rows):
            ax.set_visible(False)
            continue
        row = rows[k]
        shown = [p for p in profiles if p in row["by"]]
        ax.bar(
            range(len(shown)),
            [_num(row["by"][p]["mean"]) for p in shown],
            0.7,
            yerr=[_num(row["by"][p]["ci95"]) for p in shown],
            capsize=4,
            color=[colours[p] for p in shown],
            error_kw={"elinewidth": 1.1, "ecolor": "#222222"},
        )
        ax.axhline(0, color="#444444", lw=0.8)
        ax.set_title(textwrap.fill(row["label"], 30), fontsize=9.5)
        ax.set_ylabel(row["unit"], fontsize=8.5)
        ax.set_xticks(range(len(shown)))
        ax.set_xticklabels(shown, rotation=25 if rotate else 0, ha="right" if rotate else "center")
    title = "Design measures by profile"
    fig.suptitle(title + " (each panel has its own scale)")
    caption = (
        f"One panel per measure, defined in docs/design.md: the first player's advantage, "
        f"how much the deal decides (with --deal-share), decisiveness, drama, game length and "
        f"its spread, and how often the special rules not drawn above fire; {CI_TEXT} (the "
        "spread of length and the deal share by a jackknife)."
    )
    return Plot("design.png", title, caption, _png(plt, fig))


def _short(x: float) -> str:
    if abs(x) >= 100:
        return f"{x:.0f}"
    if abs(x) >= 10:
        return f"{x:.1f}"
    if abs(x) >= 0.01 or x == 0:
        return f"{x:.3g}"
    return f"{x:.2g}"


# ---------------------------------------------------------------------------- paired


def _paired(plt: Any, report: dict[str, Any], other: str) -> Plot | None:
    diff = report["paired"][other]
    n = max((int(diff[k]["n"]) for k in diff), default=0)
    if n == 0:
        return None
    base = next(iter(report["profiles"]))
    colour = _colours(report)[other]
    keys = [k for k in PAIRED_LABELS if k in diff]
    keys += [k for k in diff if k not in keys and k != "winner_differs"]
    money = money_compared(report, base, other)
    if "seat0_money" in keys and not money:
        keys.remove("seat0_money")  # a profile without money: the difference means nothing
    rows = [k for k in keys if _nonzero(diff[k]["mean"]) or _nonzero(diff[k]["ci95"])]
    happened = shown_metrics({"profiles": {p: report["profiles"][p] for p in (base, other)}})
    same = [PAIRED_LABELS[k] for k in happened if k not in rows]
    title = f"{other} − {base} (baseline: {base}), {pairing_of(report)}"
    height = 0.62 * max(len(rows), 1) + 1.5
    fig, axes = plt.subplots(
        len(rows) or 1, 1, figsize=(8, height), squeeze=False, layout="constrained"
    )
    if not rows:
        ax = axes[0, 0]
        ax.text(0.5, 0.5, "no difference in any quantity", ha="center", transform=ax.transAxes)
        ax.set_axis_off()
    for ax, k in zip(axes[:, 0], rows, strict=False):
        ax.grid(False)
        ax.spines["left"].set_visible(False)
        ax.axvline(0, color="#777777", lw=1)
        mean, ci = _num(diff[k]["mean"]), _num(diff[k]["ci95"])
        ci = 0.0 if math.isnan(ci) else ci
        clear = abs(mean) > ci  # the interval leaves out zero
        ax.errorbar(
            [mean],
            [0],
            xerr=[ci],
            fmt="o",
            ms=7,
            capsize=5,
            color=colour,
            mfc=colour if clear else "white",
            mew=1.6,
            elinewidth=1.6,
        )
        reach = max(abs(mean) + ci, 1e-9) * 1.25
        ax.set_xlim(-reach, reach)
        ax.set_ylim(-1, 1)
        ax.set_yticks([0])
        ax.set_yticklabels([PAIRED_LABELS.get(k, k)], fontsize=9.5)
        ax.tick_params(axis="y", length=0)
        ax.tick_params(axis="x", labelsize=8)
        ax.locator_params(axis="x", nbins=5)
        ax.text(
            1.02,
            0.5,
            _pm(mean, ci),
            transform=ax.transAxes,
            va="center",
            fontsize=9,
            fontweight="bold" if clear else "normal",
        )
    axes[-1, 0].set_xlabel(
        f"difference per game, {other} − {base}  (left: lower under {other}; right: higher)"
    )
    wd = diff.get("winner_differs")
    sub = f"over {n:,} games"
    if wd is not None and not math.isnan(_num(wd["mean"])):
        sub += (
            f"; the same deal has a different winner in {_num(wd['mean']):.1%} "
            f"± {_num(wd['ci95']):.1%} of games"
        )
    fig.suptitle(f"{title}\n{sub}", fontsize=11)
    caption = (
        f"Each row is the mean change per game when the same deals are played under {other} "
        f"instead of the baseline {base}, with its 95% confidence interval; each row has its "
        "own scale, so read the value on the right. A filled dot (and bold value) means the "
        "interval leaves out zero, a difference beyond chance; a hollow dot means it is within "
        "chance. "
        "Quantities that never happen under either profile are not drawn."
    )
    if same:
        caption += f" Identical on every deal, so not drawn: {', '.join(same)}."
    if "seat0_money" in diff and not money:
        caption += " Seat 0's money is not compared, as one of the two settles no money."
    return Plot(f"paired_{_slug(other)}.png", title, caption, _png(plt, fig))


def _slug(text: str) -> str:
    return "".join(c if c.isalnum() or c in "-_" else "_" for c in text)


# ---------------------------------------------------------------------------- files


def write_plots(made: list[Plot], folder: Path) -> list[Path]:
    """Write each plot as a PNG file into ``folder`` (made if missing); the files."""
    folder.mkdir(parents=True, exist_ok=True)
    for p in made:
        (folder / p.name).write_bytes(p.png)
    return [folder / p.name for p in made]


def write_report(report: dict[str, Any], text: str, folder: Path) -> list[Path]:
    """Write the PNG plots and report.html into ``folder``; the files written."""
    made = plots(report)
    written = write_plots(made, folder)
    page = folder / "report.html"
    page.write_text(_html(report, text, made, _plt() is not None), encoding="utf-8")
    written.append(page)
    return written


def _html(report: dict[str, Any], text: str, made: list[Plot], plotting: bool = True) -> str:
    spec = report["spec"]
    title = f"paiqi run {report['run']}: {', '.join(spec['profiles'])}"
    parts = [
        "<!doctype html><html><head><meta charset='utf-8'>",
        f"<title>{html.escape(title)}</title>",
        "<style>body{font-family:sans-serif;max-width:980px;margin:2em auto;padding:0 1em;"
        "line-height:1.45}pre{background:#f6f6f6;padding:1em;overflow-x:auto}"
        "figure{margin:1.5em 0 2.5em}img{max-width:100%}"
        "figcaption{color:#333;font-size:0.95em;max-width:46em;margin-top:0.4em}</style>",
        f"</head><body><h1>{html.escape(title)}</h1>",
        f"<p>{html.escape(_summary(report))}</p>",
        "<h2>Run</h2><pre>" + html.escape(_spec_text(spec)) + "</pre>",
    ]
    for p in made:
        uri = "data:image/png;base64," + base64.b64encode(p.png).decode()
        parts.append(
            f"<figure id='{html.escape(p.name[:-4])}'><h2>{html.escape(p.title)}</h2>"
            f"<img src='{uri}' alt='{html.escape(p.title)}'>"
            f"<figcaption>{html.escape(p.caption)}</figcaption></figure>"
        )
    if not plotting:
        parts.append(f"<p>No plots: matplotlib is not installed ({html.escape(plot_hint())}).</p>")
    elif not made:
        parts.append("<p>No plots: the run holds no finished games yet.</p>")
    parts.append("<h2>Tables</h2><pre>" + html.escape(text) + "</pre></body></html>")
    return "\n".join(parts)


def _summary(report: dict[str, Any]) -> str:
    spec = report["spec"]
    profiles = list(report["profiles"])
    agents = list(spec.get("agents") or [])
    who = ", ".join(f"seat {s}: {a}" for s, a in enumerate(agents)) if agents else "random"
    text = (
        f"{spec.get('games', 0):,} deals, each played under every profile "
        f"({', '.join(profiles)}; {_games_text(report)}), agents {who}"
        + (", rotated round the seats" if spec.get("rotate") else "")
        + ". Figures are means with 95% confidence intervals."
    )
    if len(profiles) > 1:
        text += (
            f" Differences are against the baseline {profiles[0]} (the first profile named), "
            "paired game by game on the same deals."
        )
    return text


def _spec_text(spec: dict[str, Any]) -> str:
    def value(v: Any) -> str:
        return ", ".join(map(str, v)) or "-" if isinstance(v, list | tuple) else str(v)

    return "\n".join(f"{k}: {value(v)}" for k, v in sorted(spec.items()))
