"""``paiqi list``, ``explain`` and ``validate``: profiles and the rules in effect."""

from __future__ import annotations

import argparse

from paiqi_core import resources
from paiqi_core.cli.common import EXIT_BAD_INPUT, EXIT_OK, err, print_json
from paiqi_core.engine import Game
from paiqi_core.profile import ProfileError, load_profile
from paiqi_core.profile.errors import format_path
from paiqi_core.profile.explain import (
    description_of,
    explain_text,
    readings_of,
    rules_in_effect,
)
from paiqi_core.profile.ranges import range_notes
from paiqi_core.textui import table


def cmd_list(args: argparse.Namespace) -> int:
    """``paiqi list``: the built-in profiles."""
    rows = []
    for pid in resources.builtin_profiles():
        p = load_profile(pid)
        rows.append(
            {
                "id": pid,
                "name": p.name,
                "players": p.get("players"),
                "extends": p.chain[1] if len(p.chain) > 1 else "",
            }
        )
    if args.json:
        print_json(rows)
    else:
        print(
            table(
                ["id", "name", "players", "extends"],
                [[r["id"], r["name"], r["players"], r["extends"]] for r in rows],
            )
        )
    return EXIT_OK


def cmd_explain(args: argparse.Namespace) -> int:
    """``paiqi explain``: every rule in effect and where it came from."""
    profile = load_profile(args.profile, args.set)
    if args.json:
        print_json(
            {
                "id": profile.id,
                "name": profile.name,
                "chain": list(profile.chain),
                "description": description_of(profile),
                "rules": list(rules_in_effect(profile)),
                "readings": readings_of(profile),
            }
        )
    else:
        print(explain_text(profile))
    return EXIT_OK


def cmd_validate(args: argparse.Namespace) -> int:
    """``paiqi validate``: check profile files; exit 2 on any problem."""
    status = EXIT_OK
    for ref in args.files:
        try:
            profile = load_profile(ref, args.set)
            Game(profile)
            if not args.quiet:
                print(f"ok {ref} ({profile.id}: {profile.name})")
            for note in range_notes(profile):
                err(f"{note.location}: {format_path(note.path)}: note: {note.message}")
        except ProfileError as e:
            err(str(e))
            status = EXIT_BAD_INPUT
    return status
