"""The gnubg agent: plies' positions as gnubg's boards and gnubg's moves as plies' turns, a fake
gnubg that misbehaves (a failure names it, the next move starts afresh), bad specs in one line,
and, where GNU Backgammon is installed, its moves legal in random positions and whole games it
wins against random play."""

from __future__ import annotations

import random
import shutil
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

import plies.processes
from plies.agents import make_agent
from plies.arena.match import run_match
from plies.errors import EngineFailure, IllegalMoveError, UnsupportedGameError
from plies.games import make_game
from plies.games.backgammon.gnubg_agent import (
    LEVELS,
    GnubgAgent,
    gnubg_board,
    gnubg_judge,
    gnubg_turn,
)
from plies.games.backgammon.rules import (
    BLACK,
    CHECKERS,
    WHITE,
    Backgammon,
    BackgammonState,
    Roll,
)
from tests.agents.processes import children
from tests.conftest import CliRun, assert_one_line_error

GAME = Backgammon()
GNUBG = shutil.which("gnubg") or shutil.which("gnubg", path="/usr/games")
needs_gnubg = pytest.mark.skipif(
    GNUBG is None, reason="GNU Backgammon is not installed (apt-get install gnubg)"
)

FAKE_GNUBG = """\
import json, sys

mode = sys.argv[1]
print("GNU Backgammon (fake)")
print('plies-gnubg: {"ready": true}', flush=True)
for line in sys.stdin:
    if line.strip() == "quit":
        break
    answer = {"illegal": {"move": [24, 18]}, "error": {"error": "What? No dice?"}}.get(mode)
    if mode == "crash":
        sys.exit(3)
    print("plies-gnubg: " + json.dumps(answer), flush=True)
"""

POSITIONS = (
    "W 24:2 13:5 8:3 6:5 / B 24:2 13:5 8:3 6:5 / W 3-1",
    "W 24:2 13:5 8:3 6:5 / B 24:2 13:5 8:3 6:5 / B 6-6",
    "W bar:2 13:5 8:3 6:5 / B 24:2 13:4 8:3 6:5 5:1 / W 6-4",
    "W 24:1 13:5 8:3 6:5 off:1 / B bar:1 20:1 13:5 8:3 6:4 off:1 / B 5-2",
    "W 6:3 4:2 1:1 off:9 / B 23:1 6:4 5:3 off:7 / W 6-1",
    "W 3:2 off:13 / B 1:1 off:14 / B 2-1",
    "W 6:3 5:2 4:2 3:2 2:2 1:2 off:2 / B bar:2 13:13 / B 4-4",
)
"""Positions with both sides to move, checkers on the bar and borne off, a double and a pass."""


def _from_board(
    board: tuple[list[int], list[int]], mover: int, dice: tuple[int, ...]
) -> BackgammonState:
    """What gnubg's board means, read back independently of :func:`gnubg_board`: White's
    point p holds White's checkers there less Black's on Black's point 25 - p."""
    opponent, own = board
    white, black = (own, opponent) if mover == WHITE else (opponent, own)
    points = tuple(white[p - 1] - black[24 - p] for p in range(1, 25))
    bar, off = (white[24], black[24]), (CHECKERS - sum(white), CHECKERS - sum(black))
    return BackgammonState(points, bar, off, mover, dice)


def _random_positions(count: int, seed: int) -> list[BackgammonState]:
    """``count`` positions with dice from random games, spread over each game's length."""
    rng = random.Random(seed)
    positions: list[BackgammonState] = []
    while len(positions) < count:
        state, seen = GAME.initial_state(), []
        while not GAME.is_terminal(state):
            if state.dice:
                seen.append(state)
            state = GAME.result(state, rng.choice(list(GAME.actions(state))))
        positions += rng.sample(seen, 6)
    return positions[:count]


def test_a_board_is_the_mover_last_each_side_from_its_own_side() -> None:
    state = GAME.parse_position(POSITIONS[2])
    opponent, mover = gnubg_board(state)
    assert mover[24] == 2 and mover[12] == 5 and mover[5] == 5 and sum(mover) == CHECKERS
    assert opponent[23] == 2 and opponent[4] == 1 and opponent[24] == 0
    black_to_move = GAME.parse_position(POSITIONS[3])
    opponent, mover = gnubg_board(black_to_move)
    assert mover[24] == 1 and mover[19] == 1 and sum(mover) == CHECKERS - 1
    assert opponent[23] == 1 and opponent[24] == 0


def test_boards_read_back_as_the_positions_they_came_from() -> None:
    positions = [GAME.parse_position(text) for text in POSITIONS] + _random_positions(60, 1)
    assert {s.mover for s in positions} == {WHITE, BLACK}
    assert any(sum(s.bar) for s in positions) and any(sum(s.off) for s in positions)
    for state in positions:
        assert _from_board(gnubg_board(state), state.mover, state.dice) == state


@pytest.mark.parametrize(
    ("position", "move", "turn"),
    [
        (POSITIONS[0], [8, 5, 6, 5], "8/5 6/5"),
        (POSITIONS[1], [24, 18, 24, 18, 13, 7, 13, 7], "24/18(2) 13/7(2)"),
        (POSITIONS[2], [25, 21], "bar/21"),
        (POSITIONS[3], [25, 23, 13, 8], "bar/23 13/8"),
        (POSITIONS[4], [6, 0, 1, 0], "6/off 1/off"),
        (POSITIONS[5], [1, 0], "1/off"),
        (POSITIONS[6], [], "pass"),
    ],
)
def test_gnubgs_moves_are_the_legal_turns_they_play(
    position: str, move: list[int], turn: str
) -> None:
    state = GAME.parse_position(position)
    assert GAME.format_action(state, gnubg_turn(GAME, state, move)) == turn


def test_a_move_that_is_not_legal_is_refused() -> None:
    state = GAME.parse_position(POSITIONS[0])
    with pytest.raises(IllegalMoveError, match="not legal with 3-1"):
        gnubg_turn(GAME, state, [24, 18])


def test_each_level_asks_for_gnubgs_own_settings() -> None:
    board = gnubg_board(GAME.parse_position(POSITIONS[0]))
    expert = LEVELS["expert"].request(board, (3, 1))
    assert '"plies": 0' in expert and '"noise": 0.0' in expert and '"filters": []' in expert
    assert '"cubeful": 0' in expert
    grandmaster = LEVELS["grandmaster"].request(board, (3, 1))
    assert '"plies": 3' in grandmaster and '"extramoves": 16' in grandmaster
    assert '"level": 2, "acceptmoves": 0, "extramoves": 4' in grandmaster
    assert [LEVELS[name].noise for name in ("beginner", "casual", "intermediate")] == [
        0.06,
        0.05,
        0.04,
    ]


@pytest.fixture
def fake(tmp_path: Path) -> Iterator[Callable[[str], str]]:
    """The spec of a fake gnubg answering in a mode; fails the test if one outlives it."""
    script = tmp_path / "fake_gnubg.py"
    script.write_text(FAKE_GNUBG)
    yield lambda mode: f"gnubg:cmd={sys.executable} {script} {mode}"
    assert children(str(script)) == []


@pytest.mark.parametrize(
    ("mode", "reason"),
    [
        ("illegal", "illegal move [24, 18]: turn ((24, 18),) is not legal with 3-1"),
        ("error", "failed: What? No dice?"),
        ("crash", "crashed (exit status 3)"),
    ],
)
def test_a_failing_gnubg_says_why_and_the_next_move_starts_it_afresh(
    fake: Callable[[str], str], mode: str, reason: str
) -> None:
    agent = make_agent(fake(mode), GAME)
    assert isinstance(agent, GnubgAgent)
    state = GAME.parse_position(POSITIONS[0])
    for _ in range(2):
        with pytest.raises(EngineFailure) as failure:
            agent(GAME, state)
        assert failure.value.reason == reason and "\n" not in str(failure.value)
        assert agent._server is None
    agent.close()


@pytest.mark.parametrize(
    ("spec", "fragment"),
    [
        ("gnubg:wizard", "gnubg: level='wizard' is not one of beginner, casual, intermediate"),
        ("gnubg:level=expert,plies=2", "unknown option 'plies'"),
        ("gnubg:cmd=/nonexistent/gnubg", "gnubg: engine '/nonexistent/gnubg' is not an executable"),
        ("gnubg:cmd=true", "true' does not run as GNU Backgammon with Python (crashed"),
    ],
)
def test_a_bad_spec_is_one_line(run_cli: Callable[..., CliRun], spec: str, fragment: str) -> None:
    assert_one_line_error(run_cli("match", "backgammon", spec, "random", "--games", "1"), fragment)


def test_gnubg_missing_is_one_line(
    run_cli: Callable[..., CliRun], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.setattr(plies.processes, "ENGINE_FOLDER", str(tmp_path))
    result = run_cli("match", "backgammon", "gnubg", "random", "--games", "1")
    assert_one_line_error(result, f"gnubg: engine 'gnubg' not found on PATH or in {tmp_path}")


def test_gnubg_plays_backgammon_only() -> None:
    with pytest.raises(UnsupportedGameError, match="GNU Backgammon plays backgammon, not 'nim'"):
        make_agent("gnubg", make_game("nim"))


def _moves(spec: str, positions: list[BackgammonState]) -> list[object]:
    """The turns a fresh agent ``spec`` plays in ``positions``, each checked legal."""
    agent = make_agent(spec, GAME)
    try:
        turns = [agent(GAME, state) for state in positions]
    finally:
        agent.close()
    for state, turn in zip(positions, turns, strict=True):
        assert turn in GAME.actions(state) and not isinstance(turn, Roll)
    return turns


@needs_gnubg
def test_gnubgs_moves_are_legal_in_random_positions_and_its_noise_is_repeatable() -> None:
    positions = _random_positions(30, 2)
    expert = _moves("gnubg", positions)
    beginner = _moves("gnubg:beginner", positions)
    assert beginner == _moves("gnubg:beginner", positions) != expert
    assert children(str(GNUBG)) == []


@needs_gnubg
def test_world_class_plays_the_opening_as_the_books_do() -> None:
    agent = make_agent("gnubg:worldclass", GAME)
    played = {}
    try:
        for dice in ("3-1", "6-5", "4-2"):
            state = GAME.parse_position(f"W 24:2 13:5 8:3 6:5 / B 24:2 13:5 8:3 6:5 / W {dice}")
            played[dice] = GAME.format_action(state, agent(GAME, state))
    finally:
        agent.close()
    assert played == {"3-1": "8/5 6/5", "6-5": "24/13", "4-2": "8/4 6/4"}


@needs_gnubg
def test_gnubg_wins_whole_games_against_random_play() -> None:
    outcomes = list(run_match(GAME, "gnubg", "random", 2, seed=3))
    assert [outcome.result for outcome in outcomes] == [1.0, 1.0]
    assert all(outcome.moves > 20 for outcome in outcomes)
    assert children(str(GNUBG)) == []


@needs_gnubg
def test_the_judge_rates_gnubgs_own_play_exact_and_a_blunder_costly() -> None:
    judge = gnubg_judge()
    try:
        state = GAME.parse_position("W 24:2 13:5 8:3 6:5 / B 24:2 13:5 8:3 6:5 / W 3-1")
        assert judge.error(GAME, state, GAME.parse_action(state, "8/5 6/5")) == 0.0
        blunder = judge.error(GAME, state, GAME.parse_action(state, "6/3 6/5"))
        assert blunder is not None and 0.04 < blunder < 0.5  # two blots in the home board
        forced = GAME.parse_position(
            "W 6:3 5:2 4:2 3:2 2:2 1:2 off:2 / B bar:2 13:13 / B 4-4"
        )  # closed out: the only play is to pass
        assert judge.error(GAME, forced, ()) is None
        won = GAME.parse_position("W 1:1 off:14 / B 6:5 5:5 off:5 / W 2-1")
        assert judge.error(GAME, won, GAME.parse_action(won, "1/off")) is None  # one play
    finally:
        judge.close()
    assert children(str(GNUBG)) == []
