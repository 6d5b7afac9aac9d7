from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def in_repo(monkeypatch: pytest.MonkeyPatch) -> Path:
    """Run with the repository root as the working directory (paths in messages are
    relative to it)."""
    monkeypatch.chdir(ROOT)
    return ROOT
