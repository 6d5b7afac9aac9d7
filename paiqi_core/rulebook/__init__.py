"""Rule books: a profile's rules as players read them, in Traditional Chinese, Japanese or
English, with worked examples the engine plays and ``paiqi verify`` proves.

``write_book`` gives the whole book (Markdown or HTML); ``rules_text`` the rules of a
profile in a language as Markdown, for anything that shows them (the browser table), and
``best_language`` the language of those a browser asks for (its Accept-Language).
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from paiqi_core import resources
from paiqi_core.engine import Game
from paiqi_core.profile import load_profile
from paiqi_core.profile.model import Profile
from paiqi_core.rulebook import languages
from paiqi_core.rulebook.book import Book, build
from paiqi_core.rulebook.examples import worked_examples
from paiqi_core.rulebook.languages import LANGS, UnknownLanguage, best_language
from paiqi_core.rulebook.render import html_page, markdown

FORMATS = ("md", "html")


def overrides_of(profile: Profile) -> dict[str, Any]:
    """The profile's --set overrides as a block's ``set``."""
    return {k: v for k, v in profile.overrides.items()}


def reference(ref: str, out: Path | None) -> str:
    """How a block names profile ``ref``: a built-in by its id, a file by its path from the
    folder the book is written to (so ``paiqi verify`` finds it beside the book)."""
    if ref in resources.builtin_profiles():
        return ref
    path = Path(ref).resolve()
    base = out.resolve().parent if out is not None else Path.cwd()
    return os.path.relpath(path, base)


def book_of(ref: str, overrides: Sequence[str] | Mapping[str, Any] = (), lang: str = "en",
            out: Path | None = None, examples: bool = True) -> Book:  # fmt: skip
    """The book of profile ``ref`` (a built-in id or a file) with ``overrides``, in
    ``lang``, with its worked examples (naming the profile as seen from ``out``)."""
    languages.get(lang)
    profile = load_profile(ref, overrides)
    book = build(profile, lang)
    if examples:
        ident: dict[str, Any] = {"profile": reference(ref, out)}
        if profile.overrides:
            ident["set"] = overrides_of(profile)
        words = languages.get(lang).words
        method = str(profile.get("scoring.method"))
        by_section = {s.key: s for s in book.sections}
        for worked in worked_examples(Game(profile), ident, words, method):
            section = by_section.get(worked.section)
            if section is not None:
                section.examples.append(worked)
    return book


def write_book(ref: str, overrides: Sequence[str] | Mapping[str, Any] = (), lang: str = "en",
               fmt: str = "md", out: Path | None = None) -> str:  # fmt: skip
    """The rule book of ``ref`` as Markdown or HTML text."""
    book = book_of(ref, overrides, lang, out)
    return html_page(book) if fmt == "html" else markdown(book)


def rules_text(profile: Profile | str, lang: str = "en") -> str:
    """The rules of a profile in ``lang`` as Markdown, without worked examples: the text a
    rules card shows."""
    if isinstance(profile, str):
        profile = load_profile(profile)
    return markdown(build(profile, lang), card_only=True)


__all__ = [
    "FORMATS",
    "LANGS",
    "UnknownLanguage",
    "best_language",
    "book_of",
    "rules_text",
    "write_book",
]
