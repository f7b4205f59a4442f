"""An agent's moves judged by perfect play: on each position of a set, the agent plays one move
and the game's perfect solver scores every move there.

A move is *exact* when it keeps the position's best solved score, a *mistake* when its outcome
(the sign of its score: win, draw or loss for the mover) is worse than the best outcome
available: a won position drawn or lost, a drawn one lost. An exact move is never a mistake; a
slower win is neither. The solver is reached only through the game's
:class:`~plies.capabilities.HasPerfectSolver`, so the judge serves any game that has one.

>>> from plies.agents import make_agent
>>> from plies.registry import make_game
>>> from plies.solvers.sets import read_set
>>> game = make_game("connect4")
>>> positions = read_set(game, ["2252576253462244111563365343671351441"])
>>> [verdict] = judge_moves(game, make_agent("perfect", game), positions)
>>> verdict.move, verdict.best_moves, verdict.best_score, verdict.mistake, verdict.exact
('6', ['6'], -1, False, True)
>>> summarise_verdicts([verdict]).to_json()
{'positions': 1, 'mistakes': 0, 'exact': 1, 'mistake_rate': 0.0, 'exact_rate': 1.0}
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from plies.agents import Agent
from plies.capabilities import HasPerfectSolver, JudgedMove, require
from plies.errors import GameOverError, IllegalMoveError, ParseError, UnsupportedGameError
from plies.game import Game
from plies.perfect import UNTIMED_REACH, PerfectSolver
from plies.solvers.sets import SetEntry

PURPOSE = "judging moves by perfect play"


@dataclass(frozen=True)
class MoveVerdict:
    """The agent's ``move`` in the position ``moves`` (line ``line`` of its set), in the game's
    notation, beside the ``best_moves``; ``score`` and ``best_score`` are the solver's, from the
    mover's point of view."""

    line: int
    moves: str
    move: str
    best_moves: list[str]
    mistake: bool
    exact: bool
    score: int
    best_score: int

    def to_json(self) -> dict[str, Any]:
        """The verdict as a JSON-ready dict, one key per field."""
        return {
            "line": self.line,
            "moves": self.moves,
            "move": self.move,
            "best_moves": list(self.best_moves),
            "mistake": self.mistake,
            "exact": self.exact,
            "score": self.score,
            "best_score": self.best_score,
        }


@dataclass(frozen=True)
class MistakeSummary:
    """How many positions were judged, and how many of their moves were mistakes or exact."""

    positions: int = 0
    mistakes: int = 0
    exact: int = 0

    def add(self, verdict: MoveVerdict) -> MistakeSummary:
        """This summary with one more verdict counted."""
        return MistakeSummary(
            self.positions + 1, self.mistakes + verdict.mistake, self.exact + verdict.exact
        )

    @property
    def mistake_rate(self) -> float:
        """The share of moves that were mistakes (0.0 with no positions)."""
        return self.mistakes / self.positions if self.positions else 0.0

    @property
    def exact_rate(self) -> float:
        """The share of moves that kept the best score (0.0 with no positions)."""
        return self.exact / self.positions if self.positions else 0.0

    def to_json(self) -> dict[str, Any]:
        """The counts and the rates (to 6 decimals) as a JSON-ready dict."""
        return {
            "positions": self.positions,
            "mistakes": self.mistakes,
            "exact": self.exact,
            "mistake_rate": round(self.mistake_rate, 6),
            "exact_rate": round(self.exact_rate, 6),
        }


def summarise_verdicts(verdicts: Iterable[MoveVerdict]) -> MistakeSummary:
    """Count the mistakes and exact moves among ``verdicts``."""
    summary = MistakeSummary()
    for verdict in verdicts:
        summary = summary.add(verdict)
    return summary


class AnalysisFile:
    """The solver's analyses (every move's score) of the positions of the game ``identity``
    (:func:`~plies.games.game_identity`), kept in a JSON-lines file so that judging many
    agents on one set solves each position once: one line a position, ``{"game": identity,
    "position": text, "scores": [...]}``, appended as each is solved (a last line cut short
    by a kill is left out). A line that is not such an object raises
    :class:`~plies.errors.ParseError` naming it."""

    def __init__(self, path: Path, identity: str) -> None:
        self.path, self.identity = path, identity
        self.scores: dict[str, list[int | None]] = {}
        try:
            path.open("a", encoding="utf-8").close()  # writable, before any work
            lines = path.read_text(encoding="utf-8").splitlines()
        except (OSError, UnicodeDecodeError) as error:
            raise ParseError(f"cannot keep analyses in {str(path)!r} ({error})") from None
        for number, line in enumerate(lines, 1):
            try:
                found = json.loads(line)
                game_of, position, scores = found["game"], found["position"], found["scores"]
                if not isinstance(scores, list) or not all(
                    s is None or isinstance(s, int) for s in scores
                ):
                    raise TypeError("scores must be a list of integers and nulls")
            except (ValueError, KeyError, TypeError) as error:
                if number == len(lines) and not line.endswith("}"):
                    break  # the last line, cut short
                where = f"{str(path)!r} line {number}"
                raise ParseError(f"{where}: not an analysis ({error})") from None
            if game_of == self.identity:
                self.scores[str(position)] = scores

    def get(self, position: str) -> list[int | None] | None:
        return self.scores.get(position)

    def add(self, position: str, scores: list[int | None]) -> None:
        self.scores[position] = scores
        line = {"game": self.identity, "position": position, "scores": scores}
        with self.path.open("a", encoding="utf-8") as file:
            file.write(json.dumps(line) + "\n")


def judge_moves(
    game: Game[Any, Any],
    agent: Agent,
    positions: Sequence[SetEntry],
    analyses: AnalysisFile | None = None,
) -> Iterator[MoveVerdict]:
    """Let ``agent`` play once in each position (``reset()`` before each) and judge its move
    with the game's perfect solver, yielding one verdict per position, in order. The solver's
    analyses are read from ``analyses`` where it holds them, and added to it where not.

    Everything is checked before the first move is played: a game without a perfect solver
    raises :class:`~plies.errors.MissingCapabilityError` (or
    :class:`~plies.errors.UnsupportedGameError` when its options put it out of the solver's
    reach, or a position is too far from the end for it), a bad line of the set
    :class:`~plies.errors.ParseError` and a finished game :class:`~plies.errors.GameOverError`,
    each naming the line.
    """
    solver = require(game, HasPerfectSolver, PURPOSE).perfect_solver()
    if solver is None:
        raise UnsupportedGameError(f"game '{game.name}' is out of its perfect solver's reach")
    for entry in positions:
        if entry.error is not None:
            raise ParseError(entry.error)
        if game.is_terminal(entry.state):
            raise GameOverError(
                f"line {entry.line}: position {entry.moves!r}: the game is already over"
            )
        if not solver.reaches(entry.state, UNTIMED_REACH):
            raise UnsupportedGameError(
                f"line {entry.line}: position {entry.moves!r} is too far from the end for the "
                f"perfect solver ({solver.difficulty_note(entry.state)})"
            )
    return _verdicts(game, agent, solver, positions, analyses)


def _verdicts(
    game: Game[Any, Any],
    agent: Agent,
    solver: PerfectSolver,
    positions: Sequence[SetEntry],
    analyses: AnalysisFile | None,
) -> Iterator[MoveVerdict]:
    labels = solver.slot_labels()  # each slot's move in the game's notation
    slots = {label: slot for slot, label in enumerate(labels)}
    for entry in positions:
        agent.reset()
        move = game.format_action(entry.state, agent(game, entry.state))
        scores = None if analyses is None else analyses.get(entry.moves)
        if scores is None:
            scores = solver.analyze(entry.state)
            if analyses is not None:
                analyses.add(entry.moves, scores)
        best_score = max(score for score in scores if score is not None)
        slot = slots.get(move)
        score = None if slot is None else scores[slot]
        if score is None:
            raise IllegalMoveError(
                f"line {entry.line}: {agent.name} played {move!r}, not a legal move there"
            )
        yield MoveVerdict(
            line=entry.line,
            moves=entry.moves,
            move=move,
            best_moves=[labels[s] for s, value in enumerate(scores) if value == best_score],
            mistake=_sign(score) < _sign(best_score),
            exact=score == best_score,
            score=score,
            best_score=best_score,
        )


def _sign(score: int) -> int:
    """The outcome a score stands for: 1 a win, 0 a draw, -1 a loss."""
    return (score > 0) - (score < 0)


@dataclass(frozen=True)
class AgreementSummary:
    """Agreement with an engine's moves and mean losses over the verdicts added so far (an
    :class:`~plies.capabilities.EngineJudge`'s, where no perfect solver reaches)."""

    positions: int = 0
    agreements: int = 0
    total_loss: int = 0
    total_expected_loss: float = 0.0

    def add(self, verdict: JudgedMove) -> AgreementSummary:
        return AgreementSummary(
            self.positions + 1,
            self.agreements + verdict.agrees,
            self.total_loss + verdict.loss,
            self.total_expected_loss + verdict.expected_loss,
        )

    @property
    def agreement_rate(self) -> float:
        return self.agreements / self.positions if self.positions else 0.0

    @property
    def mean_loss(self) -> float:
        """Mean centipawn loss (each move's loss capped by its judge)."""
        return self.total_loss / self.positions if self.positions else 0.0

    @property
    def mean_expected_loss(self) -> float:
        return self.total_expected_loss / self.positions if self.positions else 0.0

    def to_json(self) -> dict[str, Any]:
        return {
            "positions": self.positions,
            "agreements": self.agreements,
            "agreement_rate": round(self.agreement_rate, 4),
            "mean_loss": round(self.mean_loss, 1),
            "mean_expected_loss": round(self.mean_expected_loss, 4),
        }
