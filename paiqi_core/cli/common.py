"""What every command shares: exit statuses, bad input, output helpers, profile loading."""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from typing import Any

from paiqi_core import resources
from paiqi_core.engine import Game
from paiqi_core.profile import load_profile
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
    """Compiled games of the named profiles (default: every built-in profile)."""
    return [Game(load_profile(n, overrides)) for n in (names or list(resources.builtin_profiles()))]


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
