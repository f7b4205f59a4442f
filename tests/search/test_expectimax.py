"""Expectiminimax against brute force and the textbook's numbers; Star1 against expectiminimax
on thousands of random chance trees, on a dice game, and against alpha-beta without chance."""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence
from fractions import Fraction
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from plies.errors import (
    GameDefinitionError,
    MissingCapabilityError,
    UnknownNameError,
    UnsupportedGameError,
)
from plies.game import CHANCE
from plies.games.tictactoe.rules import TicTacToe
from plies.games.tree import Node, parse_tree, tree_game
from plies.lectures.tree_report import analyse_tree, exact_values, leaf_bounds
from plies.search import (
    ALGORITHMS,
    Backup,
    Cutoff,
    Enter,
    Expectation,
    Leaf,
    alphabeta,
    expectiminimax,
    minimax,
    star1,
)
from plies.search.result import SearchResult
from plies.testing import DiceRace, RaceState, check_tree_bounds, random_positions

# A dice race with exact probabilities ----------------------------------------------------

DIE = ((0, 0.25), (1, 0.5), (2, 0.25))
"""A die whose probabilities are binary fractions: every expected value is exact."""


def race(goal: int = 7, die: Sequence[tuple[int, float]] = DIE, bounded: bool = True) -> DiceRace:
    """The dice race of :mod:`plies.testing` with ``DIE``, with value bounds unless told not."""
    return DiceRace(goal, die, (-1.0, 1.0) if bounded else None)


def brute_force(game: DiceRace, state: RaceState, depth: int | None) -> float:
    """EXPECTIMINIMAX for X by memoised recursion; ``depth`` counts the players' moves only."""

    @cache
    def value(s: RaceState, moves: int) -> float:
        if game.is_terminal(s):
            return game.utility(s, "X")
        if depth is not None and moves >= depth:
            return game.evaluate(s, "X")
        if s[2] == CHANCE:
            return sum(p * value(game.result(s, r), moves) for r, p in game.die)
        values = [value(game.result(s, a), moves + 1) for a in game.actions(s)]
        return max(values) if s[2] == "X" else min(values)

    return value(state, 0)


def test_both_are_textbook_algorithms() -> None:
    assert ALGORITHMS["expectiminimax"] is expectiminimax and ALGORITHMS["star1"] is star1


@pytest.mark.parametrize("depth", [None, 1, 2, 3])
def test_dice_race_against_brute_force(depth: int | None) -> None:
    game = race()
    for state in random_positions(game, 12, seed=depth or 0, plies=range(8)):
        truth = brute_force(game, state, depth)
        plain = expectiminimax(game, state, depth=depth, max_player="X")
        pruned = expectiminimax(game, state, depth=depth, max_player="X", prune=True)
        # The die's probabilities are binary fractions: every sum is exact.
        assert plain.value == truth and pruned.value == truth
        assert pruned.stats.nodes <= plain.stats.nodes


def test_star1_saves_nodes_on_the_dice_race() -> None:
    game = race()
    start = game.initial_state()
    plain, pruned = expectiminimax(game, start), star1(game, start)
    assert plain.value == pruned.value == brute_force(game, start, None)
    assert pruned.stats.cutoffs > 0
    assert pruned.stats.nodes < plain.stats.nodes
    # The best first move is one whose value is the root's, and Star1 finds it too.
    assert plain.action is not None and pruned.action == plain.action
    assert brute_force(game, game.result(start, plain.action), None) == plain.value


def test_depth_counts_the_players_moves_not_the_chance_layers() -> None:
    game = race(goal=20)
    start = game.initial_state()
    for depth in (1, 2, 3):
        result = expectiminimax(game, start, depth=depth, trace=True)
        assert result.trace is not None
        for event in result.trace:
            if isinstance(event, Leaf) and not event.terminal:
                state, moves = start, 0
                for action in event.path:
                    moves += game.to_move(state) != CHANCE
                    state = game.result(state, action)
                assert moves == depth
                assert game.to_move(state) == CHANCE  # the position before nature's move
        # Moves and rolls alternate: the d-th move ends a path of 2d - 1 edges.
        assert result.stats.max_depth == 2 * depth - 1


def test_chance_root_values_for_the_first_player() -> None:
    game = race()
    state = game.result(game.initial_state(), 2)
    assert game.to_move(state) == CHANCE
    for prune in (False, True):
        result = expectiminimax(game, state, prune=prune)
        assert (result.max_player, result.action, result.pv) == ("X", None, ())
        assert result.value == brute_force(game, state, None)
    as_o = expectiminimax(game, state, max_player="O")
    assert as_o.value == -brute_force(game, state, None)


def test_a_game_without_chance_is_searched_as_minimax_and_alphabeta() -> None:
    game = TicTacToe()
    state = game.initial_state()
    for cell in (4, 0):
        state = game.result(state, cell)
    full, plain = minimax(game, state), expectiminimax(game, state)
    assert (plain.value, plain.pv, plain.stats.nodes) == (full.value, full.pv, full.stats.nodes)
    cut, pruned = alphabeta(game, state, trace=True), star1(game, state, bounds=(-1, 1), trace=True)
    assert (pruned.value, pruned.pv, pruned.trace) == (cut.value, cut.pv, cut.trace)
    assert (pruned.stats.nodes, pruned.stats.cutoffs) == (cut.stats.nodes, cut.stats.cutoffs)


# Refusals ------------------------------------------------------------------------------------


class ThreeRace(DiceRace):
    """The race with a third player, for the refusal."""

    players = ("X", "O", "Z")


def test_refusals_name_the_problem() -> None:
    start = race().initial_state()
    with pytest.raises(MissingCapabilityError, match="no value bounds"):
        expectiminimax(race(bounded=False), start, prune=True)
    assert expectiminimax(race(bounded=False), start).value == brute_force(race(), start, None)
    with pytest.raises(GameDefinitionError, match=r"outside the value bounds \[-0.5, 0.5\]"):
        star1(race(), start, bounds=(-0.5, 0.5))
    with pytest.raises(GameDefinitionError, match="not finite with lower <= upper"):
        star1(race(), start, bounds=(1, -1))
    with pytest.raises(UnsupportedGameError, match="two-player zero-sum"):
        expectiminimax(ThreeRace(), start)
    with pytest.raises(UnknownNameError, match="'Y' is not a player"):
        expectiminimax(race(), start, max_player="Y")
    bad_die = race(die=((0, 0.5), (1, 0.25)))
    with pytest.raises(GameDefinitionError, match=r"sum to 0\.75, not 1"):
        expectiminimax(bad_die, start)


def test_depth_limit_needs_evaluation() -> None:
    game = tree_game(parse_tree("{0.5: [1, 2], 0.5: 3}"))
    with pytest.raises(MissingCapabilityError, match="evaluation function"):
        expectiminimax(game, (), depth=1)


# The textbook's trees ------------------------------------------------------------------------

ORDER_PRESERVING = "[{0.9: [{a}, {a}], 0.1: [{b}, {b}]}, {0.9: [{c}, {c}], 0.1: [{d}, {d}]}]"


def _order_tree(a: int, b: int, c: int, d: int) -> Node:
    text = ORDER_PRESERVING.replace("{a}", str(a)).replace("{b}", str(b))
    return parse_tree(text.replace("{c}", str(c)).replace("{d}", str(d)))


def test_order_preserving_transformation_changes_the_best_move() -> None:
    """AIMA 4th ed., section 5.5: leaves 2, 3, 1, 4 give the moves 2.1 and 1.3, so a1; the
    order-preserving 20, 30, 1, 400 give 21 and 40.9, so a2."""
    for leaves, values, best in [((2, 3, 1, 4), (2.1, 1.3), 0), ((20, 30, 1, 400), (21, 40.9), 1)]:
        report = analyse_tree(_order_tree(*leaves))
        assert report.algorithm == "expectiminimax"
        assert [report.node((i,)).value for i in (0, 1)] == pytest.approx(values)
        assert report.best_path == (best,)
        assert analyse_tree(_order_tree(*leaves), "star1").value == report.value


def test_expected_values_are_exact_weighted_sums() -> None:
    tree = parse_tree("[{1/2: [3, 12], 1/4: [2, 4], 1/4: 7}, {3/8: 5, 5/8: [9, {1/2: 1, 1/2: 6}]}]")
    report = analyse_tree(tree)
    for node in report.nodes:
        if node.player == CHANCE:
            children = report.children(node.path)
            weighted = sum(Fraction(c.probability or 0) * Fraction(c.value or 0) for c in children)
            assert node.value == node.minimax == weighted
    # B = 1/2*3 + 1/4*2 + 1/4*7 = 3.75; C = 3/8*5 + 5/8*min(9, 3.5) = 4.0625.
    assert [report.node((i,)).value for i in (0, 1)] == [3.75, 4.0625]
    assert (report.value, report.pv) == (4.0625, (1,))


# Random chance trees -------------------------------------------------------------------------

SIXTEENTHS = 16


def _chance_text(children: list[str], cuts: list[int]) -> str:
    points = [0, *sorted(cuts), SIXTEENTHS]
    shares = [f"{b - a}/{SIXTEENTHS}" for a, b in itertools.pairwise(points)]
    return "{" + ", ".join(f"{p}: {c}" for p, c in zip(shares, children, strict=True)) + "}"


def _node_text(chance: bool, pairs: list[tuple[str, int]]) -> str:
    """A decision node, or a chance node whose probabilities the children's cuts decide."""
    texts = [text for text, _ in pairs]
    if not chance:
        return "[" + ", ".join(texts) + "]"
    return _chance_text(texts, [cut for _, cut in pairs[1:]])


def _node_texts(children: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    pairs = st.lists(st.tuples(children, st.integers(0, SIXTEENTHS)), min_size=1, max_size=4)
    return st.builds(_node_text, st.booleans(), pairs)


chance_trees = st.recursive(
    st.integers(min_value=-9, max_value=9).map(str), _node_texts, max_leaves=30
)
"""Trees whose chance nodes have probabilities in sixteenths (zero included): exact sums."""


@settings(max_examples=2000, deadline=None)
@given(chance_trees, st.sampled_from(["MAX", "MIN"]))
def test_star1_equals_expectiminimax_on_random_trees(text: str, root: str) -> None:
    tree = parse_tree(text)
    game = tree_game(tree, root)
    values = exact_values(tree, root)
    truth = values[()]
    plain = expectiminimax(game, (), max_player="MAX", trace=True)
    bounds = leaf_bounds(tree)
    pruned = star1(game, (), max_player="MAX", bounds=bounds, trace=True)
    assert plain.value == truth and pruned.value == truth
    assert pruned.stats.nodes <= plain.stats.nodes
    assert _entered(pruned) <= _entered(plain)
    assert (pruned.stats.cutoffs == 0) == (pruned.stats.nodes == plain.stats.nodes)
    # The principal variation leads to a node (a chance node or a leaf) of the root's value.
    for result in (plain, pruned):
        end = tuple(result.pv)
        assert values[end] == truth
        assert game.is_terminal(end) or game.to_move(end) == CHANCE


def _entered(result: SearchResult[int]) -> set[tuple[int, ...]]:
    return {e.path for e in result.trace or () if isinstance(e, Enter)}


@settings(max_examples=200, deadline=None)
@given(chance_trees, st.integers(0, 3))
def test_star1_with_looser_bounds_still_agrees(text: str, slack: int) -> None:
    tree = parse_tree(text)
    exact = analyse_tree(tree, "expectiminimax")
    loose = analyse_tree(tree, "star1", bounds=(-9 - slack, 9 + slack))
    tight = analyse_tree(tree, "star1")
    assert loose.value == tight.value == exact.value
    assert tight.stats.nodes <= loose.stats.nodes <= exact.stats.nodes


@settings(max_examples=200, deadline=None)
@given(chance_trees)
def test_star1_bounds_hold(text: str) -> None:
    """Every searched value is the true value, or a bound on the side it claims."""
    report = analyse_tree(parse_tree(text), "star1")
    check_tree_bounds(report)


@settings(max_examples=200, deadline=None)
@given(chance_trees)
def test_star1_trace_is_consistent(text: str) -> None:
    """Each cutoff's children are never entered, and each chance node backs up one value."""
    tree = parse_tree(text)
    report = analyse_tree(tree, "star1")
    entered = {e.path for e in report.trace if isinstance(e, Enter)}
    for event in report.trace:
        if isinstance(event, Cutoff):
            assert event.skipped and not {(*event.path, a) for a in event.skipped} & entered
            if event.player == CHANCE:
                assert event.value <= event.alpha or event.value >= event.beta
    chance_entered = {p for p in entered if report.node(p).player == CHANCE}
    backed = [e.path for e in report.trace if isinstance(e, Expectation)]
    assert sorted(backed) == sorted(chance_entered)
    assert not any(isinstance(e, Backup) and e.path in chance_entered for e in report.trace)


@settings(max_examples=200, deadline=None)
@given(
    st.recursive(
        st.integers(min_value=-9, max_value=9),
        lambda children: st.lists(children, min_size=1, max_size=4),
        max_leaves=30,
    )
)
def test_without_chance_star1_is_alphabeta(data: object) -> None:
    tree = parse_tree(str(data))
    cut, pruned = analyse_tree(tree, "alphabeta"), analyse_tree(tree, "star1", bounds=(-9, 9))
    assert pruned.trace == cut.trace and pruned.stats.nodes == cut.stats.nodes


def _thirds_text(children: list[str]) -> str:
    shares = {
        1: ["1"],
        2: ["1/3", "2/3"],
        3: ["1/3", "1/3", "1/3"],
        4: ["1/6", "1/3", "1/6", "1/3"],
    }
    pairs = zip(shares[len(children)], children, strict=True)
    return "{" + ", ".join(f"{p}: {c}" for p, c in pairs) + "}"


@settings(max_examples=200, deadline=None)
@given(
    st.recursive(
        st.integers(min_value=-9, max_value=9).map(str),
        lambda children: (
            st.lists(children, min_size=1, max_size=4).map(lambda t: "[" + ", ".join(t) + "]")
            | st.lists(children, min_size=1, max_size=4).map(_thirds_text)
        ),
        max_leaves=30,
    )
)
def test_star1_agrees_to_rounding_with_thirds_and_sixths(text: str) -> None:
    tree = parse_tree(text)
    exact = analyse_tree(tree, "expectiminimax")
    assert exact.value == exact_values(tree)[()]
    assert analyse_tree(tree, "star1").value == pytest.approx(exact.value, abs=1e-12)


def test_star1_saves_nodes_on_seeded_random_trees() -> None:
    """Count the nodes Star1 saves over 500 random trees of alternating MAX, chance, MIN."""
    rng = random.Random(2024)

    def layer(depth: int, kind: int) -> str:
        if depth == 0:
            return str(rng.randint(-9, 9))
        children = [layer(depth - 1, (kind + 1) % 4) for _ in range(rng.randint(2, 3))]
        if kind % 2 == 0:
            return "[" + ", ".join(children) + "]"
        return _chance_text(children, [rng.randint(0, SIXTEENTHS) for _ in children[1:]])

    plain_nodes = pruned_nodes = 0
    for _ in range(500):
        tree = parse_tree(layer(4, 0))
        plain, pruned = analyse_tree(tree, "expectiminimax"), analyse_tree(tree, "star1")
        assert pruned.value == plain.value
        assert pruned.stats.nodes <= plain.stats.nodes
        plain_nodes += plain.stats.nodes
        pruned_nodes += pruned.stats.nodes
    assert pruned_nodes < plain_nodes  # about 15% fewer: see benchmarks/star1.py
