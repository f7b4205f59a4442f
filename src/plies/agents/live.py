"""Following an agent while it thinks: its search reported step by step, and stopped on
request, for front ends that show the search live (the web app).

An agent that can do this is :class:`Watchable`: its ``think(game, state, watch)`` calls
``watch.report`` with the search so far after each step (an iteration of the engine's
iterative deepening, a batch of MCTS iterations or PUCT simulations) and returns early, with
the best move found so far, once ``watch.stop`` is set. :func:`choose_move` asks any agent for
a move this way; one that is not watchable (a textbook search, which has no best move before
it ends) plays on a :func:`stoppable` copy of the game, so that setting ``stop`` abandons its
search, and its search is reported once, at the end.
"""

from __future__ import annotations

import copy as pycopy
import math
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar, runtime_checkable

from plies.agents.registry import Agent
from plies.clock import MIN_MOVE_SECONDS, move_budget
from plies.errors import BudgetExhaustedError
from plies.game import Game
from plies.search import SearchResult

S = TypeVar("S")
A = TypeVar("A")


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


class Deepening:
    """What agents share whose search yields a result a step deeper (``iterate``: the engine,
    a game's own chance engine): played by :meth:`think`, the last result kept as ``last``,
    the next move's time set by :meth:`set_clock` (``move_seconds``)."""

    last: SearchResult[Any] | None
    move_seconds: float | None

    def set_clock(self, remaining: float, increment: float) -> None:
        """Budget the next move from this clock (:func:`plies.clock.move_budget`)."""
        self.move_seconds = max(MIN_MOVE_SECONDS, move_budget(remaining, increment))

    def __call__(self, game: Game[Any, Any], state: Any) -> Any:
        return self.think(game, state, Watch())

    def think(self, game: Game[Any, Any], state: Any, watch: Watch) -> Any:
        """The move, each completed step reported; ``watch.stop`` ends the search as if its
        time had run out."""
        for result in self.iterate(game, state, watch.stop):
            watch.report(result)
        assert self.last is not None
        return self.last.action

    def iterate(
        self, game: Game[Any, Any], state: Any, stop: threading.Event | None = None
    ) -> Iterator[SearchResult[Any]]:
        """The search of ``state``, a result a step; the last is kept as ``last``."""
        raise NotImplementedError


def stoppable(
    game: Game[S, A],
    stop: threading.Event,
    *,
    positions: int | None = None,
    seconds: float | None = None,
) -> Game[S, A]:
    """A copy of ``game`` whose RESULT raises :class:`BudgetExhaustedError` once ``stop`` is
    set, or past ``positions`` calls or ``seconds`` (looked at every 256 calls): any search
    run on it can be abandoned. Its class, capabilities and states are ``game``'s."""
    calls = 0
    deadline = math.inf if seconds is None else time.perf_counter() + seconds
    limit = math.inf if positions is None else positions
    result = game.result

    def counted_result(state: S, action: A) -> S:
        nonlocal calls
        calls += 1
        if calls > limit:
            raise BudgetExhaustedError(f"more than {limit:,} positions")
        if not calls & 255 and (stop.is_set() or time.perf_counter() > deadline):
            raise BudgetExhaustedError("stopped" if stop.is_set() else f"past {seconds:g} s")
        return result(state, action)

    copy = pycopy.copy(game)
    object.__setattr__(copy, "result", counted_result)  # games may be frozen dataclasses
    return copy


def choose_move(agent: Agent, game: Game[Any, Any], state: Any, watch: Watch) -> Any:
    """``agent``'s move in ``state``, its search reported to ``watch`` as it goes where the
    agent is :class:`Watchable`, else once when it is done (when it searched at all); such an
    agent stopped before it chose raises :class:`BudgetExhaustedError`."""
    if isinstance(agent, Watchable):
        return agent.think(game, state, watch)
    try:
        action = agent(stoppable(game, watch.stop), state)
    except BudgetExhaustedError:
        raise BudgetExhaustedError(
            "stopped before its search ended (it has no move before then)"
        ) from None
    if agent.last is not None:
        watch.report(agent.last)
    return action
