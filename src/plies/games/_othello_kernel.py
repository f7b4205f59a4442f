"""Compiled Othello move generation and perft (Numba), behind :class:`plies.games.othello.Othello`.

Bitboards are ``uint64`` with bit ``8 * row + column`` (a1 is bit 0, h1 bit 7, a8 bit 63); ``p``
holds the mover's discs and ``o`` the opponent's. Every constant is a ``uint64`` because Numba
turns mixed signed/unsigned integer arithmetic into floats. The pure-Python functions of
:mod:`plies.games.othello` are the reference these are tested against.
"""

from __future__ import annotations

import numba
import numpy as np

_ZERO = np.uint64(0)
_ONE = np.uint64(1)
_NOT_A = np.uint64(0xFEFEFEFEFEFEFEFE)  # every column but a: where an eastward shift may land
_NOT_H = np.uint64(0x7F7F7F7F7F7F7F7F)  # every column but h: where a westward shift may land
_ALL = np.uint64(0xFFFFFFFFFFFFFFFF)
_M1 = np.uint64(0x5555555555555555)
_M2 = np.uint64(0x3333333333333333)
_M4 = np.uint64(0x0F0F0F0F0F0F0F0F)
_H01 = np.uint64(0x0101010101010101)
_S1, _S7, _S8, _S9 = np.uint64(1), np.uint64(7), np.uint64(8), np.uint64(9)
_S56 = np.uint64(56)


@numba.njit(cache=True)
def _shift(x: np.uint64, direction: int) -> np.uint64:
    """Every disc of ``x`` moved one step in ``direction`` (0..7); steps off the board vanish."""
    if direction == 0:  # east
        return (x << _S1) & _NOT_A
    if direction == 1:  # west
        return (x >> _S1) & _NOT_H
    if direction == 2:  # south (row + 1)
        return x << _S8
    if direction == 3:  # north
        return x >> _S8
    if direction == 4:  # south-east
        return (x << _S9) & _NOT_A
    if direction == 5:  # south-west
        return (x << _S7) & _NOT_H
    if direction == 6:  # north-east
        return (x >> _S7) & _NOT_A
    return (x >> _S9) & _NOT_H  # north-west


@numba.njit(cache=True)
def popcount(x: np.uint64) -> int:
    """The number of set bits (SWAR), as a signed integer so that counts never mix with
    ``uint64`` (Numba would make the sum a float)."""
    x = x - ((x >> _S1) & _M1)
    x = (x & _M2) + ((x >> np.uint64(2)) & _M2)
    x = (x + (x >> np.uint64(4))) & _M4
    return int(np.int64((x * _H01) >> _S56))


@numba.njit(cache=True)
def legal_moves(p: np.uint64, o: np.uint64) -> np.uint64:
    """The squares where the mover flips something: a dumb7fill through ``o`` per direction."""
    empty = ~(p | o) & _ALL
    moves = _ZERO
    for direction in range(8):
        run = _shift(p, direction) & o
        for _ in range(5):
            run |= _shift(run, direction) & o
        moves |= _shift(run, direction) & empty
    return moves


@numba.njit(cache=True)
def flips(p: np.uint64, o: np.uint64, move: np.uint64) -> np.uint64:
    """The opponent discs that playing the one-bit ``move`` turns over."""
    flipped = _ZERO
    for direction in range(8):
        run = _ZERO
        x = _shift(move, direction)
        while x & o:
            run |= x
            x = _shift(x, direction)
        if x & p:
            flipped |= run
    return flipped


@numba.njit(cache=True)
def perft(p: np.uint64, o: np.uint64, depth: int) -> int:
    """Aart Bik's perft: a pass is a ply; a game that ends before ``depth`` counts as one leaf.

    The last ply is counted in bulk (the number of legal moves, or 1 for a pass).
    """
    if depth == 0:
        return 1
    moves = legal_moves(p, o)
    if moves == _ZERO:
        if legal_moves(o, p) == _ZERO:
            return 1
        return 1 if depth == 1 else perft(o, p, depth - 1)
    if depth == 1:
        return popcount(moves)
    total = 0
    while moves:
        move = moves & (~moves + _ONE)
        moves ^= move
        flipped = flips(p, o, move)
        total += perft(o ^ flipped, p | move | flipped, depth - 1)
    return total
