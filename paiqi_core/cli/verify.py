"""``paiqi verify``: run the documented examples."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from paiqi_core.cli.common import (
    EXIT_BAD_INPUT,
    EXIT_FAILED,
    EXIT_OK,
    AboveProgress,
    BadInput,
    print_json,
)
from paiqi_core.profile import ProfileError
from paiqi_core.textui import Progress


def cmd_verify(args: argparse.Namespace) -> int:
    """``paiqi verify``: run the examples of Markdown and scenario files."""
    from paiqi_core.verify import collect, verify_paths

    paths = [Path(p) for p in args.paths]
    missing = [str(p) for p in paths if not p.exists()]
    if missing:
        raise BadInput("\n".join(f"{m}:1:1: (root): no such file or folder" for m in missing))
    items = collect(paths)
    total = sum(not isinstance(item, ProfileError) for item in items)
    with Progress(total, "verify", enabled=not args.quiet and total > 0) as bar:
        out = None if args.json else AboveProgress(sys.stdout, bar)
        report = verify_paths(
            paths,
            out=out,
            quiet=args.quiet,
            err=AboveProgress(sys.stderr, bar),
            items=items,
            progress=bar.update,
        )
    if args.json:
        print_json(report.as_dict())
    if report.errors:
        return EXIT_BAD_INPUT
    return EXIT_FAILED if report.failed else EXIT_OK
