"""Bit operations on int64 masks for the kernel: population count, lowest set bit, bit
length and the r-th set bit, compiled to single machine instructions where the CPU has them
(LLVM's ``ctpop``, ``cttz`` and ``ctlz``)."""

from __future__ import annotations

from typing import Any

from numba import njit, types
from numba.extending import intrinsic

from paiqi_core.cards import points


@intrinsic
def _ctpop(typingctx: Any, x: Any) -> Any:
    if x != types.int64:
        return None

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        return builder.ctpop(args[0])

    return types.int64(types.int64), codegen


@intrinsic
def _cttz(typingctx: Any, x: Any) -> Any:
    if x != types.int64:
        return None

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        return builder.cttz(args[0], context.get_constant(types.boolean, False))

    return types.int64(types.int64), codegen


@intrinsic
def _ctlz(typingctx: Any, x: Any) -> Any:
    if x != types.int64:
        return None

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        return builder.ctlz(args[0], context.get_constant(types.boolean, False))

    return types.int64(types.int64), codegen


# The game logic only reads and writes arrays it is given: it is compiled without numba's
# reference counting of arrays, which costs about 20 ns whenever a function taking arrays
# is called (more than a game step itself). Such functions allocate nothing.
_KERNEL: dict[str, Any] = {"cache": True, "nogil": True, "_nrt": False}
hot = njit(**_KERNEL)
# the steps of a move, compiled into the loop that calls them (no call costs either)
step = njit(**_KERNEL, forceinline=True)


@njit(cache=True, inline="always")
def popcount(x: int) -> int:
    """Set bits of ``x``."""
    return _ctpop(x)  # type: ignore[call-arg]


@njit(cache=True, inline="always")
def lowest(x: int) -> int:
    """Index of the lowest set bit of ``x`` (64 when ``x`` is 0)."""
    return _cttz(x)  # type: ignore[call-arg]


@njit(cache=True, inline="always")
def bit_length(x: int) -> int:
    """``int.bit_length`` of a non-negative ``x``."""
    return 64 - _ctlz(x)  # type: ignore[call-arg]


@njit(cache=True, inline="always")
def nth_bit(mask: int, r: int) -> int:
    """Index of the ``r``-th lowest set bit of ``mask`` (r from 0)."""
    while r:
        mask &= mask - 1
        r -= 1
    return _cttz(mask)  # type: ignore[call-arg]


# A card's face points (A=1 .. K=13, the joker 0): paiqi_core.cards.points, compiled from
# the same source rather than written again.
face_points = njit(cache=True, inline="always")(points)
