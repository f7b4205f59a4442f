"""The ``gnubg`` agent: GNU Backgammon (Debian's ``gnubg``, 1.07) choosing plies' backgammon
turns at one of its playing levels, cubeless, so that plies can be rated against it.

``gnubg[:LEVEL][,cmd=PROGRAM][,timeout=S]``, e.g. ``gnubg:worldclass``

- ``level``: gnubg's predefined settings (:data:`LEVELS`): ``beginner``, ``casual``,
  ``intermediate`` and ``advanced`` search 0 plies with noise added to the evaluations,
  ``expert`` (the default) 0 plies without noise, ``worldclass`` and ``supremo`` 2 plies (the
  latter keeping more moves for the deeper search), ``grandmaster`` 3 plies;
- ``cmd``: the gnubg program, looked for on PATH, then in ``/usr/games`` (where Debian installs
  it);
- ``timeout``: seconds a move may take (60 by default).

The agent runs ``gnubg -t -q -r -p`` on :mod:`.gnubg_server` (its terminal mode, no settings
files, the script in gnubg's embedded Python), started on the first move and kept between
moves and games. Each move is one request: the board as gnubg reads it
(:func:`gnubg_board`), the dice and the level's settings; gnubg's best move
(``gnubg.findbestmove``) comes back as checker moves, matched to the legal turn that reaches
the same position (:func:`gnubg_turn`). gnubg plays money backgammon without the cube:
gammons 2, backgammons 3, as plies scores them. Its noise is deterministic (a function of the
position, as in gnubg's own levels), so a seed changes nothing. A gnubg that crashes, answers
late or with an illegal move raises :class:`EngineFailure` and is killed; the next move starts
it afresh. It is quit by :meth:`GnubgAgent.close`, when the agent is collected, and when Python
exits.
"""

from __future__ import annotations

import json
import os
import shlex
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from plies.agents.process import START_SECONDS, LineProgram
from plies.agents.registry import Agent, AgentKind, Context, Option, register
from plies.errors import EngineFailure, IllegalMoveError, SpecError, UnsupportedGameError
from plies.game import Game
from plies.games.backgammon.gnubg_server import MARK
from plies.games.backgammon.rules import BLACK, WHITE, Backgammon, BackgammonState, Roll, Turn
from plies.processes import engine_command
from plies.search import SearchResult
from plies.spec import SECONDS

SERVER = Path(__file__).with_name("gnubg_server.py")
"""The script gnubg runs (:mod:`.gnubg_server`)."""
FLAGS = ("-t", "-q", "-r", "-p")
"""gnubg's terminal mode, no sound, no settings files, and the script to run."""
UNTIMED = 60.0
"""Seconds a move may take by default."""

Filter = tuple[tuple[int, float], ...]
"""A gnubg move filter as its predefined ones are: (extra, threshold) after the 0-ply
evaluation of every move, then (in a 3-ply search) after the 2-ply one: the best move and at
most ``extra`` more within ``threshold`` (in equity) of it go on to be searched deeper; no
move is dropped after 1 ply."""
NORMAL: Filter = ((8, 0.16), (2, 0.04))
LARGE: Filter = ((16, 0.32), (4, 0.08))


@dataclass(frozen=True)
class PlayingLevel:
    """One of gnubg's predefined playing levels: the plies it searches, the noise added to its
    evaluations (a standard deviation, in equity) and its move filter."""

    plies: int
    noise: float = 0.0
    filter: Filter = ()

    def request(self, board: tuple[list[int], list[int]], dice: Sequence[int]) -> str:
        """The server's request for the best move of ``dice`` on ``board`` at this level."""
        context = {
            "cubeful": 0,
            "plies": self.plies,
            "prune": int(self.plies > 0),
            "deterministic": 1,
            "noise": self.noise,
        }
        filters = [
            {
                "ply": self.plies,
                "level": 2 * index,
                "acceptmoves": 0,
                "extramoves": extra,
                "threshold": threshold,
            }
            for index, (extra, threshold) in enumerate(self.filter)
            if 2 * index < self.plies
        ]
        return json.dumps(
            {"board": board, "dice": list(dice), "context": context, "filters": filters}
        )


LEVELS = {
    "beginner": PlayingLevel(0, 0.060),
    "casual": PlayingLevel(0, 0.050),
    "intermediate": PlayingLevel(0, 0.040),
    "advanced": PlayingLevel(0, 0.015),
    "expert": PlayingLevel(0),
    "worldclass": PlayingLevel(2, filter=NORMAL),
    "supremo": PlayingLevel(2, filter=LARGE),
    "grandmaster": PlayingLevel(3, filter=LARGE),
}
"""gnubg 1.07's predefined levels (its ``aecSettings`` and ``aiSettingsMoveFilter``), cubeless."""


def gnubg_board(state: BackgammonState) -> tuple[list[int], list[int]]:
    """``state``'s board as gnubg reads it: the opponent's checkers, then the mover's, each
    side's by point in its own numbering (index p - 1 its point p), index 24 its bar."""
    white = [max(count, 0) for count in state.points] + [state.bar[WHITE]]
    black = [max(-count, 0) for count in reversed(state.points)] + [state.bar[BLACK]]
    return (black, white) if state.mover == WHITE else (white, black)


def gnubg_turn(game: Backgammon, state: BackgammonState, move: Sequence[int]) -> Turn:
    """The legal turn that plays gnubg's ``move`` (from, to, from, to...: each checker moved
    by one die, in the mover's numbering, 25 the bar and 0 off): the one reaching the same
    position. An :class:`IllegalMoveError` if ``move`` is not legal."""
    played = game.result(state, tuple(zip(move[::2], move[1::2], strict=True)))
    reached = {game.result(state, turn): turn for turn in game.actions(state)}
    turn = reached[played]
    assert not isinstance(turn, Roll | str)
    return turn


def _backgammon(game: Game[Any, Any]) -> Backgammon:
    """``game`` if it is backgammon, else an :class:`UnsupportedGameError`."""
    if not isinstance(game, Backgammon):
        raise UnsupportedGameError(f"gnubg: GNU Backgammon plays backgammon, not {game.name!r}")
    return game


class _Server(LineProgram):
    """gnubg running :mod:`.gnubg_server`, ready for requests once started."""

    def __init__(self, argv: tuple[str, ...], name: str) -> None:
        super().__init__((*argv, *FLAGS, str(SERVER)), name)
        try:
            self.answer(START_SECONDS, "starting")
        except EngineFailure:
            self.stop(kill=True)
            raise

    def answer(self, seconds: float, asked: str) -> dict[str, Any]:
        """The server's next answer, its other output skipped; an :class:`EngineFailure` if
        none comes within ``seconds`` (``asked`` names what for) or it is no JSON object."""
        deadline = time.monotonic() + seconds
        line = ""
        while not line.startswith(MARK):
            line = self.receive(deadline, f"timed out after {seconds:g} s {asked}")
        try:
            answer = json.loads(line[len(MARK) :])
        except ValueError:
            answer = None
        if not isinstance(answer, dict):
            raise EngineFailure(self.name, f"answered {line[:60]!r}")
        return answer

    def outputs(self, request: str, seconds: float) -> list[float]:
        """gnubg's evaluation asked by ``request``: five chances and the cubeless equity."""
        self.send(request)
        answer = self.answer(seconds, "on an evaluation")
        outputs = answer.get("outputs")
        if "error" in answer or not isinstance(outputs, list) or len(outputs) != 6:
            raise EngineFailure(self.name, f"failed: {answer.get('error', answer)}")
        return [float(value) for value in outputs]

    def best_move(self, request: str, seconds: float) -> list[int]:
        """gnubg's answer to ``request``: its move, from, to, from, to..."""
        self.send(request)
        answer = self.answer(seconds, "on a move")
        move = answer.get("move")
        if "error" in answer or not isinstance(move, list):
            raise EngineFailure(self.name, f"failed: {answer.get('error', answer)}")
        if len(move) % 2 or not all(type(point) is int for point in move):
            raise EngineFailure(self.name, f"answered the move {move}")
        return move


@dataclass(eq=False)
class GnubgAgent:
    """Plays GNU Backgammon's moves at one of its levels (see the module docstring)."""

    argv: tuple[str, ...]
    level: PlayingLevel
    timeout: float
    name: str = "gnubg"
    last: SearchResult[Any] | None = field(default=None, init=False, repr=False)
    _server: _Server | None = field(default=None, init=False, repr=False)

    def __call__(self, game: Game[Any, Any], state: BackgammonState) -> Turn:
        backgammon = _backgammon(game)
        request = self.level.request(gnubg_board(state), state.dice)
        try:
            move = self._running().best_move(request, self.timeout)
        except BaseException:  # a failure, or an interruption mid-answer: the server is lost
            self._stop(kill=True)
            raise
        try:
            return gnubg_turn(backgammon, state, move)
        except IllegalMoveError as error:
            self._stop(kill=True)
            raise EngineFailure(self.name, f"illegal move {move}: {error}") from None

    def _running(self) -> _Server:
        """The running server, started if need be."""
        if self._server is not None and self._server.owner != os.getpid():
            self._server = None  # the parent's, in a forked child
        if self._server is None:
            try:
                self._server = _Server(self.argv, self.name)
            except OSError as error:
                raise EngineFailure(self.name, f"cannot start: {error}") from None
        return self._server

    def _stop(self, *, kill: bool = False) -> None:
        server, self._server = self._server, None
        if server is not None and server.owner == os.getpid():
            server.stop(kill=kill)

    def reset(self, seed: int | None = None) -> None:
        """Nothing to forget: each move is asked afresh (and gnubg's noise takes no seed)."""
        self.last = None

    def close(self) -> None:
        """Quit gnubg (the next move starts it again)."""
        self._stop()

    def __del__(self) -> None:
        server = getattr(self, "_server", None)
        if server is not None and server.owner == os.getpid():
            server.stop_soon()


ANALYSIS = LEVELS["worldclass"]
"""The level gnubg analyses moves at by default: 2 plies, its normal move filter."""


@dataclass(eq=False)
class GnubgJudge:
    """GNU Backgammon's analysis of checker plays, as its ``analyse`` command rates them: a
    play's error is the cubeless equity of gnubg's best play less that of the play made, both
    positions evaluated at the analysis level's plies (a forced play is no decision). The
    mean error of the unforced plays, in thousandths, is gnubg's error rate per move."""

    argv: tuple[str, ...]
    level: PlayingLevel = ANALYSIS
    timeout: float = UNTIMED
    name: str = "gnubg"
    _server: _Server | None = field(default=None, init=False, repr=False)

    def error(self, game: Backgammon, state: BackgammonState, turn: Turn) -> float | None:
        """The equity ``turn`` loses against gnubg's best play in ``state``; None when the
        play is forced."""
        if len(game.actions(state)) <= 1:
            return None
        if self._server is None:
            self._server = _Server(self.argv, self.name)
        request = self.level.request(gnubg_board(state), state.dice)
        best = gnubg_turn(game, state, self._server.best_move(request, self.timeout))
        if best == turn:
            return 0.0
        player = game.to_move(state)
        return self._value(game, game.result(state, best), player) - self._value(
            game, game.result(state, turn), player
        )

    def _value(self, game: Backgammon, after: BackgammonState, player: str) -> float:
        """``player``'s cubeless equity after its play, the other side to roll."""
        if game.is_terminal(after):
            return game.utility(after, player)
        context = json.loads(self.level.request(gnubg_board(after), (1, 1)))["context"]
        request = json.dumps({"evaluate": gnubg_board(after), "context": context})
        assert self._server is not None
        return -self._server.outputs(request, self.timeout)[5]

    def close(self) -> None:
        """Quit gnubg."""
        server, self._server = self._server, None
        if server is not None:
            server.stop()


def gnubg_judge(command: str | None = None, timeout: float = UNTIMED) -> GnubgJudge:
    """A judge running ``command`` (gnubg by default); a :class:`SpecError` if it does not run."""
    argv = engine_command("gnubg", command or "gnubg", "gnubg")
    _check(argv)
    return GnubgJudge(argv, timeout=timeout)


@cache
def _check(argv: tuple[str, ...]) -> None:
    """A :class:`SpecError` unless ``argv`` starts as gnubg running the server script (it is
    started and quit once per command line)."""
    try:
        _Server(argv, "gnubg").stop()
    except (OSError, EngineFailure) as error:
        reason = error.reason if isinstance(error, EngineFailure) else str(error)
        raise SpecError(
            f"gnubg: {shlex.join(argv)!r} does not run as GNU Backgammon with Python ({reason})"
        ) from None


def _cubeless(game: Backgammon) -> None:
    """A :class:`SpecError` for backgammon with the doubling cube: the agent asks gnubg for
    cubeless checker play only, never for a cube decision."""
    if game.cubeful:
        raise SpecError(
            "gnubg: the agent plays backgammon without the doubling cube; this game has it "
            f"({'a match to ' + str(game.match) if game.match else 'cube=true'}), and gnubg is "
            "not asked for cube decisions"
        )


def _gnubg(game: Game[Any, Any], values: Mapping[str, Any], context: Context) -> Agent:
    _cubeless(_backgammon(game))
    argv = engine_command("gnubg", values["cmd"], "gnubg")
    _check(argv)
    return GnubgAgent(argv, LEVELS[values["level"]], values["timeout"], context.name)


register(
    AgentKind(
        "gnubg",
        "GNU Backgammon at one of its levels, cubeless: gnubg:worldclass",
        (
            Option(
                "level",
                "choice",
                "gnubg's playing level (expert: 0 plies; worldclass: 2)",
                "expert",
                choices=tuple(LEVELS),
            ),
            Option("cmd", "text", "the gnubg program (PATH, then /usr/games)", "gnubg"),
            Option("timeout", "number", "seconds a move may take", UNTIMED, SECONDS),
        ),
        _gnubg,
        positional="level",
        runs_program=True,
    )
)
