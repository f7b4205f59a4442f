"""The tile game's room: the rules (:mod:`.rules`) and the board view (:mod:`.view`)."""

from plies.games.tiles.rules import TileGame, TileState

__all__ = ["TileGame", "TileState"]
