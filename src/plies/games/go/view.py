"""Go's board for the web pages: the points (stones on the lines through their middles), named
as the game writes them (``D4``), star points on 9x9, 13x13 and 19x19, a pass button; illegal
clicks are sent so that the game says why (a taken point, suicide, superko)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from plies.games.grid import SIDE_COLOURS, SIDE_NAMES, Json, Look, grid_view, sides_status

if TYPE_CHECKING:
    from collections.abc import Mapping

    from plies.games.go.rules import Go, GoState


LOOK = Look("lines", "stone", SIDE_COLOURS, "around", cell=50, span=520)
"""Black and white stones on the lines' crossings, coordinates all round."""


class GoView:
    """The board, the area count at the end, komi and moves before it."""

    def __init__(
        self, game: Go, *, colours: Mapping[str, int], columns: str, pass_move: int
    ) -> None:
        """The rules' ``COLOURS`` (each player's stone on the board), ``COLUMNS`` (the
        columns' letters) and ``PASS``."""
        self.game, self.columns, self.pass_move = game, columns, pass_move
        self.stones = {colour: player for player, colour in colours.items()}
        """The players by the bytes of their stones on the board."""

    def drawing(self, state: GoState, last: int | None, flipped: bool) -> Json:
        game, size = self.game, self.game.size
        stars = star_points(size)
        cells = [
            [
                {
                    "id": game.format_action(state, row * size + column),
                    "piece": self.stones.get(state.board[row * size + column]),
                    "star": (row, column) in stars,
                }
                for column in range(size)
            ]
            for row in reversed(range(size))
        ]
        rows = [str(row + 1) for row in reversed(range(size))]
        view = grid_view(LOOK, cells, self.columns[:size], rows)
        view["explain_illegal"] = True
        if game.is_terminal(state):
            black, white = game.area(state.board)
            view["facts"] = [
                ["Black", f"{black} points"],
                ["White", f"{white} + komi {game.komi:g}"],
            ]
        else:
            view["facts"] = [["komi", f"{game.komi:g}"], ["moves", str(len(state.moves))]]
            view["buttons"] = [{"id": game.format_action(state, self.pass_move), "label": "pass"}]
        if last is not None and last != self.pass_move:
            view["last"] = [game.format_action(state, last)]
        return view

    def path(self, state: GoState, action: Any, notation: str) -> list[str]:
        return [notation]

    def status(self, state: GoState) -> str:
        game = self.game
        if game.is_terminal(state):
            return sides_status(game, state, result=f" ({game.result_text(state)})")
        if state.passes:
            passer = SIDE_NAMES[game.opponent(game.to_move(state))]
            return sides_status(game, state, f"to move ({passer} passed)")
        return sides_status(game, state)


def star_points(size: int) -> set[tuple[int, int]]:
    """The (row, column) of the star points (hoshi): the corners' and the centre's on 9x9 and
    13x13, nine on 19x19; none on other sizes."""
    if size not in (9, 13, 19):
        return set()
    edge = 2 if size == 9 else 3
    lines = (edge, size // 2, size - 1 - edge)
    return {
        (row, column)
        for row in lines
        for column in lines
        if size == 19 or (row == column == size // 2) or size // 2 not in (row, column)
    }
