"""Compiled English-draughts move generation and perft (Numba), behind
:class:`plies.games.checkers.Checkers`.

Bitboards are ``int64`` holding 32 bits: bit ``s - 1`` is dark square ``s`` in the standard
numbering (row 0, Black's back row, holds squares 1-4). Functions see the board from the mover's
side: ``me_men, me_kings, op_men, op_kings`` and ``black`` (whether the mover is Black, whose men
move towards higher square numbers). The neighbour tables are built here from row/column
arithmetic, independently of the pure-Python generator of :mod:`plies.games.checkers`, which is
the reference these are tested against.

Nothing here recurses: Numba's cache can crash on reloading recursive functions (numba issue
6061), so capture sequences and perft walk explicit stacks.
"""

from __future__ import annotations

import numba
import numpy as np

DIRECTIONS = ((1, -1), (1, 1), (-1, -1), (-1, 1))
"""(row, column) steps; 0 and 1 lead to Black's crowning row, 2 and 3 to White's."""

MAX_MOVES = 1024
"""Room for one position's moves in the successor buffer; a search for capture-rich positions
found at most 34 (the kernel raises rather than overflow)."""

STACK_DEPTH = 32
"""Frames of the capture-sequence stack: the start square and at most 31 captures, whatever
the board (a game has at most 12)."""

_BLACK_CROWN = 0xF0000000  # squares 29-32
_WHITE_CROWN = 0x0000000F  # squares 1-4


def _tables() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """STEP[d, i] and JUMP[d, i]: the bit index one and two squares from bit ``i`` in direction
    ``d`` (-1 off the board); BIT_INDEX: de Bruijn lookup from a one-bit word to its index."""
    step = np.full((4, 32), -1, np.int64)
    jump = np.full((4, 32), -1, np.int64)
    for i in range(32):
        row = i // 4
        col = 2 * (i % 4) + (1 - row % 2)
        for d, (dr, dc) in enumerate(DIRECTIONS):
            for distance, table in ((1, step), (2, jump)):
                r, c = row + distance * dr, col + distance * dc
                if 0 <= r < 8 and 0 <= c < 8:
                    table[d, i] = 4 * r + c // 2
    bit_index = np.zeros(32, np.int64)
    for i in range(32):
        bit_index[((1 << i) * 0x077CB531 & 0xFFFFFFFF) >> 27] = i
    return step, jump, bit_index


STEP, JUMP, BIT_INDEX = _tables()


@numba.njit(cache=True)
def _index(bit: int) -> int:
    """The index of a one-bit word."""
    return int(BIT_INDEX[((bit * 0x077CB531) & 0xFFFFFFFF) >> 27])


@numba.njit(cache=True)
def _record(
    board: np.ndarray,
    start: int,
    land: int,
    king: bool,
    crowned: bool,
    captured: int,
    out: np.ndarray,
    n: int,
) -> int:
    """Write the position after the piece on bit ``start`` lands on bit ``land`` capturing
    ``captured`` into ``out[n]``, seen from the next mover's side; returns ``n + 1``."""
    if n >= out.shape[0]:
        raise ValueError("checkers kernel: too many moves for the successor buffer")
    start_bit, land_bit = 1 << start, 1 << land
    me_men, me_kings = board[0], board[1]
    if king:
        me_kings = (me_kings & ~start_bit) | land_bit
    elif crowned:
        me_men &= ~start_bit
        me_kings |= land_bit
    else:
        me_men = (me_men & ~start_bit) | land_bit
    out[n, 0], out[n, 1] = board[2] & ~captured, board[3] & ~captured
    out[n, 2], out[n, 3] = me_men, me_kings
    return n + 1


@numba.njit(cache=True)
def _captures(
    board: np.ndarray, start: int, black: bool, stack: np.ndarray, out: np.ndarray, n: int
) -> int:
    """Write into ``out[n:]`` every capture sequence of the piece on bit ``start``; returns the
    new count. ``stack`` frames hold (square, next direction, captured, empty, jumped on)."""
    king = board[1] & (1 << start) != 0
    low = 0 if king or black else 2
    high = 4 if king or not black else 2
    crown = _BLACK_CROWN if black else _WHITE_CROWN
    opponents = board[2] | board[3]
    occupied = board[0] | board[1] | opponents
    stack[0, 0], stack[0, 1], stack[0, 2] = start, low, 0
    stack[0, 3], stack[0, 4] = (~occupied & 0xFFFFFFFF) | (1 << start), 0
    top = 0
    while top >= 0:
        square, d, captured, empty = stack[top, 0], stack[top, 1], stack[top, 2], stack[top, 3]
        if d == high:
            if top > 0 and stack[top, 4] == 0:  # no jump goes on: the sequence ends here
                n = _record(board, start, square, king, False, captured, out, n)
            top -= 1
            continue
        stack[top, 1] = d + 1
        over, land = STEP[d, square], JUMP[d, square]
        if land < 0 or opponents & ~captured & (1 << over) == 0 or empty & (1 << land) == 0:
            continue
        stack[top, 4] = 1
        if not king and crown & (1 << land):  # crowned: the move ends here
            n = _record(board, start, land, False, True, captured | (1 << over), out, n)
            continue
        top += 1
        stack[top, 0], stack[top, 1], stack[top, 2] = land, low, captured | (1 << over)
        stack[top, 3], stack[top, 4] = (empty | (1 << square)) & ~(1 << land), 0
    return n


@numba.njit(cache=True)
def generate(board: np.ndarray, black: bool, out: np.ndarray, stack: np.ndarray) -> int:
    """Write the position after each legal move of ``board = (me_men, me_kings, op_men,
    op_kings)`` into the rows of ``out``, seen from the next mover's side (the same layout with
    the sides swapped): every capture sequence when there is one, else every step. Returns the
    number of moves; ``stack`` is work space of ``STACK_DEPTH`` rows and 5 columns."""
    opponents = board[2] | board[3]
    empty = ~(board[0] | board[1] | opponents) & 0xFFFFFFFF
    n = 0
    pieces = board[0] | board[1]
    while pieces:
        bit = pieces & -pieces
        pieces ^= bit
        square = _index(bit)
        king = board[1] & bit != 0
        for d in range(0 if king or black else 2, 4 if king or not black else 2):
            land = JUMP[d, square]
            if land >= 0 and opponents & (1 << STEP[d, square]) and empty & (1 << land):
                n = _captures(board, square, black, stack, out, n)
                break
    if n:
        return n
    crown = _BLACK_CROWN if black else _WHITE_CROWN
    pieces = board[0] | board[1]
    while pieces:
        bit = pieces & -pieces
        pieces ^= bit
        square = _index(bit)
        king = board[1] & bit != 0
        for d in range(0 if king or black else 2, 4 if king or not black else 2):
            target = STEP[d, square]
            if target >= 0 and empty & (1 << target):
                crowned = not king and crown & (1 << target) != 0
                n = _record(board, square, target, king, crowned, 0, out, n)
    return n


@numba.njit(cache=True)
def _perft(board: np.ndarray, black: bool, quiet: int, draw: int, depth: int) -> int:
    """Perft by an explicit depth-first walk. Level ``k`` keeps its moves in
    ``out[first[k]:first[k] + count[k]]``, the next one to play in ``next_move[k]`` and the
    position they were played from in ``parent[k]`` (-1: ``board``)."""
    if depth == 0:
        return 1
    if quiet >= draw:
        return 0
    out = np.empty((depth * MAX_MOVES, 4), np.int64)
    stack = np.empty((STACK_DEPTH, 5), np.int64)
    first, count = np.zeros(depth, np.int64), np.zeros(depth, np.int64)
    next_move, parent = np.zeros(depth, np.int64), np.full(depth, -1, np.int64)
    quiets = np.zeros(depth, np.int64)
    count[0] = generate(board, black, out, stack)
    if depth == 1:
        return int(count[0])
    quiets[0] = quiet
    total, level = 0, 0
    while level >= 0:
        if next_move[level] == count[level]:
            level -= 1
            continue
        k = first[level] + next_move[level]
        next_move[level] += 1
        before = board if parent[level] < 0 else out[parent[level]]
        child = out[k]
        # A capture or a man move (crowning included) resets the draw count.
        reset = child[2] != before[0] or child[0] | child[1] != before[2] | before[3]
        child_quiet = 0 if reset else quiets[level] + 1
        if child_quiet >= draw:
            continue
        # Level k's moves are played by Black when k is even and Black moved at the root.
        child_black = black == (level % 2 == 1)
        below = first[level] + count[level]
        moves = generate(child, child_black, out[below:], stack)
        if level + 2 == depth:  # the child's moves are the last ply: count them in bulk
            total += moves
            continue
        level += 1
        first[level], count[level], next_move[level] = below, moves, 0
        parent[level], quiets[level] = k, child_quiet
    return total


def perft(
    black_men: int,
    black_kings: int,
    white_men: int,
    white_kings: int,
    black: bool,
    quiet: int,
    draw: int,
    depth: int,
) -> int:
    """Move paths of exactly ``depth`` plies (a capture sequence is one ply; a game that ends
    before ``depth`` contributes nothing); the last ply is counted in bulk, not played.

    ``quiet`` counts the plies since the last capture or man move; at ``draw`` the game is drawn.
    """
    mover = (black_men, black_kings) if black else (white_men, white_kings)
    other = (white_men, white_kings) if black else (black_men, black_kings)
    board = np.array([*mover, *other], np.int64)
    return int(_perft(board, black, quiet, draw, depth))
