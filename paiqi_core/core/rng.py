"""The deal's random stream in the kernel: SplitMix64, draw for draw as
``paiqi_core.streams`` makes it.

A game's stream is slots of its state vector: the key (``KEY``, the 64 bits held as an
int64), the draws so far (``DRAWN``), how it draws (``GEN``: 0 for ``splitmix64-lemire``,
``WORDS`` for the earlier ``splitmix64``) and, under the first, the low half of the last
word made while it is still to be drawn (``HALF``). Word ``t`` is ``mix64(key + (t + 1) *
GAMMA)``, made on demand: nothing is seeded or kept per game beyond those slots.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from paiqi_core.core.bits import COMPILED, bit_length, step
from paiqi_core.core.layout import DRAWN, GEN, HALF, KEY, WORDS
from paiqi_core.streams import C1, C2, GAMMA, MASK, key_of, mix64, mix_array, signed

if TYPE_CHECKING:
    import numpy as np

LOW = (1 << 32) - 1

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
        """Under ``WORDS``, ``WordStream.getrandbits(k)`` for 1 <= k <= 63: the top ``k``
        bits of the next word."""
        t = st[DRAWN]
        st[DRAWN] = t + 1
        return np.int64(word(st[KEY], t) >> np.uint64(64 - k))  # type: ignore[return-value]

    @step
    def half(st: np.ndarray) -> int:
        """The next half: a word's top 32 bits, then (kept in ``HALF``) its low 32."""
        t = st[DRAWN]
        st[DRAWN] = t + 1
        if t & 1:
            return st[HALF]
        z = word(st[KEY], t >> 1)
        st[HALF] = np.int64(z & np.uint64(LOW))
        return np.int64(z >> np.uint64(32))  # type: ignore[return-value]

else:  # plain Python: the same words from Python ints (NumPy's scalars would warn on overflow)

    def word(key: int, t: int) -> np.uint64:
        """Word ``t`` of the stream of ``key`` (an int64 holding the key's 64 bits)."""
        return mix64(((int(key) & MASK) + (int(t) + 1) * GAMMA) & MASK)  # type: ignore[return-value]

    def getrandbits(st: np.ndarray, k: int) -> int:
        """Under ``WORDS``, ``WordStream.getrandbits(k)`` for 1 <= k <= 63: the top ``k``
        bits of the next word."""
        t = int(st[DRAWN])
        st[DRAWN] = t + 1
        return mix64(((int(st[KEY]) & MASK) + (t + 1) * GAMMA) & MASK) >> (64 - k)

    def half(st: np.ndarray) -> int:
        """The next half: a word's top 32 bits, then (kept in ``HALF``) its low 32."""
        t = int(st[DRAWN])
        st[DRAWN] = t + 1
        if t & 1:
            return int(st[HALF])
        z = int(word(st[KEY], t >> 1))
        st[HALF] = z & LOW
        return z >> 32


@step
def below(st: np.ndarray, n: int) -> int:
    """``streams.below(rng, n)``: uniform in range(n); nothing drawn for n <= 1."""
    if n <= 1:
        return 0
    return randbelow(st, n)


@step
def randbelow(st: np.ndarray, n: int) -> int:
    """``Stream.randrange(n)`` for 1 <= n < 2**31: as ``below``, but it draws for n == 1
    too. Lemire's method on the next half; under ``WORDS``, rejection on the top
    ``n.bit_length()`` bits of whole words."""
    if st[GEN] == WORDS:
        k = bit_length(n)
        r = getrandbits(st, k)
        while r >= n:
            r = getrandbits(st, k)
        return r
    m = half(st) * n
    if (m & LOW) < n:
        floor = (LOW + 1) % n
        while (m & LOW) < floor:
            m = half(st) * n
    return m >> 32


def resume(st: np.ndarray, generator: int, key: int, drawn: int) -> None:
    """Put a stream in ``st``: its generator (0 or ``WORDS``), its key and its draws so far,
    and the half a word left to draw (from Python, where ``Stream`` holds it)."""
    st[GEN], st[KEY], st[DRAWN] = generator, signed(key & MASK), drawn
    st[HALF] = int(word(st[KEY], drawn >> 1)) & LOW if drawn & 1 else 0


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
