"""Strength sanity: depth-4 alpha-beta with the game's evaluation crushes a random player."""

from __future__ import annotations

import pytest

from plies.agents import make_agent
from plies.game import WinLossDrawGame
from plies.games import make_game
from plies.play import play_game

GAMES_PLAYED = 100


@pytest.mark.parametrize("name", ["connect4", "othello", "checkers"])
def test_alphabeta_depth_4_beats_random(name: str) -> None:
    game = make_game(name)
    assert isinstance(game, WinLossDrawGame)
    wins = 0
    for index in range(GAMES_PLAYED):
        searcher = make_agent("alphabeta:depth=4", game)
        opponent = make_agent("random", game, seed=index)
        first, second = game.players
        # Colours alternate: the searcher moves first in even-numbered games.
        agents = {first: searcher, second: opponent}
        if index % 2:
            agents = {first: opponent, second: searcher}
        searcher_player = first if index % 2 == 0 else second
        record = play_game(game, agents)
        wins += game.winner(record.state) == searcher_player
    assert wins >= 95, f"{name}: alphabeta:depth=4 won only {wins} of {GAMES_PLAYED}"
