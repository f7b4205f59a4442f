"""Compiled perfect-play Connect Four solver (Numba), behind :mod:`plies.games.connect4.solver`.

A transcription of the final version of Pascal Pons's solver (blog "Solving Connect 4: how to
build a perfect AI", parts 2 to 12, and his ``Solver.cpp``, ``Position.hpp``, ``MoveSorter.hpp``):

- bitboards (part 6): column ``c`` holds bits ``c * (height + 1)`` upwards, one per cell plus an
  always-empty sentinel; ``current`` has the mover's stones, ``mask`` every stone, and
  ``current + mask`` is a unique key below ``2 ** (width * (height + 1))``;
- negamax alpha-beta (parts 3 and 4) narrowed by the score bounds of the position: nobody can
  win before the opponent's next move, so the score lies in
  ``[-(cells - 2 - moves) // 2, (cells - 1 - moves) // 2]``;
- centre-first column order (part 5);
- a transposition table (part 7) with a prime number of slots keeping part of each key (part
  11) and Pons's encoded bounds (part 12: an upper bound when every move failed low, a lower
  bound on a beta cut-off);
- iterative deepening with null windows (part 8): :func:`solve` narrows ``[min, max]`` by
  null-window searches at the median, pulled halfway towards zero to find short wins first;
- anticipating losing moves (part 9): ``possibleNonLosingMoves`` skips moves that let the
  opponent win at once, plays a lone forced move, and scores two opponent wins as a loss;
- move ordering by the winning cells (threats) each move creates (part 10, ``MoveSorter``: an
  insertion sort, ties in centre-first order).

Three additions, kept because they measurably help (``benchmarks/connect4_solver.py
--without``, each switched off alone from the final solver; figures in ``BENCHMARKS.md``):

- a table entry also records the move that caused its cut-off, tried first when the position
  comes back (the "hash move"): 0.4% fewer positions on middle-medium and begin-hard, and
  its threat count is not computed, 15% less time on middle-medium;
- the table is a prime number of two-slot buckets, the first slot keeping the entry nearer the
  root (more empty cells), the second the newest (two-tier replacement; Pons's table always
  replaces): 26% fewer positions on begin-hard (its first 20);
- a node's children's buckets are prefetched before its moves are sorted: the table probe's
  cache miss was most of a node's time, and this almost halves the time per node.

The recursion is an explicit stack (one frame per number of stones): nothing is allocated and
no reference counts move per node, and no cached recursive function is involved (Numba issue
6061). ``nodes`` counts what Pons counts: the calls of his recursive ``negamax``, i.e. the
positions entered.

Scores are Pons's: from the side to move's view, a win ``(cells + 1 - moves) // 2`` when the
winning stone is the ``moves + 1``-th, 0 a draw. Every integer is a signed ``int64``: boards fit
in 63 bits and Numba turns mixed signed/unsigned arithmetic into floats. C's truncating division
of a negative number is written ``-(x // 2)``.

A table entry is ``tag << DATA_BITS | priority << PRIORITY_SHIFT | move << VALUE_BITS | value``,
0 meaning empty. The tag is a generation number above the key's quotient by the number of
buckets; bucket and quotient identify the key exactly (Pons's Chinese-remainder argument).
Raising the generation empties the table in O(1): older entries never match, and any entry
with a tag below ``generation`` (the current generation shifted above the quotients) is stale.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numba
import numpy as np
from llvmlite import ir  # type: ignore[import-untyped]
from numba.core import types
from numba.extending import intrinsic

VALUE_BITS = 7
"""Bits of an entry's value: Pons's encoded bounds are at most ``2 * (cells // 2) <= 124``."""
MOVE_BITS = 4
"""Bits of an entry's best move: 1 + the move's index in centre-first order, 0 for none."""
PRIORITY_SHIFT = VALUE_BITS + MOVE_BITS
DATA_BITS = PRIORITY_SHIFT + 6
"""Bits below an entry's tag; the priority (empty cells of its position) takes 6."""

EXPAND = 1 << 20
"""What :func:`enter` returns instead of a score when the node's moves must be searched."""
HINTED = 64
"""Sort score of the hash move: above any threat count (at most 62 empty cells)."""

ALPHA, BETA, SLOT, TAG, LEFT, CURRENT, MASK, POSSIBLE = range(8)
"""Fields of a stack frame: the window, the table slot and tag, the moves left to try, and the
position with its non-losing moves."""

TABLE = NULL_WINDOW = CENTRE_FIRST = THREAT_ORDER = HASH_MOVE = TWO_TIER = PREFETCH = True
"""The techniques, each switchable for the ladder of ``benchmarks/connect4_solver.py
--without``: the transposition table, null-window iterative deepening, centre-first column
order (read by :class:`~plies.games.connect4.solver.Connect4Solver`), ordering by threats, the hash
move, two-tier replacement and prefetching. Numba freezes them when it compiles, so the
solver pays nothing for the switches; a variant must be compiled in a process of its own with
its own cache (the benchmark does so)."""

PAUSED = 1 << 21
"""What :func:`negamax` and :func:`solve` return instead of a score when they stopped at their
limit of positions, to be resumed by the next call of :func:`solve`."""
CHECK_EVERY = 1024
"""Positions entered between two looks at the limit (a power of two)."""
RESUMING, LOW, HIGH, MED = range(8, 12)
"""Fields of the pause record (``pause``), beside a stack frame's ``ALPHA, BETA, CURRENT,
MASK``: whether a search is paused, its window of scores and the null window being searched.
The record's ``LEFT`` field holds the number of stones of the position where it paused."""


def _prefetch(typingctx: Any, array: Any, index: Any) -> tuple[Any, Callable[..., Any]]:
    """Typing and code generation of :func:`prefetch`."""

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        data = context.make_array(signature.args[0])(context, builder, args[0]).data
        byte_pointer = ir.IntType(8).as_pointer()
        pointer = builder.bitcast(builder.gep(data, [args[1]]), byte_pointer)
        int32 = ir.IntType(32)
        module, name = builder.module, "llvm.prefetch.p0"
        function = module.globals.get(name) or ir.Function(
            module, ir.FunctionType(ir.VoidType(), [byte_pointer, int32, int32, int32]), name
        )
        builder.call(function, [pointer, int32(0), int32(3), int32(1)])  # read, keep, data
        return context.get_dummy_value()

    return types.void(array, index), codegen


prefetch: Any = intrinsic(_prefetch)
"""``prefetch(array, index)`` asks the CPU to start loading ``array[index]`` into its caches
(LLVM's ``llvm.prefetch``) and goes on without waiting: the table probes of a node's children
then find their buckets in the cache more often (a table miss is most of a node's time)."""


@numba.njit(cache=True, inline="always")
def winning_cells(position: int, mask: int, height: int, board: int) -> int:
    """The empty cells where a stone would complete four in a row with ``position``'s stones
    (Pons's ``compute_winning_position``): per direction, three stones on one side, or two on
    one side and one on the other."""
    r = (position << 1) & (position << 2) & (position << 3)  # vertical: three stones below
    for step in (height + 1, height, height + 2):  # horizontal, then the two diagonals
        p = (position << step) & (position << (2 * step))
        r |= p & (position << (3 * step))
        r |= p & (position >> step)
        p = (position >> step) & (position >> (2 * step))
        r |= p & (position << step)
        r |= p & (position >> (3 * step))
    return r & (board ^ mask)


@numba.njit(cache=True, inline="always")
def popcount(x: int) -> int:
    """The number of set bits of a non-negative ``x`` (LLVM turns the loop into ``popcnt``)."""
    count = 0
    while x:
        x &= x - 1
        count += 1
    return count


@numba.njit(cache=True, inline="always")
def enter(
    current: int,
    mask: int,
    moves: int,
    alpha: int,
    beta: int,
    cells: int,
    height: int,
    bottom: int,
    board: int,
    table: np.ndarray,
    generation: int,
) -> tuple[int, int, int, int, int, int, int]:
    """The head of Pons's ``negamax``, up to its loop over the moves: returns ``(result,
    possible, alpha, beta, slot, tag, hint)``. ``result`` is the node's value when the bounds
    alone decide it, else ``EXPAND`` with the non-losing moves ``possible``, the narrowed
    window, the position's bucket and tag, and the hash move's ``1 + index`` (0: none)."""
    possible = (mask + bottom) & board
    threats = winning_cells(current ^ mask, mask, height, board)
    forced = possible & threats
    if forced:
        if forced & (forced - 1):  # two opponent wins: we can only stop one
            return -((cells - moves) // 2), 0, alpha, beta, 0, 0, 0
        possible = forced
    possible &= ~(threats >> 1)  # never play below an opponent's winning cell
    if possible == 0:
        return -((cells - moves) // 2), 0, alpha, beta, 0, 0, 0
    if moves >= cells - 2:  # the last two stones: neither side can win any more
        return 0, 0, alpha, beta, 0, 0, 0
    low = -((cells - 2 - moves) // 2)  # the opponent cannot win at their next move
    if alpha < low:
        alpha = low
        if alpha >= beta:
            return alpha, 0, alpha, beta, 0, 0, 0
    high = (cells - 1 - moves) // 2  # nor can we win at this one
    if beta > high:
        beta = high
        if alpha >= beta:
            return beta, 0, alpha, beta, 0, 0, 0
    min_score = 3 - cells // 2
    max_score = (cells + 1) // 2 - 3
    key = current + mask
    buckets = table.shape[0] >> 1
    slot = (key % buckets) << 1
    tag = generation | (key // buckets)
    entry = table[slot]
    if entry >> DATA_BITS != tag:
        entry = table[slot + 1]
    hint = 0
    if entry >> DATA_BITS == tag:
        hint = (entry >> VALUE_BITS) & ((1 << MOVE_BITS) - 1)
        value = entry & ((1 << VALUE_BITS) - 1)
        if value > max_score - min_score + 1:  # a lower bound
            low = value + 2 * min_score - max_score - 2
            if alpha < low:
                alpha = low
                if alpha >= beta:
                    return alpha, 0, alpha, beta, 0, 0, 0
        else:  # an upper bound
            high = value + min_score - 1
            if beta > high:
                beta = high
                if alpha >= beta:
                    return beta, 0, alpha, beta, 0, 0, 0
    return EXPAND, possible, alpha, beta, slot, tag, hint


@numba.njit(cache=True, inline="always")
def store(table: np.ndarray, slot: int, tag: int, generation: int, data: int, empty: int) -> None:
    """Two-tier replacement in the bucket at ``slot``: the first slot keeps the entry with the
    most ``empty`` cells (its displaced entry moves to the second slot), the second the newest.
    """
    entry = tag << DATA_BITS | empty << PRIORITY_SHIFT | data
    if not TABLE:
        return
    if not TWO_TIER:  # Pons's: always replace
        table[slot] = entry
        return
    first = table[slot]
    old = first >> DATA_BITS
    if old == tag or old < generation or empty >= (first >> PRIORITY_SHIFT) & 63:
        if old != tag and old >= generation:
            table[slot + 1] = first
        table[slot] = entry
    else:
        table[slot + 1] = entry


@numba.njit(cache=True)
def negamax(
    current: int,
    mask: int,
    moves: int,
    alpha: int,
    beta: int,
    cells: int,
    height: int,
    bottom: int,
    board: int,
    columns: np.ndarray,
    table: np.ndarray,
    generation: int,
    frames: np.ndarray,
    sorter: np.ndarray,
    root: int,
    limit: int,
    pause: np.ndarray,
) -> tuple[int, int]:
    """Pons's recursive ``negamax`` run on an explicit stack: the score of a position where
    nobody has won and the mover cannot win at once, searched in the window ``alpha < beta``
    (exact inside it, else a bound beyond the side it falls: ``<= alpha`` or ``>= beta``), and
    the positions entered.

    ``cells`` is width * height, ``columns`` holds each column's cells in centre-first order,
    ``generation`` the current tag bits; ``frames`` and ``sorter`` hold a stack frame and a
    ``MoveSorter`` row per number of stones. A sorter entry is ``score << 4 | (15 - index)``:
    sorting these numbers puts the moves in Pons's order, ties broken centre first.

    The search is of the position with ``root`` stones; it starts at ``root`` or, resuming,
    at a deeper position whose ancestors' frames are on the stack. Every :data:`CHECK_EVERY`
    positions it looks at its ``limit``: past it, it records the position it was about to
    enter in ``pause`` and returns ``PAUSED``, so that resuming counts every position once.
    """
    nodes = 0
    min_score = 3 - cells // 2
    max_score = (cells + 1) // 2 - 3
    while True:
        if nodes & (CHECK_EVERY - 1) == 0 and nodes >= limit and nodes:
            pause[CURRENT], pause[MASK], pause[LEFT] = current, mask, moves
            pause[ALPHA], pause[BETA] = alpha, beta
            return PAUSED, nodes
        nodes += 1  # Pons's negamax(current, mask, moves, alpha, beta) is called
        result, possible, alpha, beta, slot, tag, hint = enter(
            current, mask, moves, alpha, beta, cells, height, bottom, board, table, generation
        )
        if result == EXPAND:
            buckets = table.shape[0] >> 1
            children = possible if PREFETCH else 0
            while children:  # fetch the children's buckets while the moves are sorted
                move = children & -children
                children ^= move
                prefetch(table, (((current ^ mask) + (mask | move)) % buckets) << 1)
            count = 0
            single = (possible & (possible - 1)) == 0
            for i in range(columns.shape[0] - 1, -1, -1):  # insertion sort, as MoveSorter
                move = possible & columns[i]
                if move:
                    score = HINTED
                    if not (HASH_MOVE and i + 1 == hint) and not single:
                        score = 0
                        if THREAT_ORDER:
                            score = popcount(winning_cells(current | move, mask, height, board))
                    entry = score << 4 | (15 - i)
                    j = count
                    while j and sorter[moves, j - 1] > entry:
                        sorter[moves, j] = sorter[moves, j - 1]
                        j -= 1
                    sorter[moves, j] = entry
                    count += 1
            frames[moves, ALPHA] = alpha
            frames[moves, BETA] = beta
            frames[moves, SLOT] = slot
            frames[moves, TAG] = tag
            frames[moves, LEFT] = count - 1
            frames[moves, CURRENT] = current
            frames[moves, MASK] = mask
            frames[moves, POSSIBLE] = possible
            move = possible & columns[15 - (sorter[moves, count - 1] & 15)]
            current, mask, moves = current ^ mask, mask | move, moves + 1
            alpha, beta = -beta, -alpha
            continue
        while moves > root:  # return result to the parent, which may try its next move
            moves -= 1
            score = -result
            alpha, beta = frames[moves, ALPHA], frames[moves, BETA]
            slot, tag, left = frames[moves, SLOT], frames[moves, TAG], frames[moves, LEFT]
            if score >= beta:  # a cut-off: a lower bound, and the move that caused it
                best = 16 - (sorter[moves, left] & 15)
                data = best << VALUE_BITS | (score + max_score - 2 * min_score + 2)
                store(table, slot, tag, generation, data, cells - moves)
                result = score
                continue
            alpha = max(alpha, score)
            if left == 0:  # every move failed low: an upper bound
                store(table, slot, tag, generation, alpha - min_score + 1, cells - moves)
                result = alpha
                continue
            frames[moves, ALPHA] = alpha
            frames[moves, LEFT] = left - 1
            current, mask = frames[moves, CURRENT], frames[moves, MASK]
            move = frames[moves, POSSIBLE] & columns[15 - (sorter[moves, left - 1] & 15)]
            current, mask, moves = current ^ mask, mask | move, moves + 1
            alpha, beta = -beta, -alpha
            break
        else:
            return result, nodes


@numba.njit(cache=True)
def solve(
    current: int,
    mask: int,
    moves: int,
    low: int,
    high: int,
    cells: int,
    height: int,
    bottom: int,
    board: int,
    columns: np.ndarray,
    table: np.ndarray,
    generation: int,
    frames: np.ndarray,
    sorter: np.ndarray,
    limit: int,
    pause: np.ndarray,
) -> tuple[int, int]:
    """Pons's ``solve``: the score of a position where nobody has won, and the positions
    entered. An immediate win is scored at once; otherwise null-window searches
    ``[med, med + 1]`` narrow ``[low, high]`` until they meet, ``med`` pulled from the middle
    halfway towards zero.

    Pons starts from the whole range of scores (``[-1, 1]`` for a weak solve). From a
    narrower range the result is a bound when the score lies outside it: a result ``<= low``
    means the score is at most ``low``, one ``>= high`` at least the result; so ``[s, s + 1]``
    tests the score against ``s``.

    Past about ``limit`` positions the search pauses (``PAUSED``, ``pause[RESUMING]`` set);
    calling again with the same arguments and a new limit resumes it where it stopped, the
    table, ``frames`` and ``sorter`` untouched in between. Clear ``pause[RESUMING]`` to start
    afresh instead."""
    resuming = pause[RESUMING] != 0
    pause[RESUMING] = 0
    if resuming:
        low, high = pause[LOW], pause[HIGH]
    elif winning_cells(current, mask, height, board) & (mask + bottom) & board:
        return (cells + 1 - moves) // 2, 0
    nodes = 0
    while low < high:
        if resuming:
            med = pause[MED]
            start, occupied, stones = pause[CURRENT], pause[MASK], pause[LEFT]
            alpha, beta = pause[ALPHA], pause[BETA]
            resuming = False
        elif NULL_WINDOW:
            med = low + (high - low) // 2
            if med <= 0 and -(-low // 2) < med:
                med = -(-low // 2)
            elif med >= 0 and high // 2 > med:
                med = high // 2
            start, occupied, stones, alpha, beta = current, mask, moves, med, med + 1
        else:  # one search of the whole window: its result is exact
            med = low
            start, occupied, stones, alpha, beta = current, mask, moves, low, high
        r, searched = negamax(
            start,
            occupied,
            stones,
            alpha,
            beta,
            cells,
            height,
            bottom,
            board,
            columns,
            table,
            generation,
            frames,
            sorter,
            moves,
            limit - nodes,
            pause,
        )
        nodes += searched
        if r == PAUSED:
            pause[RESUMING], pause[LOW], pause[HIGH], pause[MED] = 1, low, high, med
            return PAUSED, nodes
        if not NULL_WINDOW:
            low = high = r
        elif r <= med:
            high = r
        else:
            low = r
    return low, nodes
