"""What the games' compiled rules for the native engine (:mod:`plies.games._native_engine`)
share: the outcome code of an unfinished game and bit counting."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

import numba
import numpy as np

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
