"""The engine against the textbook tier, the clock, and its own promises."""

from __future__ import annotations

import itertools
import math
import os
import random
import time
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from plies.errors import GameOverError, MissingCapabilityError, SpecError
from plies.game import Game
from plies.games import make_game
from plies.search import alphabeta
from plies.search.engine import (
    MATE,
    EngineOptions,
    Limits,
    TranspositionTable,
    iterate,
    search,
)

GAMES = {
    "tictactoe": 4,
    "tictactoe:m=4,n=4,k=3,scoring=payoff": 3,
    "tiles:length=6": 6,
    "connect4": 4,
    "othello": 3,
    "checkers": 4,
}
"""Game spec -> the fixed depth the property test searches."""


def random_position(game: Game[Any, Any], seed: int, plies: int) -> Any:
    rng = random.Random(seed)
    state = game.initial_state()
    for _ in range(plies):
        if game.is_terminal(state):
            break
        previous = state
        state = game.result(state, rng.choice(list(game.actions(state))))
    return previous if game.is_terminal(state) else state


option_sets = st.builds(
    EngineOptions,
    tt_mb=st.sampled_from([0.0, 1.0]),
    pvs=st.booleans(),
    aspiration=st.booleans(),
    ordering=st.booleans(),
    quiescence=st.just(False),
)


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(sorted(GAMES)), st.integers(0, 10_000), st.integers(0, 30), option_sets)
def test_fixed_depth_value_equals_textbook_alphabeta(
    spec: str, seed: int, plies: int, options: EngineOptions
) -> None:
    game = make_game(spec)
    state = random_position(game, seed, plies)
    depth = GAMES[spec]
    expected = alphabeta(game, state, depth=depth).value
    result = search(game, state, Limits(depth=depth), options)
    assert result.value == pytest.approx(expected, abs=1e-12)
    assert result.action in list(game.actions(state))


def test_solves_tictactoe_with_far_fewer_nodes() -> None:
    game = make_game("tictactoe")
    start = game.initial_state()
    reports = list(iterate(game, start))
    assert reports[-1].solved and reports[-1].value == 0
    textbook = alphabeta(game, start)
    assert reports[-1].nodes * 3 < textbook.stats.nodes


def test_prefers_the_fastest_win_and_the_slowest_loss() -> None:
    game = make_game("tictactoe")
    # X can win at once on c1, or later; the engine takes the win now.
    state = game.parse_position("XX./OO./...")
    report = list(iterate(game, state, Limits(depth=5)))[-1]
    assert game.format_action(state, report.move) == "c1"
    assert report.score == MATE - 1 and report.mate == 1
    # O to move is lost to X's double threat: the engine delays the loss.
    lost = game.parse_position("X.X/.O./O.X")  # X threatens b1 and c2
    final = list(iterate(game, lost))[-1]
    assert final.value == -1 and final.mate == -2  # O blocks one; X completes the other
    assert final.score == -(MATE - 2)


def test_distance_survives_the_table() -> None:
    game = make_game("connect4")
    state = game.parse_position("445566")  # X to move wins at once in column 3 or 7
    for options in (EngineOptions(tt_mb=1), EngineOptions(tt_mb=0)):
        report = list(iterate(game, state, Limits(depth=6), options))[-1]
        assert report.mate == 1 and game.format_action(state, report.move) in ("3", "7")
    # O to move cannot stop both: the loss comes on X's next move, scored as late as possible.
    lost = game.parse_position("4455662")
    report = list(iterate(game, lost, Limits(depth=6), EngineOptions(tt_mb=1)))[-1]
    assert report.mate == -2


@pytest.mark.parametrize("name", ["othello", "checkers"])
def test_time_control(name: str) -> None:
    game = make_game(name)
    rng = random.Random(5)
    worst = 0.0
    for index in range(50):
        state = random_position(game, rng.randrange(10**6), rng.randrange(0, 20))
        started = time.perf_counter()
        result = search(game, state, Limits(time=0.05))
        elapsed = time.perf_counter() - started
        worst = max(worst, elapsed)
        assert result.action in list(game.actions(state)), index
    assert worst <= 0.05 + 0.03, f"a 50 ms search took {worst * 1000:.1f} ms"


def test_node_limit_and_partial_iteration() -> None:
    game = make_game("othello")
    reports = list(iterate(game, game.initial_state(), Limits(nodes=2000)))
    assert not reports[-1].complete
    assert reports[-1].nodes <= 2000
    assert all(r.complete for r in reports[:-1])
    assert reports[-1].move in game.actions(game.initial_state())


def test_reports_grow_by_depth() -> None:
    game = make_game("connect4")
    reports = list(iterate(game, game.initial_state(), Limits(depth=6)))
    assert [r.depth for r in reports] == [1, 2, 3, 4, 5, 6]
    assert all(a.nodes < b.nodes for a, b in itertools.pairwise(reports))
    assert all(r.pv[0] == r.move and len(r.pv) <= r.depth for r in reports)


def test_bad_requests() -> None:
    with pytest.raises(SpecError):
        Limits(depth=0)
    with pytest.raises(SpecError):
        Limits(time=-1)
    with pytest.raises(SpecError):
        TranspositionTable(0)
    with pytest.raises(MissingCapabilityError):
        search(make_game("nim"), make_game("nim").initial_state(), Limits(depth=2))
    game = make_game("tictactoe")
    with pytest.raises(GameOverError):
        search(game, game.parse_position("XXX/OO./..."), Limits(depth=2))


def test_table_replacement_policy() -> None:
    table = TranspositionTable(0.001)  # the minimum, 1024 slots
    size = table.size
    table.store(1, 5, 0, 0.5, "a", False)
    table.store(1 + size, 3, 0, 0.1, "b", False)  # same slot, shallower: kept out
    assert table.probe(1) is not None and table.probe(1 + size) is None
    table.store(1 + size, 6, 0, 0.1, "b", False)  # deeper: replaces
    assert table.probe(1) is None and table.probe(1 + size) is not None
    table.new_search()
    table.store(1, 1, 0, 0.2, "c", False)  # the old entry is stale: replaced
    assert table.probe(1) is not None


def _capture_oracle(game: Game[Any, Any], state: Any, depth: int) -> float:
    """Negamax without pruning, extended past the horizon by stand-pat-or-capture."""
    from plies.search.engine import _Engine

    scorer = _Engine(game, Limits(), EngineOptions(tt_mb=0), None)

    def quiet(s: Any, ply: int) -> float:
        if game.is_terminal(s):
            return scorer.terminal_score(s, ply)
        best = scorer.eval_score(s)
        for a in game.actions(s):
            if game.is_capture(s, a):  # type: ignore[attr-defined]
                best = max(best, -quiet(game.result(s, a), ply + 1))
        return best

    def value(s: Any, d: int, ply: int) -> float:
        if game.is_terminal(s):
            return scorer.terminal_score(s, ply)
        if d == 0:
            return quiet(s, ply)
        return max(-value(game.result(s, a), d - 1, ply + 1) for a in game.actions(s))

    return value(state, depth, 0)


@pytest.mark.parametrize("seed", range(12))
def test_quiescence_matches_a_capture_extended_oracle(seed: int) -> None:
    game = make_game("checkers")
    state = random_position(game, seed, 12 + seed)
    for depth in (1, 2):
        report = list(iterate(game, state, Limits(depth=depth)))[-1]
        if abs(report.score) >= 1:
            break
        assert report.score == pytest.approx(_capture_oracle(game, state, depth), abs=1e-12)


def test_nan_free_values() -> None:
    game = make_game("tictactoe")
    result = search(game, game.initial_state(), Limits(depth=2))
    assert result.score is not None and not math.isnan(result.score)


def _shared_file(name: str) -> Path:
    root = Path(os.environ.get("PLIES_SHARED", Path(__file__).parents[3] / "shared"))
    path = root / "data" / "connect4" / name
    if not path.exists():
        pytest.skip(f"{path} not found (set PLIES_SHARED to the shared folder)")
    return path


def test_win_distances_match_pons_scores() -> None:
    """Pons's score says with how many stones the winner wins; the engine's distance agrees."""
    game = make_game("connect4")
    lines = _shared_file("Test_L3_R1").read_text().split("\n")[:60]
    for line in lines:
        moves, text = line.split()
        score = int(text)
        state = game.parse_position(moves)
        report = list(iterate(game, state, Limits(depth=42 - len(moves))))[-1]
        if score > 0:  # the mover finishes with 22 - score stones
            expected: int | None = 2 * (22 - score - len(moves) // 2) - 1
        elif score < 0:  # the opponent finishes with 22 + score stones
            expected = -2 * (22 + score - (len(moves) + 1) // 2)
        else:
            expected = None
        assert report.mate == expected, moves
