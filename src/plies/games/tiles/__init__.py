"""The tile game's room: the rules (:mod:`.rules`) and the board view (:mod:`.view`)."""

from __future__ import annotations

from plies.lazy import lazy_exports

__all__ = ["TileGame", "TileState"]

# the game and state types, imported on first use (importing the room's kernel alone, as the
# compiled searches do, loads no rules)
__getattr__ = lazy_exports(__name__, dict.fromkeys(__all__, ".rules"))
