"""The tile game's board for the web pages: one row of squares named ``1`` to ``length``;
staying is the button ``stay``."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from plies.games.grid import Json, Look, grid_view

if TYPE_CHECKING:
    from plies.games.tiles.rules import TileGame, TileState


LOOK = Look("blocks", "token", {"A": "blue", "B": "red"}, "bottom", cell=64, span=640)
"""A row of squares, A and B as lettered tokens, the squares numbered below."""


class TileView:
    """The strip with A and B, and the stays in a row as a fact."""

    def __init__(self, game: TileGame, *, stay: str) -> None:
        self.game, self.stay = game, stay  # the move that stays (the rules' STAY)

    def drawing(self, state: TileState, last: int | None, flipped: bool) -> Json:
        squares = range(1, self.game.length + 1)
        cells = [
            [
                {"id": str(i), "piece": "A" if i == state.a else "B" if i == state.b else None}
                for i in squares
            ]
        ]
        view = grid_view(LOOK, cells, [str(i) for i in squares], [])
        if not self.game.is_terminal(state):
            view["buttons"] = [{"id": self.stay, "label": "stay"}]
        if state.stays:
            view["facts"] = [["stays in a row", str(state.stays)]]
        if last is not None:
            view["last"] = [str(last)]
        return view

    def path(self, state: TileState, action: Any, notation: str) -> list[str]:
        return [notation]

    def status(self, state: TileState) -> None:
        return None
