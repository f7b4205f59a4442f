"""The UCI front end: ``plies uci`` lets chess GUIs, lichess-bot and tournament managers run the
plies engine over the Universal Chess Interface (Stefan Meyer-Kahlen's protocol description,
April 2006).

The loop reads commands on standard input and answers on standard output. A ``go`` starts the
engine (:func:`plies.search.iterate`) in a worker thread, so the main thread keeps reading:
``isready`` is answered and ``stop`` and ``ponderhit`` are obeyed during a search (the engine
checks its stop event where it checks its clock, every 16 nodes). Each completed iteration
prints an ``info`` line, the end of the search ``bestmove``, with ``ponder <move>`` where its
line goes on to the opponent's reply. A command that changes the engine (``position``, ``go``,
``setoption``, ``ucinewgame``) first lets a running search with a limit end, or stops one
without or one pondering (GUIs send ``stop`` first; scripts may pipe ``go depth 6`` and
``position`` at once); ``quit`` stops it.

Every ``go`` ends with exactly one ``bestmove``. Its parameters (times in milliseconds):

- ``wtime``, ``btime``, ``winc``, ``binc``, ``movestogo``: the move may take a share of the side
  to move's clock (:func:`move_seconds`); ``movetime``: the move's time; ``depth`` (plies),
  ``nodes``: limits. The search ends at the first limit reached, or when it proves a mate.
- ``mate N``: a depth limit of ``2N - 1`` plies, where a full-width search finds a mate in
  ``N`` moves (the engine's pruning may miss one); as always the search ends as soon as it
  proves a mate (for either side), else at that depth or another limit.
- ``searchmoves <move>...``: only these moves are searched at the root (the ``root_moves`` of
  :func:`~plies.search.iterate`); a word that is no UCI move, or no legal one, is named in an
  ``info string`` and left out, and when no legal move is left every move is searched.
- ``infinite``: search until ``stop``; the ``bestmove`` waits for it, even after a proved mate
  or the ``depth`` limit.
- ``ponder``: search the position set (the GUI's, after the move it expects the opponent to
  play) with no time limit, and send no ``bestmove`` until ``stop`` (the ponder search's best
  move, which the GUI ignores) or ``ponderhit``, from which the search goes on as the same ``go``
  without ``ponder`` would, its time counted from the ``ponderhit``. The ``Ponder`` option is
  declared so that GUIs offer pondering; setting it changes nothing.
- A bare ``go`` (no parameters but ``ponder`` and ``searchmoves``) searches until ``stop``, as
  ``go infinite``; any other ``go`` that leaves the side to move no limit (no ``depth``,
  ``nodes``, ``mate``, ``movetime`` or clock of its own) searches :data:`DEFAULT_MOVETIME_MS`.

Bad input is answered with one ``info string <reason>`` line and never ends the loop:

- An unknown or malformed command is ignored, as is ``ponderhit`` when nothing is pondering.
- ``position``: the moves are played up to the first malformed or illegal one, which is named
  (Stockfish's practice); the rest are ignored. When the base position cannot be set (no
  ``startpos`` or ``fen``, a bad FEN), no position is set: a ``go`` answers ``info string no
  valid position`` and ``bestmove 0000`` (the null move) at once, until a valid ``position``.
- ``go``: a parameter without a whole-number value, with one out of its range (see
  :func:`parse_go`) or unknown is ignored (with the fallback above when that leaves no limit),
  and the rest are obeyed.
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
from dataclasses import dataclass, replace
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
from plies.search import EngineOptions, Limits, SearchResult, TranspositionTable, iterate, prepare

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
    mate: int | None = None
    """Search for a mate in this many moves: at most ``2 * mate - 1`` plies."""
    infinite: bool = False
    ponder: bool = False
    searchmoves: tuple[str, ...] = ()
    """The words after ``searchmoves``, not yet read as moves (none: every move)."""

    @property
    def plies(self) -> int | None:
        """The depth limit: ``depth``, or the plies of a mate in ``mate`` moves if fewer."""
        if self.mate is None:
            return self.depth
        return min(self.depth or INT64, 2 * self.mate - 1)


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
    "mate": 1,
}
"""The numeric ``go`` parameters and the least value of each (a clock below zero has run out:
the shortest search)."""
GO_WORDS = (*GO_NUMBERS, "infinite", "ponder", "searchmoves")
DEFAULT_MOVETIME_MS = 1000
"""The search time of a ``go`` whose parameters leave the side to move no limit."""


def shown(text: str) -> str:
    """``text`` quoted for an ``info string``, cut short when long."""
    return repr(text if len(text) <= 24 else text[:20] + "...")


def parse_go(tokens: Sequence[str]) -> tuple[Go, list[str]]:
    """The ``go`` parameters after the word ``go``, and the malformed ones it ignored, each
    with the reason: a number missing, not whole, or out of range (from :data:`GO_NUMBERS` up
    to :data:`INT64`), ``searchmoves`` without a word after it, or an unknown word (with the
    words after it up to the next parameter). The words after ``searchmoves`` up to the next
    parameter are kept as they are (:func:`searched_moves` reads them).

    >>> parse_go("wtime 60000 btime 58000 winc 1000 binc 1000".split())[0].btime
    58000
    >>> parse_go("depth x movestogo 0 wtime 900 nodes".split())[1]
    ["depth 'x' (not a whole number)", "movestogo '0' (less than 1)", 'nodes (no value)']
    >>> go, _ = parse_go("searchmoves e2e4 d2d4 ponder mate 2".split())
    >>> go.searchmoves, go.ponder, go.mate, go.plies
    (('e2e4', 'd2d4'), True, 2, 3)
    """
    values: dict[str, int | bool | tuple[str, ...]] = {}
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
        elif word in ("infinite", "ponder"):
            values[word] = True
        elif word == "searchmoves":
            start = index
            while index < len(tokens) and tokens[index] not in GO_WORDS:
                index += 1
            if index == start:
                problems.append("searchmoves (no moves)")
            else:
                values["searchmoves"] = tuple(tokens[start:index])
        else:
            unknown = [word]
            while index < len(tokens) and tokens[index] not in GO_WORDS:
                unknown.append(tokens[index])
                index += 1
            problems.append(f"{shown(' '.join(unknown))} (unknown)")
    return Go(**values), problems  # type: ignore[arg-type]


def searched_moves(state: ChessState, words: Sequence[str]) -> tuple[list[chess.Move], list[str]]:
    """The legal moves named by ``words`` (``go searchmoves``) in their order, each once, and
    the words left out, each with the reason: not a UCI move, or not legal in ``state``.

    >>> moves, left_out = searched_moves(Chess().initial_state(), ["e2e4", "e2e5", "x", "e2e4"])
    >>> [move.uci() for move in moves], left_out
    (['e2e4'], ["searchmoves 'e2e5' (not legal)", "searchmoves 'x' (not a UCI move)"])
    """
    moves: list[chess.Move] = []
    left_out: list[str] = []
    for text in words:
        move = chess.Move.from_uci(text) if UCI_MOVE.fullmatch(text) else None
        if move is None:
            left_out.append(f"searchmoves {shown(text)} (not a UCI move)")
        elif move not in state.moves:
            left_out.append(f"searchmoves {shown(text)} (not legal)")
        elif move not in moves:
            moves.append(move)
    return moves, left_out


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
        """Set to end the running search."""
        self._release = threading.Event()
        """Set when the running search may send its ``bestmove``: at once for a search with a
        limit, else at ``stop`` (or at ``ponderhit``, for a ``go ponder`` with a limit)."""
        self._release.set()
        self._pondering: tuple[float | None, bool] | None = None
        """While a ``go ponder`` runs: the seconds its move may take from ``ponderhit`` (None:
        no time limit) and whether it then has a limit."""
        self._timer: threading.Timer | None = None
        """Ends a search that was pondering when its time from ``ponderhit`` is up."""
        self._worker: threading.Thread | None = None
        self._prepared = False
        """Whether the compiled engine is loaded (at the first ``isready``)."""

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
                if not self._prepared:  # the compiled engine loads now, on no one's clock
                    prepare(self.game, EngineOptions())
                    self._prepared = True
                self.write("readyok")
            elif command == "stop":
                self.stop()
            elif command == "ponderhit":
                self.ponderhit()
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
            "option name Ponder type check default false",
            "uciok",
        ):
            self.write(line)

    def set_option(self, arguments: Sequence[str]) -> None:
        """``setoption name <id> value <x>``; option names are not case sensitive. ``Ponder``
        (true or false) tells GUIs the engine can ponder, and changes nothing: the engine
        ponders when a ``go ponder`` asks, and its time use is the same either way."""
        if not arguments or arguments[0] != "name":
            raise ParseError("setoption: expected 'setoption name <id> value <x>'")
        words = list(arguments[1:])
        split = words.index("value") if "value" in words else len(words)
        name, value = " ".join(words[:split]), " ".join(words[split + 1 :])
        if name.lower() == "ponder":
            if value.lower() not in ("true", "false"):
                raise ParseError(f"setoption: Ponder needs true or false, got {shown(value)}")
            return
        spins = {"hash": HASH_MB, "move overhead": MOVE_OVERHEAD_MS}
        if name.lower() not in spins:
            raise ParseError(
                f"setoption: unknown option {shown(name)} (options: Hash, Move Overhead, Ponder)"
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
        go, problems = parse_go(arguments)
        if self.state is None:
            self.write("info string no valid position: send 'position startpos|fen <FEN>' first")
            self.write("bestmove 0000")
            return
        white = self.state.board.turn == chess.WHITE
        seconds = move_seconds(go, white, self.overhead_ms)
        endless = seconds is None and go.plies is None and go.nodes is None
        bare = replace(go, ponder=False, searchmoves=()) == Go()
        fallback = endless and not go.infinite and (bool(problems) or not bare)
        moves, left_out = searched_moves(self.state, go.searchmoves)
        notes = [f"ignored {problem}" for problem in problems + left_out]
        if go.searchmoves and not moves:
            notes.append("searchmoves names no legal move: searching every move")
        clock_name, clock_ms = ("wtime", go.wtime) if white else ("btime", go.btime)
        if go.movetime is None and clock_ms is not None and clock_ms < 0:
            notes.append(
                f"{clock_name} {clock_ms} is below zero (the clock is spent): moving at once"
            )
        if fallback:
            notes.append(
                f"no depth, nodes, mate, movetime or {clock_name} for the side to move: "
                f"searching {DEFAULT_MOVETIME_MS} ms"
            )
            seconds = move_seconds(Go(movetime=DEFAULT_MOVETIME_MS), white, self.overhead_ms)
        if notes:
            self.write("info string go: " + "; ".join(notes))
        limited = not go.infinite and (fallback or not endless)
        self._stop, self._release = threading.Event(), threading.Event()
        if go.ponder:  # no time limit until ponderhit, no bestmove before it or stop
            self._pondering, seconds = (seconds, limited), None
        elif limited:
            self._release.set()
        limits = Limits(depth=go.plies, nodes=go.nodes, seconds=seconds, stop=self._stop)
        if self.table is None:
            self.table = TranspositionTable(self.hash_mb)
        self._worker = threading.Thread(
            target=self._search,
            args=(claimable_draws_lifted(self.state), limits, self.table, moves, self._release),
            daemon=True,
        )
        self._worker.start()

    def _search(
        self,
        state: ChessState,
        limits: Limits,
        table: TranspositionTable,
        moves: list[chess.Move],
        release: threading.Event,
    ) -> None:
        """The worker: ``info`` per completed iteration of the search of ``moves`` (none: every
        move), then ``bestmove`` once ``release`` is set, with the reply its line expects to
        ponder on."""
        best: chess.Move | None = None
        line: tuple[chess.Move, ...] = ()
        try:
            if self.game.is_terminal(state):  # no legal move, or a dead position: all draw
                mover = self.game.to_move(state)
                score = "mate 0" if self.game.utility(state, mover) < 0 else "cp 0"
                self.write(f"info depth 0 score {score}")
            else:
                reports = iterate(self.game, state, limits, EngineOptions(), table, moves or None)
                for report in reports:
                    if report.complete:
                        self.write(info_line(report, table.permille_full()))
                    best, line = report.action, report.pv
        except PliesError as error:
            self.write("info string " + one_line(str(error)))
        finally:  # whatever happened, one bestmove, a legal one while any is left
            if best is None and state.moves:
                best = moves[0] if moves else state.moves[0]
            release.wait()
            if best is None:
                self.write("bestmove (none)")
            elif line[:1] == (best,) and len(line) > 1:
                self.write(f"bestmove {best.uci()} ponder {line[1].uci()}")
            else:
                self.write(f"bestmove {best.uci()}")

    def ponderhit(self) -> None:
        """The move pondered on was played: the search goes on as the ``go`` without
        ``ponder`` would run, its time counted from now."""
        if self._pondering is None:
            raise ParseError("ponderhit: no 'go ponder' search is running")
        seconds, limited = self._pondering
        self._pondering = None
        if seconds is not None:
            self._timer = threading.Timer(seconds, self._stop.set)
            self._timer.daemon = True
            self._timer.start()
        if limited:
            self._release.set()

    def stop(self) -> None:
        """End a running search and wait for its ``bestmove``."""
        self._stop.set()
        self._release.set()
        self.wait()

    def wait(self) -> None:
        """Wait for a running search to end by itself."""
        if self._worker is not None:
            self._worker.join()
            self._worker = None
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self._pondering = None

    def finish(self) -> None:
        """Let a running search with a limit end; stop one without, or one pondering."""
        if self._release.is_set():
            self.wait()
        else:
            self.stop()


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
