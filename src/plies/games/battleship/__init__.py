"""Battleship's room: the rules (:mod:`.rules`) and the board view (:mod:`.view`)."""

from __future__ import annotations

from plies.lazy import lazy_exports

__all__ = ["Battleship", "BattleshipState"]

__getattr__ = lazy_exports(__name__, dict.fromkeys(__all__, ".rules"))
