"""``paiqi replay``: re-run game records."""

from __future__ import annotations

import argparse
from pathlib import Path

from paiqi_core.cli.common import EXIT_BAD_INPUT, EXIT_FAILED, EXIT_OK, BadInput, err
from paiqi_core.profile import Location, ProfileError


def cmd_replay(args: argparse.Namespace) -> int:
    """``paiqi replay``: re-run records and report every disagreement."""
    from paiqi_core.records import read_records, record_game, replay

    if args.max_line_bytes < 1:
        raise BadInput(f"--max-line-bytes: {args.max_line_bytes} is not a positive number of bytes")
    bad = failed = ok = 0
    for name in args.files:
        path = Path(name)
        if path.is_dir() or not path.exists():  # a pipe (<(zcat games.jsonl.gz)) is read
            what = "a folder, not a file" if path.is_dir() else "no such file"
            err(f"{name}:1:1: (root): {what}")
            bad += 1
            continue
        for item in read_records(path, max_line_bytes=args.max_line_bytes):
            if isinstance(item, ProfileError):
                err(str(item))
                bad += 1
                continue
            try:
                game = record_game(item.data, Location(name, item.line, 1))
            except ProfileError as e:
                err(str(e))
                bad += 1
                continue
            problems = replay(item.data, game)
            if problems:
                failed += 1
                print(f"FAIL {name}:{item.line}")
                for p in problems:
                    print(f"    {p}")
            else:
                ok += 1
    print(f"{ok} replayed exactly, {failed} disagreed, {bad} malformed")
    if bad:
        return EXIT_BAD_INPUT
    return EXIT_FAILED if failed else EXIT_OK
