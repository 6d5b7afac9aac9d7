"""Every rule in effect, in plain language, with where it came from."""

from __future__ import annotations

import textwrap
from collections.abc import Iterator, Mapping
from typing import Any

from paiqi_core import resources
from paiqi_core.hooks import registry
from paiqi_core.profile.errors import format_path
from paiqi_core.profile.model import Profile
from paiqi_core.profile.ranges import note_of, range_notes

_META = ("id", "name", "description", "extends")


def _hook_params(profile: Profile) -> dict[str, tuple[set[str], set[str]]]:
    """section -> (params the chosen hooks read, params any hook of the slot reads)."""
    out: dict[str, tuple[set[str], set[str]]] = {}
    for slot, dotted in registry.SLOTS.items():
        section = dotted.split(".")[0]
        chosen = registry.lookup(slot, profile.get(dotted))
        reads, known = out.setdefault(section, (set(), set()))
        reads.update(chosen.params)
        known.update(p for h in registry.hooks(slot).values() for p in h.params)
    return out


def rules_in_effect(profile: Profile) -> Iterator[dict[str, Any]]:
    """One entry per rule: path, value, description, origin, and a note when the value
    lies outside its family's documented range (skips parameters no chosen hook reads)."""
    schema = registry.extend_schema(resources.schema("profile"))
    notes = range_notes(profile)
    params = _hook_params(profile)

    def walk(
        node: Mapping[str, Any], data: Mapping[str, Any], path: tuple[str, ...]
    ) -> Iterator[dict[str, Any]]:
        for key, sub in node.get("properties", {}).items():
            if not path and key in _META:
                continue
            p = (*path, key)
            if len(p) >= 2 and p[0] in params:
                reads, known = params[p[0]]
                if p[1] in known and p[1] not in reads:
                    continue
            value = data.get(key)
            if sub.get("type") == "object" and "properties" in sub:
                yield from walk(sub, value or {}, p)
                continue
            summary = ""
            slot = next((s for s, d in registry.SLOTS.items() if d == ".".join(p)), None)
            if slot is not None:
                summary = registry.lookup(slot, str(value)).summary.format_map(
                    _Flat(profile.section(p[0]))
                )
            entry = {
                "rule": format_path(p),
                "value": value,
                "means": summary or sub.get("description", ""),
                "from": profile.origin(p).describe(),
            }
            note = note_of(notes, p)
            if note:
                entry["note"] = note
            yield entry

    yield from walk(schema, profile.data, ())


class _Flat(dict[str, Any]):
    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def readings_of(profile: Profile) -> list[dict[str, str]]:
    """The readings (points the sources leave open) that touch the profile's rules."""
    from paiqi_core.rules import rules_of

    return [{"key": r.key, "text": r.text} for r in rules_of(profile).readings]


def description_of(profile: Profile) -> dict[str, Any] | None:
    """The profile's description, the profile that wrote it (``of``) and the rules in
    effect that differ from that profile's (``differs``: rule, value, where it was set).

    A description speaks of the rules of the profile that wrote it. A profile that inherits
    it, or changes rules with ``--set``, may play other rules: the description is then
    shown as that profile's, with every rule that differs."""
    text = profile.data.get("description")
    if not text:
        return None
    described = profile.described
    by = described.by if described else profile.id
    differs = [
        {
            "rule": rule,
            "value": profile.get(rule),
            "from": profile.origin(tuple(rule.split("."))).describe(),
        }
        for rule in (described.differs if described else ())
    ]
    return {"text": " ".join(str(text).split()), "of": by, "differs": differs}


def shown(value: Any) -> str:
    """A rule's value as explain prints it: yes/no, none, [a, b]."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, tuple | list):
        return "[" + ", ".join(map(str, value)) + "]"
    if value is None:
        return "none"
    return str(value)


def explain_text(profile: Profile) -> str:
    """Every rule in effect as plain text, with its meaning and origin, then the readings
    paiqi takes where the sources are silent."""
    lines = [f"{profile.name} ({profile.id})"]
    if len(profile.chain) > 1:
        lines.append("extends: " + " -> ".join(profile.chain))
    about = description_of(profile)
    if about and not about["differs"]:
        lines.append(about["text"])
    elif about:
        lines.append(f"Description of {about['of']}: {about['text']}")
        lines.append(f"Rules in effect that differ from {about['of']}:")
        lines += [
            f"    {d['rule']} = {shown(d['value'])} (from: {d['from']})" for d in about["differs"]
        ]
    lines.append("")
    for r in rules_in_effect(profile):
        lines.append(f"{r['rule']} = {shown(r['value'])}")
        lines.append(f"    {r['means']}")
        lines.append(f"    from: {r['from']}")
        if "note" in r:
            lines.append(f"    note: {r['note']}")
    readings = readings_of(profile)
    if readings:
        lines += ["", "Readings (points the rule sources leave open, as paiqi settles them):"]
        for reading in readings:
            lines.append(f"{reading['key']}")
            lines += textwrap.wrap(
                reading["text"], 96, initial_indent="    ", subsequent_indent="    "
            )
    return "\n".join(lines)
