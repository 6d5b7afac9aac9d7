"""Runs: batches of games executed on local processes and stored in an SQLite file, so
that long runs survive interruption and can be queried and compared later."""

from __future__ import annotations

from pathlib import Path


def source_checkout() -> Path | None:
    """The source checkout this paiqi runs from (its folder holds paiqi's pyproject.toml),
    or None when paiqi is an installed package."""
    root = Path(__file__).resolve().parents[2]
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
