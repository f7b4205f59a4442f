"""The games plies ships, registered by name in :mod:`plies.registry`; each game's code
lives in its own room (a module, or a package such as :mod:`plies.games.connect4`) and is
imported only when the game is asked for.

>>> game = make_game("tictactoe:m=4,n=4,k=3")
>>> game.m, game.n, game.k
(4, 4, 3)
"""

from __future__ import annotations

import importlib
from typing import Any

from plies.registry import (
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
