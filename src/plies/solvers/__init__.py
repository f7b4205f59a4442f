"""Exact solvers for specific games: perfect play at compiled speed where a game's structure
allows it (Connect Four, after Pascal Pons)."""

from __future__ import annotations

from typing import Any


def perfect_solver(game: Any) -> Any | None:
    """A perfect solver for ``game`` (a :class:`~plies.solvers.connect4.Connect4Solver` for
    four-in-a-row Connect Four), or None when plies has none for it."""
    from plies.games.connect4 import ConnectFour

    if isinstance(game, ConnectFour) and game.k == 4:
        from plies.solvers.connect4 import Connect4Solver

        return Connect4Solver(game)
    return None
