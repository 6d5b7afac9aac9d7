"""Plain-text tables and a progress line for the terminal."""

from __future__ import annotations

import sys
import time
import unicodedata
from collections.abc import Sequence
from types import TracebackType
from typing import Any


def width(text: str) -> int:
    """Columns a string takes in a terminal (CJK characters take two)."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def _pad(text: str, w: int, right: bool) -> str:
    fill = " " * (w - width(text))
    return fill + text if right else text + fill


def table(head: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    """A plain-text table with aligned columns (numbers to the right)."""
    cells = [[str(h) for h in head]] + [[str(c) for c in r] for r in rows]
    widths = [max(width(r[i]) for r in cells) for i in range(len(head))]

    def line(r: list[str]) -> str:
        return "  ".join(_pad(c, w, _numeric(c)) for c, w in zip(r, widths, strict=True)).rstrip()

    rule = "  ".join("-" * w for w in widths)
    return "\n".join([line(cells[0]), rule, *(line(r) for r in cells[1:])])


def _numeric(text: str) -> bool:
    return text.replace(".", "", 1).lstrip("+-").isdigit()


class Progress:
    """A one-line progress bar with rate and ETA on stderr (only on a terminal)."""

    def __init__(self, total: int, label: str, *, enabled: bool = True) -> None:
        self.total, self.label = total, label
        self.enabled = enabled and sys.stderr.isatty()
        self.start = time.perf_counter()
        self.last = 0.0

    def __enter__(self) -> Progress:
        return self

    def update(self, done: int) -> None:
        """Show ``done`` of the total (at most ten times a second)."""
        if not self.enabled:
            return
        now = time.perf_counter()
        if now - self.last < 0.1 and done < self.total:
            return
        self.last = now
        rate = done / max(now - self.start, 1e-9)
        eta = (self.total - done) / rate if rate else 0
        filled = int(30 * done / self.total)
        sys.stderr.write(
            f"\r{self.label:>12} [{'#' * filled}{'.' * (30 - filled)}] "
            f"{done}/{self.total} {rate:,.0f}/s ETA {eta:4.0f}s"
        )
        sys.stderr.flush()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if self.enabled:
            sys.stderr.write("\n")


class Status:
    """A one-line note of work under way on stderr, such as ``report: computing the
    figures...``, shown only on a terminal (like ``Progress``) and erased when the work
    ends, so that a phase without a count is not silent."""

    def __init__(self, text: str, *, enabled: bool = True) -> None:
        self.text = text
        self.enabled = enabled and sys.stderr.isatty()

    def __enter__(self) -> Status:
        if self.enabled:
            sys.stderr.write(self.text)
            sys.stderr.flush()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if self.enabled:
            sys.stderr.write("\r" + " " * width(self.text) + "\r")
            sys.stderr.flush()
