"""``paiqi replay``: re-run game records."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from paiqi_core.cli.common import EXIT_BAD_INPUT, EXIT_FAILED, EXIT_OK, AboveProgress, BadInput
from paiqi_core.profile import Location, ProfileError
from paiqi_core.textui import Progress


def cmd_replay(args: argparse.Namespace) -> int:
    """``paiqi replay``: re-run records and report every disagreement."""
    from paiqi_core.records import read_records, record_game, replay

    if args.max_line_bytes < 1:
        raise BadInput(f"--max-line-bytes: {args.max_line_bytes} is not a positive number of bytes")
    bad = failed = ok = 0
    files = [Path(name) for name in args.files]
    total = _lines(files)
    with Progress(total or 1, "replay", enabled=not args.quiet and total is not None) as bar:
        out = AboveProgress(sys.stdout, bar)
        before = 0  # lines of the files already replayed
        for name, path in zip(args.files, files, strict=True):
            if path.is_dir() or not path.exists():  # a pipe (<(zcat games.jsonl.gz)) is read
                what = "a folder, not a file" if path.is_dir() else "no such file"
                _error(bar, f"{name}:1:1: (root): {what}")
                bad += 1
                continue
            for item in read_records(path, max_line_bytes=args.max_line_bytes):
                if isinstance(item, ProfileError):
                    _error(bar, str(item))
                    bad += 1
                    bar.update(min(before + item.problems[0].location.line, bar.total))
                    continue
                bar.update(min(before + item.line, bar.total))
                try:
                    game = record_game(item.data, Location(name, item.line, 1))
                except ProfileError as e:
                    _error(bar, str(e))
                    bad += 1
                    continue
                problems = replay(item.data, game)
                if problems:
                    failed += 1
                    out.write(f"FAIL {name}:{item.line}\n")
                    for p in problems:
                        out.write(f"    {p}\n")
                else:
                    ok += 1
            if total is not None:
                before += _count(path)
    print(f"{ok} replayed exactly, {failed} disagreed, {bad} malformed")
    if bad:
        return EXIT_BAD_INPUT
    return EXIT_FAILED if failed else EXIT_OK


def _error(bar: Progress, text: str) -> None:
    """A located error on stderr, above the progress bar."""
    AboveProgress(sys.stderr, bar).write(text + "\n")


def _count(path: Path) -> int:
    """The lines of a regular file (a last line without its newline counts)."""
    count = 0
    last = b"\n"
    with open(path, "rb") as f:
        while chunk := f.read(1 << 20):
            count += chunk.count(b"\n")
            last = chunk[-1:]
    return count + (last != b"\n")


def _lines(paths: list[Path]) -> int | None:
    """The lines of all the files, for the progress bar; None if one is not a regular
    file (a pipe is read once) or cannot be read."""
    try:
        if not all(p.is_file() for p in paths):
            return None
        return sum(_count(p) for p in paths)
    except OSError:
        return None
