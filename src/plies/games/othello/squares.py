"""Othello's square tables, shared by the rules (:mod:`.rules`) and their compiled form
(:mod:`.kernel`) without either importing the other: the static move order, the squares next
to each corner, the edges' rays and the Zobrist key of White to move."""

from __future__ import annotations

FULL = (1 << 64) - 1


def square_class(square: int) -> int:
    """Move-order class: 0 corner, 1 other edge square, 2 inner, 3 C-square, 4 X-square."""
    row, column = divmod(square, 8)
    edge_row, edge_column = row in (0, 7), column in (0, 7)
    next_row, next_column = row in (1, 6), column in (1, 6)
    if edge_row and edge_column:
        return 0
    if (edge_row and next_column) or (edge_column and next_row):
        return 3
    if edge_row or edge_column:
        return 1
    return 4 if next_row and next_column else 2


RANK = [(square_class(square), square) for square in range(64)]
"""The static move order: corners, edges, inner squares, C-squares, X-squares; then a1..h8."""

NEXT_TO_CORNER = {
    corner: sum(
        1 << s for s in range(64) if max(abs(s // 8 - corner // 8), abs(s % 8 - corner % 8)) == 1
    )
    for corner in (0, 7, 56, 63)
}
"""The C- and X-squares next to each corner, risky to hold while that corner is empty."""

EDGE_RAYS = {
    0: (range(1, 7), range(8, 56, 8)),
    7: (range(6, 0, -1), range(15, 63, 8)),
    56: (range(57, 63), range(48, 0, -8)),
    63: (range(62, 56, -1), range(55, 7, -8)),
}
"""From each corner, the non-corner squares of its two edges, nearest first."""


def splitmix(x: int) -> int:
    """splitmix64's finaliser: a bijection of 64-bit integers that scatters every input bit."""
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & FULL
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & FULL
    return x ^ (x >> 31)


WHITE_TO_MOVE_KEY = splitmix(0x5EED)
