"""What several board games share: the symmetries of a rectangular grid of cells, and the
pieces of their board views for the web pages (:class:`~plies.capabilities.BoardView`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

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


Surface = Literal["paper", "felt", "checkered", "rack", "blocks", "lines"]
Piece = Literal["mark", "disc", "man", "stone", "token"]
Colour = Literal["black", "white", "red", "yellow", "blue", "green"]
SIDE_COLOURS: Mapping[str, Colour] = {"B": "black", "W": "white"}
"""The colours of Black's and White's pieces by their letters."""


@dataclass(frozen=True)
class Look:
    """How ``static/boards.js`` draws a grid, said in what it draws, not which game it is.

    ``surface``, the ground of the cells: ``paper`` (white squares ruled in grey), ``felt``
    (green squares, dots on the squares a move may take, a red dot on the last piece),
    ``checkered`` (light and dark squares; dots where a piece may go), ``rack`` (an upright
    frame with a hole a cell), ``blocks`` (rounded squares apart), ``lines`` (wood ruled through
    the cells' middles, the pieces on the crossings; the mover's piece shows faintly under the
    pointer). ``piece``: ``mark`` (X, O and Y drawn in strokes, other letters written),
    ``disc``, ``man`` (crowned on a cell with ``king``), ``stone`` (shaded, with its shadow),
    ``token`` (a disc with its letter). ``colours``: each piece's colour by its letter.
    ``labels``: the column labels ``top`` or ``bottom``, the row labels left of the grid; or
    ``around`` it on all four sides. ``cell``: the largest cell and ``span`` the widest grid, in
    pixels (cells shrink to fit, to 16 at least)."""

    surface: Surface
    piece: Piece
    colours: Mapping[str, Colour]
    labels: Literal["top", "bottom", "around"] = "top"
    cell: int = 56
    span: int = 450

    def json(self) -> Json:
        """The look as the view's ``look`` field."""
        return {
            "surface": self.surface,
            "piece": self.piece,
            "colours": dict(self.colours),
            "labels": self.labels,
            "cell": self.cell,
            "span": self.span,
        }


def grid_view(
    look: Look,
    cells: list[list[Json]],
    column_labels: Sequence[str],
    row_labels: Sequence[str],
    cell_targets: bool = True,
) -> Json:
    """A ``grid`` view: its ``look`` (:class:`Look`), ``rows`` and ``columns``, ``cells`` (rows
    from the top, each cell ``{"id", "piece"}`` plus ``king`` for a crowned piece, ``dark`` for
    a dark square, ``star`` for a star point, ``label`` for a number drawn in it and ``gap``
    for a cell left out: the space between two boards),
    ``column_labels`` and ``row_labels``, and ``cell_targets`` (whether the cells' ids are click
    targets; where a piece drops down a column the targets are the ``column_targets``)."""
    return {
        "kind": "grid",
        "look": look.json(),
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
