"""Safe YAML loading that remembers where every key and value was written.

Only the safe constructors are used; files are size-limited and nesting is bounded;
aliases are refused (they are never needed in a profile and are the usual way to blow up
memory); duplicate keys are errors instead of a silent "last one wins". Whatever the text,
reading it gives data or a located ``ProfileError``: control characters, values a tag
cannot build (``2001-02-30``, a 5,000-digit integer) and syntax errors are all located.
A value YAML 1.1 reads as something its author likely did not mean (``players: 1:00`` is
60, ``stake: 1e-320`` is text, ``no`` is false) is noted in ``Located.surprises``; the
profile loader warns of them (``YAMLWarning``).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import yaml

from paiqi_core.profile.errors import Location, Path_, Problem, ProfileError, format_path

MAX_BYTES = 1 << 20
MAX_NODES = 100_000
MAX_DEPTH = 32  # nested mappings and lists; a profile needs 3, an example about 8


class YAMLWarning(UserWarning):
    """A value YAML 1.1 read as something its author likely did not mean (``1:00`` as 60,
    ``1e5`` as text, ``no`` as false); carries the located problem."""

    def __init__(self, problem: Problem) -> None:
        super().__init__(warning_text(problem))
        self.problem = problem


def warning_text(problem: Problem) -> str:
    """A located warning: ``FILE:LINE:COL: warning: rule.path: message``."""
    return f"{problem.location}: warning: {format_path(problem.path)}: {problem.message}"


@dataclass(frozen=True)
class Surprise:
    """A plain scalar read as something else than it looks: ``kind`` is ``boolean``
    (yes/no/on/off), ``base 60``, ``octal`` or ``text`` (a number YAML 1.1 does not read)."""

    kind: str
    problem: Problem


_EXPONENT = re.compile(r"[-+]?(?:[0-9][0-9_]*)?(?:\.[0-9_]*)?[eE][-+]?[0-9]+")
_OCTAL = re.compile(r"[-+]?0[0-7_]+")


def _as_yaml_number(text: str) -> str:
    """A number in exponent notation as YAML 1.1 reads it: a dot and a signed exponent."""
    mantissa, _, exponent = text.lower().partition("e")
    if "." not in mantissa:
        mantissa += ".0"
    elif mantissa.endswith("."):
        mantissa += "0"
    if exponent[:1] not in "+-":
        exponent = "+" + exponent
    return f"{mantissa}e{exponent}"


def surprise(node: yaml.Node, value: Any) -> tuple[str, str] | None:
    """Why a plain scalar is likely not read as its author meant (its kind and the
    message), or None: YAML 1.1 reads
    digits joined by colons in base 60, a leading 0 as octal, yes/no/on/off as true/false,
    and a number in exponent notation without a dot or a signed exponent as text."""
    if not isinstance(node, yaml.ScalarNode) or node.style is not None:
        return None  # quoted, or a block of text: read as written
    text = str(node.value)
    if isinstance(value, bool):
        if text.lower() in ("true", "false"):
            return None
        word = "true" if value else "false"
        return "boolean", (
            f"{text} is read as {word} (YAML 1.1 reads yes/no/on/off/y/n as true/false): "
            f"write {word}, or quote it for the text"
        )
    if isinstance(value, int | float) and ":" in text:
        return "base 60", (
            f"{text} is read as the number {value} (YAML 1.1 reads numbers joined by colons "
            f'in base 60): write {value}, or quote it for the text ("{text}")'
        )
    if isinstance(value, int) and _OCTAL.fullmatch(text):
        decimal = int(text.replace("_", ""), 10)
        return "octal", (
            f"{text} is read as {value} (YAML 1.1 reads a leading 0 as octal): write "
            f"{decimal} for the decimal number, or quote it for the text"
        )
    if isinstance(value, str) and _EXPONENT.fullmatch(text) and any(c.isdigit() for c in text):
        return "text", (
            f"{text} is read as text, not a number (YAML 1.1 needs a dot and a signed "
            f"exponent): write {_as_yaml_number(text)} for the number"
        )
    return None


class MalformedYAML(ProfileError):
    """Text that is not YAML (a syntax error); ``--set`` then takes the text as a string."""


class _Loader(yaml.SafeLoader):
    """The safe loader, refusing nesting deeper than ``MAX_DEPTH`` before it recurses."""

    def __init__(self, stream: str) -> None:
        super().__init__(stream)
        self.path: list[str | int] = []  # where the node being composed lies

    def compose_node(self, parent: Any, index: Any) -> Any:
        """Compose one node, knowing where it lies and refusing it too deep."""
        if isinstance(index, yaml.ScalarNode):
            part: str | int = index.value  # a mapping's value, under its key
        else:
            part = index if isinstance(index, int) and parent is not None else "?"
        if parent is not None:
            self.path.append(part)
        try:
            if len(self.path) > MAX_DEPTH:
                raise _TooDeep(self.peek_event().start_mark, tuple(self.path))
            return super().compose_node(parent, index)
        finally:
            if parent is not None:
                self.path.pop()


class _TooDeep(Exception):
    def __init__(self, mark: Any, path: Path_) -> None:
        self.mark, self.path = mark, path


@dataclass
class Located:
    """A parsed document plus the source positions of its values and keys."""

    data: Any
    file: str
    values: dict[Path_, Location] = field(default_factory=dict)
    keys: dict[Path_, Location] = field(default_factory=dict)
    surprises: list[Surprise] = field(default_factory=list)  # values read unlike they look

    def where(self, path: Path_, *, key: bool = False) -> Location:
        """The position of ``path``, or of its nearest written ancestor."""
        marks = self.keys if key and path in self.keys else self.values
        p = tuple(path)
        while p not in marks and p:
            p = p[:-1]
        return marks.get(p, Location(self.file, 1, 1))


def _loc(file: str, mark: Any, line_offset: int = 0, col_offset: int = 0) -> Location:
    """A YAML mark as a location; ``col_offset`` shifts the first line (text that starts
    inside a line, such as the value of ``--set KEY=VALUE``)."""
    col = mark.column + 1 + (col_offset if mark.line == 0 else 0)
    return Location(file, mark.line + 1 + line_offset, col)


class _Mark:
    """A position in the text, counted as YAML counts lines and columns."""

    def __init__(self, text: str, index: int) -> None:
        self.line = self.column = 0
        for i, ch in enumerate(text[:index]):
            if ch in "\n\x85\u2028\u2029" or (ch == "\r" and text[i + 1 : i + 2] != "\n"):
                self.line += 1
                self.column = 0
            elif ch != "\ufeff":
                self.column += 1


def surrogate_at(text: str) -> int | None:
    """The index of the first half of a surrogate pair (U+D800-U+DFFF) in ``text``, if any:
    such a character is not Unicode text (no file can hold it, nothing can print it)."""
    for i, ch in enumerate(text):
        if "\ud800" <= ch <= "\udfff":
            return i
    return None


def not_text(text: str) -> str:
    """The message for text holding a lone surrogate: which one, and why it is refused."""
    i = surrogate_at(text)
    code = ord(text[i]) if i is not None else 0xD800
    return (
        f"U+{code:04X} is half of a surrogate pair, not a character: "
        "a profile's text must be Unicode text"
    )


def _character(code: int) -> str:
    """A character for messages: its code and, for a control character, its name."""
    names = {0: "NUL", 0x1B: "ESC", 0x7F: "DEL"}
    name = names.get(code, "control character" if code < 0x20 or 0x80 <= code < 0xA0 else "")
    return f"U+{code:04X}" + (f" ({name})" if name else "")


def load_located(text: str, file: str, *, line_offset: int = 0, col_offset: int = 0) -> Located:
    """Parse YAML ``text`` safely, remembering where each key and value was written.

    ``line_offset`` and ``col_offset`` place the text inside a larger one (a Markdown
    block, a ``--set`` value). Every failure is a located ``ProfileError``; a syntax error
    is a ``MalformedYAML``."""
    if len(text.encode("utf-8", "surrogatepass")) > MAX_BYTES:
        raise ProfileError(
            [Problem(Location(file, 1, 1), (), f"file is larger than {MAX_BYTES} bytes")]
        )

    def at(mark: Any) -> Location:
        return _loc(file, mark, line_offset, col_offset)

    try:
        loader = _Loader(text)
    except yaml.reader.ReaderError as e:
        where = at(_Mark(text, e.position))
        message = f"{_character(int(e.character))} is not allowed in YAML text"
        raise ProfileError([Problem(where, (), message)]) from None
    try:
        try:
            node = loader.get_single_node()
        except yaml.MarkedYAMLError as e:
            mark = e.problem_mark or e.context_mark
            where = at(mark) if mark else Location(file, 1 + line_offset, 1 + col_offset)
            msg = e.problem or e.context or "cannot be read"
            raise MalformedYAML([Problem(where, (), f"malformed YAML: {msg}")]) from None
        except _TooDeep as e:
            raise ProfileError(
                [Problem(at(e.mark), e.path, f"nested more than {MAX_DEPTH} levels deep")]
            ) from None
        except yaml.YAMLError as e:
            raise MalformedYAML(
                [
                    Problem(
                        Location(file, 1 + line_offset, 1 + col_offset), (), f"malformed YAML: {e}"
                    )
                ]
            ) from None
        out = Located(None, file)
        if node is None:
            return out
        problems: list[Problem] = []
        count = [0]

        def construct(n: yaml.Node, path: Path_) -> Any:
            """A scalar (or a key) built by its tag; a value the tag cannot build (the
            31st of February, an integer of thousands of digits) is located."""
            try:
                value = loader.construct_object(n, deep=True)
            except yaml.YAMLError:
                raise
            except Exception as e:  # PyYAML's constructors fail in many ways on odd text
                tag = n.tag.rsplit(":", 1)[-1]
                # a ValueError says what is wrong (not Python's advice on raising its limits)
                why = f": {str(e).split(';')[0]}" if isinstance(e, ValueError) else ""
                raise ProfileError(
                    [Problem(at(n.start_mark), path, f"malformed YAML: not a valid {tag}{why}")]
                ) from None
            found = surprise(n, value)
            if found is not None:
                out.surprises.append(Surprise(found[0], Problem(at(n.start_mark), path, found[1])))
            if isinstance(value, str) and surrogate_at(value) is not None:
                # "\ud800" in a double-quoted scalar: the escape makes what text cannot hold
                problems.append(Problem(at(n.start_mark), path, not_text(value)))
                return ""
            return value

        def walk(n: yaml.Node, path: Path_) -> Any:
            count[0] += 1
            if count[0] > MAX_NODES:
                raise ProfileError(
                    [Problem(at(n.start_mark), path, f"more than {MAX_NODES} YAML nodes")]
                )
            out.values[path] = at(n.start_mark)
            if isinstance(n, yaml.MappingNode):
                result: dict[Any, Any] = {}
                for k_node, v_node in n.value:
                    if k_node.tag == "tag:yaml.org,2002:merge":
                        problems.append(
                            Problem(
                                at(k_node.start_mark), path, "merge keys (<<) are not supported"
                            )
                        )
                        continue
                    key = construct(k_node, path)
                    if not isinstance(key, str | int) or isinstance(key, bool):
                        key = str(key)
                    kpath = (*path, key)
                    if key in result:
                        problems.append(Problem(at(k_node.start_mark), kpath, "duplicate key"))
                        continue
                    out.keys[kpath] = at(k_node.start_mark)
                    result[key] = walk(v_node, kpath)
                return result
            if isinstance(n, yaml.SequenceNode):
                return [walk(item, (*path, i)) for i, item in enumerate(n.value)]
            return construct(n, path)

        _refuse_aliases(node, at)
        out.data = walk(node, ())
        if problems:
            raise ProfileError(problems)
        return out
    except yaml.constructor.ConstructorError as e:
        mark = e.problem_mark
        where = at(mark) if mark else Location(file, 1 + line_offset, 1 + col_offset)
        raise ProfileError([Problem(where, (), f"malformed YAML: {e.problem}")]) from None
    finally:
        loader.dispose()


def _refuse_aliases(root: yaml.Node, at: Callable[[Any], Location]) -> None:
    seen: set[int] = set()
    stack = [root]
    while stack:
        n = stack.pop()
        if id(n) in seen:
            raise ProfileError(
                [Problem(at(n.start_mark), (), "YAML anchors and aliases are not allowed")]
            )
        seen.add(id(n))
        if isinstance(n, yaml.MappingNode):
            for k, v in n.value:
                stack.extend((k, v))
        elif isinstance(n, yaml.SequenceNode):
            stack.extend(n.value)
