"""The report on a searched tree: what the search proved of each node, who moves, and the
order children are searched in, checked against the lectures' figures worked by hand."""

from __future__ import annotations

from hypothesis import example, given, settings
from hypothesis import strategies as st

from plies.games.tree import parse_tree
from plies.lectures.tree_report import (
    TreeReport,
    analyse_tree,
    exact_values,
    report_json,
    searched_text,
    trace_lines,
)
from tests.lectures.strategies import chance_trees, trees

LECTURE = "[[3,12,8],[2,4,6],[14,5,2]]"
# CS188's trees with two ghosts: Pacman (MAX), ghost 1 (MIN), ghost 2 (MIN), then the leaves.
GHOSTS = "[[[3, 9], [8, 2]], [[4, 7], [1, 5]]]"
CS188 = ("MAX", "MIN", "MIN")


def _searched(report: TreeReport) -> dict[str, str]:
    return {node.label: searched_text(node) for node in report.nodes}


def test_lecture_tree_as_aima_figure_5_5() -> None:
    report = analyse_tree(parse_tree(LECTURE))
    searched = _searched(report)
    # A = 3, B = 3, C <= 2 (cut after c1 = 2), D = 2: all of D's leaves were searched.
    assert [searched[label] for label in "ABCD"] == ["3", "3", "<=2", "2"]
    assert [report.node(p).bound for p in [(), (0,), (1,), (2,)]] == [
        "exact",
        "exact",
        "upper",
        "exact",
    ]
    leaves = {n.label: n.bound for n in report.nodes if n.leaf_index is not None}
    assert leaves.pop("c2") is leaves.pop("c3") is None
    assert set(leaves.values()) == {"exact"}
    assert searched["c2"] == searched["c3"] == "pruned"
    nodes = {n["label"]: n for n in report_json(report)["nodes"]}
    assert (nodes["C"]["bound"], nodes["D"]["bound"]) == ("upper", "exact")


def test_cs188_max_min_min_tree() -> None:
    report = analyse_tree(parse_tree(GHOSTS), layers=CS188)
    # By hand: D = min(3, 9) = 3, E = min(8, 2) = 2, B = min(D, E) = 2; F = min(4, 7) = 4,
    # G = min(1, 5) = 1, C = min(F, G) = 1; A = max(B, C) = 2.
    assert report.value == 2 and report.root == "MAX" and report.layers == CS188
    players = [report.node(path).player for path in [(), (0,), (0, 0), (1, 1)]]
    assert players == ["MAX", "MIN", "MIN", "MIN"]
    assert exact_values(parse_tree(GHOSTS), layers=CS188)[()] == 2
    assert analyse_tree(parse_tree(GHOSTS)).value == 8  # MAX, MIN, MAX would make it 8
    # Alpha-beta: B = 2 makes alpha 2 at A; C gets F = 4 (beta 4), then G in (2, 4) sees
    # g1 = 1 <= alpha and prunes g2, so C <= 1 and G <= 1 are only bounds.
    assert report.pruned_leaf_labels == ["g2"] and report.pruned_leaves == (7,)
    searched = _searched(report)
    assert [searched[label] for label in "ABCDEFG"] == ["2", "2", "<=1", "3", "2", "4", "<=1"]
    data = report_json(report)
    assert data["layers"] == ["MAX", "MIN", "MIN"] and data["order"] == "ltr"


def test_lecture_tree_right_to_left() -> None:
    report = analyse_tree(parse_tree(LECTURE), order="rtl")
    # By hand, right to left: D sees d3 = 2, d2 = 5, d1 = 14 (no cut at -inf), D = 2, alpha 2.
    # C sees c3 = 6, c2 = 4, c1 = 2: only its last leaf reaches alpha, so nothing is pruned
    # and C = 2 exactly. B sees b3 = 8, b2 = 12, b1 = 3: B = 3 and A = 3, via B.
    assert (report.value, report.best_path, report.pruned_leaves) == (3, (0,), ())
    assert " ".join(n.label for n in report.visit_order) == "A D d3 d2 d1 C c3 c2 c1 B b3 b2 b1"
    assert [searched_text(report.node(p)) for p in [(), (0,), (1,), (2,)]] == ["3", "3", "2", "2"]
    assert trace_lines(report)[2] == "    leaf d3 = 2"
    assert report_json(report)["order"] == "rtl"


def test_right_to_left_on_the_mirrored_tree_is_the_lecture_search() -> None:
    mirrored = "[[2,5,14],[6,4,2],[8,12,3]]"  # every list reversed
    report = analyse_tree(parse_tree(mirrored), order="rtl")
    # By hand: D sees 3, 12, 8 (D = 3, alpha 3); C sees c3 = 2 <= alpha and prunes c2 and c1
    # (listed left to right as written: leaves 3 and 4); B sees 14, 5, 2: B = 2 exactly.
    assert (report.value, report.best_path, report.pruned_leaves) == (3, (2,), (3, 4))
    assert report.pruned_leaf_labels == ["c1", "c2"]
    assert [b.skipped for b in report.pruned_branches] == [((1, 1), (1, 0))]  # search order
    stats = report.stats
    assert (stats.nodes, stats.leaves, stats.cutoffs) == (11, 7, 1)  # as the lecture's search
    assert _searched(report)["C"] == "<=2" and _searched(report)["B"] == "2"


# Every tree, every order, every layering --------------------------------------------------

LAYERS = [("MAX", "MIN"), ("MIN", "MAX"), CS188, ("MAX",), ("MIN", "MIN", "MAX", "MAX")]


def _check_bounds(report: TreeReport) -> None:
    """Each searched value is the true one or a bound on its side, and exact whenever the
    search saw all of the node's subtree; pruned nodes have no value."""
    pruned = [node.path for node in report.nodes if node.pruned]
    for node in report.nodes:
        if node.value is None:
            assert node.pruned and node.bound is None
            continue
        if not any(path[: len(node.path)] == node.path for path in pruned):
            assert node.bound == "exact", node
        if node.bound == "exact":
            assert node.value == node.minimax
        elif node.bound == "upper":
            assert node.minimax <= node.value
        else:
            assert node.bound == "lower" and node.minimax >= node.value
    assert report.nodes[0].bound == "exact" and report.value == report.nodes[0].minimax


@settings(max_examples=300, deadline=None)
@given(trees, st.sampled_from(["ltr", "rtl"]), st.sampled_from(LAYERS), st.booleans())
def test_what_alphabeta_proves(
    data: object, order: str, layers: tuple[str, ...], strict: bool
) -> None:
    _check_bounds(analyse_tree(parse_tree(str(data)), strict=strict, layers=layers, order=order))


@settings(max_examples=300, deadline=None)
@given(chance_trees, st.sampled_from(["ltr", "rtl"]), st.sampled_from(LAYERS))
# Empty windows: below A = MIN(0, ...) with leaves in [0, 1], the chance node gives its child
# the window (0, 0). C (MAX) cuts after c1 = 0 >= beta: a lower bound, not an upper one...
@example(text="[0, {1: [0, 1]}]", order="ltr", layers=("MIN", "MAX"))
# ...and C (MIN) cuts after D = 0 <= alpha, where D (MAX) proved only D >= 0: C >= 0 too.
@example(text="[0, {1: [[0, 1], 1]}]", order="ltr", layers=("MIN", "MIN", "MAX", "MAX"))
def test_what_star1_proves(text: str, order: str, layers: tuple[str, ...]) -> None:
    # Binary-fraction probabilities and integer leaves: the sums are exact in floats.
    _check_bounds(analyse_tree(parse_tree(text), "star1", layers=layers, order=order))


def test_an_empty_window_is_read_by_what_was_proved() -> None:
    report = analyse_tree(
        parse_tree("[0, {1: [[0, 1], 1]}]"), "star1", layers=("MIN", "MIN", "MAX", "MAX")
    )
    window = [(report.node(p).alpha_in, report.node(p).beta_in) for p in [(1, 0), (1, 0, 0)]]
    assert window == [(0, 0), (0, 0)]
    # C (MIN) and D (MAX) both stop at 0 with alpha = beta = 0; both are worth 1.
    assert [searched_text(report.node(p)) for p in [(1, 0), (1, 0, 0)]] == [">=0", ">=0"]
