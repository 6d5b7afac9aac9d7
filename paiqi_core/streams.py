"""The random stream of a deal: SplitMix64, counter-based, the same at both speeds.

A seed names a 64-bit *key*; word ``t`` of the stream (t = 0, 1, ...) is SplitMix64's
output ``mix64(key + (t + 1) * GAMMA)``. Any word can be made from the key and its number
alone, so the compiled engine keeps a game's stream in two numbers of its state vector (the
key and the words drawn) and makes each word in a few instructions, and the Python side
makes the very same words (``Stream``). ``getrandbits(k)`` for ``k <= 64`` is the top
``k`` bits of the next word; everything the engine draws (the shuffle, the door card, the
random players' choices) goes through it.

The key of a seed is SplitMix64's first output from each 64-bit limb of ``abs(seed)``,
least significant first, folded in: ``key = mix64((key ^ limb) + GAMMA)`` from 0 (a
negative seed gives the key of its absolute value with every bit flipped).

Deals made before the generator was named (``mt19937``) came from CPython's
``random.Random(seed)``: ``stream(seed, "mt19937")`` gives that stream, so their records
replay and their runs resume as they were played.
"""

from __future__ import annotations

import os
import random
from collections.abc import Callable, Iterable, Iterator
from functools import partial
from itertools import chain
from typing import Any

GENERATOR = "splitmix64"  # what paiqi deals with
LEGACY = "mt19937"  # CPython's random.Random: records and runs made before GENERATOR
GENERATORS = (GENERATOR, LEGACY)

MASK = (1 << 64) - 1
GAMMA = 0x9E3779B97F4A7C15
C1 = 0xBF58476D1CE4E5B9
C2 = 0x94D049BB133111EB
BLOCK = 256  # words made at a time by ``Stream`` (with NumPy)
SMALL = 32  # without it


def mix64(z: int) -> int:
    """SplitMix64's output function on a 64-bit ``z``."""
    z = ((z ^ (z >> 30)) * C1) & MASK
    z = ((z ^ (z >> 27)) * C2) & MASK
    return z ^ (z >> 31)


def key_of(seed: int) -> int:
    """The 64-bit key of the stream of ``seed`` (an int of any size)."""
    n = abs(seed)
    key = 0
    while True:
        key = mix64(((key ^ (n & MASK)) + GAMMA) & MASK)
        n >>= 64
        if not n:
            break
    return key ^ MASK if seed < 0 else key


def derived_key(seed: int, tag: int) -> int:
    """The key of a stream of its own for ``tag`` (a non-negative int) beside the deal of
    ``seed``: the random players of each replay of a deal draw from one of these."""
    return mix64(((key_of(seed) ^ (tag & MASK)) + GAMMA) & MASK)


def signed(key: int) -> int:
    """A 64-bit key as the int64 the compiled engine holds it in (the same bits)."""
    return key - (1 << 64) if key >> 63 else key


def _python_words(key: int, first: int) -> list[int]:
    """``SMALL`` words from word ``first`` on, one at a time (where NumPy is missing)."""
    base = key + first * GAMMA
    return [mix64((base + t * GAMMA) & MASK) for t in range(1, SMALL + 1)]


def mix_array(z: Any) -> Any:
    """``mix64`` of every word of ``z``, a NumPy array of uint64, in place (arrays wrap
    round on overflow)."""
    import numpy as np

    z ^= z >> np.uint64(30)
    z *= np.uint64(C1)
    z ^= z >> np.uint64(27)
    z *= np.uint64(C2)
    z ^= z >> np.uint64(31)
    return z


def _steps(count: int) -> Any:
    """``(t + 1) * GAMMA`` for t below ``count``, as uint64 (wrapped round)."""
    import numpy as np

    with np.errstate(over="ignore"):
        return np.arange(1, count + 1, dtype=np.uint64) * np.uint64(GAMMA)


def _numpy_words() -> Callable[[int, int], list[int]]:
    """``BLOCK`` words at a time with NumPy, or the Python way where NumPy is not
    installed."""
    try:
        import numpy as np
    except ImportError:
        return _python_words
    steps = _steps(BLOCK)

    def block(key: int, first: int) -> list[int]:
        out: list[int] = mix_array(steps + np.uint64((key + first * GAMMA) & MASK)).tolist()
        return out

    return block


_MAKERS: list[Callable[[int, int], list[int]]] = []
FIRST = 192  # words of each stream that ``prefetch`` makes (a random game draws fewer)
_READY: dict[int, list[int]] = {}  # a key -> its first words, made by ``prefetch``


def prefetch(seeds: Iterable[int]) -> None:
    """Make the first ``FIRST`` words of the streams of ``seeds`` in one NumPy pass, for
    games about to be dealt in Python: a stream of one of those seeds then starts from them
    rather than making a block of its own (the same words, made for many streams at the
    cost of one). Whatever an earlier call made that no stream took is dropped."""
    _READY.clear()
    keys = [key_of(seed) for seed in seeds]
    try:
        import numpy as np
    except ImportError:
        return
    z = mix_array(np.array(keys, dtype=np.uint64)[:, None] + _steps(FIRST)[None, :])
    _READY.update(zip(keys, z.tolist(), strict=True))


def words(key: int, first: int) -> list[int]:
    """Words ``first, first + 1, ...`` of the stream of ``key``: a block of them (NumPy is
    imported the first time, not when paiqi is)."""
    if not _MAKERS:
        _MAKERS.append(_numpy_words())
    return _MAKERS[0](key, first)


class _Blocks:
    """The blocks of words of one stream, in order: the one in hand, where it starts and
    how long it is."""

    __slots__ = ("base", "block", "key", "size")

    def __init__(self, key: int, drawn: int) -> None:
        self.key = key
        self.base = drawn  # the first word of the block in hand
        self.size = 0  # its length
        self.block: Iterator[int] = iter(())  # what is left of it

    def make(self, first: int) -> Iterator[int]:
        """The block that starts at word ``first``, now the one in hand."""
        block = _READY.pop(self.key, None) if first == 0 else None
        if block is None:
            block = words(self.key, first)
        self.base, self.size = first, len(block)
        self.block = iter(block)
        return self.block

    def firsts(self) -> Iterator[int]:
        """The first word of each block: each starts where the last one ended."""
        first = self.base
        while True:
            yield first
            first += self.size


class Stream(random.Random):
    """The SplitMix64 stream of a seed, as a ``random.Random``: ``getrandbits``,
    ``randrange``, ``random``, ``shuffle`` and the rest draw from it, and ``getstate`` is
    the key and the words drawn. Copies, pickles and ``setstate`` go on from where it was."""

    key: int

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)

    @classmethod
    def from_key(cls, key: int, drawn: int = 0) -> Stream:
        """The stream of ``key`` (a 64-bit key), ``drawn`` words in."""
        stream = cls(0)
        stream.setstate((GENERATOR, key, drawn))
        return stream

    def seed(self, a: Any = None, version: int = 2) -> None:
        """Start the stream of the int ``a`` (None: a key from the operating system)."""
        if a is None:
            a = int.from_bytes(os.urandom(8), "little")
        if isinstance(a, bool) or not isinstance(a, int):
            raise TypeError(f"a {GENERATOR} stream is seeded with an int, not {type(a).__name__}")
        self._start(key_of(a), 0)

    def _start(self, key: int, drawn: int) -> None:
        self.key = key & MASK
        self._blocks = blocks = _Blocks(self.key, drawn)
        # the words one by one from ``drawn`` on, made a block at a time: a built-in
        # callable, for the loops that draw most (``draws``). It holds the blocks, never
        # the stream, so a stream is freed as soon as it is dropped (no cycle to collect)
        self.next_word: Callable[[], int] = chain.from_iterable(
            map(blocks.make, blocks.firsts())
        ).__next__

    @property
    def drawn(self) -> int:
        """Words drawn so far."""
        blocks = self._blocks
        left: int = blocks.block.__length_hint__()  # type: ignore[attr-defined]
        return blocks.base + blocks.size - left

    def getstate(self) -> tuple[Any, ...]:
        """The key and the number of words drawn."""
        return (GENERATOR, self.key, self.drawn)

    def setstate(self, state: tuple[Any, ...]) -> None:
        """Go on from a ``getstate``."""
        name, key, drawn = state
        if name != GENERATOR:
            raise ValueError(f"not the state of a {GENERATOR} stream: {state!r}")
        self._start(int(key), int(drawn))
        self.gauss_next = None  # random.Random keeps it for gauss()

    def getrandbits(self, k: int) -> int:
        """``k`` random bits: the top ``k`` bits of the next word (``k <= 64``); more take
        as many words as they need, least significant first."""
        if 0 < k <= 64:
            return self.next_word() >> (64 - k)
        if k == 0:
            return 0
        if k < 0:
            raise ValueError("number of bits must be non-negative")
        value = 0
        shift = 0
        while k > 0:
            value |= self.getrandbits(min(k, 64)) << shift
            shift += 64
            k -= 64
        return value

    def _randbelow(self, n: int) -> int:
        """Uniform in ``range(n)`` by rejection on ``n.bit_length()`` bits (as the compiled
        engine's ``randbelow``), whatever the Python version does."""
        getrandbits = self.getrandbits
        k = n.bit_length()
        r = getrandbits(k)
        while r >= n:
            r = getrandbits(k)
        return r

    def random(self) -> float:
        """A float in [0, 1) from the top 53 bits of the next word."""
        return self.getrandbits(53) * (1.0 / (1 << 53))


def stream(seed: int, generator: str = GENERATOR) -> random.Random:
    """The random stream of the deal of ``seed`` under ``generator``."""
    if generator == GENERATOR:
        return Stream(seed)
    if generator == LEGACY:
        return random.Random(seed)
    raise ValueError(f"unknown generator {generator!r} (known: {', '.join(GENERATORS)})")


def draws(rng: random.Random) -> tuple[Callable[[], int], int]:
    """What the loops that draw most call instead of ``rng.getrandbits(k)``: a built-in
    callable giving words of ``width`` bits, whose top ``k`` bits are what
    ``getrandbits(k)`` would give (``k <= 32``), and that width. For a ``Stream``, its
    words; for a ``random.Random``, its 32-bit outputs."""
    if type(rng) is Stream:
        return rng.next_word, 64
    return partial(rng.getrandbits, 32), 32


def below(rng: random.Random, n: int) -> int:
    """A uniform index in ``range(n)`` by rejection on ``n.bit_length()`` bits (the
    choices of the random players, at both speeds); a single option draws nothing."""
    if n <= 1:
        return 0
    k = n.bit_length()
    if type(rng) is Stream:  # its words at once, rather than through getrandbits
        word, drop = rng.next_word, 64 - k
        r = word() >> drop
        while r >= n:
            r = word() >> drop
        return r
    getrandbits = rng.getrandbits
    r = getrandbits(k)
    while r >= n:
        r = getrandbits(k)
    return r
