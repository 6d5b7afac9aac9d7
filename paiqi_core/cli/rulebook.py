"""``paiqi rulebook``: a profile's rule book, or what it changes from another profile."""

from __future__ import annotations

import argparse
from pathlib import Path

from paiqi_core.cli.common import EXIT_OK, BadInput
from paiqi_core.records import write_failed
from paiqi_core.rulebook import FORMATS, LANGS, languages, write_book
from paiqi_core.rulebook.against import against_text
from paiqi_core.rulebook.languages import UnknownLanguage
from paiqi_core.rulebook.shelf import write_shelf


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The command's arguments."""
    p.add_argument("profile", nargs="?", help="built-in profile id or a profile file")
    p.add_argument("--lang", default="en", help=f"language: {', '.join(LANGS)} (default en)")
    p.add_argument("--format", default="md", help="md (default) or html")
    p.add_argument("--out", metavar="FILE", help="write the book here (default: standard output)")
    p.add_argument(
        "--against",
        metavar="PROFILE",
        help="write only what this profile's rules change from PROFILE's, with examples",
    )
    p.add_argument(
        "--families",
        metavar="DIR",
        help="write the book of every built-in family (in its tables' language and in "
        "English) and an index into DIR, as docs/rulebooks holds them",
    )


def cmd_rulebook(args: argparse.Namespace) -> int:
    """``paiqi rulebook``: write the book."""
    if args.families:
        if args.profile or args.against or args.set:
            raise BadInput("--families: writes the built-in families' books; give no profile")
        for path in write_shelf(Path(args.families)):
            print(path)
        return EXIT_OK
    if not args.profile:
        raise BadInput("rulebook: give a profile (a built-in id or a file), or --families DIR")
    try:
        languages.get(args.lang)
    except UnknownLanguage as e:
        raise BadInput(str(e)) from None
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
    part = out.with_name(out.name + ".part")  # a book is whole or not there: never cut short
    try:
        part.write_text(text, encoding="utf-8")
        part.replace(out)
    except OSError as e:
        part.unlink(missing_ok=True)
        raise write_failed(e, str(out)) from e
    return EXIT_OK
