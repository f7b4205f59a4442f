"""What several board games share: the symmetries of a rectangular grid of cells, and the
pieces of their board views for the web pages (:class:`~plies.capabilities.BoardView`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from plies.game import WinLossDrawGame

Json = dict[str, Any]

SIDE_NAMES = {"B": "Black", "W": "White"}
"""The players of Othello, checkers and Go by their letters."""


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


def grid_view(
    style: str,
    cells: list[list[Json]],
    column_labels: Sequence[str],
    row_labels: Sequence[str],
    cell_targets: bool = True,
) -> Json:
    """A ``grid`` view: ``style`` (the look: ``tictactoe``, ``connect4``, ``othello``,
    ``checkers``, ``tiles``, ``go``), ``rows`` and ``columns``, ``cells`` (rows from the top,
    each cell ``{"id", "piece"}`` plus ``king`` and ``dark`` for checkers, ``star`` for Go and
    ``label`` for a number drawn in it), ``column_labels`` and ``row_labels``, and
    ``cell_targets`` (whether the cells' ids are click targets; Connect Four's targets are its
    ``column_targets``)."""
    return {
        "kind": "grid",
        "style": style,
        "rows": len(cells),
        "columns": len(cells[0]) if cells else 0,
        "cells": cells,
        "column_labels": list(column_labels),
        "row_labels": list(row_labels),
        "cell_targets": cell_targets,
    }


def letters(count: int) -> list[str]:
    """``a``, ``b``, ... for ``count`` columns."""
    return [chr(ord("a") + index) for index in range(count)]


def sides_status(
    game: WinLossDrawGame[Any, Any], state: Any, note: str = "to move", result: str = ""
) -> str:
    """The status line of a game between Black (``B``) and White (``W``): ``Black to move``
    (or the mover and ``note``), ``game over: White wins`` (with ``result`` after it)."""
    if game.is_terminal(state):
        winner = game.winner(state)
        outcome = "draw" if winner is None else f"{SIDE_NAMES[winner]} wins"
        return f"game over: {outcome}{result}"
    return f"{SIDE_NAMES[game.to_move(state)]} {note}"
