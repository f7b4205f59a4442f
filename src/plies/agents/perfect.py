"""The ``perfect`` agent: the game's perfect solver within a budget, else the engine's move;
endgame databases with the engine where the game has them (registered by
:mod:`plies.agents.builtin`)."""

from __future__ import annotations

import time
from collections.abc import Mapping
from contextlib import ExitStack
from dataclasses import dataclass, field, replace
from typing import Any

from plies.agents.engine import (
    ENGINE_DEFAULT_VALUES,
    EngineAgent,
    engine_agent,
    solved_result,
)
from plies.agents.live import Watch
from plies.agents.options import TIME_OPTION
from plies.agents.registry import Agent, AgentKind, Context, Option
from plies.capabilities import HasPositionClasses
from plies.clock import MIN_MOVE_SECONDS, move_budget
from plies.errors import BudgetExhaustedError, BusyError, UnsupportedGameError
from plies.game import Game
from plies.perfect import Decision, PerfectSolver, SolverPool
from plies.registry import game_identity
from plies.search import SearchResult
from plies.search.engine import EngineOptions, Limits, prepare
from plies.solvers import perfect_solver, score_moves
from plies.spec import DEPTH, NODES

SOLVER_SHARE = 0.8
"""The part of ``perfect``'s time budget given to the solver; the fallback engine gets the rest."""
FALLBACK_DEPTH = 8
"""The fallback engine's depth for ``perfect`` with a budget in positions and none in time."""


@dataclass
class PerfectAgent:
    """Plays perfectly when its solver decides within budget, else the fallback engine's move.

    A solver is lent to the agent for each move by ``solvers``: its own (a private pool of
    one) or a server's shared pool. The solver's table is kept between moves, so what earlier
    searches proved (true bounds) speeds up later ones. Among moves that keep the score it
    plays the solver's preferred one (Connect Four's: the most central). ``last`` is the
    solver's account (``solver_score`` set, ``solved`` true) or the engine's, with a ``note``
    saying which.
    """

    solvers: SolverPool
    fallback: EngineAgent
    seconds: float | None
    nodes: int | None
    name: str = "perfect"
    last: SearchResult[Any] | None = field(default=None, repr=False)
    decision: Decision | None = field(default=None, repr=False)
    """The solver's decision of the last move (None when the engine played it)."""
    spec_seconds: float | None = field(default=None, repr=False)
    """The spec's time a move, which :meth:`reset` brings back after a clock."""

    def __post_init__(self) -> None:
        self.spec_seconds = self.seconds

    def set_clock(self, remaining: float, increment: float) -> None:
        """Budget the next move from this clock (:func:`plies.clock.move_budget`), split
        between the solver and the fallback engine as a time a move is."""
        self.seconds = max(MIN_MOVE_SECONDS, move_budget(remaining, increment))
        self.fallback.move_seconds = self.seconds * (1 - SOLVER_SHARE)

    def __call__(self, game: Game[Any, Any], state: Any) -> Any:
        return self.think(game, state, Watch())

    def think(self, game: Game[Any, Any], state: Any, watch: Watch) -> Any:
        """The move, reported once decided; while anyone watches (``watch.report`` set), the
        exact score of every move is then solved within the budget's remainder and reported
        too (``move_scores``). Waiting for a shared solver counts in the budget."""
        began = time.perf_counter()
        budget = None if self.seconds is None else self.seconds * SOLVER_SHARE
        self.decision = None
        with ExitStack() as lent:
            try:
                solver = lent.enter_context(self.solvers.lend(budget, watch.stop))
            except (BudgetExhaustedError, BusyError):  # no solver freed up in time
                action = self._engine_move(game, state, watch, began)
                assert self.last is not None
                watch.report(self.last)
                return action
            solver.stop = watch.stop
            try:
                return self._play(game, state, watch, solver, began)
            finally:
                solver.stop = None

    def _play(
        self, game: Game[Any, Any], state: Any, watch: Watch, solver: PerfectSolver, began: float
    ) -> Any:
        action = self._decide(game, state, watch, solver, began)
        assert self.last is not None
        watch.report(self.last)
        if watch.watched and self.last.solved and not watch.stop.is_set():
            scores = self._move_scores(game, state, solver)
            if scores:
                self.last = replace(self.last, move_scores=scores)
                watch.report(self.last)
        return action

    def _move_scores(
        self, game: Game[Any, Any], state: Any, solver: PerfectSolver
    ) -> tuple[tuple[Any, int], ...]:
        """The exact score of each move (the mover's view) the solver finishes within what
        is left of the budget, with the table the decision filled
        (:func:`plies.solvers.score_moves`)."""
        assert self.last is not None and self.decision is not None
        seconds = None if self.seconds is None else self.seconds - self.last.stats.time
        if seconds is not None and seconds <= 0:
            return ()
        found = score_moves(game, solver, state, seconds, self.nodes, self.decision)
        return tuple((a, found.scores[a]) for a in game.actions(state) if a in found.scores)

    def _decide(
        self, game: Game[Any, Any], state: Any, watch: Watch, solver: PerfectSolver, began: float
    ) -> Any:
        budget = None if self.seconds is None else self.seconds * SOLVER_SHARE
        if budget is not None:
            budget = max(0.0, budget - (time.perf_counter() - began))
            if not solver.reaches(state, budget):  # far out of reach: the engine's whole time
                return self._engine_move(game, state, watch, began, whole_budget=True)
        try:
            decision = solver.decide(state, keep_table=True, nodes=self.nodes, seconds=budget)
        except BudgetExhaustedError:
            return self._engine_move(game, state, watch, began)
        self.decision = decision
        self.last = solved_result(game, state, solver, decision)
        return self.last.action

    def _engine_move(
        self,
        game: Game[Any, Any],
        state: Any,
        watch: Watch,
        began: float,
        whole_budget: bool = False,
    ) -> Any:
        """The fallback engine's move, when the solver did not decide within the budget (or,
        ``whole_budget``, could not: the engine then has all the move's time)."""
        waited = time.perf_counter() - began
        kept = self.fallback.move_seconds
        if whole_budget and self.seconds is not None:
            self.fallback.move_seconds = max(MIN_MOVE_SECONDS, self.seconds - waited)
        try:
            action = self.fallback.think(game, state, Watch(stop=watch.stop))
        finally:
            self.fallback.move_seconds = kept
        assert self.fallback.last is not None
        why = (
            "out of the solver's reach"
            if whole_budget
            else f"not solved within the budget ({waited:.2f} s)"
        )
        note = f"{why}: the engine's move, depth {self.fallback.last.depth}"
        self.last = replace(self.fallback.last, note=note)
        return action

    def reset(self, seed: int | None = None) -> None:
        """Empty the solver's table (a private one: a shared pool's tables hold what is proven
        for everyone) and the fallback engine's, forget any clock (nothing is random)."""
        if not self.solvers.shared:
            self.solvers.reset()
        self.fallback.reset()
        self.last, self.decision, self.seconds = None, None, self.spec_seconds


def _perfect(game: Game[Any, Any], values: Mapping[str, Any], context: Context) -> Agent:
    seconds, nodes, depth = values["time"], values["nodes"], values["depth"]
    if seconds is None and nodes is None:
        seconds = 1.0
    solvers = None if context.shared is None else context.shared.solver_pool(game)
    if solvers is None:
        solver = perfect_solver(game)
        solvers = None if solver is None else SolverPool.of(solver)
    if solvers is None and isinstance(game, HasPositionClasses):
        return _perfect_endgames(game, seconds, depth, context)
    if solvers is None:
        raise UnsupportedGameError(
            f"perfect: plies has no perfect solver for {game_identity(game)} (plies agents "
            "says which games have one); use alphabeta or engine"
        )
    if depth is not None:
        limits = Limits(depth=depth)
    elif seconds is not None:
        limits = Limits(seconds=seconds * (1 - SOLVER_SHARE))
    else:
        limits = Limits(depth=FALLBACK_DEPTH)
    fallback = EngineAgent(limits, EngineOptions(), name="engine")
    return PerfectAgent(solvers, fallback, seconds, nodes, name=context.name)


def _perfect_endgames(
    game: Game[Any, Any], seconds: float | None, depth: int | None, context: Context
) -> Agent:
    """``perfect`` for a game with endgame databases (checkers): their move where they hold
    the position, else the engine's, which probes them."""
    values = {"depth": depth, "nodes": None, "time": None if depth else seconds, "tt": 16.0}
    agent = engine_agent(game, values | ENGINE_DEFAULT_VALUES | {"endgames": True}, context.name)
    prepare(game, agent.options)
    return agent


PERFECT_KIND = AgentKind(
    "perfect",
    "the game's perfect solver (connect4; othello near the end) within a budget, else the engine",
    (
        TIME_OPTION,
        Option("nodes", "int", "the solver's budget in positions", None, NODES),
        Option("depth", "int", "the fallback engine's depth", None, DEPTH),
    ),
    _perfect,
)
