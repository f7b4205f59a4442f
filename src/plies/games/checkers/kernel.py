"""Compiled English-draughts move generation and perft (Numba), behind
:class:`plies.games.checkers.Checkers`.

Bitboards are ``int64`` holding 32 bits: bit ``s - 1`` is dark square ``s`` in the standard
numbering (row 0, Black's back row, holds squares 1-4). Functions see the board from the mover's
side: ``me_men, me_kings, op_men, op_kings`` and ``black`` (whether the mover is Black, whose men
move towards higher square numbers). The neighbour tables are built here from row/column
arithmetic, independently of the pure-Python generator of :mod:`.rules`, which is
the reference these are tested against.

Nothing here recurses: Numba's cache can crash on reloading recursive functions (numba issue
6061), so capture sequences and perft walk explicit stacks.
"""

from __future__ import annotations

import itertools
from math import comb

import numba
import numpy as np

from plies.compiled import NOT_OVER, compiled, mix, popcount

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
def _directions(king: bool, black: bool) -> tuple[int, int]:
    """The range of :data:`DIRECTIONS` a piece moves in: a king all four, a man forward."""
    return 0 if king or black else 2, 4 if king or not black else 2


@numba.njit(cache=True)
def _captures(
    board: np.ndarray, start: int, black: bool, stack: np.ndarray, out: np.ndarray, n: int
) -> int:
    """Write into ``out[n:]`` every capture sequence of the piece on bit ``start``; returns the
    new count. ``stack`` frames hold (square, next direction, captured, empty, jumped on)."""
    king = board[1] & (1 << start) != 0
    low, high = _directions(king, black)
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
        low, high = _directions(king, black)
        for d in range(low, high):
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
        low, high = _directions(king, black)
        for d in range(low, high):
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


# The rules the compiled searches run (:mod:`plies.native.kernels`) ---------------------
# A state row is (black men, black kings, white men, white kings, mover: 0 Black or 1 White,
# draw count). A move code holds the start bit (bits 0-4), the number of hops (5-8), whether
# it captures (9) and each hop's direction (2 bits each from bit 10): any capture sequence
# fits, and the Python game's squares follow from it (:func:`move_code`, :func:`move_squares`).

HOPS_SHIFT, CAPTURE_BIT, DIRECTIONS_SHIFT = 5, 9, 10
MAX_HOPS = 15
WORK_SHAPE = (STACK_DEPTH + 2, MAX_HOPS + 1)
"""Work space of :func:`native_moves`: the capture stack's frames, then two paths compared."""


DRAW_PLIES = 80
"""Quiet plies that draw: the rules' :data:`plies.games.checkers.rules.DRAW_PLIES`, written
here again so that loading the kernel loads no rules (the game's tests check they agree)."""
_BACK = ((0x0000000F, 0), (0xF0000000, 7))
"""Each side's back row and the row its men advance from (Black's 0, White's 7)."""
_CENTRE = (1 << 13) | (1 << 14) | (1 << 17) | (1 << 18)


def move_code(squares: tuple[int, ...], capture: bool) -> int:
    """The code of the move visiting ``squares`` (1..32)."""
    table = JUMP if capture else STEP
    code = squares[0] - 1 | (len(squares) - 1) << HOPS_SHIFT | int(capture) << CAPTURE_BIT
    for hop, (here, there) in enumerate(itertools.pairwise(squares)):
        direction = next(d for d in range(4) if table[d, here - 1] == there - 1)
        code |= direction << (DIRECTIONS_SHIFT + 2 * hop)
    return code


def move_squares(code: int) -> tuple[int, ...]:
    """The squares (1..32) the move with ``code`` visits."""
    square = code & 31
    table = JUMP if code >> CAPTURE_BIT & 1 else STEP
    squares = [square + 1]
    for hop in range(code >> HOPS_SHIFT & 15):
        square = int(table[code >> (DIRECTIONS_SHIFT + 2 * hop) & 3, square])
        squares.append(square + 1)
    return tuple(squares)


@compiled
def _mine(state: np.ndarray) -> tuple[int, int, int, bool]:
    """The mover's men and kings, every opponent piece, and whether the mover is Black."""
    if state[4] == 0:
        return state[0], state[1], state[2] | state[3], True
    return state[2], state[3], state[0] | state[1], False


@compiled
def _squares_of(code: int, out: np.ndarray) -> int:
    """The bits the move visits into ``out``; their count."""
    square = code & 31
    out[0] = square
    hops = code >> HOPS_SHIFT & 15
    for hop in range(hops):
        direction = code >> (DIRECTIONS_SHIFT + 2 * hop) & 3
        square = JUMP[direction, square] if code >> CAPTURE_BIT & 1 else STEP[direction, square]
        out[hop + 1] = square
    return hops + 1


@compiled
def _before(a: int, b: int, left: np.ndarray, right: np.ndarray) -> bool:
    """Whether capture ``a`` sorts before ``b`` in :meth:`Checkers.actions`: longer first,
    then by the squares visited."""
    n, m = _squares_of(a, left), _squares_of(b, right)
    if n != m:
        return n > m
    for i in range(n):
        if left[i] != right[i]:
            return bool(left[i] < right[i])
    return False


@compiled
def _native_captures(state: np.ndarray, out: np.ndarray, stack: np.ndarray) -> int:
    """Every capture sequence of the mover into ``out``, unsorted; their count. Frames of
    ``stack``: (square, next direction, captured, empty, jumped on, code so far)."""
    men, kings, opponents, black = _mine(state)
    occupied = men | kings | opponents
    crown = _BLACK_CROWN if black else _WHITE_CROWN
    n = 0
    pieces = men | kings
    while pieces:
        bit = pieces & -pieces
        pieces ^= bit
        start = _index(bit)
        king = kings & bit != 0
        low, high = _directions(king, black)
        stack[0, 0], stack[0, 1], stack[0, 2] = start, low, 0
        stack[0, 3], stack[0, 4] = (~occupied & 0xFFFFFFFF) | bit, 0
        stack[0, 5] = start | 1 << CAPTURE_BIT
        top = 0
        while top >= 0:
            square, d, captured = stack[top, 0], stack[top, 1], stack[top, 2]
            empty, code = stack[top, 3], stack[top, 5]
            if d == high:
                if top > 0 and stack[top, 4] == 0:  # no jump goes on: the sequence ends here
                    out[n] = code
                    n += 1
                top -= 1
                continue
            stack[top, 1] = d + 1
            over, land = STEP[d, square], JUMP[d, square]
            if land < 0 or opponents & ~captured & (1 << over) == 0 or empty & (1 << land) == 0:
                continue
            stack[top, 4] = 1
            hops = code >> HOPS_SHIFT & 15
            if hops + 1 > MAX_HOPS or n >= out.shape[0] - 1:
                raise ValueError("checkers kernel: a capture too long or too many moves")
            longer = code + (1 << HOPS_SHIFT) | d << (DIRECTIONS_SHIFT + 2 * hops)
            if not king and crown & (1 << land):  # crowned: the move ends here
                out[n] = longer
                n += 1
                continue
            top += 1
            stack[top, 0], stack[top, 1], stack[top, 2] = land, low, captured | (1 << over)
            stack[top, 3], stack[top, 4] = (empty | (1 << square)) & ~(1 << land), 0
            stack[top, 5] = longer
    return n


@compiled
def native_moves(state: np.ndarray, out: np.ndarray, work: np.ndarray) -> int:
    """:meth:`Checkers.actions`: captures (longest first, then by squares), else steps by
    square; none once the draw count is reached. ``work`` has :data:`WORK_SHAPE`."""
    if state[5] >= DRAW_PLIES:
        return 0
    n = _native_captures(state, out, work)
    if n:
        left, right = work[STACK_DEPTH], work[STACK_DEPTH + 1]
        for i in range(1, n):
            code, j = out[i], i
            while j > 0 and _before(code, out[j - 1], left, right):
                out[j] = out[j - 1]
                j -= 1
            out[j] = code
        return n
    men, kings, opponents, black = _mine(state)
    empty = ~(men | kings | opponents) & 0xFFFFFFFF
    pieces = men | kings
    while pieces:
        bit = pieces & -pieces
        pieces ^= bit
        start = _index(bit)
        king = kings & bit != 0
        first = n
        low, high = _directions(king, black)
        for d in range(low, high):
            target = STEP[d, start]
            if target >= 0 and empty & (1 << target):
                code, j = start | 1 << HOPS_SHIFT | d << DIRECTIONS_SHIFT, n
                while j > first and STEP[out[j - 1] >> DIRECTIONS_SHIFT & 3, start] > target:
                    out[j] = out[j - 1]
                    j -= 1
                out[j] = code
                n += 1
    return n


@compiled
def native_play(state: np.ndarray, code: int, child: np.ndarray) -> None:
    """:meth:`Checkers.result` for a legal move."""
    men, kings, _, black = _mine(state)
    start = code & 31
    square, captured = start, 0
    for hop in range(code >> HOPS_SHIFT & 15):
        direction = code >> (DIRECTIONS_SHIFT + 2 * hop) & 3
        if code >> CAPTURE_BIT & 1:
            captured |= 1 << STEP[direction, square]
            square = JUMP[direction, square]
        else:
            square = STEP[direction, square]
    start_bit, end_bit = 1 << start, 1 << square
    king_move = kings & start_bit != 0
    if king_move:
        kings = kings & ~start_bit | end_bit
    elif (_BLACK_CROWN if black else _WHITE_CROWN) & end_bit:
        men ^= start_bit
        kings |= end_bit
    else:
        men ^= start_bit | end_bit
    child[5] = state[5] + 1 if king_move and captured == 0 else 0
    child[4] = 1 - state[4]
    if black:
        child[0], child[1] = men, kings
        child[2], child[3] = state[2] & ~captured, state[3] & ~captured
    else:
        child[0], child[1] = state[0] & ~captured, state[1] & ~captured
        child[2], child[3] = men, kings


@compiled
def native_outcome(state: np.ndarray) -> int:
    """-1 for a mover without a move (a loss), 0 at the draw count, else ``NOT_OVER``."""
    men, kings, opponents, black = _mine(state)
    empty = ~(men | kings | opponents) & 0xFFFFFFFF
    pieces = men | kings
    while pieces:
        bit = pieces & -pieces
        pieces ^= bit
        square = _index(bit)
        king = kings & bit != 0
        low, high = _directions(king, black)
        for d in range(low, high):
            step, land = STEP[d, square], JUMP[d, square]
            if step >= 0 and empty & (1 << step):
                return 0 if state[5] >= DRAW_PLIES else NOT_OVER
            if land >= 0 and opponents & (1 << step) and empty & (1 << land):
                return 0 if state[5] >= DRAW_PLIES else NOT_OVER
    return -1


@compiled
def native_key(state: np.ndarray) -> np.uint64:
    """:meth:`Checkers.hash_key`."""
    black = np.uint64(state[0]) | np.uint64(state[1]) << np.uint64(32)
    white = np.uint64(state[2]) | np.uint64(state[3]) << np.uint64(32)
    extra = np.uint64(state[5]) << np.uint64(1) | np.uint64(state[4])
    return mix(black ^ mix(white ^ mix(extra)))


@compiled
def _points(men: int, kings: int, side: int) -> int:
    """:func:`plies.games.checkers.rules._score` for Black (``side`` 0) or White (1)."""
    back, first_row = _BACK[side]
    advance = 0
    for row in range(8):
        step = row if first_row == 0 else 7 - row
        advance += step * popcount(men >> 4 * row & 0xF)
    return (
        100 * popcount(men)
        + 150 * popcount(kings)
        + 3 * advance
        + 10 * popcount(men & back)
        + 8 * popcount((men | kings) & _CENTRE)
    )


@compiled
def native_lead(state: np.ndarray) -> float:
    """:meth:`Checkers.evaluate`'s lead for the mover."""
    black = _points(state[0], state[1], 0)
    white = _points(state[2], state[3], 1)
    lead = (black - white) / (abs(black - white) + 400)
    return lead if state[4] == 0 else -lead


@compiled
def native_is_capture(code: int) -> bool:
    """Whether the move captures (:meth:`Checkers.is_capture`)."""
    return bool(code >> CAPTURE_BIT & 1 == 1)


# Endgame databases: the numbering of :mod:`.endgame`, compiled, and the probe the compiled
# engine makes (:mod:`.endgame_kernel` builds the arrays) ----------------------------------

BINOMIAL = np.array([[comb(n, k) for k in range(33)] for n in range(34)], np.int64)
"""``BINOMIAL[n, k]``: n choose k, for the combinatorial number system."""
DISTANCE_BITS = 12
"""A probe's answer: the outcome above these bits, the distance below."""


@numba.njit(cache=True)
def _rank(bits: int, low: int, excluded: int) -> int:
    """The colex rank of the set bits of ``bits`` among the bits from ``low`` up that are not
    in ``excluded``."""
    total, i = 0, 0
    below_low = (1 << low) - 1
    while bits:
        bit = bits & -bits
        bits ^= bit
        position = _index(bit) - low - popcount(excluded & (bit - 1) & ~below_low)
        i += 1
        total += BINOMIAL[position, i]
    return total


@numba.njit(cache=True)
def _nth_free(position: int, low: int, excluded: int) -> int:
    """The bit of the ``position``-th (from 0) bit from ``low`` up not in ``excluded``."""
    for b in range(low, 32):
        if not excluded >> b & 1:
            if position == 0:
                return b
            position -= 1
    return -1


@numba.njit(cache=True)
def _unrank(number: int, count: int, low: int, excluded: int) -> int:
    """The bits whose :func:`_rank` (among the same squares) is ``number``."""
    bits = 0
    for i in range(count, 0, -1):
        p = i - 1
        while BINOMIAL[p + 1, i] <= number:
            p += 1
        number -= BINOMIAL[p, i]
        bits |= 1 << _nth_free(p, low, excluded)
    return bits


SLICE_ROWS = 8
"""Leading rows 0 (no man) to 7: a material's slices are ``slices[row * 64 + 8 * black_row +
white_row]``."""


@numba.njit(cache=True)
def _turned(bits: int) -> int:
    """The 32-square bitboard turned round (square ``s`` to ``33 - s``): white's men seen as
    black's."""
    turned = 0
    for b in range(32):
        if bits >> b & 1:
            turned |= 1 << (31 - b)
    return turned


@numba.njit(cache=True)
def _leading_row(men: int) -> int:
    """The row of the most advanced man of a black bitboard (1-8; 0 for none)."""
    for b in range(31, -1, -1):
        if men >> b & 1:
            return b // 4 + 1
    return 0


@numba.njit(cache=True)
def leading_rows(pieces: np.ndarray) -> tuple[int, int]:
    """The rows of the leading black and white men of ``pieces`` (black men, black kings,
    white men, white kings), each counted from its side's back row; 0 for a side without
    men, 8 for a man on its crowning row."""
    return _leading_row(pieces[0]), _leading_row(_turned(pieces[2]))


@numba.njit(cache=True)
def _row_start(row: int, men: int, taken: int) -> int:
    """The first colex rank of ``men`` men led from ``row`` on squares numbered from the back
    row (bits), those of ``taken`` left out: every combination behind ``row`` comes first."""
    if men == 0:
        return 0
    behind = 4 * (row - 1)
    return int(BINOMIAL[behind - popcount(taken & ((1 << behind) - 1)), men])


@numba.njit(cache=True)
def _king_ways(row: int, counts: np.ndarray) -> int:
    men = counts[row, 0] + counts[row, 2]
    return int(
        BINOMIAL[32 - men, counts[row, 1]] * BINOMIAL[32 - men - counts[row, 1], counts[row, 3]]
    )


@numba.njit(cache=True)
def number_of(
    row: int,
    first: int,
    rows: tuple[int, int],
    pieces: np.ndarray,
    counts: np.ndarray,
    offsets: np.ndarray,
) -> int:
    """The placement number of ``pieces = (black men, black kings, white men, white kings)``
    in the slice of material ``row`` led from ``rows`` whose offsets begin at
    ``offsets[first]`` (:mod:`.endgame`'s numbering)."""
    black_men, black_kings, white_men, white_kings = pieces[0], pieces[1], pieces[2], pieces[3]
    men = black_men | white_men
    black_turned = _turned(black_men)
    black_within = _rank(black_men, 0, 0) - _row_start(rows[0], counts[row, 0], 0)
    white_within = _rank(_turned(white_men), 0, black_turned) - _row_start(
        rows[1], counts[row, 2], black_turned
    )
    kings_left = 32 - popcount(men) - counts[row, 1]
    kings_rank = _rank(black_kings, 0, men) * BINOMIAL[kings_left, counts[row, 3]] + _rank(
        white_kings, 0, men | black_kings
    )
    number: int = (
        offsets[first + black_within] + white_within * _king_ways(row, counts) + kings_rank
    )
    return number


@numba.njit(cache=True)
def placement_of(
    row: int,
    first: int,
    last: int,
    rows: tuple[int, int],
    number: int,
    counts: np.ndarray,
    offsets: np.ndarray,
    out: np.ndarray,
) -> None:
    """The bitboards of placement ``number`` of the slice of :func:`number_of` (its offsets
    ``offsets[first:last]``) into ``out``."""
    low, high = first, last - 1
    while high - low > 1:  # offsets[low] <= number < offsets[high]
        middle = (low + high) // 2
        if offsets[middle] <= number:
            low = middle
        else:
            high = middle
    white_within, kings_rank = divmod(number - offsets[low], _king_ways(row, counts))
    black_rank = low - first + _row_start(rows[0], counts[row, 0], 0)
    black_men = _unrank(black_rank, counts[row, 0], 0, 0)
    black_turned = _turned(black_men)
    white_rank = white_within + _row_start(rows[1], counts[row, 2], black_turned)
    white_men = _turned(_unrank(white_rank, counts[row, 2], 0, black_turned))
    men = black_men | white_men
    kings_left = 32 - counts[row, 0] - counts[row, 2] - counts[row, 1]
    black_kings_rank, white_kings_rank = divmod(kings_rank, BINOMIAL[kings_left, counts[row, 3]])
    black_kings = _unrank(black_kings_rank, counts[row, 1], 0, men)
    white_kings = _unrank(white_kings_rank, counts[row, 3], 0, men | black_kings)
    out[0], out[1], out[2], out[3] = black_men, black_kings, white_men, white_kings


@numba.njit(cache=True)
def material_row(ids: np.ndarray, pieces: np.ndarray) -> int:
    """The numbering's row (``ids``) of the material of ``pieces`` (black men, black kings,
    white men, white kings), -1 where it has none."""
    limit = ids.shape[0]
    c0, c1 = popcount(pieces[0]), popcount(pieces[1])
    c2, c3 = popcount(pieces[2]), popcount(pieces[3])
    if max(c0, c1, c2, c3) >= limit:
        return -1
    row: int = ids[c0, c1, c2, c3]
    return row


@numba.njit(cache=True)
def slice_of(row: int, rows: tuple[int, int], slices: np.ndarray) -> int:
    """The slice (``slices``, :data:`SLICE_ROWS`) of material ``row`` led from ``rows``, -1
    for none (a man on its crowning row)."""
    if rows[0] >= SLICE_ROWS or rows[1] >= SLICE_ROWS:
        return -1
    found: int = slices[(row * SLICE_ROWS + rows[0]) * SLICE_ROWS + rows[1]]
    return found


COUNT_LIMIT = 9
"""Men or kings of one kind a material of up to eight pieces can have, plus one: the size of
each dimension of the numbering's material rows."""
IDS, COUNTS, SLICES, FIRST, OFFSETS, STARTS, END = range(7)
"""The header of the compiled engine's numbering array (:func:`probe_row`): where each part
begins (and where the array ends)."""


@numba.njit(cache=True)
def probe_row(state: np.ndarray, numbering: np.ndarray, entries: np.ndarray) -> int:
    """The databases' answer for the state row ``state`` (black men, black kings, white men,
    white kings, mover, draw count): ``outcome << DISTANCE_BITS | distance`` (outcomes 1 win,
    2 loss, 3 draw for the mover), or -1 where no table holds it or a win or loss is not
    shorter than the plies the draw count leaves (the Python engine's ``trusted``).

    ``numbering`` holds, after a header of where each begins (:data:`IDS` ...), the material
    rows (``COUNT_LIMIT ** 4``), each row's men and kings, each row and leading rows' slice,
    each slice's first offset, the slices' offsets and each slice's first entry (-1 where not
    held); ``entries`` holds every position's answer. Two arrays, so that a search that
    carries them pays little for them."""
    c0, c1 = popcount(state[0]), popcount(state[1])
    c2, c3 = popcount(state[2]), popcount(state[3])
    if max(c0, c1, c2, c3) >= COUNT_LIMIT or not numbering.shape[0]:
        return -1
    row = numbering[
        numbering[IDS] + ((c0 * COUNT_LIMIT + c1) * COUNT_LIMIT + c2) * COUNT_LIMIT + c3
    ]
    if row < 0:
        return -1
    rows = leading_rows(state)
    chosen = slice_of(row, rows, numbering[numbering[SLICES] : numbering[FIRST]])
    if chosen < 0 or numbering[numbering[STARTS] + chosen] < 0:
        return -1
    counts = numbering[numbering[COUNTS] : numbering[SLICES]].reshape(
        ((numbering[SLICES] - numbering[COUNTS]) // 4, 4)
    )
    offsets = numbering[numbering[OFFSETS] : numbering[STARTS]]
    first = numbering[numbering[FIRST] + chosen]
    number = number_of(row, first, rows, state, counts, offsets)
    entry = int(entries[numbering[numbering[STARTS] + chosen] + 2 * number + state[4]])
    outcome, distance = entry >> DISTANCE_BITS, entry & ((1 << DISTANCE_BITS) - 1)
    if outcome != 3 and distance >= DRAW_PLIES - state[5]:
        return -1
    return entry
