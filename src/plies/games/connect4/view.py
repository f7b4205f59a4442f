"""Connect Four's board for the web pages: cells named ``column-row`` (``4-1``: column 4, bottom
row); the click targets are the columns, ``col1`` to ``colN``."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from plies.games.grid import Json, Look, grid_view

if TYPE_CHECKING:
    from plies.games.connect4.rules import ConnectFour, ConnectFourState


LOOK = Look("rack", "disc", {"X": "red", "O": "yellow"}, "bottom", cell=64, span=460)
"""The upright rack, red X and yellow O dropped down its columns."""


class ConnectFourView:
    """The upright grid, red X and yellow O, the last stone highlighted."""

    def __init__(self, game: ConnectFour) -> None:
        self.game = game

    def drawing(self, state: ConnectFourState, last: int | None, flipped: bool) -> Json:
        game = self.game
        mover = game.to_move(state)
        stride = game.height + 1
        stones = {0: None, 1: game.opponent(mover), 3: mover}  # mask bit + 2 * current bit
        cells = [
            [
                {
                    "id": f"{c + 1}-{r + 1}",
                    "piece": stones[
                        (state.mask >> (c * stride + r) & 1)
                        + 2 * (state.current >> (c * stride + r) & 1)
                    ],
                }
                for c in range(game.width)
            ]
            for r in reversed(range(game.height))
        ]
        labels = [str(c + 1) for c in range(game.width)]
        view = grid_view(LOOK, cells, labels, [], cell_targets=False)
        view["column_targets"] = [f"col{label}" for label in labels]
        if last is not None:
            height = (state.mask >> (last * stride) & ((1 << game.height) - 1)).bit_length()
            view["last"] = [f"{last + 1}-{height}"]
        view["facts"] = [["X", "red"], ["O", "yellow"], ["stones", str(state.moves)]]
        return view

    def path(self, state: ConnectFourState, action: Any, notation: str) -> list[str]:
        return [f"col{notation}"]

    def status(self, state: ConnectFourState) -> None:
        return None
