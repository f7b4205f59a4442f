"""Compiled Go playouts (Numba), behind :meth:`plies.games.go.Go.random_playout`.

A playout plays uniformly random moves that do not fill the mover's own eyes (an empty point
whose neighbours are all the mover's stones), with captures, no suicide and no immediate
recapture of a single-stone ko, until both players pass in a row (a player passes when no such
move is left), then counts the area as Tromp and Taylor do. It does not check positional
superko beyond the simple ko, and it stops after :data:`MOVES_PER_POINT` moves a point (a
long cycle): a playout is an estimate, and the game's own rules stay the Python ones.

The board is a ``uint8`` array (0 empty, 1 black, 2 white), point ``row * size + column``;
``neighbours`` lists each point's up to four neighbours, -1 padded.
"""

from __future__ import annotations

import numba
import numpy as np

MOVES_PER_POINT = 3
"""A playout stops after this many moves a point of the board."""


@numba.njit(cache=True)
def _liberties(
    board: np.ndarray, neighbours: np.ndarray, point: int, marks: np.ndarray, stamp: int,
    stack: np.ndarray, enough: int,
) -> int:  # fmt: skip
    """The liberties of the group on ``point``, counted up to ``enough``; ``marks`` (stamped
    with ``stamp``) and ``stack`` are work space."""
    colour = board[point]
    marks[point] = stamp
    stack[0] = point
    top, found = 1, 0
    while top > 0:
        top -= 1
        here = stack[top]
        for k in range(4):
            there = neighbours[here, k]
            if there < 0 or marks[there] == stamp:
                continue
            if board[there] == 0:
                marks[there] = stamp
                found += 1
                if found >= enough:
                    return found
            elif board[there] == colour:
                marks[there] = stamp
                stack[top] = there
                top += 1
    return found


@numba.njit(cache=True)
def _remove(
    board: np.ndarray, neighbours: np.ndarray, point: int, stack: np.ndarray,
    empties: np.ndarray, where: np.ndarray, count: int,
) -> tuple[int, int]:  # fmt: skip
    """Take the group on ``point`` off the board, its points back among the empties; (the new
    number of empties, the stones taken)."""
    colour = board[point]
    board[point] = 0
    stack[0] = point
    top, taken = 1, 0
    while top > 0:
        top -= 1
        here = stack[top]
        where[here] = count
        empties[count] = here
        count += 1
        taken += 1
        for k in range(4):
            there = neighbours[here, k]
            if there >= 0 and board[there] == colour:
                board[there] = 0
                stack[top] = there
                top += 1
    return count, taken


@numba.njit(cache=True)
def random_playout(
    start: np.ndarray, neighbours: np.ndarray, mover: int, passes: int, komi: float, seed: int
) -> float:
    """Black's area minus white's and ``komi`` at the end of a random playout from ``start``
    (``mover`` 1 black or 2 white to play, ``passes`` just played in a row); ``seed`` (odd)
    starts a xorshift64 generator."""
    points = start.shape[0]
    board = start.copy()
    marks = np.zeros(points, np.int64)
    stack = np.empty(points, np.int64)
    empties = np.empty(points, np.int64)
    where = np.full(points, -1, np.int64)
    count = 0
    for p in range(points):
        if board[p] == 0:
            where[p] = count
            empties[count] = p
            count += 1
    state = np.uint64(seed)
    stamp, ko, moves = 0, -1, 0
    while passes < 2 and moves < MOVES_PER_POINT * points:
        other = 3 - mover
        left, chosen = count, -1
        while left > 0:
            state ^= state << np.uint64(13)
            state ^= state >> np.uint64(7)
            state ^= state << np.uint64(17)
            i = int(np.int64(state % np.uint64(left)))
            p = empties[i]
            legal, eye = False, True
            if p != ko:
                for k in range(4):  # an empty neighbour: legal, and no eye (the common case)
                    q = neighbours[p, k]
                    if q >= 0 and board[q] != mover:
                        eye = False
                        legal = legal or board[q] == 0
                if not legal and not eye:  # surrounded: legal only by capture or connection
                    for k in range(4):
                        q = neighbours[p, k]
                        if q < 0:
                            continue
                        stamp += 1
                        libs = _liberties(board, neighbours, q, marks, stamp, stack, 2)
                        if (board[q] == other and libs == 1) or (board[q] == mover and libs >= 2):
                            legal = True
                            break
            if legal and not eye:
                chosen = p
                break
            left -= 1  # move the refused point out of the range still to try
            empties[i], empties[left] = empties[left], empties[i]
            where[empties[i]], where[empties[left]] = i, left
        if chosen < 0:
            passes += 1
            ko = -1
        else:
            passes = 0
            board[chosen] = mover
            last = count - 1  # take the point out of the empties
            moved = empties[last]
            empties[where[chosen]] = moved
            where[moved] = where[chosen]
            where[chosen] = -1
            count = last
            captured, taken_point = 0, -1
            for k in range(4):
                q = neighbours[chosen, k]
                if q >= 0 and board[q] == other:
                    stamp += 1
                    if _liberties(board, neighbours, q, marks, stamp, stack, 1) == 0:
                        count, taken = _remove(board, neighbours, q, stack, empties, where, count)
                        captured += taken
                        taken_point = q
            ko = -1
            if captured == 1:
                stamp += 1
                alone = True
                for k in range(4):
                    q = neighbours[chosen, k]
                    if q >= 0 and board[q] == mover:
                        alone = False
                if alone and _liberties(board, neighbours, chosen, marks, stamp, stack, 2) == 1:
                    ko = taken_point
        mover = 3 - mover
        moves += 1
    return _area(board, neighbours, marks, stack, stamp + 1) - komi


@numba.njit(cache=True)
def _area(
    board: np.ndarray, neighbours: np.ndarray, marks: np.ndarray, stack: np.ndarray, stamp: int
) -> float:
    """Black's Tromp-Taylor area minus white's."""
    total = 0
    for p in range(board.shape[0]):
        if board[p] == 1:
            total += 1
        elif board[p] == 2:
            total -= 1
        elif marks[p] != stamp:
            marks[p] = stamp
            stack[0] = p
            top, size, borders = 1, 0, 0
            while top > 0:
                top -= 1
                here = stack[top]
                size += 1
                for k in range(4):
                    there = neighbours[here, k]
                    if there < 0:
                        continue
                    if board[there] == 0 and marks[there] != stamp:
                        marks[there] = stamp
                        stack[top] = there
                        top += 1
                    elif board[there] != 0:
                        borders |= board[there]
            if borders == 1:
                total += size
            elif borders == 2:
                total -= size
    return float(total)
