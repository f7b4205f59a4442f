"""Tic-tac-toe's room: the m,n,k-game (:mod:`.rules`), its compiled rules (:mod:`.kernel`) and
the three-player variant (:mod:`.three`)."""

from __future__ import annotations

import importlib
from typing import Any

__all__ = ["TicTacToe"]


def __getattr__(name: str) -> Any:
    """The room's game and state types from :mod:`.rules`, imported on first use (importing
    the room's kernel alone, as the compiled searches do, loads no rules)."""
    if name in __all__:
        return getattr(importlib.import_module("plies.games.tictactoe.rules"), name)
    raise AttributeError(f"module 'plies.games.tictactoe' has no attribute {name!r}")
