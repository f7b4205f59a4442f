"""Every registered game, with its default options and a few variants, passes the conformance
checks of :mod:`plies.testing`: legal random playouts that end, utilities that sum as declared,
illegal moves refused by name, and move and position notation that read back."""

from __future__ import annotations

import pytest

from plies.games import GAMES, make_game
from plies.testing import check_game

CASES = {
    # spec: (playouts, sampled states, ply cap)
    "tictactoe": (200, 100, 9),
    "tictactoe:m=4,n=4,k=3": (100, 100, 16),
    "tictactoe:m=4,n=5,k=3,scoring=payoff": (100, 100, 20),
    "tictactoe3": (100, 100, 16),
    "tictactoe3:m=3,n=3": (100, 100, 9),
    "tiles": (200, 100, 100),
    "tiles:length=7,scoring=payoff": (200, 100, 100),
    "nim": (200, 100, 12),
    "nim:heaps=1-2": (50, 20, 3),
    "nim:heaps=2-0-6-1,misere=true": (200, 100, 9),
    "connect4": (200, 100, 42),
    "connect4:width=5,height=4": (200, 100, 20),
    "connect4:width=3,height=3,k=2,scoring=payoff": (100, 50, 9),
    "othello": (200, 100, 120),
    "othello:scoring=payoff": (20, 20, 120),
    "checkers": (200, 100, 1000),
    "chess": (30, 60, 1000),
    "backgammon": (30, 100, 1000),
    "backgammon:cube=true,beavers=true": (30, 100, 1000),
    "backgammon:match=5": (10, 100, 5000),
    "go": (10, 20, 1000),
    "go:size=5,komi=0,scoring=payoff": (40, 40, 1000),
    "kuhn": (200, 60, 5),
    "leduc": (300, 100, 11),
    "phantom": (300, 100, 100),
    "phantom:scoring=payoff": (50, 50, 100),
    "battleship": (100, 50, 200),
    "battleship:size=3,ships=2-1,scoring=payoff": (100, 50, 100),
    "battleship:size=8,ships=4-3": (10, 20, 200),
}
"""Chess, backgammon and Go are slow in Python: fewer games for them (tests/test_golden.py plays a
whole recorded game of each too)."""


def test_every_registered_game_is_covered() -> None:
    assert {spec.split(":")[0] for spec in CASES} == set(GAMES)
    assert all(spec in CASES for spec in GAMES)  # the default options among them


@pytest.mark.parametrize(("spec", "sizes"), CASES.items(), ids=list(CASES))
def test_game_conforms(spec: str, sizes: tuple[int, int, int]) -> None:
    playouts, samples, max_plies = sizes
    check_game(make_game(spec), seed=2024, playouts=playouts, samples=samples, max_plies=max_plies)


def test_every_capability_has_a_description_for_its_error() -> None:
    """``require`` names a missing capability by its description: every one needs one."""
    import inspect

    from plies import capabilities

    protocols = {
        value
        for name, value in vars(capabilities).items()
        if name.startswith("Has") and inspect.isclass(value)
    }
    assert protocols and protocols <= set(capabilities.DESCRIPTIONS)
