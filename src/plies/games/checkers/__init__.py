"""Checkers' room (English draughts): the rules (:mod:`.rules`) and their compiled form
(:mod:`.kernel`)."""

from __future__ import annotations

import importlib
from typing import Any

__all__ = ["Checkers", "CheckersState"]


def __getattr__(name: str) -> Any:
    """The room's game and state types from :mod:`.rules`, imported on first use (importing
    the room's kernel alone, as the compiled searches do, loads no rules)."""
    if name in __all__:
        return getattr(importlib.import_module("plies.games.checkers.rules"), name)
    raise AttributeError(f"module 'plies.games.checkers' has no attribute {name!r}")
