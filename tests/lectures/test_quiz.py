"""Checking a student's answer: what is right, the explanation of each mistake, the first
mistake in the search's order, and (on any tree) the solution always right while any single
change to it is caught."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from plies.errors import SpecError
from plies.games.tree import parse_tree
from plies.lectures.quiz import Answer, Checked, check_answer, solution
from plies.lectures.tree_report import TreeReport, analyse_tree
from tests.lectures.strategies import chance_trees

LECTURE = "[[3,12,8],[2,4,6],[14,5,2]]"
RIGHT = {(): "3", (0,): "3", (1,): "2", (2,): "2"}
CUT = frozenset({(1, 1), (1, 2)})


def _lecture() -> TreeReport:
    return analyse_tree(parse_tree(LECTURE))


def _wrong(checked: Checked) -> list[str]:
    return [mark.label for mark in checked.nodes + checked.edges if not mark.right]


def test_the_lecture_solution() -> None:
    report = _lecture()
    answer = solution(report)
    assert answer.values == {(): "3", (0,): "3", (1,): "<=2", (2,): "2"}
    assert answer.pruned == CUT
    checked = check_answer(report, answer)
    assert checked.correct and checked.first_mistake is None
    assert [mark.label for mark in checked.nodes] == ["A", "B", "C", "D"]
    assert [mark.label for mark in checked.edges][:4] == ["A–B", "B–b1", "B–b2", "B–b3"]
    assert all(mark.right and not mark.why for mark in checked.nodes + checked.edges)


@pytest.mark.parametrize("written", ["2", "<=2", "≤2", "<= 2", "= 2", " 2.004 ", "4/2", 2, 2.0])
def test_a_bound_may_be_written_as_its_value_or_as_the_bound(written: str | float) -> None:
    assert check_answer(_lecture(), Answer({**RIGHT, (1,): written}, CUT)).correct


@pytest.mark.parametrize("written", [">=2", "2.01", "3", "", "-", "pruned"])
def test_a_wrong_bound_or_value_is_flagged(written: str) -> None:
    checked = check_answer(_lecture(), Answer({**RIGHT, (1,): written}, CUT))
    assert _wrong(checked) == ["C"]
    assert checked.first_mistake == "C <= 2: the minimum of 2, before c2, c3 are pruned"


def test_an_exact_value_may_be_written_as_either_bound() -> None:
    assert check_answer(_lecture(), Answer({**RIGHT, (2,): "<=2", (0,): ">=3"}, CUT)).correct


def test_a_wrong_value_is_explained() -> None:
    checked = check_answer(_lecture(), Answer({**RIGHT, (0,): "8", (2,): "5"}, CUT))
    assert _wrong(checked) == ["B", "D"]
    assert checked.first_mistake == "B = 3: the minimum of 3, 12, 8"  # B comes back first
    assert checked.nodes[3].why == "D = 2: the minimum of 14, 5, 2"


def test_a_missed_prune_is_explained_where_the_search_cuts() -> None:
    checked = check_answer(_lecture(), Answer({**RIGHT, (2,): "5"}, frozenset({(1, 1)})))
    assert _wrong(checked) == ["D", "C–c3"]
    assert checked.first_mistake == "C is cut after c1: v=2 <= alpha=3, so c2, c3 are pruned"


def test_a_wrong_prune_is_explained_where_the_search_goes_on() -> None:
    checked = check_answer(_lecture(), Answer(RIGHT, CUT | {(2, 1), (0, 0)}))
    assert _wrong(checked) == ["B–b1", "D–d2"]
    assert checked.first_mistake == "B–b1 is not pruned: b1 is the first child B searches"
    assert checked.edges[-2].why == "D–d2 is not pruned: after d1, D has v=14, not <= alpha=3"


def test_strict_pruning_goes_on_at_equality() -> None:
    report = analyse_tree(parse_tree("[[3,12,8],[3,4,6],[14,5,2]]"), strict=True)
    checked = check_answer(report, Answer(solution(report).values, frozenset({(1, 1)})))
    assert checked.first_mistake == "C–c2 is not pruned: after c1, C has v=3, not < alpha=3"


def test_minimax_prunes_nothing() -> None:
    report = analyse_tree(parse_tree(LECTURE), "minimax")
    assert solution(report).values[(1,)] == "2" and not solution(report).pruned
    checked = check_answer(report, Answer(RIGHT, frozenset({(1, 1)})))
    assert checked.first_mistake == "C–c2 is not pruned: minimax searches every node"


def test_pruned_subtrees_have_no_values_and_only_their_top_edge_is_marked() -> None:
    report = analyse_tree(parse_tree("[[3,12,8],[2,[4,[6, 1]],6],[14,5,2]]"))
    right = solution(report)
    assert right.pruned == {(1, 1), (1, 2)} and (1, 1) not in right.values
    checked = check_answer(report, Answer({**right.values, (1, 1, 1): "1"}, right.pruned))
    assert checked.first_mistake == "F is never searched (C prunes E above it), so it has no value"
    checked = check_answer(report, Answer(right.values, right.pruned | {(1, 1, 0)}))
    assert checked.first_mistake == (
        "E–e1 lies below E, which is pruned already: mark only the edge where the search stops, C–E"
    )


def test_chance_nodes() -> None:
    report = analyse_tree(parse_tree("[{1/2: [3, 12], 1/2: [2, 4]}, {1/4: 5, 3/4: 1}]"))
    assert solution(report).values == {(): "2.5", (0,): "2.5", (0, 0): "3", (0, 1): "2", (1,): "2"}
    checked = check_answer(report, Answer({**solution(report).values, (0,): "3"}))
    assert checked.first_mistake == "B = 0.5*3 + 0.5*2 = 2.5"


def test_star1_cuts_at_chance_nodes() -> None:
    report = analyse_tree(parse_tree("[5, {1/2: 1, 1/2: 2}]"), "star1")
    assert solution(report) == Answer({(): "5", (1,): "<=3"}, frozenset({(1, 1)}))
    checked = check_answer(report, Answer({(): "5", (1,): "1"}, frozenset({(1, 1)})))
    assert checked.first_mistake == (
        "B <= 3: 0.5*1 + 0.5*5, with b2 pruned and counted at the largest leaf value 5"
    )
    checked = check_answer(report, Answer(solution(report).values))
    assert checked.first_mistake == (
        "B is cut after b1: expected value <= 3 <= alpha=5, so b2 is pruned"
    )


@pytest.mark.parametrize(
    ("answer", "message"),
    [
        (Answer({(7,): "1"}), "there is no node at path 7"),
        (Answer({(0, 1): "12"}), "b2 is a leaf: its value is given"),
        (Answer({}, frozenset({()})), "there is no edge to a node at path root"),
        (Answer({}, frozenset({(0, 3)})), "there is no edge to a node at path 0.3"),
        (Answer({(0,): "three"}), "B: 'three' is not a number (write 3, 2.5, 7/3, <=2 or >=5)"),
        (Answer({(0,): "nan"}), "B: 'nan' is not a number"),
        (Answer({(0,): "<=inf"}), "B: '<=inf' is not a number"),
        (Answer({(0,): "1/0"}), "B: '1/0' is not a number"),
        (Answer({(0,): float("inf")}), "B: 'inf' is not a number"),
        (Answer({(0,): "1e999"}), "B: '1e999' is not a number"),
        (Answer({(0,): "<=1" + "0" * 400 + "/3"}), "B: '<=1000"),
    ],
)
def test_bad_answers_are_refused_in_a_line(answer: Answer, message: str) -> None:
    with pytest.raises(SpecError, match="^" + message.replace("(", r"\(").replace(")", r"\)")):
        check_answer(_lecture(), answer)


# Any tree, any algorithm ------------------------------------------------------------------

texts = chance_trees.filter(lambda text: text.startswith("["))
PLAIN = [("alphabeta", False), ("alphabeta", True), ("minimax", False), ("star1", False)]
CHANCE = [("expectiminimax", False), ("star1", False)]
exercises = texts.flatmap(
    lambda text: st.tuples(
        st.just(text),
        st.sampled_from(CHANCE if "{" in text else PLAIN),
        st.sampled_from(["ltr", "rtl"]),
    )
)


def _report(exercise: tuple[str, tuple[str, bool], str]) -> TreeReport:
    text, (algorithm, strict), order = exercise
    return analyse_tree(parse_tree(text), algorithm, strict=strict, order=order)


@settings(max_examples=150, deadline=None)
@given(exercises)
def test_the_solution_is_always_right(exercise: tuple[str, tuple[str, bool], str]) -> None:
    report = _report(exercise)
    assert check_answer(report, solution(report)).correct


@settings(max_examples=300, deadline=None)
@given(exercises, st.data())
def test_any_single_change_is_caught(
    exercise: tuple[str, tuple[str, bool], str], draw: st.DataObject
) -> None:
    report = _report(exercise)
    right = solution(report)
    values, pruned = dict(right.values), set(right.pruned)
    inner = [node for node in report.nodes if node.player != "leaf"]
    edges = [node.path for node in report.nodes if node.path]
    if draw.draw(st.booleans(), "change a value") or not edges:
        node = draw.draw(st.sampled_from(inner), "node")
        if node.value is None:
            values[node.path] = "0"
        elif draw.draw(st.booleans(), "leave it out"):
            del values[node.path]
        else:
            values[node.path] = str(node.value + draw.draw(st.sampled_from([-1, 1, 0.5])))
        changed = node.path
    else:
        changed = draw.draw(st.sampled_from(edges), "edge")
        pruned ^= {changed}
    checked = check_answer(report, Answer(values, frozenset(pruned)))
    wrong = [mark for mark in checked.nodes + checked.edges if not mark.right]
    assert [mark.path for mark in wrong] == [changed]
    assert checked.first_mistake == wrong[0].why and wrong[0].why
