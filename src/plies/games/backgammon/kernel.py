"""Backgammon's compiled rules: every distinct play of a roll, as boards, for self-play training
and the learned evaluation's search (:mod:`plies.games.backgammon.td_kernel`).

A board is an ``int8`` array of shape ``(2, 26)``: row 0 the side to move, row 1 the other;
``board[s, p]`` for ``p`` in 1..24 counts side ``s``'s checkers on its own point ``p`` (the
other side's point ``25 - p``), ``board[s, 25]`` those on its bar and ``board[s, 0]`` those
borne off. The plays follow :func:`plies.games.backgammon.rules._generate` rule for rule (the
tests compare them on random positions): as many dice as possible, the larger die when only
one can be played, a double's moves from the same or lower points, one play per resulting
board. Nothing here allocates: the caller hands in every array.
"""

from __future__ import annotations

import numpy as np

from plies.compiled import compiled

BAR = 25
OFF = 0
POINTS = 26
CHECKERS = 15
STACK = 5
"""Boards a play's search keeps: the start and one after each of up to four moves."""
SOURCES = 16
"""Single moves of one die from one board, at most (15 checkers' points, or the bar)."""
MOST_PLAYS = 8192
"""Room for the plays of a roll: far above the most any position has (a few thousand)."""


@compiled
def highest(board: np.ndarray, side: int) -> int:
    """``side``'s highest occupied point (25 the bar), 0 when all are off."""
    point = BAR
    while point > 0 and board[side, point] == 0:
        point -= 1
    return point


@compiled
def single_moves(board: np.ndarray, die: int, limit: int, sources: np.ndarray) -> int:
    """The sources of the mover's legal moves of ``die`` from points up to ``limit`` (the bar
    alone while a checker is on it), highest first, written to ``sources``; their number."""
    if board[0, BAR] > 0:
        if board[1, die] >= 2:  # the entry point 25 - die is the other side's point die
            return 0
        sources[0] = BAR
        return 1
    top = highest(board, 0)
    bearing_off = top <= 6
    count = 0
    for source in range(min(top, limit), 0, -1):
        if board[0, source] > 0:
            target = source - die
            if target > 0:
                if board[1, BAR - target] < 2:
                    sources[count] = source
                    count += 1
            elif bearing_off and (target == 0 or source == top):
                sources[count] = source
                count += 1
    return count


@compiled
def move(board: np.ndarray, source: int, die: int) -> None:
    """Play the mover's checker from ``source`` by ``die`` on ``board`` (a legal move),
    hitting a blot or bearing off."""
    board[0, source] -= 1
    target = source - die
    if target <= 0:
        board[0, OFF] += 1
        return
    if board[1, BAR - target] == 1:
        board[1, BAR - target] = 0
        board[1, BAR] += 1
    board[0, target] += 1


@compiled
def copy_board(target: np.ndarray, board: np.ndarray) -> None:
    """``target[:] = board``, element by element (a slice copy would need Numba's runtime)."""
    for side in range(2):
        for point in range(POINTS):
            target[side, point] = board[side, point]


@compiled
def _same(plays: np.ndarray, index: int, board: np.ndarray) -> bool:
    for side in range(2):
        for point in range(POINTS):
            if plays[index, side, point] != board[side, point]:
                return False
    return True


@compiled
def digest(board: np.ndarray) -> np.int64:
    """A 64-bit digest of a board (equal boards, equal digests)."""
    code = np.int64(0)
    for side in range(2):
        for point in range(POINTS):
            code = code * np.int64(31) + np.int64(board[side, point] + 1)
    return code


@compiled
def _record(
    board: np.ndarray,
    used: int,
    first: int,
    out: np.ndarray,
    digests: np.ndarray,
    dice_used: np.ndarray,
    count: int,
    most: int,
) -> tuple[int, int]:
    """Keep ``board``, reached with ``used`` dice starting with the die ``first``, among the
    plays using the most dice, once: the new (count, most); count -1 when ``out`` is full."""
    if used < most:
        return count, most
    if used > most:
        count, most = 0, used
    code = digest(board)
    for play in range(count):
        if digests[play] == code and _same(out, play, board):
            return count, most
    if count == out.shape[0]:
        return -1, most
    copy_board(out[count], board)
    digests[count] = code
    dice_used[count] = first
    return count + 1, most


@compiled
def plays(
    board: np.ndarray,
    high: int,
    low: int,
    out: np.ndarray,
    digests: np.ndarray,
    dice_used: np.ndarray,
    stack: np.ndarray,
    moves: np.ndarray,
) -> int:
    """Every distinct board the mover can reach with the roll ``high``-``low`` (high >= low),
    written to ``out[:n]`` (``n`` returned; -1 when ``out`` is too small); the board itself when
    no checker can move. ``digests`` and ``dice_used`` (int64, as long as ``out``), ``stack``
    (``(STACK, 2, 26)`` int8) and ``moves`` (``(4, SOURCES + 2)`` int64: each depth's sources,
    their number and the next to try) are work space. Depth first, both orders of two dice, a
    double's moves from the same or lower points (as the rules' ``_generate``)."""
    doubles = high == low
    length = 4 if doubles else 2
    count, most = 0, -1
    for order in range(1 if doubles else 2):
        first = high if order == 0 else low
        second = first if doubles else (low if order == 0 else high)
        copy_board(stack[0], board)
        moves[0, SOURCES] = single_moves(stack[0], first, BAR, moves[0])
        moves[0, SOURCES + 1] = 0
        if moves[0, SOURCES] == 0:
            count, most = _record(stack[0], 0, first, out, digests, dice_used, count, most)
        depth = 0 if moves[0, SOURCES] else -1
        while depth >= 0 and count >= 0:
            if moves[depth, SOURCES + 1] == moves[depth, SOURCES]:
                depth -= 1
                continue
            source = moves[depth, moves[depth, SOURCES + 1]]
            moves[depth, SOURCES + 1] += 1
            child = stack[depth + 1]
            copy_board(child, stack[depth])
            move(child, source, first if depth == 0 else second)
            found = 0
            if depth + 1 < length:
                limit = source if doubles else BAR
                found = single_moves(child, second, limit, moves[depth + 1])
            if found == 0:
                count, most = _record(child, depth + 1, first, out, digests, dice_used, count, most)
            else:
                depth += 1
                moves[depth, SOURCES] = found
                moves[depth, SOURCES + 1] = 0
        if count < 0:
            return -1
    if not doubles and most == 1:
        kept = 0
        for play in range(count):
            if dice_used[play] == high:
                copy_board(out[kept], out[play])
                kept += 1
        if kept:
            count = kept
    return count
