"""The GTP front end: ``plies gtp`` lets Go programs, GUIs (Sabaki, GoGui) and tournament
runners play plies over the Go Text Protocol, version 2 (Gunnar Farnebäck's specification,
draft 2, 2002).

The loop reads one command a line on standard input and answers each on standard output:
``=`` and the result, or ``?`` and the reason, then an empty line; a command with an id
(``12 genmove b``) is answered with it (``=12 D4``). Comments (``#``) and empty lines are
ignored. The board is :class:`plies.games.go.Go` (area scoring, positional superko); the
moves come from an agent spec (``--agent``, :data:`DEFAULT_AGENT` by default).

Bad input never ends the loop: an unknown command, a malformed argument, a board size outside
5 to 19, a komi that is not a multiple of 0.5, an illegal or out-of-turn move and an ``undo``
with nothing to undo are answered with ``?`` and a reason, and the game goes on unchanged.

Resigning: with ``resign`` above 0, ``genmove`` answers ``resign`` (and plays nothing) when the
agent's search gives its side a lower chance of winning than that (an MCTS agent's mean result;
0, the default: never).

Time: ``time_settings MAIN BYOYOMI STONES`` and ``time_left COLOR TIME STONES`` give the clock;
each ``genmove`` then budgets its move from it (:func:`plies.clock.move_budget`; in byo-yomi
the period's time over its stones) for agents that play to a clock, else the agent's own time.

>>> lines: list[str] = []
>>> engine = GtpEngine("random", lines.append, seed=1)
>>> for command in ["boardsize 5", "play b C3", "genmove w", "final_score", "quit"]:
...     engine.handle(command)
True
True
True
True
False
>>> lines[0], lines[2][:2], lines[3]
('= ', '= ', '= W+7.5')
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from typing import TextIO

from plies import __version__
from plies.agents import make_agent
from plies.clock import Clocked
from plies.errors import PliesError, one_line
from plies.games.go.rules import PASS, SIZES, Go, GoState
from plies.search import SearchResult, declared_bounds
from plies.spec import SECONDS

DEFAULT_AGENT = "mcts:time=1"
COMMANDS = (
    "protocol_version",
    "name",
    "version",
    "known_command",
    "list_commands",
    "boardsize",
    "clear_board",
    "komi",
    "play",
    "genmove",
    "undo",
    "final_score",
    "time_settings",
    "time_left",
    "showboard",
    "quit",
)
COLOURS = {"b": "B", "black": "B", "w": "W", "white": "W"}


class GtpError(Exception):
    """A command that cannot be carried out: answered with ``?`` and the message."""


class GtpEngine:
    """The protocol's state: the board size, komi, the game so far and the clock."""

    def __init__(
        self,
        agent: str,
        write: Callable[[str], None],
        *,
        seed: int | None = None,
        resign: float = 0.0,
    ) -> None:
        if not 0 <= resign < 1:
            raise PliesError(f"resign must be a probability from 0 to below 1, got {resign}")
        self.agent_spec, self.write, self.seed, self.resign = agent, write, seed, resign
        self.left: dict[str, tuple[float, int]] = {}
        """Each colour's clock: seconds left, and stones to play in them (0: main time)."""
        self.new_game(9, 7.5, ())

    def new_game(self, size: int, komi: float, moves: Sequence[int]) -> None:
        """A board of ``size`` with ``komi``, ``moves`` replayed on it, and the agent built
        for it."""
        game = Go(size, komi)
        states = [game.initial_state()]
        for move in moves:
            states.append(game.result(states[-1], move))
        self.game, self.states = game, states
        self.agent = make_agent(self.agent_spec, game, seed=self.seed)

    @property
    def state(self) -> GoState:
        return self.states[-1]

    def handle(self, line: str) -> bool:
        """Answer one command line; False after ``quit``."""
        text = "".join(c if c.isprintable() or c == "\t" else " " for c in line)
        words = text.split("#", 1)[0].split()
        if not words:
            return True
        number = ""
        if words[0].isdigit():
            number, words = words[0], words[1:]
        if not words:
            self.write(f"?{number} no command")
            return True
        command, arguments = words[0].lower(), words[1:]
        try:
            answer = self.run(command, arguments)
        except (GtpError, PliesError) as error:
            self.write(f"?{number} {one_line(str(error))}")
            return True
        self.write(f"={number} {answer}")
        return command != "quit"

    def run(self, command: str, arguments: list[str]) -> str:
        """The result of ``command``; raises :class:`GtpError` for a command it refuses."""
        simple = {
            "protocol_version": "2",
            "name": "plies",
            "version": __version__,
            "list_commands": "\n".join(COMMANDS),
            "quit": "",
        }
        if command in simple:
            return simple[command]
        handlers: dict[str, Callable[[list[str]], str]] = {
            "known_command": lambda a: "true" if a[:1] and a[0] in COMMANDS else "false",
            "boardsize": self.boardsize,
            "clear_board": lambda a: self.reset(self.game.size),
            "komi": self.set_komi,
            "play": self.play,
            "genmove": self.genmove,
            "undo": self.undo,
            "final_score": lambda a: self.final_score(),
            "time_settings": self.time_settings,
            "time_left": self.time_left,
            "showboard": lambda a: "\n" + self.game.display(self.state),
        }
        handler = handlers.get(command)
        if handler is None:
            raise GtpError("unknown command")
        return handler(arguments)

    def reset(self, size: int) -> str:
        self.new_game(size, self.game.komi, ())
        return ""

    def boardsize(self, arguments: list[str]) -> str:
        size = _integer(arguments, "boardsize SIZE")
        if size not in SIZES:
            raise GtpError("unacceptable size")
        return self.reset(size)

    def set_komi(self, arguments: list[str]) -> str:
        komi = _number(arguments, "komi NUMBER")
        if abs(komi) > self.game.size**2 or komi * 2 != int(komi * 2):
            raise GtpError(f"komi {komi:g}: plies scores komi in half points within the board")
        self.new_game(self.game.size, komi, self.state.moves)
        return ""

    def _colour(self, arguments: list[str], usage: str) -> str:
        if not arguments or arguments[0].lower() not in COLOURS:
            raise GtpError(f"syntax error (usage: {usage})")
        colour = COLOURS[arguments[0].lower()]
        if self.game.is_terminal(self.state):
            raise GtpError("the game is over (two passes)")
        if colour != self.state.to_move:
            raise GtpError(f"{'black' if colour == 'B' else 'white'} is not to move")
        return colour

    def play(self, arguments: list[str]) -> str:
        self._colour(arguments, "play COLOR VERTEX")
        if len(arguments) != 2:
            raise GtpError("syntax error (usage: play COLOR VERTEX)")
        try:
            move = self.game.parse_action(self.state, arguments[1])
        except PliesError as error:
            raise GtpError(f"illegal move: {error}") from None
        self.states.append(self.game.result(self.state, move))
        return ""

    def genmove(self, arguments: list[str]) -> str:
        colour = self._colour(arguments, "genmove COLOR")
        if isinstance(self.agent, Clocked) and colour in self.left:
            self.agent.set_clock(*self._clock(colour))
        move = self.agent(self.game, self.state)
        if self._hopeless():
            return "resign"
        self.states.append(self.game.result(self.state, move))
        return "pass" if move == PASS else self.game.format_action(self.state, move)

    def _hopeless(self) -> bool:
        """Whether the agent's own search gives its side less than :attr:`resign` as the
        chance of winning (its value mapped from the loss's utility to the win's)."""
        result = getattr(self.agent, "last", None)
        if not self.resign or not isinstance(result, SearchResult):
            return False
        bounds = declared_bounds(self.game)
        assert bounds is not None, "Go is a win/loss/draw game"
        loss, win = bounds
        return (result.value - loss) / (win - loss) < self.resign

    def _clock(self, colour: str) -> tuple[float, float]:
        """(remaining, increment) for the agent: in byo-yomi the period's share a stone."""
        time, stones = self.left[colour]
        if stones > 0:
            return time / stones, 0.0
        return time, 0.0

    def undo(self, arguments: list[str]) -> str:
        if len(self.states) == 1:
            raise GtpError("cannot undo")
        self.states.pop()
        return ""

    def final_score(self) -> str:
        score = self.game.score(self.state)
        return "0" if score == 0 else f"B+{score:g}" if score > 0 else f"W+{-score:g}"

    def time_settings(self, arguments: list[str]) -> str:
        if len(arguments) != 3:
            raise GtpError("syntax error (usage: time_settings MAIN BYOYOMI STONES)")
        main = _number(arguments[:1], "time_settings MAIN BYOYOMI STONES")
        period = _number(arguments[1:2], "time_settings MAIN BYOYOMI STONES")
        stones = _integer(arguments[2:], "time_settings MAIN BYOYOMI STONES")
        if main < 0 or period < 0 or stones < 0:
            raise GtpError("time_settings: times and stones must not be negative")
        if max(main, period) > MAX_SECONDS:
            raise GtpError(f"time_settings: times must be at most {MAX_SECONDS:,} s")
        clock = (main, 0) if main > 0 else (period, stones)
        self.left = {colour: clock for colour in ("B", "W")} if clock[0] > 0 else {}
        return ""

    def time_left(self, arguments: list[str]) -> str:
        if len(arguments) != 3 or arguments[0].lower() not in COLOURS:
            raise GtpError("syntax error (usage: time_left COLOR TIME STONES)")
        time = _number(arguments[1:2], "time_left COLOR TIME STONES")
        stones = _integer(arguments[2:], "time_left COLOR TIME STONES")
        if time < 0 or stones < 0:
            raise GtpError("time_left: time and stones must not be negative")
        if time > MAX_SECONDS:
            raise GtpError(f"time_left: the time must be at most {MAX_SECONDS:,} s")
        self.left[COLOURS[arguments[0].lower()]] = (time, stones)
        return ""


MAX_SECONDS = int(SECONDS.maximum)
"""The longest clock a controller may set (plies' limit on every time: eleven days)."""


def _integer(arguments: list[str], usage: str) -> int:
    """A whole number of at most 9 digits (longer ones are no size, time or count)."""
    digits = arguments[0].lstrip("-") if len(arguments) == 1 else ""
    if not (digits.isascii() and digits.isdigit() and len(digits) <= 9):
        raise GtpError(f"syntax error (usage: {usage})")
    return int(arguments[0])


def _number(arguments: list[str], usage: str) -> float:
    try:
        value = float(arguments[0]) if len(arguments) == 1 else None
    except ValueError:
        value = None
    if value is None or value != value or value in (float("inf"), float("-inf")):
        raise GtpError(f"syntax error (usage: {usage})")
    return value


def run(
    agent: str = DEFAULT_AGENT,
    source: TextIO | None = None,
    sink: TextIO | None = None,
    resign: float = 0.0,
) -> None:
    """Play GTP on ``source`` and ``sink`` (standard input and output) until ``quit`` or the
    end of input, resigning below ``resign`` (see :class:`GtpEngine`)."""
    source = sys.stdin if source is None else source
    sink = sys.stdout if sink is None else sink

    def write(answer: str) -> None:
        sink.write(answer + "\n\n")
        sink.flush()

    engine = GtpEngine(agent, write, resign=resign)
    for line in source:
        if not engine.handle(line):
            break
