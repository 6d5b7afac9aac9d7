"""The training curves of ``paiqi train --plot FILE``: how well the belief places held-out
cards after each pass over the rows, round by round, against the uniform belief.

Two panels share the passes: the mean probability the model gives each held-out card's
true place, and the share of cards whose likeliest place is the true one; a dashed line
marks the uniform belief's figure, so the gain the model makes is read off at once. A
third shows the training loss. Needs matplotlib (the ``plots`` extra).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from paiqi_core.learn.fit import Epoch, Measure
from paiqi_core.runs.report import PALETTE, STYLE, _plt, plot_hint

ROUNDS = ("round 1: rule-based players", "round 2: with expert players")


def rounds_of(epochs: Sequence[Epoch]) -> list[list[Epoch]]:
    """The passes split into the fits they belong to (each fit counts from pass 1)."""
    out: list[list[Epoch]] = []
    for epoch in epochs:
        if epoch.epoch == 1 or not out:
            out.append([])
        out[-1].append(epoch)
    return out


def plot_curves(epochs: Sequence[Epoch], uniform: Measure | None, path: Path, title: str) -> None:
    """Write the curves of ``epochs`` as a PNG at ``path`` (RuntimeError without
    matplotlib: the caller checks ``_plt()`` before training)."""
    plt = _plt()
    if plt is None:
        raise RuntimeError(plot_hint())
    panels = (
        ("true place (held out)", lambda e: e.held.p_true, "p_true"),
        ("likeliest right (held out)", lambda e: e.held.top, "top"),
        ("training loss", lambda e: e.loss, None),
    )
    with plt.rc_context(STYLE):
        fig, axes = plt.subplots(1, 3, figsize=(11, 3.4), constrained_layout=True)
        for ax, (label, value, field) in zip(axes, panels, strict=True):
            for i, fit in enumerate(rounds_of(epochs)):
                ax.plot(
                    [e.epoch for e in fit],
                    [value(e) for e in fit],
                    color=PALETTE[i % len(PALETTE)],
                    marker="o" if len(fit) < 30 else None,
                    markersize=3,
                    label=ROUNDS[i] if i < len(ROUNDS) else f"fit {i + 1}",
                )
            if field is not None and uniform is not None:
                ax.axhline(getattr(uniform, field), color="#555555", linestyle="--",
                           linewidth=1, label="uniform belief")  # fmt: skip
            ax.set_title(label)
            ax.set_xlabel("pass over the rows")
        axes[0].legend(loc="lower right")
        fig.suptitle(title)
        fig.savefig(path, dpi=110)
        plt.close(fig)
