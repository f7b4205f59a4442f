"""The squares of Othello's pattern evaluation, shared by its Python form
(:mod:`.evaluation`) and its compiled one (:mod:`.kernel`) without either importing the other.

A pattern is a line or block of squares (Buro's Logistello patterns, as Edax keeps them: the
edge with its two X-squares, the 3x3 corner block, rows and columns 2 to 4, and the diagonals of
4 to 8 squares); its instances are its images under the board's eight symmetries. An instance's
configuration is ``sum(cell[j] * 3**j)`` over its squares in order, a cell being 0 when empty,
1 for the mover's disc and 2 for the opponent's. A pattern's table is indexed by
configuration; the evaluation interpolates between tables fitted at :data:`ANCHORS` disc counts.
"""

from __future__ import annotations

import numpy as np

STEP = 10
"""Discs between two anchors: the tables are fitted at 4, 14, ..., 64 discs."""
ANCHORS = 7
SCALE = 1024
"""Table units per logit (the log-odds of winning)."""
SCALARS = ("bias", "mobility", "parity")
"""Terms beside the tables, each with one weight per anchor: 1; the mover's legal moves less
the opponent's; 1 when the number of empty squares is odd (the mover would play last), else
-1."""


def _square(name: str) -> int:
    return 8 * (int(name[1]) - 1) + ord(name[0]) - ord("a")


_SHAPES = (
    ("edge+2X", "a1 b1 c1 d1 e1 f1 g1 h1 b2 g2"),
    ("corner 3x3", "a1 b1 c1 a2 b2 c2 a3 b3 c3"),
    ("row 2", "a2 b2 c2 d2 e2 f2 g2 h2"),
    ("row 3", "a3 b3 c3 d3 e3 f3 g3 h3"),
    ("row 4", "a4 b4 c4 d4 e4 f4 g4 h4"),
    ("diagonal 8", "a1 b2 c3 d4 e5 f6 g7 h8"),
    ("diagonal 7", "b1 c2 d3 e4 f5 g6 h7"),
    ("diagonal 6", "c1 d2 e3 f4 g5 h6"),
    ("diagonal 5", "d1 e2 f3 g4 h5"),
    ("diagonal 4", "e1 f2 g3 h4"),
)
NAMES = tuple(name for name, _ in _SHAPES)


def _images() -> list[list[int]]:
    """Each symmetry as a map square -> its image."""
    grid = np.arange(64).reshape(8, 8)
    views = [grid, grid[:, ::-1], grid[::-1, :], grid[::-1, ::-1]]
    views += [view.T for view in views]
    images = []
    for view in views:
        image = [0] * 64
        for target, source in enumerate(view.ravel()):
            image[int(source)] = target
        images.append(image)
    return images


def _instances_and_groups() -> tuple[list[list[tuple[int, ...]]], list[list[tuple[int, ...]]]]:
    """Per pattern, its instances (distinct square sets, in the order the symmetry lays them)
    and its own symmetries as permutations of positions (the identity included)."""
    instances, groups = [], []
    for _, text in _SHAPES:
        squares = tuple(_square(name) for name in text.split())
        found: list[tuple[int, ...]] = []
        group: list[tuple[int, ...]] = []
        for image in _images():
            laid = tuple(image[square] for square in squares)
            if set(laid) == set(squares):
                perm = tuple(squares.index(square) for square in laid)
                if perm not in group:
                    group.append(perm)
            if not any(set(laid) == set(seen) for seen in found):
                found.append(laid)
        instances.append(found)
        groups.append(group)
    return instances, groups


INSTANCES_BY_PATTERN, SYMMETRIES = _instances_and_groups()
SIZES = tuple(3 ** len(found[0]) for found in INSTANCES_BY_PATTERN)
"""Configurations of each pattern."""
RAW_OFFSETS = tuple(int(x) for x in np.concatenate([[0], np.cumsum(SIZES)[:-1]]))
"""Where each pattern's table starts in an anchor's row of tables."""
ROW = int(sum(SIZES)) + len(SCALARS)
"""Words of an anchor's row: every pattern's table, then the scalars' weights."""
INSTANCES = sum(len(found) for found in INSTANCES_BY_PATTERN)
LONGEST = max(len(found[0]) for found in INSTANCES_BY_PATTERN)
INSTANCE_SQUARES = np.full((INSTANCES, LONGEST), -1, np.int64)
"""Each instance's squares (``-1`` pads), pattern by pattern."""
INSTANCE_OFFSETS = np.zeros(INSTANCES, np.int64)
"""Where each instance's pattern table starts in an anchor's row."""
INSTANCE_PATTERNS = np.zeros(INSTANCES, np.int64)


def _fill() -> None:
    i = 0
    for pattern, found in enumerate(INSTANCES_BY_PATTERN):
        for squares in found:
            INSTANCE_SQUARES[i, : len(squares)] = squares
            INSTANCE_OFFSETS[i] = RAW_OFFSETS[pattern]
            INSTANCE_PATTERNS[i] = pattern
            i += 1


_fill()
POWERS = np.array([3**j for j in range(LONGEST)], np.int64)
