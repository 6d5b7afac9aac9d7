"""Values outside a family's documented range: allowed as house rules, and said so.

The rule sources document some values only within a range (the Japanese tables seat 3 or
4 players, play matches of 1, 3 or 5 games and allow 1 to 5 passes; 鬥雀 and the platform
seat 4 and deal no joker). A profile may go beyond them where the engine is well defined;
``validate`` and ``explain`` then note that the value lies outside the documented range of
the profile's family (the built-in family it extends), unless a named built-in game
(``devyatka``, ``badam-satti``) sets it: that game's own source documents it. The ranges are
written in the rule schema as ``x-documented``.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from paiqi_core import resources
from paiqi_core.profile.errors import Location, Path_, Problem, format_path
from paiqi_core.profile.model import Profile


def family(profile: Profile) -> str | None:
    """The built-in family a profile belongs to: the root of its ``extends`` chain."""
    root = profile.chain[-1] if profile.chain else profile.id
    return root if root in resources.families() else None


def _documented(schema: Mapping[str, Any], path: Path_ = ()) -> Iterator[tuple[Path_, Any]]:
    for key, sub in schema.get("properties", {}).items():
        here = (*path, key)
        if "x-documented" in sub:
            yield here, sub["x-documented"]
        yield from _documented(sub, here)


def describe(rng: Mapping[str, Any]) -> str:
    """A documented range in words: ``3..4``, ``1, 3 or 5``, ``4``."""
    if "enum" in rng:
        values = list(dict.fromkeys(str(v) for v in rng["enum"]))  # 7 and "7" alike
        return values[0] if len(values) == 1 else ", ".join(values[:-1]) + " or " + values[-1]
    return f"{rng['minimum']}..{rng['maximum']}"


def _inside(value: Any, rng: Mapping[str, Any]) -> bool:
    if "enum" in rng:
        return value in rng["enum"]
    return bool(rng["minimum"] <= value <= rng["maximum"])


def range_notes(profile: Profile) -> list[Problem]:
    """One located note for each rule whose value lies outside its family's documented
    range (none for a profile of no built-in family)."""
    fam = family(profile)
    if fam is None:
        return []
    named_games = set(resources.builtin_profiles()) - set(resources.families())
    notes = []
    for path, by_family in _documented(resources.schema("profile")):
        rng = by_family.get(fam)
        value: Any = profile.data
        for part in path:
            value = value[part]
        if rng is None or value is None or _inside(value, rng):
            continue
        origin = profile.origin(path)
        if origin.profile in named_games:
            continue  # a named game's own rule, from its own source (devyatka's 9s)
        where = origin.location or Location(profile.source, 1, 1)
        notes.append(
            Problem(
                where,
                path,
                f"{value} is outside the documented range of {fam} ({describe(rng)}); "
                "played as a house rule",
            )
        )
    return sorted(notes, key=lambda n: (n.location.file, n.location.line, n.location.col))


def note_of(notes: list[Problem], path: Path_) -> str:
    """The note on ``path``'s value, if any (for explain)."""
    for n in notes:
        if format_path(n.path) == format_path(path):
            return n.message
    return ""
