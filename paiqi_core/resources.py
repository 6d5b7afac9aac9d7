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
    installed = _PACKAGE / "_data" / name
    if installed.is_dir():
        return installed
    return _PACKAGE.parent / name


def variants_dir() -> Path:
    return data_dir("variants")


def builtin_profiles() -> dict[str, Path]:
    return {p.stem: p for p in sorted(variants_dir().glob("*.yaml"), key=lambda p: p.stem)}


@cache
def schema(name: str) -> dict[str, Any]:
    with open(data_dir("rules") / f"{name}.schema.json", encoding="utf-8") as f:
        result: dict[str, Any] = json.load(f)
    return result
