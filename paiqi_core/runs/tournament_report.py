"""The report of a tournament: a ratings plot, a head-to-head plot, the design measures of
its games and one HTML page.

Drawn from the data of ``paiqi_core.runs.tournament.tournament_report`` alone; plots need
matplotlib, as the other reports do.
"""

from __future__ import annotations

import base64
import html
from pathlib import Path
from typing import Any

from paiqi_core.runs.report import (
    CI_TEXT,
    PALETTE,
    STYLE,
    Plot,
    _plt,
    _png,
    design_plot,
    plot_hint,
    write_plots,
)

UNITS = {"money": "money per game", "points": "points per game", "win": "win share"}


def tournament_plots(report: dict[str, Any]) -> list[Plot]:
    """The ratings, the head-to-head edges and the design measures of the games played
    (empty without matplotlib)."""
    plt = _plt()
    if plt is None or not report["head_to_head"]:
        return []
    with plt.rc_context(STYLE):
        made = [_ratings(plt, report), _head_to_head(plt, report)]
        design = report.get("design")
        if design:  # one rule set: every pairing's games pooled
            pooled = {"design": design, "profiles": list(design["rule_sets"])}
            plot = design_plot(plt, pooled)
            if plot is not None:
                made.append(plot)
        return made


def _ratings(plt: Any, report: dict[str, Any]) -> Plot:
    ratings = sorted(report["ratings"], key=lambda r: r["elo"])
    fig, ax = plt.subplots(figsize=(7, 0.5 * len(ratings) + 1.4), layout="constrained")
    ax.barh(
        [r["agent"] for r in ratings],
        [r["elo"] for r in ratings],
        xerr=[r["ci95"] or 0 for r in ratings],
        color=PALETTE[0],
        capsize=3,
    )
    ax.axvline(0, color="#444444", lw=0.9)
    ax.set_xlabel("Elo (first player named at 0)")
    ax.set_title("Ratings")
    caption = (
        "Bradley-Terry ratings on an Elo scale, fitted to the deals each player did better "
        f"on than its opponent (a tie counts half); {CI_TEXT}, relative to the first player "
        f"named ({report['spec']['agents'][0]}), which has none."
    )
    return Plot("ratings.png", "Ratings", caption, _png(plt, fig))


def _head_to_head(plt: Any, report: dict[str, Any]) -> Plot:
    pairs = report["head_to_head"]
    fig, ax = plt.subplots(figsize=(7, 0.5 * len(pairs) + 1.4), layout="constrained")
    labels = [f"{h['a']} − {h['b']}" for h in pairs]
    ax.barh(
        labels,
        [h["edge"]["mean"] for h in pairs],
        xerr=[h["edge"]["ci95"] for h in pairs],
        color=[PALETTE[1] if h["edge"]["mean"] >= 0 else PALETTE[2] for h in pairs],
        capsize=3,
    )
    ax.axvline(0, color="#444444", lw=0.9)
    unit = UNITS[report["objective"]]
    ax.set_xlabel(f"edge per deal ({unit})")
    ax.set_title("Head to head")
    caption = (
        f"Each bar is the first player's mean {unit} less the second's, per deal, over "
        f"{pairs[0]['deals']:,} deals played by both with the seats rotated; {CI_TEXT}. A "
        "whisker clear of zero means one player is better at this table."
    )
    return Plot("head_to_head.png", "Head to head", caption, _png(plt, fig))


def write_tournament_report(report: dict[str, Any], text: str, folder: Path) -> list[Path]:
    """Write the plots and report.html into ``folder``; the files written."""
    made = tournament_plots(report)
    written = write_plots(made, folder)
    title = f"paiqi tournament {report['run']}: {', '.join(report['spec']['agents'])}"
    parts = [
        "<!doctype html><html><head><meta charset='utf-8'>",
        f"<title>{html.escape(title)}</title>",
        "<style>body{font-family:sans-serif;max-width:980px;margin:2em auto;padding:0 1em}"
        "pre{background:#f6f6f6;padding:1em;overflow-x:auto}img{max-width:100%}"
        "figcaption{color:#333;font-size:0.95em;max-width:46em}</style>",
        f"</head><body><h1>{html.escape(title)}</h1>",
    ]
    for p in made:
        uri = "data:image/png;base64," + base64.b64encode(p.png).decode()
        parts.append(
            f"<figure><h2>{html.escape(p.title)}</h2><img src='{uri}' "
            f"alt='{html.escape(p.title)}'><figcaption>{html.escape(p.caption)}</figcaption>"
            "</figure>"
        )
    if _plt() is None:
        parts.append(f"<p>No plots: matplotlib is not installed ({html.escape(plot_hint())}).</p>")
    parts.append("<h2>Tables</h2><pre>" + html.escape(text) + "</pre></body></html>")
    page = folder / "report.html"
    page.write_text("\n".join(parts), encoding="utf-8")
    written.append(page)
    return written
