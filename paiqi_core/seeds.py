"""Seeds: game ``i`` of a run seeded ``S`` is dealt from ``game_seed(S, i)``, whatever the
profile, so the same run seed gives the same deals under every profile with the same number
of players."""

from __future__ import annotations

import random

GAME_STRIDE = 1 << 32


def game_seed(run_seed: int, index: int) -> int:
    return run_seed * GAME_STRIDE + index


def agent_rng(seed: int) -> random.Random:
    """The random stream of the agents of the game dealt from ``seed``."""
    return random.Random(b"agents:" + str(seed).encode())
