"""Following agents as they think (plies.agents.live), MCTS's visit tree, the solver's score
per move and the estimate of a game tree's size."""

from __future__ import annotations

import itertools
import threading
import time
from typing import Any

import pytest

from plies.agents import make_agent
from plies.agents.live import Watch, Watchable, choose_move, stoppable
from plies.agents.textbook import search_cost_problem
from plies.errors import BudgetExhaustedError
from plies.games import make_game
from plies.games.connect4.solver import Connect4Solver
from plies.games.tree import parse_tree, tree_game
from plies.search import SearchResult, minimax
from plies.search.analysis import estimate_tree_size
from plies.search.result import VisitNode


def collect() -> tuple[list[SearchResult[Any]], Watch]:
    reports: list[SearchResult[Any]] = []
    return reports, Watch(report=reports.append)


def test_the_engine_reports_every_iteration_and_plays_as_when_called() -> None:
    game = make_game("connect4")
    state = game.parse_position("4453")
    reports, watch = collect()
    watched = make_agent("engine:depth=6", game)
    assert isinstance(watched, Watchable)
    move = choose_move(watched, game, state, watch)
    assert [r.depth for r in reports] == [1, 2, 3, 4, 5, 6]
    assert reports[-1] is watched.last
    assert make_agent("engine:depth=6", game)(game, state) == move


def test_a_stopped_engine_still_moves() -> None:
    game = make_game("chess")
    reports, watch = collect()
    watch.stop.set()  # stopped before it starts: the first iteration always completes
    move = choose_move(make_agent("engine:time=60", game), game, game.initial_state(), watch)
    assert move in game.actions(game.initial_state())
    assert reports and reports[-1].depth is not None and reports[-1].depth <= 1


def test_mcts_reports_as_it_goes_and_stops_when_told() -> None:
    game = make_game("tictactoe")
    agent = make_agent("mcts:iterations=100000", game, seed=1)
    reports: list[SearchResult[Any]] = []

    def stop_after_two(result: SearchResult[Any]) -> None:
        reports.append(result)
        if len(reports) == 2:
            watch.stop.set()

    watch = Watch(report=stop_after_two)
    move = choose_move(agent, game, game.initial_state(), watch)
    assert move in game.actions(game.initial_state())
    final = reports[-1]
    assert final.stats.iterations < 100000 and final.tree
    assert final.tree[0].action == move  # the most visited is the move played


def _check_visits(nodes: tuple[VisitNode, ...], parent_visits: int) -> None:
    visits = [node.visits for node in nodes]
    assert visits == sorted(visits, reverse=True) and sum(visits) <= parent_visits
    for node in nodes:
        _check_visits(node.children, node.visits)


def test_the_visit_tree_is_consistent() -> None:
    game = make_game("connect4")
    agent = make_agent("mcts:iterations=3000", game, seed=3)
    agent(game, game.initial_state())
    assert agent.last is not None
    tree = agent.mcts.visit_tree(levels=2, width=3)  # type: ignore[attr-defined]
    assert 1 <= len(tree) <= 3 and all(len(node.children) <= 3 for node in tree)
    assert all(not child.children for node in tree for child in node.children)
    _check_visits(tree, 3000)
    root = {move.action: move.visits for move in agent.last.root or ()}
    assert all(root[node.action] == node.visits for node in tree)


def test_a_textbook_search_is_reported_once_at_the_end() -> None:
    game = make_game("tictactoe")
    agent = make_agent("alphabeta", game)
    assert not isinstance(agent, Watchable)
    reports, watch = collect()
    choose_move(agent, game, game.parse_position("XO./.X./..O"), watch)
    assert len(reports) == 1 and reports[0].algorithm == "alphabeta"


def test_the_perfect_agent_reports_every_columns_score_when_watched() -> None:
    game = make_game("connect4")
    state = game.parse_position("44444453")
    reports, watch = collect()
    agent = make_agent("perfect:time=30", game)
    choose_move(agent, game, state, watch)
    scores = dict(reports[-1].move_scores or ())
    analysed = Connect4Solver().analyze(state)
    assert scores == {c: s for c, s in enumerate(analysed) if s is not None}
    unwatched = make_agent("perfect:time=30", game)
    unwatched(game, state)
    assert unwatched.last is not None and unwatched.last.move_scores is None


def test_move_score_agrees_with_analyze() -> None:
    solver = Connect4Solver()
    state = solver.game.parse_position("445362")
    analysed = solver.analyze(state)
    for column, score in enumerate(analysed):
        if score is not None:
            assert Connect4Solver().move_score(state, column) == score


def test_the_tree_size_estimate_is_exact_on_uniform_trees() -> None:
    for branching, depth in itertools.product((1, 2, 3), (0, 1, 3, 5)):
        text = "0"
        for _ in range(depth):
            text = "[" + ",".join([text] * branching) + "]"
        game = tree_game(parse_tree(text))
        nodes = sum(branching**level for level in range(depth + 1))
        assert estimate_tree_size(game, game.initial_state(), samples=3) == nodes


def test_the_tree_size_estimate_is_near_the_truth() -> None:
    game = make_game("tictactoe")
    state = game.parse_position("X../.O./...")
    truth = _count(game, state)
    estimate = estimate_tree_size(game, state, samples=4000)
    assert 0.8 * truth < estimate < 1.25 * truth


def _count(game: Any, state: Any) -> int:
    if game.is_terminal(state):
        return 1
    return 1 + sum(_count(game, game.result(state, a)) for a in game.actions(state))


def test_a_textbook_search_is_abandoned_when_stopped() -> None:
    game = make_game("tictactoe")
    watch = Watch()
    watch.stop.set()
    with pytest.raises(BudgetExhaustedError, match="stopped before its search ended"):
        choose_move(make_agent("minimax", game), game, game.initial_state(), watch)


def test_a_stoppable_game_is_the_same_game_with_a_budget() -> None:
    game = make_game("tictactoe")
    budgeted = stoppable(game, threading.Event(), positions=100)
    assert type(budgeted) is type(game) and budgeted.players == game.players
    state = game.parse_position("XO./.X./...")
    assert stoppable(game, threading.Event()).result(state, 8) == game.result(state, 8)
    with pytest.raises(BudgetExhaustedError, match="more than 100 positions"):
        minimax(budgeted, game.initial_state())


def test_the_perfect_agent_moves_at_once_when_stopped() -> None:
    game = make_game("connect4")
    watch = Watch()
    threading.Timer(0.3, watch.stop.set).start()
    began = time.perf_counter()
    move = choose_move(make_agent("perfect:time=100", game), game, game.initial_state(), watch)
    assert move in game.actions(game.initial_state()) and time.perf_counter() - began < 5


def test_textbook_searches_too_slow_for_a_budget_are_named() -> None:
    chess = make_game("chess")
    problem = search_cost_problem(
        make_agent("alphabeta:depth=30", chess), chess, chess.initial_state(), 10_000, 1.0
    )
    assert problem is not None and "to depth 30" in problem and "smaller depth" in problem
    tictactoe = make_game("tictactoe")
    for spec in ("alphabeta", "minimax", "engine:time=1"):
        agent = make_agent(spec, tictactoe)
        assert search_cost_problem(agent, tictactoe, tictactoe.initial_state(), 600_000, 5) is None
