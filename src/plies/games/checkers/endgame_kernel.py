"""The numbering of :mod:`.endgame` and the moves of every position of a slice, compiled
(Numba), for building the endgame databases at the speed of the move generator
(:func:`.kernel.generate`).

The numbering is given to the kernel as arrays (:class:`Numberings`): for every material of up
to ``pieces`` pieces its men and kings, for every slice its offsets (all slices' offsets in
one flat array), and the slice of each material and pair of leading rows. The numbering itself
is compiled in :mod:`.kernel` (``number_of``, ``placement_of``), where the compiled engine's
probes reach it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any

import numba
import numpy as np

from plies.capabilities import LOSS, OPEN, ClassMoves
from plies.compiled import popcount
from plies.errors import InvalidPositionError
from plies.games.checkers.endgame import Slice, materials, slice_index, slices
from plies.games.checkers.kernel import (
    COUNT_LIMIT,
    DISTANCE_BITS,
    MAX_MOVES,
    SLICE_ROWS,
    STACK_DEPTH,
    generate,
    leading_rows,
    material_row,
    number_of,
    placement_of,
    slice_of,
)

if TYPE_CHECKING:
    from plies.games.checkers.rules import CheckersState


@dataclass(frozen=True)
class Numberings:
    """Every slice of up to ``pieces`` pieces as the kernel reads it: ``ids[bm, bk, wm, wk]``
    a material's row (-1 for none), ``counts[row]`` its men and kings, ``slice_ids[(row * 8 +
    black_row) * 8 + white_row]`` the number of its slice led from those rows (-1 for none),
    and slice ``s``'s offsets ``offsets[first[s]:first[s + 1]]``."""

    pieces: int
    slices: list[Slice]
    numbers: dict[Slice, int]
    ids: np.ndarray
    counts: np.ndarray
    slice_ids: np.ndarray
    first: np.ndarray
    offsets: np.ndarray

    @classmethod
    def up_to(cls, pieces: int) -> Numberings:
        chosen = [m for size in range(1, pieces + 1) for m in materials(size)]
        ids = np.full((COUNT_LIMIT,) * 4, -1, np.int64)
        counts = np.zeros((len(chosen), 4), np.int64)
        for row, material in enumerate(chosen):
            four = (
                material.black_men,
                material.black_kings,
                material.white_men,
                material.white_kings,
            )
            ids[four] = row
            counts[row] = four
        every = [s for size in range(1, pieces + 1) for s in slices(size)]
        slice_ids = np.full(len(chosen) * SLICE_ROWS * SLICE_ROWS, -1, np.int64)
        first, offsets = [0], []
        material_rows = {material: row for row, material in enumerate(chosen)}
        for number, piece in enumerate(every):
            row = material_rows[piece.material]
            slice_ids[(row * SLICE_ROWS + piece.black_row) * SLICE_ROWS + piece.white_row] = number
            offsets.extend(slice_index(piece).offsets)
            first.append(len(offsets))
        return cls(
            pieces,
            every,
            {s: number for number, s in enumerate(every)},
            ids,
            counts,
            slice_ids,
            np.array(first, np.int64),
            np.array(offsets, np.int64),
        )

    def row(self, chosen: Slice) -> int:
        """The row of ``chosen``'s material."""
        m = chosen.material
        return int(self.ids[m.black_men, m.black_kings, m.white_men, m.white_kings])


@numba.njit(cache=True)
def _moves_of(
    row: int,
    chosen: int,
    rows: tuple[int, int],
    position: int,
    numbering: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray],
    work: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray],
) -> int:
    """The moves of position ``position`` of slice ``chosen`` (of material ``row``, led from
    ``rows``) into ``work[0]`` (child slices) and ``work[1]`` (child position numbers); their
    count. The rest of ``work`` is the generator's space and two rows of four bitboards."""
    ids, counts, slice_ids, first, offsets = numbering
    child_slices, child_numbers, out, stack, pieces, board = work
    placement_of(
        row, first[chosen], first[chosen + 1], rows, position // 2, counts, offsets, pieces
    )
    black = position % 2 == 0
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
        child_row = material_row(ids, pieces)
        child_rows = leading_rows(pieces)
        child = slice_of(child_row, child_rows, slice_ids)
        child_slices[m] = child
        number = number_of(child_row, first[child], child_rows, pieces, counts, offsets)
        child_numbers[m] = 2 * number + (1 if black else 0)
    return moves


@numba.njit(cache=True)
def slice_moves(
    row: int,
    chosen: int,
    rows: tuple[int, int],
    positions: int,
    numbering: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray],
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every move of every position of slice ``chosen``: ``starts`` (positions + 1), and for
    each move the child's slice and position number (two passes: count, then fill)."""
    work = (
        np.empty(MAX_MOVES, np.int64),
        np.empty(MAX_MOVES, np.int64),
        np.empty((MAX_MOVES, 4), np.int64),
        np.empty((STACK_DEPTH, 5), np.int64),
        np.empty(4, np.int64),
        np.empty(4, np.int64),
    )
    starts = np.zeros(positions + 1, np.int64)
    for position in range(positions):
        moves = _moves_of(row, chosen, rows, position, numbering, work)
        starts[position + 1] = starts[position] + moves
    child_slices = np.empty(starts[positions], np.int16)
    child_numbers = np.empty(starts[positions], np.int64)
    for position in range(positions):
        moves = _moves_of(row, chosen, rows, position, numbering, work)
        begin = starts[position]
        child_slices[begin : begin + moves] = work[0][:moves]
        child_numbers[begin : begin + moves] = work[1][:moves]
    return starts, child_slices, child_numbers


@cache
def numberings(pieces: int) -> Numberings:
    """:class:`Numberings` of every slice of up to ``pieces`` pieces, made once."""
    return Numberings.up_to(pieces)


def _arrays(table: Numberings) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    return table.ids, table.counts, table.slice_ids, table.first, table.offsets


def class_moves(chosen: Slice) -> ClassMoves:
    """Every move of every position of slice ``chosen``, compiled; a position without a move
    is lost for its side to move."""
    table = numberings(chosen.material.pieces)
    starts, child_slices, child_numbers = slice_moves(
        table.row(chosen),
        table.numbers[chosen],
        (chosen.black_row, chosen.white_row),
        slice_index(chosen).positions,
        _arrays(table),
    )
    ends = np.where(np.diff(starts) == 0, LOSS, OPEN).astype(np.uint8)
    return ClassMoves(starts, child_slices, child_numbers, table.slices, ends)


@numba.njit(cache=True)
def _number_in(
    rows: tuple[int, int], pieces: np.ndarray, counts: np.ndarray, offsets: np.ndarray
) -> int:
    """The placement number of ``pieces`` in the slice of material ``counts[0]`` led from
    ``rows`` (its ``offsets`` from 0); -1 where they lie in another slice."""
    for kind in range(4):
        if popcount(pieces[kind]) != counts[0, kind]:
            return -1
    if leading_rows(pieces) != rows:
        return -1
    number: int = number_of(0, 0, rows, pieces, counts, offsets)
    return number


@cache
def _slice_numbering(chosen: Slice) -> tuple[np.ndarray, np.ndarray]:
    """``chosen``'s men and kings (a material row of its own) and its offsets, for
    :func:`position_number`: one slice's numbering, made when first needed."""
    m = chosen.material
    counts = np.array([[m.black_men, m.black_kings, m.white_men, m.white_kings]], np.int64)
    return counts, np.array(slice_index(chosen).offsets, np.int64)


def position_number(chosen: Slice, state: CheckersState) -> int:
    """:meth:`.endgame.SliceIndex.position_number`, compiled: the number of ``state`` among
    ``chosen``'s positions (its draw count aside)."""
    counts, offsets = _slice_numbering(chosen)
    pieces = np.array(
        [state.black_men, state.black_kings, state.white_men, state.white_kings], np.int64
    )
    number = _number_in((chosen.black_row, chosen.white_row), pieces, counts, offsets)
    if number < 0:
        raise InvalidPositionError(f"the position's slice is {Slice.of(state)}")
    return 2 * number + (state.to_move == "W")


def compiled_tables(table: Callable[[Slice], Any], pieces: int) -> tuple[np.ndarray, ...]:
    """The two arrays :func:`.kernel.probe_row` reads, for every slice of up to ``pieces``
    pieces that ``table`` holds: the numbering (its header, the material rows, counts, slice
    ids, offsets and each slice's first entry, -1 where not held) and every position's entry,
    ``outcome << DISTANCE_BITS | distance`` in 16 bits."""
    numbering = numberings(pieces)
    starts = np.full(len(numbering.slices), -1, np.int64)
    entries, at = [], 0
    for number, chosen in enumerate(numbering.slices):
        solved = table(chosen)
        if solved is None:
            continue
        distances = np.maximum(solved.distances, 0)
        if distances.max(initial=0) >> DISTANCE_BITS:
            raise ValueError(f"{chosen}: a distance of {distances.max()} plies does not fit")
        starts[number] = at
        entries.append((solved.outcomes.astype(np.uint16) << DISTANCE_BITS) | distances)
        at += len(distances)
    parts = [
        numbering.ids.reshape(-1),
        numbering.counts.reshape(-1),
        numbering.slice_ids,
        numbering.first,
        numbering.offsets,
        starts,
    ]
    header = np.cumsum([len(parts) + 1] + [len(p) for p in parts])
    return (
        np.concatenate([header, *parts]).astype(np.int64),
        np.concatenate(entries).astype(np.uint16) if entries else np.zeros(0, np.uint16),
    )
