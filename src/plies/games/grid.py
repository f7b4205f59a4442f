"""What several board games share: the symmetries of a rectangular grid of cells."""

from __future__ import annotations

import numpy as np


def grid_symmetries(rows: int, columns: int) -> list[tuple[int, ...]]:
    """The symmetries of a rows x columns grid as cell permutations (row-major): entry ``i`` is
    the cell whose content lands on cell ``i``. Identity, left-right mirror, top-bottom mirror,
    half turn; for a square grid also the main-diagonal mirror, the two quarter turns and the
    anti-diagonal mirror."""
    grid = np.arange(rows * columns).reshape(rows, columns)
    views = [grid, grid[:, ::-1], grid[::-1, :], grid[::-1, ::-1]]
    if rows == columns:
        views += [grid.T, grid.T[:, ::-1], grid.T[::-1, :], grid.T[::-1, ::-1]]
    return [tuple(int(cell) for cell in view.ravel()) for view in views]
