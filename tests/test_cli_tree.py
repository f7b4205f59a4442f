"""``plies tree``: reports never cut when piped, who moves and in which order, input with a
byte-order mark or comments, and output files checked before the search."""

from __future__ import annotations

import importlib
import json
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

import plies.lectures.draw
from plies.errors import RenderError
from tests.conftest import CliRun, assert_one_line_error

Run = Callable[..., CliRun]
LECTURE = "[[3,12,8],[2,4,6],[14,5,2]]"


def test_a_piped_report_is_never_cut_or_wrapped(run_cli: Run) -> None:
    names = [f"{side}_{'very_' * 12}long_label" for side in ("left", "right")]
    text = f"(root_{'x' * 70} ({names[0]} a_{'y' * 90}=1 2) ({names[1]} 3 4))"
    result = run_cli("tree", text)
    assert result.code == 0
    lines = result.out.splitlines()
    assert max(map(len, lines)) > 150  # far wider than the 80 columns Rich gives a pipe
    nodes = json.loads(run_cli("tree", text, "--json").out)["nodes"]
    header = next(i for i, line in enumerate(lines) if line.startswith("node "))
    rows = [line.split() for line in lines[header + 1 :]]
    assert len(rows) == len(nodes) == 7  # one line per node: nothing wrapped
    for row, node in zip(rows, nodes, strict=True):
        path = ".".join(map(str, node["path"])) or "root"
        searched = "pruned" if node["pruned"] else str(node["value"])
        assert row[:5] == [node["label"], node["player"], path, str(node["minimax"]), searched]
    assert f"in order: root_{'x' * 70} {names[0]} a_{'y' * 90}" in result.out


def test_cs188_players_and_right_to_left(run_cli: Run) -> None:
    ghosts = "[[[3, 9], [8, 2]], [[4, 7], [1, 5]]]"
    data = json.loads(run_cli("tree", ghosts, "--players", "max,min,min", "--json").out)
    assert (data["value"], data["layers"], data["pruned_leaf_labels"]) == (
        2,
        ["MAX", "MIN", "MIN"],
        ["g2"],
    )
    assert [n["player"] for n in data["nodes"] if n["kind"] == "decision"] == ["MAX"] + ["MIN"] * 6
    text = run_cli("tree", ghosts, "--players", "MAX,MIN,MIN", "--order", "rtl").out
    assert "root MAX; players MAX, MIN, MIN by layer; children right to left; 15 nodes" in text
    rtl = json.loads(run_cli("tree", LECTURE, "--order", "rtl", "--json").out)
    assert (rtl["order"], rtl["pruned_leaves"]) == ("rtl", [])
    assert rtl["visit_order"][:3] == ["A", "D", "d3"]
    both = ("--root", "min", "--players", "min,max", "--json")
    same = json.loads(run_cli("tree", LECTURE, *both).out)
    assert (same["root"], same["value"]) == ("MIN", 6)
    plain = run_cli("tree", LECTURE).out.splitlines()[0]
    assert "players" not in plain and "right to left" not in plain


def test_json_node_players(run_cli: Run) -> None:
    text = '{"children": [{"player": "MAX", "children": [1, 5]}, [2, 3]]}'
    data = json.loads(run_cli("tree", text, "--json").out)
    assert [n["player"] for n in data["nodes"] if n["kind"] == "decision"] == ["MAX", "MAX", "MIN"]
    assert data["value"] == 5


def test_byte_order_mark_and_comments_in_files_and_stdin(run_cli: Run, tmp_path: Path) -> None:
    source = tmp_path / "lecture.txt"
    source.write_bytes("\ufeff# AIMA Figure 5.2\n[[3,12,8], # B\n [2,4,6],[14,5,2]]\n".encode())
    assert json.loads(run_cli("tree", str(source), "--json").out)["pruned_leaves"] == [4, 5]
    stdin = '\ufeff{\n  # JSON, a whole-line comment\n  "children": [1, 2]\n}\n'
    assert json.loads(run_cli("tree", "--json", stdin=stdin).out)["value"] == 2
    argument = "# a comment first\n(3 4)"
    assert json.loads(run_cli("tree", argument, "--json").out)["value"] == 4


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (("[nan, 1]",), "leaf 'nan' at character 2 is not a finite number"),
        (('{"children": [1, 1e999]}',), "leaf '1e999' at path [1] is not a finite number"),
        ((LECTURE, "--root", "min", "--players", "max,min,min"), "is not the first"),
        ((LECTURE, "--players", "max,ghost"), "players must be MAX or MIN, not 'GHOST'"),
        ((LECTURE, "--order", "backwards"), "'backwards' is not one of 'ltr', 'rtl'"),
    ],
)
def test_bad_input_is_one_line(run_cli: Run, args: tuple[str, ...], fragment: str) -> None:
    assert_one_line_error(run_cli("tree", *args), fragment)


def _no_search(*args: object, **kwargs: object) -> None:
    raise AssertionError("the search ran before the output file was checked")


def test_draw_target_is_checked_before_the_search(
    run_cli: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    command_module = importlib.import_module("plies.cli.tree")  # plies.cli.tree is the command
    monkeypatch.setattr(command_module, "analyse_tree", _no_search)
    missing = tmp_path / "missing" / "tree.svg"
    result = run_cli("tree", LECTURE, "--draw", str(missing))
    assert_one_line_error(result, f"cannot write {str(missing)!r}: there is no directory")
    assert result.out == ""
    assert_one_line_error(run_cli("tree", LECTURE, "--draw", "tree.gif"), ".svg or .png")


def test_without_graphviz_the_report_comes_then_what_is_missing(
    run_cli: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(shutil, "which", lambda name: None)
    result = run_cli("tree", LECTURE, "--draw", str(tmp_path / "tree.svg"))
    assert_one_line_error(result, "'dot' program is not installed")
    assert "pruned leaves: c2 c3" in result.out and not (tmp_path / "tree.svg").exists()


def test_a_drawing_that_fails_late_comes_after_the_report(
    run_cli: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def fail(*args: object) -> None:
        raise RenderError("cannot draw: dot failed: out of memory")

    monkeypatch.setattr(shutil, "which", lambda name: f"/usr/bin/{name}")
    monkeypatch.setattr(plies.lectures.draw, "draw_tree", fail)
    result = run_cli("tree", LECTURE, "--draw", str(tmp_path / "tree.svg"))
    assert_one_line_error(result, "dot failed: out of memory")
    assert "pruned leaves: c2 c3" in result.out and "drawn to" not in result.out
