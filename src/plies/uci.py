"""The UCI front end: ``plies uci`` lets chess GUIs, lichess-bot and tournament managers run the
plies engine over the Universal Chess Interface (Stefan Meyer-Kahlen's protocol description,
April 2006).

The loop reads commands on standard input and answers on standard output. A ``go`` starts the
engine (:func:`plies.search.engine.iterate`) in a worker thread, so the main thread keeps
reading: ``isready`` is answered and ``stop`` is obeyed during a search (the engine checks its
stop event where it checks its clock, every 16 nodes). Each completed iteration prints an
``info`` line, the end of the search ``bestmove``; after ``go infinite`` the best move waits
for ``stop``. A command that changes the engine (``position``, ``go``, ``setoption``,
``ucinewgame``) first lets a running search with a limit end, or stops one without (GUIs send
``stop`` first; scripts may pipe ``go depth 6`` and ``position`` at once); ``quit`` stops it.

Malformed or unknown commands, bad FENs and illegal moves are answered with
``info string <reason>`` and ignored: the previous position stays. End of input ends the loop
once a search with a limit has ended (one without is stopped).

Scores are the engine's, from the side to move's view: ``score cp`` in centipawns
(:func:`centipawns` inverts the chess evaluation's mapping of centipawns into (-1, 1)), and
``score mate N`` in moves, negative when the engine is the side mated.

>>> lines: list[str] = []
>>> engine = UciEngine(lines.append)
>>> for command in ["uci", "position startpos moves e2e4", "go depth 1", "quit"]:
...     engine.handle(command)
True
True
True
False
>>> lines[-1].startswith("bestmove ")
True
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TextIO

import chess

from plies import __version__
from plies.errors import ParseError, PliesError, SpecError
from plies.games.chess import CENTIPAWN_SCALE, Chess, ChessState
from plies.search.engine import EngineOptions, Limits, Report, TranspositionTable, iterate

ENGINE_NAME = f"plies {__version__}"
ENGINE_AUTHOR = "the plies authors"

HASH_MB = (16, 1, 1024)
"""The Hash option in MB: default, minimum, maximum (the engine's transposition table)."""
MOVE_OVERHEAD_MS = (30, 0, 5000)
"""The Move Overhead option in ms: default, minimum, maximum. Time lost per move to the GUI,
the pipe and the operating system, kept back from every move's budget."""

MOVES_TO_GO = 30
"""Moves assumed left to the next time control when ``go`` gives no ``movestogo``."""
INCREMENT_SHARE = 0.75
"""The part of the increment spent on the current move."""
CLOCK_SHARE = 0.5
"""No move takes more than this part of the remaining clock."""
MIN_MOVE_SECONDS = 0.01
"""The shortest search the time manager asks for."""


@dataclass(frozen=True)
class Go:
    """The parameters of a ``go`` command (times in milliseconds)."""

    wtime: int | None = None
    btime: int | None = None
    winc: int = 0
    binc: int = 0
    movestogo: int | None = None
    movetime: int | None = None
    depth: int | None = None
    nodes: int | None = None
    infinite: bool = False

    @property
    def limited(self) -> bool:
        """Whether the search ends by itself (``go`` with no limit searches until ``stop``)."""
        return not self.infinite and any(
            value is not None
            for value in (self.wtime, self.btime, self.movetime, self.depth, self.nodes)
        )


GO_NUMBERS = ("wtime", "btime", "winc", "binc", "movestogo", "movetime", "depth", "nodes")
GO_IGNORED = ("ponder", "mate", "searchmoves")
"""Standard ``go`` parameters this engine does not support: noted and ignored."""


def parse_go(tokens: Sequence[str]) -> tuple[Go, list[str]]:
    """The ``go`` parameters after the word ``go``, and the unsupported ones it ignored.

    >>> parse_go("wtime 60000 btime 58000 winc 1000 binc 1000".split())[0].btime
    58000
    >>> parse_go(["depth", "x"])
    Traceback (most recent call last):
    ...
    plies.errors.ParseError: go: depth needs a whole number, got 'x'
    """
    values: dict[str, int | bool] = {}
    ignored: list[str] = []
    index = 0
    while index < len(tokens):
        word = tokens[index]
        index += 1
        if word in GO_NUMBERS:
            if index == len(tokens):
                raise ParseError(f"go: {word} needs a number")
            try:
                values[word] = int(tokens[index])
            except ValueError:
                raise ParseError(
                    f"go: {word} needs a whole number, got {tokens[index]!r}"
                ) from None
            index += 1
        elif word == "infinite":
            values["infinite"] = True
        elif word in GO_IGNORED:
            ignored.append(word)
            if word == "mate":
                index += 1
            elif word == "searchmoves":
                while index < len(tokens) and tokens[index] not in (*GO_NUMBERS, *GO_IGNORED):
                    index += 1
        else:
            raise ParseError(f"go: unknown parameter {word!r}")
    if values.get("movestogo", 1) <= 0:
        raise ParseError(f"go: movestogo must be positive, got {values['movestogo']}")
    return Go(**values), ignored  # type: ignore[arg-type]


def move_seconds(go: Go, white: bool, overhead_ms: int) -> float | None:
    """The time the move may take, or None when ``go`` gives no clock.

    ``movetime`` less the overhead; else a share of the mover's clock: remaining time over the
    moves to go (``movestogo``, else :data:`MOVES_TO_GO`) plus 3/4 of the increment, at most
    half the remaining time, less the overhead; never under :data:`MIN_MOVE_SECONDS`.

    >>> move_seconds(Go(wtime=60000, btime=60000, winc=1000), True, 30)
    2.72
    >>> move_seconds(Go(wtime=100, btime=100, winc=5000), True, 30)
    0.02
    """
    clock = go.wtime if white else go.btime
    increment = go.winc if white else go.binc
    if go.movetime is not None:
        budget_ms = float(go.movetime)
    elif clock is not None:
        remaining = max(clock, 0)
        budget_ms = remaining / (go.movestogo or MOVES_TO_GO) + INCREMENT_SHARE * increment
        budget_ms = min(budget_ms, CLOCK_SHARE * remaining)
    else:
        return None
    return max(MIN_MOVE_SECONDS, round((budget_ms - overhead_ms) / 1000, 6))


def centipawns(score: float) -> int:
    """An engine score strictly inside (-1, 1) back in centipawns: the inverse of the chess
    evaluation's ``lead = cp / (|cp| + CENTIPAWN_SCALE)`` (see :mod:`plies.games.chess`).

    >>> centipawns(150 / (150 + CENTIPAWN_SCALE)), centipawns(0.0), centipawns(-0.5)
    (150, 0, -800)
    """
    return round(CENTIPAWN_SCALE * score / (1 - abs(score)))


def score_text(report: Report[chess.Move]) -> str:
    """``cp X`` or ``mate N`` (moves, negative when the side to move is mated)."""
    plies = report.mate
    if plies is None:
        return f"cp {centipawns(report.score)}"
    return f"mate {(plies + 1) // 2}" if plies > 0 else f"mate {-(-plies // 2)}"


def info_line(report: Report[chess.Move], hashfull: int | None = None) -> str:
    """The ``info`` line of a completed iteration (``time`` in ms, ``hashfull`` in permill)."""
    line = (
        f"info depth {report.depth} seldepth {max(report.seldepth, report.depth)} "
        f"score {score_text(report)} nodes {report.nodes} nps {round(report.nps)} "
        f"time {round(report.time * 1000)}"
    )
    if hashfull is not None:
        line += f" hashfull {hashfull}"
    return line + " pv " + " ".join(move.uci() for move in report.pv)


class UciEngine:
    """The protocol's state: position, options, table and the running search.

    :meth:`handle` takes one command line and returns False after ``quit``; ``write`` gets
    every answer line (called from the main and the search thread, under a lock).
    """

    def __init__(self, write: Callable[[str], None]) -> None:
        self._write = write
        self._lock = threading.Lock()
        self.game = Chess()
        self.state: ChessState = self.game.initial_state()
        self.hash_mb = HASH_MB[0]
        self.overhead_ms = MOVE_OVERHEAD_MS[0]
        self.table: TranspositionTable | None = None
        self._stop = threading.Event()
        self._limited = True
        self._worker: threading.Thread | None = None

    def write(self, line: str) -> None:
        with self._lock:
            self._write(line)

    def handle(self, line: str) -> bool:
        """Obey one command; False when it was ``quit``. Errors become ``info string``."""
        tokens = line.split()
        if not tokens:
            return True
        command, arguments = tokens[0], tokens[1:]
        try:
            if command == "quit":
                self.stop()
                return False
            if command == "uci":
                self.identify()
            elif command == "isready":
                self.write("readyok")
            elif command == "stop":
                self.stop()
            elif command == "debug":
                pass
            elif command == "ucinewgame":
                self.finish()
                self.table = None
            elif command == "setoption":
                self.finish()
                self.set_option(arguments)
            elif command == "position":
                self.finish()
                self.state = self.parse_position(arguments)
            elif command == "go":
                self.finish()
                self.go(arguments)
            else:
                raise ParseError(f"unknown command {command!r}")
        except PliesError as error:
            self.write("info string " + " ".join(str(error).split()))
        return True

    def identify(self) -> None:
        default, low, high = HASH_MB
        overhead, least, most = MOVE_OVERHEAD_MS
        for line in (
            f"id name {ENGINE_NAME}",
            f"id author {ENGINE_AUTHOR}",
            f"option name Hash type spin default {default} min {low} max {high}",
            f"option name Move Overhead type spin default {overhead} min {least} max {most}",
            "uciok",
        ):
            self.write(line)

    def set_option(self, arguments: Sequence[str]) -> None:
        """``setoption name <id> value <x>``; option names are not case sensitive."""
        if not arguments or arguments[0] != "name":
            raise ParseError("setoption: expected 'setoption name <id> value <x>'")
        words = list(arguments[1:])
        split = words.index("value") if "value" in words else len(words)
        name, value = " ".join(words[:split]), " ".join(words[split + 1 :])
        spins = {"hash": HASH_MB, "move overhead": MOVE_OVERHEAD_MS}
        if name.lower() not in spins:
            raise ParseError(f"setoption: unknown option {name!r} (options: Hash, Move Overhead)")
        _, low, high = spins[name.lower()]
        try:
            number = int(value)
        except ValueError:
            raise ParseError(f"setoption: {name} needs a whole number, got {value!r}") from None
        if not low <= number <= high:
            raise SpecError(f"setoption: {name} must be from {low} to {high}, got {number}")
        if name.lower() == "hash":
            self.hash_mb, self.table = number, None
        else:
            self.overhead_ms = number

    def parse_position(self, arguments: Sequence[str]) -> ChessState:
        """``position startpos|fen <FEN> [moves <uci>...]`` as a state."""
        words = list(arguments)
        split = words.index("moves") if "moves" in words else len(words)
        setup, moves = words[:split], words[split + 1 :]
        if setup == ["startpos"]:
            start = self.game.initial_state()
        elif setup[:1] == ["fen"] and len(setup) > 1:
            start = self.game.parse_position(" ".join(setup[1:]))
        else:
            raise ParseError("position: expected 'position startpos|fen <FEN> [moves ...]'")
        return self.game.from_uci_moves(start, moves)

    def go(self, arguments: Sequence[str]) -> None:
        """Start a search in a worker thread (see :func:`move_seconds` for the clock)."""
        go, ignored = parse_go(arguments)
        if ignored:
            self.write(f"info string go: ignoring unsupported {', '.join(ignored)}")
        white = self.state.board.turn == chess.WHITE
        self._stop = threading.Event()
        try:
            limits = Limits(
                depth=go.depth,
                nodes=go.nodes,
                time=move_seconds(go, white, self.overhead_ms),
                stop=self._stop,
            )
        except SpecError as error:
            raise SpecError(f"go: {error}") from None
        if self.table is None:
            self.table = TranspositionTable(self.hash_mb)
        self._limited = go.limited
        self._worker = threading.Thread(
            target=self._search, args=(self.state, limits, self.table), daemon=True
        )
        self._worker.start()

    def _search(self, state: ChessState, limits: Limits, table: TranspositionTable) -> None:
        """The worker: ``info`` per completed iteration, then ``bestmove`` (after ``stop``
        when the search has no limit)."""
        best: chess.Move | None = None
        if self.game.is_terminal(state):
            mover = self.game.to_move(state)
            score = "mate 0" if self.game.utility(state, mover) < 0 else "cp 0"
            self.write(f"info depth 0 score {score}")
        else:
            try:
                for report in iterate(self.game, state, limits, EngineOptions(), table):
                    if report.complete:
                        self.write(info_line(report, table.used * 1000 // table.size))
                    best = report.move
            except PliesError as error:
                self.write("info string " + " ".join(str(error).split()))
        if not self._limited:
            self._stop.wait()
        self.write(f"bestmove {'(none)' if best is None else best.uci()}")

    def stop(self) -> None:
        """End a running search and wait for its ``bestmove``."""
        self._stop.set()
        self.wait()

    def wait(self) -> None:
        """Wait for a running search to end by itself."""
        if self._worker is not None:
            self._worker.join()
            self._worker = None

    def finish(self) -> None:
        """Let a running search with a limit end; stop one without."""
        if not self._limited:
            self._stop.set()
        self.wait()


def run(source: TextIO | None = None, sink: TextIO | None = None) -> None:
    """Speak UCI on ``source`` and ``sink`` (standard input and output) until ``quit`` or the
    end of input."""
    reader = sys.stdin if source is None else source
    writer = sys.stdout if sink is None else sink

    def write(line: str) -> None:
        writer.write(line + "\n")
        writer.flush()

    engine = UciEngine(write)
    while True:
        line = reader.readline()
        if not line:
            engine.finish()
            return
        if not engine.handle(line):
            return
