"""Seeds: game ``i`` of a run seeded ``S`` is dealt from ``game_seed(S, i)``, whatever the
profile, so the same run seed gives the same deals under every profile with the same number
of players. The deal shuffles with ``random.Random(seed)``; the random agents of a simulated
game then continue drawing from that same stream."""

from __future__ import annotations

import random
from collections.abc import Sequence

GAME_STRIDE = 1 << 32


def game_seed(run_seed: int, index: int) -> int:
    return run_seed * GAME_STRIDE + index


def shuffled(deck: Sequence[int], rng: random.Random) -> list[int]:
    """The deck shuffled with ``rng``: Fisher-Yates, the same permutation as
    ``rng.shuffle``, spelled out so that deals stay the same whatever a Python version
    does to ``shuffle``."""
    x = list(deck)
    getrandbits = rng.getrandbits
    for i in range(len(x) - 1, 0, -1):
        n = i + 1
        k = n.bit_length()
        r = getrandbits(k)
        while r >= n:
            r = getrandbits(k)
        x[i], x[r] = x[r], x[i]
    return x
