"""Backgammon's room: the rules (:mod:`.rules`) and the board view (:mod:`.view`)."""

from plies.games.backgammon.rules import Backgammon, BackgammonState

__all__ = ["Backgammon", "BackgammonState"]
