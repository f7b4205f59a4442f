"""Agents: callables ``(game, state) -> action``, built from spec strings.

===========================  ==================================================================
spec                         agent
===========================  ==================================================================
``random``                   a uniformly random legal move (seeded)
``minimax[:depth=N]``        MINIMAX-SEARCH, to the end or depth-limited with the game's EVAL
``alphabeta[:depth=N]``      ALPHA-BETA-SEARCH, likewise; ``strict=true`` for strict pruning
``expectiminimax:depth=N``   EXPECTIMINIMAX for games with chance (1 by default: the best
                             position after the move); ``prune=true`` for Star1 pruning
``mcts:iterations=N``        Monte Carlo tree search (UCT) for N iterations a move, or
``mcts:time=S``              for S seconds (1 s by default); ``c=`` exploration constant,
                             ``evaluator=playout|eval``, ``selection=ucb1|puct``,
                             ``solver=false``; its tree is reused between moves
``maxn[:depth=N]``           max^n, for any number of players (each maximises its own utility)
``paranoid[:depth=N]``       the paranoid search: the mover against all the others, alpha-beta
``engine:time=S``            the engine (iterative deepening) for S seconds a move; or
``engine:depth=N``           to depth N, or ``engine:nodes=N``; ``tt=MB`` sizes its table
                             (16 by default, kept between moves); ``pvs``, ``aspiration``,
                             ``ordering``, ``quiescence`` switch its refinements (true/false),
                             and for chess ``captures``, ``checks`` (check extension),
                             ``nullmove``, ``lmr``, ``repetition``
``perfect[:time=S]``         Connect Four: a move that keeps the solved score when the solver
                             finishes within its budget (S seconds a move, 1 by default: 80%
                             for the solver, the rest for the engine's move when it cannot),
                             else the engine's move, and its report says so; ``nodes=N``
                             bounds the solver in positions, ``depth=D`` sets the fallback
                             engine's depth instead of its time
``human``                    asks at the terminal, showing the board and the legal moves
===========================  ==================================================================

>>> from plies.games import make_game
>>> game = make_game("tictactoe")
>>> agent = make_agent("alphabeta:depth=2", game)
>>> game.format_action(game.initial_state(), agent(game, game.initial_state()))
'b2'
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

from plies.errors import (
    BudgetExhaustedError,
    IllegalMoveError,
    UnknownNameError,
    UnsupportedGameError,
)
from plies.game import (
    Game,
    require_evaluation,
    require_two_player_zero_sum,
    require_value_bounds,
)
from plies.search import ALGORITHMS, SearchResult, SearchStats
from plies.search.engine import EngineOptions, Limits, TranspositionTable, search
from plies.search.maxn import maxn, paranoid
from plies.search.mcts import DEFAULT_C, MCTS, SELECTIONS, heuristic_evaluator
from plies.spec import Options, parse_spec


class Agent(Protocol):
    """Chooses a move: ``agent(game, state) -> action``."""

    name: str

    def __call__(self, game: Game[Any, Any], state: Any) -> Any: ...


class AbandonedError(Exception):
    """The human at the terminal ended the game (end of input)."""


@dataclass
class RandomAgent:
    """Plays a uniformly random legal move."""

    rng: random.Random
    name: str = "random"

    def __call__(self, game: Game[Any, Any], state: Any) -> Any:
        return self.rng.choice(list(game.actions(state)))


MULTIPLAYER: dict[str, Callable[..., SearchResult[Any]]] = {"maxn": maxn, "paranoid": paranoid}
"""Searches for games of any number of players, by agent name."""


@dataclass
class SearchAgent:
    """Plays the move a textbook search chooses; ``last`` keeps that search's result."""

    algorithm: str
    depth: int | None = None
    strict: bool = False
    name: str = ""
    last: SearchResult[Any] | None = field(default=None, repr=False)

    prune: bool = False

    def __call__(self, game: Game[Any, Any], state: Any) -> Any:
        options: dict[str, Any] = {"depth": self.depth}
        if self.algorithm == "alphabeta":
            options["strict"] = self.strict
        if self.algorithm == "expectiminimax":
            options["prune"] = self.prune
        search = MULTIPLAYER.get(self.algorithm) or ALGORITHMS[self.algorithm]
        self.last = search(game, state, **options)
        return self.last.action


@dataclass
class EngineAgent:
    """Plays the engine's move; its table persists (aged) between moves of a game."""

    limits: Limits
    options: EngineOptions
    name: str = "engine"
    last: SearchResult[Any] | None = field(default=None, repr=False)
    table: TranspositionTable | None = field(default=None, repr=False)

    def __call__(self, game: Game[Any, Any], state: Any) -> Any:
        if self.table is None and self.options.tt_mb > 0:
            self.table = TranspositionTable(self.options.tt_mb)
        self.last = search(game, state, self.limits, self.options, self.table)
        return self.last.action


SOLVER_SHARE = 0.8
"""The part of ``perfect``'s time budget given to the solver; the fallback engine gets the rest."""
FALLBACK_DEPTH = 8
"""The fallback engine's depth for ``perfect`` with a budget in positions and none in time."""


@dataclass
class PerfectAgent:
    """Plays perfectly when its solver decides within budget, else the fallback engine's move.

    The solver's table is kept between moves, so what earlier searches proved (true bounds)
    speeds up later ones. Among moves that keep the score it plays the most central. ``last``
    is the solver's account (``algorithm`` "perfect", ``score`` in the solver's convention) or
    the engine's, with a ``note`` saying which.
    """

    solver: Any
    fallback: EngineAgent
    seconds: float | None
    nodes: int | None
    name: str = "perfect"
    last: SearchResult[Any] | None = field(default=None, repr=False)

    def __call__(self, game: Game[Any, Any], state: Any) -> Any:
        began = time.perf_counter()
        budget = None if self.seconds is None else self.seconds * SOLVER_SHARE
        try:
            decision = self.solver.decide(state, keep_table=True, nodes=self.nodes, seconds=budget)
        except BudgetExhaustedError:
            waited = time.perf_counter() - began
            action = self.fallback(game, state)
            assert self.fallback.last is not None
            note = (
                f"not solved within the budget ({waited:.2f} s): the engine's move, "
                f"depth {self.fallback.last.depth_limit}"
            )
            self.last = replace(self.fallback.last, note=note)
            return action
        centre = (self.solver.game.width - 1) / 2
        action = min(decision.moves, key=lambda column: (abs(column - centre), column))
        player = game.to_move(state)
        value = (decision.score > 0) - (decision.score < 0)
        self.last = SearchResult(
            value=value,
            action=action,
            pv=(action,),
            stats=SearchStats(nodes=decision.nodes, time=decision.time),
            algorithm="perfect",
            max_player=player,
            score=decision.score,
            note=f"solved: score {decision.score}, {self.solver.meaning(decision.score)}",
        )
        return action


def perfect_agent(game: Game[Any, Any], options: Options, name: str) -> PerfectAgent:
    """A :class:`PerfectAgent` from ``perfect:`` spec options (one second a move by default)."""
    from plies.solvers import perfect_solver

    seconds = options.real("time", None)
    nodes = options.integer("nodes", None, minimum=1)
    depth = options.integer("depth", None, minimum=1)
    if seconds is None and nodes is None:
        seconds = 1.0
    solver = perfect_solver(game)
    if solver is None:
        raise UnsupportedGameError(
            f"perfect: plies has a perfect solver for connect4 (four in a row) only, not "
            f"{game.name!r}; use alphabeta or engine"
        )
    if depth is not None:
        limits = Limits(depth=depth)
    elif seconds is not None:
        limits = Limits(time=seconds * (1 - SOLVER_SHARE))
    else:
        limits = Limits(depth=FALLBACK_DEPTH)
    fallback = EngineAgent(limits, EngineOptions(), name="engine")
    return PerfectAgent(solver, fallback, seconds, nodes, name=name)


@dataclass
class MCTSAgent:
    """Plays the move Monte Carlo tree search chooses; the tree carries over between moves."""

    mcts: MCTS[Any, Any]
    iterations: int | None
    seconds: float | None
    name: str = "mcts"
    last: SearchResult[Any] | None = field(default=None, repr=False)

    def __call__(self, game: Game[Any, Any], state: Any) -> Any:
        self.last = self.mcts.search(state, iterations=self.iterations, seconds=self.seconds)
        return self.last.action


def mcts_agent(game: Game[Any, Any], options: Options, name: str, seed: int | None) -> MCTSAgent:
    """An :class:`MCTSAgent` from ``mcts:`` spec options (one second a move by default)."""
    iterations = options.integer("iterations", None, minimum=1)
    seconds = options.real("time", None)
    if iterations is None and seconds is None:
        seconds = 1.0
    c = options.real("c", DEFAULT_C)
    evaluator = options.choice("evaluator", "playout", ("playout", "eval"))
    selection = options.choice("selection", "ucb1", SELECTIONS)
    solver = options.flag("solver", True)
    mcts = MCTS(
        game,
        c=DEFAULT_C if c is None else c,
        evaluator=heuristic_evaluator(game) if evaluator == "eval" else None,
        selection=selection,
        seed=seed,
        solver=solver,
    )
    return MCTSAgent(mcts, iterations, seconds, name=name)


def engine_settings(options: Options) -> tuple[Limits, EngineOptions]:
    """Limits and switches from ``engine:`` spec options (one second a move by default)."""
    depth = options.integer("depth", None, minimum=1)
    nodes = options.integer("nodes", None, minimum=1)
    seconds = options.real("time", None)
    if depth is None and nodes is None and seconds is None:
        seconds = 1.0
    settings = EngineOptions(
        tt_mb=options.real("tt", EngineOptions.tt_mb) or EngineOptions.tt_mb,
        pvs=options.flag("pvs", EngineOptions.pvs),
        aspiration=options.flag("aspiration", EngineOptions.aspiration),
        ordering=options.flag("ordering", EngineOptions.ordering),
        quiescence=options.flag("quiescence", EngineOptions.quiescence),
        captures=options.flag("captures", EngineOptions.captures),
        check_extension=options.flag("checks", EngineOptions.check_extension),
        null_move=options.flag("nullmove", EngineOptions.null_move),
        reductions=options.flag("lmr", EngineOptions.reductions),
        repetition=options.flag("repetition", EngineOptions.repetition),
    )
    return Limits(depth=depth, nodes=nodes, time=seconds), settings


@dataclass
class HumanAgent:
    """Asks for a move, showing the board and the legal moves; re-prompts on bad input."""

    read: Callable[[str], str] = input
    write: Callable[[str], None] = print
    name: str = "human"

    def __call__(self, game: Game[Any, Any], state: Any) -> Any:
        moves = [game.format_action(state, a) for a in game.actions(state)]
        legal = (", " if any(" " in m for m in moves) else " ").join(moves)
        self.write(f"{game.to_move(state)} to move; legal moves: {legal}")
        while True:
            try:
                text = self.read("your move> ")
            except EOFError:
                raise AbandonedError("end of input") from None
            if not text.strip():
                continue
            try:
                return game.parse_action(state, text)
            except IllegalMoveError as error:
                self.write(f"{error}; try again")


AGENTS = (
    "random",
    "minimax",
    "alphabeta",
    "expectiminimax",
    "maxn",
    "paranoid",
    "engine",
    "perfect",
    "human",
)


def make_agent(
    spec: str,
    game: Game[Any, Any],
    *,
    seed: int | None = None,
    read: Callable[[str], str] = input,
    write: Callable[[str], None] = print,
) -> Agent:
    """Build an agent from its spec for ``game``, checking what it needs of the game now."""
    parsed = parse_spec(spec)
    options = parsed.options
    agent: Agent
    if parsed.name == "random":
        agent = RandomAgent(random.Random(seed))
    elif parsed.name == "human":
        agent = HumanAgent(read, write)
    elif parsed.name in ("minimax", "alphabeta"):
        require_two_player_zero_sum(game, parsed.name)
        depth = options.integer("depth", None, minimum=1)
        strict = options.flag("strict", False) if parsed.name == "alphabeta" else False
        if depth is not None:
            require_evaluation(game, f"{parsed.name} with a depth limit")
        agent = SearchAgent(parsed.name, depth, strict, name=spec.strip())
    elif parsed.name == "expectiminimax":
        require_two_player_zero_sum(game, parsed.name, chance=True)
        depth = options.integer("depth", 1, minimum=1)
        prune = options.flag("prune", False)
        require_evaluation(game, "expectiminimax with a depth limit")
        if prune:
            require_value_bounds(game, "expectiminimax with pruning")
        agent = SearchAgent(parsed.name, depth, name=spec.strip(), prune=prune)
    elif parsed.name == "mcts":
        agent = mcts_agent(game, options, spec.strip(), seed)
    elif parsed.name in MULTIPLAYER:
        depth = options.integer("depth", None, minimum=1)
        if depth is not None:
            require_evaluation(game, f"{parsed.name} with a depth limit")
        agent = SearchAgent(parsed.name, depth, name=spec.strip())
    elif parsed.name == "engine":
        require_two_player_zero_sum(game, "the engine")
        require_evaluation(game, "the engine")
        agent = EngineAgent(*engine_settings(options), name=spec.strip())
    elif parsed.name == "perfect":
        agent = perfect_agent(game, options, spec.strip())
    else:
        raise UnknownNameError(f"unknown agent {parsed.name!r} (agents: {', '.join(AGENTS)})")
    options.finish()
    return agent
