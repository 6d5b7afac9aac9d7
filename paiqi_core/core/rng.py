"""The deal's random stream in the kernel: SplitMix64, word for word as
``paiqi_core.streams.Stream`` makes it.

A game's stream is two slots of its state vector: the key (``KEY``, the 64 bits held as
an int64) and the words drawn so far (``DRAWN``). Word ``t`` is ``mix64(key + (t + 1) *
GAMMA)``, made on demand from those two numbers: nothing is seeded or kept per game.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from paiqi_core.core.bits import COMPILED, bit_length, step
from paiqi_core.core.layout import DRAWN, KEY
from paiqi_core.streams import C1, C2, GAMMA, MASK, key_of, mix64, mix_array, signed

if TYPE_CHECKING:
    import numpy as np

if COMPILED:  # numba is installed, and with it NumPy
    import numpy as np

    _GAMMA = np.uint64(GAMMA)
    _C1 = np.uint64(C1)
    _C2 = np.uint64(C2)

    @step
    def word(key: int, t: int) -> np.uint64:
        """Word ``t`` of the stream of ``key`` (an int64 holding the key's 64 bits)."""
        z = np.uint64(key) + np.uint64(t + 1) * _GAMMA
        z = (z ^ (z >> np.uint64(30))) * _C1
        z = (z ^ (z >> np.uint64(27))) * _C2
        return z ^ (z >> np.uint64(31))

    @step
    def getrandbits(st: np.ndarray, k: int) -> int:
        """``Stream.getrandbits(k)`` for 1 <= k <= 63: the top ``k`` bits of the next word."""
        t = st[DRAWN]
        st[DRAWN] = t + 1
        return np.int64(word(st[KEY], t) >> np.uint64(64 - k))  # type: ignore[return-value]

else:  # plain Python: the same words from Python ints (NumPy's scalars would warn on overflow)

    def word(key: int, t: int) -> np.uint64:
        """Word ``t`` of the stream of ``key`` (an int64 holding the key's 64 bits)."""
        return mix64(((int(key) & MASK) + (int(t) + 1) * GAMMA) & MASK)  # type: ignore[return-value]

    def getrandbits(st: np.ndarray, k: int) -> int:
        """``Stream.getrandbits(k)`` for 1 <= k <= 63: the top ``k`` bits of the next word."""
        t = int(st[DRAWN])
        st[DRAWN] = t + 1
        return mix64(((int(st[KEY]) & MASK) + (t + 1) * GAMMA) & MASK) >> (64 - k)


@step
def below(st: np.ndarray, n: int) -> int:
    """paiqi's ``below(rng, n)``: uniform in range(n) by rejection; nothing drawn for n <= 1."""
    if n <= 1:
        return 0
    k = bit_length(n)
    r = getrandbits(st, k)
    while r >= n:
        r = getrandbits(st, k)
    return r


@step
def randbelow(st: np.ndarray, n: int) -> int:
    """``Stream.randrange(n)`` for n >= 1: as ``below``, but it draws for n == 1 too."""
    k = bit_length(n)
    r = getrandbits(st, k)
    while r >= n:
        r = getrandbits(st, k)
    return r


# -- the keys of seeds, as the kernel holds them -----------------------------------------------
def keys_of(seeds: Iterable[int]) -> np.ndarray:
    """The keys of the streams of ``seeds`` (``streams.key_of``) as int64s."""
    import numpy as np

    return np.array([signed(key_of(int(s))) for s in seeds], dtype=np.int64)


def run_keys(run_seed: int, indices: Sequence[int]) -> np.ndarray:
    """The keys (int64) of ``game_seed(run_seed, i)`` = ``run_seed * 2**32 + i`` for each
    game index ``i``: without a Python loop where the seeds have at most two 64-bit limbs
    (a run seed below 2**64, indices below 2**32)."""
    import numpy as np

    index = np.asarray(indices, dtype=np.int64)
    if not 0 <= run_seed < 1 << 64 or (len(index) and (index.min() < 0 or index.max() >> 32)):
        return keys_of(run_seed * (1 << 32) + int(i) for i in index)
    low = np.uint64((run_seed & 0xFFFFFFFF) << 32) | index.astype(np.uint64)
    key = mix_array(low + np.uint64(GAMMA))
    high = run_seed >> 32
    if high:
        key = mix_array((key ^ np.uint64(high)) + np.uint64(GAMMA))
    return key.view(np.int64)
