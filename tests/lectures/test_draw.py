"""The Graphviz picture of a searched tree (the text always; the image when dot is installed)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from plies.errors import OutputError, RenderError
from plies.games.tree import parse_tree
from plies.lectures.draw import check_drawable, dot_source, draw_tree
from plies.lectures.tree_report import analyse_tree


def test_dot_source_marks_players_values_and_pruning() -> None:
    source = dot_source(analyse_tree(parse_tree("[[3,12,8],[2,4,6],[14,5,2]]")))
    assert "shape=triangle" in source and "shape=invtriangle" in source
    assert "shape=box" in source
    cut_edges = [line for line in source.splitlines() if "->" in line and "color=red" in line]
    assert [line.split("[")[0].strip() for line in cut_edges] == ["n1 -> n1_1", "n1 -> n1_2"]
    assert 'n1 [label="C\n≤2\n' in source  # C's value is only an upper bound
    assert 'n2 [label="D\n2\n' in source  # D's leaves were all searched: exactly 2
    assert "α=3 β=+∞" in source


def test_minimax_picture_has_no_pruning() -> None:
    source = dot_source(analyse_tree(parse_tree("[[3,12,8],[2,4,6]]"), "minimax"))
    assert "dashed" not in source


def test_unknown_format_is_refused(tmp_path: object) -> None:
    report = analyse_tree(parse_tree("[1,2]"))
    with pytest.raises(RenderError, match=r"\.svg or \.png"):
        draw_tree(report, "tree.pdf")


def test_chance_nodes_are_circles_with_probabilities_on_their_edges() -> None:
    tree = parse_tree("[{1/6: [3, 12], 5/6: [2, 4]}, {0.5: 9, 0.5: [0, 7]}]")
    source = dot_source(analyse_tree(tree, "star1"))
    assert source.count("shape=circle") == 2
    labelled = [line.split("[")[0].strip() for line in source.splitlines() if "label=" in line]
    assert {"n0 -> n0_0", "n0 -> n0_1", "n1 -> n1_0", "n1 -> n1_1"} <= set(labelled)
    assert 'n0 -> n0_0 [label="1/6"' in source and "n1 -> n1_1 [label=0.5" in source
    assert "Star1 (*-minimax), non-strict pruning, leaves in [0, 12]" in source
    # B's expected value, 1/6*3 + 5/6*2, written in its circle.
    assert 'n0 [label="B\n2.166666667\n' in source


def test_cut_chance_edges_keep_their_probability() -> None:
    report = analyse_tree(parse_tree("[{0.5: 8, 0.5: 9}, {0.5: 0, 0.5: 1}]"), "star1")
    assert [b.skipped for b in report.pruned_branches] == [((1, 1),)]
    cut = next(line for line in dot_source(report).splitlines() if "n1 -> n1_1" in line)
    assert 'label="✂ 0.5"' in cut and "color=red" in cut


def test_right_to_left_is_named_in_the_title() -> None:
    report = analyse_tree(parse_tree("[[3,12,8],[2,4,6],[14,5,2]]"), order="rtl")
    assert "alpha-beta, non-strict pruning, children right to left: value 3" in dot_source(report)


def test_targets_are_checked_before_any_search(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with pytest.raises(RenderError, match=r"must end in \.svg or \.png"):
        check_drawable(tmp_path / "tree.pdf")
    with pytest.raises(OutputError, match="there is no directory"):
        check_drawable(tmp_path / "missing" / "tree.svg")
    monkeypatch.setattr(shutil, "which", lambda name: None)
    with pytest.raises(RenderError, match="'dot' program is not installed"):
        check_drawable(tmp_path / "tree.svg")
    monkeypatch.setattr(shutil, "which", lambda name: f"/usr/bin/{name}")
    assert check_drawable(tmp_path / "tree.SVG") == tmp_path / "tree.SVG"
    assert not (tmp_path / "tree.SVG").exists()  # nothing is created
