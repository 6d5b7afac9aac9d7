"""Profiles for the browser: the built-ins, and profiles typed or uploaded as YAML text.

A profile from the browser goes through the same loader as a file, with the same limits
(size, nesting, no aliases, the schema, the semantic checks, the hooks' own checks): its
text is written to a file of its own in a private temporary folder and loaded from there,
and every problem is reported at its line and column under the name the person gave. Its
``extends`` may name a built-in profile only: a page in a browser has no business reading
other files of the machine that serves it.
"""

from __future__ import annotations

import re
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from paiqi_core import resources
from paiqi_core.engine import Game
from paiqi_core.profile import Location, Problem, Profile, ProfileError, load_profile
from paiqi_core.profile.errors import format_path
from paiqi_core.profile.explain import explain_text
from paiqi_core.profile.load import SET_FILE
from paiqi_core.profile.ranges import range_notes
from paiqi_core.profile.yamlsrc import load_located
from paiqi_core.rules import rules_of

MAX_OPTIONS = 64  # --set lines of one request
DEFAULT_NAME = "my-profile.yaml"


def builtins() -> list[dict[str, Any]]:
    """The built-in profiles: id, name, players, what it extends, its description."""
    out = []
    for pid in resources.builtin_profiles():
        p = load_profile(pid)
        description = p.data.get("description")
        out.append(
            {
                "id": pid,
                "name": p.name,
                "players": p.get("players"),
                "extends": p.chain[1] if len(p.chain) > 1 else "",
                "description": " ".join(str(description).split()) if description else "",
            }
        )
    return out


def builtin_source(pid: str) -> str:
    """The YAML text of a built-in profile (TableError-free: KeyError if unknown)."""
    path = resources.builtin_profiles()[pid]
    return path.read_text(encoding="utf-8")


def safe_name(
    name: str | None, suffixes: tuple[str, ...] = (".yaml", ".yml"), default: str = DEFAULT_NAME
) -> str:
    """A file name for text from the browser: its last part, letters, digits, ``-_.``
    only, ending in one of ``suffixes`` (the first is added when it ends in none)."""
    base = re.split(r"[\\/]", str(name or ""))[-1]
    base = re.sub(r"[^A-Za-z0-9_.\-]", "-", base).strip(".-")[:64]
    if not base:
        return default
    if not base.endswith(suffixes):
        base += suffixes[0]
    return base


def _options(options: Sequence[str]) -> list[str]:
    if len(options) > MAX_OPTIONS:
        raise ProfileError(
            [Problem(Location(SET_FILE, MAX_OPTIONS + 1, 1), (), f"at most {MAX_OPTIONS} options")]
        )
    return [str(o) for o in options]


def _relabel(error: ProfileError, tmp: Path, name: str) -> ProfileError:
    """The problems of a profile read from ``tmp``, located under the person's ``name``."""
    folder = tmp.name

    def fix(text: str) -> str:
        return text.replace(str(tmp / name), name) if folder in text else text

    problems = []
    for p in error.problems:
        file = p.location.file
        if folder in file:
            file = name
        problems.append(
            Problem(
                Location(file, p.location.line, p.location.col), p.path, fix(p.message), fix(p.note)
            )
        )
    return ProfileError(problems)


def _only_builtin_parent(text: str, name: str) -> None:
    """A located ProfileError if the text's ``extends`` names anything but a built-in."""
    doc = load_located(text, name)  # syntax errors come out located, as from a file
    if not isinstance(doc.data, dict) or "extends" not in doc.data:
        return
    ref = doc.data["extends"]
    known = resources.builtin_profiles()
    if isinstance(ref, str) and ref in known:
        return
    raise ProfileError(
        [
            Problem(
                doc.where(("extends",)),
                ("extends",),
                f"{ref!r} is not a built-in profile: a profile written here extends a built-in "
                f"one ({', '.join(known)})",
            )
        ]
    )


def load(
    *,
    profile: str | None = None,
    text: str | None = None,
    name: str | None = None,
    options: Sequence[str] = (),
) -> tuple[Profile, str]:
    """A built-in profile (by id) or a profile's text, with options; (profile, the name
    its problems and origins are located under). ProfileError with located problems."""
    opts = _options(options)
    if text is None:
        pid = str(profile or "")
        if pid not in resources.builtin_profiles():
            raise ProfileError(
                [
                    Problem(
                        Location(pid or "(profile)", 1, 1),
                        (),
                        f"no built-in profile '{pid}' "
                        f"(built-ins: {', '.join(resources.builtin_profiles())})",
                    )
                ]
            )
        return load_profile(pid, opts), f"variants/{pid}.yaml"
    shown = safe_name(name)
    _only_builtin_parent(text, shown)
    with tempfile.TemporaryDirectory(prefix="paiqi-serve-") as folder:
        tmp = Path(folder)
        (tmp / shown).write_text(text, encoding="utf-8")
        try:
            loaded = load_profile(str(tmp / shown), opts)
            rules_of(loaded)  # the hooks' own checks, located like the loader's
        except ProfileError as e:
            raise _relabel(e, tmp, shown) from None
    # origins name the temporary file: give them the person's name
    return loaded, shown


def check(
    *,
    profile: str | None = None,
    text: str | None = None,
    name: str | None = None,
    options: Sequence[str] = (),
) -> dict[str, Any]:
    """Validate a profile as ``paiqi validate`` does: every problem located (line, column,
    rule), range notes, and the ``paiqi explain`` text when it is valid."""
    try:
        loaded, shown = load(profile=profile, text=text, name=name, options=options)
        Game(rules_of(loaded))
    except ProfileError as e:
        return {"ok": False, "problems": [problem_json(p) for p in e.problems]}
    explained = explain_text(loaded)
    if text is not None:
        explained = _unlocated(explained, loaded.source, shown)
    notes = [
        {
            "line": n.location.line if n.location.file != SET_FILE else None,
            "option": n.location.line if n.location.file == SET_FILE else None,
            "col": n.location.col,
            "rule": format_path(n.path),
            "message": f"note: {n.message}",
        }
        for n in range_notes(loaded)
    ]
    return {
        "ok": True,
        "problems": [],
        "notes": notes,
        "id": loaded.id,
        "name": loaded.name,
        "players": loaded.get("players"),
        "explain": explained,
    }


def _unlocated(text: str, source: str, shown: str) -> str:
    """Explain text with the temporary file's path replaced by the person's file name."""
    return text.replace(source, shown)


def problem_json(p: Problem) -> dict[str, Any]:
    """A located problem for the browser: the profile's line and column, or the option's
    line for a ``--set`` problem; the rule path and the message."""
    on_option = p.location.file == SET_FILE
    return {
        "file": p.location.file,
        "line": None if on_option else p.location.line,
        "option": p.location.line if on_option else None,
        "col": p.location.col,
        "rule": format_path(p.path),
        "message": p.message + (f" ({p.note})" if p.note else ""),
        "text": str(p),
    }
