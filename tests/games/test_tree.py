"""Reading explicit trees in every form, and refusing malformed ones with one-line errors."""

from __future__ import annotations

import re

import pytest

from plies.errors import TreeError
from plies.game import CHANCE, has_chance
from plies.games.tree import ChanceTreeGame, TreeGame, parse_tree, tree_game

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


# Chance nodes --------------------------------------------------------------------------------

CHANCE_FORMS = [
    "[{0.5: [3, 12], 0.5: [2, 4]}, {1/4: 5, 3/4: [6, 1]}]",
    "[{1/2: [3 12] 1/2: [2 4]} {0.25 : 5 0.75 :[6 1]}]",
    "(A {B 0.5: (D 3 12) 0.5: (E 2 4)} {C 1/4:c1=5 3/4: (F 6 1)})",
    '{"children": [{"chance": [{"probability": 0.5, "children": [3, 12]},'
    ' {"probability": "1/2", "children": [2, 4]}]}, {"label": "C", "chance": ['
    '{"probability": 0.25, "value": 5}, {"probability": 0.75, "children": [6, 1]}]}]}',
]


@pytest.mark.parametrize("text", CHANCE_FORMS)
def test_chance_forms_agree(text: str) -> None:
    tree = parse_tree(text)
    assert [node.value for _, node in tree.leaves()] == [3, 12, 2, 4, 5, 6, 1]
    assert [n.chance for n in tree.children] == [True, True]
    probabilities = [[c.probability for c in n.children] for n in tree.children]
    assert probabilities == [[0.5, 0.5], [0.25, 0.75]]
    labels = [node.label for _, node in tree.walk()]
    assert labels == ["A", "B", "D", "d1", "d2", "E", "e1", "e2", "C", "c1", "F", "f1", "f2"]


def test_chance_nodes_take_no_turn() -> None:
    tree = parse_tree("[{0.5: [{0.5: [1, [2, 3]], 0.5: 4}, 5], 0.5: 6}]")
    game = tree_game(tree)
    assert isinstance(game, ChanceTreeGame)
    movers = {path: game.to_move(path) for path, node in tree.walk() if not node.is_leaf}
    # MAX, chance, MIN, chance, MAX, MIN: the players alternate over the decision nodes.
    assert movers == {
        (): "MAX",
        (0,): CHANCE,
        (0, 0): "MIN",
        (0, 0, 0): CHANCE,
        (0, 0, 0, 0): "MAX",
        (0, 0, 0, 0, 1): "MIN",
    }
    assert list(game.chance_outcomes((0,))) == [(0, 0.5), (1, 0.5)]
    assert [game.format_action((0,), r) for r in game.actions((0,))] == ["C", "b2"]


def test_chance_root_and_root_min() -> None:
    game = tree_game(parse_tree("{0.5: [1, 2], 0.5: [[3], 4]}"), root="MIN")
    assert [game.to_move(p) for p in [(), (0,), (1,), (1, 0)]] == [CHANCE, "MIN", "MIN", "MAX"]


def test_deterministic_trees_stay_plain_tree_games() -> None:
    tree = parse_tree("[[3, -12], [2]]")
    game = tree_game(tree)
    assert type(game) is TreeGame and not has_chance(game)
    assert game.value_bounds == (-12, 12)  # for MAX and for MIN (who gets -value)
    with pytest.raises(TreeError, match="chance nodes"):
        TreeGame(parse_tree("{1: 3}"))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{0.5: 1, 0.6: 2}", "chance node at character 1 (path []) sum to 1.1, not 1"),
        ("[1, {0.5: 1, 0.25: 2}]", "(path [1]) sum to 0.75, not 1"),
        ("{-0.5: 1, 1.5: 2}", "probability '-0.5' at character 2 is negative"),
        ("{0.5: 1, 1.5: 2}", "probability '1.5' at character 10 is more than 1"),
        ("{x: 1, 1: 2}", "probability 'x' at character 2 is not a number or a fraction n/d"),
        ("{1/0: 1}", "probability '1/0' at character 2 is not a number"),
        ("{0.5 1, 0.5 2}", "expected a probability 'P:' at character 2 in a chance node"),
        ("{[1 2]}", "expected a probability 'P:' at character 2"),
        ("{0.5: }", "probability '0.5' at character 2 has no child after it"),
        ("{1: 1", "'{' at character 1 is never closed"),
        ("{1: 1]", "']' at character 6 closes '{' from character 1"),
        ("[{}]", "node at path [0] has no children"),
        ("{1: x}", "leaf 'x' at character 5 is not a number"),
        ('{"chance": [1, 2]}', "child at path [0] of a chance node must be an object"),
        ('{"chance": [{"value": 1}]}', "child at path [0] of a chance node has no 'probability'"),
        ('{"chance": [{"probability": 0.4, "value": 1}]}', "at path [] sum to 0.4, not 1"),
        ('{"chance": [{"probability": -1, "value": 1}]}', "'-1' at path [0] is negative"),
        ('{"chance": [{"probability": true, "value": 1}]}', "probability true at path [0]"),
        ('{"chance": []}', "node at path [] has no children"),
        ('{"children": [{"probability": 1, "value": 1}]}', "is not a chance node's child"),
        ('{"chance": [{"probability": 1, "value": 1}], "value": 3}', "exactly one of"),
        ('{"value": [1, 2]}', "leaf [1, 2] at path [] is not a number"),
    ],
)
def test_malformed_chance_trees(text: str, message: str) -> None:
    with pytest.raises(TreeError, match=re.escape(message)) as error:
        parse_tree(text)
    assert "\n" not in str(error.value)


def test_probabilities_are_summed_exactly() -> None:
    thirds = parse_tree("{1/3: 1, 1/3: 2, 1/3: 3}")
    assert [c.probability for c in thirds.children] == [1 / 3] * 3
    tenths = parse_tree("{" + ", ".join(f"0.1: {i}" for i in range(10)) + "}")
    assert len(tenths.children) == 10  # ten 0.1s sum to 1 exactly, if not in floats
    with pytest.raises(TreeError, match=r"sum to 0\.999, not 1"):
        parse_tree("{0.333: 1, 0.333: 2, 0.333: 3}")


# Values that are not finite, byte-order marks and comments ---------------------------------


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[nan, 1]", "leaf 'nan' at character 2 is not a finite number"),
        ("[inf, 1]", "leaf 'inf' at character 2 is not a finite number"),
        ("(Infinity 1 2)", "leaf 'Infinity' at character 2 is not a finite number"),
        ("(A NaN 2)", "leaf 'NaN' at character 4 is not a finite number"),
        ("[1, -inf]", "leaf '-inf' at character 5 is not a finite number"),
        ("[1e999]", "leaf '1e999' at character 2 is not a finite number"),
        ("(A x=inf 2)", "leaf 'inf' at character 4 is not a finite number"),
        ("[1" + "0" * 400 + "]", "leaf '100000000000...000000' (401 characters) at character 2"),
        ("[" * 5000 + "1" + "]" * 5000, "nested too deeply to read"),
        ('{"children": ' * 3000 + "1" + "}" * 3000, "nested too deeply to read"),
        ('{"children": [NaN, 1]}', "leaf 'NaN' at path [0] is not a finite number"),
        ('{"children": [1, 1e999]}', "leaf '1e999' at path [1] is not a finite number"),
        ('{"value": -Infinity}', "leaf '-Infinity' at path [] is not a finite number"),
        ('{"children": [{"value": Infinity}]}', "leaf 'Infinity' at path [0] is not a finite"),
        ("{nan: 1, 1: 2}", "probability 'nan' at character 2 is not a finite number"),
        ("{1e999: 1}", "probability '1e999' at character 2 is not a finite number"),
        (
            '{"chance": [{"probability": NaN, "value": 1}]}',
            "probability 'NaN' at path [0] is not a finite number",
        ),
        (
            '{"chance": [{"probability": 1e999, "value": 1}]}',
            "probability '1e999' at path [0] is not a finite number",
        ),
    ],
)
def test_values_that_are_not_finite_are_refused(text: str, message: str) -> None:
    with pytest.raises(TreeError, match=re.escape(message)) as error:
        parse_tree(text)
    assert "\n" not in str(error.value)


BOM = "\ufeff"


@pytest.mark.parametrize(
    "text",
    [
        BOM + "[[3,12,8],[2,4,6],[14,5,2]]",
        BOM + "\n# the lecture's tree\n((3 12 8) (2 4 6) (14 5 2))\n",
        "# AIMA Figure 5.2\n[[3, 12, 8],  # B\n [2, 4, 6],   # C: c2 and c3 are pruned\n"
        " [14,5,2]#D, touching\n]  # end",
        "(A # the root\n  (B 3 12 8) (C 2 4 6) (D 14 5 2))",
        BOM + '# comment lines only, in JSON\n{\n  # A\n  "children": [[3,12,8],[2,4,6],\n'
        '    # D\n    {"label": "D", "children": [14,5,2]}]\n}\n',
    ],
)
def test_byte_order_mark_and_comments(text: str) -> None:
    assert _leaf_values(text) == LECTURE_VALUES


def test_json_takes_whole_line_comments_only() -> None:
    tree = parse_tree('{"label": "A#1", "children": [{"label": "#b", "value": 1}]}')
    assert [n.label for _, n in tree.walk()] == ["A#1", "#b"]  # '#' in strings is text
    with pytest.raises(TreeError, match="invalid JSON: Extra data"):
        parse_tree('{"children": [1, 2]}  # a comment after a value')
    with pytest.raises(TreeError, match=re.escape("leaf 'x' at character 5 is not a number")):
        parse_tree("# comments keep positions\n[1, x]")


# Who moves, and in which order --------------------------------------------------------------


def test_layers_repeat_from_the_root() -> None:
    # UC Berkeley CS188: Pacman (MAX) then two ghosts (MIN, MIN), then Pacman again.
    game = tree_game(parse_tree("[[[[1, 2], 3]], 4]"), layers=("MAX", "MIN", "MIN"))
    assert [game.to_move(p) for p in [(), (0,), (0, 0), (0, 0, 0)]] == ["MAX", "MIN", "MIN", "MAX"]
    assert (game.root, game.layers) == ("MAX", ("MAX", "MIN", "MIN"))
    chance = tree_game(parse_tree("{0.5: [[1, 2]], 0.5: 3}"), layers=("MIN", "MIN", "MAX"))
    assert [chance.to_move(p) for p in [(), (0,), (0, 0)]] == [CHANCE, "MIN", "MIN"]
    assert chance.root == "MIN"


def test_root_and_layers_combine_only_when_they_agree() -> None:
    tree = parse_tree("[[1, 2], [3]]")
    assert TreeGame(tree, "MIN").layers == ("MIN", "MAX")
    assert TreeGame(tree, "MIN", layers=["MIN", "MIN"]).layers == ("MIN", "MIN")
    with pytest.raises(TreeError, match=r"root player MIN is not the first .* \(MAX, MIN, MIN\)"):
        TreeGame(tree, "MIN", layers=("MAX", "MIN", "MIN"))
    with pytest.raises(TreeError, match="must be MAX or MIN, not 'CHANCE'"):
        TreeGame(tree, layers=("MAX", "CHANCE"))
    with pytest.raises(TreeError, match="at least one layer"):
        TreeGame(tree, layers=())
    with pytest.raises(TreeError, match="root player must be MAX or MIN, not 'max'"):
        TreeGame(tree, "max")


def test_a_json_node_names_its_player() -> None:
    text = '{"player": "MIN", "children": [{"player": "max", "children": [1, 5]}, [2, 3]]}'
    tree = parse_tree(text)
    assert [n.player for _, n in tree.walk() if not n.is_leaf] == ["MIN", "MAX", None]
    game = tree_game(tree, "MAX")
    # Layer rule MAX, MIN, MAX...: the root and B override it, C (layer 1) keeps MIN.
    assert [game.to_move(p) for p in [(), (0,), (1,)]] == ["MIN", "MAX", "MIN"]
    assert game.root == "MIN"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"player": "MAX", "value": 3}', "node at path [] has a 'player' but only decision"),
        (
            '{"player": "MIN", "chance": [{"probability": 1, "value": 1}]}',
            "has a 'player' but only decision nodes move",
        ),
        ('{"player": "ghost", "children": [1]}', 'player "ghost" of node at path [] is not MAX'),
        ('{"player": 1, "children": [1]}', "player 1 of node at path [] is not MAX or MIN"),
    ],
)
def test_bad_players_are_refused(text: str, message: str) -> None:
    with pytest.raises(TreeError, match=re.escape(message)):
        parse_tree(text)


def test_right_to_left_order() -> None:
    game = tree_game(parse_tree("[{1/4: 1, 3/4: [2, 3]}, 4]"), order="rtl")
    assert list(game.actions(())) == [1, 0] and list(game.actions((0, 1))) == [1, 0]
    assert list(game.chance_outcomes((0,))) == [(1, 0.75), (0, 0.25)]
    assert game.format_action((), 1) == "a2"  # labels are those of the written tree
    with pytest.raises(TreeError, match="order must be ltr or rtl, not 'backwards'"):
        tree_game(parse_tree("[1]"), order="backwards")
