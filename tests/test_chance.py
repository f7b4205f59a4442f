"""Chance nodes in the formal game: outcome probabilities are checked, nature's moves are drawn
with them (seeded), and the deterministic searches refuse chance games by name."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from plies.agents import make_agent
from plies.capabilities import HasChance
from plies.errors import GameDefinitionError, UnsupportedGameError
from plies.game import CHANCE, checked_outcomes, has_chance, sample_outcome
from plies.games import make_game
from plies.play import play_game
from plies.search import alphabeta, minimax
from plies.testing import DiceRace


def test_the_capability_is_recognised() -> None:
    assert isinstance(DiceRace(), HasChance) and has_chance(DiceRace())
    assert not has_chance(make_game("tictactoe"))


@pytest.mark.parametrize(
    ("outcomes", "message"),
    [
        (((0, 0.5), (1, 0.6)), "sum to 1.1, not 1"),
        (((0, 1.5), (1, -0.5)), "outcome 1 has probability -0.5"),
        (((0, float("nan")), (1, 1.0)), "outcome 0 has probability nan"),
    ],
)
def test_bad_probabilities_name_the_problem(
    outcomes: tuple[tuple[int, float], ...], message: str
) -> None:
    game = DiceRace(die=outcomes)
    state = game.result(game.initial_state(), 1)
    with pytest.raises(GameDefinitionError, match=message):
        checked_outcomes(game, state)
    with pytest.raises(GameDefinitionError):
        play_game(game, {p: make_agent("random", game, seed=1) for p in game.players})


def test_nature_draws_each_outcome_with_its_probability() -> None:
    game = DiceRace(die=((0, 0.25), (1, 0.75)))
    state = game.result(game.initial_state(), 2)
    rng = random.Random(7)
    counts = Counter(sample_outcome(game, state, rng) for _ in range(20_000))
    assert abs(counts[1] / 20_000 - 0.75) < 0.02  # 0.75 +- 6.5 standard deviations
    certain = DiceRace(die=((0, 0.0), (1, 1.0)))
    assert {sample_outcome(certain, state, rng) for _ in range(200)} == {1}


def test_played_games_alternate_players_and_nature_reproducibly() -> None:
    game = DiceRace()

    def record(seed: int) -> list[tuple[str, str]]:
        agents = {p: make_agent("random", game, seed=i) for i, p in enumerate(game.players)}
        played = play_game(game, agents, chance=random.Random(seed))
        return [(turn.player, turn.notation) for turn in played.turns]

    turns = record(3)
    assert turns == record(3)
    assert [player for player, _ in turns[:4]] == ["X", CHANCE, "O", CHANCE]
    assert any(record(seed) != turns for seed in range(4, 10))  # the dice matter


@pytest.mark.parametrize("search", [minimax, alphabeta])
def test_deterministic_searches_refuse_chance_games(search: object) -> None:
    game = DiceRace()
    with pytest.raises(UnsupportedGameError, match="chance nodes"):
        search(game, game.initial_state())  # type: ignore[operator]
    for spec in ("alphabeta", "minimax", "engine:depth=2"):
        with pytest.raises(UnsupportedGameError, match="chance nodes"):
            make_agent(spec, game)
