"""What a new user hit (issue 11): every size and number is checked before the work starts,
every documented limit value works, and the advice in messages is advice the command takes."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from plies import inputs
from plies.agents import make_agent
from plies.arena.match import MatchResult, to_json
from plies.errors import SpecError, UnknownNameError
from plies.games import make_game
from plies.search import alphabeta
from tests.conftest import CliRun, assert_one_line_error

Run = Callable[..., CliRun]


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (("solve", "nim", "1000000"), "more than the 1,000"),
        (("perft", "nim", "2", "--position", "100000000"), "more than the 1,000"),
        (("play", "nim:heaps=1000000", "--first", "random"), "more than the 1,000"),
        (("play", "nim:heaps=" + "-".join(["1"] * 40), "--first", "random"), "40 heaps"),
        (("play", "tiles:length=100000000", "--first", "random"), "at most 80"),
        (("search", "tictactoe", "--depth", "2", "--tt", "inf"), "finite"),
        (("search", "tictactoe", "--depth", "2", "--tt", "1e30"), "at most 8,192"),
        (("search", "tictactoe", "--depth", "2", "--tt", "nan"), "finite"),
        (("search", "tictactoe", "--time", "nan"), "finite"),
        (("search", "tictactoe", "--time", "inf"), "finite"),
        (("search", "tictactoe", "--nodes", "99999999999999999999"), "at most"),
        (("play", "tictactoe", "--first", "engine:tt=1000000000"), "at most 8,192"),
        (("play", "tictactoe", "--first", "engine:time=nan"), "finite"),
        (("play", "tictactoe", "--first", "mcts:c=inf"), "finite"),
        (("perft", "connect4", "99999999999999999999"), "at most 500"),
        (("match", "tictactoe", "random", "random", "--games", "10000000"), "at most"),
        (("solve", "othello"), "too deep for a search to the end"),
        (("solve", "checkers"), "--depth"),
        (("solve", "connect4", "4", "-a", "alphabeta", "--nodes", "1000"), "1,000 nodes"),
        (("play", "tictactoe", "--first", "wizard"), "mcts"),
    ],
)
def test_refused_up_front(run_cli: Run, args: tuple[str, ...], fragment: str) -> None:
    assert_one_line_error(run_cli(*args), fragment)


def test_the_smallest_node_limit_works(run_cli: Run) -> None:
    """The engine always completes its first iteration, so one node still scores a move."""
    data = json.loads(run_cli("search", "connect4", "--nodes", "1", "--json").out)
    assert data["move"] in list("1234567") and data["score"] is not None
    assert data["depth"] == 1
    played = run_cli(
        "play", "connect4", "--first", "engine:nodes=1", "--second", "random", "--quiet"
    )
    assert played.code == 0 and "game over" in played.out


def test_solve_takes_a_depth(run_cli: Run) -> None:
    data = json.loads(run_cli("solve", "othello", "--depth", "2", "--json").out)
    assert data["depth"] == 2 and data["solved"] is False
    assert data["best_move"] is not None
    full = json.loads(run_cli("solve", "tictactoe", "--json").out)
    assert full["depth"] is None and full["solved"] is True


def test_textbook_agents_take_the_shortest_win() -> None:
    """In this 4x4 tic-tac-toe position (k=3) X wins at once with a3, and alpha-beta's first
    best move, c2, wins too, later: the values are equal (the textbook's), the agents play
    the immediate win."""
    game = make_game("tictactoe:m=4,n=4,k=3")
    state = game.parse_position("..O./X.../..O./X.OX")
    assert game.format_action(state, alphabeta(game, state).action) == "c2"
    for spec in ("alphabeta", "minimax", "alphabeta:depth=3"):
        agent = make_agent(spec, game)
        assert game.format_action(state, agent(game, state)) == "a3", spec
        assert agent.last is not None and agent.last.value == 1


def test_unknown_agents_list_every_kind() -> None:
    with pytest.raises(UnknownNameError) as error:
        make_agent("wizard", make_game("tictactoe"))
    for kind in ("random", "minimax", "alphabeta", "mcts", "engine", "perfect", "human"):
        assert kind in str(error.value)
    with pytest.raises(SpecError, match="nobody to ask"):
        make_agent("human", make_game("tictactoe"))


def test_a_perfect_score_says_its_elo_is_the_clamps(run_cli: Run) -> None:
    assert to_json(MatchResult(10, 0, 0))["clamped"] is True
    assert to_json(MatchResult(0, 0, 10))["clamped"] is True
    assert to_json(MatchResult(9, 1, 0))["clamped"] is False
    result = run_cli("match", "tictactoe", "alphabeta", "random", "--games", "4")
    if "+4 =0 -0" in result.out:
        assert "may lie further out" in result.out


def test_connect4s_default_opponent_is_the_engine() -> None:
    assert make_game("connect4").default_opponent.startswith("engine:time=")


@pytest.mark.parametrize(
    "args",
    [
        ("tree", "/dev/zero"),
        ("solve", "connect4", "--file", "/dev/zero"),
        ("evaluate", "connect4", "random", "--set", "/dev/zero"),
        ("tournament", "connect4", "random", "mcts", "--openings", "/dev/zero", "--db", "x"),
    ],
    ids=["tree", "solve", "evaluate", "openings"],
)
def test_endless_inputs_are_refused_after_the_limit(
    run_cli: Run, args: tuple[str, ...], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An endless file is read no further than the limit (it grew to 4 GB before), then
    refused in one line naming it."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(inputs, "MAX_INPUT_BYTES", 1 << 16)
    assert_one_line_error(run_cli(*args), "longer than 65,536 bytes")


def test_an_endless_standard_input_is_refused(
    run_cli: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(inputs, "MAX_INPUT_BYTES", 1 << 10)
    assert_one_line_error(run_cli("tree", "-", stdin="[" * 5000), "the tree is longer than 1,024")


def test_an_error_quoting_a_huge_input_stays_short(run_cli: Run) -> None:
    """A 100,000-move position was echoed whole; the line keeps its start and its reason."""
    result = run_cli("play", "connect4", "--position", "4" * 100_000)
    assert_one_line_error(result, "characters cut")
    assert len(result.err) < 500
