"""The built-in agents, registered in :data:`plies.agents.registry.AGENTS`.

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
                             ``evaluator=playout|eval``, ``solver=false``, ``rave=K``
                             (RAVE's equivalence visits, 0 off; 1000 by default where the
                             game's compiled tree keeps AMAF statistics), and the settings
                             of a game's own compiled tree (its ``mcts_options``);
                             ``selection=puct`` searches with the PUCT of ``az``
                             (:mod:`plies.search.puct`) with uniform priors instead, in
                             two-player zero-sum games; its tree is reused between moves
``maxn[:depth=N]``           max^n, for any number of players (each maximises its own utility)
``paranoid[:depth=N]``       the paranoid search: the mover against all the others, alpha-beta
``engine:time=S``            the engine (iterative deepening) for S seconds a move; or
``engine:depth=N``           to depth N, or ``engine:nodes=N``; ``tt=MB`` sizes its table
                             (16 by default, kept between moves); ``pvs``, ``aspiration``,
                             ``ordering``, ``quiescence`` switch its refinements (true/false),
                             and for chess ``captures``, ``checks`` (check extension),
                             ``nullmove``, ``lmr``, ``repetition``
``perfect[:time=S]``         a move that keeps the solved score when the game's perfect solver
                             (Connect Four's) finishes within its budget (S seconds a move, 1
                             by default: 80% for the solver, the rest for the engine's move
                             when it cannot), else the engine's move, and its report says so;
                             ``nodes=N`` bounds the solver in positions, ``depth=D`` sets the
                             fallback engine's depth instead of its time
``human``                    a person, asked by the front end (the terminal, the browser)
===========================  ==================================================================
"""

from __future__ import annotations

import json
import math
import random
import threading
import time
from collections.abc import Iterator, Mapping
from contextlib import ExitStack
from dataclasses import dataclass, field, fields, replace
from typing import Any

from plies.agents.live import Watch, stoppable
from plies.agents.puct import PUCTAgent
from plies.agents.registry import (
    Agent,
    AgentKind,
    AskMove,
    Context,
    Option,
    register,
)
from plies.capabilities import (
    DRAW,
    WIN,
    HasEvaluation,
    HasLinearEvaluation,
    HasOwnMcts,
    HasPositionClasses,
    HasValueBounds,
    LearnedPrior,
    require,
)
from plies.clock import MIN_MOVE_SECONDS, move_budget
from plies.errors import (
    BudgetExhaustedError,
    BusyError,
    Resigns,
    SpecError,
    UnsupportedGameError,
)
from plies.game import (
    Game,
    WinLossDrawGame,
    define_game,
    has_chance,
    require_two_player_zero_sum,
)
from plies.inputs import read_text
from plies.perfect import Decision, PerfectSolver, SolverPool
from plies.registry import game_identity
from plies.search import SearchResult, SearchStats, alphabeta, expectiminimax, minimax
from plies.search.analysis import estimate_tree_size
from plies.search.engine import (
    EngineOptions,
    Evaluation,
    Limits,
    TranspositionTable,
    compiled_engine,
    endgame_score,
    iterate,
    prepare,
)
from plies.search.maxn import maxn, paranoid
from plies.search.mcts import (
    DEFAULT_C,
    DEFAULT_RAVE,
    DEFAULT_RAVE_C,
    MCTS,
    LeafEvaluator,
    default_evaluator,
    heuristic_evaluator,
    winning_chance,
)
from plies.search.puct import DEFAULT_C_PUCT, PUCTConfig, UniformPriorEvaluator
from plies.solvers import perfect_solver, score_moves
from plies.solvers.endgames import Endgames, endgames_for
from plies.solvers.retrograde import NO_DISTANCE, OUTCOME_NAMES, plies_text
from plies.spec import (
    DEPTH,
    EXPLORATION,
    ITERATIONS,
    NODES,
    RAVE_VISITS,
    RESIGN_BELOW,
    SECONDS,
    TABLE_MB,
)

DEPTH_OPTION = Option("depth", "int", "search to this depth with the game's EVAL", None, DEPTH)
TIME_OPTION = Option("time", "number", "seconds a move", None, SECONDS)
SELECTIONS = ("ucb1", "puct")
"""The selection rules of the ``mcts`` agent: UCB1 (:class:`~plies.search.mcts.MCTS`) or PUCT
(:mod:`plies.search.puct`)."""


@dataclass
class RandomAgent:
    """Plays a uniformly random legal move."""

    rng: random.Random
    name: str = "random"
    last: SearchResult[Any] | None = None

    def __call__(self, game: Game[Any, Any], state: Any) -> Any:
        return self.rng.choice(list(game.actions(state)))

    def reset(self, seed: int | None = None) -> None:
        """Nothing is kept between moves; a seed restarts the random choices."""
        if seed is not None:
            self.rng.seed(seed)


@dataclass
class HumanAgent:
    """A person's move, asked by the front end that seated them."""

    ask: AskMove
    name: str = "human"
    last: SearchResult[Any] | None = None

    def __call__(self, game: Game[Any, Any], state: Any) -> Any:
        return self.ask(game, state)

    def reset(self, seed: int | None = None) -> None:
        """Nothing is kept between moves, and nothing is random."""


@dataclass
class SearchAgent:
    """Plays the move a textbook search chooses (minimax, alpha-beta, expectiminimax, max^n,
    paranoid); ``last`` keeps that search's result.

    Minimax and alpha-beta keep the textbook values, which do not tell a win now from a win
    later, so between moves of equal value the agent plays the shortest forced win
    (:meth:`fastest_win`).
    """

    algorithm: str
    depth: int | None = None
    options: Mapping[str, Any] = field(default_factory=dict)
    name: str = ""
    last: SearchResult[Any] | None = field(default=None, repr=False)

    def __call__(self, game: Game[Any, Any], state: Any) -> Any:
        search = TEXTBOOK[self.algorithm]
        self.last = search(game, state, depth=self.depth, **self.options)
        if self.algorithm in ("minimax", "alphabeta"):
            return self.fastest_win(game, state, self.last)
        return self.last.action

    def fastest_win(self, game: Game[Any, Any], state: Any, found: SearchResult[Any]) -> Any:
        """The first move of a shortest forced win when ``found`` is a win for the mover,
        else ``found``'s move: alpha-beta to depths 1, 2, ... with every unfinished line
        scored as a loss (:func:`_win_within`) until one proves the win."""
        if not isinstance(game, WinLossDrawGame):
            return found.action
        mover = game.to_move(state)
        if found.value != game.scoring.utility(mover, mover):
            return found.action
        horizon = _win_within(game, mover)
        for depth in range(1, (self.depth or found.stats.max_depth) + 1):
            shortest = alphabeta(horizon, state, depth=depth)
            if shortest.value == found.value:
                return shortest.action
        return found.action

    def reset(self, seed: int | None = None) -> None:
        """Nothing is kept between moves, and nothing is random."""
        self.last = None


def _win_within(game: WinLossDrawGame[Any, Any], player: str) -> Game[Any, Any]:
    """``game`` with EVAL scoring every unfinished line as a loss for ``player``: a
    depth-limited search of it finds a win only where one is forced within its depth."""
    winner = game.opponent(player)  # every unfinished line: as if they had won
    return define_game(
        name=game.name,
        players=game.players,
        initial_state=game.initial_state,
        to_move=game.to_move,
        actions=game.actions,
        result=game.result,
        is_terminal=game.is_terminal,
        utility=game.utility,
        evaluate=lambda state, someone: game.scoring.utility(winner, someone),
    )


PRUNING = ("alphabeta", "paranoid")
"""The textbook searches that prune: at best they visit about the square root of the tree
(Knuth and Moore's minimal tree); the others visit all of it."""


def search_cost_problem(
    agent: Agent, game: Game[Any, Any], state: Any, positions: int, seconds: float
) -> str | None:
    """Why ``agent``, if a textbook search, would be too slow from ``state`` (a textbook search
    has no move before it ends, so it cannot be cut short with one in hand); None when it fits
    in ``positions`` and ``seconds`` or is no textbook search. The tree's size to the search's
    depth is estimated (:func:`~plies.search.analysis.estimate_tree_size`); a pruning search
    on a tree too big to be sure of is tried, within the budget."""
    if not isinstance(agent, SearchAgent):
        return None
    horizon = "to the end of the game" if agent.depth is None else f"to depth {agent.depth}"
    advice = (
        f"give it a depth ({agent.algorithm}:depth=3)"
        if agent.depth is None
        else "give it a smaller depth"
    )
    too_slow = (
        f"{agent.name!r} is too slow here: its search {horizon} in {game.name} takes more than "
        f"{positions:,} positions or {seconds:g} s, and it has no move before it ends; "
        f"{advice}, or use engine:time=1 or mcts:time=1"
    )
    size = estimate_tree_size(game, state, agent.depth)
    least = math.sqrt(size) if agent.algorithm in PRUNING else size
    if least > positions:
        return too_slow
    if size <= positions or has_chance(game):
        return None
    try:  # it may prune enough: try it
        agent(stoppable(game, threading.Event(), positions=positions, seconds=seconds), state)
    except BudgetExhaustedError:
        return too_slow
    except RecursionError:
        return f"{agent.name!r}: {game.name} is too deep for a search to the end; {advice}"
    return None


TEXTBOOK = {
    "minimax": minimax,
    "alphabeta": alphabeta,
    "expectiminimax": expectiminimax,
    "maxn": maxn,
    "paranoid": paranoid,
}
"""The searches behind :class:`SearchAgent`, by agent name."""


@dataclass
class EngineAgent:
    """Plays the engine's move; its table persists (aged) between moves of a game."""

    limits: Limits
    options: EngineOptions
    name: str = "engine"
    last: SearchResult[Any] | None = field(default=None, repr=False)
    table: TranspositionTable | None = field(default=None, repr=False)
    move_seconds: float | None = field(default=None, repr=False)
    """The next move's time from a clock (:meth:`set_clock`), instead of the spec's."""
    evaluated: Game[Any, Any] | None = field(default=None, repr=False)
    """The game searched in place of the one played, evaluating with other weights
    (``weights=FILE``); its states and moves are the played game's."""
    evaluation: Evaluation | None = field(default=None, repr=False)
    """EVAL in place of the game's (a network's value: ``netengine``); the Python engine
    searches with it."""
    endgames: Endgames | None = field(default=None, repr=False)
    """Endgame databases: a root they hold is answered from them at once (the quickest win,
    the longest defence), and the search (compiled or Python) ends its lines where they hold
    the position."""
    endgame_problems_told: int = field(default=0, repr=False)
    """How many of :attr:`endgames`' problems (files left out) a result's note has told."""

    def set_clock(self, remaining: float, increment: float) -> None:
        """Budget the next move from this clock (:func:`plies.clock.move_budget`)."""
        self.move_seconds = max(MIN_MOVE_SECONDS, move_budget(remaining, increment))

    def __call__(self, game: Game[Any, Any], state: Any) -> Any:
        return self.think(game, state, Watch())

    def think(self, game: Game[Any, Any], state: Any, watch: Watch) -> Any:
        """The move, each completed iteration reported; ``watch.stop`` ends the search as if
        its time had run out."""
        for result in self.iterate(game, state, watch.stop):
            watch.report(result)
        assert self.last is not None
        return self.last.action

    def iterate(
        self, game: Game[Any, Any], state: Any, stop: threading.Event | None = None
    ) -> Iterator[SearchResult[Any]]:
        """The search of ``state`` within the agent's limits, a report per iteration (the
        last is the result, kept as :attr:`last`); ``stop`` ends it as if time had run out."""
        if self.table is None and self.options.tt_mb > 0:
            self.table = TranspositionTable(self.options.tt_mb)
        limits = replace(self.limits, stop=stop)
        if self.move_seconds is not None:
            limits = replace(limits, seconds=self.move_seconds)
        known = None if self.endgames is None else endgame_answer(self.endgames, game, state)
        if known is not None:
            self.last = self._told(known)
            yield self.last
            return
        searched = game if self.evaluated is None else self.evaluated
        probe = None if self.endgames is None else self.endgames.trusted
        packed = None  # the tables as the compiled search probes them
        if self.endgames is not None and self.compiled(game):
            packed = self.endgames.compiled()
        for result in iterate(
            searched,
            state,
            limits,
            self.options,
            self.table,
            evaluation=self.evaluation,
            endgame=probe,
            endgame_tables=packed,
        ):
            self.last = self._told(result)
            yield self.last

    def _told(self, result: SearchResult[Any]) -> SearchResult[Any]:
        """``result`` with the endgame files left out since the last result that told of them
        in its note (one line: the first, and how many more), so that a front end shows them
        while the engine plays on without them."""
        if self.endgames is None or len(self.endgames.problems) <= self.endgame_problems_told:
            return result
        fresh = self.endgames.problems[self.endgame_problems_told :]
        self.endgame_problems_told = len(self.endgames.problems)
        more = f" (and {len(fresh) - 1:,} more)" if len(fresh) > 1 else ""
        told = f"endgame table left out: {fresh[0]}{more}"
        return replace(result, note=told if result.note is None else f"{result.note}; {told}")

    def compiled(self, game: Game[Any, Any]) -> bool:
        """Whether the agent's searches of ``game`` run compiled (:mod:`plies.native`)."""
        searched = game if self.evaluated is None else self.evaluated
        return self.evaluation is None and compiled_engine(searched, self.options) is not None

    def reset(self, seed: int | None = None) -> None:
        """Forget the table and the clock (nothing is random)."""
        self.table, self.last, self.move_seconds = None, None, None


def endgame_answer(
    endgames: Endgames, game: Game[Any, Any], state: Any
) -> SearchResult[Any] | None:
    """The databases' move and value for ``state`` as a search's result (no node searched),
    or None where they do not hold it. Their move is played even where a win or loss is
    longer than the game's draw count allows (the quickest win, the longest defence: the best
    chances a counted draw leaves); the result is then not called solved, and its note says
    why."""
    began = time.perf_counter()
    known = endgames.probe(state)
    moves = [] if known is None else endgames.best_moves(state)
    if known is None or not moves:
        return None
    outcome, distance = known
    trusted = endgames.trusted(state) is not None
    mover = game.to_move(state)
    score = endgame_score(outcome, distance, 0)
    winner = None if outcome == DRAW else mover if outcome == WIN else game.opponent(mover)
    note = f"endgame databases: {OUTCOME_NAMES[outcome]} {plies_text(distance)}".rstrip()
    return SearchResult(
        value=game.scoring.utility(winner, mover) if isinstance(game, WinLossDrawGame) else score,
        action=moves[0],
        pv=(moves[0],),
        stats=SearchStats(time=time.perf_counter() - began),
        algorithm="endgame databases",
        max_player=mover,
        depth=0 if distance == NO_DISTANCE else distance,
        score=score,
        solved=trusted,
        note=note if trusted else f"{note}, longer than the draw count allows",
    )


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
        try:
            decision = solver.decide(state, keep_table=True, nodes=self.nodes, seconds=budget)
        except BudgetExhaustedError:
            return self._engine_move(game, state, watch, began)
        self.decision = decision
        action = solver.preferred(decision.moves)
        value = (decision.score > 0) - (decision.score < 0)
        self.last = SearchResult(
            value=value,
            action=action,
            pv=(action,),
            stats=SearchStats(nodes=decision.nodes, time=decision.time),
            algorithm="perfect",
            max_player=game.to_move(state),
            solver_score=decision.score,
            solved=True,
            note=(
                f"{'from the opening book' if decision.from_book else 'solved'}: score "
                f"{decision.score}, {solver.meaning(decision.score)}"
            ),
        )
        return action

    def _engine_move(self, game: Game[Any, Any], state: Any, watch: Watch, began: float) -> Any:
        """The fallback engine's move, when the solver did not decide within the budget."""
        waited = time.perf_counter() - began
        action = self.fallback.think(game, state, Watch(stop=watch.stop))
        assert self.fallback.last is not None
        note = (
            f"not solved within the budget ({waited:.2f} s): the engine's move, "
            f"depth {self.fallback.last.depth}"
        )
        self.last = replace(self.fallback.last, note=note)
        return action

    def reset(self, seed: int | None = None) -> None:
        """Empty the solver's table (a private one: a shared pool's tables hold what is proven
        for everyone) and the fallback engine's, forget any clock (nothing is random)."""
        if not self.solvers.shared:
            self.solvers.reset()
        self.fallback.reset()
        self.last, self.decision, self.seconds = None, None, self.spec_seconds


WATCH_EVERY = 50
"""MCTS iterations between two reports of a watched search, and two looks at its stop flag
(a second at most in chess, whose playouts are the slowest)."""


@dataclass
class MCTSAgent:
    """Plays the move Monte Carlo tree search chooses; the tree carries over between moves."""

    mcts: MCTS[Any, Any]
    iterations: int | None
    seconds: float | None
    name: str = "mcts"
    resign: float = 0.0
    """Resign (raise :class:`~plies.errors.Resigns`) when the search gives the mover a chance
    of winning below this (0: never)."""
    last: SearchResult[Any] | None = field(default=None, repr=False)
    move_seconds: float | None = field(default=None, repr=False)
    """The next move's time from a clock (:meth:`set_clock`), instead of the spec's."""

    def set_clock(self, remaining: float, increment: float) -> None:
        """Budget the next move from this clock (:func:`plies.clock.move_budget`); an
        iteration limit still applies."""
        self.move_seconds = max(MIN_MOVE_SECONDS, move_budget(remaining, increment))

    def __call__(self, game: Game[Any, Any], state: Any) -> Any:
        return self.think(game, state, Watch())

    def think(self, game: Game[Any, Any], state: Any, watch: Watch) -> Any:
        """The move, the search reported every :data:`WATCH_EVERY` iterations and stopped
        between them once ``watch.stop`` is set; the last result carries the tree's first
        levels (:meth:`~plies.search.mcts.MCTS.visit_tree`)."""
        seconds = self.seconds if self.move_seconds is None else self.move_seconds
        searches = self.mcts.iterate(
            state, iterations=self.iterations, seconds=seconds, every=WATCH_EVERY
        )
        for result in searches:
            self.last = result
            if watch.stop.is_set():
                searches.close()
                break
            watch.report(result)
        assert self.last is not None
        self.last = replace(self.last, tree=self.mcts.visit_tree())
        watch.report(self.last)
        chance = winning_chance(game, self.last) if self.resign else None
        if chance is not None and chance < self.resign:
            raise Resigns(f"{self.name} resigns: it gives itself a {chance:.0%} chance")
        return self.last.action

    def reset(self, seed: int | None = None) -> None:
        """Forget the tree; a seed restarts the search as a new one with that seed."""
        if seed is None:
            self.mcts.forget()
        else:
            self.mcts.restart(seed)
        self.last, self.move_seconds = None, None


# Factories ------------------------------------------------------------------------------------


def _random(game: Game[Any, Any], values: Mapping[str, Any], context: Context) -> Agent:
    return RandomAgent(random.Random(context.seed))


def _human(game: Game[Any, Any], values: Mapping[str, Any], context: Context) -> Agent:
    if context.ask is None:
        raise SpecError("human: nobody to ask here (a match is played by programs)")
    return HumanAgent(context.ask)


def _textbook(algorithm: str, two_player: bool) -> Any:
    def factory(game: Game[Any, Any], values: Mapping[str, Any], context: Context) -> Agent:
        if two_player:
            require_two_player_zero_sum(game, algorithm)
        depth = values["depth"]
        if depth is not None:
            require(game, HasEvaluation, f"{algorithm} with a depth limit")
        elif not game.searchable_to_end:
            raise UnsupportedGameError(
                f"{algorithm} without a depth searches to the end of the game, which no search "
                f"of {game.name!r} can reach: give {algorithm}:depth=N (EVAL below it) or use "
                "engine:time=S"
            )
        options = {"strict": values["strict"]} if "strict" in values else {}
        return SearchAgent(algorithm, depth, options, name=context.name)

    return factory


def _expectiminimax(game: Game[Any, Any], values: Mapping[str, Any], context: Context) -> Agent:
    require_two_player_zero_sum(game, "expectiminimax", chance=True)
    require(game, HasEvaluation, "expectiminimax with a depth limit")
    if values["prune"]:
        require(game, HasValueBounds, "expectiminimax with pruning")
    options = {"prune": values["prune"]}
    return SearchAgent("expectiminimax", values["depth"], options, name=context.name)


def own_mcts_options(game: Game[Any, Any]) -> tuple[Option, ...]:
    """The settings of ``game``'s own compiled tree (:class:`HasOwnMcts`: playout rules,
    priors), which ``mcts`` offers for it alone."""
    return tuple(game.mcts_options()) if isinstance(game, HasOwnMcts) else ()


def _mcts(game: Game[Any, Any], values: Mapping[str, Any], context: Context) -> Agent:
    return mcts_agent(game, values, context)


def mcts_agent(
    game: Game[Any, Any],
    values: Mapping[str, Any],
    context: Context,
    learned: LearnedPrior | None = None,
) -> Agent:
    """The ``mcts`` agent of the option ``values`` (:data:`MCTS_OPTIONS`), its compiled tree
    given the ``learned`` prior if any (the ``alphago`` agent's network)."""
    iterations, seconds = values["iterations"], values["time"]
    if iterations is None and seconds is None:
        seconds = 1.0
    leaf = heuristic_evaluator(game) if values["evaluator"] == "eval" else None
    if values["selection"] == "puct":
        return _puct(game, values, context, leaf or default_evaluator(game), (iterations, seconds))
    mcts = MCTS(
        game,
        c=values["c"],
        evaluator=leaf,
        seed=context.seed,
        solver=values["solver"],
        native=values["native"],
        rave=values["rave"],
        knowledge={
            option.key: values[option.key]
            for option in own_mcts_options(game)
            if values[option.key] is not None
        },
        learned=learned,
    )
    return MCTSAgent(mcts, iterations, seconds, name=context.name, resign=values["resign"])


def _puct(
    game: Game[Any, Any],
    values: Mapping[str, Any],
    context: Context,
    leaf: LeafEvaluator,
    limits: tuple[int | None, float | None],
) -> Agent:
    """``mcts:selection=puct``: the PUCT of ``az`` with uniform priors and ``leaf``'s values,
    ``c`` as c_puct (:data:`~plies.search.puct.DEFAULT_C_PUCT` by default); no solver, no
    RAVE, and nothing compiled."""
    if len(game.players) != 2 or not game.zero_sum or has_chance(game):
        raise UnsupportedGameError(
            "mcts:selection=puct searches two-player zero-sum games without chance, not "
            f"{game.name!r}: use selection=ucb1"
        )
    if values["rave"]:
        raise SpecError("mcts: rave needs selection=ucb1 (PUCT keeps no AMAF statistics)")
    c = DEFAULT_C_PUCT if values["c"] is None else values["c"]
    if not 0 < c <= 100:
        raise SpecError(f"mcts: with selection=puct, c is c_puct, above 0 and at most 100: {c}")
    return PUCTAgent(
        UniformPriorEvaluator(game, leaf, context.seed),
        PUCTConfig(c_puct=c),
        name=context.name,
        algorithm="mcts",
        simulations=limits[0],
        seconds=limits[1],
        seed=context.seed,
    )


ENGINE_SWITCHES = {
    "pvs": "pvs",
    "aspiration": "aspiration",
    "ordering": "ordering",
    "quiescence": "quiescence",
    "captures": "captures",
    "checks": "check_extension",
    "nullmove": "null_move",
    "lmr": "reductions",
    "repetition": "repetition",
    "deeper": "deeper_cutoffs",
    "futility": "futility",
    "see": "exchange",
    "native": "native",
}
"""The engine's switches: spec option -> :class:`EngineOptions` field."""
ENGINE_DEFAULTS = {option.name: option.default for option in fields(EngineOptions)}
ENGINE_DEFAULT_VALUES = {key: ENGINE_DEFAULTS[field] for key, field in ENGINE_SWITCHES.items()}
"""The engine's switches at their defaults, by spec option."""


def _engine(game: Game[Any, Any], values: Mapping[str, Any], context: Context) -> Agent:
    agent = engine_agent(game, values, context.name)
    require(game, HasEvaluation, "the engine")
    evaluated = None if values["weights"] is None else load_weights(game, values["weights"])
    agent.evaluated = evaluated
    prepare(evaluated or game, agent.options)  # now, not on the clock of the first move
    if agent.endgames is not None and agent.compiled(game):
        agent.endgames.compiled()  # the tables packed now, not on the clock either
    return agent


def engine_agent(
    game: Game[Any, Any],
    values: Mapping[str, Any],
    name: str,
    evaluation: Evaluation | None = None,
) -> EngineAgent:
    """The engine of the spec's ``values`` (the :data:`ENGINE_SEARCH_OPTIONS`; ``native`` is
    off where absent), 1 s a move when no limit is given, with ``evaluation`` as its EVAL."""
    require_two_player_zero_sum(game, "the engine")
    depth, nodes, seconds = values["depth"], values["nodes"], values["time"]
    if depth is None and nodes is None and seconds is None:
        seconds = 1.0
    switches = {field: values.get(key, False) for key, field in ENGINE_SWITCHES.items()}
    settings = EngineOptions(tt_mb=values["tt"], **switches)
    limits = Limits(depth=depth, nodes=nodes, seconds=seconds)
    agent = EngineAgent(limits, settings, name, evaluation=evaluation)
    if values.get("endgames", False) and isinstance(game, HasPositionClasses):
        agent.endgames = endgames_for(game)
    return agent


WEIGHTS_FORMAT = "plies-weights-1"
"""The ``format`` of a weights file (``plies learn tune`` writes them)."""


def load_weights(game: Game[Any, Any], path: str) -> Game[Any, Any]:
    """``game`` evaluating with the weights of the file ``path`` (written by ``plies learn
    tune``); a :class:`SpecError` naming what is wrong with the file."""
    linear = require(game, HasLinearEvaluation, "weights=")
    try:
        record = json.loads(read_text(path, "weights file"))
        weights = record["weights"]
        if record.get("format") != WEIGHTS_FORMAT:
            raise ValueError(f"format {record.get('format')!r} is not {WEIGHTS_FORMAT}")
        if record.get("game") != game_identity(game):
            raise ValueError(f"weights of {record.get('game')!r}, not of {game_identity(game)}")
        expected = len(linear.evaluation_weights())
        if len(weights) != expected:
            raise ValueError(f"{len(weights)} weights, {game_identity(game)} has {expected}")
        if not all(isinstance(w, int | float) and math.isfinite(w) for w in weights):
            raise ValueError("a weight is not a finite number")
    except (ValueError, KeyError, TypeError) as error:
        raise SpecError(f"engine: weights file {path!r}: {error}") from None
    evaluated: Game[Any, Any] = linear.with_evaluation_weights(weights, path)
    return evaluated


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


def _switch(key: str, help: str) -> Option:
    return Option(key, "flag", help, ENGINE_DEFAULTS[ENGINE_SWITCHES[key]])


register(AgentKind("random", "a uniformly random legal move", (), _random))
register(
    AgentKind(
        "minimax",
        "MINIMAX-SEARCH to the end, or to a depth with EVAL",
        (DEPTH_OPTION,),
        _textbook("minimax", True),
    )
)
register(
    AgentKind(
        "alphabeta",
        "ALPHA-BETA-SEARCH to the end, or to a depth with EVAL",
        (DEPTH_OPTION, Option("strict", "flag", "prune only on v > beta / v < alpha", False)),
        _textbook("alphabeta", True),
    )
)
register(
    AgentKind(
        "expectiminimax",
        "EXPECTIMINIMAX for games with chance",
        (
            Option("depth", "int", "moves searched (chance layers do not count)", 1, DEPTH),
            Option("prune", "flag", "Star1 pruning with the game's value bounds", False),
        ),
        _expectiminimax,
    )
)
MCTS_OPTIONS = (
    Option("iterations", "int", "iterations a move", None, ITERATIONS),
    TIME_OPTION,
    Option(
        "c",
        "number",
        f"the exploration constant ({DEFAULT_C:.3g}; {DEFAULT_RAVE_C:g} with RAVE;"
        f" c_puct {DEFAULT_C_PUCT:g} with PUCT)",
        None,
        EXPLORATION,
    ),
    Option("evaluator", "choice", "leaf estimates", "playout", choices=("playout", "eval")),
    Option(
        "selection",
        "choice",
        "UCB1, or the PUCT of az with uniform priors",
        "ucb1",
        choices=SELECTIONS,
    ),
    Option("solver", "flag", "MCTS-Solver (UCB1) in two-player games without chance", True),
    Option("native", "flag", "compiled where the game has it (UCB1 with playouts)", True),
    Option(
        "rave",
        "number",
        f"RAVE's equivalence visits, 0 off ({DEFAULT_RAVE:g} by default where the compiled"
        " tree keeps AMAF statistics)",
        None,
        RAVE_VISITS,
    ),
    Option(
        "resign",
        "number",
        "resign below this chance of winning (0: never; UCB1 on win/loss/draw games)",
        0.0,
        RESIGN_BELOW,
    ),
)
"""The ``mcts`` agent's options (``alphago`` adds its network's); a game with a compiled tree of
its own adds that tree's settings (:func:`own_mcts_options`)."""


register(
    AgentKind(
        "mcts",
        "Monte Carlo tree search (UCT), its tree reused between moves (1 s a move by default)",
        MCTS_OPTIONS,
        _mcts,
        game_options=own_mcts_options,
    )
)
register(
    AgentKind("maxn", "max^n, for any number of players", (DEPTH_OPTION,), _textbook("maxn", False))
)
register(
    AgentKind(
        "paranoid",
        "the mover against all the others, by alpha-beta",
        (DEPTH_OPTION,),
        _textbook("paranoid", False),
    )
)
ENGINE_SEARCH_OPTIONS = (
    Option("depth", "int", "the depth to search to", None, DEPTH),
    Option("nodes", "int", "nodes a move", None, NODES),
    TIME_OPTION,
    Option("tt", "number", "table size in MB (0: none)", EngineOptions.tt_mb, TABLE_MB),
    _switch("pvs", "principal variation search"),
    _switch("aspiration", "aspiration windows at the root"),
    _switch("ordering", "table move, captures, killers and history first"),
    _switch("quiescence", "search noisy moves past the horizon"),
    _switch("captures", "chess: quiescence generates captures only"),
    _switch("checks", "chess: check extension"),
    _switch("nullmove", "chess: null-move pruning"),
    _switch("lmr", "chess: late-move reductions"),
    _switch("repetition", "chess: repetitions are draws in the search"),
    _switch("deeper", "table entries searched deeper end a search too"),
    _switch("futility", "chess: reverse futility pruning"),
    _switch("see", "chess: quiescence skips captures that lose by exchange"),
    Option(
        "endgames",
        "flag",
        "checkers: endgame databases answer the positions they hold, at the root and in the search",
        True,
    ),
)
"""The engine's limits, table and search switches: what any engine-like kind offers."""
register(
    AgentKind(
        "engine",
        "the engine: iterative deepening alpha-beta with a table (1 s a move by default)",
        (
            *ENGINE_SEARCH_OPTIONS,
            _switch("native", "the compiled engine where the game has one (same moves)"),
            Option("weights", "text", "EVAL's weights: a file of plies learn tune", None),
        ),
        _engine,
    )
)
register(
    AgentKind(
        "perfect",
        "the game's perfect solver (connect4) within a budget, else the engine",
        (
            TIME_OPTION,
            Option("nodes", "int", "the solver's budget in positions", None, NODES),
            Option("depth", "int", "the fallback engine's depth", None, DEPTH),
        ),
        _perfect,
    )
)
register(AgentKind("human", "a person, asked by the front end", (), _human, person=True))
