"""CPython's random number generator in the kernel, word for word.

``random.Random(seed)`` with an int seed is the Mersenne Twister MT19937 seeded by
``init_by_array`` with the 32-bit words of ``abs(seed)``, least significant first.
``getrandbits(k)`` for ``k <= 32`` is the top ``k`` bits of the next 32-bit output. The
engine's deals and random players draw only through ``getrandbits``, so reproducing the
generator's outputs reproduces every deal, door card and random choice.

Seeding is the costly part (two passes of about 624 dependent steps): games are seeded in
blocks of ``LANES`` at once, one lane per game, so that the steps of the games of a block
run side by side in vector registers. The first ``PREPARED`` outputs of every lane are then
produced in the same way; later outputs are made one at a time as a game asks for them.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numba import njit

from paiqi_core.fast.bits import bit_length, hot, step
from paiqi_core.fast.layout import DRAWN

N = 624
M = 397
LANES = 64  # games seeded together
PREPARED = 256  # outputs made for every lane of a block at once
MAX_KEY = 8  # 32-bit words of a seed (seeds below 2**256)


def _init_genrand(s: int) -> np.ndarray:
    mt = np.zeros(N, np.uint32)
    mt[0] = s
    for i in range(1, N):
        prev = int(mt[i - 1])
        mt[i] = (1812433253 * (prev ^ (prev >> 30)) + i) & 0xFFFFFFFF
    return mt


BASE = _init_genrand(19650218)  # the state init_by_array starts from


def seed_keys(seeds: Sequence[int]) -> tuple[np.ndarray, np.ndarray]:
    """The ``init_by_array`` key of each seed, as ``random.Random(seed)`` makes it: the
    32-bit words of ``abs(seed)``, least significant first (one word 0 for seed 0)."""
    keys = np.zeros((len(seeds), MAX_KEY), np.uint32)
    lengths = np.ones(len(seeds), np.int64)
    for g, seed in enumerate(seeds):
        n = abs(int(seed))
        words = max(1, (n.bit_length() + 31) // 32)
        if words > MAX_KEY:
            raise ValueError(f"seed {seed} is too large for the compiled engine")
        lengths[g] = words
        for w in range(words):
            keys[g, w] = (n >> (32 * w)) & 0xFFFFFFFF
    return keys, lengths


def run_seed_keys(run_seed: int, indices: Sequence[int]) -> tuple[np.ndarray, np.ndarray]:
    """The keys of ``game_seed(run_seed, i)`` (``run_seed * 2**32 + i``) for each game index
    ``i``, made without a Python loop in the usual case."""
    index = np.asarray(indices, dtype=np.int64)
    count = len(index)
    if run_seed < 0 or (count and (index.min() < 0 or index.max() >= 1 << 32)):
        return seed_keys([run_seed * (1 << 32) + int(i) for i in index])
    high = run_seed
    words = []
    while high:
        words.append(high & 0xFFFFFFFF)
        high >>= 32
    if len(words) + 1 > MAX_KEY:
        raise ValueError(f"run seed {run_seed} is too large for the compiled engine")
    keys = np.zeros((count, MAX_KEY), np.uint32)
    keys[:, 0] = index.astype(np.uint32)
    for w, word in enumerate(words):
        keys[:, 1 + w] = word
    lengths = np.full(count, 1 + len(words), np.int64)
    return keys, lengths


@njit(cache=True)
def _seed_lane(mt: np.ndarray, lane: int, key: np.ndarray, length: int) -> None:
    """init_by_array for one lane."""
    for t in range(N):
        mt[t, lane] = BASE[t]
    i = 1
    j = 0
    steps = N if length < N else length
    for _ in range(steps):
        prev = mt[i - 1, lane]
        mt[i, lane] = (
            (mt[i, lane] ^ ((prev ^ (prev >> np.uint32(30))) * np.uint32(1664525)))
            + key[j]
            + np.uint32(j)
        )
        i += 1
        j += 1
        if i >= N:
            mt[0, lane] = mt[N - 1, lane]
            i = 1
        if j >= length:
            j = 0
    for _ in range(N - 1):
        prev = mt[i - 1, lane]
        mt[i, lane] = (
            mt[i, lane] ^ ((prev ^ (prev >> np.uint32(30))) * np.uint32(1566083941))
        ) - np.uint32(i)
        i += 1
        if i >= N:
            mt[0, lane] = mt[N - 1, lane]
            i = 1
    mt[0, lane] = np.uint32(0x80000000)


@njit(cache=True)
def seed_block(
    mt: np.ndarray, keys: np.ndarray, lengths: np.ndarray, first: int, lanes: int
) -> None:
    """Seed lanes 0..lanes-1 of ``mt`` (N x LANES) with the keys of games first.., as
    ``init_by_array``; lanes whose keys have one length are seeded side by side."""
    length = lengths[first]
    for g in range(lanes):
        if lengths[first + g] != length:
            for h in range(lanes):
                _seed_lane(mt, h, keys[first + h], lengths[first + h])
            return
    add = np.empty((length, lanes), np.uint32)  # key word + its index, by index
    for j in range(length):
        for g in range(lanes):
            add[j, g] = keys[first + g, j] + np.uint32(j)
    for t in range(N):
        value = BASE[t]
        for g in range(lanes):
            mt[t, g] = value
    i = 1
    j = 0
    steps = N if length < N else length
    for _ in range(steps):
        for g in range(lanes):
            prev = mt[i - 1, g]
            mt[i, g] = (mt[i, g] ^ ((prev ^ (prev >> np.uint32(30))) * np.uint32(1664525))) + add[
                j, g
            ]
        i += 1
        j += 1
        if i >= N:
            for g in range(lanes):
                mt[0, g] = mt[N - 1, g]
            i = 1
        if j >= length:
            j = 0
    for _ in range(N - 1):
        c = np.uint32(i)
        for g in range(lanes):
            prev = mt[i - 1, g]
            mt[i, g] = (mt[i, g] ^ ((prev ^ (prev >> np.uint32(30))) * np.uint32(1566083941))) - c
        i += 1
        if i >= N:
            for g in range(lanes):
                mt[0, g] = mt[N - 1, g]
            i = 1
    for g in range(lanes):
        mt[0, g] = np.uint32(0x80000000)


@step
def _temper(y: np.uint32) -> np.uint32:
    y ^= y >> np.uint32(11)
    y ^= (y << np.uint32(7)) & np.uint32(0x9D2C5680)
    y ^= (y << np.uint32(15)) & np.uint32(0xEFC60000)
    y ^= y >> np.uint32(18)
    return y


@hot
def prepare_block(mt: np.ndarray, words: np.ndarray, prepared: np.ndarray, lanes: int) -> None:
    """The first PREPARED outputs of every lane into ``prepared`` (LANES x PREPARED: a
    game reads its words in a row), made side by side in ``words`` (PREPARED x LANES);
    the state's first twist is done in place for those words, as the generator does it."""
    for kk in range(PREPARED):
        src = kk + M if kk < N - M else kk + M - N
        for g in range(lanes):
            y = (mt[kk, g] & np.uint32(0x80000000)) | (mt[kk + 1, g] & np.uint32(0x7FFFFFFF))
            v = (
                mt[src, g]
                ^ (y >> np.uint32(1))
                ^ ((np.uint32(0) - (y & np.uint32(1))) & np.uint32(0x9908B0DF))
            )
            mt[kk, g] = v
            words[kk, g] = _temper(v)
    for g in range(lanes):
        for kk in range(PREPARED):
            prepared[g, kk] = words[kk, g]


@hot
def _make_word(mt: np.ndarray, lane: int, kk: int) -> np.uint32:
    """Output word ``kk`` (mod N) of a lane's next round: twisted in place, in order."""
    if kk < N - 1:
        y = (mt[kk, lane] & np.uint32(0x80000000)) | (mt[kk + 1, lane] & np.uint32(0x7FFFFFFF))
    else:
        y = (mt[N - 1, lane] & np.uint32(0x80000000)) | (mt[0, lane] & np.uint32(0x7FFFFFFF))
    src = kk + M if kk < N - M else kk + M - N
    v = mt[src, lane] ^ (y >> np.uint32(1))
    if y & np.uint32(1):
        v ^= np.uint32(0x9908B0DF)
    mt[kk, lane] = v
    return _temper(v)


@step
def next_word(mt: np.ndarray, prepared: np.ndarray, lane: int, st: np.ndarray) -> int:
    """The game's next 32-bit output (its count kept in ``st[DRAWN]``)."""
    t = st[DRAWN]
    st[DRAWN] = t + 1
    if t < PREPARED:
        return np.int64(prepared[lane, t])  # type: ignore[return-value]
    return np.int64(_make_word(mt, lane, t % N))  # type: ignore[return-value]


@step
def getrandbits(mt: np.ndarray, prepared: np.ndarray, lane: int, st: np.ndarray, k: int) -> int:
    """``Random.getrandbits(k)`` for 1 <= k <= 32."""
    return next_word(mt, prepared, lane, st) >> (32 - k)


@step
def below(mt: np.ndarray, prepared: np.ndarray, lane: int, st: np.ndarray, n: int) -> int:
    """paiqi's ``below(rng, n)``: uniform in range(n) by rejection; nothing drawn for n <= 1."""
    if n <= 1:
        return 0
    k = bit_length(n)
    r = getrandbits(mt, prepared, lane, st, k)
    while r >= n:
        r = getrandbits(mt, prepared, lane, st, k)
    return r


@step
def randbelow(mt: np.ndarray, prepared: np.ndarray, lane: int, st: np.ndarray, n: int) -> int:
    """``Random.randrange(n)`` for n >= 1: as ``below``, but it draws for n == 1 too."""
    k = bit_length(n)
    r = getrandbits(mt, prepared, lane, st, k)
    while r >= n:
        r = getrandbits(mt, prepared, lane, st, k)
    return r
