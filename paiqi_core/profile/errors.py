"""Errors that point at the author's text: ``FILE:LINE:COL: json.path: message``."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

Path_ = tuple[str | int, ...]


def format_path(path: Sequence[str | int]) -> str:
    """A rule path as text: ``scoring.head_amounts.big``, ``closure_bonus[2]``."""
    out = ""
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += ("." if out else "") + str(part)
    return out or "(root)"


@dataclass(frozen=True)
class Location:
    """A place in a source text: file, line and column (1-based)."""

    file: str
    line: int  # 1-based
    col: int  # 1-based

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.col}"


@dataclass(frozen=True)
class Problem:
    """One located problem: where, which rule, and what is wrong."""

    location: Location
    path: Path_
    message: str
    note: str = ""

    def __str__(self) -> str:
        text = f"{self.location}: {format_path(self.path)}: {self.message}"
        return f"{text} ({self.note})" if self.note else text


class ProfileError(ValueError):
    """A profile (or override) that cannot be used; carries every located problem."""

    def __init__(self, problems: Sequence[Problem]) -> None:
        self.problems = tuple(sorted(problems, key=_order))
        super().__init__("\n".join(str(p) for p in self.problems))

    def __reduce__(self) -> tuple[type[ProfileError], tuple[tuple[Problem, ...]]]:
        # rebuilt from its problems (not its message), e.g. when raised in a worker process
        return (type(self), (self.problems,))


def _order(p: Problem) -> tuple[str, int, int, str]:
    return (p.location.file, p.location.line, p.location.col, p.message)
