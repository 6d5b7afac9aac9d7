"""``paiqi replay``: re-run game records."""

from __future__ import annotations

import argparse
from pathlib import Path

from paiqi_core.cli.common import EXIT_BAD_INPUT, EXIT_FAILED, EXIT_OK, BadInput, err
from paiqi_core.profile import ProfileError


def cmd_replay(args: argparse.Namespace) -> int:
    """``paiqi replay``: re-run records and report every disagreement."""
    from paiqi_core.records import read_records, replay

    bad = failed = ok = 0
    for path in args.files:
        if not Path(path).is_file():
            raise BadInput(f"{path}:1:1: (root): no such file")
        for item in read_records(Path(path)):
            if isinstance(item, ProfileError):
                err(str(item))
                bad += 1
                continue
            try:
                problems = replay(item.data)
            except ProfileError as e:
                err(f"{path}:{item.line}:1: profile: {e}")
                bad += 1
                continue
            if problems:
                failed += 1
                print(f"FAIL {path}:{item.line}")
                for p in problems:
                    print(f"    {p}")
            else:
                ok += 1
    print(f"{ok} replayed exactly, {failed} disagreed, {bad} malformed")
    if bad:
        return EXIT_BAD_INPUT
    return EXIT_FAILED if failed else EXIT_OK
