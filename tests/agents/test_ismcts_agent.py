"""The ``ismcts`` agent: its options (bad ones one line), its seeds, its reports, and the games
it is for."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from plies.agents import make_agent
from plies.agents.live import Watch
from plies.agents.registry import agent_kind
from plies.clock import TimeControl
from plies.errors import MissingCapabilityError, UnsupportedGameError
from plies.games.kuhn.rules import KuhnPoker, KuhnState
from plies.games.leduc.rules import LeducPoker, LeducState
from plies.games.tictactoe.rules import TicTacToe
from plies.play import play_game
from plies.search import SearchResult

KUHN = KuhnPoker()
LEDUC = LeducPoker()
FACING_A_RAISE = LeducState(("Q", "K"), ("r",))


@pytest.mark.parametrize(
    ("spec", "fragment"),
    [
        ("ismcts:iterations=0", "iterations must be at least 1"),
        ("ismcts:iterations=many", "'many' is not an integer"),
        ("ismcts:time=0", "time must be a positive number"),
        ("ismcts:c=-1", "c must be at least 0"),
        ("ismcts:seed=-3", "seed must be at least 0"),
        ("ismcts:depth=3", "unknown option 'depth'"),
    ],
)
def test_bad_options_are_one_line(run_cli: Callable[..., Any], spec: str, fragment: str) -> None:
    result = run_cli("play", "leduc", "--first", spec)
    assert result.code == 2
    assert fragment in result.err
    assert len(result.err.strip().splitlines()) == 1


def test_games_without_information_sets_are_refused_in_one_line(
    run_cli: Callable[..., Any],
) -> None:
    with pytest.raises(MissingCapabilityError, match=r"no information sets.*ismcts needs them"):
        make_agent("ismcts", TicTacToe())
    result = run_cli("play", "tictactoe", "--first", "ismcts:iterations=10")
    assert result.code == 2
    assert result.err.count("\n") == 1 and "information sets" in result.err


def test_it_plays_hidden_information_games_where_the_others_are_refused() -> None:
    assert agent_kind("ismcts").hidden_information
    with pytest.raises(UnsupportedGameError, match=r"agents for it: .*ismcts"):
        make_agent("mcts:iterations=10", KUHN)
    agent = make_agent("ismcts", LEDUC)
    assert (agent.iterations, agent.seconds) == (None, 1.0)  # type: ignore[attr-defined]


def test_a_move_repeats_with_its_seed_and_the_specs_seed_wins() -> None:
    def searched(spec: str, seed: int) -> Any:
        agent = make_agent(spec, LEDUC, seed=seed)
        agent(LEDUC, FACING_A_RAISE)
        assert agent.last is not None
        return agent.last.root

    assert searched("ismcts:iterations=300", 1) == searched("ismcts:iterations=300", 1)
    assert searched("ismcts:iterations=300", 1) != searched("ismcts:iterations=300", 2)
    fixed = "ismcts:iterations=300,seed=5"
    assert searched(fixed, 1) == searched(fixed, 2) == searched("ismcts:iterations=300", 5)


def test_reset_plays_as_a_new_agent_with_that_seed() -> None:
    agent = make_agent("ismcts:iterations=300", LEDUC, seed=1)
    agent(LEDUC, FACING_A_RAISE)
    agent.reset(9)
    assert agent.last is None
    agent(LEDUC, FACING_A_RAISE)
    fresh = make_agent("ismcts:iterations=300", LEDUC, seed=9)
    fresh(LEDUC, FACING_A_RAISE)
    assert agent.last is not None and fresh.last is not None
    assert agent.last.root == fresh.last.root
    fixed = make_agent("ismcts:iterations=300,seed=4", LEDUC, seed=1)
    fixed.reset(9)  # the spec's seed wins
    fixed(LEDUC, FACING_A_RAISE)
    assert fixed.last is not None and fixed.last.root != fresh.last.root


def test_a_watched_search_reports_and_stops() -> None:
    agent = make_agent("ismcts:iterations=1000", KUHN, seed=3)
    reports: list[SearchResult[Any]] = []
    action = agent.think(KUHN, KuhnState(("J", "K"), "b"), Watch(reports.append))  # type: ignore[attr-defined]
    assert action == "bet"
    assert [r.stats.iterations for r in reports] == [200, 400, 600, 800, 1000]
    stopping = Watch(reports.append)
    stopping.stop.set()
    agent.think(KUHN, KuhnState(("J", "K"), "b"), stopping)  # type: ignore[attr-defined]
    assert agent.last is not None and agent.last.stats.iterations == 200


def test_a_clock_sets_the_moves_time_and_the_iterations_still_bind() -> None:
    agent = make_agent("ismcts:iterations=50", KUHN, seed=3)
    agent.set_clock(60.0, 1.0)  # type: ignore[attr-defined]
    assert agent.move_seconds > 0  # type: ignore[attr-defined]
    agent(KUHN, KuhnState(("Q", "J"), ""))
    assert agent.last is not None and agent.last.stats.iterations == 50


def test_it_plays_hands_to_a_clock() -> None:
    agents = {"P1": make_agent("ismcts", LEDUC, seed=1), "P2": make_agent("random", LEDUC, seed=2)}
    for hand in range(3):
        record = play_game(LEDUC, agents, chance=random.Random(hand), time_control=TimeControl(3))
        assert record.loss is None and LEDUC.is_terminal(record.state)
