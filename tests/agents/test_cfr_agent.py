"""The ``cfr`` agent: it plays the shipped strategies' probabilities, a saved file's or one
solved when it is made, sees only its information set, and beats a random player; agents that
need the whole state are refused in games of imperfect information, with the reason."""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from plies.agents import make_agent
from plies.errors import (
    GameTooLargeError,
    MissingCapabilityError,
    StrategyError,
    UnsupportedGameError,
)
from plies.games.kuhn.rules import KuhnPoker, KuhnState
from plies.play import play_game
from plies.registry import make_game
from plies.solvers.strategy import read_strategy


def test_it_plays_the_shipped_strategys_probabilities() -> None:
    game = make_game("kuhn")
    shipped = read_strategy(game.shipped_strategy(), "kuhn")  # type: ignore[attr-defined]
    agent = make_agent("cfr", game, seed=7)
    state = KuhnState(("J", "Q"), "")
    bets = Counter(agent(game, state) for _ in range(4000))["bet"]
    expected = shipped.probabilities("P1", "J:")["bet"]  # type: ignore[index]
    assert 0.1 < expected < 0.3  # an equilibrium bluffs with J a third as often as it bets K
    assert bets / 4000 == pytest.approx(expected, abs=0.025)
    facing = KuhnState(("Q", "K"), "b")
    assert {agent(game, facing) for _ in range(50)} == {"bet"}  # K calls a bet


def test_it_sees_only_its_information_set() -> None:
    """Two states P2 cannot tell apart: the same draws under the same seed."""
    game = make_game("leduc")
    moves = []
    for other in ("J", "K"):
        agent = make_agent("cfr", game, seed=3)
        state = game.initial_state()
        for move in (other, "Q", "raise"):
            state = game.result(state, game.parse_action(state, move))
        moves.append([agent(game, state) for _ in range(30)])
    assert moves[0] == moves[1]


def test_it_beats_random_at_leduc() -> None:
    game = make_game("leduc")
    total = 0.0
    for seed in range(300):
        for seats in (("cfr", "random"), ("random", "cfr")):
            agents = {
                p: make_agent(spec, game, seed=seed * 2 + i)
                for i, (p, spec) in enumerate(zip(game.players, seats, strict=True))
            }
            record = play_game(game, agents, chance=random.Random(seed))
            total += game.utility(record.state, game.players[seats.index("cfr")])
    assert total / 600 > 0.5  # chips a hand; an equilibrium wins about 1.3 against random


def test_it_solves_a_game_without_a_shipped_strategy(tmp_path: Path) -> None:
    class Unshipped(KuhnPoker):
        """Kuhn poker as a developer's game with no strategy of its own."""

        shipped_strategy = None  # type: ignore[assignment]

    game: Any = Unshipped()
    agent = make_agent("cfr:iterations=300", game, seed=1)
    assert agent.strategy.iterations == 300  # type: ignore[attr-defined]


def test_a_blind_game_too_large_to_walk_needs_a_strategy_file() -> None:
    class Huge(KuhnPoker):
        searchable_to_end = False
        shipped_strategy = None  # type: ignore[assignment]

    with pytest.raises(GameTooLargeError, match="give strategy=FILE"):
        make_agent("cfr", Huge())


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("not json", "is not JSON"),
        ('{"plies": "strategy", "version": 1, "game": "leduc", "strategy": {}}', "'leduc'"),
    ],
)
def test_a_damaged_or_foreign_file_is_one_line(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "strategy.json"
    path.write_text(text)
    with pytest.raises(StrategyError, match=message) as caught:
        make_agent(f"cfr:strategy={path}", make_game("kuhn"))
    assert "\n" not in str(caught.value)
    with pytest.raises(StrategyError, match="cannot read strategy file"):
        make_agent(f"cfr:strategy={tmp_path / 'missing.json'}", make_game("kuhn"))


def test_perfect_information_agents_are_refused_with_the_reason() -> None:
    for spec in ("alphabeta", "minimax:depth=2", "mcts", "engine:depth=2", "expectiminimax"):
        with pytest.raises(UnsupportedGameError, match="needs perfect information") as caught:
            make_agent(spec, make_game("leduc"))
        assert "agents for it: " in str(caught.value) and "cfr" in str(caught.value)
    with pytest.raises(MissingCapabilityError, match="the cfr agent needs them"):
        make_agent("cfr", make_game("tictactoe"))
