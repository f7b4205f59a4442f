"""The numbering of :mod:`.endgame` and the moves of every position of a material, compiled
(Numba), for building the endgame databases at the speed of the move generator
(:func:`.kernel.generate`).

A material's numbering is given to the kernel as arrays (:class:`Numberings`): for every
material of up to ``pieces`` pieces, its men and kings, its king placements per men placement
and the offsets of its black men's ranks (all materials' offsets in one flat array).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from math import comb

import numba
import numpy as np

from plies.capabilities import LOSS, OPEN, ClassMoves
from plies.errors import InvalidPositionError
from plies.games.checkers.endgame import (
    BLACK_CROWN,
    WHITE_CROWN,
    Material,
    material_index,
    materials,
)
from plies.games.checkers.kernel import MAX_MOVES, STACK_DEPTH, generate
from plies.games.checkers.rules import CheckersState

BINOMIAL = np.array([[comb(n, k) for k in range(33)] for n in range(34)], np.int64)
"""``BINOMIAL[n, k]``: n choose k, for the combinatorial number system."""
COUNT_LIMIT = 9
"""Men or kings of one kind a material of up to eight pieces can have, plus one."""


@dataclass(frozen=True)
class Numberings:
    """Every material of up to ``pieces`` pieces as the kernel reads it: ``ids[bm, bk, wm,
    wk]`` its row (-1 for none), ``counts[row]`` its men and kings, ``king_ways[row]`` and
    its black men's offsets ``offsets[first[row]:first[row + 1]]``."""

    pieces: int
    materials: list[Material]
    rows: dict[Material, int]
    ids: np.ndarray
    counts: np.ndarray
    king_ways: np.ndarray
    first: np.ndarray
    offsets: np.ndarray

    @classmethod
    def up_to(cls, pieces: int) -> Numberings:
        chosen = [m for size in range(1, pieces + 1) for m in materials(size)]
        ids = np.full((COUNT_LIMIT,) * 4, -1, np.int64)
        counts = np.zeros((len(chosen), 4), np.int64)
        king_ways = np.zeros(len(chosen), np.int64)
        first, offsets = [0], []
        for row, material in enumerate(chosen):
            index = material_index(material)
            four = (
                material.black_men,
                material.black_kings,
                material.white_men,
                material.white_kings,
            )
            ids[four] = row
            counts[row] = four
            king_ways[row] = index.king_ways
            offsets.extend(index.offsets)
            first.append(len(offsets))
        return cls(
            pieces,
            chosen,
            {m: row for row, m in enumerate(chosen)},
            ids,
            counts,
            king_ways,
            np.array(first, np.int64),
            np.array(offsets, np.int64),
        )


@numba.njit(cache=True)
def _popcount(bits: int) -> int:
    count = 0
    while bits:
        bits &= bits - 1
        count += 1
    return count


@numba.njit(cache=True)
def _low_index(bit: int) -> int:
    index = 0
    while bit > 1:
        bit >>= 1
        index += 1
    return index


@numba.njit(cache=True)
def _rank(bits: int, low: int, excluded: int) -> int:
    """The colex rank of the set bits of ``bits`` among the bits from ``low`` up that are not
    in ``excluded``."""
    total, i = 0, 0
    below_low = (1 << low) - 1
    while bits:
        bit = bits & -bits
        bits ^= bit
        position = _low_index(bit) - low - _popcount(excluded & (bit - 1) & ~below_low)
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


@numba.njit(cache=True)
def number_of(
    row: int,
    pieces: np.ndarray,
    counts: np.ndarray,
    king_ways: np.ndarray,
    first: np.ndarray,
    offsets: np.ndarray,
) -> int:
    """The placement number of ``pieces = (black men, black kings, white men, white kings)``
    in material ``row``."""
    black_men, black_kings, white_men, white_kings = pieces[0], pieces[1], pieces[2], pieces[3]
    men = black_men | white_men
    black_rank = _rank(black_men, 0, 0)
    white_rank = _rank(white_men, 4, black_men)
    kings_left = 32 - _popcount(men) - counts[row, 1]
    kings_rank = _rank(black_kings, 0, men) * BINOMIAL[kings_left, counts[row, 3]] + _rank(
        white_kings, 0, men | black_kings
    )
    number: int = offsets[first[row] + black_rank] + white_rank * king_ways[row] + kings_rank
    return number


@numba.njit(cache=True)
def placement_of(
    row: int,
    number: int,
    counts: np.ndarray,
    king_ways: np.ndarray,
    first: np.ndarray,
    offsets: np.ndarray,
    out: np.ndarray,
) -> None:
    """The bitboards of placement ``number`` of material ``row`` into ``out``."""
    low, high = first[row], first[row + 1] - 1
    while high - low > 1:  # offsets[low] <= number < offsets[high]
        middle = (low + high) // 2
        if offsets[middle] <= number:
            low = middle
        else:
            high = middle
    black_rank = low - first[row]
    white_rank, kings_rank = divmod(number - offsets[low], king_ways[row])
    black_men = _unrank(black_rank, counts[row, 0], 0, 0)
    white_men = _unrank(white_rank, counts[row, 2], 4, black_men)
    men = black_men | white_men
    kings_left = 32 - counts[row, 0] - counts[row, 2] - counts[row, 1]
    black_kings_rank, white_kings_rank = divmod(kings_rank, BINOMIAL[kings_left, counts[row, 3]])
    black_kings = _unrank(black_kings_rank, counts[row, 1], 0, men)
    white_kings = _unrank(white_kings_rank, counts[row, 3], 0, men | black_kings)
    out[0], out[1], out[2], out[3] = black_men, black_kings, white_men, white_kings


@numba.njit(cache=True)
def _moves_of(
    row: int,
    position: int,
    ids: np.ndarray,
    counts: np.ndarray,
    king_ways: np.ndarray,
    first: np.ndarray,
    offsets: np.ndarray,
    work: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray],
) -> int:
    """The moves of position ``position`` of material ``row`` into ``work[0]`` (child
    material rows) and ``work[1]`` (child position numbers); their count."""
    child_rows, child_numbers, out, stack = work
    pieces = np.empty(4, np.int64)
    placement_of(row, position // 2, counts, king_ways, first, offsets, pieces)
    black = position % 2 == 0
    board = np.empty(4, np.int64)
    if black:
        board[:] = pieces
    else:
        board[0], board[1], board[2], board[3] = pieces[2], pieces[3], pieces[0], pieces[1]
    moves = generate(board, black, out, stack)
    for m in range(moves):
        # Each child is seen from its mover's side: the opponent of this position's mover.
        if black:
            pieces[0], pieces[1], pieces[2], pieces[3] = out[m, 2], out[m, 3], out[m, 0], out[m, 1]
        else:
            pieces[0], pieces[1], pieces[2], pieces[3] = out[m, 0], out[m, 1], out[m, 2], out[m, 3]
        child = ids[
            _popcount(pieces[0]), _popcount(pieces[1]), _popcount(pieces[2]), _popcount(pieces[3])
        ]
        child_rows[m] = child
        number = number_of(child, pieces, counts, king_ways, first, offsets)
        child_numbers[m] = 2 * number + (1 if black else 0)
    return moves


@numba.njit(cache=True)
def material_moves(
    row: int,
    positions: int,
    ids: np.ndarray,
    counts: np.ndarray,
    king_ways: np.ndarray,
    first: np.ndarray,
    offsets: np.ndarray,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every move of every position of material ``row``: ``starts`` (positions + 1), and for
    each move the child's material row and position number (two passes: count, then fill)."""
    work = (
        np.empty(MAX_MOVES, np.int64),
        np.empty(MAX_MOVES, np.int64),
        np.empty((MAX_MOVES, 4), np.int64),
        np.empty((STACK_DEPTH, 5), np.int64),
    )
    starts = np.zeros(positions + 1, np.int64)
    for position in range(positions):
        moves = _moves_of(row, position, ids, counts, king_ways, first, offsets, work)
        starts[position + 1] = starts[position] + moves
    child_rows = np.empty(starts[positions], np.int16)
    child_numbers = np.empty(starts[positions], np.int64)
    for position in range(positions):
        moves = _moves_of(row, position, ids, counts, king_ways, first, offsets, work)
        begin = starts[position]
        child_rows[begin : begin + moves] = work[0][:moves]
        child_numbers[begin : begin + moves] = work[1][:moves]
    return starts, child_rows, child_numbers


@cache
def numberings(pieces: int) -> Numberings:
    """:class:`Numberings` of every material of up to ``pieces`` pieces, made once."""
    return Numberings.up_to(pieces)


def class_moves(material: Material) -> ClassMoves:
    """Every move of every position of ``material``, compiled; a position without a move is
    lost for its side to move."""
    table = numberings(material.pieces)
    starts, child_rows, child_numbers = material_moves(
        table.rows[material],
        material_index(material).positions,
        table.ids,
        table.counts,
        table.king_ways,
        table.first,
        table.offsets,
    )
    ends = np.where(np.diff(starts) == 0, LOSS, OPEN).astype(np.uint8)
    return ClassMoves(starts, child_rows, child_numbers, table.materials, ends)


def position_number(material: Material, state: CheckersState) -> int:
    """:meth:`.endgame.MaterialIndex.position_number`, compiled: the number of ``state``
    among ``material``'s positions (its draw count aside)."""
    if Material.of(state) != material:
        raise InvalidPositionError(f"the position's material is {Material.of(state)}")
    if state.black_men & BLACK_CROWN or state.white_men & WHITE_CROWN:
        raise InvalidPositionError("a man stands on its crowning row")
    table = numberings(material.pieces)
    pieces = np.array(
        [state.black_men, state.black_kings, state.white_men, state.white_kings], np.int64
    )
    number = number_of(
        table.rows[material], pieces, table.counts, table.king_ways, table.first, table.offsets
    )
    return 2 * int(number) + (state.to_move == "W")
