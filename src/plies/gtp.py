"""The GTP front end: ``plies gtp`` lets Go programs, GUIs (Sabaki, GoGui) and tournament
runners play plies over the Go Text Protocol, version 2 (Gunnar Farnebäck's specification,
draft 2, 2002).

The loop reads one command a line on standard input and answers each on standard output:
``=`` and the result, or ``?`` and the reason, then an empty line; a command with an id
(``12 genmove b``) is answered with it (``=12 D4``). Comments (``#``) and empty lines are
ignored. The board is :class:`plies.games.go.Go` (area scoring, positional superko); the
moves come from an agent spec (``--agent``, :data:`DEFAULT_AGENT` by default).

Bad input never ends the loop: an unknown command, a malformed argument, a board size outside
5 to 19, a komi that is not a multiple of 0.5, an illegal or out-of-turn move, an ``undo``
with nothing to undo, an unknown status, an SGF file that cannot be read or holds handicap or
setup stones, and handicap stones (``fixed_handicap``: plies' Go starts from the empty board)
are answered with ``?`` and a reason, and the game goes on unchanged.

The end of the game: ``final_status_list dead|alive|seki`` lists the chains with that status,
one a line, and ``final_score`` counts the area with the dead stones removed, as GNU Go does
with ``--chinese-rules`` (:mod:`plies.games.go.scoring`: dead stones judged by random
playouts), so the players need not capture every dead stone; the game's own result stays
Tromp-Taylor's. ``loadsgf FILE [MOVE_NUMBER]`` sets the board, komi and game from an SGF
record, up to the position before ``MOVE_NUMBER``.

Resigning: ``genmove`` answers ``resign`` (and plays nothing) when the agent resigns
(:class:`~plies.errors.Resigns`), or, with ``resign`` above 0, when the agent's search gives
its side a lower chance of winning than that (an MCTS agent's mean result; 0, the default:
never).

Time: ``time_settings MAIN BYOYOMI STONES`` and ``time_left COLOR TIME STONES`` give the clock;
each ``genmove`` then budgets its move from it (:func:`plies.clock.move_budget`; in byo-yomi
the period's time over its stones) for agents that play to a clock, else the agent's own time.

>>> lines: list[str] = []
>>> engine = GtpEngine("random", lines.append, seed=1)
>>> for command in ["boardsize 5", "play b C3", "genmove w", "final_status_list seki", "quit"]:
...     engine.handle(command)
True
True
True
True
False
>>> lines[0], lines[2][:2], lines[3]
('= ', '= ', '= ')
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from typing import TextIO

from plies import __version__
from plies.agents import make_agent
from plies.clock import Clocked
from plies.errors import PliesError, Resigns, one_line
from plies.games.go.rules import PASS, SIZES, Go, GoState
from plies.games.go.scoring import FinalStatus, final_score, final_status
from plies.inputs import read_text
from plies.search import SearchResult, winning_chance
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
    "final_status_list",
    "loadsgf",
    "time_settings",
    "time_left",
    "showboard",
    "quit",
)
COLOURS = {"b": "B", "black": "B", "w": "W", "white": "W"}
STATUSES = ("alive", "dead", "seki")
"""The statuses of ``final_status_list``."""
SGF_BYTES = 1024 * 1024
"""The longest SGF file ``loadsgf`` reads."""


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
        self.judged: tuple[GoState, FinalStatus] | None = None
        """The last position whose dead stones were judged, and their status."""
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
            "final_status_list": self.final_status_list,
            "loadsgf": self.loadsgf,
            "fixed_handicap": self.fixed_handicap,
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
        try:
            move = self.agent(self.game, self.state)
        except Resigns:
            return "resign"
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
        chance = winning_chance(self.game, result)
        assert chance is not None, "Go is a win/loss/draw game"
        return chance < self.resign

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

    def _status(self) -> FinalStatus:
        """The dead stones of the current position (judged once a position)."""
        if self.judged is None or self.judged[0] != self.state:
            self.judged = (self.state, final_status(self.game, self.state))
        return self.judged[1]

    def final_score(self) -> str:
        score = final_score(self.game, self.state, self._status())
        return "0" if score == 0 else f"B+{score:g}" if score > 0 else f"W+{-score:g}"

    def final_status_list(self, arguments: list[str]) -> str:
        if len(arguments) != 1:
            raise GtpError("syntax error (usage: final_status_list alive|dead|seki)")
        status = arguments[0].lower()
        if status not in STATUSES:
            raise GtpError(f"unknown status {arguments[0][:20]!r} (alive, dead or seki)")
        chains = self._status().stones(status)
        point = self.game.format_action
        return "\n".join(" ".join(point(self.state, p) for p in chain) for chain in chains)

    def loadsgf(self, arguments: list[str]) -> str:
        """Read an SGF game: its board size and komi, and its moves up to the position before
        move ``MOVE_NUMBER`` (all of them without); any error leaves the game as it was."""
        usage = "loadsgf FILE [MOVE_NUMBER]"
        if not 1 <= len(arguments) <= 2:
            raise GtpError(f"syntax error (usage: {usage})")
        before = _integer(arguments[1:], usage) if len(arguments) == 2 else None
        if before is not None and before < 1:
            raise GtpError(f"loadsgf: the move number must be at least 1, got {before}")
        game, state = Go.from_sgf(read_text(arguments[0], "SGF file", SGF_BYTES), self.game.komi)
        if game.size not in SIZES:
            raise GtpError(f"loadsgf: a {game.size}x{game.size} board: unacceptable size")
        moves = state.moves if before is None else state.moves[: before - 1]
        self.new_game(game.size, game.komi, moves)
        return ""

    def fixed_handicap(self, arguments: list[str]) -> str:
        raise GtpError("handicap stones are not supported (plies' Go starts from the empty board)")

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
