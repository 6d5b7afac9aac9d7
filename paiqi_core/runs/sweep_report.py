"""The report of a sweep: every measure against the varied value, the rules fired, and the
differences from the baseline, as PNG plots and one HTML page.

Drawn from the data of ``paiqi_core.runs.sweep.sweep_report`` alone; plots need
matplotlib, as the other reports do. With one varied rule the values run along the x axis
(spaced by value when every value is a number); with two, the first runs along the axis
and the second gives one line per value; with more, the points are named along the axis.
"""

from __future__ import annotations

import base64
import html
import math
import textwrap
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from paiqi_core.runs.design import identical
from paiqi_core.runs.report import (
    CI_TEXT,
    PALETTE,
    STYLE,
    Plot,
    _pm,
    _png,
    _spec_text,
    plot_hint,
    plots_available,
    write_plots,
)


def _number(text: str) -> float | None:
    try:
        value = float(text)
    except ValueError:
        return None
    return value if math.isfinite(value) else None


class _Axis:
    """Where each point of a sweep sits: its x position and its line (a grid's second
    rule), with the axis's tick labels and title."""

    def __init__(self, report: dict[str, Any]) -> None:
        vary = report["vary"]
        points = report["points"]
        self.names = list(points)
        first = vary[0]
        numbers = [_number(v) for v in first["values"]]
        numeric = len(vary) <= 2 and all(n is not None for n in numbers)
        if len(vary) <= 2:
            values = list(first["values"])
            self.ticks = [n if numeric and n is not None else float(i)
                          for i, n in enumerate(numbers)]  # fmt: skip
            self.labels = values
            self.x = {n: self.ticks[values.index(points[n][first["rule"]])] for n in self.names}
            self.title = first["rule"]
        else:
            self.ticks = [float(i) for i in range(len(self.names))]
            self.labels = [", ".join(points[n].values()) for n in self.names]
            self.x = {n: float(i) for i, n in enumerate(self.names)}
            self.title = ", ".join(v["rule"] for v in vary)
        if len(vary) == 2:
            second = vary[1]
            self.lines = {f"{second['rule']}={v}": [n for n in self.names
                          if points[n][second["rule"]] == v] for v in second["values"]}  # fmt: skip
        else:
            self.lines = {"": self.names}


def sweep_plots(report: dict[str, Any]) -> list[Plot]:
    """The plots of a sweep (empty without matplotlib, or before any game is played)."""
    from paiqi_core.runs.report import _plt

    plt = _plt()
    rows = report["measures"]
    if plt is None or not rows:
        return []
    measures = [r for r in rows if not r["key"].startswith("fires:")]
    fired = [r for r in rows if r["key"].startswith("fires:")]
    axis = _Axis(report)
    out = []
    with plt.rc_context(STYLE):
        if measures:
            out.append(_measures(plt, report, axis, measures, "measures.png", "Design measures"))
        if fired:
            out.append(_measures(plt, report, axis, fired, "rules_fired.png", "Rules fired"))
        differences = [r for r in rows if r["diff"] and not identical(r)]
        if differences:
            same = [r["label"] for r in rows if identical(r)]
            out.append(_differences(plt, report, axis, differences, same))
    return out


def _grid(plt: Any, count: int, width: float = 3.4, height: float = 2.7) -> tuple[Any, Any]:
    cols = min(3, count)
    rows = math.ceil(count / cols)
    fig, axes = plt.subplots(
        rows, cols, figsize=(width * cols, height * rows + 0.6), squeeze=False,
        layout="constrained",
    )  # fmt: skip
    for k, ax in enumerate(axes.flat):
        if k >= count:
            ax.set_visible(False)
    return fig, axes.flat


def _ticks(ax: Any, axis: _Axis) -> None:
    ax.set_xticks(axis.ticks)
    long = max((len(label) for label in axis.labels), default=0) > 6
    ax.set_xticklabels(axis.labels, rotation=30 if long else 0, ha="right" if long else "center")


def _measures(
    plt: Any, report: dict[str, Any], axis: _Axis, rows: Sequence[dict[str, Any]], name: str,
    title: str,
) -> Plot:  # fmt: skip
    fig, axes = _grid(plt, len(rows))
    base = report["baseline"]
    for ax, row in zip(axes, rows, strict=False):
        for i, (line, members) in enumerate(axis.lines.items()):
            pts = [n for n in members if n in row["by"]]
            xs = [axis.x[n] for n in pts]
            ys = [_mean(row["by"][n]) for n in pts]
            es = [_ci(row["by"][n]) for n in pts]
            colour = PALETTE[i % len(PALETTE)]
            ax.errorbar(xs, ys, yerr=es, fmt="-o", ms=4.5, capsize=3, color=colour, lw=1.4,
                        label=line or None)  # fmt: skip
            if base in pts:
                ax.plot([axis.x[base]], [_mean(row["by"][base])], "s", ms=9, mfc="none",
                        mec="#222222", mew=1.3)  # fmt: skip
        if row["key"] in ("seat_advantage", "seat_advantage_objective", "skill_gap"):
            ax.axhline(0, color="#777777", lw=1)  # no advantage, no gap
        ax.set_title(textwrap.fill(row["label"], 34), fontsize=9.5)
        ax.set_ylabel(row["unit"], fontsize=8.5)
        _ticks(ax, axis)
        ax.set_xlabel(axis.title, fontsize=8.5)
        if len(axis.lines) > 1:
            ax.legend(fontsize=7.5, frameon=False)
    fig.suptitle(f"{title} of {report['profile']} against {axis.title}")
    games = report["spec"]["games"]
    caption = (
        f"One panel per quantity, each on its own scale: the mean of each value over "
        f"{games:,} deals (the same deals for every value), with {CI_TEXT}. The square marks "
        f"the baseline ({base}). Definitions: docs/design.md."
    )
    if name == "rules_fired.png":
        caption += " Counts are per game, over all players of a game."
    if report.get("deals_differ"):
        caption += " The values deal from different decks, so their deals are not the same hands."
    return Plot(name, f"{title} against {axis.title}", caption, _png(plt, fig))


def _differences(
    plt: Any,
    report: dict[str, Any],
    axis: _Axis,
    rows: Sequence[dict[str, Any]],
    same: Sequence[str],
) -> Plot:
    fig, axes = _grid(plt, len(rows))
    base = report["baseline"]
    for ax, row in zip(axes, rows, strict=False):
        ax.axhline(0, color="#777777", lw=1)
        for i, (_, members) in enumerate(axis.lines.items()):
            colour = PALETTE[i % len(PALETTE)]
            for n in members:
                d = row["diff"].get(n)
                if d is None:
                    continue
                mean, ci = _mean(d), _ci(d)
                clear = not math.isnan(ci) and abs(mean) > ci
                ax.errorbar([axis.x[n]], [mean], yerr=[ci], fmt="o", ms=5, capsize=3,
                            color=colour, mfc=colour if clear else "white", mew=1.3)  # fmt: skip
        ax.set_title(textwrap.fill(row["label"], 34), fontsize=9.5)
        ax.set_ylabel(f"difference ({row['unit']})", fontsize=8.5)
        _ticks(ax, axis)
        ax.set_xlabel(axis.title, fontsize=8.5)
    fig.suptitle(f"Differences from the baseline {base}, paired on the same deals")
    caption = (
        f"Each point is a value's mean less the baseline's ({base}), game by game on the same "
        f"deals (the deal share and the skill gap deal by deal, the spread of length by a "
        f"jackknife over games), with {CI_TEXT}. A filled point's interval leaves out zero: a "
        "difference beyond chance; a hollow point's is within chance."
    )
    if same:
        caption += f" The same on every deal under every value, so not drawn: {'; '.join(same)}."
    if report.get("deals_differ"):
        caption += " The values deal from different decks, so the pairs are not the same hands."
    return Plot("differences.png", f"Differences from {base}", caption, _png(plt, fig))


def _mean(e: dict[str, Any]) -> float:
    return math.nan if e.get("mean") is None else float(e["mean"])


def _ci(e: dict[str, Any]) -> float:
    v = e.get("ci95")
    return math.nan if v is None else float(v)


def write_sweep_report(report: dict[str, Any], text: str, folder: Path) -> list[Path]:
    """Write the plots and report.html into ``folder``; the files written."""
    made = sweep_plots(report)
    written = write_plots(made, folder)
    vary = "; ".join(f"{v['rule']} = {', '.join(v['values'])}" for v in report["vary"])
    title = f"paiqi sweep {report['run']}: {report['profile']}, {vary}"
    parts = [
        "<!doctype html><html><head><meta charset='utf-8'>",
        f"<title>{html.escape(title)}</title>",
        "<style>body{font-family:sans-serif;max-width:1080px;margin:2em auto;padding:0 1em;"
        "line-height:1.45}pre{background:#f6f6f6;padding:1em;overflow-x:auto}"
        "img{max-width:100%}figcaption{color:#333;font-size:0.95em;max-width:52em}</style>",
        f"</head><body><h1>{html.escape(title)}</h1>",
        f"<p>{html.escape(_summary(report))}</p>",
        "<h2>Run</h2><pre>" + html.escape(_spec_text(report["spec"])) + "</pre>",
    ]
    for p in made:
        uri = "data:image/png;base64," + base64.b64encode(p.png).decode()
        parts.append(
            f"<figure id='{html.escape(p.name[:-4])}'><h2>{html.escape(p.title)}</h2>"
            f"<img src='{uri}' alt='{html.escape(p.title)}'>"
            f"<figcaption>{html.escape(p.caption)}</figcaption></figure>"
        )
    if not plots_available():
        parts.append(f"<p>No plots: matplotlib is not installed ({html.escape(plot_hint())}).</p>")
    elif not made:
        parts.append("<p>No plots: the run holds no finished games yet.</p>")
    parts.append("<h2>Tables</h2><pre>" + html.escape(text) + "</pre></body></html>")
    page = folder / "report.html"
    page.write_text("\n".join(parts), encoding="utf-8")
    written.append(page)
    return written


def _summary(report: dict[str, Any]) -> str:
    spec = report["spec"]
    agents = ",".join(spec.get("agents") or []) or "random"
    rows = report["measures"]
    seat = next((r for r in rows if r["key"] == "seat_advantage"), None)
    text = (
        f"{report['profile']} played with {len(report['points'])} rule sets on the same "
        f"{spec['games']:,} deals each, agents {agents}. Figures are means with 95% "
        f"confidence intervals; differences are against the baseline {report['baseline']}, "
        "paired game by game on the same deals."
    )
    if seat is not None:
        base = report["baseline"]
        if base in seat["by"]:
            edge = _pm(_mean(seat["by"][base]), _ci(seat["by"][base]))
            text += f" At the baseline the first player's edge in win rate is {edge}."
    return text
