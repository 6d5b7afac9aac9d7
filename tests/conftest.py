from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
# Девятка's rules on Pagat's Fan Tan (docs/variants/house.md): the 36 cards from 6 to ace,
# rows from the nines, the nine of diamonds opens
DEVYATKA = ("deck.ranks=6-A", "layout.centre=9", "opening.method=holder_leads", "opening.card=D9")
# rows begun with any card (layout.start any), upwards only (layout.sides up), one at a time
# (layout.rows one_at_a_time): Play or Pay with others, and each rule with other games
ROWS_ANYWHERE = [
    ("play-or-pay", ("players=5",)),
    ("play-or-pay", ("layout.rows=together", "players=3")),
    ("play-or-pay", ("layout.sides=either",)),
    ("doujue", ("layout.start=any", "layout.ace_king=wrap")),
    ("pagat", ("layout.rows=one_at_a_time",)),
    ("shichinarabe", ("layout.sides=up", "layout.ace_king=wrap")),
]
# 七並べ with the joker, where a 7 that can be played goes first (the 7s not put out at once)
SEVENS_FIRST_JOKER = (
    "turn.sevens_first=true",
    "opening.method=holder_leads",
    "opening.card=D7",
    "deck.jokers=1",
)


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
    from paiqi_core.core.layout import OVER, STATE
    from paiqi_core.fast.compiled import compiled_game

    compiled = compiled_game(Game("shichinarabe", ["deck.jokers=1"]).rules)
    compiled.play_seeds([0])
    over = np.zeros((1, STATE), dtype=np.int64)
    over[0, OVER] = 1
    compiled.play_on(over, [0])
    from paiqi_core.fast.inference import agreement  # weighing deals (search.inference)

    c = compiled
    none = np.zeros((0, 1, 2), dtype=np.int64)
    agreement(
        over[:0], none, np.zeros(0, np.int64), c.R, c.ext, c.beyond, 0, np.zeros((0, 2), np.int64)
    )


@pytest.fixture(autouse=True)
def engine_auto() -> None:
    """Every test starts with the engine of the process at ``auto``: a command run in this
    process with ``--engine python`` chooses the engine for the process (as batches do), and
    that choice must not follow into later tests."""
    from paiqi_core import fast

    fast.use("auto")


def profiles_taking(*overrides: str) -> list[str]:
    """The built-in profiles whose rules accept ``overrides`` (a joker is refused where the
    cards dealt to no seat form a stock, for one)."""
    from paiqi_core.profile import ProfileError, load_profile
    from paiqi_core.resources import builtin_profiles

    out = []
    for p in sorted(builtin_profiles()):
        try:
            load_profile(p, list(overrides))
        except ProfileError:
            continue
        out.append(p)
    return out
