"""The models shipped inside the package load by name and play as their notes say; each says how it
was made and what it measured, and the agents load the strongest by default."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from plies.agents import make_agent
from plies.games import make_game
from plies.learn import players
from plies.learn.checkpoint import load_checkpoint
from plies.learn.models import catalogue, strongest
from plies.learn.players import load_model, model_path, shipped_models
from tests.conftest import CliRun

Run = Callable[..., CliRun]

TICTACTOE = make_game("tictactoe")


def _never_loses(agent: Any, me: str) -> tuple[bool, list[Any]]:
    """Whether ``agent`` (reset before every move, so a function of the position) never
    loses as ``me`` against every sequence of opponent moves; a losing line if it does."""
    moves: dict[Any, Any] = {}

    def holds(state: Any, line: list[Any]) -> list[Any] | None:
        if TICTACTOE.is_terminal(state):
            return line if TICTACTOE.utility(state, me) < 0 else None
        if TICTACTOE.to_move(state) == me:
            if state not in moves:
                agent.reset()
                moves[state] = agent(TICTACTOE, state)
            replies = [moves[state]]
        else:
            replies = list(TICTACTOE.actions(state))
        for action in replies:
            lost = holds(TICTACTOE.result(state, action), [*line, action])
            if lost is not None:
                return lost
        return None

    lost = holds(TICTACTOE.initial_state(), [])
    return lost is None, lost or []


def test_the_shipped_models_are_listed() -> None:
    assert {"tictactoe", "connect4", "connect4-distilled", "go7"} <= set(shipped_models())


@pytest.mark.parametrize("spec", ["policy", "az:simulations=48"])
@pytest.mark.parametrize("me", ["X", "O"])
def test_the_shipped_tictactoe_model_never_loses_against_any_opponent(spec: str, me: str) -> None:
    agent = make_agent(spec, TICTACTOE, seed=0)
    never, line = _never_loses(agent, me)
    assert never, f"{spec} as {me} loses: {[TICTACTOE.format_action(None, a) for a in line]}"


def test_a_random_player_fails_the_same_check() -> None:
    never, _ = _never_loses(make_agent("random", TICTACTOE, seed=0), "X")
    assert not never


def test_the_shipped_connect4_models_play_legal_moves() -> None:
    game = make_game("connect4")
    state = game.parse_position("4453")
    for spec in ("az:simulations=32", "policy", "policy:model=connect4-distilled"):
        assert make_agent(spec, game)(game, state) in game.actions(state)


@pytest.mark.parametrize("colour", ["B", "W"])
def test_the_shipped_go7_model_beats_random_moves(colour: str) -> None:
    """The 7x7 Go model (self-play, komi 7.5) with a short search wins a game against random
    moves in either colour."""
    from plies.testing import random_agent

    game = make_game("go:size=7,komi=7.5")
    learned, other = make_agent("az:model=go7,simulations=32", game, seed=1), random_agent(2)
    state = game.initial_state()
    while not game.is_terminal(state):
        agent = learned if game.to_move(state) == colour else other
        state = game.result(state, agent(game, state))
    assert game.winner(state) == colour, game.display(state)


def test_the_go7_model_refuses_another_board() -> None:
    from plies.errors import PliesError

    with pytest.raises(PliesError, match="7"):
        make_agent("az:model=go7", make_game("go:size=9"))


def test_every_shipped_model_says_how_it_was_made_and_what_it_measured() -> None:
    entries = catalogue()
    assert set(entries) == set(shipped_models())
    for name, entry in entries.items():
        game = make_game(entry["game"])
        loaded = load_checkpoint(model_path(name), game, entry["kind"])  # made for that game
        assert loaded.shape.kind == entry["kind"]
        assert entry["made"] in ("self-play", "distilled", "taught") and entry["hours"] > 0
        assert entry["data"] and entry["hardware"] and entry["figures"] and entry["source"]


@pytest.mark.parametrize("spec", ["policy:by=move", "az:simulations=8"])
def test_az_and_policy_load_the_strongest_shipped_model_by_default(
    spec: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    loaded: list[str] = []

    def load(game: Any, model: str, kinds: tuple[str, ...], device: str) -> Any:
        loaded.append(model)
        return load_model(game, model, kinds, device)

    monkeypatch.setattr(players, "load_model", load)
    connect4 = make_game("connect4")
    make_agent(spec, connect4)(connect4, connect4.initial_state())
    make_agent(f"{spec},model=connect4", connect4)
    make_agent(spec, TICTACTOE)
    entries = catalogue()
    assert entries["connect4-distilled"]["rank"] < entries["connect4"]["rank"]  # measured
    assert loaded == ["connect4-distilled", "connect4", "tictactoe"]
    assert strongest(make_game("go:size=9"), ("policy-value",)) is None  # none shipped


def test_the_models_command_lists_each_shipped_model(run_cli: Run) -> None:
    listed = run_cli("learn", "models", "--json")
    assert listed.code == 0, listed
    models = json.loads(listed.out)
    assert set(models) == set(shipped_models())
    assert [name for name, entry in models.items() if entry["default"]] == [
        "connect4-distilled",
        "go7",
        "tictactoe",
    ]
    assert models["connect4-distilled"]["made"] == "distilled"
    text = run_cli("learn", "models")
    assert "connect4-distilled (connect4, distilled, default)" in text.out
    assert "mistakes without search, middle-medium (Test_L2_R2, 1,000 positions): 5.9%" in text.out
