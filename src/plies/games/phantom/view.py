"""Phantom tic-tac-toe's board for the web pages: the marks a state holds, cells named as the
moves (``b2``). The pages draw a player's seen state, which holds only what that player sees;
there the highlight is the player's own last try, never the opponent's unseen move."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from plies.games.grid import Json, Look, grid_view, letters

if TYPE_CHECKING:
    from plies.games.phantom.rules import PhantomState, PhantomTicTacToe


LOOK = Look("paper", "mark", {"X": "blue", "O": "red"}, cell=96, span=420)
"""Marks on paper: X blue, O red."""


class PhantomView:
    """The 3x3 grid of the marks a state holds; under a seen state, how many of the opponent's
    marks are still unseen."""

    def __init__(self, game: PhantomTicTacToe, *, empty: str) -> None:
        """``empty``: the mark of an empty cell (the rules' ``EMPTY``)."""
        self.game, self.empty = game, empty

    def drawing(self, state: PhantomState, last: int | None, flipped: bool) -> Json:
        game = self.game
        side = 3
        cells = [
            [
                {
                    "id": game.format_action(state, r * side + c),
                    "piece": self._mark(state, r * side + c),
                }
                for c in range(side)
            ]
            for r in range(side)
        ]
        view = grid_view(LOOK, cells, letters(side), [str(r + 1) for r in range(side)])
        viewer = state.seen_by
        if viewer is not None:
            own = state.tries[game.players.index(viewer)]
            last = own[-1] if own else None
            other = game.opponent(viewer)
            view["facts"] = [[f"{other}'s marks unseen", str(game.hidden_marks(state, viewer))]]
        view["last"] = [] if last is None else [game.format_action(state, last)]
        return view

    def path(self, state: PhantomState, action: Any, notation: str) -> list[str]:
        return [notation]

    def status(self, state: PhantomState) -> None:
        return None

    def _mark(self, state: PhantomState, cell: int) -> str | None:
        mark = state.cells[cell]
        return None if mark == self.empty else mark
