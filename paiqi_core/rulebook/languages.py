"""The languages a rule book is written in: one YAML file each in ``lang/`` (the book's
words, a sentence a rule, the readings, a glossary), so a translator edits text, not code."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import yaml

from paiqi_core.core.play_rules import PLAY_RULES

FOLDER = Path(__file__).resolve().parent / "lang"
LANGS = ("en", "zh-TW", "ja")  # the first is the default


@dataclass(frozen=True)
class Language:
    """A language's texts: ``words`` (headings, example sentences), ``rules`` (dotted key
    -> a sentence, or value -> sentence), ``readings`` (key -> statement), ``glossary``."""

    code: str
    words: Mapping[str, str]
    rules: Mapping[str, str | Mapping[str, str]]
    readings: Mapping[str, str]
    glossary: tuple[tuple[str, str], ...]


class UnknownLanguage(ValueError):
    """A language no book is written in."""


@cache
def get(lang: str) -> Language:
    """The texts of ``lang``; UnknownLanguage names the languages there are."""
    if lang not in LANGS:
        raise UnknownLanguage(f"--lang: no rule book in {lang!r}; choose one of {', '.join(LANGS)}")
    with open(FOLDER / f"{lang}.yaml", encoding="utf-8") as f:
        data = yaml.safe_load(f)
    # the rules of play declared in the core bring their own sentences and readings
    declared = {rule.key: rule.sentences[lang] for rule in PLAY_RULES}
    readings = {r.reading: r.reading_texts[lang] for r in PLAY_RULES if r.reading_texts}
    return Language(
        code=lang,
        words=data["words"],
        rules={**data["rules"], **declared},
        readings={**(data.get("readings") or {}), **readings},
        glossary=tuple((str(t), str(m)) for t, m in data["glossary"]),
    )


def best_language(accept: str | None) -> str:
    """The book language a browser asks for most (an HTTP ``Accept-Language`` value such
    as ``ja,en;q=0.8``): any Chinese reads zh-TW (the only Chinese there is), any Japanese
    ja, and English where nothing else matches."""
    asked: list[tuple[float, int, str]] = []
    for n, item in enumerate((accept or "").split(",")):
        tag, _, params = item.strip().partition(";")
        q = 1.0
        if params.strip().startswith("q="):
            try:
                q = float(params.strip()[2:])
            except ValueError:
                q = 0.0
        lang = {"zh": "zh-TW", "ja": "ja", "en": "en"}.get(tag.strip().lower().split("-")[0])
        if lang and q > 0:
            asked.append((-q, n, lang))
    return min(asked)[2] if asked else LANGS[0]
