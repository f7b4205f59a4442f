"""The models shipped inside the package load by name and play as their notes say."""

from __future__ import annotations

from typing import Any

import pytest

from plies.agents import make_agent
from plies.games import make_game
from plies.learn.players import shipped_models

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
