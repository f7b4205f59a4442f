"""Nim's room: the rules (:mod:`.rules`) and the board view (:mod:`.view`)."""

from plies.games.nim.rules import Nim, NimState

__all__ = ["Nim", "NimState"]
