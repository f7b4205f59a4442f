"""The ``engine`` agent: the engine's iterative deepening (compiled where the game has it),
its table kept between moves, EVAL's weights from a file, endgame databases (registered by
:mod:`plies.agents.builtin`; ``perfect`` falls back on it, ``netengine`` builds on it)."""

from __future__ import annotations

import contextlib
import json
import math
import threading
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, fields, replace
from typing import Any

from plies.agents.chance_engine import chance_engine_agent
from plies.agents.live import Deepening
from plies.agents.options import TIME_OPTION
from plies.agents.registry import Agent, AgentKind, Context, Option
from plies.capabilities import (
    DRAW,
    WIN,
    HasChanceEngine,
    HasEndgameSolver,
    HasEvaluation,
    HasEvaluations,
    HasLinearEvaluation,
    HasPositionClasses,
    require,
)
from plies.clock import MIN_MOVE_SECONDS
from plies.errors import BudgetExhaustedError, SpecError
from plies.game import Game, WinLossDrawGame, has_chance, require_two_player_zero_sum
from plies.inputs import read_text
from plies.perfect import Decision, PerfectSolver
from plies.registry import game_identity
from plies.search import SearchResult, SearchStats
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
from plies.solvers.endgames import Endgames, endgames_for
from plies.solvers.retrograde import NO_DISTANCE, OUTCOME_NAMES, plies_text
from plies.spec import DEPTH, NODES, TABLE_MB


@dataclass
class EngineAgent(Deepening):
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
    exact: bool = field(default=False, repr=False)
    """Whether the game's endgame solver (:class:`~plies.capabilities.HasEndgameSolver`)
    plays a position it reaches within part of a move's time (:data:`EXACT_SHARE`) exactly,
    or keeping the win or draw it proves where the exact score is out of reach, before any
    search (the ``exact`` option)."""
    solver: PerfectSolver | None = field(default=None, repr=False)
    """That solver, made when first used and kept with its table for the game."""

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
        if self.exact and limits.seconds is not None and limits.depth is None:
            began = time.perf_counter()
            solved = self._solved(game, state, limits.seconds * EXACT_SHARE, stop)
            if solved is not None:
                self.last = solved
                yield solved
                return
            left = limits.seconds - (time.perf_counter() - began)
            limits = replace(limits, seconds=max(MIN_MOVE_SECONDS, left))
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

    def _solved(
        self, game: Game[Any, Any], state: Any, seconds: float, stop: threading.Event | None
    ) -> SearchResult[Any] | None:
        """The endgame solver's move where it decides ``state`` within ``seconds``, else
        None (out of its reach, not decided in time, or lost: the search then plays on).

        The win, draw or loss is decided first, with every move that keeps it (a draw is its
        exact score); a won position's exact score follows in the time left, the table kept,
        and where it does not finish in time the move keeps the win. A lost position is left
        to the search, with the time left. A win is so kept some moves before its exact score
        is in reach: a weak solve enters about a third of the positions."""
        if self.solver is None:
            self.solver = require(game, HasEndgameSolver, "exact").endgame_solver()
        solver = self.solver
        if not solver.reaches(state, seconds, weak=True):
            return None
        deadline = time.perf_counter() + seconds
        solver.stop = stop
        try:
            kept = solver.decide(state, keep_table=True, seconds=seconds, weak=True)
            if kept.weak and kept.score < 0:
                return None
            if kept.weak and (stop is None or not stop.is_set()):
                left = deadline - time.perf_counter()
                with contextlib.suppress(BudgetExhaustedError):
                    exact = solver.decide(state, keep_table=True, seconds=left)
                    nodes, spent = kept.nodes + exact.nodes, kept.time + exact.time
                    kept = replace(exact, nodes=nodes, time=spent)
        except BudgetExhaustedError:
            return None
        finally:
            solver.stop = None
        return solved_result(game, state, solver, kept)

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
        """Forget the tables and the clock (nothing is random)."""
        self.table, self.last, self.move_seconds, self.solver = None, None, None, None


def solved_result(
    game: Game[Any, Any], state: Any, solver: PerfectSolver, decision: Decision
) -> SearchResult[Any]:
    """A perfect solver's ``decision`` in ``state`` as a search's result: its preferred move
    among those that keep the score, the score's sign as the value, the score in the note
    (a weak decision's: the win or draw in words, no ``solver_score``)."""
    action = solver.preferred(decision.moves)
    return SearchResult(
        value=(decision.score > 0) - (decision.score < 0),
        action=action,
        pv=(action,),
        stats=SearchStats(nodes=decision.nodes, time=decision.time),
        algorithm="perfect",
        max_player=game.to_move(state),
        solver_score=None if decision.weak else decision.score,
        solved=True,
        note=(
            f"solved: {solver.meaning(decision.score, weak=True)}"
            if decision.weak
            else f"{'from the opening book' if decision.from_book else 'solved'}: score "
            f"{decision.score}, {solver.meaning(decision.score)}"
        ),
    )


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
    "probcut": "probcut",
    "native": "native",
}
"""The engine's switches: spec option -> :class:`EngineOptions` field."""
ENGINE_DEFAULTS = {option.name: option.default for option in fields(EngineOptions)}
ENGINE_DEFAULT_VALUES = {key: ENGINE_DEFAULTS[field] for key, field in ENGINE_SWITCHES.items()}
"""The engine's switches at their defaults, by spec option."""


def _engine(game: Game[Any, Any], values: Mapping[str, Any], context: Context) -> Agent:
    if has_chance(game) and isinstance(game, HasChanceEngine):
        return chance_engine_agent(
            chosen_evaluation(game, values["evaluation"]), values, context.name
        )
    agent = engine_agent(game, values, context.name)
    require(game, HasEvaluation, "the engine")
    chosen = chosen_evaluation(game, values["evaluation"])
    evaluated = chosen if values["weights"] is None else load_weights(chosen, values["weights"])
    agent.evaluated = None if evaluated is game else evaluated
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
    agent.exact = values.get("exact", False) and isinstance(game, HasEndgameSolver)
    return agent


EXACT_SHARE = 0.8
"""The part of a move's time the endgame solver may take (``exact``); the search has the rest,
and all of it when the solver cannot reach the position."""
WEIGHTS_FORMAT = "plies-weights-1"
"""The ``format`` of a weights file (``plies learn tune`` writes them)."""
WEIGHTS_BYTES = 64 << 20
"""The largest weights file read: Othello's pattern tables, named, take about 17 MB."""


def chosen_evaluation(game: Game[Any, Any], name: str | None) -> Game[Any, Any]:
    """``game`` evaluating with its evaluation ``name`` (``evaluation=``; None: its own)."""
    if name is None:
        return game
    choices = require(game, HasEvaluations, "evaluation=")
    if name not in choices.evaluations():
        raise SpecError(
            f"engine: {game.name} has no evaluation {name!r} (it has "
            f"{', '.join(choices.evaluations())})"
        )
    chosen: Game[Any, Any] = choices.with_evaluation(name)
    return chosen


def load_weights(game: Game[Any, Any], path: str) -> Game[Any, Any]:
    """``game`` evaluating with the weights of the file ``path`` (written by ``plies learn
    tune``); a :class:`SpecError` naming what is wrong with the file."""
    linear = require(game, HasLinearEvaluation, "weights=")
    try:
        record = json.loads(read_text(path, "weights file", WEIGHTS_BYTES))
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


def _switch(key: str, help: str) -> Option:
    return Option(key, "flag", help, ENGINE_DEFAULTS[ENGINE_SWITCHES[key]])


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
    _switch("probcut", "othello: ProbCut prunes where a half-depth search is far outside"),
    Option(
        "endgames",
        "flag",
        "checkers: endgame databases answer the positions they hold, at the root and in the search",
        True,
    ),
    Option(
        "exact",
        "flag",
        "othello: the endgame solver plays the end exactly, from as many empties as the move's "
        "time reaches (keeping a proved win or draw a few empties earlier)",
        True,
    ),
)
"""The engine's limits, table and search switches: what any engine-like kind offers."""


ENGINE_KIND = AgentKind(
    "engine",
    "the engine: iterative deepening alpha-beta with a table (1 s a move by default)",
    (
        *ENGINE_SEARCH_OPTIONS,
        _switch("native", "the compiled engine where the game has one (same moves)"),
        Option("weights", "text", "EVAL's weights: a file of plies learn tune", None),
        Option(
            "evaluation",
            "text",
            "EVAL, where the game has several (othello: patterns, hand; backgammon: learned, "
            "hand) [default: the game's]",
            None,
        ),
    ),
    _engine,
)
