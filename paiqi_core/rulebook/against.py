"""What one profile changes from another: each rule that differs, in words under both, and
the worked examples where the two rule sets part ways (the same setup, two outcomes, each
a ``paiqi`` block)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from paiqi_core.engine import Game
from paiqi_core.profile import load_profile
from paiqi_core.profile.model import Profile
from paiqi_core.rulebook import languages
from paiqi_core.rulebook.book import build
from paiqi_core.rulebook.examples import Worked, worked_examples


def _said(profile: Profile, lang: str) -> dict[str, str]:
    """Every rule the book of ``profile`` states -> the sentence stating it in ``lang``."""
    book = build(profile, lang)
    return {rule: line.text for s in book.sections for line in s.lines for rule in line.rules}


def _examples(profile: Profile, ident: Mapping[str, Any], lang: str) -> list[Worked]:
    words = languages.get(lang).words
    method = str(profile.get("scoring.method"))
    return worked_examples(Game(profile), ident, words, method, every=True)


def _setup(worked: Worked) -> Any:
    """The setup of an example, less the card that names trumps (rules without trumps
    show the same setup without it)."""
    out = {k: v for k, v in worked.block.items() if k not in ("name", "profile", "set", "expect")}
    return {
        k: {x: y for x, y in v.items() if x != "door_card"} if isinstance(v, dict) else v
        for k, v in out.items()
    }


def differences(a: Profile, b: Profile, ids: Sequence[Mapping[str, Any]],
                lang: str = "en") -> str:  # fmt: skip
    """Markdown: the rules of ``a`` that differ from ``b``'s, and the examples whose outcome
    differs (``ids`` name each profile in a block: ``profile`` and ``set``)."""
    words = languages.get(lang).words
    out = [f"# {words['differences'].format(a=a.name, b=b.name)}", ""]
    said_a, said_b = _said(a, lang), _said(b, lang)
    rules = [r for r in said_a if said_a[r] != said_b.get(r)]
    rules += [r for r in said_b if r not in said_a]
    if not rules:
        return "\n".join([*out, words["no_differences"], ""])
    # one line a sentence of a (or of b, for what a leaves out), with what b says instead
    lines: dict[str, tuple[list[str], dict[str, None]]] = {}
    for rule in rules:
        absent = words["not_in_effect"]
        now, old = said_a.get(rule, absent), said_b.get(rule, absent)
        named, olds = lines.setdefault(now if rule in said_a else old, ([], {}))
        named.append(f"`{rule}`")
        olds[old] = None
    for key, (named, olds) in lines.items():
        now = key if named[0][1:-1] in said_a else words["not_in_effect"]
        said = [o for o in olds if o != words["not_in_effect"]] or list(olds)
        old = " / ".join(said)
        out.append(f"- {', '.join(named)}: {now} ({words['rule_was'].format(b=b.id, old=old)})")
    out.append("")
    # the examples of the two books with the same setup (in the same section), where the
    # outcomes differ
    theirs = _examples(b, ids[1], lang)
    parted = [
        (x, y)
        for x in _examples(a, ids[0], lang)
        for y in theirs
        if x.section == y.section
        and _setup(x) == _setup(y)
        and x.block["expect"] != y.block["expect"]
    ]
    if parted:
        out += [f"## {words['parts_ways']}", "", words["examples_note"], ""]
    for x, y in parted:
        for worked, profile in ((x, a), (y, b)):
            out += [f"**{profile.id}**: {worked.text}", "", worked.fenced(), ""]
    return "\n".join(out)


def against_text(ref: str, overrides: Sequence[str], parent: str, lang: str = "en",
                 out: Path | None = None) -> str:  # fmt: skip
    """The differences of profile ``ref`` (with ``overrides``) from profile ``parent``."""
    from paiqi_core.rulebook import overrides_of, reference

    languages.get(lang)
    a, b = load_profile(ref, overrides), load_profile(parent)
    ida: dict[str, Any] = {"profile": reference(ref, out)}
    if a.overrides:
        ida["set"] = overrides_of(a)
    return differences(a, b, [ida, {"profile": reference(parent, out)}], lang)
