"""Chess's room: the rules over python-chess (:mod:`.rules`) and the ``uci`` agent that seats a
UCI engine such as Stockfish (:mod:`.uci_agent`)."""

from __future__ import annotations

import importlib
from typing import Any

__all__ = ["Chess", "ChessState"]


def __getattr__(name: str) -> Any:
    """The room's game and state types from :mod:`.rules`, imported on first use (importing
    the room's kernel alone, as the compiled searches do, loads no rules)."""
    if name in __all__:
        return getattr(importlib.import_module("plies.games.chess.rules"), name)
    raise AttributeError(f"module 'plies.games.chess' has no attribute {name!r}")
