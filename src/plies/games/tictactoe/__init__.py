"""Tic-tac-toe's room: the m,n,k-game (:mod:`.rules`), its compiled rules (:mod:`.kernel`) and
the three-player variant (:mod:`.three`)."""

from __future__ import annotations

from plies.lazy import lazy_exports

__all__ = ["TicTacToe"]

# the game and state types, imported on first use (importing the room's kernel alone, as the
# compiled searches do, loads no rules)
__getattr__ = lazy_exports(__name__, dict.fromkeys(__all__, ".rules"))
