"""Chess's board for the web pages: python-chess's SVG picture; the click targets are the
squares, ``a1`` to ``h8`` (from, then to)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import chess
import chess.svg

from plies.games.grid import Json

if TYPE_CHECKING:
    from plies.games.chess.rules import Chess, ChessState

MARGIN = 15
"""The coordinate margin of python-chess's SVG board (``coordinates=True``), in its units."""
SQUARE = 45
"""A square of python-chess's SVG board (``chess.svg.SQUARE_SIZE``)."""


class ChessView:
    """A ``picture`` view: ``svg``, python-chess's picture of the board (``margin`` and
    ``square`` are its geometry, in the units of its ``size``), ``squares`` (the squares' names
    row by row as drawn, from the top left: the click targets), and ``pieces``
    (``{"square", "piece"}``, the piece as its FEN letter)."""

    def __init__(self, game: Chess) -> None:
        self.game = game

    def drawing(self, state: ChessState, last: chess.Move | None, flipped: bool) -> Json:
        board = state.board
        king = board.king(board.turn)
        check = king if board.is_check() else None
        picture = chess.svg.board(
            board,
            orientation=chess.BLACK if flipped else chess.WHITE,
            lastmove=last,
            check=check,
            coordinates=True,
        )
        pieces = [
            {"square": chess.square_name(square), "piece": piece.symbol()}
            for square, piece in sorted(board.piece_map().items())
        ]
        facts = [["move", str(board.fullmove_number)]]
        if check is not None:
            facts.append(["check", chess.square_name(check)])
        files = range(7, -1, -1) if flipped else range(8)
        ranks = range(8) if flipped else range(7, -1, -1)
        return {
            "kind": "picture",
            "svg": picture,
            "margin": MARGIN,
            "square": SQUARE,
            "size": 2 * MARGIN + 8 * SQUARE,
            "squares": [[chess.square_name(chess.square(f, r)) for f in files] for r in ranks],
            "pieces": pieces,
            "facts": facts,
            "last": [] if last is None else _squares(last),
        }

    def path(self, state: ChessState, action: chess.Move, notation: str) -> list[str]:
        return _squares(action)

    def status(self, state: ChessState) -> str | None:
        if not self.game.is_terminal(state):
            return None
        winner = self.game.winner(state)
        outcome = "draw" if winner is None else f"{winner} wins"
        return f"game over: {outcome} ({self.game.termination(state)})"


def _squares(move: Any) -> list[str]:
    return [chess.square_name(move.from_square), chess.square_name(move.to_square)]
