"""Checkers' room (English draughts): the rules (:mod:`.rules`) and their compiled form
(:mod:`.kernel`)."""

from __future__ import annotations

from plies.lazy import lazy_exports

__all__ = ["Checkers", "CheckersState"]

# the game and state types, imported on first use (importing the room's kernel alone, as the
# compiled searches do, loads no rules)
__getattr__ = lazy_exports(__name__, dict.fromkeys(__all__, ".rules"))
