"""The game registry: names such as ``tictactoe`` map to game factories.

>>> game = make_game("tictactoe:m=4,n=4,k=3")
>>> game.m, game.n, game.k
(4, 4, 3)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from plies.errors import UnknownNameError
from plies.game import Game
from plies.games.backgammon import Backgammon
from plies.games.checkers import Checkers
from plies.games.chess import Chess
from plies.games.connect4 import ConnectFour
from plies.games.go import Go
from plies.games.nim import Nim
from plies.games.othello import Othello
from plies.games.tictactoe import TicTacToe
from plies.games.tictactoe3 import TicTacToe3
from plies.games.tiles import TileGame
from plies.spec import Options, parse_spec


@dataclass(frozen=True)
class GameEntry:
    """A registered game: how to build it from spec options, and a one-line summary."""

    factory: Callable[[Options], Game[Any, Any]]
    summary: str
    options: str


GAMES: dict[str, GameEntry] = {
    "tictactoe": GameEntry(
        TicTacToe.from_options,
        "m x n tic-tac-toe with k in a row (3x3x3 by default)",
        "m=3,n=3,k=3,scoring=plusminus|payoff",
    ),
    "tictactoe3": GameEntry(
        TicTacToe3.from_options,
        "three-player m x n tic-tac-toe (X, O, Y) with k in a row (4x4x3 by default)",
        "m=4,n=4,k=3",
    ),
    "tiles": GameEntry(
        TileGame.from_options,
        "the lecture's tile-sliding race: A moves right, B left, jumping each other",
        "length=4,scoring=plusminus|payoff",
    ),
    "nim": GameEntry(
        Nim.from_options,
        "Nim: take any number from one heap; normal or misere play",
        "heaps=3-4-5,misere=false",
    ),
    "connect4": GameEntry(
        ConnectFour.from_options,
        "Connect Four: drop stones into columns, 4 in a row wins (7x6 by default)",
        "width=7,height=6,k=4,scoring=plusminus|payoff",
    ),
    "othello": GameEntry(
        Othello.from_options,
        "Othello (Reversi), 8x8 from the standard start; a forced pass is a move",
        "scoring=plusminus|payoff",
    ),
    "checkers": GameEntry(
        Checkers.from_options,
        "English draughts: 8x8, compulsory captures, no flying kings, draw after 80 quiet plies",
        "scoring=plusminus|payoff",
    ),
    "chess": GameEntry(
        Chess.from_options,
        "chess (python-chess rules); draws by the 50-move rule and threefold repetition",
        "scoring=plusminus|payoff",
    ),
    "go": GameEntry(
        Go.from_options,
        "Go: area scoring (Tromp-Taylor), positional superko, two passes end (9x9 by default)",
        "size=9,komi=7.5,scoring=plusminus|payoff",
    ),
    "backgammon": GameEntry(
        Backgammon.from_options,
        "backgammon without the doubling cube: dice as chance nodes, gammons 2, backgammons 3",
        "none",
    ),
}


def make_game(spec: str) -> Game[Any, Any]:
    """Build a game from ``name[:key=value,...]``; unknown names and options raise errors."""
    parsed = parse_spec(spec)
    entry = GAMES.get(parsed.name)
    if entry is None:
        raise UnknownNameError(f"unknown game {parsed.name!r} (games: {', '.join(GAMES)})")
    game = entry.factory(parsed.options)
    parsed.options.finish()
    return game


__all__ = [
    "GAMES",
    "Checkers",
    "Chess",
    "ConnectFour",
    "GameEntry",
    "Nim",
    "Othello",
    "TicTacToe",
    "TicTacToe3",
    "TileGame",
    "make_game",
]
