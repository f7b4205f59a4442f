"""The games plies ships, registered by name (:mod:`plies.games.registry`); each game's code
lives in its own room (a module, or a package such as :mod:`plies.games.connect4`) and is
imported only when the game is asked for.

>>> game = make_game("tictactoe:m=4,n=4,k=3")
>>> game.m, game.n, game.k
(4, 4, 3)
"""

from __future__ import annotations

import importlib
from typing import Any

from plies.games.registry import (
    GAMES,
    SCORING,
    GameEntry,
    GameOption,
    game_entry,
    game_identity,
    game_spec,
    make_game,
    register_game,
    registered_games,
)
from plies.spec import NumberRange


def _whole(key: str, default: int, help: str, minimum: int = 1, maximum: int = 10**9) -> GameOption:
    """A whole-number option; the game's constructor checks the sizes it can play."""
    return GameOption(key, "int", help, default, NumberRange(minimum, maximum, integer=True))


register_game(
    "tictactoe",
    "m x n tic-tac-toe with k in a row (3x3x3 by default)",
    (
        _whole("m", 3, "rows"),
        _whole("n", 3, "columns"),
        _whole("k", 3, "marks in a row that win"),
        SCORING,
    ),
    "plies.games.tictactoe.rules:TicTacToe",
)
register_game(
    "tictactoe3",
    "three-player m x n tic-tac-toe (X, O, Y) with k in a row (4x4x3 by default)",
    (
        _whole("m", 4, "rows"),
        _whole("n", 4, "columns"),
        _whole("k", 3, "marks in a row that win"),
    ),
    "plies.games.tictactoe.three:TicTacToe3",
)
register_game(
    "tiles",
    "the lecture's tile-sliding race: A moves right, B left, jumping each other",
    (_whole("length", 4, "cells of the strip", minimum=3), SCORING),
    "plies.games.tiles.rules:TileGame",
)
register_game(
    "nim",
    "Nim: take any number from one heap; normal or misere play",
    (
        GameOption(
            "heaps",
            "text",
            "heap sizes separated by dashes",
            "3-4-5",
            show=lambda heaps: "-".join(str(size) for size in heaps),
        ),
        GameOption("misere", "flag", "whoever takes the last object loses", False),
    ),
    "plies.games.nim.rules:Nim",
)
register_game(
    "connect4",
    "Connect Four: drop stones into columns, 4 in a row wins (7x6 by default)",
    (
        _whole("width", 7, "columns"),
        _whole("height", 6, "rows"),
        _whole("k", 4, "stones in a row that win"),
        SCORING,
    ),
    "plies.games.connect4.rules:ConnectFour",
)
register_game(
    "othello",
    "Othello (Reversi), 8x8 from the standard start; a forced pass is a move",
    (SCORING,),
    "plies.games.othello.rules:Othello",
)
register_game(
    "checkers",
    "English draughts: 8x8, compulsory captures, no flying kings, draw after 80 quiet plies",
    (SCORING,),
    "plies.games.checkers.rules:Checkers",
)
register_game(
    "chess",
    "chess (python-chess rules); draws by the 50-move rule and threefold repetition",
    (SCORING,),
    "plies.games.chess.rules:Chess",
)
register_game(
    "go",
    "Go: area scoring (Tromp-Taylor), positional superko, two passes end (9x9 by default)",
    (
        _whole("size", 9, "lines of the board", minimum=5, maximum=19),
        GameOption(
            "komi", "number", "points added to white's score", 7.5, NumberRange(-(10**6), 10**6)
        ),
        SCORING,
    ),
    "plies.games.go.rules:Go",
)
register_game(
    "backgammon",
    "backgammon without the doubling cube: dice as chance nodes, gammons 2, backgammons 3",
    (),
    "plies.games.backgammon.rules:Backgammon",
)

_CLASSES = {
    "TicTacToe": "plies.games.tictactoe.rules",
    "TicTacToe3": "plies.games.tictactoe.three",
    "TileGame": "plies.games.tiles.rules",
    "Nim": "plies.games.nim.rules",
    "ConnectFour": "plies.games.connect4.rules",
    "Othello": "plies.games.othello.rules",
    "Checkers": "plies.games.checkers.rules",
    "Chess": "plies.games.chess.rules",
    "Go": "plies.games.go.rules",
    "Backgammon": "plies.games.backgammon.rules",
}


def __getattr__(name: str) -> Any:
    """The game classes, imported on first use (``from plies.games import ConnectFour``)."""
    if name in _CLASSES:
        return getattr(importlib.import_module(_CLASSES[name]), name)
    raise AttributeError(f"module 'plies.games' has no attribute {name!r}")


__all__ = [
    "GAMES",
    "SCORING",
    "GameEntry",
    "GameOption",
    "game_entry",
    "game_identity",
    "game_spec",
    "make_game",
    "register_game",
    "registered_games",
]
