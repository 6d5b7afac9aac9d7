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


@pytest.fixture(scope="session", autouse=True)
def compiled_engine() -> None:
    """Compile the compiled engine's kernel once, before any test (or load it from numba's
    cache): the commands that tests run in other processes then load it from the cache,
    instead of each compiling it within their time limits."""
    from paiqi_core import fast

    if not fast.available():
        return
    import numpy as np

    from paiqi_core import Game
    from paiqi_core.fast.compiled import compiled_game
    from paiqi_core.fast.layout import OVER, STATE

    compiled = compiled_game(Game("shichinarabe", ["deck.jokers=1"]).rules)
    compiled.play_seeds([0])
    over = np.zeros((1, STATE), dtype=np.int64)
    over[0, OVER] = 1
    compiled.play_on(over, [0])
