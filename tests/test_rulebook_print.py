"""The HTML rule book of every family prints on two or three A4 pages, without its blocks,
and loads nothing from elsewhere (Chromium, as the browser tests drive it). With
PAIQI_SCREENSHOTS=docs the first printed page of each is saved (docs/rulebooks/README.md
shows those of doujue and shichinarabe)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from paiqi_core.rulebook import write_book
from paiqi_core.rulebook.shelf import TRADITION

from .test_serve_browser import browser, shots  # noqa: F401 (fixtures)

A4 = {"width": 794, "height": 1123}  # 210 x 297 mm at 96 px an inch


@pytest.mark.parametrize(("family", "lang"), sorted(TRADITION.items()))
def test_a_family_book_prints_on_two_or_three_a4_pages(
    browser: Any,  # noqa: F811
    shots: Path,  # noqa: F811
    family: str,
    lang: str,
) -> None:
    context = browser.new_context(viewport=A4)
    page = context.new_page()
    requests: list[str] = []
    page.on("request", lambda r: requests.append(r.url))
    try:
        page.set_content(write_book(family, lang=lang, fmt="html"))
        pdf = page.pdf(format="A4")
        pages = len(re.findall(rb"/Type\s*/Page[^s]", pdf))
        assert 2 <= pages <= 3, pages
        page.emulate_media(media="print")
        blocks = page.locator(".example pre")
        assert blocks.count() >= 4
        assert all(not blocks.nth(i).is_visible() for i in range(blocks.count()))
        assert page.locator(".example").first.is_visible()  # the sentence stays
        page.screenshot(path=str(shots / f"rulebook-{family}-{lang}.png"))
    finally:
        context.close()
    assert [u for u in requests if not u.startswith(("about:", "data:"))] == []
