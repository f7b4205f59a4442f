"""Every registered game: random playouts reach a terminal state through legal moves only."""

from __future__ import annotations

import random

import pytest

from plies.games import GAMES, make_game


@pytest.mark.parametrize("name", sorted(GAMES))
def test_random_playouts_are_legal_and_end(name: str) -> None:
    game = make_game(name)
    rng = random.Random(2024)
    payoff_sums = set()
    for _ in range(200):
        state = game.initial_state()
        for _ply in range(1000):
            if game.is_terminal(state):
                break
            actions = list(game.actions(state))
            assert actions, "a non-terminal state must have a legal move"
            assert len(set(actions)) == len(actions)
            action = rng.choice(actions)
            text = game.format_action(state, action)
            assert game.parse_action(state, text) == action
            state = game.result(state, action)
            hash(state)
        else:
            pytest.fail(f"{name}: a random game did not end within 1000 moves")
        assert game.is_terminal(state)
        assert list(game.actions(state)) == []
        payoffs = game.payoffs(state)
        assert len(payoffs) == len(game.players)
        payoff_sums.add(sum(payoffs))
    if game.zero_sum:
        assert len(payoff_sums) == 1, f"{name} is declared zero-sum but pays {payoff_sums}"
