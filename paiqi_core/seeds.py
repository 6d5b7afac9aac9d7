"""Seeds: game ``i`` of a run seeded ``S`` is dealt from ``game_seed(S, i)``, whatever the
profile, so the same run seed gives the same deals under every profile with the same number
of players."""

from __future__ import annotations

import random
from collections.abc import Sequence

GAME_STRIDE = 1 << 32


def game_seed(run_seed: int, index: int) -> int:
    return run_seed * GAME_STRIDE + index


def shuffled(deck: Sequence[int], seed: int) -> list[int]:
    """The deck shuffled by ``seed``: Fisher-Yates drawing from ``random.Random(seed)``,
    the same permutation as ``Random(seed).shuffle``, spelled out so that deals stay the same
    whatever the Python version does to ``shuffle``."""
    x = list(deck)
    getrandbits = random.Random(seed).getrandbits
    for i in range(len(x) - 1, 0, -1):
        n = i + 1
        k = n.bit_length()
        r = getrandbits(k)
        while r >= n:
            r = getrandbits(k)
        x[i], x[r] = x[r], x[i]
    return x


AGENT_SALT = 0xA6E475 << 96  # keeps agent streams apart from every deal seed below 2**96


def agent_rng(seed: int) -> random.Random:
    """The random stream of the agents of the game dealt from ``seed``."""
    return random.Random(AGENT_SALT ^ seed)
