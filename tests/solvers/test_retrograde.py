"""Retrograde analysis against the forward solvers: alpha-beta, Bouton's rule for Nim, the
Connect Four solver on a small board, and brute-force distances."""

from __future__ import annotations

import functools
from typing import Any

import numpy as np
import pytest

from plies.errors import SpecError, UnsupportedGameError
from plies.game import Game
from plies.games import make_game
from plies.search import alphabeta
from plies.solvers.retrograde import (
    DRAW,
    LOSS,
    NO_DISTANCE,
    OPEN,
    WIN,
    MoveGraph,
    end_outcome,
    solve_graph,
    solve_positions,
)


def _outcome_by_alphabeta(game: Any, state: Any) -> str:
    """Win, loss or draw for the side to move by alpha-beta to the end (a finished game by its
    utility), against the draw's utility."""
    mover = game.to_move(state)
    if game.is_terminal(state):
        value = game.utility(state, mover)
    else:
        value = alphabeta(game, state, max_player=mover).value
    draw = game.scoring.utility(None, mover)
    return "win" if value > draw else "loss" if value < draw else "draw"


def _perfect_length(game: Game[Any, Any]) -> Any:
    """Outcome and plies to the end with the winner quickest and the loser slowest, by plain
    memoised recursion over the moves (no rounds)."""

    @functools.cache
    def solve(state: Any) -> tuple[int, int]:
        if game.is_terminal(state):
            return end_outcome(game, state), 0
        results = [solve(game.result(state, a)) for a in game.actions(state)]
        lost = [d for o, d in results if o == LOSS]
        if lost:
            return WIN, min(lost) + 1
        if all(o == WIN for o, _ in results):
            return LOSS, max(d for _, d in results) + 1
        return DRAW, NO_DISTANCE

    return solve


def test_tictactoe_every_position_as_alphabeta_and_as_plain_recursion() -> None:
    """All 5,478 legal positions reachable from the start, each outcome equal to alpha-beta's
    and each distance to the memoised recursion's."""
    game = make_game("tictactoe")
    solved = solve_positions(game)
    assert len(solved.positions) == 5478
    recursion = _perfect_length(game)
    for state in solved.positions.states:
        outcome, distance = solved.outcome(state)
        assert outcome == _outcome_by_alphabeta(game, state)
        expected = recursion(state)
        assert (outcome, distance) == (
            {WIN: "win", LOSS: "loss", DRAW: "draw"}[expected[0]],
            expected[1],
        )
    assert solved.outcome(game.initial_state()) == ("draw", NO_DISTANCE)


@pytest.mark.parametrize("spec", ["nim:heaps=3-4-5", "nim:heaps=2-3-6,misere=true"])
def test_nim_positions_follow_boutons_rule(spec: str) -> None:
    game = make_game(spec)
    solved = solve_positions(game)
    misere = "misere" in spec
    for state in solved.positions.states:
        heaps = [h for h in state.heaps]
        if misere and all(h <= 1 for h in heaps):
            wins = sum(heaps) % 2 == 0
        else:
            wins = np.bitwise_xor.reduce(np.array(heaps)) != 0
        assert solved.outcome(state)[0] == ("win" if wins else "loss")


def test_the_tile_game_as_alphabeta() -> None:
    game = make_game("tiles:length=5")
    solved = solve_positions(game)
    for state in solved.positions.states:
        assert solved.outcome(state)[0] == _outcome_by_alphabeta(game, state)


def test_connect4_4x4_every_position_as_the_solver() -> None:
    """Every position of the 4 x 4 board reachable from the start: the outcome and distance
    give exactly the Connect Four solver's score (Pons's: a win by the stone placed after
    ``k`` stones scores ``(cells + 1 - k) // 2``)."""
    game = make_game("connect4:width=4,height=4")
    solved = solve_positions(game)
    solver = game.perfect_solver()
    cells = game.width * game.height
    checked = 0
    for state in solved.positions.states:
        if game.is_terminal(state):
            continue
        outcome, distance = solved.outcome(state)
        score = solver.solve(state).score
        if outcome == "draw":
            assert score == 0
        else:
            stones_before_the_win = state.moves + distance - 1
            magnitude = (cells + 1 - stones_before_the_win) // 2
            assert score == (magnitude if outcome == "win" else -magnitude)
        checked += 1
    assert checked > 100_000


def test_a_fixed_outcome_acts_at_its_distance() -> None:
    """Position 0 moves to 1 (fixed: lost in 5) or to 2, which moves only to 3 (fixed: lost at
    once): 2 is won in 1, so 0 wins only through 1, in 6 plies, decided in round 6."""
    graph = MoveGraph(
        starts=np.array([0, 2, 2, 3, 3]),
        children=np.array([1, 2, 3]),
        fixed=np.array([OPEN, LOSS, OPEN, LOSS], np.uint8),
        fixed_distances=np.array([NO_DISTANCE, 5, NO_DISTANCE, 0], np.int32),
    )
    solved = solve_graph(graph)
    assert list(solved.outcomes) == [WIN, LOSS, WIN, LOSS]
    assert list(solved.distances) == [6, 5, 1, 0]


def test_a_cycle_without_an_exit_is_a_draw() -> None:
    graph = MoveGraph(
        starts=np.array([0, 1, 3, 3]),
        children=np.array([1, 0, 2]),
        fixed=np.array([OPEN, OPEN, WIN], np.uint8),
        fixed_distances=np.array([NO_DISTANCE, NO_DISTANCE, 0], np.int32),
    )
    solved = solve_graph(graph)
    assert list(solved.outcomes) == [DRAW, DRAW, WIN]


def test_best_moves_keep_the_outcome_at_its_distance() -> None:
    game = make_game("tictactoe")
    solved = solve_positions(game)
    state = game.parse_position("XX./OO./...")
    assert solved.outcome(state) == ("win", 1)
    assert [game.format_action(state, a) for a in solved.best_moves(state)] == ["c1"]


def test_limits_and_unsupported_games_are_refused() -> None:
    with pytest.raises(SpecError, match="more than 1,000 positions"):
        solve_positions(make_game("tictactoe"), limit=1000)
    with pytest.raises(UnsupportedGameError, match="chance"):
        solve_positions(make_game("backgammon"))
    with pytest.raises(UnsupportedGameError, match="two-player"):
        solve_positions(make_game("tictactoe3"))
    with pytest.raises(ValueError, match="no move and no fixed outcome"):
        MoveGraph(
            np.array([0, 0]),
            np.array([], np.int64),
            np.array([OPEN], np.uint8),
            np.array([NO_DISTANCE], np.int32),
        )
