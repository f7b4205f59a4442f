"""Reviews of finished games: losses and marks against the textbook search and the perfect
solver, the graph's values, stopping, and the games a review refuses."""

from __future__ import annotations

import threading
from typing import Any

import pytest

from plies.arena.tournament import opening_line
from plies.errors import UnsupportedGameError
from plies.registry import make_game
from plies.review import (
    DRAW_MARGIN,
    Judgement,
    answer_draw_offer,
    best_analyser,
    check_reviewable,
    engine_analyser,
    mark_of,
    review_game,
    solver_analyser,
)
from plies.search import minimax
from plies.solvers import perfect_solver

LATE = "243641127463452617621746242167773"
"""A Connect Four position with nine empty cells, O to move: one of its three moves loses."""


def test_marks_follow_lichess_thresholds() -> None:
    assert [mark_of(x) for x in (None, 0.0, 0.049, 0.05, 0.1, 0.149, 0.15, 1.0)] == [
        "",
        "",
        "",
        "inaccuracy",
        "mistake",
        "mistake",
        "blunder",
        "blunder",
    ]


def _played_out(game: Any, state: Any, first_choice: Any) -> list[Any]:
    """``first_choice`` and then minimax's move to the end."""
    actions = [first_choice]
    state = game.result(state, first_choice)
    while not game.is_terminal(state):
        actions.append(minimax(game, state).action)
        state = game.result(state, actions[-1])
    return actions


def test_a_solver_review_finds_the_one_losing_move() -> None:
    """From a late Connect Four position, the losing move (found by minimax to the end) is a
    blunder with the solver's best move beside it; every move after it, minimax's, loses
    nothing."""
    game = make_game("connect4")
    start, line = opening_line(game, LATE)
    for action in line:
        start = game.result(start, action)
    mover = game.to_move(start)
    values = {
        a: minimax(game, game.result(start, a), max_player=mover).value for a in game.actions(start)
    }
    losing = min(values, key=lambda a: values[a])
    assert values[losing] < max(values.values())
    actions = _played_out(game, start, losing)
    solver = perfect_solver(game)
    assert solver is not None
    review = review_game(
        game, start, actions, solver_analyser(solver, 5.0), analyser="solver", seconds=5.0
    )
    assert review.complete and len(review.moves) == len(actions)
    first = review.moves[0]
    assert first.mark == "blunder" and first.loss is not None and first.loss >= 0.5
    assert first.best in {
        game.format_action(start, a) for a, v in values.items() if v == max(values.values())
    }
    assert all(move.loss == 0 for move in review.moves[1:])
    mover_summary = next(p for p in review.players if p.player == mover)
    assert mover_summary.blunders == 1
    end = start
    for action in actions:
        end = game.result(end, action)
    first, second = game.players
    outcome = (game.utility(end, first) > game.utility(end, second)) + (
        game.utility(end, first) >= game.utility(end, second)
    )
    assert review.moves[-1].first_expected == outcome / 2


def test_an_engine_review_of_tictactoe_marks_the_blunder() -> None:
    """X's corner opening answered by an edge loses for O: the engine (exact in tic-tac-toe)
    marks O's edge a blunder and X's moves none; the graph ends at X's win."""
    game = make_game("tictactoe")
    state = game.initial_state()
    moves = ["a1", "b1"]  # a corner, then an edge next to it: a lost position for O
    actions = []
    for notation in moves:
        actions.append(game.parse_action(state, notation))
        state = game.result(state, actions[-1])
    while not game.is_terminal(state):
        actions.append(minimax(game, state).action)
        state = game.result(state, actions[-1])
    review = review_game(
        game,
        game.initial_state(),
        actions,
        engine_analyser(game, 1.0),
        analyser="engine",
        seconds=1.0,
    )
    marks = {(move.player, move.move): move.mark for move in review.moves}
    assert marks[("O", "b1")] == "blunder"
    assert all(mark == "" for (player, _), mark in marks.items() if player == "X")
    assert review.start_expected == 0.5
    assert review.moves[-1].first_expected == 1.0


def test_a_stopped_review_keeps_what_it_judged() -> None:
    game = make_game("tictactoe")
    stop = threading.Event()
    calls = []

    def progress(done: int, total: int) -> None:
        calls.append((done, total))
        if done == 3:
            stop.set()

    actions = _played_out(game, game.initial_state(), 4)
    review = review_game(
        game,
        game.initial_state(),
        actions,
        engine_analyser(game, 0.5),
        analyser="engine",
        seconds=0.5,
        progress=progress,
        stop=stop,
    )
    assert not review.complete and len(review.moves) == 2
    assert calls[-1] == (3, len(actions) + 1)


@pytest.mark.parametrize(
    ("name", "why"), [("backgammon", "chance"), ("nim", "neither"), ("tictactoe3", "two-player")]
)
def test_reviews_refuse_games_they_cannot_judge(name: str, why: str) -> None:
    with pytest.raises(UnsupportedGameError, match=why):
        check_reviewable(make_game(name))


def test_the_analyser_is_chosen_by_capability() -> None:
    """The perfect solver where one is given, Go's own compiled MCTS, else the engine; an MCTS
    review of a small Go game judges every move."""
    connect4 = make_game("connect4")
    assert best_analyser(connect4, 1.0, perfect_solver(connect4))[0] == "solver"
    assert best_analyser(connect4, 1.0)[0] == "engine"
    assert best_analyser(make_game("chess"), 1.0)[0] == "engine"
    go = make_game("go:size=5")
    name, analyse = best_analyser(go, 0.05)
    assert name == "mcts"
    actions = [go.parse_action(go.initial_state(), "C3")]
    review = review_game(go, go.initial_state(), actions, analyse, analyser=name, seconds=0.05)
    assert review.complete and review.moves[0].loss is not None
    assert 0 <= (review.start_expected or 0) <= 1


def test_an_agent_accepts_a_draw_only_when_it_expects_no_more() -> None:
    """The answer follows the analyser's expected score for the agent (whoever is to move),
    checked against minimax's value of the same tic-tac-toe positions."""
    game = make_game("tictactoe")
    _, analyse = best_analyser(game, 1.0)
    start = game.initial_state()
    won = start
    for notation in ["a1", "b1", "a3", "c1", "c3"]:  # X's double threat, O to move
        won = game.result(won, game.parse_action(won, notation))
    assert minimax(game, start).value == 0 and minimax(game, won).value < 0
    assert answer_draw_offer(game, start, "O", analyse(start)).accepted
    declined = answer_draw_offer(game, won, "X", analyse(won))
    assert not declined.accepted and "X declines" in declined.text
    assert answer_draw_offer(game, won, "O", analyse(won)).accepted  # lost: a draw is better
    edge = Judgement(0.5 + DRAW_MARGIN + 0.01, None, "+0.11")
    assert not answer_draw_offer(game, start, "X", edge).accepted
    assert answer_draw_offer(game, start, "O", edge).accepted
    unknown = answer_draw_offer(game, start, "X", Judgement(None, None, "not solved in time"))
    assert not unknown.accepted and "could not judge" in unknown.text
