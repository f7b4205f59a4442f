"""Random exercise trees (sizes, layers, limits, repeatable draws) and trees written back as
text that reads back the same, checked on any tree Hypothesis can build."""

from __future__ import annotations

import json
import re
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from plies.errors import SpecError, TreeError
from plies.games.tree import Node, parse_tree
from plies.lectures.random_tree import MAX_NODES, random_tree, tree_text, written_labels
from plies.lectures.tree_report import analyse_tree

LECTURE_PARENTHESES = "(A (B 3 12 8) (C 2 4 6) (D 14 5 2))"


def _same(a: Node, b: Node) -> bool:
    """Equal trees whose leaf values have the same types too (3 is not 3.0 on the page)."""
    kinds = [[type(n.value) for _, n in t.walk()] for t in (a, b)]
    return a == b and kinds[0] == kinds[1]


def test_a_seed_draws_the_same_tree() -> None:
    first = random_tree(3, (2, 3), -5, 5, seed=42)
    assert first == random_tree(3, (2, 3), -5, 5, seed=42)
    assert any(random_tree(3, (2, 3), -5, 5, seed=s) != first for s in range(5))


@settings(max_examples=60, deadline=None)
@given(
    depth=st.integers(1, 4),
    branching=st.tuples(st.integers(1, 4), st.integers(0, 2)).map(lambda t: (t[0], t[0] + t[1])),
    low=st.integers(-20, 20),
    spread=st.integers(0, 30),
    chance=st.booleans(),
    probabilities=st.sampled_from(["equal", "random"]),
    seed=st.integers(0, 2**32),
)
def test_random_trees_keep_to_their_shape_and_read_back(
    depth: int,
    branching: tuple[int, int],
    low: int,
    spread: int,
    chance: bool,
    probabilities: str,
    seed: int,
) -> None:
    assume(sum(branching[1] ** level for level in range(depth + 1)) <= MAX_NODES)
    tree = random_tree(
        depth, branching, low, low + spread, chance=chance, probabilities=probabilities, seed=seed
    )
    for path, node in tree.walk():
        if node.is_leaf:
            assert len(path) == depth and node.value is not None
            assert low <= node.value <= low + spread and isinstance(node.value, int)
        else:
            assert branching[0] <= len(node.children) <= branching[1]
            assert node.chance == (chance and len(path) % 2 == 1)
        if node.chance:
            shares = [Fraction(c.probability or 0).limit_denominator(1000) for c in node.children]
            assert sum(shares) == 1
            if probabilities == "equal":
                assert len(set(shares)) == 1
    text = tree_text(tree)
    assert _same(parse_tree(text), tree) and text.startswith("[")
    assert analyse_tree(tree).value == analyse_tree(parse_tree(text)).value


def test_chance_layers_alternate_with_decisions() -> None:
    tree = random_tree(4, 2, 0, 9, chance=True, seed=3)
    kinds = {len(path): node.chance for path, node in tree.walk() if not node.is_leaf}
    assert kinds == {0: False, 1: True, 2: False, 3: True}
    assert analyse_tree(tree).algorithm == "expectiminimax"
    assert tree_text(random_tree(1, 2, 0, 9, chance=True, seed=3)).count("{") == 0


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ((0, 2, 0, 9), "depth must be 1 to 8, not 0"),
        ((9, 2, 0, 9), "depth must be 1 to 8, not 9"),
        ((2, 0, 0, 9), "branching must be 1 to 10 children, the fewest first, not 0 to 0"),
        ((2, (3, 2), 0, 9), "branching must be 1 to 10 children, the fewest first, not 3 to 2"),
        ((2, 11, 0, 9), "branching must be 1 to 10 children"),
        ((2, 2, 9, 0), "leaf values must run from low to high within +-1000000, not 9 to 0"),
        ((2, 2, 0, 10**7), "not 0 to 10000000"),
        ((6, 3, 0, 9), "depth 6 with up to 3 children a node makes up to 1093 nodes; the limit"),
        ((8, 10, 0, 9), "makes up to 111111111 nodes; the limit is 400"),
    ],
)
def test_limits_are_checked_before_drawing(arguments: Any, message: str) -> None:
    with pytest.raises(SpecError, match=re.escape(message)):
        random_tree(*arguments)


def test_probabilities_are_named() -> None:
    with pytest.raises(SpecError, match="probabilities must be equal or random, not 'fair'"):
        random_tree(2, 2, 0, 9, chance=True, probabilities="fair")


# Any tree written back --------------------------------------------------------------------

LABELS = ["A", "B", "C", "b1", "c1", "x", "Top", "b1'", "inf", "my node", "3", "e5"]
values = st.one_of(
    st.integers(-(10**6), 10**6),
    st.floats(allow_nan=False, allow_infinity=False, width=64),
)
SPLITS = [["1"], ["1/2", "1/2"], ["1/3", "2/3"], ["0.1", "0.2", "0.7"], ["1/6"] * 6]


def _json_trees(depth: int) -> st.SearchStrategy[dict[str, Any]]:
    label = st.none() | st.sampled_from(LABELS)
    leaf = st.builds(lambda name, v: {"label": name, "value": v}, label, values)
    if depth == 0:
        return leaf
    below = _json_trees(depth - 1)
    decision = st.builds(
        lambda name, cs, p: {"label": name, "children": cs, "player": p},
        label,
        st.lists(below, min_size=1, max_size=3),
        st.sampled_from([None] * 6 + ["MAX", "MIN"]),
    )
    chance = st.sampled_from(SPLITS).flatmap(
        lambda split: st.builds(
            lambda name, cs: {
                "label": name,
                "chance": [{**c, "probability": p} for c, p in zip(cs, split, strict=True)],
            },
            label,
            st.lists(below, min_size=len(split), max_size=len(split)),
        )
    )
    return leaf | decision | chance


def _bracketable(label: str) -> bool:
    """Whether brackets can hold ``label``: a name that does not read as a number."""
    return re.fullmatch(r"[A-Za-z_][\w'.-]*", label) is not None and label.lower() != "inf"


def _clean(data: Any) -> Any:
    """Leave out the keys set to None: JSON trees have no nulls."""
    if isinstance(data, dict):
        return {k: _clean(v) for k, v in data.items() if v is not None}
    if isinstance(data, list):
        return [_clean(v) for v in data]
    return data


@settings(max_examples=300, deadline=None)
@given(_json_trees(3))
def test_tree_text_reads_back_the_same_tree(data: dict[str, Any]) -> None:
    try:
        tree = parse_tree(json.dumps(_clean(data)))
    except TreeError:  # a label used twice
        assume(False)
        raise
    text = tree_text(tree)
    assert _same(parse_tree(text), tree), text
    assert tree_text(parse_tree(text)) == text
    names = [node.label for _, node in tree.walk()]
    if not any(n.player for _, n in tree.walk()) and all(map(_bracketable, names)):
        assert not text.startswith('{"')  # nested lists, not JSON


def test_tree_text_names_only_what_the_parser_would_not() -> None:
    assert (
        tree_text(parse_tree("((3 12 8) (2 4 6) (14 5 2))"))
        == "[[3, 12, 8], [2, 4, 6], [14, 5, 2]]"
    )
    assert tree_text(parse_tree("(A (C 1 2) (B 3 4))")) == "[[C 1, 2], [B 3, 4]]"
    assert tree_text(parse_tree("{roll 1/3: 2, 2/3: [A 2, 3.0]}")) == "{roll 1/3: 2, 2/3: [2, 3.0]}"
    assert tree_text(parse_tree("[{0.1: 1, 0.9: 2}]")) == "[{1/10: 1, 9/10: 2}]"
    assert tree_text(parse_tree("7")) == "7"
    players = tree_text(parse_tree('{"children": [{"player": "MIN", "children": [1]}]}'))
    assert json.loads(players)["children"][0]["player"] == "MIN"
    assert json.loads(tree_text(parse_tree('{"children": [{"label": "inf", "children": [1]}]}')))


def test_written_labels_are_the_ones_the_text_needs() -> None:
    assert written_labels(parse_tree(LECTURE_PARENTHESES)) == frozenset()
    assert written_labels(parse_tree("(A (C 1 2) (B 3 4))")) == {(0,), (1,)}
    assert written_labels(parse_tree("(R (B x=1 2) 3)")) == {(), (0,), (0, 0)}  # B is not A
    assert written_labels(parse_tree('{"children": [{"player": "MIN", "children": [1]}]}')) is None
    assert written_labels(parse_tree('{"children": [{"label": "3", "children": [1]}]}')) is None
