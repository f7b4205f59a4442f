"""The games plies ships, registered by name in :mod:`plies.registry`; each game's code
lives in its own room (a module, or a package such as :mod:`plies.games.connect4`) and is
imported only when the game is asked for.

>>> game = make_game("tictactoe:m=4,n=4,k=3")
>>> game.m, game.n, game.k
(4, 4, 3)
"""

from __future__ import annotations

from plies.lazy import lazy_exports
from plies.registry import (
    BUILT_IN,
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

# the game classes, imported on first use (``from plies.games import ConnectFour``), from the
# registry's one table of the built-in games
__getattr__ = lazy_exports(
    __name__,
    {cls: module for module, _, cls in (path.partition(":") for path in BUILT_IN.values())},
)

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
