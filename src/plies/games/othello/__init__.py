"""Othello's room: the rules (:mod:`.rules`) and their compiled form (:mod:`.kernel`)."""

from plies.games.othello.rules import Othello, OthelloState

__all__ = ["Othello", "OthelloState"]
