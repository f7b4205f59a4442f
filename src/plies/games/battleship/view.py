"""Battleship's boards for the web pages: one grid, each player's waters side by side (P1's on
the left, unless flipped), a gap between them. A cell shows a ship (``■``) where the state
shows the fleet, a hit (``X``) or a miss (``O``); the pages draw a player's seen state, whose
other fleet shows only where it was hit. The cells of the waters the mover shoots at are named
as the shots (``c3``), the others by their owner too (``P1:c3``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from plies.games.grid import Json, Look, grid_view, letters

if TYPE_CHECKING:
    from plies.games.battleship.rules import Battleship, BattleshipState


LOOK = Look("paper", "mark", {"X": "red", "O": "blue", "\u25a0": "black"}, cell=48, span=620)
"""Marks on paper: hits red, misses blue, ships written (a square, in the written marks'
grey)."""
PIECES = {"X": "X", "o": "O", "#": "\u25a0", ".": None}
"""The rules' characters of a cell (``Battleship.waters``) as pieces."""


class BattleshipView:
    """Both players' waters in one grid, a column apart; the last shot highlighted."""

    def __init__(self, game: Battleship) -> None:
        self.game = game

    def drawing(self, state: BattleshipState, last: Any, flipped: bool) -> Json:
        game, size = self.game, self.game.size
        owners = game.players[::-1] if flipped else game.players
        mover = game.to_move(state)
        boards = [(owner, game.waters(state, owner)) for owner in owners]
        cells = []
        for row in range(size):
            left, right = (
                [self._cell(owner, board, row * size + column, mover) for column in range(size)]
                for owner, board in boards
            )
            cells.append([*left, {"id": None, "piece": None, "gap": True}, *right])
        labels = letters(size)
        view = grid_view(LOOK, cells, [*labels, "", *labels], [str(r + 1) for r in range(size)])
        view["facts"] = [["left:", f"{owners[0]}'s waters"], ["right:", f"{owners[1]}'s waters"]]
        view["last"] = self._last(state, last)
        return view

    def path(self, state: BattleshipState, action: Any, notation: str) -> list[str]:
        return [notation]

    def status(self, state: BattleshipState) -> None:
        return None

    def _cell(self, owner: str, board: str, cell: int, mover: str) -> Json:
        """A cell of ``owner``'s waters: named as the shot there when the mover shoots at
        them."""
        name = self.game.cell_name(cell)
        shot_at = mover in self.game.players and mover != owner
        return {"id": name if shot_at else f"{owner}:{name}", "piece": PIECES[board[cell]]}

    def _last(self, state: BattleshipState, last: Any) -> list[str]:
        """The id of the cell the last shot hit or missed (none after chance's fleets): in the
        waters of the player to move next (of the loser, at the end)."""
        if not isinstance(last, int):
            return []
        return [f"{self.game.to_move(state)}:{self.game.cell_name(last)}"]
