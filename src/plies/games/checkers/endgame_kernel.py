"""The numbering of :mod:`.endgame` and the moves of every position of a material, compiled
(Numba), for building the endgame databases at the speed of the move generator
(:func:`.kernel.generate`).

A material's numbering is given to the kernel as arrays (:class:`Numberings`): for every
material of up to ``pieces`` pieces, its men and kings, its king placements per men placement
and the offsets of its black men's ranks (all materials' offsets in one flat array). The
numbering itself is compiled in :mod:`.kernel` (``number_of``, ``placement_of``), where the
compiled engine's probes reach it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Any

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
from plies.games.checkers.kernel import (
    MAX_MOVES,
    STACK_DEPTH,
    generate,
    material_row,
    number_of,
    placement_of,
)
from plies.games.checkers.rules import CheckersState

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
def _moves_of(
    row: int,
    position: int,
    ids: np.ndarray,
    counts: np.ndarray,
    king_ways: np.ndarray,
    first: np.ndarray,
    offsets: np.ndarray,
    work: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray],
) -> int:
    """The moves of position ``position`` of material ``row`` into ``work[0]`` (child
    material rows) and ``work[1]`` (child position numbers); their count. The rest of
    ``work`` is the generator's space and two rows of four bitboards."""
    child_rows, child_numbers, out, stack, pieces, board = work
    placement_of(row, position // 2, counts, king_ways, first, offsets, pieces)
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
        child = material_row(ids, pieces)
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
        np.empty(4, np.int64),
        np.empty(4, np.int64),
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


def compiled_tables(table: Callable[[Material], Any], pieces: int) -> tuple[np.ndarray, ...]:
    """The arrays :func:`.kernel.probe_row` reads, for every material of up to ``pieces``
    pieces that ``table`` holds (its outcomes two bits a position, distances 16 bits, each
    material starting on a whole byte): the numbering's arrays, each material's first
    position (-1 where not held), the packed outcomes and the distances."""
    numbering = numberings(pieces)
    starts = np.full(len(numbering.materials), -1, np.int64)
    outcomes, distances, at = [], [], 0
    for row, material in enumerate(numbering.materials):
        solved = table(material)
        if solved is None:
            continue
        count = len(solved.outcomes)
        padded = -(-count // 4) * 4
        starts[row] = at
        outcome, distance = np.zeros(padded, np.uint8), np.zeros(padded, np.uint16)
        outcome[:count] = solved.outcomes
        distance[:count] = np.maximum(solved.distances, 0)
        outcomes.append(outcome)
        distances.append(distance)
        at += padded
    quads = (np.concatenate(outcomes) if outcomes else np.zeros(0, np.uint8)).reshape(-1, 4)
    packed = quads[:, 0] | quads[:, 1] << 2 | quads[:, 2] << 4 | quads[:, 3] << 6
    return (
        numbering.ids,
        numbering.counts,
        numbering.king_ways,
        numbering.first,
        numbering.offsets,
        starts,
        packed.astype(np.uint8),
        np.concatenate(distances) if distances else np.zeros(0, np.uint16),
    )
