"""Go's room: the rules (:mod:`.rules`), the compiled board and playouts (:mod:`.kernel`), Go's
compiled MCTS with RAVE (:mod:`.mcts_native`, at the compiled searches' layer) and its
knowledge (:mod:`.knowledge`: playout rules and priors, the ``mcts`` options Go alone offers),
and the ``gtp`` agent that seats a GTP program such as GNU Go (:mod:`.gtp_agent`)."""

from __future__ import annotations

import importlib
from typing import Any

__all__ = ["Go", "GoState"]


def __getattr__(name: str) -> Any:
    """The room's game and state types from :mod:`.rules`, imported on first use (importing
    the room's kernel alone, as the compiled searches do, loads no rules)."""
    if name in __all__:
        return getattr(importlib.import_module("plies.games.go.rules"), name)
    raise AttributeError(f"module 'plies.games.go' has no attribute {name!r}")
