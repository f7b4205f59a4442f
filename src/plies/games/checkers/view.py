"""Checkers' board for the web pages: dark squares named by their number (1 to 32, Black's back
row 1-4 at the top unless flipped) and labelled with it; light squares have no id."""

from __future__ import annotations

import collections
from typing import TYPE_CHECKING

from plies.games.grid import SIDE_COLOURS, SIDE_NAMES, Json, Look, grid_view, letters, sides_status

if TYPE_CHECKING:
    from plies.games.checkers.rules import Checkers, CheckersState


LOOK = Look("checkered", "man", SIDE_COLOURS)
"""The dark squares numbered, black and white men and kings."""


class CheckersView:
    """The board with men and kings, their counts and the quiet plies towards a draw."""

    def __init__(self, game: Checkers, *, draw_plies: int) -> None:
        self.game, self.draw_plies = game, draw_plies  # the rules' DRAW_PLIES

    def drawing(self, state: CheckersState, last: tuple[int, ...] | None, flipped: bool) -> Json:
        pieces: dict[int, tuple[str | None, bool]] = {}
        for bits, side, crowned in (
            (state.black_men, "B", False),
            (state.black_kings, "B", True),
            (state.white_men, "W", False),
            (state.white_kings, "W", True),
        ):
            pieces.update(dict.fromkeys(_squares(bits), (side, crowned)))
        order = range(7, -1, -1) if flipped else range(8)
        cells = [[_cell(row, col, pieces) for col in order] for row in order]
        files = letters(8)
        view = grid_view(LOOK, cells, [files[c] for c in order], [str(8 - r) for r in order])
        counts = collections.Counter(pieces.values())
        view["facts"] = [
            [
                SIDE_NAMES[side],
                f"{_count(counts[side, False], 'man', 'men')}, "
                f"{_count(counts[side, True], 'king', 'kings')}",
            ]
            for side in "BW"
        ]
        if state.quiet:
            view["facts"].append(["quiet plies", f"{state.quiet} of {self.draw_plies}"])
        view["last"] = [] if last is None else [str(square) for square in last]
        return view

    def path(self, state: CheckersState, action: tuple[int, ...], notation: str) -> list[str]:
        return [str(square) for square in action]

    def status(self, state: CheckersState) -> str:
        return sides_status(self.game, state)


def _cell(row: int, col: int, pieces: dict[int, tuple[str | None, bool]]) -> Json:
    dark = (row + col) % 2 == 1
    cell: Json = {"id": None, "piece": None, "dark": dark}
    if dark:
        square = 4 * row + col // 2 + 1
        piece, king = pieces.get(square, (None, False))
        cell.update(id=str(square), piece=piece, king=king, label=str(square))
    return cell


def _count(number: int, one: str, many: str) -> str:
    return f"{number} {one if number == 1 else many}"


def _squares(bits: int) -> list[int]:
    """The squares (1-based) of a checkers bitboard."""
    return [index + 1 for index in range(32) if bits >> index & 1]
