"""Backgammon's engine (:mod:`plies.games.backgammon.engine_native`): its values at depths 1
and 2 against the textbook expectiminimax on the same evaluation, its depth 3 against a plain
Python search with the same move filter, and the agent's options."""

from __future__ import annotations

import random
import threading
from collections.abc import Iterator

import pytest

from plies.agents import make_agent
from plies.errors import SpecError
from plies.games.backgammon import bearoff
from plies.games.backgammon import engine_native as engine
from plies.games.backgammon.rules import SIDES, Backgammon, BackgammonState
from plies.search.expectimax import expectiminimax

LEARNED, HAND = Backgammon(), Backgammon(evaluation="hand")


@pytest.fixture(scope="module", autouse=True)
def _endgames(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(bearoff.ENDGAMES, str(tmp_path_factory.mktemp("endgames")))
        bearoff._default_database.cache_clear()
        yield
    bearoff._default_database.cache_clear()


def _positions(count: int, seed: int) -> list[BackgammonState]:
    """Positions with dice from random games, a few from each game, races included."""
    rng = random.Random(seed)
    found: list[BackgammonState] = []
    state = LEARNED.initial_state()
    while len(found) < count:
        if LEARNED.is_terminal(state):
            state = LEARNED.initial_state()
        if state.dice and rng.random() < 0.1:
            found.append(state)
        state = LEARNED.result(state, rng.choice(LEARNED.actions(state)))
    return found


POSITIONS = [
    *_positions(8, 11),
    LEARNED.parse_position("W 6:2 5:3 2:1 off:9 / B 4:3 3:3 1:1 off:8 / W 6-2"),  # the database's
    LEARNED.parse_position("W 1:1 off:14 / B 6:5 5:5 off:5 / W 2-1"),  # one bears off and wins
]


@pytest.mark.parametrize("game", [LEARNED, HAND], ids=["learned", "hand"])
@pytest.mark.parametrize("depth", [1, 2])
def test_depths_one_and_two_are_expectiminimax(game: Backgammon, depth: int) -> None:
    search = engine.backgammon_engine(game)
    for state in POSITIONS:
        mover = SIDES[state.mover]
        results = list(search.iterate(state, depth, None))
        assert [result.depth for result in results] == list(range(1, depth + 1))
        textbook = expectiminimax(game, state, depth=depth, max_player=mover)
        assert results[-1].value == pytest.approx(textbook.value, abs=1e-9)
        assert results[-1].action in game.actions(state)


def _reference_depth_three(game: Backgammon, state: BackgammonState) -> float:
    """Depth 3 of the root's best play, the plain way: the root's plays ranked by EVAL, the
    filter's survivors searched by expectiminimax below the opponent's best reply to each roll
    (chosen by EVAL), as the module's text says."""
    mover = SIDES[state.mover]
    plays = game.actions(state)
    value = {play: game.evaluate(game.result(state, play), mover) for play in plays}
    ranked = sorted(plays, key=lambda play: -value[play])
    extra, threshold = engine.ROOT_FILTER[0]
    depth_two = [p for p in ranked[: 1 + extra] if value[p] >= value[ranked[0]] - threshold]
    deeper = {
        play: expectiminimax(game, game.result(state, play), depth=1, max_player=mover).value
        for play in depth_two
    }
    ranked = sorted(depth_two, key=lambda play: -deeper[play])
    extra, threshold = engine.ROOT_FILTER[1]
    survivors = [p for p in ranked[: 1 + extra] if deeper[p] >= deeper[ranked[0]] - threshold]
    best = -99.0
    for play in survivors:
        child = game.result(state, play)
        if game.is_terminal(child):
            best = max(best, game.utility(child, mover))
            continue
        total = 0.0
        for roll, chance in game.chance_outcomes(child):
            rolled = game.result(child, roll)
            other = SIDES[rolled.mover]
            replies = game.actions(rolled)
            reply = max(replies, key=lambda r: game.evaluate(game.result(rolled, r), other))
            after = game.result(rolled, reply)
            if game.is_terminal(after):
                total += chance * game.utility(after, mover)
            else:
                total += chance * expectiminimax(game, after, depth=1, max_player=mover).value
        best = max(best, total)
    return best


def test_depth_three_is_the_filtered_search() -> None:
    search = engine.backgammon_engine(LEARNED)
    for state in POSITIONS[:3] + POSITIONS[-2:]:
        result = list(search.iterate(state, 3, None))[-1]
        assert result.depth == 3 and result.complete
        assert result.value == pytest.approx(_reference_depth_three(LEARNED, state), abs=1e-9)


def test_the_engine_agent_plays_backgammon_within_its_options() -> None:
    state = POSITIONS[0]
    agent = make_agent("engine:depth=2", LEARNED)
    assert agent(LEARNED, state) in LEARNED.actions(state)
    assert agent.last is not None and agent.last.depth == 2
    hand = make_agent("engine:depth=1,evaluation=hand", LEARNED)
    hand(LEARNED, state)
    assert hand.last is not None
    assert hand.last.value == pytest.approx(
        expectiminimax(HAND, state, depth=1, max_player=SIDES[state.mover]).value
    )
    timed = make_agent("engine:time=0.5", LEARNED)
    timed(LEARNED, state)
    assert timed.last is not None and timed.last.depth is not None
    for spec, message in (
        ("engine:depth=4", "searches 1 to 3 moves deep, not 4"),
        ("engine:nodes=100", "nodes= is not for backgammon's engine"),
        ("engine:evaluation=patterns", "no evaluation 'patterns'"),
    ):
        with pytest.raises(SpecError, match=message):
            make_agent(spec, LEARNED)


def test_a_stopped_search_keeps_its_last_complete_choice() -> None:
    search = engine.backgammon_engine(LEARNED)
    stop = threading.Event()
    stop.set()
    results = list(search.iterate(POSITIONS[0], 3, None, stop))
    assert [result.depth for result in results] == [1]
    assert results[0].action in LEARNED.actions(POSITIONS[0])


def test_mcts_estimates_backgammon_leaves_by_the_learned_evaluation_by_default() -> None:
    state = POSITIONS[1]

    def searched(spec: str) -> tuple[object, float]:
        agent = make_agent(spec, LEARNED, seed=4)
        action = agent(LEARNED, state)
        assert agent.last is not None
        return action, agent.last.value

    default = searched("mcts:iterations=60")
    assert default == searched("mcts:iterations=60,evaluator=eval")
    assert default != searched("mcts:iterations=60,evaluator=playout")
