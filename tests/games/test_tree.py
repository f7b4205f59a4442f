"""Reading explicit trees in every form, and refusing malformed ones with one-line errors."""

from __future__ import annotations

import re

import pytest

from plies.errors import TreeError
from plies.games.tree import TreeGame, parse_tree

LECTURE_VALUES = [3, 12, 8, 2, 4, 6, 14, 5, 2]


def _leaf_values(text: str) -> list[float | None]:
    return [node.value for _, node in parse_tree(text).leaves()]


@pytest.mark.parametrize(
    "text",
    [
        "[[3,12,8],[2,4,6],[14,5,2]]",
        "[[3 12 8] [2 4 6] [14 5 2]]",
        "((3 12 8) (2 4 6) (14 5 2))",
        "((3, 12, 8), (2, 4, 6), (14, 5, 2))",
        "\n( (3 12 8)\n  (2 4 6)\n  (14 5 2) )\n",
        '{"children": [[3,12,8],[2,4,6],{"label": "D", "children": [14,5,2]}]}',
    ],
)
def test_forms_agree(text: str) -> None:
    assert _leaf_values(text) == LECTURE_VALUES


def test_textbook_labels() -> None:
    tree = parse_tree("[[3,12,8],[2,4,6],[14,5,2]]")
    labels = [node.label for _, node in tree.walk()]
    assert labels == ["A", "B", "b1", "b2", "b3", "C", "c1", "c2", "c3", "D", "d1", "d2", "d3"]


def test_breadth_first_letters_on_deeper_trees() -> None:
    tree = parse_tree("[[[1,2],[3]],[[4]]]")
    internal = {tuple(p): n.label for p, n in tree.walk() if not n.is_leaf}
    assert internal == {(): "A", (0,): "B", (1,): "C", (0, 0): "D", (0, 1): "E", (1, 0): "F"}


def test_given_labels() -> None:
    tree = parse_tree("(root (L x=1 y=2.5) (R z=-3))")
    assert [n.label for _, n in tree.walk()] == ["root", "L", "x", "y", "R", "z"]
    assert _leaf_values("(root (L x=1 y=2.5) (R z=-3))") == [1, 2.5, -3]
    json_tree = parse_tree('{"label": "A", "children": [{"label": "q", "value": 7}, 8]}')
    assert [n.label for _, n in json_tree.walk()] == ["A", "q", "a2"]


def test_uneven_and_single_leaf() -> None:
    assert _leaf_values("[1, [2, [3, 4]], 5.5]") == [1, 2, 3, 4, 5.5]
    assert parse_tree("7").is_leaf


def test_tree_game_matches_tree() -> None:
    game = TreeGame(parse_tree("[[3,12,8],[2,4,6],[14,5,2]]"), root="MIN")
    assert game.to_move(()) == "MIN" and game.to_move((0,)) == "MAX"
    assert list(game.actions((2,))) == [0, 1, 2]
    assert game.is_terminal((2, 0)) and game.utility((2, 0), "MIN") == -14


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "empty input"),
        ("   ", "empty input"),
        ("((3 12 8) (2 4 6)", "never closed"),
        ("[[3,12,8]]]", "unexpected ']'"),
        ("(3 12]", "closes '('"),
        (")", "unexpected ')'"),
        ("[[3,x,8]]", "leaf 'x' at character 5 is not a number"),
        ("[[3,nan]]", "not a finite number"),
        ("[[], [1]]", "has no children"),
        ("[1] [2]", "after the tree"),
        ("(A (A 1 2))", "used twice"),
        ('{"children": [1, true]}', "not a number"),
        ('{"children": [1, 2}', "invalid JSON"),
        ('{"label": "A"}', "exactly one of"),
        ('{"kids": [1]}', "unknown key"),
        ('{"children": []}', "has no children"),
    ],
)
def test_malformed_trees(text: str, message: str) -> None:
    with pytest.raises(TreeError, match=re.escape(message)) as error:
        parse_tree(text)
    assert "\n" not in str(error.value)
