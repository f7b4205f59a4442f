"""Connect Four's room: the rules (:mod:`.rules`), their compiled form (:mod:`.kernel`), Pascal
Pons's solver (:mod:`.solver`, :mod:`.solver_kernel`) and its opening book (:mod:`.book`, the
shipped ``book.sqlite``)."""

from __future__ import annotations

import importlib
from typing import Any

__all__ = ["ConnectFour", "ConnectFourState"]


def __getattr__(name: str) -> Any:
    """The room's game and state types from :mod:`.rules`, imported on first use (importing
    the room's kernel alone, as the compiled searches do, loads no rules)."""
    if name in __all__:
        return getattr(importlib.import_module("plies.games.connect4.rules"), name)
    raise AttributeError(f"module 'plies.games.connect4' has no attribute {name!r}")
