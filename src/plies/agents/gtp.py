"""The ``gtp`` agent: a program that speaks the Go Text Protocol (GNU Go for Go, GRhino for
Othello) playing as a plies agent, so that plies can be rated against it in the same tables.

``gtp:COMMAND[,timeout=S]`` (or ``cmd=COMMAND``), e.g. ``gtp:gnugo --mode gtp --level 10
--chinese-rules --capture-all-dead`` or ``gtp:gtp-rhino --level 5``

- ``cmd``: the engine's command line, split into words as a shell would (no commas; an option
  with ``=`` needs ``cmd=``); the program is looked for on PATH, then in ``/usr/games``
  (where Debian installs ``gnugo`` and ``gtp-rhino``). The engine's own options set its
  strength and speed.
- ``timeout``: seconds the engine may take to answer a command, ``genmove`` included (60 by
  default).

For games that say how they are played over GTP (:class:`~plies.capabilities.HasGtp`: the
commands that start a game, and the moves that led to a state where the state keeps them).
The engine is checked when the agent is built (it must list the commands plies sends),
starts on the first move and is kept between moves and games. Before each ``genmove`` it is
told the moves it has not seen: ``play`` for each new move when its own game leads to the
position with the same set-up, else the set-up commands and the whole game again (``reset``
makes the next move start so). In a game whose states keep no moves (Othello's) the agent
follows the game itself: the moves from the last position it knew (its own move's, or the
start) are found by a search of at most :data:`MOST_UNSEEN` moves; a position it cannot reach
so (one set up, not played from the start) is an :class:`EngineFailure`. An engine that
crashes, does not answer within ``timeout``, refuses a command (``?``), answers outside GTP, or
plays an illegal move or none raises :class:`EngineFailure` and is killed; the next move starts
it afresh. Engines still running are quit (``quit``) by :meth:`GTPAgent.close`, when their
agent is collected, and when Python exits. ``last`` stays None: GTP tells nothing of the
search behind a move.

Resignation: GNU Go 3.8 answers ``genmove`` with ``resign`` unless started with
``--never-resign``: on 19x19 when it is more than 45 points behind and the game is nearly
decided, and on any board when it would pass with none of its groups alive. The agent then
raises :class:`~plies.errors.Resigns` (the engine keeps running): the game loop records the
engine's loss, a result like any other (``plies match``, ``plies play`` and tournaments count
it so, and an SGF export writes ``B+R`` or ``W+R``); give ``--never-resign`` to play every
game out. Give ``--chinese-rules`` too (plies scores by area), ``--capture-all-dead`` (dead
stones are not removed at the end: plies' Tromp-Taylor count, the game's result, counts them
as alive) and ``--positional-superko`` (plies forbids repeating any earlier position; GNU Go by
default only the immediate recapture of a ko, so a longer cycle would be an illegal move).
"""

from __future__ import annotations

import os
import re
import shlex
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from plies.agents.process import COMMAND, START_SECONDS, LineProgram
from plies.agents.registry import Agent, AgentKind, Context, Option, register
from plies.capabilities import HasGtp
from plies.errors import EngineFailure, PliesError, Resigns, SpecError, UnsupportedGameError
from plies.game import Game
from plies.processes import engine_command
from plies.search import SearchResult
from plies.spec import SECONDS

UNTIMED = 60.0
"""Seconds the engine may take to answer a command by default."""
NEEDED = ("play", "genmove", "quit")
"""The commands the agent sends besides a game's set-up: an engine must list them all."""
MOST_UNSEEN = 6
"""The most moves the agent looks for between two positions of a game whose states keep no
moves (an opening's and the opponent's reply)."""
ANSWER = re.compile(r"([=?])\d*\s*(.*)")
"""The first line of a GTP answer: ``=`` (success) or ``?`` (failure), an optional id, the
text."""


class _Engine(LineProgram):
    """A running GTP engine."""

    def ask(self, command: str, seconds: float) -> str:
        """The engine's answer to ``command``: its text after ``=`` and the id, lines joined.
        An :class:`EngineFailure` if the engine refuses (``?``), crashes, answers outside GTP
        or takes more than ``seconds``."""
        self.send(command)
        deadline = time.monotonic() + seconds
        lines: list[str] = []
        while not lines or lines[-1]:  # an answer ends with an empty line
            line = self.receive(deadline, f"timed out after {seconds:g} s on {command}").rstrip()
            if lines or line:  # empty lines before an answer are skipped
                lines.append(line)
            if len(lines) == 1 and not ANSWER.fullmatch(line):
                raise EngineFailure(self.name, f"answered {line[:40]!r}, not in GTP")
        answer = ANSWER.fullmatch(lines[0])
        assert answer is not None
        text = "\n".join([answer[2], *lines[1:-1]]).strip()
        if answer[1] == "?":
            raise EngineFailure(self.name, f"refused {command!r}: {text or 'no reason'}")
        return text


def _gtp_game(game: Game[Any, Any]) -> HasGtp:
    """``game`` as one played over GTP, else an :class:`UnsupportedGameError`."""
    if not isinstance(game, HasGtp):
        raise UnsupportedGameError(
            f"gtp: GTP engines play games that say how (go, othello), not {game.name!r}"
        )
    return game


def _moves_between(
    game: Game[Any, Any], start: Any, goal: Any, most: int
) -> tuple[Any, ...] | None:
    """The shortest line of at most ``most`` moves from ``start`` to ``goal``, or None."""
    for length in range(most + 1):
        line = _line_of(game, start, goal, length)
        if line is not None:
            return line
    return None


def _line_of(game: Game[Any, Any], state: Any, goal: Any, length: int) -> tuple[Any, ...] | None:
    if length == 0:
        return () if state == goal else None
    if game.is_terminal(state):
        return None
    for action in game.actions(state):
        rest = _line_of(game, game.result(state, action), goal, length - 1)
        if rest is not None:
            return (action, *rest)
    return None


@dataclass(eq=False)
class GTPAgent:
    """Plays a GTP engine's moves (see the module docstring)."""

    argv: tuple[str, ...]
    timeout: float
    name: str = "gtp"
    last: SearchResult[Any] | None = field(default=None, init=False, repr=False)
    _engine: _Engine | None = field(default=None, init=False, repr=False)
    _told: tuple[tuple[str, ...], tuple[Any, ...]] | None = field(
        default=None, init=False, repr=False
    )
    """The set-up and moves of the engine's game (None: to be set up afresh)."""
    _seen: Any = field(default=None, init=False, repr=False)
    """The position after the engine's last move, in a game whose states keep no moves."""

    def __call__(self, game: Game[Any, Any], state: Any) -> Any:
        """The engine's move in ``state``; :class:`~plies.errors.Resigns` when it resigns."""
        described = _gtp_game(game)
        setup = described.gtp_setup()
        moves = described.gtp_moves(state)
        followed = moves is None
        try:
            if moves is None:
                moves = self._followed(game, state, setup)
            engine = self._running()
            self._tell(engine, game, state, setup, moves)
            answer = engine.ask(f"genmove {game.to_move(state).lower()}", self.timeout)
            resigns = answer.lower() == "resign"
            move: Any = None if resigns else self._move(game, state, answer)
        except BaseException:  # a failure, or an interruption mid-answer: the engine is lost
            self._stop(kill=True)
            raise
        if resigns:  # the engine played nothing: its game is still ``state``
            raise Resigns(f"{self.name} resigns")
        self._told = (setup, (*moves, move))  # genmove plays the move
        self._seen = game.result(state, move) if followed else None
        return move

    def _followed(
        self, game: Game[Any, Any], state: Any, setup: tuple[str, ...]
    ) -> tuple[Any, ...]:
        """The moves of the game that led to ``state``: the engine's game and the moves
        since its last position, else the moves from the start (:data:`MOST_UNSEEN` at
        most each way)."""
        told = self._told
        if told is not None and told[0] == setup and self._seen is not None:
            since = _moves_between(game, self._seen, state, MOST_UNSEEN)
            if since is not None:
                return (*told[1], *since)
        from_start = _moves_between(game, game.initial_state(), state, MOST_UNSEEN)
        if from_start is None:
            raise EngineFailure(
                self.name, "cannot tell it this position: it plays games from the start"
            )
        return from_start

    def _move(self, game: Game[Any, Any], state: Any, answer: str) -> Any:
        """The move the engine answered, or an :class:`EngineFailure` for none or an illegal
        one."""
        if not answer:
            raise EngineFailure(self.name, "no move")
        try:
            return game.parse_action(state, answer)
        except PliesError as error:
            raise EngineFailure(self.name, str(error)) from None

    def _running(self) -> _Engine:
        """The running engine, started if need be."""
        if self._engine is not None and self._engine.owner != os.getpid():
            self._engine = self._told = None  # the parent's, in a forked child
        if self._engine is None:
            try:
                self._engine = _Engine(self.argv, self.name)
            except OSError as error:
                raise EngineFailure(self.name, f"cannot start: {error}") from None
        return self._engine

    def _tell(
        self,
        engine: _Engine,
        game: Game[Any, Any],
        state: Any,
        setup: tuple[str, ...],
        moves: tuple[Any, ...],
    ) -> None:
        """Bring the engine's game to ``state`` (reached by ``moves``): play the moves it has
        not seen, after the set-up commands unless its game leads to ``state``."""
        told = self._told
        if told is None or told[0] != setup or moves[: len(told[1])] != told[1]:
            for command in setup:
                engine.ask(command, self.timeout)
            told = (setup, ())
        players, described = game.players, _gtp_game(game)
        for index in range(len(told[1]), len(moves)):
            vertex = described.gtp_vertex(moves[index])
            if vertex is not None:  # the players alternate from the start (a pass is a move)
                engine.ask(f"play {players[index % 2]} {vertex}", self.timeout)
        self._told = (setup, moves)

    def _stop(self, *, kill: bool = False) -> None:
        engine, self._engine, self._told, self._seen = self._engine, None, None, None
        if engine is not None and engine.owner == os.getpid():
            engine.stop(kill=kill)

    def reset(self, seed: int | None = None) -> None:
        """The next move sets up a new game (``clear_board``); the engine keeps running (its
        randomness, if any, is its own: the seed is not passed on)."""
        self._told = self._seen = None

    def close(self) -> None:
        """Quit the engine (the next move starts it again)."""
        self._stop()

    def __del__(self) -> None:
        engine = getattr(self, "_engine", None)
        if engine is not None and engine.owner == os.getpid():
            engine.stop_soon()


@cache
def _check(argv: tuple[str, ...], needed: tuple[str, ...]) -> None:
    """A :class:`SpecError` unless the engine answers ``list_commands`` with every command
    ``needed`` (it is started, asked and quit once per command line and game)."""
    described = f"gtp: {shlex.join(argv)!r}"
    try:
        engine = _Engine(argv, described)
    except OSError as error:
        raise SpecError(f"{described} cannot start: {error}") from None
    try:
        listed = engine.ask("list_commands", START_SECONDS).split()
    except EngineFailure as failure:
        engine.stop(kill=True)
        reason = f"{failure.reason}; GNU Go needs --mode gtp"
        raise SpecError(f"{described} is no GTP engine: {reason}") from None
    engine.stop()
    missing = [command for command in needed if command not in listed]
    if missing:
        raise SpecError(f"{described} lacks the GTP command(s) {', '.join(missing)}")


def _gtp(game: Game[Any, Any], values: Mapping[str, Any], context: Context) -> Agent:
    setup = _gtp_game(game).gtp_setup()
    argv = engine_command("gtp", values["cmd"], "gnugo --mode gtp")
    _check(argv, tuple(dict.fromkeys([command.split()[0] for command in setup] + [*NEEDED])))
    return GTPAgent(argv, values["timeout"], context.name)


register(
    AgentKind(
        "gtp",
        "a GTP engine (GNU Go, GRhino...): gtp:gnugo --mode gtp --level 1",
        (
            COMMAND,
            Option("timeout", "number", "seconds an answer may take", UNTIMED, SECONDS),
        ),
        _gtp,
        positional="cmd",
        runs_program=True,
    )
)
