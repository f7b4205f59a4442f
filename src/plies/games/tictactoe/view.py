"""Tic-tac-toe's board for the web pages (both variants): cells named as the moves (``b2``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from plies.games.grid import Json, Look, grid_view, letters

if TYPE_CHECKING:
    from plies.games.tictactoe.rules import Board, TicTacToe
    from plies.games.tictactoe.three import TicTacToe3


LOOK = Look("paper", "mark", {"X": "blue", "O": "red", "Y": "green"}, cell=96, span=420)
"""Marks on paper: X blue, O red, Y green (the three-player game's)."""


class TicTacToeView:
    """The m x n grid of marks; the last mark highlighted; k in a row as a fact."""

    def __init__(self, game: TicTacToe | TicTacToe3, *, grid: TicTacToe, empty: str) -> None:
        """``grid``: the two-player game that names the cells (``game`` itself, or the
        three-player game's); ``empty``: the mark of an empty cell (the rules' ``EMPTY``)."""
        self.game, self.grid, self.empty = game, grid, empty

    def drawing(self, state: Board, last: int | None, flipped: bool) -> Json:
        game, grid = self.game, self.grid
        cells = [
            [
                {
                    "id": grid.format_action(state, r * game.n + c),
                    "piece": self._mark(state, r * game.n + c),
                }
                for c in range(game.n)
            ]
            for r in range(game.m)
        ]
        view = grid_view(LOOK, cells, letters(game.n), [str(r + 1) for r in range(game.m)])
        view["last"] = [] if last is None else [grid.format_action(state, last)]
        view["facts"] = [["k in a row", str(game.k)]]
        return view

    def path(self, state: Board, action: Any, notation: str) -> list[str]:
        return [notation]

    def status(self, state: Board) -> None:
        return None

    def _mark(self, state: Board, cell: int) -> str | None:
        mark = state.cells[cell]
        return None if mark == self.empty else mark
