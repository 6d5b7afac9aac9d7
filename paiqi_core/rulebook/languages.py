"""The languages a rule book is written in, each a module of sentences and terms."""

from __future__ import annotations

from types import ModuleType

from paiqi_core.rulebook import en, ja, zh_tw

LANGS: dict[str, ModuleType] = {"en": en, "zh-TW": zh_tw, "ja": ja}


class UnknownLanguage(ValueError):
    """A language no book is written in."""


def get(lang: str) -> ModuleType:
    """The module of ``lang``; UnknownLanguage names the languages there are."""
    try:
        return LANGS[lang]
    except KeyError:
        raise UnknownLanguage(
            f"--lang: no rule book in {lang!r}; choose one of {', '.join(LANGS)}"
        ) from None
