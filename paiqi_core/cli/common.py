"""What every command shares: exit statuses, bad input, output helpers, profile loading."""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from typing import Any

from paiqi_core import resources
from paiqi_core.engine import Game
from paiqi_core.profile import ProfileError, load_profile
from paiqi_core.textui import Progress

EXIT_OK, EXIT_FAILED, EXIT_BAD_INPUT = 0, 1, 2
FAMILIES = resources.families()  # one built-in profile a family


class BadInput(Exception):
    """Input that cannot be used; the message is already located."""


def err(message: str) -> None:
    """Write a line to stderr."""
    print(message, file=sys.stderr)


def print_json(data: Any) -> None:
    """Print data as indented JSON."""
    print(json.dumps(data, ensure_ascii=False, indent=2, default=str))


def load_games(names: Sequence[str], overrides: Sequence[str]) -> list[Game]:
    """Compiled games of the named profiles. With none named, every built-in profile that
    takes ``overrides``: one whose rules refuse them (a joker where the stock lies face
    down, say) is left out, with a line on stderr saying why; where none takes them, the
    first one's error stands."""
    if names:
        return [Game(load_profile(n, overrides)) for n in names]
    games: list[Game] = []
    refused: list[tuple[str, ProfileError]] = []
    for name in resources.builtin_profiles():
        try:
            games.append(Game(load_profile(name, overrides)))
        except ProfileError as e:
            if not overrides:
                raise
            refused.append((name, e))
    if not games:
        raise refused[0][1]
    for name, refusal in refused:
        err(f"note: {name} left out: {refusal.problems[0].message}")
    return games


class AboveProgress:
    """A text stream written to while a progress bar shows on stderr (both often the same
    terminal): each write first clears the bar's line; the bar is drawn again at its next
    update."""

    def __init__(self, stream: Any, bar: Progress) -> None:
        self.stream, self.bar = stream, bar

    def write(self, text: str) -> int:
        """Clear the bar's line, then write ``text``."""
        if self.bar.enabled:
            sys.stderr.write("\r\x1b[K")
            self.bar.last = 0.0
        written: int = self.stream.write(text)
        return written

    def flush(self) -> None:
        """Flush the stream."""
        self.stream.flush()
