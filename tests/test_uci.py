"""``plies uci``: through python-chess's engine client as a GUI drives it, and line by line."""

from __future__ import annotations

import io
import os
import random
import subprocess
import sys
import time
from collections.abc import Iterator

import chess
import chess.engine
import pytest

from plies import __version__
from plies.clock import CLOCK_SHARE, INCREMENT_SHARE, MIN_MOVE_SECONDS, MOVES_TO_GO
from plies.games.chess.rules import Chess
from plies.search import SearchResult, SearchStats
from plies.search.result import MATE
from plies.uci import (
    Go,
    UciEngine,
    centipawns,
    claimable_draws_lifted,
    move_seconds,
    parse_go,
    run,
    score_text,
)

COMMAND = [sys.executable, "-m", "plies", "uci"]
MATE_IN_ONE = "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1"
"""Rd8# (the back rank)."""
MATED_IN_ONE = "k7/8/1K6/8/8/8/8/7R b - - 0 1"
"""Black's only move Kb8 allows Rh8#."""
MATE_IN_TWO = "r1b2k1r/ppp1bppp/8/1B1Q4/5q2/2P5/PPP2PPP/R3R1K1 w - - 1 1"
"""Qd8+ Bxd8 Re8#."""
AFTER_E4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
SHUFFLE = ["g1f3", "g8f6", "f3g1", "f6g8"] * 2
"""Back to the initial position twice: a threefold repetition, drawn only when claimed."""


# Through python-chess, as a GUI uses it --------------------------------------------------------


@pytest.fixture(scope="module")
def engine() -> Iterator[chess.engine.SimpleEngine]:
    client = chess.engine.SimpleEngine.popen_uci(COMMAND, timeout=30)
    yield client
    client.quit()


def test_handshake_and_options(engine: chess.engine.SimpleEngine) -> None:
    assert engine.id["name"] == f"plies {__version__}"
    assert "author" in engine.id
    hash_option = engine.options["Hash"]
    assert (hash_option.type, hash_option.default, hash_option.min, hash_option.max) == (
        "spin",
        16,
        1,
        1024,
    )
    assert engine.options["Move Overhead"].type == "spin"
    assert (engine.options["Ponder"].type, engine.options["Ponder"].default) == ("check", False)
    engine.configure({"Hash": 8, "Move Overhead": 10})
    engine.ping()


def test_plays_a_short_game(engine: chess.engine.SimpleEngine) -> None:
    board = chess.Board()
    limits = [chess.engine.Limit(time=0.1), chess.engine.Limit(depth=2)]
    for ply in range(8):
        result = engine.play(board, limits[ply % 2], game=board)
        assert result.move in board.legal_moves, board.fen()
        board.push(result.move)


def test_analysis_scores(engine: chess.engine.SimpleEngine) -> None:
    info = engine.analyse(chess.Board(), chess.engine.Limit(depth=2))
    assert info["depth"] == 2
    score = info["score"].relative
    assert isinstance(score, chess.engine.Cp) and abs(score.score()) < 100
    assert len(info["pv"]) >= 1 and info["pv"][0] in chess.Board().legal_moves
    mate = engine.analyse(chess.Board(MATE_IN_ONE), chess.engine.Limit(depth=3))
    assert mate["score"].relative == chess.engine.Mate(1)
    assert mate["pv"][0] == chess.Move.from_uci("d1d8")
    mated = engine.analyse(chess.Board(MATED_IN_ONE), chess.engine.Limit(depth=3))
    assert mated["score"].relative == chess.engine.Mate(-1)


def test_infinite_analysis_stops_on_request(engine: chess.engine.SimpleEngine) -> None:
    with engine.analysis(chess.Board()) as analysis:
        for info in analysis:
            if info.get("depth", 0) >= 2:
                break
        asked = time.perf_counter()
        analysis.stop()
        best = analysis.wait()
    waited = time.perf_counter() - asked
    assert best.move in chess.Board().legal_moves
    assert waited < 5, f"stop took {waited:.1f} s"  # a liveness bound, not a speed figure


def test_searchmoves_from_python_chess(engine: chess.engine.SimpleEngine) -> None:
    """python-chess's ``root_moves`` is ``go searchmoves``: the mate left out is not played."""
    board = chess.Board(MATE_IN_ONE)
    mate = chess.Move.from_uci("d1d8")
    others = [move for move in board.legal_moves if move != mate][::4]
    assert engine.play(board, chess.engine.Limit(depth=3), root_moves=others).move in others
    info = engine.analyse(board, chess.engine.Limit(depth=3), root_moves=others)
    assert info["pv"][0] in others and info["score"].relative.mate() is None
    listed = [others[0], mate]
    assert engine.play(board, chess.engine.Limit(time=0.1), root_moves=listed).move == mate


def test_pondering_from_python_chess(engine: chess.engine.SimpleEngine) -> None:
    """python-chess ponders on the reply a ``bestmove`` names; when that reply is played it
    sends ``ponderhit`` and waits for the ``bestmove`` (an engine that ignored it would leave
    it waiting: a timeout), else ``stop``."""
    board, game = chess.Board(), object()
    limit = chess.engine.Limit(depth=3)
    first = engine.play(board, limit, game=game, ponder=True)
    assert first.ponder is not None
    board.push(first.move)
    board.push(first.ponder)  # the reply pondered on: ponderhit
    second = engine.play(board, limit, game=game, ponder=True)
    assert second.move in board.legal_moves and second.ponder is not None
    board.push(second.move)
    board.push(next(move for move in board.legal_moves if move != second.ponder))  # stop
    assert engine.play(board, limit, game=game).move in board.legal_moves


def test_isready_during_a_search_and_quit() -> None:
    process = subprocess.Popen(
        COMMAND,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        bufsize=1,
    )
    assert process.stdin is not None and process.stdout is not None

    def send(line: str) -> None:
        assert process.stdin is not None
        process.stdin.write(line + "\n")
        process.stdin.flush()

    def read_until(prefix: str) -> list[str]:
        assert process.stdout is not None
        lines = [process.stdout.readline().strip()]
        while not lines[-1].startswith(prefix):
            assert lines[-1] or process.poll() is None, lines
            lines.append(process.stdout.readline().strip())
        return lines

    try:
        send("uci")
        read_until("uciok")
        send("position startpos moves e2e4")
        send("go infinite")
        send("isready")
        assert not any(line.startswith("bestmove") for line in read_until("readyok"))
        send("stop")
        best = read_until("bestmove")[-1].split()[1]
        assert (
            chess.Move.from_uci(best)
            in chess.Board("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1").legal_moves
        )
        send("quit")
        assert process.wait(timeout=30) == 0
        assert process.stderr is not None and process.stderr.read() == ""
    finally:
        process.kill()
        process.wait()


def test_claimable_draws_are_played_on(engine: chess.engine.SimpleEngine) -> None:
    board = chess.Board()
    for move in SHUFFLE:
        board.push_uci(move)
    assert board.can_claim_threefold_repetition()
    result = engine.play(board, chess.engine.Limit(depth=2), game=board)
    assert result.move in board.legal_moves


def test_bad_input_never_ends_the_loop() -> None:
    """Piped at once (a search with a limit ends before the next command is read): every
    ``go`` gets its ``bestmove``, nothing goes to stderr, even a byte that is no UTF-8."""
    commands = [
        "uci",
        "\xff\xfe",
        "position fen not/a/fen w - - 0 1",
        "go depth 2",
        "position startpos moves e2e4 banana",
        "go depth 99999999999999999999",
        "go movetime -5",
        "setoption name Hash value 1e999",
        "position startpos moves " + " ".join(SHUFFLE),
        "go wtime",
        "go depth 2",
    ]
    done = subprocess.run(
        COMMAND,
        input="\n".join(commands).encode("latin-1") + b"\n",
        capture_output=True,
        env={**os.environ, "PYTHONIOENCODING": "utf-8"},  # strict decoding of stdin
        timeout=60,
    )
    assert done.returncode == 0 and done.stderr == b""
    lines = done.stdout.decode().splitlines()
    best = [line.split()[1] for line in lines if line.startswith("bestmove")]
    assert len(best) == 5 and best[0] == "0000"
    assert all(chess.Move.from_uci(move) in chess.Board(AFTER_E4).legal_moves for move in best[1:3])
    assert all(chess.Move.from_uci(move) in chess.Board().legal_moves for move in best[3:])
    assert sum(line.startswith("info string") for line in lines) == 8


def test_every_go_form_ends_with_a_bestmove() -> None:
    """Piped at once: ``mate``, ``searchmoves``, ``ponder`` then ``ponderhit`` or ``stop``,
    ``infinite`` then ``stop``: one ``bestmove`` each, within the moves searched."""
    commands = [
        "uci",
        "position startpos",
        "go mate 1",
        "go searchmoves a2a3 h2h4 depth 2",
        "go ponder depth 2",
        "ponderhit",
        "go ponder",
        "stop",
        "go infinite searchmoves g1h3",
        "stop",
        "go ponder movetime 50",
        "ponderhit",
        "go ponder searchmoves b1c3 e2e5 wtime 100 btime 100",
        "ponderhit",
        "quit",
    ]
    done = subprocess.run(
        COMMAND, input="\n".join(commands) + "\n", capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0 and done.stderr == ""
    best = [line.split()[1] for line in done.stdout.splitlines() if line.startswith("bestmove")]
    assert len(best) == 7, done.stdout
    assert all(chess.Move.from_uci(move) in chess.Board().legal_moves for move in best)
    assert best[1] in ("a2a3", "h2h4") and best[4] == "g1h3" and best[6] == "b1c3"
    assert "info string go: ignored searchmoves 'e2e5' (not legal)" in done.stdout


def test_end_of_input_ends_cleanly() -> None:
    done = subprocess.run(
        COMMAND,
        input="uci\nposition startpos\ngo depth 2\n",
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0 and done.stderr == ""
    assert done.stdout.splitlines()[-1].startswith("bestmove ")


# Line by line, in-process ---------------------------------------------------------------------


class Session:
    """A :class:`UciEngine` fed lines, with what it answered."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.engine = UciEngine(self.lines.append)

    def send(self, *commands: str) -> list[str]:
        """The answers to ``commands`` (waiting for a search with a limit to end)."""
        start = len(self.lines)
        for command in commands:
            self.engine.handle(command)
        self.engine.finish()
        return self.lines[start:]

    def search(self, command: str, within: float = 30.0) -> list[str]:
        """The answers to a ``go`` that must end by itself (no ``stop``) within ``within``
        seconds: a liveness bound, not a speed figure."""
        start = len(self.lines)
        self.engine.handle(command)
        deadline = time.perf_counter() + within
        while not any(line.startswith("bestmove") for line in self.lines[start:]):
            assert time.perf_counter() < deadline, (command, self.lines[start:])
            time.sleep(0.01)
        self.engine.wait()
        return self.lines[start:]


def test_malformed_commands_are_reported_and_ignored() -> None:
    session = Session()
    session.send("position startpos moves e2e4 e7e5")
    before = session.engine.state
    bad = [
        "frobnicate",
        "ponderhit",
        "setoption",
        "setoption name",
        "setoption name Hash",
        "setoption name Hash value many",
        "setoption name Hash value 0",
        "setoption name Hash value -5",
        "setoption name Hash value 1e999",
        "setoption name Hash value nan",
        "setoption name Hash value 99999999999999999999",
        "setoption name Hash value " + "9" * 5000,  # past Python's 4300 digits for int()
        "setoption name Move Overhead value inf",
        "setoption name Ponder value maybe",
        "setoption name Contempt value 3",
    ]
    for command in bad:
        answer = session.send(command)
        assert len(answer) == 1 and answer[0].startswith("info string "), (command, answer)
        assert len(answer[0].split()) > 3, answer  # a reason, not just a word
        assert len(answer[0]) < 200, answer  # one short line, even for a huge value
        assert session.engine.state == before, command
    assert (session.engine.hash_mb, session.engine.overhead_ms) == (16, 30)
    answer = session.send("go depth 1")
    board = chess.Board()
    for move in ("e2e4", "e7e5"):
        board.push_uci(move)
    assert chess.Move.from_uci(answer[-1].split()[1]) in board.legal_moves
    assert session.send("", "   ", "debug on") == []


def test_illegal_moves_set_the_position_before_them() -> None:
    """As Stockfish does: the moves before the first bad one are played, the rest ignored."""
    session = Session()
    answer = session.send("position startpos moves e2e4 e7e5 e1e2 e1e2 g1f3")
    assert len(answer) == 1 and answer[0].startswith("info string position: move 4 'e1e2'")
    board = chess.Board()
    for move in ("e2e4", "e7e5", "e1e2"):
        board.push_uci(move)
    assert session.engine.state is not None
    assert session.engine.state.board.fen() == board.fen()
    best = session.send("go depth 1")[-1].split()[1]
    assert chess.Move.from_uci(best) in board.legal_moves  # a move for Black, not for White
    answer = session.send("position startpos moves e2e4 banana e7e5")
    assert len(answer) == 1 and "move 2 'banana' is not a UCI move" in answer[0]
    assert session.engine.state.board.fen() == AFTER_E4
    answer = session.send("position startpos moves 0000")  # the null move is no chess move
    assert len(answer) == 1 and "move 1 '0000' is not a UCI move" in answer[0]
    assert session.engine.state.board.fen() == chess.STARTING_FEN


@pytest.mark.parametrize(
    "command",
    [
        "position",
        "position somewhere",
        "position startpos extra moves e2e4",
        "position fen",
        "position fen not/a/fen w - - 0 1",
        "position fen 8/8/8/8/8/8/8/8 w - - 0 1",
        "position fen 8/8/8/8/8/8/8/8 w - - 0 1 moves e2e4",
        "position fen 4k3/8/8/8/8/8/4P3/4K3 w - - 12345678901234567890 12345678901234567890",
    ],
)
def test_a_bad_base_position_leaves_none(command: str) -> None:
    """The GUI believes its position is set: answering for the previous one would be wrong,
    so every ``go`` gets the null move at once until a valid ``position``."""
    session = Session()
    session.send("position startpos moves e2e4")
    answer = session.send(command)
    assert len(answer) == 1 and answer[0].startswith("info string position: "), answer
    assert "no position is set" in answer[0]
    assert session.engine.state is None
    for go in ("go depth 3", "go infinite", "go", "go frobnicate"):
        session.engine.handle(go)  # no stop needed: the answer comes at once
        answer = session.lines[-2:]
        assert answer[0].startswith("info string no valid position"), (go, answer)
        assert answer[1] == "bestmove 0000"
    assert sum(line.startswith("bestmove") for line in session.lines) == 4
    session.send("position startpos")
    best = session.send("go depth 1")[-1].split()[1]
    assert chess.Move.from_uci(best) in chess.Board().legal_moves


def test_position_with_moves_and_fen() -> None:
    session = Session()
    moves = ["e2e4", "c7c5", "g1f3", "d7d6", "e1e2"]
    session.send("position startpos moves " + " ".join(moves))
    board = chess.Board()
    for move in moves:
        board.push_uci(move)
    assert session.engine.state.board.fen() == board.fen()
    session.send(f"position fen {MATE_IN_ONE}")
    assert session.engine.state.board.fen() == MATE_IN_ONE
    session.send(f"position fen {MATE_IN_ONE} moves d1d8")
    assert session.engine.state.board.is_checkmate()


def test_handshake_isready_and_options_in_process() -> None:
    session = Session()
    answer = session.send("uci")
    assert answer[0] == f"id name plies {__version__}" and answer[-1] == "uciok"
    assert "option name Hash type spin default 16 min 1 max 1024" in answer
    assert session.send("isready") == ["readyok"]
    assert session.send("setoption name hash value 2", "setoption name Move Overhead value 0") == []
    assert (session.engine.hash_mb, session.engine.overhead_ms) == (2, 0)
    session.send("go depth 1")
    assert session.engine.table is not None
    session.send("ucinewgame")
    assert session.engine.table is None


def test_infinite_search_waits_for_stop_and_answers_isready() -> None:
    session = Session()
    session.engine.handle(f"position fen {MATE_IN_ONE}")
    session.engine.handle("go infinite")  # proves mate at once, then waits for stop
    session.engine.handle("isready")
    time.sleep(0.2)
    assert "readyok" in session.lines
    assert not any(line.startswith("bestmove") for line in session.lines)
    session.engine.handle("stop")
    assert session.lines[-1] == "bestmove d1d8"
    assert sum(line.startswith("bestmove") for line in session.lines) == 1
    assert session.send("stop") == []  # nothing running: nothing to answer


def test_searchmoves_restrict_the_root() -> None:
    session = Session()
    session.send(f"position fen {MATE_IN_ONE}")
    listed = ["d1d7", "g1f1", "h2h3"]
    answer = session.search("go depth 3 searchmoves " + " ".join(listed))
    infos = [line.split() for line in answer if line.startswith("info depth")]
    assert [info[2] for info in infos] == ["1", "2", "3"]
    assert all(info[info.index("pv") + 1] in listed for info in infos)
    assert all(info[info.index("score") + 1] == "cp" for info in infos)  # no mate among them
    assert answer[-1].split()[1] in listed
    answer = session.search("go movetime 100 searchmoves g1f1 d1d8")
    assert answer[-1] == "bestmove d1d8"
    session.engine.handle("go infinite searchmoves h2h3")
    time.sleep(0.2)
    session.engine.handle("stop")
    assert session.lines[-1].split()[1] == "h2h3"
    session.send("position startpos moves e2e4")  # the same words, now Black's moves
    answer = session.search("go depth 2 searchmoves e2e4 e7e5")
    assert answer[0] == "info string go: ignored searchmoves 'e2e4' (not legal)"
    assert answer[-1].split()[1] == "e7e5"


def test_go_mate_ends_when_a_mate_is_proved() -> None:
    """``go mate N`` searches ``2N - 1`` plies at most, and ends as soon as a mate is proved."""
    session = Session()
    session.send(f"position fen {MATE_IN_TWO}")
    answer = session.search("go mate 2")
    assert answer[-2].split()[2] == "2" and " score mate 2 " in answer[-2]  # check extension
    assert answer[-1] == "bestmove d5d8 ponder e7d8"
    session.send(f"position fen {MATE_IN_ONE}")
    answer = session.search("go mate 5")
    assert answer[0].startswith("info depth 1 ") and " score mate 1 " in answer[0]
    assert answer[1:] == ["bestmove d1d8"]
    session.send("position startpos")
    answer = session.search("go mate 2")
    assert [line.split()[2] for line in answer[:-1]] == ["1", "2", "3"]  # no mate: 3 plies
    assert chess.Move.from_uci(answer[-1].split()[1]) in chess.Board().legal_moves


def wait_for(session: Session, prefix: str, start: int, within: float = 30.0) -> str:
    """The first line from ``start`` on that starts with ``prefix``, waiting ``within``
    seconds at most for it (a liveness bound, not a speed figure)."""
    deadline = time.perf_counter() + within
    while True:
        found = [line for line in session.lines[start:] if line.startswith(prefix)]
        if found:
            return found[0]
        assert time.perf_counter() < deadline, (prefix, session.lines[start:])
        time.sleep(0.01)


def test_ponder_waits_for_ponderhit_then_keeps_the_time() -> None:
    """Pondering has no time limit and sends no ``bestmove``; after ``ponderhit`` the search
    goes on under the ``go``'s clock (a run-out clock: the shortest search), counted from
    then; without a limit it goes on until ``stop``."""
    session = Session()
    session.send("position startpos moves e2e4")
    session.engine.handle("go ponder wtime 10 btime 10")  # 10 ms: a search of 20 ms at most
    wait_for(session, "info depth 3", 0)
    time.sleep(0.3)
    assert not any(line.startswith("bestmove") for line in session.lines)
    start = len(session.lines)
    session.engine.handle("ponderhit")
    best = wait_for(session, "bestmove", start).split()
    assert chess.Move.from_uci(best[1]) in chess.Board(AFTER_E4).legal_moves
    session.engine.wait()
    assert session.send("ponderhit") == ["info string ponderhit: no 'go ponder' search is running"]
    start = len(session.lines)
    session.engine.handle("go ponder depth 2")  # ends by itself, answers at ponderhit
    wait_for(session, "info depth 2", start)
    time.sleep(0.2)
    assert not any(line.startswith("bestmove") for line in session.lines[start:])
    session.engine.handle("ponderhit")
    wait_for(session, "bestmove", start)
    start = len(session.lines)
    session.engine.handle("go ponder")  # a bare go: after ponderhit, until stop
    session.engine.handle("ponderhit")
    time.sleep(0.3)
    assert not any(line.startswith("bestmove") for line in session.lines[start:])
    session.engine.handle("stop")
    assert session.lines[-1].startswith("bestmove ")


def test_pondering_ends_at_stop_or_a_new_position() -> None:
    session = Session()
    session.send("position startpos moves e2e4")
    session.engine.handle("go ponder movetime 10")
    time.sleep(0.2)
    assert not any(line.startswith("bestmove") for line in session.lines)
    session.engine.handle("stop")  # the reply was not the one pondered on
    assert session.lines[-1].split()[1] in {
        move.uci() for move in chess.Board(AFTER_E4).legal_moves
    }
    assert session.send("ponderhit")[0].startswith("info string ponderhit: ")
    session.engine.handle("go ponder depth 3")
    answer = session.send("position startpos")  # no stop first: the ponder search is stopped
    assert sum(line.startswith("bestmove") for line in answer) == 1
    assert session.send("go depth 1")[-1].startswith("bestmove ")


@pytest.mark.parametrize(
    ("command", "reason", "fallback"),
    [
        ("go movestogo 0", "ignored movestogo '0' (less than 1)", True),
        ("go depth x", "ignored depth 'x' (not a whole number)", True),
        ("go depth 2.5", "ignored depth '2.5' (not a whole number)", True),
        ("go depth 1e999", "ignored depth '1e999' (not a whole number)", True),
        ("go nodes nan", "ignored nodes 'nan' (not a whole number)", True),
        ("go depth 0", "ignored depth '0' (less than 1)", True),
        ("go movetime -5", "ignored movetime '-5' (less than 0)", True),
        ("go wtime", "ignored wtime (no value)", True),
        ("go btime depth 1", "ignored btime (no value)", False),
        ("go frobnicate", "ignored 'frobnicate' (unknown)", True),
        ("go wibble 3 depth 1", "ignored 'wibble 3' (unknown)", False),
        ("go mate 0", "ignored mate '0' (less than 1)", True),
        ("go mate", "ignored mate (no value)", True),
        ("go searchmoves", "ignored searchmoves (no moves)", True),
        ("go searchmoves depth 1", "ignored searchmoves (no moves)", False),
        ("go searchmoves e7e5 e2e4 x depth 1", "searchmoves 'e2e4' (not legal); ignored", False),
        ("go searchmoves e2e4 mate 1", "no legal move: searching every move", False),
        ("go searchmoves e7e9 wtime 100", "'e7e9' (not a UCI move); searchmoves names", True),
        ("go depth 99999999999999999999", "(more than 2**63 - 1)", True),
        ("go movetime " + "9" * 400, "ignored movetime '99999999999999999999...'", True),
        ("go btime -" + "9" * 400, "ignored btime '-9999999999999999999...'", True),
        ("go wtime 1000 winc 10", "no depth, nodes, mate, movetime or btime for the side", True),
        ("go movestogo 20", "no depth, nodes, mate, movetime or btime for the side", True),
        ("go binc 0", "no depth, nodes, mate, movetime or btime for the side", True),
        ("go winc -1 binc -1 wtime 900 btime 900", "ignored winc '-1' (less than 0)", False),
        ("go movestogo 0 wtime 900 btime 900", "ignored movestogo '0'", False),
        ("go depth x nodes 300", "ignored depth 'x'", False),
        ("go wtime 100 btime -500", "btime -500 is below zero (the clock is spent)", False),
    ],
)
def test_every_go_gets_one_bestmove(
    command: str, reason: str, fallback: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A malformed ``go`` is searched with what could be understood, or for the default time
    when that leaves no limit: the GUI never waits for a ``bestmove`` it cannot get."""
    monkeypatch.setattr("plies.uci.DEFAULT_MOVETIME_MS", 60)
    session = Session()
    session.send("position startpos moves e2e4")  # Black to move: White's clock is no limit
    answer = session.search(command)
    notes = [line for line in answer if line.startswith("info string go: ")]
    assert len(notes) == 1 and reason in notes[0], answer
    assert ("searching 60 ms" in notes[0]) == fallback, notes
    assert [line for line in answer if line.startswith("bestmove")] == answer[-1:]
    assert chess.Move.from_uci(answer[-1].split()[1]) in chess.Board(AFTER_E4).legal_moves


def test_valid_go_limits_search_as_asked() -> None:
    session = Session()
    session.send("position startpos moves e2e4")
    for command in ("go wtime -500 btime 0", "go btime 0 wtime 100", "go movetime 0"):
        answer = session.search(command)  # a clock run out: the shortest search
        assert not any(line.startswith("info string") for line in answer), answer
        assert chess.Move.from_uci(answer[-1].split()[1]) in chess.Board(AFTER_E4).legal_moves
    assert not any(line.startswith("info string") for line in session.send("go depth 1"))


def test_infinite_is_obeyed_despite_bad_parameters() -> None:
    session = Session()
    session.send("position startpos")
    session.engine.handle("go infinite depth x")
    time.sleep(0.2)
    assert session.lines[0].startswith("info string go: ignored depth 'x'")
    assert "searching" not in session.lines[0]
    assert not any(line.startswith("bestmove") for line in session.lines)
    session.engine.handle("stop")
    assert session.lines[-1].startswith("bestmove ")


def test_claimable_draws_are_searched() -> None:
    """Under UCI, threefold repetition and the fifty-move rule are draws only when claimed:
    while a legal move remains, the engine plays one."""
    session = Session()
    session.send("position startpos moves " + " ".join(SHUFFLE))
    answer = session.send("go depth 2")
    assert [line.split()[2] for line in answer[:-1]] == ["1", "2"]  # searched, not given up
    assert chess.Move.from_uci(answer[-1].split()[1]) in chess.Board().legal_moves
    for clock in (100, 150):
        session.send(f"position fen 8/8/4k3/8/8/3QK3/8/8 w - - {clock} 90")
        answer = session.send("go depth 2")
        board = chess.Board(f"8/8/4k3/8/8/3QK3/8/8 w - - {clock} 90")
        assert chess.Move.from_uci(answer[-1].split()[1]) in board.legal_moves, answer


def test_a_dead_position_still_gets_a_move() -> None:
    session = Session()
    session.send("position fen 8/8/4k3/8/8/4K3/8/8 w - - 0 1")  # insufficient material
    answer = session.send("go depth 3")
    assert answer[0] == "info depth 0 score cp 0"
    board = chess.Board("8/8/4k3/8/8/4K3/8/8 w - - 0 1")
    assert chess.Move.from_uci(answer[1].split()[1]) in board.legal_moves


def test_claimable_draws_are_lifted_at_the_root_only() -> None:
    game = Chess()
    state = game.parse_position("8/8/4k3/8/8/3QK3/P7/8 w - - 100 90")
    lifted = claimable_draws_lifted(state)
    assert game.is_terminal(state) and not game.is_terminal(lifted)
    assert lifted.board.halfmove_clock == 99 and state.board.halfmove_clock == 100
    assert game.is_terminal(game.result(lifted, chess.Move.from_uci("d3d4")))  # claimable
    assert not game.is_terminal(game.result(lifted, chess.Move.from_uci("a2a3")))  # irreversible
    state = game.from_uci_moves(game.initial_state(), SHUFFLE)
    lifted = claimable_draws_lifted(state)
    assert state.repetitions == 3 and lifted.repetitions == 1
    assert lifted.board.fen() == state.board.fen()
    back = game.from_uci_moves(lifted, SHUFFLE[:4])
    assert game.is_repetition(back)  # a repetition in the search is still a draw


def test_game_over_positions() -> None:
    session = Session()
    session.send(f"position fen {MATE_IN_ONE} moves d1d8")
    assert session.send("go depth 3") == ["info depth 0 score mate 0", "bestmove (none)"]
    session.send("position fen 7k/5Q2/6K1/8/8/8/8/8 b - - 0 1")  # stalemate
    assert session.send("go movetime 50") == ["info depth 0 score cp 0", "bestmove (none)"]


def test_run_reads_until_quit_or_end_of_input() -> None:
    out = io.StringIO()
    run(io.StringIO("isready\nquit\nisready\n"), out)
    assert out.getvalue() == "readyok\n"
    out = io.StringIO()
    run(io.StringIO("position startpos\ngo infinite\n"), out)  # end of input stops it
    assert out.getvalue().splitlines()[-1].startswith("bestmove ")


def test_info_lines_follow_the_iterations() -> None:
    session = Session()
    answer = session.send("position startpos", "go depth 3")
    infos = [line.split() for line in answer[:-1]]
    assert [int(info[info.index("depth") + 1]) for info in infos] == [1, 2, 3]
    for info in infos:
        for field in ("seldepth", "score", "nodes", "nps", "time", "hashfull", "pv"):
            assert field in info
        board = chess.Board()
        for move in info[info.index("pv") + 1 :]:
            board.push_uci(move)  # the line is legal
    assert answer[-1].split()[1] == infos[-1][infos[-1].index("pv") + 1]


# Time management and scores -------------------------------------------------------------------


def test_parse_go() -> None:
    parsed = parse_go(
        ["wtime", "1000", "btime", "2000", "winc", "10", "binc", "20", "movestogo", "5"]
    )
    assert parsed == (Go(wtime=1000, btime=2000, winc=10, binc=20, movestogo=5), [])
    assert parse_go(["infinite"]) == (Go(infinite=True), [])
    assert parse_go([]) == (Go(), [])
    assert parse_go(["wtime", "-20", "btime", str(2**63 - 1)]) == (
        Go(wtime=-20, btime=2**63 - 1),
        [],
    )
    parsed = parse_go(["searchmoves", "e2e4", "d2d4", "mate", "3", "depth", "4", "ponder"])
    assert parsed == (Go(depth=4, mate=3, ponder=True, searchmoves=("e2e4", "d2d4")), [])
    assert parsed[0].plies == 4  # the depth limit, fewer than a mate in 3's 5 plies
    assert parse_go(["mate", "2", "depth", "9"])[0].plies == 3
    parsed = parse_go(["searchmoves", "e2e4", "bad", "searchmoves"])
    assert parsed == (Go(searchmoves=("e2e4", "bad")), ["searchmoves (no moves)"])
    parsed = parse_go(["mate", "depth", "4", "nodes", "-1", "wtime", "x", "y", "movetime"])
    assert parsed == (
        Go(depth=4),
        [
            "mate (no value)",
            "nodes '-1' (less than 1)",
            "wtime 'x' (not a whole number)",
            "'y' (unknown)",
            "movetime (no value)",
        ],
    )
    assert parse_go(["depth", str(2**63)])[1] == [f"depth '{2**63}' (more than 2**63 - 1)"]


@pytest.mark.parametrize("seed", range(20))
def test_move_time_is_a_share_of_the_clock(seed: int) -> None:
    rng = random.Random(seed)
    clock, other = rng.randrange(-500, 600_000), rng.randrange(0, 600_000)
    increment = rng.choice([0, 0, rng.randrange(0, 10_000)])
    moves = rng.choice([None, rng.randrange(1, 60)])
    overhead = rng.randrange(0, 100)
    white = rng.random() < 0.5
    go = Go(
        wtime=clock if white else other,
        btime=other if white else clock,
        winc=increment if white else 0,
        binc=0 if white else increment,
        movestogo=moves,
    )
    seconds = move_seconds(go, white, overhead)
    assert seconds is not None
    remaining = max(clock, 0) / 1000
    share = remaining / (moves or MOVES_TO_GO) + INCREMENT_SHARE * increment / 1000
    expected = max(MIN_MOVE_SECONDS, min(share, CLOCK_SHARE * remaining) - overhead / 1000)
    assert seconds == pytest.approx(expected, abs=1e-6)
    assert seconds <= max(MIN_MOVE_SECONDS, CLOCK_SHARE * remaining)


def test_move_time_fixed_and_unlimited() -> None:
    assert move_seconds(Go(movetime=500, wtime=100), True, 30) == pytest.approx(0.47)
    assert move_seconds(Go(movetime=5), True, 30) == MIN_MOVE_SECONDS
    assert move_seconds(Go(depth=5), True, 30) is None
    assert move_seconds(Go(wtime=1000), False, 30) is None  # no clock for Black


def test_centipawns_invert_the_chess_evaluation() -> None:
    """The engine's score at a leaf is EVAL for the mover; back in centipawns it is the game's
    own ``centipawns`` of the position."""
    game = Chess()
    rng = random.Random(7)
    for _ in range(40):
        state = game.initial_state()
        for _ in range(rng.randrange(0, 40)):
            if game.is_terminal(state):
                break
            state = game.result(state, rng.choice(list(game.actions(state))))
        if game.is_terminal(state):
            continue
        lead = game.evaluate(state, game.to_move(state))
        assert centipawns(lead) == game.centipawns(state), state.board.fen()


def test_mate_scores_in_moves() -> None:
    def report(score: float) -> SearchResult[chess.Move]:
        move = chess.Move.from_uci("e2e4")
        stats = SearchStats(nodes=1, time=0.1, max_depth=1)
        return SearchResult(0.0, move, (move,), stats, "engine", "White", depth=1, score=score)

    assert score_text(report(MATE - 1)) == "mate 1"
    assert score_text(report(MATE - 3)) == "mate 2"
    assert score_text(report(MATE - 5)) == "mate 3"
    assert score_text(report(-(MATE - 2))) == "mate -1"
    assert score_text(report(-(MATE - 4))) == "mate -2"
    assert score_text(report(0.2)) == f"cp {centipawns(0.2)}"
    assert score_text(report(0.0)) == "cp 0"
