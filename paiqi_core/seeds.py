"""Seeds: game ``i`` of a run seeded ``S`` is dealt from ``game_seed(S, i)``, whatever the
profile, so the same run seed gives the same deals under every profile with the same number
of players. The deal shuffles with the seed's random stream (``paiqi_core.streams``); the
random agents of a simulated game then continue drawing from that same stream."""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import cache

from paiqi_core.streams import draws

GAME_STRIDE = 1 << 32


def game_seed(run_seed: int, index: int) -> int:
    """The seed of game ``index`` of a run seeded ``run_seed``."""
    return run_seed * GAME_STRIDE + index


@cache
def _fisher_yates_steps(size: int) -> tuple[tuple[int, int], ...]:
    """(i, bits drawn to pick a position in 0..i) for each swap of a deck of ``size``."""
    return tuple((i, (i + 1).bit_length()) for i in range(size - 1, 0, -1))


def shuffled(deck: Sequence[int], rng: random.Random) -> list[int]:
    """The deck shuffled with ``rng``: Fisher-Yates, the same permutation as
    ``rng.shuffle``, spelled out so that deals stay the same whatever a Python version
    does to ``shuffle``."""
    x = list(deck)
    word, width = draws(rng)  # word() >> (width - k) is rng.getrandbits(k), drawn quicker
    for i, k in _fisher_yates_steps(len(x)):
        drop = width - k
        r = word() >> drop
        while r > i:  # uniform in 0..i by rejection, as Random.randrange(i + 1) draws it
            r = word() >> drop
        x[i], x[r] = x[r], x[i]
    return x
