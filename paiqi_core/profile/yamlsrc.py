"""Safe YAML loading that remembers where every key and value was written.

Only the safe constructors are used; files are size-limited; aliases are refused (they
are never needed in a profile and are the usual way to blow up memory); duplicate keys
are errors instead of a silent "last one wins".
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import yaml

from paiqi_core.profile.errors import Location, Path_, Problem, ProfileError

MAX_BYTES = 1 << 20
MAX_NODES = 100_000


@dataclass
class Located:
    """A parsed document plus the source positions of its values and keys."""

    data: Any
    file: str
    values: dict[Path_, Location] = field(default_factory=dict)
    keys: dict[Path_, Location] = field(default_factory=dict)

    def where(self, path: Path_, *, key: bool = False) -> Location:
        """The position of ``path``, or of its nearest written ancestor."""
        marks = self.keys if key and path in self.keys else self.values
        p = tuple(path)
        while p not in marks and p:
            p = p[:-1]
        return marks.get(p, Location(self.file, 1, 1))


def _loc(file: str, mark: Any, line_offset: int = 0) -> Location:
    return Location(file, mark.line + 1 + line_offset, mark.column + 1)


def load_located(text: str, file: str, *, line_offset: int = 0) -> Located:
    """Parse YAML ``text`` safely, remembering where each key and value was written."""
    if len(text.encode("utf-8")) > MAX_BYTES:
        raise ProfileError(
            [Problem(Location(file, 1, 1), (), f"file is larger than {MAX_BYTES} bytes")]
        )
    loader = yaml.SafeLoader(text)
    try:
        try:
            node = loader.get_single_node()
        except yaml.MarkedYAMLError as e:
            mark = e.problem_mark or e.context_mark
            where = _loc(file, mark, line_offset) if mark else Location(file, 1, 1)
            msg = e.problem or e.context or "cannot be read"
            raise ProfileError([Problem(where, (), f"malformed YAML: {msg}")]) from None
        except yaml.YAMLError as e:
            raise ProfileError(
                [Problem(Location(file, 1, 1), (), f"malformed YAML: {e}")]
            ) from None
        out = Located(None, file)
        if node is None:
            return out
        problems: list[Problem] = []
        count = [0]

        def walk(n: yaml.Node, path: Path_) -> Any:
            count[0] += 1
            if count[0] > MAX_NODES:
                raise ProfileError(
                    [
                        Problem(
                            _loc(file, n.start_mark, line_offset),
                            path,
                            f"more than {MAX_NODES} YAML nodes",
                        )
                    ]
                )
            out.values[path] = _loc(file, n.start_mark, line_offset)
            if isinstance(n, yaml.MappingNode):
                result: dict[Any, Any] = {}
                for k_node, v_node in n.value:
                    if k_node.tag == "tag:yaml.org,2002:merge":
                        problems.append(
                            Problem(
                                _loc(file, k_node.start_mark, line_offset),
                                path,
                                "merge keys (<<) are not supported",
                            )
                        )
                        continue
                    key = loader.construct_object(k_node, deep=True)
                    if not isinstance(key, str | int) or isinstance(key, bool):
                        key = str(key)
                    kpath = (*path, key)
                    if key in result:
                        problems.append(
                            Problem(
                                _loc(file, k_node.start_mark, line_offset), kpath, "duplicate key"
                            )
                        )
                        continue
                    out.keys[kpath] = _loc(file, k_node.start_mark, line_offset)
                    result[key] = walk(v_node, kpath)
                return result
            if isinstance(n, yaml.SequenceNode):
                return [walk(item, (*path, i)) for i, item in enumerate(n.value)]
            return loader.construct_object(n, deep=True)

        _refuse_aliases(node, file, line_offset)
        out.data = walk(node, ())
        if problems:
            raise ProfileError(problems)
        return out
    except yaml.constructor.ConstructorError as e:
        mark = e.problem_mark
        where = _loc(file, mark, line_offset) if mark else Location(file, 1, 1)
        raise ProfileError([Problem(where, (), f"malformed YAML: {e.problem}")]) from None
    finally:
        loader.dispose()


def _refuse_aliases(root: yaml.Node, file: str, line_offset: int) -> None:
    seen: set[int] = set()
    stack = [root]
    while stack:
        n = stack.pop()
        if id(n) in seen:
            raise ProfileError(
                [
                    Problem(
                        _loc(file, n.start_mark, line_offset),
                        (),
                        "YAML anchors and aliases are not allowed",
                    )
                ]
            )
        seen.add(id(n))
        if isinstance(n, yaml.MappingNode):
            for k, v in n.value:
                stack.extend((k, v))
        elif isinstance(n, yaml.SequenceNode):
            stack.extend(n.value)
