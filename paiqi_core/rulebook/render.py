"""A rule book written out: Markdown (whose examples ``paiqi verify`` runs) or one
self-contained HTML page that prints on A4."""

from __future__ import annotations

import html
import re
from pathlib import Path

from paiqi_core.rulebook import languages
from paiqi_core.rulebook.book import Book
from paiqi_core.rulebook.cards import card


def markdown(book: Book, *, card_only: bool = False) -> str:
    """The book as Markdown, each worked example followed by its ``paiqi`` block. As a
    rules card (``card_only``): without the line on how the book was written, and with the
    glossary's terms that its sentences use."""
    words = languages.get(book.lang).words
    intro = book.intro[1:] if card_only else book.intro  # (the first: how it was written)
    out = [f"# {book.title}", "", *intro] + ([""] if intro else [])
    if any(s.examples for s in book.sections):
        out += [words["examples_note"], ""]
    for section in book.sections:
        out += [f"## {section.title}", ""]
        for line in section.lines:
            mark = f"**{words['house']}** " if line.house else ""
            out.append(f"- {mark}{line.text}")
        out.append("")
        for worked in section.examples:
            out += [f"{words['example_label']} {worked.text}", "", worked.fenced(), ""]
    if book.readings:
        out += [f"## {words['readings']}", "", words["readings_intro"], ""]
        out += [f"- **{key}**: {card(text)}" for key, text in book.readings]
        out.append("")
    glossary = book.glossary
    if card_only:
        said = " ".join(line.text for s in book.sections for line in s.lines).lower()
        glossary = [
            (term, meaning)
            for term, meaning in glossary
            if any(name.strip().lower() in said for name in re.split("[／/]", term))
        ]  # (a term may give each table's name: 尾張7／尾張七)
    if glossary:
        out += [f"## {words['glossary']}", ""]
        out += [f"- **{term}**: {meaning}" for term, meaning in glossary]
    return "\n".join(out) + "\n"


CSS = (Path(__file__).resolve().parent / "book.css").read_text(encoding="utf-8")  # inlined


def inline(text: str) -> str:
    """Markdown's `code`, **bold** and *emphasis* in one sentence, as HTML."""
    text = html.escape(text)
    text = re.sub(r"`([^`]+)`", r"<code>\1</code>", text)
    text = re.sub(r"\*\*([^*]+)\*\*", r"<strong>\1</strong>", text)
    return re.sub(r"\*([^*]+)\*", r"<em>\1</em>", text)


def _paragraph(text: str) -> str:
    """A paragraph of the introduction; one starting ``> `` is quoted."""
    if text.startswith("> "):
        return f"<blockquote>{inline(text[2:])}</blockquote>"
    return f"<p>{inline(text)}</p>"


def html_page(book: Book) -> str:
    """The book as one HTML page with its styles inside (screen and A4 print)."""
    words = languages.get(book.lang).words
    lang = {"zh-TW": "zh-Hant-TW"}.get(book.lang, book.lang)
    out = [
        "<!DOCTYPE html>",
        f'<html lang="{lang}"><head><meta charset="utf-8">',
        f"<title>{html.escape(book.title)}</title><style>{CSS}</style></head><body>",
        f"<h1>{html.escape(book.title)}</h1>",
        *(_paragraph(p) for p in book.intro),
    ]
    for section in book.sections:
        out.append(f"<h2>{html.escape(section.title)}</h2><ul>")
        for line in section.lines:
            mark = f'<span class="house">{words["house"]}</span> ' if line.house else ""
            out.append(f"<li>{mark}{inline(line.text)}</li>")
        out.append("</ul>")
        for worked in section.examples:
            out.append(
                f'<div class="example">{inline(words["example_label"])} '
                f"{inline(worked.text)}<pre>{html.escape(worked.fenced())}</pre></div>"
            )
    if book.readings:
        out.append(f"<h2>{html.escape(words['readings'])}</h2>")
        out.append(f"<p>{inline(words['readings_intro'])}</p><ul>")
        out += [f"<li><strong>{key}</strong>: {inline(card(t))}</li>" for key, t in book.readings]
        out.append("</ul>")
    out.append(f'<h2>{html.escape(words["glossary"])}</h2><dl class="glossary">')
    out += [f"<dt>{html.escape(t)}</dt><dd>{html.escape(m)}</dd>" for t, m in book.glossary]
    out.append("</dl></body></html>")
    return "\n".join(out) + "\n"
