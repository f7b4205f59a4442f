"""Exact solvers for specific games: perfect play at compiled speed where a game's structure
allows it (Connect Four, after Pascal Pons), behind one interface (:mod:`plies.perfect`)."""

from __future__ import annotations

from typing import Any

from plies.capabilities import HasPerfectSolver
from plies.game import Game
from plies.perfect import PerfectSolver


def perfect_solver(game: Game[Any, Any]) -> PerfectSolver | None:
    """The game's perfect solver (:class:`~plies.capabilities.HasPerfectSolver`), or None
    when plies has none for it."""
    return game.perfect_solver() if isinstance(game, HasPerfectSolver) else None
