"""MoGo's 3x3 shapes (Gelly, Wang, Munos and Teytaud 2006, "Modification of UCT with patterns in
Monte-Carlo Go", figure 2: hane, cut and edge shapes), as Michi (Baudiš 2015) lists them, turned
into the table the compiled playouts look moves up in (:func:`pattern_table`).

A shape is three rows of three points around the move (the centre, always empty): ``X`` and
``O`` are stones of two different colours (either colour may be ``X``), ``x`` anything but an
``X`` stone (empty, ``O`` or off the board), ``o`` anything but an ``O`` stone, ``.`` an empty
point, a space off the board, ``?`` anything. A shape matches in any of its eight rotations and
reflections.
"""

from __future__ import annotations

import itertools
from functools import cache

import numpy as np
from numpy.typing import NDArray

SHAPES = (
    ("XOX", "...", "???"),  # hane: enclosing hane
    ("XO.", "...", "?.?"),  # hane: non-cutting hane
    ("XO?", "X..", "x.?"),  # hane: magari
    (".O.", "X..", "..."),  # attachment beside a diagonal stone (katatsuke)
    ("XO?", "O.o", "?o?"),  # cut: an unprotected cut
    ("XO?", "O.X", "???"),  # cut: a peeped cut
    ("?X?", "O.O", "ooo"),  # cut: de
    ("OX?", "o.O", "???"),  # cut: keima
    ("X.?", "O.?", "   "),  # edge: chase
    ("OX?", "X.O", "   "),  # edge: block a cut
    ("?X?", "x.O", "   "),  # edge: block a connection
    ("?XO", "x.x", "   "),  # edge: sagari
    ("?OX", "X.O", "   "),  # edge: cut
)
"""The shapes, top row first."""

EMPTY, BLACK, WHITE, EDGE = range(4)
CHOICES = {
    ".": (EMPTY,),
    " ": (EDGE,),
    "?": (EMPTY, BLACK, WHITE, EDGE),
    "X": (BLACK,),
    "O": (WHITE,),
    "x": (EMPTY, WHITE, EDGE),
    "o": (EMPTY, BLACK, EDGE),
}
"""What each letter may stand for, with ``X`` black (the colour swap gives the rest)."""


def _transforms(rows: tuple[str, str, str]) -> set[tuple[str, ...]]:
    """The shape's eight rotations and reflections, as its nine letters row by row."""
    grid = [list(row) for row in rows]
    found = set()
    for _ in range(4):
        grid = [list(row) for row in zip(*grid[::-1], strict=True)]  # a quarter turn
        for flipped in (grid, [row[::-1] for row in grid]):
            found.add(tuple(letter for row in flipped for letter in row))
    return found


def _keys(letters: tuple[str, ...]) -> set[int]:
    """The keys of every neighbourhood the nine letters match (both colourings), in the order
    of :func:`plies.games.go.kernel.pattern_key`: the eight points but the centre, two bits
    each, the first the highest. The kernel reads its points from the lower left along each
    row; the shapes' top row is read first here, which is a reflection and so one of the
    shape's own eight."""
    around = letters[:4] + letters[5:]
    keys = set()
    for swap in (False, True):
        options = []
        for letter in around:
            values = CHOICES[letter]
            if swap:
                values = tuple({BLACK: WHITE, WHITE: BLACK}.get(v, v) for v in values)
            options.append(values)
        for cells in itertools.product(*options):
            key = 0
            for cell in cells:
                key = key * 4 + cell
            keys.add(key)
    return keys


@cache
def pattern_table() -> NDArray[np.uint8]:
    """65,536 entries, one for each 3x3 neighbourhood key: 1 where one of :data:`SHAPES`
    matches."""
    table = np.zeros(1 << 16, np.uint8)
    for shape in SHAPES:
        for letters in _transforms(shape):
            for key in _keys(letters):
                table[key] = 1
    return table
