"""A finished game reviewed: every move of each side judged by the strongest analyser its game
has, an evaluation over the game, marks for the moves that lost ground and a summary a player.

Each position of the game is analysed once, for the side to move: its **expected score**
(1 a win, 0.5 a draw, 0 a loss) with best play and the best move. The perfect solver's
answer is exact (the sign of its score); the engine's score becomes an expected score
through the game's scale: centipawns through the logistic curve lichess uses (win chance
``1 / (1 + exp(-0.00368208 cp))``, fitted on its players' games), any other evaluation, kept
inside (-1, 1) by the engine, as ``(1 + score) / 2``; a forced win or loss is 1 or 0.

A move's **loss** is what its player's expected score fell by: the expected score of the
best move (the position's) less that of the position the move made (the next position's,
from the mover's side; a finished game's from its utility). As on lichess, a loss of 0.05 or
more is an inaccuracy, 0.10 a mistake, 0.15 a blunder (lichess marks drops of 0.1, 0.2 and
0.3 in winning chances on a -1..1 scale: the same thresholds on this 0..1 scale). A position
the analyser could not settle within its budget leaves the moves around it unjudged.
"""

from __future__ import annotations

import itertools
import math
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from plies.agents import make_agent
from plies.capabilities import (
    HasCentipawns,
    HasChance,
    HasEvaluation,
    HasInformationSets,
    HasOwnMcts,
    HasPerfectSolver,
)
from plies.errors import PliesError, UnsupportedGameError
from plies.game import Game
from plies.perfect import PerfectSolver
from plies.search import Limits, iterate, winning_chance

MARKS = ((0.15, "blunder"), (0.10, "mistake"), (0.05, "inaccuracy"))
"""The least loss of each mark, worst first."""
LICHESS_LOGISTIC = 0.00368208
"""lichess's slope of the win chance in centipawns (``lila``'s ``WinPercent``)."""
DRAW_MARGIN = 0.05
"""How much more than a draw (0.5) an agent may expect and still accept one (an
inaccuracy's worth: within it the analyser cannot tell the position from a draw)."""


@dataclass(frozen=True)
class Judgement:
    """A position analysed: the side to move's expected score with best play (None when the
    budget ran out first), its best move (None at the end), and the analyser's score in
    words."""

    expected: float | None
    best: Any
    text: str


Analyser = Callable[[Any], Judgement]


@dataclass(frozen=True)
class ReviewedMove:
    """One move of the game: its ``ply`` (1 the first), the ``player`` who made it, the move
    and the analyser's best move there (in the game's notation), the first player's expected
    score after it (``first_expected``, for the graph; None when unknown), the mover's
    ``loss`` and ``mark`` (empty for none), and the analyser's score of the position before
    it."""

    ply: int
    player: str
    move: str
    best: str | None
    first_expected: float | None
    loss: float | None
    mark: str
    text: str


@dataclass(frozen=True)
class PlayerSummary:
    """A player's moves judged, their average loss, and the count of each mark."""

    player: str
    judged: int
    average_loss: float
    inaccuracies: int
    mistakes: int
    blunders: int


@dataclass(frozen=True)
class Review:
    """The game reviewed by ``analyser`` (:func:`best_analyser`'s name), ``seconds`` a position:
    the first player's expected score at the start, every move, each player's summary, and
    whether every position was analysed (``complete``: False when stopped)."""

    analyser: str
    seconds: float
    start_expected: float | None
    moves: tuple[ReviewedMove, ...]
    players: tuple[PlayerSummary, ...]
    complete: bool


def mark_of(loss: float | None) -> str:
    """The mark a loss earns (see the module's docstring)."""
    if loss is None:
        return ""
    return next((mark for least, mark in MARKS if loss >= least - 1e-9), "")


def check_reviewable(game: Game[Any, Any]) -> None:
    """Refuse, naming why, a game a review cannot judge: hidden information (its analysers
    search the whole state, which no player sees), more than two players, chance moves, or
    neither a perfect solver nor an evaluation."""
    if isinstance(game, HasInformationSets):
        raise UnsupportedGameError(
            f"game {game.name!r} hides part of the game from each player: a review's analysers "
            "search the whole state, and cannot judge it"
        )
    if len(game.players) != 2:
        raise UnsupportedGameError(f"game {game.name!r}: a review judges two-player games")
    if isinstance(game, HasChance):
        raise UnsupportedGameError(f"game {game.name!r} has chance moves: a review cannot judge it")
    if not isinstance(game, HasPerfectSolver | HasEvaluation):
        raise UnsupportedGameError(
            f"game {game.name!r} has neither a perfect solver nor an evaluation to review with"
        )


def solver_analyser(solver: PerfectSolver, seconds: float) -> Analyser:
    """Positions judged exactly by ``solver`` within ``seconds`` each."""

    def judge(state: Any) -> Judgement:
        try:
            decision = solver.decide(state, keep_table=True, seconds=seconds)
        except PliesError:  # out of budget
            return Judgement(None, None, "not solved in time")
        sign = (decision.score > 0) - (decision.score < 0)
        best = decision.moves[0] if decision.moves else None
        return Judgement((1 + sign) / 2, best, solver.meaning(decision.score))

    return judge


def endgame_analyser(solver: PerfectSolver, engine: Analyser, seconds: float) -> Analyser:
    """Positions judged exactly by ``solver`` where it may solve them in ``seconds``
    (:meth:`~plies.perfect.PerfectSolver.reaches`) and does, else by ``engine``."""
    exact = solver_analyser(solver, seconds)

    def judge(state: Any) -> Judgement:
        if solver.reaches(state, seconds):
            judged = exact(state)
            if judged.expected is not None:
                return judged
        return engine(state)

    return judge


def engine_analyser(
    game: Game[Any, Any], seconds: float, stop: threading.Event | None = None
) -> Analyser:
    """Positions judged by the engine's iterative deepening for ``seconds`` each."""

    def judge(state: Any) -> Judgement:
        *_, final = iterate(game, state, Limits(seconds=seconds, stop=stop))
        best = final.pv[0] if final.pv else None
        if final.mate is not None:
            won = final.mate > 0
            return Judgement(1.0 if won else 0.0, best, f"{'win' if won else 'loss'} by force")
        if final.score is None or not math.isfinite(final.score):
            return Judgement(None, best, "no score")
        if isinstance(game, HasCentipawns):
            centipawns = game.score_centipawns(final.score)
            chance = 1 / (1 + math.exp(-LICHESS_LOGISTIC * centipawns))
            return Judgement(chance, best, f"{centipawns / 100:+.2f}")
        return Judgement((1 + final.score) / 2, best, f"{final.score:+.2f}")

    return judge


def mcts_analyser(game: Game[Any, Any], seconds: float) -> Analyser:
    """Positions judged by the ``mcts`` agent's search for ``seconds`` each (the compiled tree
    of a game that has its own, Go's): the root's value as the mover's chance of winning."""
    agent = make_agent(f"mcts:time={seconds:g}", game)

    def judge(state: Any) -> Judgement:
        agent.reset()
        agent(game, state)
        result = getattr(agent, "last", None)
        chance = None if result is None else winning_chance(game, result)
        if result is None or chance is None:
            return Judgement(None, None, "no estimate")
        return Judgement(chance, result.action, f"{chance:.0%} to win")

    return judge


def best_analyser(
    game: Game[Any, Any], seconds: float, solver: PerfectSolver | None = None
) -> tuple[str, Analyser]:
    """The strongest analyser ``game`` has, by capability, and its name: its perfect
    ``solver`` (``solver``, when given one in reach; ``solver+engine`` when it reaches only
    positions near the end, Othello's: :func:`endgame_analyser`), the compiled MCTS of a game
    with its own tree (``mcts``: Go's, stronger there than alpha-beta on an evaluation), else
    the engine on the game's evaluation (``engine``)."""
    check_reviewable(game)
    if solver is not None:
        if solver.reaches(game.initial_state(), seconds) or not isinstance(game, HasEvaluation):
            return "solver", solver_analyser(solver, seconds)
        return "solver+engine", endgame_analyser(solver, engine_analyser(game, seconds), seconds)
    if isinstance(game, HasOwnMcts):
        return "mcts", mcts_analyser(game, seconds)
    if not isinstance(game, HasEvaluation):
        raise UnsupportedGameError(f"game {game.name!r}: its perfect solver is out of reach")
    return "engine", engine_analyser(game, seconds)


def review_game(
    game: Game[Any, Any],
    start: Any,
    actions: Sequence[Any],
    analyse: Analyser,
    *,
    analyser: str,
    seconds: float,
    progress: Callable[[int, int], None] | None = None,
    stop: threading.Event | None = None,
) -> Review:
    """Review the game of ``actions`` from ``start`` with ``analyse`` (its name ``analyser``,
    ``seconds`` a position), calling ``progress(done, total)`` after each position; a set
    ``stop`` ends it early with the moves judged so far (``complete`` False)."""
    check_reviewable(game)
    states = [start]
    for action in actions:
        states.append(game.result(states[-1], action))
    judgements: list[Judgement] = []
    for done, state in enumerate(states):
        if stop is not None and stop.is_set():
            break
        judgements.append(_judge_end(game, state) if game.is_terminal(state) else analyse(state))
        if progress is not None:
            progress(done + 1, len(states))
    moves = _reviewed_moves(game, states, actions, judgements)
    first = game.players[0]
    start_expected = _for_player(game, states[0], judgements[0], first) if judgements else None
    return Review(
        analyser,
        seconds,
        start_expected,
        tuple(moves),
        tuple(_summary(player, moves) for player in game.players),
        complete=len(judgements) == len(states),
    )


def _reviewed_moves(
    game: Game[Any, Any],
    states: Sequence[Any],
    actions: Sequence[Any],
    judgements: Sequence[Judgement],
) -> list[ReviewedMove]:
    """The moves whose positions before and after were both analysed."""
    moves = []
    for ply, (before, after) in enumerate(itertools.pairwise(judgements)):
        state, mover = states[ply], game.to_move(states[ply])
        kept = _for_player(game, states[ply + 1], after, mover)
        loss = None
        if before.expected is not None and kept is not None:
            loss = round(max(0.0, before.expected - kept), 4)
        first = _for_player(game, states[ply + 1], after, game.players[0])
        moves.append(
            ReviewedMove(
                ply=ply + 1,
                player=mover,
                move=game.format_action(state, actions[ply]),
                best=None if before.best is None else game.format_action(state, before.best),
                first_expected=None if first is None else round(first, 4),
                loss=loss,
                mark=mark_of(loss),
                text=before.text,
            )
        )
    return moves


def _for_player(game: Game[Any, Any], state: Any, judged: Judgement, player: str) -> float | None:
    """``judged``'s expected score of ``state`` for ``player``."""
    if judged.expected is None:
        return None
    if game.is_terminal(state):
        return judged.expected if player == game.players[0] else 1 - judged.expected
    return judged.expected if game.to_move(state) == player else 1 - judged.expected


@dataclass(frozen=True)
class DrawAnswer:
    """An agent's answer to a draw offer and why, in words."""

    accepted: bool
    text: str


def answer_draw_offer(
    game: Game[Any, Any], state: Any, player: str, judged: Judgement
) -> DrawAnswer:
    """``player``'s answer to a draw offered in ``state`` (unfinished), given the analyser's
    judgement of it: accepted when ``player`` expects no more than a draw, with
    :data:`DRAW_MARGIN` to spare; declined when the analyser could not judge it."""
    expected = _for_player(game, state, judged, player)
    if expected is None:
        return DrawAnswer(False, f"{player} declines: it could not judge the position in time")
    verdict = "accepts" if expected <= 0.5 + DRAW_MARGIN else "declines"
    mover = game.to_move(state)
    return DrawAnswer(
        verdict == "accepts",
        f"{player} {verdict}: it expects to score {expected:.0%} ({mover} to move: {judged.text})",
    )


def _judge_end(game: Game[Any, Any], state: Any) -> Judgement:
    """A finished game's result as the first player's expected score."""
    first, second = game.players
    mine, theirs = game.utility(state, first), game.utility(state, second)
    expected = 1.0 if mine > theirs else 0.0 if mine < theirs else 0.5
    return Judgement(expected, None, "the end")


def _summary(player: str, moves: Sequence[ReviewedMove]) -> PlayerSummary:
    losses = [move.loss for move in moves if move.player == player and move.loss is not None]
    marks = [move.mark for move in moves if move.player == player]
    return PlayerSummary(
        player,
        len(losses),
        round(sum(losses) / len(losses), 4) if losses else 0.0,
        marks.count("inaccuracy"),
        marks.count("mistake"),
        marks.count("blunder"),
    )
