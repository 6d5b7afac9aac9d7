"""The rules card of a game or room: the rule book's text of the rules in play (the profile
as dealt, with its edits and options, each change from its parent marked as the book marks
it), without worked examples, in a language the person chooses, as HTML.

The book's Markdown holds headings, paragraphs, quoted paragraphs, bullet lists and inline
bold, emphasis and code only; ``to_html`` writes exactly those, every text escaped first
(a profile's name and description are a visitor's words).
"""

from __future__ import annotations

import html
from typing import Any

from paiqi_core.profile.model import Profile
from paiqi_core.rulebook import LANGS, UnknownLanguage, best_language, rules_text
from paiqi_core.rulebook.languages import get as language_texts
from paiqi_core.rulebook.render import inline as inline_html

# each language by its own name, in the order the card's switch offers them
LANGUAGE_NAMES = {"zh-TW": "中文", "ja": "日本語", "en": "English"}
HTML_LANG = {"zh-TW": "zh-Hant-TW"}  # the page's lang attribute where it is not the code


def language(asked: Any, accept: str | None) -> str:
    """The card's language: the one ``asked`` for (a code of ``LANGS``), else the one the
    browser's Accept-Language value prefers. UnknownLanguage for a code with no book."""
    if asked in (None, ""):
        return best_language(accept)
    if not isinstance(asked, str) or asked not in LANGS:
        choices = ", ".join(LANGS)
        raise UnknownLanguage(f"lang: no rules in {str(asked)[:20]!r}; choose one of {choices}")
    return asked


def to_html(markdown: str, house: str) -> tuple[str, str]:
    """The book's title and its body as HTML, from its Markdown; a bullet that starts
    with the bold ``house`` mark is a rule the table changed (``class="house"``)."""
    title = ""
    out: list[str] = []
    items: list[str] = []
    mark = f"**{house}** "

    def close_list() -> None:
        if items:
            out.append("<ul>" + "".join(items) + "</ul>")
            items.clear()

    for raw in markdown.splitlines():
        line = raw.strip()
        if line.startswith("- "):
            text = line[2:]
            if text.startswith(mark):
                badge = f'<span class="house-mark">{html.escape(house)}</span> '
                items.append(f'<li class="house">{badge}{inline_html(text[len(mark) :])}</li>')
            else:
                items.append(f"<li>{inline_html(text)}</li>")
            continue
        close_list()
        if not line:
            continue
        if line.startswith("# ") and not title:
            title = line[2:]
        elif line.startswith("#"):
            level = min(len(line) - len(line.lstrip("#")), 4)
            out.append(f"<h{level + 1}>{inline_html(line[level:].strip())}</h{level + 1}>")
        elif line.startswith("> "):
            out.append(f"<blockquote>{inline_html(line[2:])}</blockquote>")
        else:
            out.append(f"<p>{inline_html(line)}</p>")
    close_list()
    return title, "\n".join(out)


def card(profile: Profile, lang: str) -> dict[str, Any]:
    """The rules card of ``profile`` in ``lang``: its title (plain text), its body
    (HTML), its Markdown, and the languages the card may be switched to."""
    text = rules_text(profile, lang)
    title, body = to_html(text, language_texts(lang).words["house"])
    return {
        "lang": lang,
        "html_lang": HTML_LANG.get(lang, lang),
        "langs": [{"id": c, "text": n} for c, n in LANGUAGE_NAMES.items() if c in LANGS],
        "title": title,
        "html": body,
        "markdown": text,
    }
