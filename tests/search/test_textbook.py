"""The textbook tier against the lectures' figures and against itself on random trees."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from plies.errors import MissingCapabilityError, UnsupportedGameError
from plies.game import define_game
from plies.games.tictactoe.rules import TicTacToe
from plies.games.tree import Node, TreeGame, parse_tree
from plies.lectures.tree_report import analyse_tree, exact_values
from plies.search import Cutoff, Leaf, alphabeta, minimax
from plies.testing import check_tree_bounds, take_away

LECTURE = "[[3,12,8],[2,4,6],[14,5,2]]"


def test_lecture_tree_alphabeta() -> None:
    report = analyse_tree(parse_tree(LECTURE))
    assert report.value == 3
    assert report.best_path == (0,)
    assert report.pv == (0, 0)
    assert report.pruned_leaves == (4, 5)
    assert report.stats.nodes == 11
    assert report.stats.cutoffs == 1
    assert [n.label for n in report.visit_order] == [
        "A",
        "B",
        "b1",
        "b2",
        "b3",
        "C",
        "c1",
        "D",
        "d1",
        "d2",
        "d3",
    ]
    c = report.node((1,))
    assert (c.alpha_in, c.beta_in, c.value, c.bound) == (3, math.inf, 2, "upper")


def test_lecture_tree_minimax_visits_everything() -> None:
    report = analyse_tree(parse_tree(LECTURE), "minimax")
    assert report.value == 3
    assert report.pruned_leaves == ()
    assert report.stats.nodes == 13
    assert [report.node((i,)).value for i in range(3)] == [3, 2, 2]


def test_minimax_value_independent_of_pruned_leaves() -> None:
    for x, y in [(-100, -100), (100, 100), (2, 50)]:
        tree = parse_tree(f"[[3,12,8],[2,{x},{y}],[14,5,2]]")
        assert analyse_tree(tree, "minimax").value == 3
        assert analyse_tree(tree).pruned_leaves == (4, 5)


def test_root_min() -> None:
    report = analyse_tree(parse_tree(LECTURE), root="MIN")
    # MIN picks the child whose MAX value is smallest: max(3,12,8)=12, 6, 14 -> 6.
    assert report.value == 6
    assert report.best_path == (1,)


def test_tictactoe_full_tree_counts() -> None:
    game = TicTacToe()
    result = minimax(game, game.initial_state())
    assert result.value == 0
    assert result.stats.nodes == 549_946
    assert result.stats.leaves == 255_168
    fast = alphabeta(game, game.initial_state())
    assert fast.value == 0
    assert fast.stats.nodes < result.stats.nodes // 10


def test_depth_limited_uses_eval_and_counts_cutoff_leaves() -> None:
    game = TicTacToe()
    result = alphabeta(game, game.initial_state(), depth=2, trace=True)
    assert result.stats.max_depth == 2
    assert result.trace is not None
    leaves = [e for e in result.trace if isinstance(e, Leaf)]
    assert leaves and not any(e.terminal for e in leaves)
    assert all(-1 < e.value < 1 for e in leaves)
    assert game.format_action(game.initial_state(), result.action) == "b2"


def test_depth_limit_needs_evaluation() -> None:
    game = take_away(5)
    # 5 is not a multiple of 3, so the first player wins by taking 2.
    result = alphabeta(game, game.initial_state())
    assert (result.value, result.action) == (1, 2)
    with pytest.raises(MissingCapabilityError, match="evaluation function"):
        minimax(game, game.initial_state(), depth=2)


def test_non_zero_sum_game_is_refused() -> None:
    game = define_game(
        name="prisoners",
        players=("A", "B"),
        initial_state=lambda: 0,
        to_move=lambda s: "A",
        actions=lambda s: [1],
        result=lambda s, a: 1,
        is_terminal=lambda s: s == 1,
        utility=lambda s, p: 3,
        zero_sum=False,
    )
    with pytest.raises(UnsupportedGameError, match="two-player zero-sum"):
        alphabeta(game, 0)


# Random trees ------------------------------------------------------------------------------

leaf_values = st.integers(min_value=-9, max_value=9)
trees = st.recursive(
    leaf_values,
    lambda children: st.lists(children, min_size=1, max_size=4),
    max_leaves=40,
)


def _tree(data: object) -> Node:
    return parse_tree(str(data))


@settings(max_examples=300, deadline=None)
@given(trees, st.booleans(), st.sampled_from(["MAX", "MIN"]))
def test_alphabeta_equals_minimax(data: object, strict: bool, root: str) -> None:
    tree = _tree(data)
    game = TreeGame(tree, root)
    truth = exact_values(tree, root)[()]
    assert minimax(game, (), max_player="MAX").value == truth
    result = alphabeta(game, (), max_player="MAX", strict=strict)
    assert result.value == truth
    # The principal variation ends in a leaf whose value is the root's.
    assert game.utility(tuple(result.pv), "MAX") == truth


@settings(max_examples=300, deadline=None)
@given(trees, st.booleans())
def test_pruned_leaves_are_exactly_the_unvisited(data: object, strict: bool) -> None:
    tree = _tree(data)
    report = analyse_tree(tree, strict=strict)
    evaluated = {e.path for e in report.trace if isinstance(e, Leaf)}
    leaves = [path for path, _ in tree.leaves()]
    unvisited = tuple(i for i, path in enumerate(leaves) if path not in evaluated)
    assert report.pruned_leaves == unvisited
    cut_children = sum(len(e.skipped) for e in report.trace if isinstance(e, Cutoff))
    assert (cut_children == 0) == (report.pruned_leaves == ())


@settings(max_examples=300, deadline=None)
@given(trees)
def test_strict_never_prunes_more(data: object) -> None:
    tree = _tree(data)
    strict = set(analyse_tree(tree, strict=True).pruned_leaves)
    loose = set(analyse_tree(tree, strict=False).pruned_leaves)
    assert strict <= loose


@settings(max_examples=200, deadline=None)
@given(trees)
def test_bounds_hold(data: object) -> None:
    """Every searched value is the true value, or a bound on the side it claims."""
    report = analyse_tree(_tree(data))
    check_tree_bounds(report)
