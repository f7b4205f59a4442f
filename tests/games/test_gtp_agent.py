"""The gtp agent: a fake engine that logs what it is told and misbehaves on request (each
failure raises with its reason, and the next move restarts it), resigns (a result, not a
failure), bad specs, no process left behind, and whole games against GNU Go where it is
installed."""

from __future__ import annotations

import shutil
import sqlite3
import subprocess
import sys
import textwrap
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from plies.agents import EngineFailure, make_agent
from plies.agents.gtp import GTPAgent
from plies.arena.tournament import Scheduled, Worker
from plies.errors import Resigns, SpecError, UnsupportedGameError
from plies.games import make_game
from plies.games.go.rules import PASS, Go, GoState
from tests.agents.processes import alive, children
from tests.conftest import CliRun, assert_one_line_error

GO = Go(size=5, komi=0.5)

FAKE_ENGINE = """\
import os, sys, time

log = open(sys.argv[1], "a", buffering=1)
mode, fail_at = sys.argv[2], int(sys.argv[3])
log.write(f"pid {os.getpid()}\\n")
known = ["list_commands", "boardsize", "clear_board", "komi", "play", "genmove", "quit"]
moves = 0


def answer(text, status="="):
    sys.stdout.write(f"{status} {text}\\n\\n")
    sys.stdout.flush()


for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    log.write(line)
    if words[0] == "list_commands":
        answer("\\n".join(known[:-2] if mode == "nogenmove" else known))
    elif words[0] == "quit":
        answer("")
        break
    elif words[0] != "genmove":
        answer("")
    elif (moves := moves + 1) != fail_at or mode == "normal":
        sys.stdout.write("\\n=7 PASS\\n\\n")  # a stray empty line, an id, capitals
        sys.stdout.flush()
    elif mode == "hang":
        time.sleep(3600)
    elif mode == "crash":
        sys.exit(3)
    elif mode == "illegal":
        answer("C3")
    elif mode == "refuse":
        answer("cannot think", "?")
    elif mode == "garbage":
        sys.stdout.buffer.write(b"hello \\xff\\xfe\\n\\n")
        sys.stdout.flush()
    elif mode == "resign":
        answer("resign")
    elif mode == "none":
        answer("")
"""

GNUGO = shutil.which("gnugo") or shutil.which("gnugo", path="/usr/games")
needs_gnugo = pytest.mark.skipif(
    GNUGO is None, reason="GNU Go is not installed (apt-get install gnugo)"
)
GNUGO_SPEC = "gtp:gnugo --mode gtp --level 1 --chinese-rules --capture-all-dead --never-resign"


@pytest.fixture(scope="module")
def fake(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The fake engine's script."""
    path = tmp_path_factory.mktemp("gtp") / "fake_gtp.py"
    path.write_text(FAKE_ENGINE)
    return path


def _spec(
    script: Path, log: Path, mode: str = "normal", fail_at: int = 0, options: str = ""
) -> str:
    return f"gtp:cmd={sys.executable} {script} {log} {mode} {fail_at}" + options


def _told(log: Path) -> list[str]:
    """What the engine was told, the checks' ``list_commands`` and the ``quit``s left out."""
    return [
        line
        for line in log.read_text().splitlines()
        if not line.startswith(("pid ", "list_commands", "quit"))
    ]


@pytest.fixture
def no_engine_left(fake: Path) -> Iterator[None]:
    """Fails the test if a fake engine (or a zombie) outlives it."""
    yield
    assert children(str(fake)) == []


def _state(record: str) -> GoState:
    return GO.parse_position(record)


@pytest.mark.usefixtures("no_engine_left")
def test_tells_the_engine_only_what_it_has_not_seen(fake: Path, tmp_path: Path) -> None:
    log = tmp_path / "engine.log"
    agent = make_agent(_spec(fake, log, options=",timeout=5"), GO)
    assert isinstance(agent, GTPAgent)
    assert (agent.argv[1:], agent.timeout) == ((str(fake), str(log), "normal", "0"), 5.0)
    assert agent(GO, _state("C3")) == PASS and agent.last is None  # its pass, played
    agent(GO, _state("C3 pass D4"))  # the engine's game goes on: only the new move
    agent(GO, _state("B2"))  # another game: set up afresh
    agent.reset()
    agent(GO, _state("B2 pass C2"))  # a continuation, but a new game after reset
    agent(Go(size=5, komi=7.5), _state("B2 pass C2"))  # another komi
    agent.close()
    setup = ["boardsize 5", "clear_board", "komi 0.5"]
    assert _told(log) == [
        *setup,
        *["play B C3", "genmove w"],
        *["play B D4", "genmove w"],
        *setup,
        *["play B B2", "genmove w"],
        *setup,
        *["play B B2", "play W pass", "play B C2", "genmove w"],
        *["boardsize 5", "clear_board", "komi 7.5"],
        *["play B B2", "play W pass", "play B C2", "genmove w"],
    ]
    assert sum(line.startswith("pid ") for line in log.read_text().splitlines()) == 2


@pytest.mark.parametrize(
    ("mode", "reason"),
    [
        ("hang", "timed out after 0.3 s on genmove w"),
        ("crash", "crashed (exit status 3)"),
        ("illegal", "move 'C3' is illegal: the point is taken"),
        ("refuse", "refused 'genmove w': cannot think"),
        ("garbage", "answered 'hello \ufffd\ufffd', not in GTP"),
        ("none", "no move"),
    ],
)
@pytest.mark.usefixtures("no_engine_left")
def test_a_failing_engine_raises_and_restarts(
    fake: Path, tmp_path: Path, mode: str, reason: str
) -> None:
    log = tmp_path / "engine.log"
    agent = make_agent(_spec(fake, log, mode, 2, ",timeout=0.3"), GO)
    state = _state("C3")
    agent(GO, state)
    with pytest.raises(EngineFailure) as failure:
        agent(GO, state)
    assert failure.value.reason == reason
    assert str(failure.value) == f"{agent.name}: {reason}"
    assert children(str(fake)) == []  # killed and reaped at once
    assert agent(GO, state) == PASS  # a fresh engine, told the game again
    agent.close()
    assert _told(log)[-5:] == ["boardsize 5", "clear_board", "komi 0.5", "play B C3", "genmove w"]


@pytest.mark.usefixtures("no_engine_left")
def test_an_engine_that_resigns_raises_resigns_and_keeps_running(
    fake: Path, tmp_path: Path
) -> None:
    log = tmp_path / "engine.log"
    agent = make_agent(_spec(fake, log, "resign", 2), GO)
    state = _state("C3")
    assert agent(GO, state) == PASS
    with pytest.raises(Resigns) as resigned:
        agent(GO, _state("C3 pass D4"))
    assert str(resigned.value) == f"{agent.name} resigns"
    assert len(children(str(fake))) == 1  # the same engine, not killed
    assert agent(GO, _state("C3 pass D4")) == PASS  # asked again, told nothing new
    agent.close()
    assert _told(log) == ["boardsize 5", "clear_board", "komi 0.5", "play B C3", "genmove w",
                          "play B D4", "genmove w", "genmove w"]  # fmt: skip
    worker = Worker()  # in a game: the engine's loss, by resignation, not a forfeit
    spec = _spec(fake, tmp_path / "worker.log", "resign", 1)
    record = worker.play(Scheduled("go:size=5", "g0", "random", spec, 0, 0, "C3", seed=0))
    worker.close()
    assert record.reason == f"{spec} (W) resigns" and record.result == 1.0
    assert record.moves == ()


@pytest.mark.usefixtures("no_engine_left")
def test_one_engine_serves_a_workers_games(fake: Path, tmp_path: Path) -> None:
    log = tmp_path / "engine.log"
    spec = _spec(fake, log)
    worker = Worker()
    for leg, (first, second) in enumerate(((spec, "random"), ("random", spec))):
        task = Scheduled("go:size=5", f"g{leg}", first, second, 0, leg, "C3", seed=leg)
        record = worker.play(task)
        assert "forfeits" not in record.reason and record.moves[-2:] == ("pass", "pass")
    worker.close()
    lines = log.read_text().splitlines()
    assert sum(line.startswith("pid ") for line in lines) == 2  # the check, then one engine
    assert lines.count("clear_board") == 2 and lines[-1] == "quit"


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("gtp", "gtp: give the engine's command, e.g. gtp:gnugo --mode gtp"),
        ("gtp:no-such-engine-anywhere", "gtp: engine 'no-such-engine-anywhere' not found"),
        ("gtp:cat", "gtp: '{cat}' is no GTP engine: answered 'list_commands', not in GTP"),
        ("gtp:true", "gtp: '{true}' is no GTP engine: crashed (exit status 0)"),
        ("gtp:cat,timeout=0", "gtp: timeout must be a positive number, got 0"),
        ("gtp:cat,timeout=soon", "gtp: timeout='soon' is not a number"),
        ("gtp:cat,level=3", "gtp: unknown option 'level' (options: cmd, timeout)"),
    ],
)
def test_bad_specs_are_refused_when_built(spec: str, message: str) -> None:
    with pytest.raises(SpecError) as error:
        make_agent(spec, GO)
    text = str(error.value)
    assert text.startswith(message.format(cat=shutil.which("cat"), true=shutil.which("true")))
    assert "\n" not in text


def test_an_engine_without_genmove_is_refused(fake: Path, tmp_path: Path) -> None:
    with pytest.raises(SpecError, match=r"lacks the GTP command\(s\) genmove, quit$"):
        make_agent(_spec(fake, tmp_path / "engine.log", "nogenmove"), GO)


def test_only_go(fake: Path, tmp_path: Path) -> None:
    spec = _spec(fake, tmp_path / "engine.log")
    with pytest.raises(UnsupportedGameError, match="gtp: GTP engines play games that say how"):
        make_agent(spec, make_game("tictactoe"))
    agent = make_agent(spec, GO)
    with pytest.raises(UnsupportedGameError):
        agent(make_game("tictactoe"), make_game("tictactoe").initial_state())


def test_a_match_against_a_missing_program_is_one_line(run_cli: Callable[..., CliRun]) -> None:
    result = run_cli("match", "go", "gtp:nosuchprog", "random")
    assert_one_line_error(result, "gtp: engine 'nosuchprog' not found on PATH or in /usr/games")


def test_engines_left_open_are_quit_at_exit(fake: Path, tmp_path: Path) -> None:
    log = tmp_path / "engine.log"
    program = textwrap.dedent(
        f"""
        from plies.agents import make_agent
        from plies.games.go.rules import Go
        go = Go(size=5)
        kept = make_agent({_spec(fake, log)!r}, go)
        kept(go, go.initial_state())
        lost = make_agent({_spec(fake, log)!r}, go)
        lost(go, go.initial_state())
        del lost
        """
    )
    subprocess.run([sys.executable, "-c", program], check=True, timeout=30)
    lines = log.read_text().splitlines()
    pids = [int(line.split()[1]) for line in lines if line.startswith("pid")]
    assert len(pids) == 3 and lines.count("quit") == 3  # the check, then two engines
    deadline = time.monotonic() + 5
    while any(alive(pid) for pid in pids) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not any(alive(pid) for pid in pids)


@needs_gnugo
def test_whole_games_against_gnugo_end_by_two_passes() -> None:
    worker = Worker()
    for leg, (first, second) in enumerate(((GNUGO_SPEC, "random"), ("random", GNUGO_SPEC))):
        task = Scheduled("go:size=5,komi=0.5", f"g{leg}", first, second, 0, leg, "C3", seed=leg)
        record = worker.play(task)
        assert "forfeits" not in record.reason, record.reason
        assert record.moves[-2:] == ("pass", "pass")
        assert GO.is_terminal(GO.parse_position(" ".join(("C3", *record.moves))))
        assert record.result == (1.0 if first == GNUGO_SPEC else 0.0)  # level 1 beats random
    worker.close()
    assert children("gnugo") == []


@needs_gnugo
def test_gnugo_resigns_a_hopeless_game_and_a_tournament_records_its_loss(
    run_cli: Callable[..., CliRun], tmp_path: Path
) -> None:
    """GNU Go without --never-resign, white on a 5x5 board that black has walled off, resigns
    at once: its loss is a result in the record, in SGF (``B+R``) and in the standings; as
    black from the same opening it wins."""
    openings, db, out = tmp_path / "openings.txt", tmp_path / "t.sqlite", tmp_path / "g.sgf"
    openings.write_text("B2 pass D4 pass B4 pass D2 pass C3\n")
    gnugo = "gtp:gnugo --mode gtp --level 1 --chinese-rules --capture-all-dead"
    arguments = ["go:size=5,komi=0.5", gnugo, "random", "--db", str(db), "--games", "2",
                 "--openings", str(openings), "--concurrency", "1", "--sgf", str(out)]  # fmt: skip
    result = run_cli("tournament", *arguments)
    assert result.code == 0, result.err
    with sqlite3.connect(db) as connection:
        rows = {
            row[0]: row[1:]
            for row in connection.execute("SELECT first, moves, result, reason FROM games")
        }
    assert rows["random"] == ("[]", 1.0, f"{gnugo} (W) resigns")
    assert rows[gnugo][1] == 1.0 and "resigns" not in rows[gnugo][2]
    assert "RE[B+R]" in out.read_text() and "forfeit" not in result.out
    assert children("gnugo") == []


@needs_gnugo
def test_gnugo_follows_a_jump_to_another_game() -> None:
    agent = make_agent(GNUGO_SPEC, GO)
    assert isinstance(agent, GTPAgent)
    agent(GO, _state("C3"))
    for record in ("C3 C2 B2 D2 pass B3", "A1 A2"):  # neither goes on from the engine's game
        state = _state(record)
        move = agent(GO, state)
        assert move in GO.actions(state)
        assert agent._engine is not None
        stones = agent._engine.ask("list_stones black", 5).split()
        after = GO.result(state, move)
        assert sorted(stones) == sorted(GO.format_action(after, p) for p in _black(after))
    agent.close()


def _black(state: GoState) -> list[int]:
    return [point for point, stone in enumerate(state.board) if stone == 1]


GRHINO = shutil.which("gtp-rhino") or shutil.which("gtp-rhino", path="/usr/games")
needs_grhino = pytest.mark.skipif(
    GRHINO is None, reason="GRhino is not installed (apt-get install grhino)"
)


@needs_grhino
def test_whole_othello_games_against_grhino_from_an_opening() -> None:
    """GRhino (level 1) plays Othello games from a two-move opening as either colour: the
    agent follows the game from the positions it sees (Othello's states keep no moves), tells
    it no forced pass, and every game ends at the end of the game, with no forfeit."""
    othello = make_game("othello")
    worker = Worker()
    spec = "gtp:gtp-rhino --level 1"
    for leg, (first, second) in enumerate(((spec, "random"), ("random", spec))):
        task = Scheduled("othello", f"o{leg}", first, second, 0, leg, "f5d6", seed=leg)
        record = worker.play(task)
        assert "forfeits" not in record.reason, record.reason
        assert othello.is_terminal(othello.parse_position("".join(("f5d6", *record.moves))))
    worker.close()
    assert children("gtp-rhino") == []


@needs_grhino
def test_grhino_is_told_only_positions_reached_from_the_start() -> None:
    othello = make_game("othello")
    agent = make_agent("gtp:gtp-rhino --level 1", othello)
    state = othello.parse_position("f5d6c3d3c4f4")
    move = agent(othello, state)
    assert move in othello.actions(state)
    after = othello.result(
        othello.result(state, move), othello.actions(othello.result(state, move))[0]
    )
    assert agent(othello, after) in othello.actions(after)  # followed from its own move
    far = othello.parse_position(
        "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X"
    )
    with pytest.raises(EngineFailure, match="plays games from the start"):
        agent(othello, far)
    agent.close()
