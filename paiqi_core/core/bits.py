"""Bit operations on int64 masks for the kernel: population count, lowest set bit, bit
length and the r-th set bit, compiled to single machine instructions where the CPU has them
(LLVM's ``ctpop``, ``cttz`` and ``ctlz``); and the decorators that compile the kernel.

Without numba the kernel's rules still run: the decorators leave each function as written
and the bit operations are Python's (``COMPILED`` is then False). That is how the rules
written for the compiled engine are also plain Python (``kernel``, ``rng``, ``layout``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from paiqi_core.cards import points

try:
    from numba import njit, types
    from numba.extending import intrinsic
except ImportError:  # no numba: the rules run as plain Python (see the end of the module)
    njit = None  # type: ignore[assignment]

COMPILED = njit is not None  # whether the kernel's functions are compiled by numba

if COMPILED:

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

    # The game logic only reads and writes arrays it is given: it is compiled without
    # numba's reference counting of arrays, which costs about 20 ns whenever a function
    # taking arrays is called (more than a game step itself). Such functions allocate
    # nothing.
    _KERNEL: dict[str, Any] = {"cache": True, "nogil": True, "_nrt": False}
    hot = njit(**_KERNEL)
    # the steps of a move, compiled into the loop that calls them (no call costs either)
    step = njit(**_KERNEL, forceinline=True)
    # functions that fill tables once (no call costs to save)
    tabulate = njit(cache=True)

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

    # A card's face points (A=1 .. K=13, the joker 0): paiqi_core.cards.points, compiled
    # from the same source rather than written again.
    face_points = njit(cache=True, inline="always")(points)

else:  # the same functions as plain Python: the kernel's rules run, only more slowly

    def _as_written(f: Callable[..., Any]) -> Callable[..., Any]:
        return f

    hot = step = tabulate = _as_written  # type: ignore[assignment]

    def popcount(x: int) -> int:  # type: ignore[misc]
        """Set bits of ``x``."""
        return int(x).bit_count()

    def lowest(x: int) -> int:  # type: ignore[misc]
        """Index of the lowest set bit of ``x`` (64 when ``x`` is 0)."""
        x = int(x)
        return (x & -x).bit_length() - 1 if x else 64

    def bit_length(x: int) -> int:  # type: ignore[misc]
        """``int.bit_length`` of a non-negative ``x``."""
        return int(x).bit_length()

    def nth_bit(mask: int, r: int) -> int:  # type: ignore[misc]
        """Index of the ``r``-th lowest set bit of ``mask`` (r from 0)."""
        mask = int(mask)
        for _ in range(int(r)):
            mask &= mask - 1
        return lowest(mask)

    face_points = points  # type: ignore[assignment]
