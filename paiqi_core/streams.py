"""The random stream of a deal: SplitMix64, counter-based, the same at both speeds.

A seed names a 64-bit *key*; word ``t`` of the stream (t = 0, 1, ...) is SplitMix64's
output ``mix64(key + (t + 1) * GAMMA)``. Any word can be made from the key and its number
alone, so the compiled engine keeps a game's stream in a few numbers of its state vector
(the key, what was drawn, the half of a word not yet used) and makes each word in a few
instructions, and the Python side makes the very same words (``Stream``).

paiqi draws 32-bit *halves*: word ``t`` gives half ``2t`` (its top 32 bits) then half
``2t + 1`` (its low 32 bits). A uniform index below ``n`` (the shuffle, the door card, the
random players' choices) is Lemire's multiply-shift on the next half, ``half * n >> 32``,
redrawn in the rare case ``(half * n) mod 2**32 < 2**32 mod n`` (so it is exactly uniform):
one half a choice, where taking the top bits of a whole word and rejecting what is too big
spent a word and a third. ``getrandbits(k)`` for ``k <= 32`` is the top ``k`` bits of the
next half. This is the generator ``splitmix64-lemire``.

The key of a seed is SplitMix64's first output from each 64-bit limb of ``abs(seed)``,
least significant first, folded in: ``key = mix64((key ^ limb) + GAMMA)`` from 0 (a
negative seed gives the key of its absolute value with every bit flipped).

Deals made earlier keep their generators, so their records replay and their runs resume as
they were played: ``splitmix64`` (the same words, an index below ``n`` taken from the top
``n.bit_length()`` bits of a whole word, redrawn while too big: ``WordStream``, at both
speeds) and, before it, ``mt19937`` (CPython's ``random.Random(seed)``, in Python).
"""

from __future__ import annotations

import os
import random
from collections.abc import Callable, Iterable, Iterator
from itertools import chain
from typing import Any

GENERATOR = "splitmix64-lemire"  # what paiqi deals with: Lemire's method on 32-bit halves
WORDS = "splitmix64"  # the same words, an index from the top bits of a whole word
LEGACY = "mt19937"  # CPython's random.Random: records and runs made before the two above
GENERATORS = (GENERATOR, WORDS, LEGACY)
KERNEL = (GENERATOR, WORDS)  # the generators the compiled engine deals with
HALF = (1 << 32) - 1

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


def split(block: list[int]) -> list[int]:
    """The halves of ``block``'s words, in order: each word's top 32 bits, then its low."""
    out = [0] * (2 * len(block))
    out[0::2] = [w >> 32 for w in block]
    out[1::2] = [w & HALF for w in block]
    return out


class _Blocks:
    """The blocks of draws (words, or halves of words) of one stream, in order: the one in
    hand, where it starts and how long it is."""

    __slots__ = ("base", "block", "halves", "key", "size")

    def __init__(self, key: int, drawn: int, halves: bool) -> None:
        self.key = key
        self.halves = halves
        self.base = drawn  # the first draw of the block in hand
        self.size = 0  # its length
        self.block: Iterator[int] = iter(())  # what is left of it

    def make(self, first: int) -> Iterator[int]:
        """The block that starts at draw ``first``, now the one in hand."""
        word = first >> 1 if self.halves else first
        block = _READY.pop(self.key, None) if word == 0 else None
        if block is None:
            block = words(self.key, word)
        if self.halves:
            block = split(block)[first & 1 :]
        self.base, self.size = first, len(block)
        self.block = iter(block)
        return self.block

    def firsts(self) -> Iterator[int]:
        """The first draw of each block: each starts where the last one ended."""
        first = self.base
        while True:
            yield first
            first += self.size


class Stream(random.Random):
    """The stream of a seed under paiqi's generator (``splitmix64-lemire``), as a
    ``random.Random``: ``getrandbits``, ``randrange``, ``random``, ``shuffle`` and the rest
    draw from it, and ``getstate`` is the generator, the key and the halves drawn. Copies,
    pickles and ``setstate`` go on from where it was."""

    key: int
    generator = GENERATOR
    unit = 32  # the bits of a draw: a half of a word

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)

    @classmethod
    def from_key(cls, key: int, drawn: int = 0) -> Stream:
        """The stream of ``key`` (a 64-bit key), ``drawn`` draws in."""
        stream = cls(0)
        stream.setstate((cls.generator, key, drawn))
        return stream

    def seed(self, a: Any = None, version: int = 2) -> None:
        """Start the stream of the int ``a`` (None: a key from the operating system)."""
        if a is None:
            a = int.from_bytes(os.urandom(8), "little")
        if isinstance(a, bool) or not isinstance(a, int):
            name = self.generator
            raise TypeError(f"a {name} stream is seeded with an int, not {type(a).__name__}")
        self._start(key_of(a), 0)

    def _start(self, key: int, drawn: int) -> None:
        self.key = key & MASK
        self._blocks = blocks = _Blocks(self.key, drawn, self.unit == 32)
        # the draws one by one from ``drawn`` on, made a block at a time: a built-in
        # callable, for the loops that draw most (``below``). It holds the blocks, never
        # the stream, so a stream is freed as soon as it is dropped (no cycle to collect)
        self.next_draw: Callable[[], int] = chain.from_iterable(
            map(blocks.make, blocks.firsts())
        ).__next__

    @property
    def drawn(self) -> int:
        """Draws so far (halves; words for a ``WordStream``)."""
        blocks = self._blocks
        left: int = blocks.block.__length_hint__()  # type: ignore[attr-defined]
        return blocks.base + blocks.size - left

    def getstate(self) -> tuple[Any, ...]:
        """The generator, the key and the number of draws."""
        return (self.generator, self.key, self.drawn)

    def setstate(self, state: tuple[Any, ...]) -> None:
        """Go on from a ``getstate``."""
        name, key, drawn = state
        if name != self.generator:
            raise ValueError(f"not the state of a {self.generator} stream: {state!r}")
        self._start(int(key), int(drawn))
        self.gauss_next = None  # random.Random keeps it for gauss()

    def getrandbits(self, k: int) -> int:
        """``k`` random bits: the top ``k`` bits of the next draw (``k <= 32``, 64 for a
        ``WordStream``); more take as many draws as they need, least significant first."""
        unit = self.unit
        if 0 < k <= unit:
            return self.next_draw() >> (unit - k)
        if k == 0:
            return 0
        if k < 0:
            raise ValueError("number of bits must be non-negative")
        value = 0
        shift = 0
        while k > 0:
            value |= self.getrandbits(min(k, unit)) << shift
            shift += unit
            k -= unit
        return value

    def _randbelow(self, n: int) -> int:
        """Uniform in ``range(n)`` (as the compiled engine's ``randbelow``: a draw even for
        n == 1), whatever the Python version does: Lemire's method on the next half."""
        if n > 1 << 32:
            return _rejection(self.getrandbits, n)
        return _lemire(self.next_draw, n)

    def random(self) -> float:
        """A float in [0, 1) from 53 bits of the next two halves (as CPython makes it from
        two 32-bit outputs)."""
        draw = self.next_draw
        return ((draw() >> 5) * 67108864 + (draw() >> 6)) * (1.0 / (1 << 53))


class WordStream(Stream):
    """The stream of a seed under the generator ``splitmix64`` (deals made before
    ``splitmix64-lemire``): the same words, each draw a whole word, an index below ``n``
    from the top ``n.bit_length()`` bits of a word, redrawn while too big."""

    generator = WORDS
    unit = 64

    def _randbelow(self, n: int) -> int:
        """Uniform in ``range(n)`` by rejection on ``n.bit_length()`` bits (as the compiled
        engine's ``randbelow``), whatever the Python version does."""
        return _rejection(self.getrandbits, n)

    def random(self) -> float:
        """A float in [0, 1) from the top 53 bits of the next word."""
        return self.getrandbits(53) * (1.0 / (1 << 53))


def _lemire(draw: Callable[[], int], n: int) -> int:
    """Uniform in ``range(n)`` (1 <= n <= 2**32) from 32-bit draws: ``x * n >> 32``,
    redrawn while ``x * n mod 2**32`` is below ``2**32 mod n`` (Lemire, 2019)."""
    m = draw() * n
    if m & HALF < n:
        floor = (1 << 32) % n
        while m & HALF < floor:
            m = draw() * n
    return m >> 32


def _rejection(getrandbits: Callable[[int], int], n: int) -> int:
    """Uniform in ``range(n)`` by rejection on ``n.bit_length()`` bits."""
    k = n.bit_length()
    r = getrandbits(k)
    while r >= n:
        r = getrandbits(k)
    return r


STREAMS: dict[str, type[Stream]] = {GENERATOR: Stream, WORDS: WordStream}


def stream(seed: int, generator: str = GENERATOR) -> random.Random:
    """The random stream of the deal of ``seed`` under ``generator``."""
    if generator in STREAMS:
        return STREAMS[generator](seed)
    if generator == LEGACY:
        return random.Random(seed)
    raise ValueError(f"unknown generator {generator!r} (known: {', '.join(GENERATORS)})")


def below(rng: random.Random, n: int) -> int:
    """A uniform index in ``range(n)`` (the choices of the random players, the shuffle and
    the door card, at both speeds): ``Stream``'s draw, or for the earlier generators
    rejection on ``n.bit_length()`` bits; a single option draws nothing."""
    if n <= 1:
        return 0
    kind = type(rng)
    if kind is Stream:  # _lemire, written out: the random players' every choice
        m = rng.next_draw() * n  # type: ignore[attr-defined]
        if m & HALF < n:
            floor = (1 << 32) % n
            while m & HALF < floor:
                m = rng.next_draw() * n  # type: ignore[attr-defined]
        return m >> 32
    if kind is WordStream:  # its words at once, rather than through getrandbits
        word, drop = rng.next_draw, 64 - n.bit_length()  # type: ignore[attr-defined]
        r = word() >> drop
        while r >= n:
            r = word() >> drop
        return r
    return _rejection(rng.getrandbits, n)
