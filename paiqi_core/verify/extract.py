"""Find executable examples: ```paiqi fenced blocks in Markdown, or scenario YAML files."""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from paiqi_core import resources
from paiqi_core.profile.errors import Location, Problem, ProfileError
from paiqi_core.profile.load import read_text, schema_errors
from paiqi_core.profile.yamlsrc import Located, load_located

FENCE = re.compile(r"^(?P<indent>\s*)(?P<fence>`{3,}|~{3,})\s*(?P<info>[^`\s]*)")
INFO = "paiqi"


@dataclass(frozen=True)
class Example:
    """One executable example: its data, source positions, location and file."""

    data: dict[str, Any]
    doc: Located
    location: Location
    file: Path

    @property
    def name(self) -> str:
        """The example's title."""
        return str(self.data.get("name", "?"))


def find_files(paths: list[Path]) -> list[Path]:
    """The example files under ``paths``: Markdown and YAML, folders searched."""
    out: list[Path] = []
    for p in paths:
        if p.is_dir():
            out += sorted(x for x in p.rglob("*") if x.suffix in (".md", ".yaml", ".yml"))
        else:
            out.append(p)
    return out


def _display(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


def markdown_blocks(text: str) -> Iterator[tuple[int, str]]:
    """(line number of the first content line, 0-based; block text) of each paiqi block."""
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        fence, info = m.group("fence"), m.group("info")
        start = i + 1
        j = start
        while j < len(lines) and not lines[j].strip().startswith(fence):
            j += 1
        if info == INFO:
            yield start, "\n".join(lines[start:j])
        i = j + 1


def load_examples(path: Path) -> Iterator[Example | ProfileError]:
    """The examples of one file; a block that is malformed yields its located error."""
    display = _display(path)
    try:
        text = read_text(path, display)
    except ProfileError as e:  # bytes that are not UTF-8, located
        yield e
        return
    except OSError as e:
        yield ProfileError([Problem(Location(display, 1, 1), (), f"cannot read: {e}")])
        return
    if path.suffix == ".md":
        for start, block in markdown_blocks(text):
            yield _example(block, display, start, path)
        return
    try:
        doc = load_located(text, display)
    except ProfileError as e:
        yield e
        return
    data = doc.data
    if isinstance(data, dict) and "examples" not in data:
        yield _check(doc, (), data, path)
        return
    base: tuple[str | int, ...] = ("examples",) if isinstance(data, dict) else ()
    items = data["examples"] if isinstance(data, dict) else data
    if not isinstance(items, list):
        yield ProfileError(
            [
                Problem(
                    doc.where(base),
                    base,
                    "a scenario file holds an example "
                    "mapping, a list of examples, or 'examples:' with a list",
                )
            ]
        )
        return
    for i, item in enumerate(items):
        yield _check(doc, (*base, i), item, path)


def _example(block: str, display: str, start: int, path: Path) -> Example | ProfileError:
    try:
        doc = load_located(block, display, line_offset=start)
    except ProfileError as e:
        return e
    return _check(doc, (), doc.data, path)


def _check(
    doc: Located, path: tuple[str | int, ...], data: Any, file: Path
) -> Example | ProfileError:
    loc = doc.where(path)

    def where(p: tuple[str | int, ...], key: bool = False) -> Location:
        return doc.where((*path, *p), key=key)

    if not isinstance(data, dict):
        return ProfileError([Problem(loc, path, "an example must be a mapping")])
    problems = schema_errors(data, resources.schema("example"), where, fill_defaults=False)
    if not problems and "profile" not in data and "profiles" not in data:
        problems.append(
            Problem(loc, path, "name the profile(s): 'profile: ID' or 'profiles: [..]'")
        )
    if not problems:
        problems += _unknown_readings(data, where)
    if problems:
        return ProfileError(problems)
    return Example(data, _Sub(doc, path), loc, file)


def readings_of(data: Mapping[str, Any]) -> list[str]:
    """The reading keys an example is tagged with (``reading: KEY`` or a list)."""
    tagged = data.get("reading", [])
    return [tagged] if isinstance(tagged, str) else list(tagged)


def _unknown_readings(data: Mapping[str, Any], where: Any) -> list[Problem]:
    from paiqi_core.readings import READINGS

    problems = []
    for key in readings_of(data):
        if key not in READINGS:
            close = difflib.get_close_matches(key, list(READINGS), n=1)
            hint = f"; did you mean '{close[0]}'?" if close else ""
            problems.append(
                Problem(where(("reading",)), ("reading",), f"unknown reading '{key}'{hint}")
            )
    return problems


class _Sub(Located):
    """A view of a located document rooted at one example inside it."""

    def __init__(self, doc: Located, root: tuple[str | int, ...]) -> None:
        super().__init__(doc.data, doc.file, doc.values, doc.keys)
        self.root = root

    def where(self, path: tuple[str | int, ...], *, key: bool = False) -> Location:
        return super().where((*self.root, *path), key=key)
