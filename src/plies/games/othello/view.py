"""Othello's board for the web pages: squares named as the moves (``d3``), a pass button when
the mover has no square."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from plies.games.grid import SIDE_COLOURS, Json, Look, grid_view, letters, sides_status

if TYPE_CHECKING:
    from plies.games.othello.rules import Othello, OthelloState


LOOK = Look("felt", "disc", SIDE_COLOURS)
"""Black and white discs on green."""


class OthelloView:
    """The 8x8 board with the discs' counts as facts."""

    def __init__(self, game: Othello, *, pass_move: int) -> None:
        self.game, self.pass_move = game, pass_move  # the rules' PASS

    def drawing(self, state: OthelloState, last: int | None, flipped: bool) -> Json:
        files = letters(8)
        cells = [
            [{"id": f"{files[c]}{r + 1}", "piece": _disc(state, 8 * r + c)} for c in range(8)]
            for r in range(8)
        ]
        view = grid_view(LOOK, cells, files, [str(r + 1) for r in range(8)])
        view["facts"] = [
            ["black", str(state.black.bit_count())],
            ["white", str(state.white.bit_count())],
        ]
        if self.game.actions(state) == [self.pass_move]:
            view["buttons"] = [{"id": "pass", "label": "pass"}]
        if last is not None and last != self.pass_move:
            view["last"] = [self.game.format_action(state, last)]
        return view

    def path(self, state: OthelloState, action: Any, notation: str) -> list[str]:
        return [notation]

    def status(self, state: OthelloState) -> str:
        must_pass = not self.game.is_terminal(state) and self.game.actions(state) == [
            self.pass_move
        ]
        return sides_status(
            self.game, state, "has no move and must pass" if must_pass else "to move"
        )


def _disc(state: OthelloState, square: int) -> str | None:
    return "B" if state.black >> square & 1 else "W" if state.white >> square & 1 else None
