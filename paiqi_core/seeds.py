"""Seeds: game ``i`` of a run seeded ``S`` is dealt from ``game_seed(S, i)``, whatever the
profile, so the same run seed gives the same deals under every profile with the same number
of players. The deal shuffles with the seed's random stream (``paiqi_core.streams``); the
random agents of a simulated game then continue drawing from that same stream."""

from __future__ import annotations

import random
from collections.abc import Sequence

from paiqi_core.streams import below

GAME_STRIDE = 1 << 32


def game_seed(run_seed: int, index: int) -> int:
    """The seed of game ``index`` of a run seeded ``run_seed``."""
    return run_seed * GAME_STRIDE + index


def shuffled(deck: Sequence[int], rng: random.Random) -> list[int]:
    """The deck shuffled with ``rng``: Fisher-Yates, swapping position ``i`` (from the
    last down to 1) with a uniform position in 0..i drawn as ``streams.below(rng, i + 1)``
    draws it (for ``mt19937``, the same permutation as ``rng.shuffle``), spelled out so
    that deals stay the same whatever a Python version does to ``shuffle``."""
    x = list(deck)
    for i in range(len(x) - 1, 0, -1):
        r = below(rng, i + 1)
        x[i], x[r] = x[r], x[i]
    return x
