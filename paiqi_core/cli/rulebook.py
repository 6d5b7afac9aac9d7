"""``paiqi rulebook``: a profile's rule book, or what it changes from another profile."""

from __future__ import annotations

import argparse
from pathlib import Path

from paiqi_core.cli.common import EXIT_OK, BadInput
from paiqi_core.records import write_failed
from paiqi_core.rulebook import FORMATS, LANGS, write_book
from paiqi_core.rulebook.against import against_text


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The command's arguments."""
    p.add_argument("profile", help="built-in profile id or a profile file")
    p.add_argument("--lang", default="en", help=f"language: {', '.join(LANGS)} (default en)")
    p.add_argument("--format", default="md", help="md (default) or html")
    p.add_argument("--out", metavar="FILE", help="write the book here (default: standard output)")
    p.add_argument(
        "--against",
        metavar="PROFILE",
        help="write only what PROFILE's rules change from this one's, with examples",
    )


def cmd_rulebook(args: argparse.Namespace) -> int:
    """``paiqi rulebook``: write the book."""
    if args.lang not in LANGS:
        raise BadInput(f"--lang: no rule book in {args.lang!r}; choose one of {', '.join(LANGS)}")
    if args.format not in FORMATS:
        raise BadInput(f"--format: {args.format!r} is not one of {', '.join(FORMATS)}")
    if args.against and args.format != "md":
        raise BadInput("--against: the differences are written as Markdown only (--format md)")
    out = Path(args.out) if args.out else None
    if args.against:
        text = against_text(args.profile, args.set, args.against, args.lang, out)
    else:
        text = write_book(args.profile, args.set, args.lang, args.format, out)
    if out is None:
        print(text, end="")
        return EXIT_OK
    try:
        out.write_text(text, encoding="utf-8")
    except OSError as e:
        raise write_failed(e, str(out)) from e
    return EXIT_OK
