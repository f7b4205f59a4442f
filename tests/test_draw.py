"""The Graphviz picture of a searched tree (the text always; the image when dot is installed)."""

from __future__ import annotations

import pytest

from plies.draw import dot_source, draw_tree
from plies.errors import RenderError
from plies.games.tree import parse_tree
from plies.trees import analyse_tree


def test_dot_source_marks_players_values_and_pruning() -> None:
    source = dot_source(analyse_tree(parse_tree("[[3,12,8],[2,4,6],[14,5,2]]")))
    assert "shape=triangle" in source and "shape=invtriangle" in source
    assert "shape=box" in source
    cut_edges = [line for line in source.splitlines() if "->" in line and "color=red" in line]
    assert [line.split("[")[0].strip() for line in cut_edges] == ["n1 -> n1_1", "n1 -> n1_2"]
    assert "≤2" in source  # C's value is only an upper bound
    assert "α=3 β=+∞" in source


def test_minimax_picture_has_no_pruning() -> None:
    source = dot_source(analyse_tree(parse_tree("[[3,12,8],[2,4,6]]"), "minimax"))
    assert "dashed" not in source


def test_unknown_format_is_refused(tmp_path: object) -> None:
    report = analyse_tree(parse_tree("[1,2]"))
    with pytest.raises(RenderError, match=r"\.svg or \.png"):
        draw_tree(report, "tree.pdf")
