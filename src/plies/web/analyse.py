"""Routes of the Analyse page: any game's position analysed by what its game has
(``/analyse``: a perfect solver's exact score of every move, else the engine's iterative
deepening on the game's evaluation, chosen by capability in :func:`analyser_of`), and the
first pages' two: the exact score of every column of the solved game (``/analyse/solved``:
Connect Four, Pons's solver) and the engine's evaluation and line of a FEN
(``/analyse/evaluated``: chess), each within a time budget.

The two first routes name no game either: each serves the first registered game with the
capabilities it needs (:func:`solved_game`: a perfect solver and a position notation, which
Connect Four has; :func:`evaluated_game`: scores in centipawns, which chess has), built once.

Every route answers the board to draw (:func:`plies.web.boards.board_view`) and its legal
moves (:func:`plies.web.boards.move_paths`), so the page can play on from the analysed
position."""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from functools import cache
from typing import Any

from fastapi import APIRouter, Request
from pydantic import BaseModel, Field
from starlette.concurrency import run_in_threadpool

from plies.capabilities import (
    HasCentipawns,
    HasChance,
    HasEvaluation,
    HasInformationSets,
    HasPerfectSolver,
    HasPositionNotation,
)
from plies.errors import SpecError, UnsupportedGameError
from plies.game import Game
from plies.perfect import PerfectSolver
from plies.play import line_notation
from plies.registry import make_game, registered_games
from plies.search import Limits, SearchResult, iterate
from plies.solvers import MoveScores, score_moves
from plies.web.boards import board_view, move_paths
from plies.web.sessions import GAME_SPEC, Sessions, sessions_of

router = APIRouter(tags=["analyse"])

CONNECT4_SECONDS = 5.0
"""The Connect Four solver's time unless the request says otherwise."""
CONNECT4_MAX_SECONDS = 60.0
CHESS_SECONDS = 3.0
"""The chess engine's time unless the request says otherwise."""
CHESS_MAX_SECONDS = 30.0


def _first_game(what: str, has: Callable[[Game[Any, Any]], bool]) -> Any:
    """The first registered game (in the registry's order) that ``has`` accepts."""
    for name in registered_games():
        game = make_game(name)
        if has(game):
            return game
    raise UnsupportedGameError(f"no registered game has {what}")


@cache
def solved_game() -> Any:
    """The game of the solver's analysis: the first registered game with a perfect solver and
    a position notation (Connect Four: Pons's solver, positions as the columns played)."""
    return _first_game(
        "a perfect solver",
        lambda game: isinstance(game, HasPerfectSolver) and isinstance(game, HasPositionNotation),
    )


@cache
def evaluated_game() -> Any:
    """The game of the engine's analysis: the first registered game whose scores read as
    centipawns, with a position notation (chess: FEN)."""
    return _first_game(
        "scores in centipawns",
        lambda game: isinstance(game, HasCentipawns) and isinstance(game, HasPositionNotation),
    )


# Connect Four ------------------------------------------------------------------------------


class Connect4Request(BaseModel):
    """A Connect Four position to solve."""

    position: str = Field(
        "",
        max_length=100,
        description="the columns played from the empty 7x6 grid, 1-based, as Pons's solver "
        "reads them (4453); empty for the empty grid",
    )
    seconds: float = Field(
        CONNECT4_SECONDS,
        gt=0,
        le=CONNECT4_MAX_SECONDS,
        allow_inf_nan=False,
        description="the solver's time budget; early positions (few stones) need long",
    )
    solve: bool = Field(True, description="false: only the board and its legal moves")


class ColumnScore(BaseModel):
    """One column of the grid, for the side to move."""

    column: str = Field(description="1 to 7, from the left")
    playable: bool = Field(description="false for a full column")
    score: int | None = Field(
        description="Pons's score of playing there, for the side to move (positive: it wins, "
        "the sooner the higher; 0: a draw); null for a full column or one not solved in time"
    )
    meaning: str | None = Field(description="the score in words")
    best: bool = Field(description="whether the column keeps the position's score")


class Connect4Analysis(BaseModel):
    """A solved Connect Four position: its score, and every column's."""

    position: str = Field(description="the position as given")
    stones: int
    to_move: str | None = Field(description="X or O; null when the game is over")
    over: bool
    status: str = Field(description="who moves, or how the game ended")
    solved: bool = Field(description="whether the position's score and best columns are known")
    complete: bool = Field(description="whether every playable column was scored")
    message: str | None = Field(description="what was not solved in time, and what to do")
    score: int | None = Field(description="the position's score for the side to move (Pons's)")
    meaning: str | None = Field(description="the score in words")
    best: list[str] = Field(description="the columns that keep the score")
    columns: list[ColumnScore] = Field(description="columns 1 to 7, from the left")
    nodes: int = Field(description="positions the solver explored")
    seconds: float = Field(description="time the analysis took")
    view: dict[str, Any] = Field(description="the board to draw (plies.web.boards.board_view)")
    moves: list[dict[str, Any]] = Field(
        description="the legal moves and their clicks (plies.web.boards.move_paths)"
    )


def _check_seconds(seconds: float, store: Sessions) -> None:
    if seconds > store.budgets.analysis_seconds:
        raise SpecError(
            f"seconds={seconds:g}: an analysis may take {store.budgets.analysis_seconds:g} s at "
            "most on this server (plies serve --analysis-seconds)"
        )


@router.post(
    "/analyse/solved",
    response_model=Connect4Analysis,
    summary="Solve a Connect Four position: its score and every column's",
)
async def analyse_connect4(body: Connect4Request, request: Request) -> Connect4Analysis:
    """Pascal Pons's perfect solver: the position's score for the side to move, the columns
    that keep it, and every column's exact score, within ``seconds``. Scores count from the
    end: a win scores 22 minus the winner's stones when it wins (a win with the 4th stone is
    18), a loss the negative, a draw 0. When time runs out the answer says what was solved
    (``solved``, ``complete``) and why not the rest (``message``); a position that cannot
    arise is a 400. With ``solve`` false, only the board and its legal moves. The solving waits
    for a free thinker; when too many analyses wait, the answer is 503 busy."""
    store = sessions_of(request)  # its thinkers and solvers serve the analyses too
    _check_seconds(body.seconds, store)
    if body.solve:
        store.workload.check_room(store.budgets.waiting_analyses)
    return await run_in_threadpool(_analyse_connect4, body, store)


def _analyse_connect4(body: Connect4Request, store: Sessions) -> Connect4Analysis:
    began = time.perf_counter()
    text = body.position.strip()
    game = solved_game()
    state = game.parse_position(text)
    view = board_view(game, state, int(text[-1]) - 1 if text else None)
    answer = Connect4Analysis(
        position=text,
        stones=state.moves,
        to_move=view["to_move"],
        over=view["over"],
        status=view["status"],
        solved=False,
        complete=False,
        message=None,
        score=None,
        meaning=None,
        best=[],
        columns=[],
        nodes=0,
        seconds=0.0,
        view=view,
        moves=move_paths(game, state),
    )
    if body.solve and not answer.over:
        solvers = store.shared.solver_pool(game)
        assert solvers is not None, "Connect Four has a perfect solver"
        with (
            store.workload.slot(most_waiting=store.budgets.waiting_analyses),
            solvers.lend(body.seconds) as solver,
        ):
            _solve_columns(solver, state, body.seconds, began, answer)
    answer.seconds = round(time.perf_counter() - began, 3)
    return answer


def _solve_columns(
    solver: PerfectSolver, state: Any, budget: float, began: float, answer: Connect4Analysis
) -> None:
    """Fill ``answer`` with the position's score, its best columns and every column's score
    solved within ``budget`` seconds from ``began`` (:func:`plies.solvers.score_moves`)."""
    left = max(began + budget - time.perf_counter(), 1e-3)
    game = solved_game()
    found: MoveScores = score_moves(game, solver, state, left)
    answer.nodes, answer.complete, answer.score = found.nodes, found.complete, found.score
    answer.solved = found.score is not None
    answer.meaning = None if found.score is None else solver.meaning(found.score)
    answer.message = _unsolved(
        found, budget, CONNECT4_MAX_SECONDS, "column", "a position with more stones"
    )
    answer.best = [str(column + 1) for column in found.best]
    playable = set(game.actions(state))
    answer.columns = [
        ColumnScore(
            column=label,
            playable=column in playable,
            score=found.scores.get(column),
            meaning=None if column not in found.scores else solver.meaning(found.scores[column]),
            best=column in found.best,
        )
        for column, label in enumerate(solver.slot_labels())
    ]


def _unsolved(found: MoveScores, budget: float, most: float, each: str, easier: str) -> str | None:
    """What a solver's analysis left unsolved within ``budget`` seconds and what to do (give
    up to ``most`` seconds, or try ``easier``); None when every ``each`` was scored."""
    if found.complete:
        return None
    longer = f"a longer time (up to {most:g} s)"
    if found.score is not None:
        return f"not every {each} solved within {budget:g} s: give {longer} for the others"
    return f"not solved within {budget:g} s: try {easier}, or {longer}"


# Chess -------------------------------------------------------------------------------------


class ChessRequest(BaseModel):
    """A chess position to evaluate."""

    fen: str = Field("startpos", max_length=200, description="a FEN, or startpos")
    move: str | None = Field(
        None,
        max_length=12,
        description="a move to play first, in SAN (Nf3) or UCI (g1f3): the analysis is then "
        "of the position after it",
    )
    seconds: float = Field(
        CHESS_SECONDS,
        gt=0,
        le=CHESS_MAX_SECONDS,
        allow_inf_nan=False,
        description="the engine's time",
    )


class ChessScore(BaseModel):
    """An evaluation from one side's point of view."""

    pawns: float | None = Field(description="the advantage in pawns; null with a forced mate")
    mate: int | None = Field(
        description="moves to a forced mate: positive when this side mates, negative when it "
        "is mated; null without one"
    )
    text: str = Field(description="+0.35, mate in 3 or mated in 2")


class ChessIteration(BaseModel):
    """One iteration of the engine's iterative deepening."""

    depth: int = Field(description="the iteration's depth (the one cut short, if it was)")
    score: ChessScore = Field(description="from the side to move's point of view")
    pv: list[str] = Field(description="the principal variation in SAN")
    nodes: int
    seconds: float
    complete: bool = Field(description="false when the time cut the iteration short")


class ChessAnalysis(BaseModel):
    """The engine's evaluation and principal variation of a chess position."""

    fen: str = Field(description="the position analysed (after the move, if one was given)")
    to_move: str | None = Field(description="White or Black; null when the game is over")
    over: bool
    status: str = Field(description="who moves, or how the game ended")
    depth: int | None = Field(description="the deepest iteration completed")
    seldepth: int | None = Field(description="the deepest ply reached (quiescence included)")
    score: ChessScore | None = Field(description="from the side to move's point of view")
    white: ChessScore | None = Field(description="the same score from White's point of view")
    best: str | None = Field(description="the best move found, in SAN")
    pv: list[str] = Field(description="the principal variation in SAN")
    line: str = Field(description="the principal variation with move numbers (1. e4 e5)")
    nodes: int
    nps: int = Field(description="nodes per second")
    seconds: float = Field(description="time the search took")
    iterations: list[ChessIteration]
    view: dict[str, Any] = Field(description="the board to draw (plies.web.boards.board_view)")
    moves: list[dict[str, Any]] = Field(
        description="the legal moves and their clicks (plies.web.boards.move_paths)"
    )


@router.post(
    "/analyse/evaluated",
    response_model=ChessAnalysis,
    summary="Evaluate a FEN position with the engine, in pawns",
)
async def analyse_chess(body: ChessRequest, request: Request) -> ChessAnalysis:
    """The plies engine (iterative deepening alpha-beta with PeSTO's evaluation) searches the
    position, after ``move`` when one is given, for ``seconds``: the depth reached, the score
    (pawns, or moves to mate) for the side to move and for White, the principal variation,
    nodes and nodes per second, and each iteration. A bad FEN or an illegal move is a 400
    naming the problem; a finished game is answered without a search. The search waits for
    a free thinker; when too many analyses wait, the answer is 503 busy."""
    store = sessions_of(request)  # its thinkers and solvers serve the analyses too
    _check_seconds(body.seconds, store)
    store.workload.check_room(store.budgets.waiting_analyses)
    return await run_in_threadpool(_analyse_chess, body, store)


def _analyse_chess(body: ChessRequest, store: Sessions) -> ChessAnalysis:
    game = evaluated_game()
    state = game.parse_position(body.fen)
    last = None
    if body.move is not None:
        last = game.parse_action(state, body.move)
        state = game.result(state, last)
    view = board_view(game, state, last)
    answer = ChessAnalysis(
        fen=game.format_position(state),
        to_move=view["to_move"],
        over=view["over"],
        status=view["status"],
        depth=None,
        seldepth=None,
        score=None,
        white=None,
        best=None,
        pv=[],
        line="",
        nodes=0,
        nps=0,
        seconds=0.0,
        iterations=[],
        view=view,
        moves=move_paths(game, state),
    )
    if not answer.over:
        with store.workload.slot(most_waiting=store.budgets.waiting_analyses):
            reports = list(iterate(game, state, Limits(seconds=body.seconds)))
        _report(answer, state, reports)
    return answer


def _report(answer: ChessAnalysis, state: Any, reports: list[SearchResult[Any]]) -> None:
    """Fill ``answer`` from the engine's iterations (the last is the search's result)."""
    game = evaluated_game()
    final = reports[-1]
    pv = list(final.pv)
    answer.iterations = [
        ChessIteration(score=_score(report), **_iteration(game, state, report))
        for report in reports
    ]
    answer.depth = final.depth
    answer.seldepth = final.stats.max_depth
    answer.score = _score(final)
    white = game.to_move(state) == game.players[0]
    answer.white = answer.score if white else _negated(answer.score)
    answer.pv = line_notation(game, state, final.pv)
    answer.best = answer.pv[0] if answer.pv else None
    answer.line = state.board.variation_san(pv[: len(answer.pv)])
    answer.nodes = final.stats.nodes
    answer.nps = round(final.nps)
    answer.seconds = round(final.stats.time, 3)


def _iteration(game: Any, state: Any, report: SearchResult[Any]) -> dict[str, Any]:
    """What a page shows of one iteration of the engine, but its score: the depth (the one
    cut short, if it was), the line in the game's notation, nodes, seconds, whether whole."""
    return {
        "depth": (report.depth or 0) + (not report.complete),
        "pv": line_notation(game, state, report.pv),
        "nodes": report.stats.nodes,
        "seconds": round(report.stats.time, 3),
        "complete": report.complete,
    }


def _score(report: SearchResult[Any]) -> ChessScore:
    """The engine's score of ``report`` for the side to move."""
    moves = report.mate_moves
    if moves is not None:
        return ChessScore(pawns=None, mate=moves, text=_mate_text(moves))
    assert report.score is not None and math.isfinite(report.score)
    pawns = evaluated_game().score_centipawns(report.score) / 100
    return ChessScore(pawns=pawns, mate=None, text=f"{pawns:+.2f}")


def _negated(score: ChessScore) -> ChessScore:
    """The same score from the other side's point of view."""
    if score.mate is not None:
        return ChessScore(pawns=None, mate=-score.mate, text=_mate_text(-score.mate))
    pawns = 0.0 - (score.pawns or 0.0)  # never -0.0
    return ChessScore(pawns=pawns, mate=None, text=f"{pawns:+.2f}")


def _mate_text(moves: int) -> str:
    return f"mate in {moves}" if moves > 0 else f"mated in {-moves}"


# Any game ----------------------------------------------------------------------------------

ANY_SECONDS = 3.0
"""The analysis time of ``/analyse`` unless the request says otherwise."""
ANY_MAX_SECONDS = 60.0


class GameRequest(BaseModel):
    """A position of any game with a perfect solver or an evaluation."""

    game: str = Field(max_length=200, description=GAME_SPEC)
    position: str = Field(
        "",
        max_length=2000,
        description="the position in the game's notation (plies games GAME shows it); empty "
        "for the start",
    )
    move: str | None = Field(
        None,
        max_length=40,
        description="a move to play first, in the game's notation: the analysis is then of "
        "the position after it",
    )
    seconds: float = Field(
        ANY_SECONDS, gt=0, le=ANY_MAX_SECONDS, allow_inf_nan=False, description="the time"
    )
    analyse: bool = Field(True, description="false: only the board and its legal moves")


class MoveScore(BaseModel):
    """One legal move scored exactly by the game's perfect solver."""

    move: str = Field(description="the move in the game's notation")
    score: int | None = Field(description="its exact score for the side to move (the solver's)")
    meaning: str | None = Field(description="the score in words")
    best: bool = Field(description="whether the move keeps the position's score")


class EngineScore(BaseModel):
    """The engine's score for the side to move."""

    value: float | None = Field(description="the evaluation's value; null with a forced result")
    pawns: float | None = Field(description="the value in pawns, where the game counts them")
    forced: int | None = Field(
        description="plies to a forced win (positive) or loss (negative); null without one"
    )
    text: str = Field(description="+0.35, win in 5 plies, mate in 3")


class EngineIteration(BaseModel):
    """One iteration of the engine's iterative deepening."""

    depth: int = Field(description="the iteration's depth (the one cut short, if it was)")
    score: EngineScore
    pv: list[str] = Field(description="the principal variation in the game's notation")
    nodes: int
    seconds: float
    complete: bool = Field(description="false when the time cut the iteration short")


class GameAnalysis(BaseModel):
    """A position analysed by the strongest analyser its game has: the perfect solver (every
    move's exact score) or the engine (iterative deepening on the game's evaluation)."""

    game: str = Field(description="the game spec as given")
    position: str = Field(description="the position analysed, in the game's notation")
    to_move: str | None = Field(description="the side to move; null when the game is over")
    over: bool
    status: str = Field(description="who moves, or how the game ended")
    analyser: str = Field(description="solver (exact) or engine (a search's estimate)")
    view: dict[str, Any] = Field(description="the board to draw (plies.web.boards.board_view)")
    moves: list[dict[str, Any]] = Field(
        description="the legal moves and their clicks (plies.web.boards.move_paths)"
    )
    # what the analysis found (as below until it has run)
    message: str | None = Field(
        default=None, description="what was not finished in time, and what to do"
    )
    best: list[str] = Field(
        default_factory=list, description="the best moves found, in the game's notation"
    )
    nodes: int = Field(default=0, description="positions explored")
    seconds: float = Field(default=0.0, description="time the analysis took")
    complete: bool = Field(
        default=False, description="whether the analysis finished within its time"
    )
    # the solver's
    score: int | None = Field(
        default=None, description="solver: the position's exact score, side to move"
    )
    meaning: str | None = Field(default=None, description="solver: the score in words")
    scored: list[MoveScore] = Field(
        default_factory=list, description="solver: every legal move scored in time"
    )
    # the engine's
    evaluation: EngineScore | None = Field(
        default=None, description="engine: the score, side to move"
    )
    depth: int | None = Field(default=None, description="engine: the deepest iteration completed")
    pv: list[str] = Field(default_factory=list, description="engine: the principal variation")
    iterations: list[EngineIteration] = Field(
        default_factory=list, description="engine: each iteration"
    )


def analyser_of(game: Game[Any, Any], solvable: bool) -> str:
    """``solver`` or ``engine``: what analyses ``game``'s positions (its perfect solver where
    it has one within reach, ``solvable``, else the engine on its evaluation); an
    :class:`UnsupportedGameError` saying why neither can."""
    if isinstance(game, HasInformationSets):
        raise UnsupportedGameError(
            f"game {game.name!r} hides part of the game from each player: the analysers "
            "search the whole state, and cannot analyse it"
        )
    if not isinstance(game, HasPositionNotation):
        raise UnsupportedGameError(f"game {game.name!r} has no position notation to analyse")
    if solvable:
        return "solver"
    if isinstance(game, HasChance):
        raise UnsupportedGameError(
            f"game {game.name!r} has chance moves: the engine's alpha-beta cannot analyse it"
        )
    if not isinstance(game, HasEvaluation):
        raise UnsupportedGameError(
            f"game {game.name!r} has neither a perfect solver nor an evaluation to analyse with"
        )
    return "engine"


def listed_analyser(game: Game[Any, Any]) -> str | None:
    """What the games' list says analyses ``game`` (:func:`analyser_of`, taking a game with a
    perfect solver as solvable without building one), or None."""
    try:
        return analyser_of(game, isinstance(game, HasPerfectSolver))
    except UnsupportedGameError:
        return None


@router.post(
    "/analyse",
    response_model=GameAnalysis,
    summary="Analyse a position of any game with a perfect solver or an evaluation",
)
async def analyse_any(body: GameRequest, request: Request) -> GameAnalysis:
    """The position (after ``move``, when one is given) analysed for ``seconds`` by the
    strongest analyser its game has, chosen by capability: a perfect solver scores every move
    exactly (Connect Four), else the engine searches the game's evaluation (Othello, chess,
    checkers, Go...). A bad game, position or move is a 400 naming it, as is a game with
    neither. The work waits for a free thinker; when too many analyses wait, 503 busy."""
    store = sessions_of(request)
    _check_seconds(body.seconds, store)
    game = make_game(body.game)
    kind = analyser_of(game, store.shared.solver_pool(game) is not None)
    if body.analyse:
        store.workload.check_room(store.budgets.waiting_analyses)
    return await run_in_threadpool(_analyse_any, body, game, kind, store)


def _analyse_any(body: GameRequest, game: Any, kind: str, store: Sessions) -> GameAnalysis:
    began = time.perf_counter()
    state = game.parse_position(body.position) if body.position.strip() else game.initial_state()
    last = None
    if body.move is not None:
        last = game.parse_action(state, body.move)
        state = game.result(state, last)
    view = board_view(game, state, last)
    answer = GameAnalysis(
        game=body.game,
        position=game.format_position(state),
        to_move=view["to_move"],
        over=view["over"],
        status=view["status"],
        analyser=kind,
        view=view,
        moves=move_paths(game, state),
    )
    if kind == "solver" and not answer.over and not _solver_reaches(game, state, body, store):
        kind = answer.analyser = "engine"  # a solver that reaches only the end (Othello's)
    if body.analyse and not answer.over:
        with store.workload.slot(most_waiting=store.budgets.waiting_analyses):
            if kind == "solver":
                _solve_any(game, state, body.seconds, began, answer, store)
            else:
                reports = list(iterate(game, state, Limits(seconds=body.seconds)))
                _search_any(game, state, reports, answer)
    answer.seconds = round(time.perf_counter() - began, 3)
    return answer


def _solver_reaches(game: Any, state: Any, body: GameRequest, store: Sessions) -> bool:
    """Whether the game's solver may solve ``state`` within the request's seconds
    (:meth:`~plies.perfect.PerfectSolver.reaches`)."""
    solvers = store.shared.solver_pool(game)
    assert solvers is not None, "analyser_of found a perfect solver"
    with solvers.lend(body.seconds) as solver:
        return solver.reaches(state, body.seconds)


def _solve_any(
    game: Any, state: Any, budget: float, began: float, answer: GameAnalysis, store: Sessions
) -> None:
    """Fill ``answer`` with every move's exact score found within ``budget`` seconds."""
    solvers = store.shared.solver_pool(game)
    assert solvers is not None, "analyser_of found a perfect solver"
    with solvers.lend(budget) as solver:
        left = max(began + budget - time.perf_counter(), 1e-3)
        found: MoveScores = score_moves(game, solver, state, left)
        answer.nodes, answer.complete, answer.score = found.nodes, found.complete, found.score
        answer.meaning = None if found.score is None else solver.meaning(found.score)
        answer.best = [game.format_action(state, action) for action in found.best]
        answer.scored = [
            MoveScore(
                move=game.format_action(state, action),
                score=found.scores.get(action),
                meaning=None
                if action not in found.scores
                else solver.meaning(found.scores[action]),
                best=action in found.best,
            )
            for action in game.actions(state)
        ]
    answer.message = _unsolved(found, budget, ANY_MAX_SECONDS, "move", "a later position")


def _search_any(
    game: Any, state: Any, reports: list[SearchResult[Any]], answer: GameAnalysis
) -> None:
    """Fill ``answer`` from the engine's iterations (the last is the search's result)."""
    final = reports[-1]
    answer.iterations = [
        EngineIteration(score=_engine_score(game, report), **_iteration(game, state, report))
        for report in reports
    ]
    answer.complete = final.complete
    answer.depth = final.depth
    answer.evaluation = _engine_score(game, final)
    answer.pv = line_notation(game, state, final.pv)
    answer.best = answer.pv[:1]
    answer.nodes = final.stats.nodes


def _engine_score(game: Any, report: SearchResult[Any]) -> EngineScore:
    """The engine's score of ``report`` for the side to move, in pawns where the game counts
    them (chess: mate in N moves), else the evaluation's value (win in N plies)."""
    plies = report.mate
    if plies is not None:
        if isinstance(game, HasCentipawns):
            moves = report.mate_moves
            assert moves is not None
            return EngineScore(value=None, pawns=None, forced=plies, text=_mate_text(moves))
        won = "win" if plies > 0 else "loss"
        return EngineScore(
            value=None, pawns=None, forced=plies, text=f"{won} in {abs(plies)} plies"
        )
    assert report.score is not None and math.isfinite(report.score)
    if isinstance(game, HasCentipawns):
        pawns = game.score_centipawns(report.score) / 100
        return EngineScore(value=report.score, pawns=pawns, forced=None, text=f"{pawns:+.2f}")
    value = report.score + 0.0  # never -0.0
    return EngineScore(value=value, pawns=None, forced=None, text=f"{value:+.2f}")


def named_router() -> APIRouter:
    """The first two analyses under their games' names too (``/analyse/<name>``: the
    addresses of earlier releases, which scripts may use), each name that of the game its
    capability finds (:func:`solved_game`, :func:`evaluated_game`)."""
    named = APIRouter(tags=["analyse"])
    for game, endpoint, model in (
        (solved_game(), analyse_connect4, Connect4Analysis),
        (evaluated_game(), analyse_chess, ChessAnalysis),
    ):
        named.add_api_route(
            f"/analyse/{game.name}",
            endpoint,
            methods=["POST"],
            response_model=model,
            include_in_schema=False,
        )
    return named
