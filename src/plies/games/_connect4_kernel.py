"""Compiled Connect Four perft and random playouts (Numba), behind the methods ``perft`` and
``random_playout`` of :class:`plies.games.connect4.ConnectFour`.

Bitboards follow :mod:`plies.games.connect4` (Pascal Pons's layout): column ``c`` holds bits
``c * (height + 1)`` upwards, one per cell from the bottom plus an always-empty sentinel bit, so
every board fits a signed ``int64`` (``width * (height + 1) <= 63``). ``current`` holds the
mover's stones and ``mask`` every stone. The pure-Python game is the reference these are tested
against.
"""

from __future__ import annotations

import numba


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
