"""An agent of a web game thinking: what the browsers are shown while it thinks and after it
moved (:class:`Thinking`, :class:`TurnNotes`), and the move chosen in the thread it thinks in
(:func:`think`), bounded by the server's think budget. The session
(:mod:`plies.web.sessions`) decides when an agent thinks and what becomes of its move.
Nothing here imports FastAPI."""

from __future__ import annotations

import threading
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from plies.agents import Agent
from plies.agents.live import Watch, choose_move
from plies.errors import Resigns
from plies.game import Game
from plies.search import SearchResult
from plies.web.reports import search_json, visit_tree_json

REPORTS_PER_SECOND = 10
"""Live search reports sent to the browsers at most this often (the last one always)."""
LINE_FIELDS = ("depth", "score", "score_text", "pv", "nodes")
"""What is kept of each of the engine's iterations."""


@dataclass
class TurnNotes:
    """What the browsers are shown of a move (a :class:`~plies.play.Turn` of the session's
    record) beyond the move: the search behind it as JSON (with the tree of an MCTS search,
    when it kept one)."""

    search: dict[str, Any] | None = None
    tree: list[dict[str, Any]] | None = None
    lines: list[dict[str, Any]] = field(default_factory=list)
    """The engine's best line after each iteration (depth, score, pv)."""


@dataclass
class Thinking:
    """An agent choosing a move in its thread."""

    player: str
    spec: str
    watch: Watch
    began: float
    waiting: bool = True
    """Waiting for a free thinker (:class:`~plies.web.workload.Workload`)."""
    report: dict[str, Any] | None = None
    """The last report sent to the listeners."""
    lines: list[dict[str, Any]] = field(default_factory=list)
    last_sent: float = 0.0

    def reported(
        self,
        game: Game[Any, Any],
        state: Any,
        agent: Agent | None,
        result: SearchResult[Any],
        now: float,
    ) -> dict[str, Any] | None:
        """A live report of the search from ``state``: the engine's completed iteration kept
        in :attr:`lines`; the event to send the listeners, or None within
        1 / :data:`REPORTS_PER_SECOND` of the last one sent."""
        report = None
        if result.algorithm == "engine" and result.complete:
            report = search_json(game, state, result, agent)
            self.lines.append({k: report[k] for k in LINE_FIELDS})
        if now - self.last_sent < 1 / REPORTS_PER_SECOND:
            return None
        self.last_sent = now
        self.report = report or search_json(game, state, result, agent)
        return {"type": "search", "player": self.player, "report": self.report, "lines": self.lines}

    def notes(
        self, game: Game[Any, Any], state: Any, agent: Agent, result: SearchResult[Any] | None
    ) -> TurnNotes:
        """What is shown of the move this thinking chose: its search and MCTS's tree as JSON,
        with the engine's lines reported on the way."""
        search = None if result is None else search_json(game, state, result, agent)
        tree = None
        if result is not None and result.tree:
            tree = visit_tree_json(game, state, result.tree)
        return TurnNotes(search, tree, self.lines)


@dataclass(frozen=True)
class Thought:
    """What came of an agent's thinking: its move and search, or that it resigned, or the
    error that kept it from moving (in words)."""

    action: Any = None
    result: SearchResult[Any] | None = None
    resigned: bool = False
    failure: str | None = None


def think(
    agent: Agent,
    game: Game[Any, Any],
    state: Any,
    watch: Watch,
    seconds: float,
    forget: Iterable[Agent] = (),
) -> Thought:
    """``agent``'s move in ``state``, reported through ``watch`` and stopped by it after
    ``seconds``; the agents in ``forget`` (a new game's) forget what they kept first. The
    agent keeps nothing after (memory is the server's budget)."""
    timer = threading.Timer(seconds, watch.stop.set)
    timer.daemon = True
    timer.start()
    try:
        for seated in forget:
            seated.reset()
        action = choose_move(agent, game, state, watch)
        return Thought(action, agent.last)
    except Resigns:
        return Thought(resigned=True)
    except Exception as error:  # whatever goes wrong is shown: the game survives it
        return Thought(failure=str(error) or type(error).__name__)
    finally:
        timer.cancel()
        agent.reset()
