"""The tile game's room: the rules (:mod:`.rules`) and the board view (:mod:`.view`)."""

from __future__ import annotations

import importlib
from typing import Any

__all__ = ["TileGame", "TileState"]


def __getattr__(name: str) -> Any:
    """The room's game and state types from :mod:`.rules`, imported on first use (importing
    the room's kernel alone, as the compiled searches do, loads no rules)."""
    if name in __all__:
        return getattr(importlib.import_module("plies.games.tiles.rules"), name)
    raise AttributeError(f"module 'plies.games.tiles' has no attribute {name!r}")
