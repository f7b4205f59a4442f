"""What the games' compiled rules and the native searches (:mod:`plies.native.engine`,
:mod:`plies.native.mcts`) share: how they are compiled, the outcome code of an unfinished
game, bit counting and mixing, and a clock."""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from typing import Any, TypeVar, cast

import numba
import numpy as np
from llvmlite import ir  # type: ignore[import-untyped]
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

F = TypeVar("F", bound=Callable[..., Any])

_COMPILE = numba.njit(cache=True, nogil=True, _nrt=False)  # type: ignore[call-overload]


def compiled(function: F) -> F:
    """Numba's ``njit`` as the native engine compiles: cached, releasing the GIL, and without
    reference counting (no arrays are made inside, so none need counting; the counts' atomic
    operations cost the search a third of its time)."""
    return cast(F, _COMPILE(function))


NOT_OVER = 2
"""The outcome of a state that is not terminal (else 1, -1 or 0: the mover won, lost, drew)."""

_M1 = np.uint64(0x5555555555555555)
_M2 = np.uint64(0x3333333333333333)
_M4 = np.uint64(0x0F0F0F0F0F0F0F0F)
_H01 = np.uint64(0x0101010101010101)


@compiled
def popcount(x: int | np.uint64) -> int:
    """The number of set bits of a 64-bit word (SWAR), as a signed integer."""
    y = np.uint64(x)
    y = y - ((y >> np.uint64(1)) & _M1)
    y = (y & _M2) + ((y >> np.uint64(2)) & _M2)
    y = (y + (y >> np.uint64(4))) & _M4
    return int(np.int64((y * _H01) >> np.uint64(56)))


@compiled
def mix(x: np.uint64) -> np.uint64:
    """SplitMix64's finaliser, as the games' ``_mix`` computes it."""
    x = (x ^ (x >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    x = (x ^ (x >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return x ^ (x >> np.uint64(31))


CLOCK = getattr(time, "CLOCK_MONOTONIC", -1)
"""The clock :func:`monotonic` reads (-1 where the C library has no ``clock_gettime``: the
searches then rely on their driver thread to stop them)."""


def clock_now() -> float:
    """:func:`monotonic`'s clock read from Python."""
    return time.clock_gettime(CLOCK) if CLOCK >= 0 else math.inf


@intrinsic
def _clock_gettime(typing_context: Any, clock: Any) -> Any:
    """Seconds on ``clock`` from the C library's ``clock_gettime``, called by name (so the
    compiled code stays cacheable, which a ctypes pointer would not)."""

    def codegen(context: Any, builder: Any, signature: Any, arguments: Any) -> Any:
        word = ir.IntType(64)
        timespec = ir.LiteralStructType([word, word])
        function_type = ir.FunctionType(ir.IntType(32), [ir.IntType(32), timespec.as_pointer()])
        function = cgutils.get_or_insert_function(  # type: ignore[no-untyped-call]
            builder.module, function_type, "clock_gettime"
        )
        slot = cgutils.alloca_once(builder, timespec)  # type: ignore[no-untyped-call]
        builder.call(function, [builder.trunc(arguments[0], ir.IntType(32)), slot])
        zero, one = ir.Constant(ir.IntType(32), 0), ir.Constant(ir.IntType(32), 1)
        seconds = builder.sitofp(builder.load(builder.gep(slot, [zero, zero])), ir.DoubleType())
        nanos = builder.sitofp(builder.load(builder.gep(slot, [zero, one])), ir.DoubleType())
        return builder.fadd(seconds, builder.fmul(nanos, ir.Constant(ir.DoubleType(), 1e-9)))

    return types.float64(types.int64), codegen


@compiled
def monotonic(clock: int) -> float:
    """Seconds on ``clock`` (:data:`CLOCK`), about 30 ns a reading."""
    return float(_clock_gettime(clock))  # type: ignore[call-arg]
