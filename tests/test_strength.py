"""Strength sanity: depth-4 alpha-beta with the game's evaluation crushes a random player."""

from __future__ import annotations

import pytest

from plies.arena.match import run_match, summarise
from plies.games import make_game

GAMES_PLAYED = {"connect4": 100, "othello": 40, "checkers": 100}
"""Othello's pattern evaluation is dear in Python: 40 of its games take about 80 s here."""


@pytest.mark.parametrize("name", ["connect4", "othello", "checkers"])
def test_alphabeta_depth_4_beats_random(name: str) -> None:
    # Colours alternate: the searcher moves first in even-numbered games, all from the start.
    games = GAMES_PLAYED[name]
    outcomes = run_match(make_game(name), "alphabeta:depth=4", "random", games, opening_plies=0)
    wins = summarise(outcomes).wins
    assert wins >= 0.95 * games, f"{name}: alphabeta:depth=4 won only {wins} of {games}"
