"""The uci agent: a fake engine that misbehaves on request (each failure loses with its reason,
and the next move restarts it), whole games, bad specs, no process left behind, and Stockfish
where it is installed."""

from __future__ import annotations

import math
import pickle
import shutil
import subprocess
import sys
import textwrap
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from plies.agents import make_agent
from plies.errors import SpecError, UnsupportedGameError
from plies.games import make_game
from plies.games.chess.rules import CENTIPAWN_SCALE, Chess
from plies.games.chess.uci_agent import EngineFailure, UCIAgent
from plies.play import play_game, seat_agents
from tests.agents.processes import alive, children

CHESS = Chess()

FAKE_ENGINE = """\
import os, sys, time
import chess

log = open(sys.argv[1], "a", buffering=1) if len(sys.argv) > 1 else None
if log:
    log.write(f"pid {os.getpid()}\\n")
mode, fail_at, moves, board = "normal", 0, 0, chess.Board()


def say(line):
    print(line, flush=True)


for line in sys.stdin:
    words = line.split()
    if log and words:
        log.write(line)
    if not words:
        continue
    if words[0] == "uci":
        say("id name Fake")
        say("option name Mode type combo default normal"
            " var normal var hang var crash var illegal var garbage var none")
        say("option name FailAt type spin default 0 min 0 max 100")
        say("option name Skill Level type spin default 5 min 0 max 10")
        say("option name Loud type check default false")
        say("option name MultiPV type spin default 1 min 1 max 5")
        say("uciok")
    elif words[0] == "isready":
        say("readyok")
    elif words[:2] == ["setoption", "name"]:
        name, _, value = " ".join(words[2:]).partition(" value ")
        if name == "Mode":
            mode = value
        elif name == "FailAt":
            fail_at = int(value)
    elif words[0] == "position":
        fen, _, played = " ".join(words[1:]).partition(" moves ")
        board = chess.Board() if fen == "startpos" else chess.Board(fen[len("fen "):])
        for move in played.split():
            board.push_uci(move)
    elif words[0] == "go":
        moves += 1
        if moves != fail_at or mode == "normal":
            move = next(iter(board.legal_moves)).uci()
            say(f"info depth 3 seldepth 5 score cp 40 nodes 7 pv {move}")
            say(f"bestmove {move}")
        elif mode == "hang":
            time.sleep(3600)
        elif mode == "crash":
            sys.exit(3)
        elif mode == "illegal":
            say("bestmove e2e5")
        elif mode == "garbage":
            say("hello \\x01 bananas")
            sys.stdout.buffer.write(b"\\xff\\xfe\\n")
            say("bestmove banana")
        elif mode == "none":
            say("bestmove (none)")
    elif words[0] == "quit":
        break
"""


@pytest.fixture(scope="module")
def fake(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The fake engine's script."""
    path = tmp_path_factory.mktemp("uci") / "fake_engine.py"
    path.write_text(FAKE_ENGINE)
    return path


def _spec(script: Path, options: str = "", log: Path | None = None) -> str:
    command = f"{sys.executable} {script}" + ("" if log is None else f" {log}")
    return f"uci:cmd={command}" + (f",{options}" if options else "")


@pytest.fixture
def no_engine_left(fake: Path) -> Iterator[None]:
    """Fails the test if a fake engine (or a zombie) outlives it."""
    yield
    assert children(str(fake)) == []


@pytest.mark.usefixtures("no_engine_left")
def test_plays_the_engines_move_and_reports_its_search(fake: Path) -> None:
    agent = make_agent(_spec(fake), CHESS)
    assert isinstance(agent, UCIAgent)
    assert agent.limit.time == 0.1 and agent.timeout == 1.0
    start = CHESS.initial_state()
    move = agent(CHESS, start)
    assert move == next(iter(start.board.legal_moves))
    report = agent.last
    assert report is not None and report.algorithm == "uci"
    assert (report.action, report.pv, report.depth) == (move, (move,), 3)
    assert (report.stats.nodes, report.stats.max_depth) == (7, 5)
    assert report.score == pytest.approx(40 / (40 + CENTIPAWN_SCALE))
    assert report.value == CHESS.estimate(report.score, "White")
    agent.close()


@pytest.mark.parametrize(
    ("mode", "reason"),
    [
        ("hang", "timed out after 0.35 s"),
        ("crash", "crashed"),
        ("illegal", "illegal move e2e5"),
        ("garbage", "illegal move banana"),
        ("none", "no move"),
    ],
)
@pytest.mark.usefixtures("no_engine_left")
def test_a_failing_engine_loses_and_restarts(fake: Path, mode: str, reason: str) -> None:
    agent = make_agent(_spec(fake, f"mode={mode},failat=2,time=0.05,timeout=0.3"), CHESS)
    start = CHESS.initial_state()
    agent(CHESS, start)
    with pytest.raises(EngineFailure) as failure:
        agent(CHESS, start)
    assert failure.value.reason == reason
    assert str(failure.value) == f"{agent.name}: {reason}"
    assert agent.last is None
    assert children(str(fake)) == []  # killed and reaped at once
    assert agent(CHESS, start) in start.board.legal_moves  # a fresh engine
    agent.close()


def test_engine_failure_survives_pickling() -> None:
    failure = pickle.loads(pickle.dumps(EngineFailure("uci:cmd=x", "crashed")))
    assert (failure.name, failure.reason, str(failure)) == (
        "uci:cmd=x",
        "crashed",
        "uci:cmd=x: crashed",
    )


@pytest.mark.usefixtures("no_engine_left")
def test_whole_games_against_plies_agents(fake: Path, tmp_path: Path) -> None:
    log = tmp_path / "engine.log"
    spec = _spec(fake, "depth=1", log)
    for opponent in ("random", "engine:depth=1"):
        agents = seat_agents(CHESS, {"White": spec, "Black": opponent}, seed=3)
        record = play_game(CHESS, agents)  # every move is checked legal on the way
        assert record.finished
        searches = [turn.search for turn in record.turns if turn.player == "White"]
        assert searches and all(s is not None and s.algorithm == "uci" for s in searches)
        agents["White"].reset()
        agents["White"](CHESS, CHESS.initial_state())  # a new game on the same engine
        agents["White"].close()
    lines = log.read_text().splitlines()
    assert sum(line.startswith("pid ") for line in lines) == 3  # the options check, a game each
    assert lines.count("ucinewgame") == 4  # on the first move, and after each reset


@pytest.mark.usefixtures("no_engine_left")
def test_engine_options_are_set_by_their_declared_names(fake: Path, tmp_path: Path) -> None:
    log = tmp_path / "engine.log"
    agent = make_agent(_spec(fake, "Skill_Level=7,LOUD=yes,mode=normal", log), CHESS)
    assert isinstance(agent, UCIAgent)
    assert agent.settings == {"Skill Level": 7, "Loud": True, "Mode": "normal"}
    agent(CHESS, CHESS.initial_state())
    agent.close()
    lines = log.read_text().splitlines()
    assert "setoption name Skill Level value 7" in lines
    assert "setoption name Loud value true" in lines


@pytest.mark.usefixtures("no_engine_left")
def test_limits_and_timeout(fake: Path) -> None:
    agent = make_agent(_spec(fake, "depth=4,nodes=100"), CHESS)
    assert isinstance(agent, UCIAgent)
    assert (agent.limit.time, agent.limit.depth, agent.limit.nodes) == (None, 4, 100)
    assert agent.timeout == 60.0
    agent = make_agent(_spec(fake, "time=0.5,timeout=2"), CHESS)
    assert isinstance(agent, UCIAgent)
    assert (agent.limit.time, agent.timeout) == (0.5, 2.0)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ("colour=blue", "uci: the engine has no option 'colour' (its options: Mode, FailAt,"),
        ("skill level=11", "uci: Skill Level must be at most 10, got 11"),
        ("skill level=x", "uci: Skill Level='x' is not an integer"),
        ("loud=maybe", "uci: Loud='maybe' is not true or false"),
        ("mode=dance", "uci: invalid value for combo option 'Mode', got: dance"),
        ("multipv=2", "uci: the engine's MultiPV is set by plies, not by the spec"),
        ("time=0", "uci: time must be a positive number, got 0"),
    ],
)
@pytest.mark.usefixtures("no_engine_left")
def test_bad_engine_options_are_refused_when_built(fake: Path, options: str, message: str) -> None:
    with pytest.raises(SpecError) as error:
        make_agent(_spec(fake, options), CHESS)
    assert str(error.value).startswith(message)
    assert "\n" not in str(error.value)


def test_bad_commands_are_refused_when_built(tmp_path: Path) -> None:
    plain = tmp_path / "engine"
    plain.write_text("not a program")
    script = tmp_path / "quits"
    script.write_text("#!/bin/sh\nexit 0\n")
    script.chmod(0o755)
    cases = [
        ("uci", "uci: give the engine's command, e.g. uci:stockfish"),
        ("uci:no-such-engine-anywhere", "uci: engine 'no-such-engine-anywhere' not found"),
        (f"uci:cmd={plain}", f"uci: engine '{plain}' is not an executable file"),
        (f"uci:cmd={tmp_path}", f"uci: engine '{tmp_path}' is not an executable file"),
        (f"uci:cmd={script}", f"uci: '{script}' is no UCI engine (crashed)"),
        ("uci:cmd='unclosed", 'uci: cmd="\'unclosed": No closing quotation'),
    ]
    for spec, message in cases:
        with pytest.raises(SpecError) as error:
            make_agent(spec, CHESS)
        assert str(error.value).startswith(message), str(error.value)
    assert children(str(script)) == []


def test_only_chess(fake: Path) -> None:
    with pytest.raises(UnsupportedGameError, match="uci: UCI engines play chess, not 'tictactoe'"):
        make_agent(_spec(fake), make_game("tictactoe"))


def test_engines_left_open_are_quit_at_exit(fake: Path, tmp_path: Path) -> None:
    log = tmp_path / "engine.log"
    program = textwrap.dedent(
        f"""
        from plies.agents import make_agent
        from plies.games.chess.uci_agent import UCIAgent
        from plies.games import make_game
        chess = make_game("chess")
        kept = [make_agent({_spec(fake, "", log)!r}, chess) for _ in range(2)]
        for agent in kept:
            agent(chess, chess.initial_state())
        lost = make_agent({_spec(fake, "", log)!r}, chess)
        lost(chess, chess.initial_state())
        del lost
        """
    )
    subprocess.run([sys.executable, "-c", program], check=True, timeout=30)
    pids = [int(line.split()[1]) for line in log.read_text().splitlines() if line.startswith("pid")]
    assert len(pids) == 4  # the options check, then three engines
    assert log.read_text().count("quit") == 4
    deadline = time.monotonic() + 5
    while any(alive(pid) for pid in pids) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not any(alive(pid) for pid in pids)


STOCKFISH = shutil.which("stockfish") or shutil.which("stockfish", path="/usr/games")


@pytest.mark.skipif(
    STOCKFISH is None, reason="Stockfish is not installed (apt-get install stockfish)"
)
def test_stockfish_at_1350_beats_random() -> None:
    spec = "uci:cmd=stockfish,UCI_LimitStrength=true,UCI_Elo=1350,time=0.05"
    white = make_agent(spec, CHESS)
    assert isinstance(white, UCIAgent)
    assert white.settings == {"UCI_LimitStrength": True, "UCI_Elo": 1350}
    start = CHESS.parse_position("4k3/8/8/8/8/8/8/RQ2K3 w - - 0 1")
    # Stockfish's weakened play is random: once, on a busy machine, it let a game be drawn by
    # repetition. Three tries, against different random moves, for one mate.
    for seed in range(1, 4):
        black = make_agent("random", CHESS, seed=seed)
        record = play_game(CHESS, {"White": white, "Black": black}, start)
        if CHESS.winner(record.state) == "White":
            break
    white.close()
    assert CHESS.winner(record.state) == "White"
    report = record.turns[-1].search
    assert report is not None and report.depth is not None and report.mate == 1
    assert math.isclose(report.value, 1.0)
    assert children("stockfish") == []


def test_the_command_may_come_first_without_a_key() -> None:
    """The issue's form, uci:COMMAND[,Option=value...], is the same agent as cmd=COMMAND."""
    from plies.spec import parse_spec

    spec = parse_spec("uci:/usr/games/stockfish,UCI_Elo=1500,time=0.1", "cmd")
    assert spec.options.text("cmd") == "/usr/games/stockfish"
    with pytest.raises(SpecError, match="malformed option"):
        parse_spec("engine:fast", None)


@pytest.mark.skipif(
    STOCKFISH is None, reason="Stockfish is not installed (apt-get install stockfish)"
)
def test_stockfish_keeps_to_a_tournament_clock(tmp_path: Path) -> None:
    """Under --time-control the agent sends the clock (wtime, winc...) instead of movetime,
    and Stockfish budgets its moves from it: it never loses on time."""
    from plies.arena.records import Records
    from plies.arena.tournament import run, schedule
    from plies.clock import parse_time_control

    control = parse_time_control("3+0.05")
    specs = ["uci:stockfish,time=30", "engine:depth=1"]  # the clock, not time=30, rules
    planned = schedule("chess", specs, games=2, openings=["e4 e5"], time_control=control)
    games = list(run(Records(tmp_path / "t.sqlite", "chess", str(control)), planned, 1))
    for game in games:
        assert "on time" not in game.reason and "forfeits" not in game.reason, game.reason
        own = game.seconds[0::2] if game.first == specs[0] else game.seconds[1::2]
        assert sum(own) <= control.base + control.increment * len(own)
