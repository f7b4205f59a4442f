"""Compiled Othello move generation and perft (Numba), behind :class:`plies.games.othello.Othello`.

Bitboards are ``uint64`` with bit ``8 * row + column`` (a1 is bit 0, h1 bit 7, a8 bit 63); ``p``
holds the mover's discs and ``o`` the opponent's. Every constant is a ``uint64`` because Numba
turns mixed signed/unsigned integer arithmetic into floats. The pure-Python functions of
:mod:`plies.games.othello.rules` are the reference these are tested against.
"""

from __future__ import annotations

import math

import numba
import numpy as np

from plies.compiled import NOT_OVER, compiled, mix, popcount
from plies.games.othello import patterns, squares

_ZERO = np.uint64(0)
_ONE = np.uint64(1)
_NOT_A = np.uint64(0xFEFEFEFEFEFEFEFE)  # every column but a: where an eastward shift may land
_NOT_H = np.uint64(0x7F7F7F7F7F7F7F7F)  # every column but h: where a westward shift may land
_ALL = np.uint64(0xFFFFFFFFFFFFFFFF)
_S1, _S7, _S8, _S9 = np.uint64(1), np.uint64(7), np.uint64(8), np.uint64(9)


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


# The rules the compiled searches run (:mod:`plies.native.kernels`) ---------------------
# A state row is (black, white, mover: 0 black or 1 white), the boards' bits as int64 words.

PASS = -1
"""The move code of a pass (:data:`plies.games.othello.rules.PASS`)."""


def _tables() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The Python game's move order, corners, the squares next to each corner and the edge rays
    from each corner (``-1`` pads), from the tables the rules take them from
    (:mod:`plies.games.othello.squares`)."""
    order = np.array(sorted(range(64), key=squares.RANK.__getitem__), np.int64)
    corners = np.array(sorted(squares.NEXT_TO_CORNER), np.int64)
    next_to = np.array([squares.NEXT_TO_CORNER[c] for c in corners], np.uint64)
    rays = np.full((4, 2, 6), -1, np.int64)
    for i, corner in enumerate(corners):
        for j, ray in enumerate(squares.EDGE_RAYS[int(corner)]):
            rays[i, j, : len(ray)] = list(ray)
    return order, corners, next_to, rays


ORDER, CORNER_SQUARES, NEXT_TO_CORNER, EDGE_RAYS = _tables()
_CORNERS = np.uint64(0x8100000000000081)


WHITE_KEY = np.uint64(squares.WHITE_TO_MOVE_KEY)


@compiled
def _sides(state: np.ndarray) -> tuple[np.uint64, np.uint64]:
    """(mover's discs, opponent's discs)."""
    black, white = np.uint64(state[0]), np.uint64(state[1])
    return (black, white) if state[2] == 0 else (white, black)


@compiled
def native_moves(state: np.ndarray, out: np.ndarray) -> int:
    """:meth:`Othello.actions`: corners first and X-squares last; a pass when that is all."""
    p, o = _sides(state)
    legal = legal_moves(p, o)
    if legal == _ZERO:
        if legal_moves(o, p) == _ZERO:
            return 0
        out[0] = PASS
        return 1
    n = 0
    for square in ORDER:
        if legal >> np.uint64(square) & _ONE:
            out[n] = square
            n += 1
    return n


@compiled
def native_play(state: np.ndarray, square: int, child: np.ndarray) -> None:
    """:meth:`Othello.result` for a legal move (or :data:`PASS`)."""
    child[2] = 1 - state[2]
    if square == PASS:
        child[0], child[1] = state[0], state[1]
        return
    p, o = _sides(state)
    move = _ONE << np.uint64(square)
    flipped = flips(p, o, move)
    p, o = p | flipped | move, o ^ flipped
    black, white = (p, o) if state[2] == 0 else (o, p)
    child[0], child[1] = np.int64(black), np.int64(white)


@compiled
def native_outcome(state: np.ndarray) -> int:
    """The mover's result once neither side can move (more discs wins), else ``NOT_OVER``."""
    p, o = _sides(state)
    if legal_moves(p, o) != _ZERO or legal_moves(o, p) != _ZERO:
        return NOT_OVER
    mine, theirs = popcount(p), popcount(o)
    return 1 if mine > theirs else -1 if theirs > mine else 0


@compiled
def native_key(state: np.ndarray) -> np.uint64:
    """:meth:`Othello.hash_key`."""
    key = mix(mix(np.uint64(state[0])) ^ np.uint64(state[1]))
    return key ^ WHITE_KEY if state[2] == 1 else key


@compiled
def _anchored(discs: np.uint64) -> np.uint64:
    """:func:`plies.games.othello.rules._anchored`: edge discs joined to an own corner."""
    anchored = _ZERO
    for i in range(4):
        if discs >> np.uint64(CORNER_SQUARES[i]) & _ONE:
            for j in range(2):
                for square in EDGE_RAYS[i, j]:
                    if square < 0 or not discs >> np.uint64(square) & _ONE:
                        break
                    anchored |= _ONE << np.uint64(square)
    return anchored


@compiled
def native_lead(params: np.ndarray, state: np.ndarray) -> float:
    """:meth:`Othello.evaluate`'s lead for the mover, in the same floating-point steps: the
    pattern evaluation's where ``params[5]`` says so, else the hand-written one's with the
    weights of ``params[1:5]``."""
    p, o = _sides(state)
    if params[PATTERNS_ON]:
        return pattern_lead(params, p, o)
    if 64 - popcount(p | o) <= 12:
        return (popcount(p) - popcount(o)) / 65
    mine, theirs = popcount(legal_moves(p, o)), popcount(legal_moves(o, p))
    mobility = (mine - theirs) / (mine + theirs + 2)
    corners = (popcount(p & _CORNERS) - popcount(o & _CORNERS)) / 4
    risky = _ZERO
    for i in range(4):
        if not (p | o) >> np.uint64(CORNER_SQUARES[i]) & _ONE:
            risky |= NEXT_TO_CORNER[i]
    exposure = (popcount(o & risky) - popcount(p & risky)) / 12
    anchored = (popcount(_anchored(p)) - popcount(_anchored(o))) / 24
    w0, w1, w2, w3 = params[1], params[2], params[3], params[4]
    total = abs(w0) + abs(w1) + abs(w2) + abs(w3) + 1
    return float((w0 * mobility + w1 * corners + w2 * exposure + w3 * anchored) / total)


PATTERNS_ON = 5
"""``params[5]``: 1 when EVAL is the pattern evaluation, whose tables follow from ``params[6]``
(:mod:`plies.games.othello.evaluation`), one row of :data:`~.patterns.ROW` words per anchor."""
TABLES = PATTERNS_ON + 1
"""Where the pattern tables start in ``params``."""
_SCALAR_START = patterns.ROW - len(patterns.SCALARS)
INSTANCE_SQUARES, INSTANCE_OFFSETS = patterns.INSTANCE_SQUARES, patterns.INSTANCE_OFFSETS
POWERS = patterns.POWERS


@compiled
def pattern_lead(params: np.ndarray, p: np.uint64, o: np.uint64) -> float:
    """:meth:`plies.games.othello.evaluation.PatternWeights.lead`, adding the same integers."""
    discs = popcount(p | o)
    anchor, r = divmod(discs - 4, patterns.STEP)
    low = TABLES + anchor * patterns.ROW
    high = low + patterns.ROW if r else low
    total = 0
    for i in range(INSTANCE_SQUARES.shape[0]):
        configuration = 0
        for j in range(INSTANCE_SQUARES.shape[1]):
            square = INSTANCE_SQUARES[i, j]
            if square < 0:
                break
            bit = np.uint64(square)
            cell = np.int64(p >> bit & _ONE) + 2 * np.int64(o >> bit & _ONE)
            configuration += POWERS[j] * cell
        index = INSTANCE_OFFSETS[i] + configuration
        total += (patterns.STEP - r) * params[low + index] + r * params[high + index]
    empty = 64 - discs
    scalars = (
        1,
        popcount(legal_moves(p, o)) - popcount(legal_moves(o, p)),
        1 if empty % 2 else -1,
    )
    for k in range(3):
        index = _SCALAR_START + k
        total += ((patterns.STEP - r) * params[low + index] + r * params[high + index]) * scalars[k]
    return float(math.tanh(total / (patterns.STEP * patterns.SCALE) / 2))
