"""The ``perfect`` agent: its moves keep the solved score (checked against the solver's
per-column analysis), perfect self-play ends exactly as the score says, and it falls back on
the engine, saying so, when its budget runs out."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from plies.agents import PerfectAgent, make_agent
from plies.errors import SpecError, UnknownNameError, UnsupportedGameError
from plies.games import make_game
from plies.games.connect4.rules import ConnectFour
from plies.games.connect4.solver import Connect4Solver
from plies.play import play_game

REPO = Path(__file__).resolve().parents[2]
SHARED = Path(os.environ.get("PLIES_SHARED", REPO.parent / "shared"))
GAME = ConnectFour()


def middle_easy(count: int) -> list[tuple[str, int]]:
    path = SHARED / "data" / "connect4" / "Test_L2_R1"
    if not path.is_file():
        pytest.skip(f"{path} not found (set PLIES_SHARED to the shared folder)")
    pairs = [line.split() for line in path.read_text().splitlines()[:count]]
    return [(moves, int(score)) for moves, score in pairs]


def test_each_move_keeps_the_score_as_the_analysis_says() -> None:
    agent = make_agent("perfect:nodes=100000000", GAME)
    solver = Connect4Solver(GAME)
    for moves, score in middle_easy(30):
        state = GAME.parse_position(moves)
        action = agent(GAME, state)
        scores = solver.analyze(state)
        assert scores[action] == max(s for s in scores if s is not None), moves
        assert agent.last is not None and agent.last.algorithm == "perfect"
        assert agent.last.solver_score == score
        assert agent.last.note == f"solved: score {score}, {solver.meaning(score)}"


def test_perfect_self_play_ends_as_the_score_says() -> None:
    """A win scored s ends with the winner's stone number 22 - s; a draw fills the grid."""
    for moves, score in middle_easy(12):
        start = GAME.parse_position(moves)
        agents = {player: make_agent("perfect:nodes=100000000", GAME) for player in GAME.players}
        end = play_game(GAME, agents, start).state
        mover = GAME.to_move(start)
        if score == 0:
            assert GAME.winner(end) is None, moves
            continue
        winner = GAME.winner(end)
        assert winner == (mover if score > 0 else GAME.opponent(mover)), moves
        winner_stones = (end.moves + 1) // 2 if winner == GAME.players[0] else end.moves // 2
        assert winner_stones == 22 - abs(score), moves


def test_out_of_budget_it_plays_the_engines_move_and_says_so() -> None:
    agent = make_agent("perfect:nodes=2048,depth=3", GAME)
    assert isinstance(agent, PerfectAgent)
    state = GAME.parse_position("12")  # early, and off the agent's lines: not in the book
    with agent.solvers.lend() as solver:
        assert solver.book is None or solver.book.lookup(state) is None
    action = agent(GAME, state)
    assert action in GAME.actions(state)
    assert agent.last is not None and agent.last.algorithm != "perfect"
    assert agent.last.note is not None
    assert agent.last.note.startswith("not solved within the budget")
    assert agent.last.note.endswith("the engine's move, depth 3")
    later = GAME.parse_position("4444443332")  # the solver's table is kept: still a legal move
    assert agent(GAME, later) in GAME.actions(later)


def test_a_time_budget_is_split_between_solver_and_engine() -> None:
    agent = make_agent("perfect:time=0.2", GAME)
    assert isinstance(agent, PerfectAgent)
    assert agent.seconds == 0.2 and agent.nodes is None
    assert agent.fallback.limits.seconds == pytest.approx(0.2 * 0.2)
    default = make_agent("perfect", GAME)
    assert isinstance(default, PerfectAgent) and default.seconds == 1.0


@pytest.mark.parametrize(
    ("spec", "game", "error", "message"),
    [
        ("perfect", "tictactoe", UnsupportedGameError, "no perfect solver for"),
        ("perfect", "connect4:k=5", UnsupportedGameError, "no perfect solver for"),
        ("perfect:time=-1", "connect4", SpecError, "time must be a positive number"),
        ("perfect:nodes=0", "connect4", SpecError, "nodes must be at least 1"),
        ("perfect:speed=9", "connect4", SpecError, "speed"),
        ("perfekt", "connect4", UnknownNameError, "agents: .*perfect"),
    ],
)
def test_bad_specs_name_the_problem(
    spec: str, game: str, error: type[Exception], message: str
) -> None:
    with pytest.raises(error, match=message):
        make_agent(spec, make_game(game))


def test_a_clock_sets_the_budget_of_the_next_moves_until_reset() -> None:
    from plies.clock import move_budget

    agent: Any = make_agent("perfect:time=5", make_game("connect4"))
    agent.set_clock(3.0, 0.1)
    budget = move_budget(3.0, 0.1)
    assert agent.seconds == pytest.approx(budget)
    assert agent.fallback.move_seconds == pytest.approx(budget * 0.2)
    agent.reset()
    assert agent.seconds == 5 and agent.fallback.move_seconds is None
