"""Compiled exact Othello endgame solver (Numba), behind :mod:`plies.games.othello.solver`.

Negamax alpha-beta to the end of the game on bitboards (:mod:`plies.games.othello.kernel`'s:
``p`` the mover's discs, ``o`` the opponent's), scoring the final disc difference as Othello
programs and the FFO suite do: the empty squares of a game over before the board is full go to
the winner. The speed-ups are the ones every endgame solver since Zebra uses (Gunnar
Andersson's "Writing an Othello program", Edax's ``endgame.c``), each switchable for
``benchmarks/othello_endgame.py --without``:

- principal-variation search: the first move with the whole window, the others with a null
  window, searched again only when they beat it;
- with pattern tables (:mod:`plies.games.othello.evaluation`), from :data:`EVAL_ORDER_EMPTIES`
  empties, the one-ply search's order with the evaluation of the position a move leaves mixed
  in (Numba's cache does not see changes to :func:`~plies.games.othello.kernel.pattern_lead` or
  the pattern geometry: delete the ``.nbi``/``.nbc`` files after changing them);
- fastest-first ordering (Zebra): with more than :data:`SHALLOW` empties, moves that leave the
  opponent fewest replies first (corners counted twice), the transposition table's move
  before all;
- corner stability in that order (Edax's ``get_corner_stability`` in its move sorting): the
  mover's corners and the edge squares next to them after the move, :data:`CORNER_WEIGHT` a
  disc (:data:`CORNER_WEIGHT_DEEP` from :data:`SEARCH_ORDER_EMPTIES` empties);
- parity ordering below that: squares in quadrants with an odd number of empties first (the
  last move in a region is worth having);
- a transposition table (:data:`TABLE_BITS` slots, always replacing) keeping the bounds
  proved for a position and its best move, for positions with more than :data:`SHALLOW`
  empties;
- enhanced transposition cutoffs: before searching a node's moves, a child whose table bound
  already refutes the window cuts at once;
- stability cutoffs: the opponent's stable discs (they can never be flipped) bound the score
  from above;
- the last empty square scored by the discs each side would turn over there, read from
  tables by the mover's discs on its four lines (Edax's ``count_last_flip``), without making
  the move; the last two solved inline, and positions of 3 to :data:`FEW` empties by searches
  that try each empty square directly (Edax's ``solve_3``/``solve_4``), one compiled function a
  number of empties, with neither the table, move generation nor recursion.

Every search counts the positions it enters in ``control[NODES]`` and stops (``control[ABORT]``
set, its result meaningless) once ``control[STOP]`` is set from another thread, the node limit
``control[LIMIT]`` is passed, or the clock passes ``deadline`` (:func:`plies.compiled.monotonic`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from llvmlite import ir  # type: ignore[import-untyped]
from numba.core import types
from numba.extending import intrinsic

from plies.compiled import compiled, mix, monotonic
from plies.games.othello.kernel import PATTERNS_ON, pattern_lead

SHALLOW = 7
"""Positions with this many empties or fewer are searched without the table, in parity order."""
SEARCH_ORDER_EMPTIES = 16
"""From this many empties, moves are ordered by a one-ply search (:func:`_reply_search`)."""
EVAL_ORDER_EMPTIES = 14
"""From this many empties, when the solver is given pattern tables, moves are ordered by the
one-ply search (:func:`_reply_search`, below :data:`SEARCH_ORDER_EMPTIES` too) less the
pattern evaluation of the position a move leaves, in place of potential mobility (Edax orders
its endgame nodes by its evaluation from about 15 empties). With the tables fitted to the
solver's labels: 21% fewer positions on FFO #40 to #44 than from 18 empties; from 12, 5%
fewer positions still but 5 to 25% more time (the evaluation is dear); from 16, more of both."""
EVAL_WEIGHT = 128
"""The evaluation's weight in the order below :data:`EVAL_DEEP_EMPTIES` (a lead of -1..1,
against 16 a move of mobility); 96, 160 or 192, more positions."""
EVAL_DEEP_EMPTIES = 18
EVAL_WEIGHT_DEEP = 1024
"""The evaluation's weight from :data:`EVAL_DEEP_EMPTIES` empties, where it orders best: 10%
fewer positions on FFO #43, #45 and #47 than at :data:`EVAL_WEIGHT` (5% more on #40 to #42
and #44, whose deep nodes are few); 256, 512 or 4,096, more."""
CORNER_WEIGHT = 8
"""Corner stability's weight in the fastest-first order (against 16 a reply): 19% fewer
positions on FFO #40 to #42 and 21% on #43 and #44, with :data:`CORNER_WEIGHT_DEEP`, than
without; 4 or 16, more."""
CORNER_WEIGHT_DEEP = 16
"""Corner stability's weight in the one-ply search's order (from :data:`SEARCH_ORDER_EMPTIES`
empties; against 16 a move of mobility); 32, more."""
FEW = min(SHALLOW, 7)
"""Positions with this many empties or fewer are solved by :func:`_few_left` (at most 7, the
levels compiled; on FFO #40 to #44 and #47, the same positions in 6% less processor time
than with 5, the general search taking 6 and 7)."""
FASTEST_FIRST_EMPTIES = 8
"""From this many empties (below :data:`SEARCH_ORDER_EMPTIES`), moves that leave the opponent
fewest replies go first; with fewer, moves in odd quadrants (parity)."""
ETC_EMPTIES = 12
"""Enhanced transposition cutoffs are looked for from this many empties: each child's probe is
a cache miss, dearer than the positions it saves below that (FFO #40 to #44 and #47: 23% less
time than from 8, for 4% more positions; 14 or 16 about the same, 10 between; #45 and #46:
60.2 s from 12, 66.4 s from 16)."""
TABLE_BITS = 22
"""The transposition table has ``2 ** TABLE_BITS`` slots."""
CHECK_EVERY = 4095
"""Positions entered between two looks at the stop flag, the limit and the clock (a mask)."""
NODES, LIMIT, STOP, ABORT, CLOCK_ID, GENERATION = range(6)
"""Fields of the ``control`` array."""
LOW, HIGH, MOVE, EMPTIES, AGE = range(5)
"""Fields of a table entry's ``bounds`` row: the bounds proved, the best square, the empties
of its position and the generation (search) that wrote it."""
INF = 65
"""Above any score (scores lie in -64..64)."""
NO_MOVE = -1

PVS = FASTEST_FIRST = SEARCH_ORDER = PARITY = TABLE = ETC = STABILITY = True
LAST_FLIP = EVAL_ORDER = CORNER_ORDER = FEW_EMPTIES = True
"""The techniques, each switchable (see the module docstring). Numba freezes them when it
compiles, so a variant must be compiled in a process of its own with its own cache."""

_ZERO = np.uint64(0)
_ONE = np.uint64(1)
_ALL = np.uint64(0xFFFFFFFFFFFFFFFF)
_CORNERS = np.uint64(0x8100000000000081)
_QUADRANTS = np.array([0x0F0F0F0F, 0xF0F0F0F0, 0x0F0F0F0F00000000, 0xF0F0F0F000000000], np.uint64)
_NOT_A = np.uint64(0xFEFEFEFEFEFEFEFE)
_NOT_H = np.uint64(0x7F7F7F7F7F7F7F7F)
_FILES_A_H = np.uint64(0x8181818181818181)
"""The a and h files: a disc there cannot be flipped along its row."""
_RANKS_1_8 = np.uint64(0xFF000000000000FF)
"""The first and last rows: a disc there cannot be flipped along its column."""
_BORDER = _FILES_A_H | _RANKS_1_8
"""The board's edge: a disc there cannot be flipped along a diagonal."""


def _bit_intrinsic(name: str) -> Any:
    """A Numba intrinsic calling LLVM's ``llvm.NAME.i64`` on a ``uint64`` (one instruction
    on this CPU: ``popcnt``, ``lzcnt``), giving a signed integer."""

    def typing(typingctx: Any, word: Any) -> tuple[Any, Callable[..., Any]]:
        def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
            int64 = ir.IntType(64)
            if name == "ctpop":
                function_type = ir.FunctionType(int64, [int64])
                call_args = [args[0]]
            else:
                function_type = ir.FunctionType(int64, [int64, ir.IntType(1)])
                call_args = [args[0], ir.Constant(ir.IntType(1), 0)]
            function = builder.module.globals.get(f"llvm.{name}.i64") or ir.Function(
                builder.module, function_type, f"llvm.{name}.i64"
            )
            return builder.call(function, call_args)

        return types.int64(types.uint64), codegen

    return intrinsic(typing)


popcount: Callable[[np.uint64], int] = _bit_intrinsic("ctpop")
"""The number of set bits of a ``uint64`` (LLVM's ``ctpop``)."""
leading_zeros: Callable[[np.uint64], int] = _bit_intrinsic("ctlz")
"""The leading zero bits of a ``uint64`` (64 for 0; LLVM's ``ctlz``)."""


def _rays() -> np.ndarray:
    """``RAYS[square, direction]``: the squares from ``square`` (not included) to the edge in
    each direction; directions 0-3 go up the bit order (east, south, south-east,
    south-west), 4-7 down it (west, north, north-west, north-east)."""
    steps = [(0, 1), (1, 0), (1, 1), (1, -1), (0, -1), (-1, 0), (-1, -1), (-1, 1)]
    rays = np.zeros((64, 8), np.uint64)
    for square in range(64):
        for direction, (dr, dc) in enumerate(steps):
            r, c, ray = square // 8 + dr, square % 8 + dc, 0
            while 0 <= r < 8 and 0 <= c < 8:
                ray |= 1 << (8 * r + c)
                r, c = r + dr, c + dc
            rays[square, direction] = ray
    return rays


RAYS = _rays()


_INNER = np.uint64(0x7E7E7E7E7E7E7E7E)
_S1, _S7, _S8, _S9 = np.uint64(1), np.uint64(7), np.uint64(8), np.uint64(9)


@compiled
def _direction_moves(p: np.uint64, mask: np.uint64, shift: np.uint64) -> np.uint64:
    """The squares beyond a run of ``mask`` (opponent) discs that starts next to a disc of
    ``p``, along ``shift`` both ways: a fill by doubling steps (the run is at most 6 long)."""
    double = shift + shift
    up = mask & (p << shift)
    up |= mask & (up << shift)
    pairs = mask & (mask << shift)
    up |= pairs & (up << double)
    up |= pairs & (up << double)
    down = mask & (p >> shift)
    down |= mask & (down >> shift)
    pairs = mask & (mask >> shift)
    down |= pairs & (down >> double)
    down |= pairs & (down >> double)
    return (up << shift) | (down >> shift)


@compiled
def legal_moves(p: np.uint64, o: np.uint64) -> np.uint64:
    """The squares where the mover flips something (as :func:`plies.games.othello.kernel.
    legal_moves`, in about half the operations)."""
    inner = o & _INNER  # a run that crosses the a or h file would wrap round
    moves = _direction_moves(p, inner, _S1) | _direction_moves(p, o, _S8)
    moves |= _direction_moves(p, inner, _S7) | _direction_moves(p, inner, _S9)
    return moves & ~(p | o) & _ALL


@compiled
def flips_at(p: np.uint64, o: np.uint64, square: int) -> np.uint64:
    """The opponent discs that playing on ``square`` (an index) turns over: along each ray,
    the run of opponent discs up to the first disc that is not the opponent's, if that one is
    the mover's (the nearest on a ray is its lowest bit going up the bit order, its highest
    going down)."""
    flipped = _ZERO
    not_theirs = ~o
    for direction in range(4):
        ray = RAYS[square, direction]
        blockers = ray & not_theirs
        first = blockers & (~blockers + _ONE)
        if first & p:
            flipped |= ray & (first - _ONE)
    for direction in range(4, 8):
        ray = RAYS[square, direction]
        blockers = ray & not_theirs
        if blockers:
            first = _ONE << np.uint64(63 - leading_zeros(blockers))
            if first & p:
                flipped |= ray & ~((first << _ONE) - _ONE)
    return flipped


@compiled
def _neighbours(discs: np.uint64) -> np.uint64:
    """The squares next to any of ``discs`` (in the eight directions)."""
    sideways = ((discs << _ONE) & _NOT_A) | ((discs >> _ONE) & _NOT_H) | discs
    return sideways | (sideways << np.uint64(8)) | (sideways >> np.uint64(8))


@compiled
def _mobility(p: np.uint64, o: np.uint64) -> int:
    """The mover's moves less the opponent's, corners counted twice."""
    mine, theirs = legal_moves(p, o), legal_moves(o, p)
    return (
        popcount(mine) + popcount(mine & _CORNERS) - popcount(theirs) - popcount(theirs & _CORNERS)
    )


@compiled
def corner_stable(p: np.uint64) -> np.uint64:
    """``p``'s corners and its edge squares next to a corner it holds (Edax's
    ``get_corner_stability``): discs that can never be flipped."""
    return (
        ((np.uint64(0x0100000000000001) & p) << _ONE)
        | ((np.uint64(0x8000000000000080) & p) >> _ONE)
        | ((np.uint64(0x0000000000000081) & p) << np.uint64(8))
        | ((np.uint64(0x8100000000000000) & p) >> np.uint64(8))
        | _CORNERS
    ) & p


@compiled
def _reply_search(p: np.uint64, o: np.uint64) -> int:
    """How good the position is for the player who just moved (``o``), by a one-ply search:
    the least :func:`_mobility` it has after any reply of ``p`` (a pass counted as one)."""
    replies = legal_moves(p, o)
    if replies == _ZERO:
        return 64 + _mobility(o, p)
    worst = 1 << 20
    while replies:
        square = replies & (~replies + _ONE)
        replies ^= square
        flipped = flips_at(p, o, 63 - leading_zeros(square))
        value = _mobility(o ^ flipped, p | flipped | square)
        if value < worst:
            worst = value
    return worst


_LINE_STEPS = ((0, 1), (1, 0), (1, 1), (1, -1))
"""The four lines through a square: its row, column, diagonal and anti-diagonal."""
_FILE_A = np.uint64(0x0101010101010101)
_COLUMN_MAGIC = np.uint64(0x0102040810204080)


def _line_squares(square: int, line: int) -> tuple[list[int], int]:
    """The squares of ``square``'s ``line`` in order along it, and ``square``'s place there."""
    dr, dc = _LINE_STEPS[line]
    r, c = square // 8, square % 8
    while 0 <= r - dr < 8 and 0 <= c - dc < 8:
        r, c = r - dr, c - dc
    squares = []
    while 0 <= r < 8 and 0 <= c < 8:
        squares.append(8 * r + c)
        r, c = r + dr, c + dc
    return squares, squares.index(square)


def _diagonal_masks() -> np.ndarray:
    """``[square, 0]``: the squares of ``square``'s diagonal; ``[square, 1]``: its anti-diagonal."""
    masks = np.zeros((64, 2), np.uint64)
    for square in range(64):
        for line in (2, 3):
            masks[square, line - 2] = sum(1 << q for q in _line_squares(square, line)[0])
    return masks


DIAGONAL_MASKS = _diagonal_masks()


def _line_byte(p: int, square: int, line: int) -> int:
    """The mover's discs ``p`` on ``square``'s ``line`` as a byte, as :func:`_last_move` reads
    them (here in Python, to build :data:`LAST_FLIPS`): the row by a shift, the column and the
    diagonals gathered into the top byte by a multiplication."""
    everything = (1 << 64) - 1
    if line == 0:
        return (p >> (8 * (square // 8))) & 0xFF
    if line == 1:
        return ((((p >> (square % 8)) & int(_FILE_A)) * int(_COLUMN_MAGIC)) & everything) >> 56
    mask = int(DIAGONAL_MASKS[square, line - 2])
    return (((p & mask) * int(_FILE_A)) & everything) >> 56


def _last_flips() -> np.ndarray:
    """``LAST_FLIPS[square, line, byte, side]``: the discs turned over along ``line`` by a move
    on ``square`` when every other square is filled, ``byte`` being the mover's discs on the
    line (:func:`_line_byte`), for the mover (``side`` 0) or the opponent (1): Edax's
    ``count_last_flip``. Every other square being filled, the mover's discs tell the whole
    line."""
    table = np.zeros((64, 4, 256, 2), np.int8)
    for square in range(64):
        for line in range(4):
            squares, place = _line_squares(square, line)
            others = [k for k in range(len(squares)) if k != place]
            bytes_of = [_line_byte(1 << squares[k], square, line) for k in others]
            for pattern in range(1 << len(others)):
                mine = {others[i] for i in range(len(others)) if pattern >> i & 1}
                byte = sum(bytes_of[i] for i in range(len(others)) if pattern >> i & 1)
                for side, moving in enumerate((True, False)):
                    flipped = 0
                    for step in (1, -1):
                        k = place + step
                        while 0 <= k < len(squares) and (k in mine) != moving:
                            k += step
                        if 0 <= k < len(squares):
                            flipped += abs(k - place) - 1
                    table[square, line, byte, side] = flipped
    return table


LAST_FLIPS = _last_flips()


@compiled
def final_score(p: np.uint64, o: np.uint64) -> int:
    """The mover's disc difference at the end of the game, the empties to the winner."""
    mine, theirs = popcount(p), popcount(o)
    empties = 64 - mine - theirs
    if mine > theirs:
        return mine - theirs + empties
    if mine < theirs:
        return mine - theirs - empties
    return 0


@compiled
def _last_move(p: np.uint64, o: np.uint64, square: np.uint64) -> int:
    """The final score of a position with one empty ``square`` (the mover's view), from the
    discs each side would turn over there (:data:`LAST_FLIPS`), without making the move."""
    index = 63 - leading_zeros(square)
    row = (p >> np.uint64(index & 56)) & np.uint64(0xFF)
    column = (((p >> np.uint64(index & 7)) & _FILE_A) * _COLUMN_MAGIC) >> np.uint64(56)
    diagonal = ((p & DIAGONAL_MASKS[index, 0]) * _FILE_A) >> np.uint64(56)
    anti_diagonal = ((p & DIAGONAL_MASKS[index, 1]) * _FILE_A) >> np.uint64(56)
    for side in range(2):
        flipped = (
            int(LAST_FLIPS[index, 0, row, side])
            + int(LAST_FLIPS[index, 1, column, side])
            + int(LAST_FLIPS[index, 2, diagonal, side])
            + int(LAST_FLIPS[index, 3, anti_diagonal, side])
        )
        if flipped:
            discs = popcount(p) + flipped + 1 if side == 0 else popcount(p) - flipped
            return 2 * discs - 64
    return final_score(p, o)


def _line_masks() -> np.ndarray:
    """Every row, column and diagonal of the board as a mask (diagonals of one square too)."""
    lines = []
    for r in range(8):
        lines.append(sum(1 << (8 * r + c) for c in range(8)))
    for c in range(8):
        lines.append(sum(1 << (8 * r + c) for r in range(8)))
    for start in range(-7, 8):
        lines.append(sum(1 << (8 * r + r - start) for r in range(8) if 0 <= r - start < 8))
        lines.append(sum(1 << (8 * r + start + 7 - r) for r in range(8) if 0 <= start + 7 - r < 8))
    return np.array(lines, np.uint64)


LINES = _line_masks()
"""Rows (0-7), columns (8-15), then each diagonal of each direction, alternating (16-45)."""


@compiled
def _two_empties(
    p: np.uint64, o: np.uint64, first: np.uint64, second: np.uint64, beta: int, control: np.ndarray
) -> int:
    """The exact score of a position whose only empties are ``first`` and ``second`` (one-bit
    boards), without recursion: each move scored by :func:`_last_move` on the other square,
    the opponent's moves after a pass, else the end (each position counted)."""
    best = -INF
    flipped = flips_at(p, o, 63 - leading_zeros(first))
    if flipped:
        control[NODES] += 1
        best = -_last_move(o ^ flipped, p | flipped | first, second)
        if best >= beta:
            return best
    flipped = flips_at(p, o, 63 - leading_zeros(second))
    if flipped:
        control[NODES] += 1
        value = -_last_move(o ^ flipped, p | flipped | second, first)
        if value > best:
            best = value
    if best > -INF:
        return best
    worst = INF  # the mover passes: the opponent's best is the mover's worst
    flipped = flips_at(o, p, 63 - leading_zeros(first))
    if flipped:
        control[NODES] += 1
        worst = _last_move(p ^ flipped, o | flipped | first, second)
    flipped = flips_at(o, p, 63 - leading_zeros(second))
    if flipped:
        control[NODES] += 1
        value = _last_move(p ^ flipped, o | flipped | second, first)
        if value < worst:
            worst = value
    return worst if worst < INF else final_score(p, o)


def _empties_search(fewer: Callable[..., int]) -> Callable[..., int]:
    """The search of a counted position of one empty more than ``fewer`` searches (fail-soft):
    each empty square tried in parity order, a square that flips nothing being no move
    (Edax's ``solve_3``/``solve_4``), the opponent's moves after a pass; without the table,
    move generation or recursion, so that each level compiles into the one above it."""

    def search(
        p: np.uint64, o: np.uint64, alpha: int, beta: int, control: np.ndarray, deadline: float
    ) -> int:
        empty = ~(p | o) & _ALL
        odd = _parity_mask(empty) if PARITY else _ALL
        sign = 1
        for side in range(2):
            best = -INF
            for pass_number in range(2):
                candidates = empty & odd if pass_number == 0 else empty & ~odd
                while candidates:
                    square = candidates & (~candidates + _ONE)
                    candidates ^= square
                    flipped = flips_at(p, o, 63 - leading_zeros(square))
                    if flipped == _ZERO:
                        continue
                    if _tick(control, deadline):
                        return 0
                    child_p, child_o = o ^ flipped, p | flipped | square
                    value = -fewer(child_p, child_o, -beta, -alpha, control, deadline)
                    if control[ABORT]:
                        return 0
                    if value > best:
                        best = value
                        if value > alpha:
                            alpha = value
                            if alpha >= beta:
                                return sign * best
            if best > -INF:
                return sign * best
            if side == 0:  # the mover passes: the opponent's moves, a position of its own
                if _tick(control, deadline):
                    return 0
                p, o, alpha, beta, sign = o, p, -beta, -alpha, -1
        return final_score(o, p)  # neither side can move (p and o are swapped back)

    return compiled(search)


@compiled
def _two_left(
    p: np.uint64, o: np.uint64, alpha: int, beta: int, control: np.ndarray, deadline: float
) -> int:
    """:func:`_two_empties` as a level of :func:`_empties_search`."""
    empty = ~(p | o) & _ALL
    first = empty & (~empty + _ONE)
    return _two_empties(p, o, first, empty ^ first, beta, control)


_three_left = _empties_search(_two_left)
_four_left = _empties_search(_three_left)
_five_left = _empties_search(_four_left)
_six_left = _empties_search(_five_left)
_seven_left = _empties_search(_six_left)


@compiled
def _few_left(
    p: np.uint64, o: np.uint64, n: int, alpha: int, beta: int, control: np.ndarray, deadline: float
) -> int:
    """A counted position of 3 to 7 (:data:`FEW`) empties, by its level of
    :func:`_empties_search`."""
    if n == 3:
        return _three_left(p, o, alpha, beta, control, deadline)
    if n == 4:
        return _four_left(p, o, alpha, beta, control, deadline)
    if n == 5:
        return _five_left(p, o, alpha, beta, control, deadline)
    if n == 6:
        return _six_left(p, o, alpha, beta, control, deadline)
    return _seven_left(p, o, alpha, beta, control, deadline)


@compiled
def _full_lines(filled: np.uint64) -> tuple[np.uint64, np.uint64, np.uint64, np.uint64]:
    """The squares whose row, column, and two diagonals are full (one mask per direction)."""
    rows = columns = diagonals = anti = _ZERO
    for i in range(8):
        if filled & LINES[i] == LINES[i]:
            rows |= LINES[i]
        if filled & LINES[8 + i] == LINES[8 + i]:
            columns |= LINES[8 + i]
    for i in range(15):
        line = LINES[16 + 2 * i]
        if filled & line == line:
            diagonals |= line
        line = LINES[17 + 2 * i]
        if filled & line == line:
            anti |= line
    return rows, columns, diagonals, anti


@compiled
def stable_discs(discs: np.uint64, other: np.uint64) -> np.uint64:
    """A subset of ``discs`` that can never be flipped: along each of the four lines through
    it, the line is full or a neighbour on it is the board's edge or a stable disc of the
    same colour (grown from nothing until no disc joins)."""
    rows, columns, diagonals, anti = _full_lines(discs | other)
    stable = _ZERO
    while True:
        east_west = rows | _FILES_A_H | ((stable << _ONE) & _NOT_A) | ((stable >> _ONE) & _NOT_H)
        north_south = columns | _RANKS_1_8 | (stable << _S8) | (stable >> _S8)
        diagonal = diagonals | _BORDER | ((stable << _S9) & _NOT_A) | ((stable >> _S9) & _NOT_H)
        anti_diagonal = anti | _BORDER | ((stable << _S7) & _NOT_H) | ((stable >> _S7) & _NOT_A)
        grown = discs & east_west & north_south & diagonal & anti_diagonal
        if grown == stable:
            return stable
        stable = grown


@compiled
def _tick(control: np.ndarray, deadline: float) -> bool:
    """Count a position; every :data:`CHECK_EVERY` + 1 of them, look whether to stop."""
    control[NODES] += 1
    if control[NODES] & CHECK_EVERY == 0 and (
        control[STOP] != 0
        or control[NODES] > control[LIMIT]
        or monotonic(control[CLOCK_ID]) > deadline
    ):
        control[ABORT] = 1
    return bool(control[ABORT] != 0)


@compiled
def _parity_mask(empty: np.uint64) -> np.uint64:
    """The empties in quadrants holding an odd number of them."""
    mask = _ZERO
    for q in range(4):
        if popcount(empty & _QUADRANTS[q]) & 1:
            mask |= _QUADRANTS[q]
    return mask


@compiled
def _shallow_children(
    p: np.uint64, o: np.uint64, empty: np.uint64, moves_out: np.ndarray, n: int
) -> int:
    """The moves of a position with few empties into ``moves_out[n]``, in parity order (the
    moves in odd quadrants first); their number."""
    legal = legal_moves(p, o)
    first = _parity_mask(empty) if PARITY else _ALL
    count = 0
    for pass_number in range(2):
        candidates = legal & first if pass_number == 0 else legal & ~first
        while candidates:
            square = candidates & (~candidates + _ONE)
            candidates ^= square
            moves_out[n, count] = 63 - leading_zeros(square)
            count += 1
    return count


@compiled
def _slot_of(keys: np.ndarray, key: np.uint64) -> int:
    """The table slot holding ``key``, or -1. A key has a bucket of two slots: the first keeps
    the entry of most empties written by the current search, the second the newest."""
    bucket = 2 * int(key >> np.uint64(65 - TABLE_BITS))
    if keys[bucket] == key:
        return bucket
    if keys[bucket + 1] == key:
        return bucket + 1
    return -1


@compiled
def _store(
    keys: np.ndarray,
    bounds: np.ndarray,
    key: np.uint64,
    best: int,
    alpha: int,
    beta: int,
    square: int,
    n: int,
    control: np.ndarray,
) -> None:
    """Keep what a search of ``alpha``..``beta`` found (fail-soft ``best``, its move
    ``square``) for the position ``key`` of ``n`` empties, merged with the bounds already
    kept for it. A new position takes the bucket's first slot if it has at least the empties
    of the one there or that one is from an earlier search (which moves to the second
    slot), else the second (two-tier replacement)."""
    generation = control[GENERATION]
    slot = _slot_of(keys, key)
    if slot >= 0:
        low, high = int(bounds[slot, LOW]), int(bounds[slot, HIGH])
    else:
        low, high = -64, 64
        bucket = 2 * int(key >> np.uint64(65 - TABLE_BITS))
        if bounds[bucket, AGE] != generation or n >= bounds[bucket, EMPTIES]:
            keys[bucket + 1] = keys[bucket]
            for field in range(5):
                bounds[bucket + 1, field] = bounds[bucket, field]
            slot = bucket
        else:
            slot = bucket + 1
    if best <= alpha:
        high = min(high, best)
    elif best >= beta:
        low = max(low, best)
    else:
        low = high = best
    keys[slot] = key
    bounds[slot, LOW], bounds[slot, HIGH], bounds[slot, MOVE] = low, high, square
    bounds[slot, EMPTIES], bounds[slot, AGE] = n, generation


@compiled
def _key(p: np.uint64, o: np.uint64) -> np.uint64:
    return mix(mix(p) ^ o) | _ONE  # never 0: 0 marks an empty slot


@compiled
def solve_node(
    p: np.uint64,
    o: np.uint64,
    alpha: int,
    beta: int,
    passed: int,
    keys: np.ndarray,
    bounds: np.ndarray,
    moves_out: np.ndarray,
    order: np.ndarray,
    params: np.ndarray,
    control: np.ndarray,
    deadline: float,
) -> int:
    """The exact score of the mover (fail-soft: a bound outside ``alpha``..``beta``);
    ``passed`` is 1 when the opponent just passed. ``keys``/``bounds`` are the table
    (``bounds[slot]``: lower and upper bounds, best square), ``moves_out``/``order`` scratch
    rows, one per number of empties, ``params`` the pattern tables as
    :func:`~plies.games.othello.kernel.pattern_lead` reads them (its flag 0: none). Called
    from Python only, and its recursive calls pass variables, never literals (Numba's cache
    cannot reload a recursive function otherwise, numba issue 6061)."""
    if _tick(control, deadline):
        return 0
    empty = ~(p | o) & _ALL
    if empty == _ZERO:
        return popcount(p) - popcount(o)
    if LAST_FLIP and empty & (empty - _ONE) == _ZERO:
        return _last_move(p, o, empty)
    n = popcount(empty)
    if LAST_FLIP and n == 2:
        first = empty & (~empty + _ONE)
        return _two_empties(p, o, first, empty ^ first, beta, control)
    if FEW_EMPTIES and LAST_FLIP and n <= FEW:
        return _few_left(p, o, n, alpha, beta, control, deadline)
    fresh = passed - passed  # 0, as a variable
    deep = n > SHALLOW
    if deep and STABILITY and alpha >= 64 - 2 * popcount(o):  # else no stable count can cut
        upper = 64 - 2 * popcount(stable_discs(o, p))
        if upper <= alpha:
            return upper
        if upper < beta:
            beta = upper
    use_table = TABLE and deep
    key = _key(p, o) if use_table else _ZERO
    hinted = NO_MOVE
    slot = _slot_of(keys, key) if use_table else -1
    if slot >= 0:
        low, high = int(bounds[slot, LOW]), int(bounds[slot, HIGH])
        if low >= beta:
            return low
        if high <= alpha:
            return high
        if low == high:
            return low
        alpha = max(alpha, low)
        beta = min(beta, high)
        hinted = int(bounds[slot, MOVE])
    if deep:
        count = 0
        odd = _parity_mask(empty)
        patterned = EVAL_ORDER and SEARCH_ORDER and params[PATTERNS_ON] != 0
        legal = legal_moves(p, o)
        while legal:
            square = legal & (~legal + _ONE)
            legal ^= square
            index = 63 - leading_zeros(square)
            flipped = flips_at(p, o, index)
            child_p, child_o = o ^ flipped, p | flipped | square
            if ETC and TABLE and n >= ETC_EMPTIES:
                child_slot = _slot_of(keys, _key(child_p, child_o))
                if child_slot >= 0 and -int(bounds[child_slot, HIGH]) >= beta:
                    return -int(bounds[child_slot, HIGH])
            rank = 0
            if index == hinted:
                rank = 1 << 20
            elif patterned and n >= EVAL_ORDER_EMPTIES:
                rank = 16 * _reply_search(child_p, child_o)
                weight = EVAL_WEIGHT_DEEP if n >= EVAL_DEEP_EMPTIES else EVAL_WEIGHT
                rank -= int(weight * pattern_lead(params, child_p, child_o))
                if CORNER_ORDER:
                    rank += CORNER_WEIGHT_DEEP * popcount(corner_stable(child_o))
            elif SEARCH_ORDER and n >= SEARCH_ORDER_EMPTIES:
                rank = 16 * _reply_search(child_p, child_o)
                rank -= popcount(_neighbours(child_o) & ~(child_p | child_o))
                if CORNER_ORDER:
                    rank += CORNER_WEIGHT_DEEP * popcount(corner_stable(child_o))
            elif FASTEST_FIRST and n >= FASTEST_FIRST_EMPTIES:
                replies = legal_moves(child_p, child_o)
                rank = -16 * (popcount(replies) + popcount(replies & _CORNERS))
                rank -= popcount(_neighbours(child_o) & ~(child_p | child_o))
                if CORNER_ORDER:
                    rank += CORNER_WEIGHT * popcount(corner_stable(child_o))
                if PARITY and square & odd:
                    rank += 8
            elif PARITY and square & odd:
                rank = 1
            moves_out[n, count] = index
            order[n, count] = rank
            count += 1
    else:
        count = _shallow_children(p, o, empty, moves_out, n)
    if count == 0:
        if passed:
            return final_score(p, o)
        return -solve_node(
            o,
            p,
            -beta,
            -alpha,
            fresh + 1,
            keys,
            bounds,
            moves_out,
            order,
            params,
            control,
            deadline,
        )
    best, best_square = -INF, NO_MOVE
    original_alpha = alpha
    for i in range(count):
        if deep:  # the best-ranked move left first
            top = i
            for j in range(i + 1, count):
                if order[n, j] > order[n, top]:
                    top = j
            index, rank = moves_out[n, top], order[n, top]
            moves_out[n, top], order[n, top] = moves_out[n, i], order[n, i]
            moves_out[n, i], order[n, i] = index, rank
        square = _ONE << np.uint64(moves_out[n, i])
        flipped = flips_at(p, o, moves_out[n, i])
        child_p, child_o = o ^ flipped, p | flipped | square
        # PVS: the first move with the whole window, the others with a null window, searched
        # again with the whole window only when they beat it
        low = -beta if i == 0 or not PVS else -alpha - 1
        value = -solve_node(
            child_p,
            child_o,
            low,
            -alpha,
            fresh,
            keys,
            bounds,
            moves_out,
            order,
            params,
            control,
            deadline,
        )
        if low != -beta and alpha < value < beta:
            value = -solve_node(
                child_p,
                child_o,
                -beta,
                -value,
                fresh,
                keys,
                bounds,
                moves_out,
                order,
                params,
                control,
                deadline,
            )
        if control[ABORT]:
            return 0
        if value > best:
            best, best_square = value, moves_out[n, i]
            if value > alpha:
                alpha = value
                if alpha >= beta:
                    break
    if use_table:
        _store(keys, bounds, key, best, original_alpha, beta, best_square, n, control)
    return best
