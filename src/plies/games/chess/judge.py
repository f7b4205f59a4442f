"""Chess moves judged by a UCI engine (Stockfish) at a fixed depth: on each position of a set,
the agent plays one move; the engine names its best move and score, then scores the agent's
move (searched as the only root move, to the same depth).

A verdict says whether the agent *agrees* with the engine's move, and what its move *loses*:
in centipawns from the mover's point of view (a mate counts as :data:`MATE_CENTIPAWNS`, and
each loss is capped at :data:`LOSS_CAP`, as Lichess caps its average centipawn loss), and in
expected score (the engine's score turned into a win-draw-loss expectation by Stockfish's
model, as python-chess implements it). A move the engine scores above its own best (search
noise at a fixed depth) loses nothing. This is the judging of Ruoss et al. (2024), "Grandmaster-
level chess without search", which measures action accuracy against Stockfish's best move.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import chess
import chess.engine

from plies.capabilities import HasPositionNotation, require
from plies.errors import EngineFailure, ParseError, SpecError
from plies.game import Game
from plies.processes import engine_command

MATE_CENTIPAWNS = 10_000
"""The centipawns a mate counts for (before the cap)."""
LOSS_CAP = 1_000
"""The most centipawns one move can lose in the mean."""
MAX_DEPTH = 40
"""The deepest judge plies accepts (Stockfish reaches depth 20 in about a second)."""
ENGINE_SECONDS = 600.0
"""How long one analysis may take before the engine counts as hung."""


@dataclass(frozen=True)
class ChessVerdict:
    """The agent's ``move`` (UCI notation) in the position ``fen`` (line ``line`` of its set),
    beside the engine's ``best_move``; scores in centipawns for the mover."""

    line: int
    fen: str
    move: str
    best_move: str
    agrees: bool
    score: int
    best_score: int
    loss: int
    expected_loss: float

    def to_json(self) -> dict[str, Any]:
        """The verdict as a JSON-ready dict, one key per field."""
        return {
            "line": self.line,
            "fen": self.fen,
            "move": self.move,
            "best_move": self.best_move,
            "agrees": self.agrees,
            "score": self.score,
            "best_score": self.best_score,
            "loss": self.loss,
            "expected_loss": round(self.expected_loss, 4),
        }


class UciJudge:
    """A UCI engine (``command``, found as the ``uci`` agent finds it) that analyses ``game``'s
    positions to ``depth`` (:class:`~plies.capabilities.EngineJudge`); close it to quit the
    engine."""

    loss_cap = LOSS_CAP

    def __init__(self, game: Game[Any, Any], command: str = "stockfish", depth: int = 12) -> None:
        self.game = game
        if not 1 <= depth <= MAX_DEPTH:
            raise SpecError(f"judge depth={depth} must be 1 to {MAX_DEPTH}")
        argv = engine_command("judge", command, "stockfish")
        self.limit = chess.engine.Limit(depth=depth)
        try:
            self.engine = chess.engine.SimpleEngine.popen_uci(list(argv), timeout=30)
        except (OSError, chess.engine.EngineError, TimeoutError) as error:
            raise EngineFailure("judge", f"engine {argv[0]!r} did not start ({error})") from None
        self.engine.timeout = ENGINE_SECONDS

    def scores(
        self, board: chess.Board, move: chess.Move
    ) -> tuple[chess.Move, chess.engine.PovScore, chess.engine.PovScore]:
        """The engine's best move in ``board``, its score, and the score of ``move``."""
        try:
            best = self.engine.analyse(board, self.limit)
            best_move = best["pv"][0]
            if best_move == move:
                return best_move, best["score"], best["score"]
            mine = self.engine.analyse(board, self.limit, root_moves=[move])
            return best_move, best["score"], mine["score"]
        except (chess.engine.EngineError, TimeoutError, KeyError, IndexError) as error:
            self.close()
            reason = str(error) or type(error).__name__
            raise EngineFailure("judge", f"the engine failed ({reason})") from None

    def positions(self, lines: Sequence[str]) -> list[tuple[int, Any]]:
        return read_positions(self.game, lines)

    def verdicts(
        self, agent: Callable[[Any, Any], Any], positions: Iterable[tuple[int, Any]]
    ) -> Iterator[ChessVerdict]:
        return judge_chess_moves(self.game, agent, positions, self)

    def close(self) -> None:
        try:
            self.engine.quit()
        except (chess.engine.EngineError, TimeoutError):
            self.engine.close()


def judge_chess_moves(
    game: Game[Any, Any],
    agent: Callable[[Any, Any], Any],
    positions: Iterable[tuple[int, Any]],
    judge: UciJudge,
) -> Iterator[ChessVerdict]:
    """The verdict on ``agent``'s move in each ``(line, state)`` of ``positions``, one at a
    time (so a caller can stop early and keep what was judged)."""
    for line, state in positions:
        board: chess.Board = state.board
        move = agent(game, state)
        best_move, best, mine = judge.scores(board, move)
        turn, ply = board.turn, board.ply()
        best_cp = best.pov(turn).score(mate_score=MATE_CENTIPAWNS)
        move_cp = mine.pov(turn).score(mate_score=MATE_CENTIPAWNS)
        expected = best.pov(turn).wdl(ply=ply).expectation()
        expected_move = mine.pov(turn).wdl(ply=ply).expectation()
        yield ChessVerdict(
            line=line,
            fen=board.fen(),
            move=move.uci(),
            best_move=best_move.uci(),
            agrees=move == best_move,
            score=move_cp,
            best_score=best_cp,
            loss=min(LOSS_CAP, max(0, best_cp - move_cp)),
            expected_loss=max(0.0, expected - expected_move),
        )


def read_positions(game: Game[Any, Any], lines: Iterable[str]) -> list[tuple[int, Any]]:
    """The positions of a set file, one FEN a line (blank lines and ``#`` comments skipped),
    with their line numbers; a :class:`ParseError` naming the first bad line."""
    notation = require(game, HasPositionNotation, "judging chess moves")
    positions = []
    for number, text in enumerate(lines, start=1):
        fen = text.strip()
        if not fen or fen.startswith("#"):
            continue
        try:
            state = notation.parse_position(fen)
        except ParseError as error:
            raise ParseError(f"line {number}: {error}") from None
        if game.is_terminal(state):
            raise ParseError(f"line {number}: the game is over in {fen!r}: no move to judge")
        positions.append((number, state))
    return positions
