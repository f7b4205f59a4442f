"""Checkers' room (English draughts): the rules (:mod:`.rules`) and their compiled form
(:mod:`.kernel`)."""

from plies.games.checkers.rules import Checkers, CheckersState

__all__ = ["Checkers", "CheckersState"]
