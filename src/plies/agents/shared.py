"""Memory that the agents of many games at once share instead of each keeping its own: what a
server (the web app) seats its agents with, through :func:`plies.agents.make_agent`'s
``shared``.

- A game's perfect solvers: one :class:`~plies.perfect.SolverPool` a game, of ``solvers``
  solvers at most, each lent to an agent for one move. Connect Four's table is 64 MiB: every
  ``perfect`` agent of a server shares the pool's tables rather than holding one each.
- Networks: each model file loaded once (per game, kinds and device, and while the file is
  unchanged), its weights shared by every learned agent that names it; inference reads them
  only.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable
from pathlib import Path
from typing import Any, TypeVar

from plies.game import Game
from plies.perfect import SolverPool
from plies.registry import game_identity
from plies.solvers import perfect_solver

Loaded = TypeVar("Loaded")


class SharedMemory:
    """The solvers and networks agents share (see the module docstring); thread-safe."""

    def __init__(self, solvers: int = 1) -> None:
        self.solvers = solvers
        """The most perfect solvers of one game that exist at once."""
        self._lock = threading.Lock()
        self._pools: dict[str, SolverPool | None] = {}
        self._models: dict[tuple[str, Hashable], tuple[tuple[int, int], Any]] = {}
        """(file, details) -> (the file's modification time and size, what was loaded)."""
        self._loading: dict[tuple[str, Hashable], threading.Lock] = {}

    def solver_pool(self, game: Game[Any, Any]) -> SolverPool | None:
        """The pool of ``game``'s perfect solvers (None: plies has none for it)."""
        key = game_identity(game)
        with self._lock:
            if key not in self._pools:
                first = perfect_solver(game)
                self._pools[key] = None
                if first is not None:
                    make = lambda: _solver_of(game)  # noqa: E731
                    self._pools[key] = SolverPool(make, self.solvers, shared=True, first=first)
            return self._pools[key]

    def model(self, file: Path, details: Hashable, load: Callable[[], Loaded]) -> Loaded:
        """What ``load`` makes of ``file`` (a network), loaded once for the file as it is now
        and the same ``details`` (game, kinds, device); a changed file is loaded again."""
        stat = file.stat()
        key, stamp = (str(file.resolve()), details), (stat.st_mtime_ns, stat.st_size)
        with self._lock:
            gate = self._loading.setdefault(key, threading.Lock())
        with gate:  # one thread loads it; the others wait for it rather than load it too
            with self._lock:
                known = self._models.get(key)
            if known is not None and known[0] == stamp:
                loaded: Loaded = known[1]
                return loaded
            loaded = load()
            with self._lock:
                self._models[key] = (stamp, loaded)
            return loaded

    def models(self) -> int:
        """How many networks are loaded."""
        with self._lock:
            return len(self._models)


def _solver_of(game: Game[Any, Any]) -> Any:
    solver = perfect_solver(game)
    assert solver is not None, "the game had a solver for the pool's first"
    return solver
