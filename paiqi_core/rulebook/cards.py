"""Cards and rule values as a book shows them: ♠7 rather than S7, yes/no in words."""

from __future__ import annotations

import re
from typing import Any

_SUITS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
_CARD = re.compile(r"\b([SHDC])(10|[2-9AJQK])\b")
_BOOL = {
    "key": ("yes", "no"),
    "en": ("yes", "no"),
    "zh-TW": ("是", "否"),
    "ja": ("あり", "なし"),
}


def card(text: str) -> str:
    """Cards written S7, HK within ``text`` shown with suit signs: ♠7, ♥K."""
    return _CARD.sub(lambda m: _SUITS[m.group(1)] + m.group(2), text)


def shown_value(value: Any, lang: str) -> str:
    """A rule's value in words: ``key`` gives the form the sentence tables are keyed by
    (yes, no, none, the value as written)."""
    if isinstance(value, bool):
        yes, no = _BOOL.get(lang, _BOOL["en"])
        return yes if value else no
    if value is None:
        return "none"
    if isinstance(value, list | tuple):
        return ", ".join(shown_value(v, lang) for v in value)
    return str(value) if lang == "key" else card(str(value))
