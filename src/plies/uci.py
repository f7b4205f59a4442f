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

Bad input is answered with one ``info string <reason>`` line and never ends the loop:

- An unknown or malformed command is ignored.
- ``position``: the moves are played up to the first malformed or illegal one, which is named
  (Stockfish's practice); the rest are ignored. When the base position cannot be set (no
  ``startpos`` or ``fen``, a bad FEN), no position is set: a ``go`` answers ``info string no
  valid position`` and ``bestmove 0000`` (the null move) at once, until a valid ``position``.
- ``go`` always ends with exactly one ``bestmove``. A parameter without a whole-number value,
  with one out of its range (see :func:`parse_go`) or unknown is ignored, and the rest are
  obeyed. ``go infinite`` and a bare ``go`` (unsupported parameters aside) search until
  ``stop``; any other ``go`` that leaves the side to move no limit (no ``depth``, ``nodes``,
  ``movetime`` or clock of its own) searches :data:`DEFAULT_MOVETIME_MS`.
- ``setoption`` with an unknown name, or a value that is no whole number in the option's
  range, changes nothing.

Under UCI, threefold repetition and the fifty-move rule draw only when claimed, and claims are
the GUI's business: the engine searches such a position (:func:`claimable_draws_lifted`) and
answers ``bestmove (none)`` only when the side to move has no legal move (checkmate,
stalemate); in a dead position (insufficient material) any legal move draws and it plays one.
End of input ends the loop once a search with a limit has ended (one without is stopped).

Scores are the engine's, from the side to move's view: ``score cp`` in centipawns
(:func:`~plies.games.chess.rules.centipawns` inverts the evaluation's mapping into (-1, 1)), and
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

import io
import sys
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TextIO

import chess

from plies import __version__
from plies.clock import MIN_MOVE_SECONDS, move_budget
from plies.errors import (
    IllegalMoveError,
    InvalidPositionError,
    ParseError,
    PliesError,
    SpecError,
    one_line,
)
from plies.games.chess.rules import FIFTY_MOVES, UCI_MOVE, Chess, ChessState, centipawns
from plies.search import EngineOptions, Limits, SearchResult, TranspositionTable, iterate

ENGINE_NAME = f"plies {__version__}"
ENGINE_AUTHOR = "the plies authors"

HASH_MB = (16, 1, 1024)
"""The Hash option in MB: default, minimum, maximum (the engine's transposition table)."""
MOVE_OVERHEAD_MS = (30, 0, 5000)
"""The Move Overhead option in ms: default, minimum, maximum. Time lost per move to the GUI,
the pipe and the operating system, kept back from every move's budget."""


@dataclass(frozen=True)
class Go:
    """The parameters of a ``go`` command (times in milliseconds)."""

    wtime: int | None = None
    btime: int | None = None
    winc: int | None = None
    binc: int | None = None
    movestogo: int | None = None
    movetime: int | None = None
    depth: int | None = None
    nodes: int | None = None
    infinite: bool = False


INT64 = 2**63 - 1
"""The largest number a ``go`` parameter may have (UCI engines read them as 64-bit integers)."""
GO_NUMBERS = {
    "wtime": -INT64 - 1,
    "btime": -INT64 - 1,
    "winc": 0,
    "binc": 0,
    "movestogo": 1,
    "movetime": 0,
    "depth": 1,
    "nodes": 1,
}
"""The numeric ``go`` parameters and the least value of each (a clock below zero has run out:
the shortest search)."""
GO_IGNORED = ("ponder", "mate", "searchmoves")
"""Standard ``go`` parameters this engine does not support: noted and ignored."""
GO_WORDS = (*GO_NUMBERS, "infinite", *GO_IGNORED)
DEFAULT_MOVETIME_MS = 1000
"""The search time of a ``go`` whose parameters leave the side to move no limit."""


def shown(text: str) -> str:
    """``text`` quoted for an ``info string``, cut short when long."""
    return repr(text if len(text) <= 24 else text[:20] + "...")


def parse_go(tokens: Sequence[str]) -> tuple[Go, list[str], list[str]]:
    """The ``go`` parameters after the word ``go``, the unsupported ones it ignored, and the
    malformed ones it ignored, each with the reason: a number missing, not whole, or out of
    range (from :data:`GO_NUMBERS` up to :data:`INT64`), or an unknown word (with the words
    after it up to the next parameter).

    >>> parse_go("wtime 60000 btime 58000 winc 1000 binc 1000".split())[0].btime
    58000
    >>> parse_go("depth x movestogo 0 wtime 900 nodes".split())[2]
    ["depth 'x' (not a whole number)", "movestogo '0' (less than 1)", 'nodes (no value)']
    """
    values: dict[str, int | bool] = {}
    ignored: list[str] = []
    problems: list[str] = []
    index = 0
    while index < len(tokens):
        word = tokens[index]
        index += 1
        if word in GO_NUMBERS:
            if index == len(tokens) or tokens[index] in GO_WORDS:
                problems.append(f"{word} (no value)")
                continue
            text = tokens[index]
            index += 1
            try:
                number = int(text)
            except ValueError:
                problems.append(f"{word} {shown(text)} (not a whole number)")
                continue
            if number < GO_NUMBERS[word]:
                problems.append(f"{word} {shown(text)} (less than {GO_NUMBERS[word]})")
            elif number > INT64:
                problems.append(f"{word} {shown(text)} (more than 2**63 - 1)")
            else:
                values[word] = number
        elif word == "infinite":
            values["infinite"] = True
        elif word in GO_IGNORED:
            ignored.append(word)
            values_left = 1 if word == "mate" else 0 if word == "ponder" else len(tokens)
            while values_left and index < len(tokens) and tokens[index] not in GO_WORDS:
                index, values_left = index + 1, values_left - 1
        else:
            unknown = [word]
            while index < len(tokens) and tokens[index] not in GO_WORDS:
                unknown.append(tokens[index])
                index += 1
            problems.append(f"{shown(' '.join(unknown))} (unknown)")
    return Go(**values), ignored, problems  # type: ignore[arg-type]


def move_seconds(go: Go, white: bool, overhead_ms: int) -> float | None:
    """The time the move may take, or None when ``go`` gives no clock.

    ``movetime`` less the overhead; else a share of the mover's clock
    (:func:`plies.clock.move_budget`, with ``movestogo``) less the overhead; never under
    :data:`~plies.clock.MIN_MOVE_SECONDS`.

    >>> move_seconds(Go(wtime=60000, btime=60000, winc=1000), True, 30)
    2.72
    >>> move_seconds(Go(wtime=100, btime=100, winc=5000), True, 30)
    0.02
    """
    clock = go.wtime if white else go.btime
    increment = (go.winc if white else go.binc) or 0
    if go.movetime is not None:
        budget_ms = float(go.movetime)
    elif clock is not None:
        budget_ms = move_budget(clock, increment, go.movestogo)
    else:
        return None
    return max(MIN_MOVE_SECONDS, round((budget_ms - overhead_ms) / 1000, 6))


def claimable_draws_lifted(state: ChessState) -> ChessState:
    """``state`` as the engine searches it under UCI, where a draw by repetition or by the
    fifty-move rule counts only when claimed: the earlier occurrences of the position are
    dropped from its history and its halfmove clock is held under :data:`FIFTY_MOVES`. Draws
    that could be claimed later in the search still count (the position recurring, a
    reversible move at the clock's limit), as in Stockfish.

    >>> game = Chess()
    >>> shuffle = ["g1f3", "g8f6", "f3g1", "f6g8"] * 2
    >>> state = game.from_uci_moves(game.initial_state(), shuffle)
    >>> game.is_terminal(state), game.is_terminal(claimable_draws_lifted(state))
    (True, False)
    """
    board = state.board
    if board.halfmove_clock >= FIFTY_MOVES:
        board = board.copy(stack=False)
        board.halfmove_clock = FIFTY_MOVES - 1
    return ChessState(board, tuple(key for key in state.history if key != state.position))


def score_text(report: SearchResult[chess.Move]) -> str:
    """``cp X`` or ``mate N`` (moves, negative when the side to move is mated)."""
    moves = report.mate_moves
    if moves is None:
        assert report.score is not None, "an engine result"
        return f"cp {centipawns(report.score)}"
    return f"mate {moves}"


def info_line(report: SearchResult[chess.Move], hashfull: int | None = None) -> str:
    """The ``info`` line of a completed iteration (``time`` in ms, ``hashfull`` in permill)."""
    depth, stats = report.depth or 0, report.stats
    line = (
        f"info depth {depth} seldepth {max(stats.max_depth, depth)} "
        f"score {score_text(report)} nodes {stats.nodes} nps {round(report.nps)} "
        f"time {round(stats.time * 1000)}"
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
        self.state: ChessState | None = self.game.initial_state()
        """The position ``go`` searches; None after a ``position`` whose base was bad."""
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
                self.set_position(arguments)
            elif command == "go":
                self.finish()
                self.go(arguments)
            else:
                raise ParseError(f"unknown command {command!r}")
        except PliesError as error:
            self.write("info string " + one_line(str(error)))
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
            raise ParseError(
                f"setoption: unknown option {shown(name)} (options: Hash, Move Overhead)"
            )
        _, low, high = spins[name.lower()]
        try:
            number = int(value)
        except ValueError:
            raise ParseError(
                f"setoption: {name} needs a whole number, got {shown(value)}"
            ) from None
        if not low <= number <= high:
            raise SpecError(f"setoption: {name} must be from {low} to {high}, got {shown(value)}")
        if name.lower() == "hash":
            self.hash_mb, self.table = number, None
        else:
            self.overhead_ms = number

    def set_position(self, arguments: Sequence[str]) -> None:
        """``position startpos|fen <FEN> [moves <uci>...]``. Raises for a bad base position,
        leaving none set, and for a malformed or illegal move, leaving the position after the
        moves before it."""
        self.state = None
        words = list(arguments)
        split = words.index("moves") if "moves" in words else len(words)
        setup, moves = words[:split], words[split + 1 :]
        if setup == ["startpos"]:
            state = self.game.initial_state()
        elif setup[:1] == ["fen"] and len(setup) > 1:
            try:
                state = self.game.parse_position(" ".join(setup[1:]))
            except InvalidPositionError as error:
                raise InvalidPositionError(f"position: {error}; no position is set") from None
        else:
            raise ParseError(
                "position: expected 'position startpos|fen <FEN> [moves ...]'; no position is set"
            )
        self.state = state
        for number, text in enumerate(moves, start=1):
            move = chess.Move.from_uci(text) if UCI_MOVE.fullmatch(text) else None
            if move is None or move not in state.moves:
                fault = "not a UCI move" if move is None else f"not legal in {state.board.fen()}"
                raise IllegalMoveError(
                    f"position: move {number} {shown(text)} is {fault}; it and the moves "
                    "after it are ignored"
                )
            state = self.game.result(state, move)
            self.state = state

    def go(self, arguments: Sequence[str]) -> None:
        """Start a search in a worker thread (see :func:`move_seconds` for the clock), or
        answer ``bestmove 0000`` at once when no position is set."""
        go, unsupported, problems = parse_go(arguments)
        if self.state is None:
            self.write("info string no valid position: send 'position startpos|fen <FEN>' first")
            self.write("bestmove 0000")
            return
        white = self.state.board.turn == chess.WHITE
        seconds = move_seconds(go, white, self.overhead_ms)
        endless = seconds is None and go.depth is None and go.nodes is None
        fallback = endless and not go.infinite and (bool(problems) or go != Go())
        notes = [f"ignored {word} (unsupported)" for word in unsupported]
        notes += [f"ignored {problem}" for problem in problems]
        if fallback:
            clock = "wtime" if white else "btime"
            notes.append(
                f"no depth, nodes, movetime or {clock} for the side to move: "
                f"searching {DEFAULT_MOVETIME_MS} ms"
            )
            seconds = move_seconds(Go(movetime=DEFAULT_MOVETIME_MS), white, self.overhead_ms)
        if notes:
            self.write("info string go: " + "; ".join(notes))
        self._stop = threading.Event()
        limits = Limits(depth=go.depth, nodes=go.nodes, seconds=seconds, stop=self._stop)
        if self.table is None:
            self.table = TranspositionTable(self.hash_mb)
        self._limited = not go.infinite and (fallback or not endless)
        self._worker = threading.Thread(
            target=self._search,
            args=(claimable_draws_lifted(self.state), limits, self.table),
            daemon=True,
        )
        self._worker.start()

    def _search(self, state: ChessState, limits: Limits, table: TranspositionTable) -> None:
        """The worker: ``info`` per completed iteration, then ``bestmove`` (after ``stop``
        when the search has no limit)."""
        best: chess.Move | None = None
        try:
            if self.game.is_terminal(state):  # no legal move, or a dead position: all draw
                mover = self.game.to_move(state)
                score = "mate 0" if self.game.utility(state, mover) < 0 else "cp 0"
                self.write(f"info depth 0 score {score}")
            else:
                for report in iterate(self.game, state, limits, EngineOptions(), table):
                    if report.complete:
                        self.write(info_line(report, table.used * 1000 // table.size))
                    best = report.action
        except PliesError as error:
            self.write("info string " + one_line(str(error)))
        finally:  # whatever happened, one bestmove, a legal one while any is left
            if best is None and state.moves:
                best = state.ordered_moves[0]
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
    if isinstance(reader, io.TextIOWrapper):
        reader.reconfigure(errors="replace")  # a byte that is no UTF-8 must not end the loop
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
