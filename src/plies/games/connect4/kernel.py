"""Compiled Connect Four perft and random playouts (Numba), behind the methods ``perft`` and
``random_playout`` of :class:`plies.games.connect4.ConnectFour`.

Bitboards follow :mod:`plies.games.connect4.rules` (Pascal Pons's layout): column ``c`` holds bits
``c * (height + 1)`` upwards, one per cell from the bottom plus an always-empty sentinel bit, so
every board fits a signed ``int64`` (``width * (height + 1) <= 63``). ``current`` holds the
mover's stones and ``mask`` every stone. The pure-Python game is the reference these are tested
against.
"""

from __future__ import annotations

import numba
import numpy as np

from plies.compiled import NOT_OVER, compiled, popcount


@numba.njit(cache=True)
def aligned(stones: int, stride: int, k: int) -> bool:
    """Whether ``stones`` hold ``k`` in a row; ``stride`` (height + 1) is the column pitch."""
    for step in (1, stride - 1, stride, stride + 1):  # vertical, diagonal, horizontal, diagonal
        runs, length = stones, 1  # runs: the bits that start a run of ``length`` stones
        while 2 * length <= k:
            runs &= runs >> (length * step)
            length *= 2
        if length < k:
            runs &= runs >> ((k - length) * step)
        if runs != 0:
            return True
    return False


@numba.njit(cache=True)
def perft(current: int, mask: int, depth: int, height: int, k: int, bottom: int, board: int) -> int:
    """Move paths of exactly ``depth`` >= 1 plies from a non-terminal position; paths through a
    finished game are not counted, and the last ply is counted in bulk (the playable columns).

    ``bottom`` has the bottom cell of every column, ``board`` every cell (no sentinels).
    """
    playable = (mask + bottom) & board  # the lowest empty cell of each column that has one
    if depth == 1:
        count = 0
        while playable != 0:
            playable &= playable - 1
            count += 1
        return count
    total = 0
    while playable != 0:
        move = playable & -playable
        playable ^= move
        if not aligned(current | move, height + 1, k):
            total += perft(current ^ mask, mask | move, depth - 1, height, k, bottom, board)
    return total


@numba.njit(cache=True)
def random_playout(
    current: int, mask: int, height: int, k: int, bottom: int, board: int, seed: int
) -> int:
    """Uniformly random moves from a non-terminal position to the end of the game: 1 when the
    player to move there wins, -1 when the other player does, 0 for a draw (a full grid).

    ``seed`` (not 0) starts a xorshift64 generator (Marsaglia 2003); each move takes the
    generator's value modulo the number of playable columns.
    """
    state = numba.uint64(seed)
    sign = 1
    while mask != board:
        playable = (mask + bottom) & board
        count = 0
        rest = playable
        while rest != 0:
            rest &= rest - 1
            count += 1
        state ^= state << numba.uint64(13)
        state ^= state >> numba.uint64(7)
        state ^= state << numba.uint64(17)
        for _ in range(int(state % numba.uint64(count))):
            playable &= playable - 1
        move = playable & -playable
        if aligned(current | move, height + 1, k):
            return sign
        current, mask = current ^ mask, mask | move
        sign = -sign
    return 0


# The rules the compiled searches run (:mod:`plies.native.kernels`) ---------------------
# A state row is (current, mask, moves, won); ``params`` as ``ConnectFour.compiled_rules`` lays
# them out.

WIDTH, HEIGHT, K, BOTTOM, BOARD, CENTRE, GOOD_ROWS, THREAT, GOOD_ROW, CENTRE_BONUS = range(1, 11)
WIN_NEXT, SCALE, WINDOWS, ORDER = 11, 12, 13, 14
"""Indices into ``params``: ``params[ORDER:ORDER + width]`` is the column order and the
``params[WINDOWS]`` windows (every line of k cells) follow it."""


@compiled
def native_moves(params: np.ndarray, state: np.ndarray, out: np.ndarray) -> int:
    """The playable columns, centre first (:meth:`ConnectFour.actions`)."""
    if state[3]:
        return 0
    height, n = params[HEIGHT], 0
    for i in range(params[WIDTH]):
        column = params[ORDER + i]
        if not state[1] & (1 << (column * (height + 1) + height - 1)):
            out[n] = column
            n += 1
    return n


@compiled
def native_play(params: np.ndarray, state: np.ndarray, column: int, child: np.ndarray) -> None:
    """:meth:`ConnectFour.result`: the stone drops into ``column``, the sides swap."""
    height = params[HEIGHT]
    stride = height + 1
    current, mask = state[0], state[1]
    stone = (mask + (1 << (column * stride))) & (((1 << height) - 1) << (column * stride))
    child[0], child[1], child[2] = current ^ mask, mask | stone, state[2] + 1
    child[3] = 1 if aligned(current | stone, stride, params[K]) else 0


@compiled
def native_outcome(params: np.ndarray, state: np.ndarray) -> int:
    """-1 when the last mover completed a line, 0 for a full grid, else ``NOT_OVER``."""
    if state[3]:
        return -1
    return 0 if state[2] == params[WIDTH] * params[HEIGHT] else NOT_OVER


@compiled
def native_key(state: np.ndarray) -> np.uint64:
    """:meth:`ConnectFour.hash_key`: ``current + mask``."""
    return np.uint64(state[0] + state[1])


@compiled
def native_lead(params: np.ndarray, state: np.ndarray) -> float:
    """:meth:`ConnectFour._mover_lead`, step for step."""
    mine, mask = state[0], state[1]
    theirs = mine ^ mask
    k = params[K]
    score, my_threats, their_threats = 0, 0, 0
    for i in range(params[WINDOWS]):
        window = params[ORDER + params[WIDTH] + i]
        own, other = popcount(mine & window), popcount(theirs & window)
        if other == 0:
            score += own * own
            if own == k - 1:
                my_threats |= window & ~mask
        if own == 0:
            score -= other * other
            if other == k - 1:
                their_threats |= window & ~mask
    my_rows, their_rows = params[GOOD_ROWS], params[BOARD] ^ params[GOOD_ROWS]
    if state[2] & 1:
        my_rows, their_rows = their_rows, my_rows
    score += params[THREAT] * (popcount(my_threats) - popcount(their_threats))
    score += params[GOOD_ROW] * popcount(my_threats & my_rows)
    score -= params[GOOD_ROW] * popcount(their_threats & their_rows)
    centre = params[CENTRE]
    score += params[CENTRE_BONUS] * (popcount(mine & centre) - popcount(theirs & centre))
    playable = (mask + params[BOTTOM]) & params[BOARD]
    if my_threats & playable:
        score += params[WIN_NEXT]
    elif popcount(their_threats & playable) >= 2:
        score -= params[WIN_NEXT]
    return float(score / (abs(score) + params[SCALE]))
