"""The rule books kept with the documentation: one per built-in family in the language of
its tables, and each in English, with an index; ``paiqi rulebook --families DIR`` writes
them all again."""

from __future__ import annotations

from pathlib import Path

from paiqi_core import resources
from paiqi_core.profile import load_profile
from paiqi_core.rulebook import write_book

# the language of each family's tables; any other family is written in English only
TRADITION = {"doujue": "zh-TW", "platform": "zh-TW", "shichinarabe": "ja", "pagat": "en"}

INDEX = """# Rule books

One rule book for each family of built-in rules, written by `paiqi rulebook` in the language
of the tables that play it and in English. Every example in them is a `paiqi` block, so
`paiqi verify docs/rulebooks` replays each on the engine. Write them again after a change
to the rules or to the books with `paiqi rulebook --families docs/rulebooks`.

`--format html` gives one page that prints on two A4 pages (the blocks left out, the
sentences under the examples kept). The first printed page of two of them:

![鬥雀, printed](../rulebook-doujue-zh-TW.png)
![七並べ, printed](../rulebook-shichinarabe-ja.png)

"""


def books() -> list[tuple[str, str]]:
    """(family, language) of every book on the shelf, in the families' order."""
    out = []
    for family in resources.families():
        langs = [TRADITION.get(family, "en"), "en"]
        out += [(family, lang) for lang in dict.fromkeys(langs)]
    return out


def file_name(family: str, lang: str) -> str:
    """The file of a family's book in a language."""
    return f"{family}.{lang}.md"


def index_text() -> str:
    """The shelf's README: a line a family, linking its books."""
    lines = [INDEX.rstrip("\n"), ""]
    by_family: dict[str, list[str]] = {}
    for family, lang in books():
        by_family.setdefault(family, []).append(f"[{lang}]({file_name(family, lang)})")
    for family, links in by_family.items():
        lines.append(f"- {load_profile(family).name} (`{family}`): {', '.join(links)}")
    return "\n".join(lines) + "\n"


def write_shelf(folder: Path) -> list[Path]:
    """Write every book and the index into ``folder``; the files written."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for family, lang in books():
        path = folder / file_name(family, lang)
        path.write_text(write_book(family, lang=lang, out=path), encoding="utf-8")
        written.append(path)
    index = folder / "README.md"
    index.write_text(index_text(), encoding="utf-8")
    return [*written, index]
