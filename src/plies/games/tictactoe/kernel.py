"""Compiled m,n,k-game rules for the compiled searches (:mod:`plies.native.kernels`), behind
:class:`plies.games.tictactoe.TicTacToe`, which is the reference they are tested against.

A state row is (X's cells, O's cells, mover: 0 for X or 1 for O, winner: 0 none, 1 X, 2 O), cell
``i`` (reading order) as bit ``i``; ``params`` is :data:`CELLS` and the lines as bitboards.
Boards of at most :data:`MAX_CELLS` cells, so that the game's base-3 key fits 64 bits.
"""

from __future__ import annotations

import numpy as np

from plies.compiled import NOT_OVER, compiled, popcount

CELLS, LINES, DENOMINATOR, FIRST_LINE = 1, 2, 3, 4
"""Indices into ``params``: the number of cells and lines, EVAL's denominator, then the lines."""
MAX_CELLS = 39
"""2 * 3**39 + 1 < 2**63: the largest board whose key the kernel can compute exactly."""


@compiled
def native_moves(params: np.ndarray, state: np.ndarray, out: np.ndarray) -> int:
    """The empty cells in reading order; none once a line is made (:meth:`TicTacToe.actions`)."""
    if state[3]:
        return 0
    taken, n = state[0] | state[1], 0
    for cell in range(params[CELLS]):
        if not taken >> cell & 1:
            out[n] = cell
            n += 1
    return n


@compiled
def native_play(params: np.ndarray, state: np.ndarray, cell: int, child: np.ndarray) -> None:
    """:meth:`TicTacToe.result`: mark ``cell``; a line through it wins."""
    who = state[2]
    mine = state[who] | (1 << cell)
    child[0], child[1] = state[0], state[1]
    child[who], child[2], child[3] = mine, 1 - who, 0
    for i in range(params[LINES]):
        line = params[FIRST_LINE + i]
        if line >> cell & 1 and mine & line == line:
            child[3] = who + 1
            break


@compiled
def native_outcome(params: np.ndarray, state: np.ndarray) -> int:
    """The mover's result once a line is made or the board is full, else ``NOT_OVER``."""
    if state[3]:
        return 1 if state[3] == state[2] + 1 else -1
    return 0 if state[0] | state[1] == (1 << params[CELLS]) - 1 else NOT_OVER


@compiled
def native_key(params: np.ndarray, state: np.ndarray) -> np.uint64:
    """:meth:`TicTacToe.hash_key`: the cells as a base-3 number (. 0, X 1, O 2), doubled, plus
    1 when O moves."""
    key = np.uint64(0)
    for cell in range(params[CELLS]):
        digit = 1 if state[0] >> cell & 1 else 2 if state[1] >> cell & 1 else 0
        key = key * np.uint64(3) + np.uint64(digit)
    return key * np.uint64(2) + np.uint64(state[2])


@compiled
def native_lead(params: np.ndarray, state: np.ndarray) -> float:
    """:meth:`TicTacToe.evaluate`'s lead for the mover: lines open to each side, weighted by the
    square of the marks in them."""
    mine, theirs = state[state[2]], state[1 - state[2]]
    score = 0
    for i in range(params[LINES]):
        line = params[FIRST_LINE + i]
        own, other = popcount(mine & line), popcount(theirs & line)
        if other == 0:
            score += own * own
        if own == 0:
            score -= other * other
    return float(score / params[DENOMINATOR])
