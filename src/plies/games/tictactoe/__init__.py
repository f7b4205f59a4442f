"""Tic-tac-toe's room: the m,n,k-game (:mod:`.rules`), its compiled rules (:mod:`.kernel`) and
the three-player variant (:mod:`.three`)."""

from plies.games.tictactoe.rules import TicTacToe

__all__ = ["TicTacToe"]
