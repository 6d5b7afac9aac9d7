"""Reports of a stored run: terminal tables, PNG plots and one self-contained HTML page.

Plots need matplotlib (``pip install 'paiqi[plots]'``); without it the tables are still
written and the report says how to get the plots.
"""

from __future__ import annotations

import base64
import html
import io
from pathlib import Path
from typing import Any

PLOT_EXTRA = "pip install 'paiqi[plots]'"


def _plt() -> Any:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return None
    return plt


def figures(report: dict[str, Any]) -> dict[str, bytes]:
    """PNG images of the report, by file name (empty without matplotlib)."""
    plt = _plt()
    if plt is None:
        return {}
    out: dict[str, bytes] = {}
    profiles = list(report["profiles"])

    def save(name: str, fig: Any) -> None:
        buf = io.BytesIO()
        fig.tight_layout()
        fig.savefig(buf, format="png", dpi=110)
        plt.close(fig)
        out[name] = buf.getvalue()

    fig, ax = plt.subplots(figsize=(7, 3.6))
    width = 0.8 / len(profiles)
    for i, p in enumerate(profiles):
        seats = report["profiles"][p]["per_seat"]
        xs = [s["seat"] + i * width for s in seats]
        ax.bar(xs, [s["win"]["mean"] for s in seats], width, label=p,
               yerr=[s["win"]["ci95"] for s in seats], capsize=3)  # fmt: skip
    ax.set_xticks([s + 0.4 - width / 2 for s in range(len(seats))])
    ax.set_xticklabels([f"seat {s}" for s in range(len(seats))])
    ax.set_ylabel("win rate (95% CI)")
    ax.set_title("Win rate by seat")
    ax.legend(fontsize=8)
    save("win_rate_by_seat.png", fig)

    metrics = [m for m in report["profiles"][profiles[0]]["per_game"]
               if any(report["profiles"][p]["per_game"][m]["mean"] for p in profiles)]  # fmt: skip
    fig, ax = plt.subplots(figsize=(7, 3.6))
    for i, p in enumerate(profiles):
        per_game = report["profiles"][p]["per_game"]
        xs = [j + i * width for j in range(len(metrics))]
        ax.bar(xs, [per_game[m]["mean"] for m in metrics], width, label=p,
               yerr=[per_game[m]["ci95"] for m in metrics], capsize=3)  # fmt: skip
    ax.set_xticks([j + 0.4 - width / 2 for j in range(len(metrics))])
    ax.set_xticklabels(metrics, rotation=30, ha="right", fontsize=8)
    ax.set_ylabel("per game (95% CI)")
    ax.set_title("Game length, stuck players and events")
    ax.legend(fontsize=8)
    save("per_game.png", fig)

    for other, diff in report.get("paired", {}).items():
        counts = [k for k in diff if k not in ("winner_differs", "seat0_money")
                  and (diff[k]["mean"] or diff[k]["ci95"])]  # fmt: skip
        fig, (ax, ax_money) = plt.subplots(
            1, 2, figsize=(8, 3.6), gridspec_kw={"width_ratios": [3, 1]}
        )
        ax.errorbar([diff[k]["mean"] for k in counts], range(len(counts)),
                    xerr=[diff[k]["ci95"] for k in counts], fmt="o", capsize=3)  # fmt: skip
        ax.set_yticks(range(len(counts)))
        ax.set_yticklabels(counts, fontsize=8)
        ax.set_title(f"{other} − {profiles[0]}, per game", fontsize=10)
        money = diff["seat0_money"]
        ax_money.errorbar([money["mean"]], [0], xerr=[money["ci95"]], fmt="o", capsize=3)
        ax_money.set_yticks([0])
        ax_money.set_yticklabels(["seat 0 money"], fontsize=8)
        ax_money.set_title("money", fontsize=10)
        for a in (ax, ax_money):
            a.axvline(0, color="grey", lw=0.8)
        save(f"paired_{_slug(other)}.png", fig)
    return out


def _slug(text: str) -> str:
    return "".join(c if c.isalnum() or c in "-_" else "_" for c in text)


def write_report(report: dict[str, Any], text: str, folder: Path) -> list[Path]:
    """Write the PNG plots and report.html into ``folder``; the files written."""
    folder.mkdir(parents=True, exist_ok=True)
    images = figures(report)
    written = []
    for name, data in images.items():
        (folder / name).write_bytes(data)
        written.append(folder / name)
    page = folder / "report.html"
    page.write_text(_html(report, text, images), encoding="utf-8")
    written.append(page)
    return written


def _html(report: dict[str, Any], text: str, images: dict[str, bytes]) -> str:
    spec = report["spec"]
    title = f"paiqi run {report['run']}: {', '.join(spec['profiles'])}"
    parts = [
        "<!doctype html><html><head><meta charset='utf-8'>",
        f"<title>{html.escape(title)}</title>",
        "<style>body{font-family:sans-serif;max-width:960px;margin:2em auto;padding:0 1em}"
        "pre{background:#f6f6f6;padding:1em;overflow-x:auto}img{max-width:100%}</style>",
        f"</head><body><h1>{html.escape(title)}</h1>",
        "<p>Every deal was played under each profile; per-seat and per-game figures are "
        "means with 95% confidence intervals, and the differences are paired game by game "
        "on the same deals.</p>",
        "<h2>Run</h2><pre>" + html.escape(_spec_text(spec)) + "</pre>",
    ]
    for name, data in images.items():
        uri = "data:image/png;base64," + base64.b64encode(data).decode()
        parts.append(f"<h2>{html.escape(name[:-4].replace('_', ' '))}</h2><img src='{uri}'>")
    if not images:
        parts.append(f"<p>No plots: matplotlib is not installed ({html.escape(PLOT_EXTRA)}).</p>")
    parts.append("<h2>Tables</h2><pre>" + html.escape(text) + "</pre></body></html>")
    return "\n".join(parts)


def _spec_text(spec: dict[str, Any]) -> str:
    return "\n".join(f"{k}: {v}" for k, v in sorted(spec.items()))
