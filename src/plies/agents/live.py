"""Following an agent while it thinks: its search reported step by step, and stopped on
request, for front ends that show the search live (the web app).

An agent that can do this is :class:`Watchable`: its ``think(game, state, watch)`` calls
``watch.report`` with the search so far after each step (an iteration of the engine's
iterative deepening, a batch of MCTS iterations or PUCT simulations) and returns early, with
the best move found so far, once ``watch.stop`` is set. :func:`choose_move` asks any agent for
a move this way; one that is not watchable (a textbook search) is simply called and its search
reported once, at the end.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from plies.agents.registry import Agent
from plies.game import Game
from plies.search import SearchResult


def _ignore(result: SearchResult[Any]) -> None:
    """No one is watching."""


@dataclass(frozen=True)
class Watch:
    """How a caller follows a move being chosen: ``report`` sees the search so far after each
    step; setting ``stop`` (from any thread) ends the search with the best move found so far."""

    report: Callable[[SearchResult[Any]], None] = _ignore
    stop: threading.Event = field(default_factory=threading.Event)

    @property
    def watched(self) -> bool:
        """Whether anyone follows the reports (extra work for them can be skipped if not)."""
        return self.report is not _ignore


@runtime_checkable
class Watchable(Protocol):
    """An agent whose search can be followed and stopped (see the module docstring)."""

    def think(self, game: Game[Any, Any], state: Any, watch: Watch) -> Any: ...


def choose_move(agent: Agent, game: Game[Any, Any], state: Any, watch: Watch) -> Any:
    """``agent``'s move in ``state``, its search reported to ``watch`` as it goes where the
    agent is :class:`Watchable`, else once when it is done (when it searched at all)."""
    if isinstance(agent, Watchable):
        return agent.think(game, state, watch)
    action = agent(game, state)
    if agent.last is not None:
        watch.report(agent.last)
    return action
