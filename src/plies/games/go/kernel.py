"""Compiled Go rules for playouts and the compiled tree search (Numba), behind
:meth:`plies.games.go.Go.random_playout` and :mod:`plies.native.go_mcts`.

A playout plays uniformly random moves that do not fill the mover's own eyes (an empty point
whose neighbours are all the mover's stones), with captures, no suicide and no immediate
recapture of a single-stone ko, until both players pass in a row (a player passes when no such
move is left), then counts the area as Tromp and Taylor do. It does not check positional
superko beyond the simple ko, and it stops after :data:`MOVES_PER_POINT` moves a point (a
long cycle): a playout is an estimate, and the game's own rules stay the Python ones.

The board is a ``uint8`` array (0 empty, 1 black, 2 white), point ``row * size + column``;
``neighbours`` lists each point's up to four neighbours, -1 padded. ``empties`` holds the
``count`` empty points in any order and ``where`` each one's index in it (-1: taken). ``marks``
has one more entry than the board: its last entry is the stamp that the latest flood fill left
on the points it visited. ``rng`` is a one-word xorshift64 state (Marsaglia 2003).
"""

from __future__ import annotations

import numba
import numpy as np
from numpy.typing import NDArray

from plies.compiled import compiled

MOVES_PER_POINT = 3
"""A playout stops after this many moves a point of the board."""
PASS = -1

Board = NDArray[np.uint8]
Ints = NDArray[np.int64]


@compiled
def draw(rng: NDArray[np.uint64], count: int) -> int:
    """A uniform index below ``count`` from the xorshift64 state ``rng[0]``."""
    x = rng[0]
    x ^= x << np.uint64(13)
    x ^= x >> np.uint64(7)
    x ^= x << np.uint64(17)
    rng[0] = x
    return int(np.int64(x % np.uint64(count)))


@compiled
def liberties(
    board: Board, neighbours: Ints, point: int, marks: Ints, stack: Ints, enough: int
) -> int:
    """The liberties of the group on ``point``, counted up to ``enough``."""
    stamp = marks[-1] + 1
    marks[-1] = stamp
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


@compiled
def _remove(
    board: Board, neighbours: Ints, point: int, stack: Ints, empties: Ints, where: Ints,
    count: int,
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


@compiled
def setup(board: Board, empties: Ints, where: Ints) -> int:
    """Fill ``empties`` and ``where`` from ``board``; the number of empty points."""
    count = 0
    for p in range(board.shape[0]):
        where[p] = -1
        if board[p] == 0:
            where[p] = count
            empties[count] = p
            count += 1
    return count


@compiled
def playable(
    board: Board, neighbours: Ints, point: int, mover: int, ko: int, marks: Ints, stack: Ints
) -> bool:
    """Whether ``mover`` may put a stone on the empty ``point``: not the ko point, not one of
    its own eyes, not suicide."""
    if point == ko:
        return False
    legal, eye = False, True
    for k in range(4):  # an empty neighbour: legal, and no eye (the common case)
        q = neighbours[point, k]
        if q >= 0 and board[q] != mover:
            eye = False
            legal = legal or board[q] == 0
    if eye or legal:
        return not eye
    for k in range(4):  # surrounded: legal only by a capture or a connection
        q = neighbours[point, k]
        if q >= 0:
            libs = liberties(board, neighbours, q, marks, stack, 2)
            if (board[q] != mover and libs == 1) or (board[q] == mover and libs >= 2):
                return True
    return False


@compiled
def place(
    board: Board, neighbours: Ints, point: int, mover: int, marks: Ints, stack: Ints,
    empties: Ints, where: Ints, count: int,
) -> tuple[int, int]:  # fmt: skip
    """Put ``mover``'s stone on the empty ``point`` and take the groups it captures; (the new
    number of empties, the ko point the opponent may not retake at once or -1)."""
    other = 3 - mover
    board[point] = mover
    last = count - 1  # take the point out of the empties
    moved = empties[last]
    empties[where[point]] = moved
    where[moved] = where[point]
    where[point] = -1
    count = last
    captured, taken_point = 0, -1
    for k in range(4):
        q = neighbours[point, k]
        if q >= 0 and board[q] == other and liberties(board, neighbours, q, marks, stack, 1) == 0:
            count, taken = _remove(board, neighbours, q, stack, empties, where, count)
            captured += taken
            taken_point = q
    if captured != 1:
        return count, -1
    for k in range(4):
        q = neighbours[point, k]
        if q >= 0 and board[q] == mover:
            return count, -1
    if liberties(board, neighbours, point, marks, stack, 2) == 1:
        return count, taken_point
    return count, -1


@compiled
def play_out(
    board: Board, neighbours: Ints, mover: int, passes: int, ko: int, marks: Ints,
    stack: Ints, empties: Ints, where: Ints, count: int, rng: NDArray[np.uint64],
    record: Ints,
) -> tuple[float, int]:  # fmt: skip
    """Random moves on ``board`` from ``mover`` (``passes`` just played in a row) to the end;
    (black's area minus white's, the stones played). Each stone is written in ``record`` as
    ``point * 4 + colour`` while it has room."""
    points = board.shape[0]
    played, moves = 0, 0
    while passes < 2 and moves < MOVES_PER_POINT * points:
        left, chosen = count, -1
        while left > 0:
            i = draw(rng, left)
            p = empties[i]
            if playable(board, neighbours, p, mover, ko, marks, stack):
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
            count, ko = place(board, neighbours, chosen, mover, marks, stack, empties, where, count)
            if played < record.shape[0]:
                record[played] = chosen * 4 + mover
                played += 1
        mover = 3 - mover
        moves += 1
    return area(board, neighbours, marks, stack), played


@compiled
def area(board: Board, neighbours: Ints, marks: Ints, stack: Ints) -> float:
    """Black's Tromp-Taylor area minus white's."""
    stamp = marks[-1] + 1
    marks[-1] = stamp
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


@numba.njit(cache=True, nogil=True)
def random_playout(
    start: Board, neighbours: Ints, mover: int, passes: int, komi: float, seed: int
) -> float:
    """Black's area minus white's and ``komi`` at the end of a random playout from ``start``
    (``mover`` 1 black or 2 white to play, ``passes`` just played in a row); ``seed`` (odd)
    starts the xorshift64 generator."""
    points = start.shape[0]
    board = start.copy()
    marks = np.zeros(points + 1, np.int64)
    stack = np.empty(points, np.int64)
    empties = np.empty(points, np.int64)
    where = np.empty(points, np.int64)
    count = setup(board, empties, where)
    rng = np.full(1, seed, np.uint64)
    args = (marks, stack, empties, where, count, rng, np.empty(0, np.int64))
    score, _ = play_out(board, neighbours, mover, passes, -1, *args)
    return score - komi
