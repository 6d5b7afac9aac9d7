"""Where the shipped rule schemas and built-in profiles live.

An installed wheel carries them inside the package (``paiqi_core/_data``); a source
checkout keeps them at the top of the repository (``rules/``, ``variants/``).
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

_PACKAGE = Path(__file__).resolve().parent


def data_dir(name: str) -> Path:
    """The folder of shipped data ``name`` (inside the wheel, or the checkout's)."""
    installed = _PACKAGE / "_data" / name
    if installed.is_dir():
        return installed
    return _PACKAGE.parent / name


def variants_dir() -> Path:
    """The folder of the built-in profiles."""
    return data_dir("variants")


def builtin_profiles() -> dict[str, Path]:
    """The built-in profiles: id -> file."""
    return {p.stem: p for p in sorted(variants_dir().glob("*.yaml"), key=lambda p: p.stem)}


@cache
def families() -> tuple[str, ...]:
    """The built-in families (``variants/families.txt``): the built-in profiles that extend
    nothing, in the order reports list them."""
    text = (variants_dir() / "families.txt").read_text(encoding="utf-8")
    lines = (line.split("#", 1)[0].strip() for line in text.splitlines())
    return tuple(line for line in lines if line)


@cache
def schema(name: str) -> dict[str, Any]:
    """The JSON Schema ``name`` (``profile``, ``example`` or ``record``)."""
    with open(data_dir("rules") / f"{name}.schema.json", encoding="utf-8") as f:
        result: dict[str, Any] = json.load(f)
    return result


def source_checkout() -> Path | None:
    """The source checkout this paiqi runs from (its folder holds paiqi's pyproject.toml),
    or None when paiqi is an installed package."""
    root = _PACKAGE.parent
    try:
        text = (root / "pyproject.toml").read_text(encoding="utf-8")
    except OSError:
        return None
    return root if 'name = "paiqi"' in text else None


def install_hint(extra: str) -> str:
    """How to install one of paiqi's optional extras (``plots``, ``dask``) here: from the
    package index, or from the source checkout paiqi runs from."""
    root = source_checkout()
    if root is None:
        return f"pip install 'paiqi[{extra}]'"
    try:
        here = Path.cwd().resolve() == root
    except OSError:
        here = False
    where = "." if here else str(root)
    return f"pip install -e '{where}[{extra}]' (from the source checkout)"
