"""The trace replayed step by step, as the trees page shows it: one text per event, and the
board (each node's value so far and window) checked against the search's own events."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from plies.game import CHANCE
from plies.games.tree import parse_tree
from plies.lectures.tree_report import (
    Shown,
    TreeReport,
    analyse_tree,
    event_text,
    steps,
    trace_lines,
)
from plies.search import Backup, Cutoff, Enter, Leaf
from plies.search.result import Bound
from tests.lectures.strategies import chance_trees, trees

INF = float("inf")
LECTURE = "[[3,12,8],[2,4,6],[14,5,2]]"
LAYERS = [("MAX", "MIN"), ("MIN", "MAX"), ("MAX", "MIN", "MIN"), ("MAX",)]


def _board(report: TreeReport, upto: int | None = None) -> dict[tuple[int, ...], Shown]:
    board: dict[tuple[int, ...], Shown] = {}
    for step in steps(report)[:upto]:
        board.update((shown.path, shown) for shown in step.shown)
    return board


def test_lecture_tree_step_by_step() -> None:
    report = analyse_tree(parse_tree(LECTURE))
    replay = steps(report)
    assert [step.event for step in replay] == list(report.trace)
    texts = [step.text for step in replay]
    assert texts[:4] == [
        "enter A (MAX) alpha=-inf beta=+inf",
        "enter B (MIN) alpha=-inf beta=+inf",
        "enter b1 (leaf) alpha=-inf beta=+inf",
        "leaf b1 = 3",
    ]
    cut = texts.index("cutoff at C: v=2 <= alpha=3, prune c2, c3")
    assert texts[cut - 1] == "leaf c1 = 2" and texts[cut + 1] == "C = 2 via c1 (alpha=3 beta=2)"
    # After b1 = 3 comes back, B shows v = 3 and passes on beta = 3; A is untouched.
    assert replay[3].shown[1] == Shown((0,), 3, None, -INF, 3)
    # When B is backed up, A (MAX) raises alpha to 3, the window C is entered with.
    assert replay[8].shown == (Shown((0,), 3, Bound.EXACT, -INF, 3), Shown((), 3, None, 3, INF))
    assert replay[9].event == Enter((1,), "MIN", 3, INF)
    board = _board(report)
    assert board[(1,)] == Shown((1,), 2, Bound.UPPER, 3, 2)  # C <= 2
    assert (1, 1) not in board and (1, 2) not in board  # c2, c3 never shown: pruned
    assert board[()] == Shown((), 3, Bound.EXACT, 3, INF)


def test_minimax_steps_show_the_best_so_far() -> None:
    report = analyse_tree(parse_tree(LECTURE), "minimax")
    board = _board(report, 6)  # A, B, b1 = 3, b2 = 12 entered and back
    assert board[(0,)] == Shown((0,), 3, None, None, None)
    assert event_text(report, report.trace[2]) == "enter b1 (leaf)"


def test_chance_nodes_show_their_value_once_backed_up() -> None:
    report = analyse_tree(parse_tree("[{1/2: [3, 12], 1/2: [2, 4]}, {1/4: 5, 3/4: 1}]"))
    for step in steps(report):
        for shown in step.shown:
            if report.node(shown.path).player == CHANCE:
                assert shown.value is None or step.text.startswith(report.node(shown.path).label)
    texts = [step.text for step in steps(report)]
    assert "B = 0.5*3 + 0.5*2 = 2.5 (expected value)" in texts


def _check_replay(report: TreeReport) -> None:
    """Every step agrees with the search: a decision node's board entry is its Backup's and its
    Cutoff's (v, alpha, beta), and a child of a decision node is entered with the window its
    parent shows; the texts are those of trace_lines, leaves' Enter events aside."""
    board: dict[tuple[int, ...], Shown] = {}
    for step in steps(report):
        event = step.event
        if isinstance(event, Backup | Cutoff) and report.node(event.path).player != CHANCE:
            shown = board[event.path]
            assert (shown.value, shown.alpha, shown.beta) == (
                event.value,
                event.alpha,
                event.beta,
            )
        if isinstance(event, Enter) and event.path:
            parent = report.node(event.path[:-1])
            if parent.player in ("MAX", "MIN") and event.alpha is not None:
                shown = board[parent.path]
                assert (shown.alpha, shown.beta) == (event.alpha, event.beta)
        board.update((shown.path, shown) for shown in step.shown)
    for node in report.nodes:
        if node.value is not None:
            assert board[node.path].value == node.value
            assert board[node.path].bound == node.bound
    lines = [
        "  " * (len(step.event.path) + isinstance(step.event, Cutoff)) + step.text
        for step in steps(report)
        if not (isinstance(step.event, Enter) and report.node(step.event.path).player == "leaf")
    ]
    assert lines == trace_lines(report)
    assert len([s for s in steps(report) if isinstance(s.event, Leaf)]) == report.stats.leaves


@settings(max_examples=150, deadline=None)
@given(
    trees,
    st.sampled_from(["ltr", "rtl"]),
    st.sampled_from(LAYERS),
    st.sampled_from(["minimax", "alphabeta", "strict"]),
)
def test_replay_agrees_with_the_search(
    data: object, order: str, layers: tuple[str, ...], algorithm: str
) -> None:
    strict = algorithm == "strict"
    name = "alphabeta" if strict else algorithm
    tree = parse_tree(str(data))
    _check_replay(analyse_tree(tree, name, strict=strict, layers=layers, order=order))


@settings(max_examples=150, deadline=None)
@given(chance_trees, st.sampled_from(["expectiminimax", "star1"]), st.sampled_from(LAYERS))
def test_replay_agrees_with_the_search_of_chance_trees(
    text: str, algorithm: str, layers: tuple[str, ...]
) -> None:
    _check_replay(analyse_tree(parse_tree(text), algorithm, layers=layers))
