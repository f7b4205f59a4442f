"""Random exercise trees, and any tree written back as text that reads back the same.

:func:`random_tree` draws a tree whose leaves all lie ``depth`` edges below the root, each
internal node with a number of children drawn from ``branching``, and integer leaf values;
with ``chance`` the layers below the decision layers are chance nodes (MAX, chance, MIN,
chance... as in the lecture's backgammon tree), their probabilities equal or drawn at random
as fractions. The size is checked before anything is drawn: at most :data:`MAX_NODES` nodes
however the draws fall.

:func:`tree_text` writes a tree in the nested-list form of :func:`~plies.games.tree.parse_tree`,
naming only the nodes whose labels are not the ones the parser would give them anyway, so
``parse_tree(tree_text(tree)) == tree``.

>>> tree = random_tree(2, 3, 1, 9, seed=7)
>>> tree_text(tree)
'[[7, 1, 2], [6, 1, 9], [1, 2, 7]]'
>>> tree_text(random_tree(2, 2, 0, 4, chance=True, seed=1))
'[{1/2: 2, 1/2: 0}, {1/2: 3, 1/2: 3}]'
>>> tree_text(parse_tree("(A (B b1=3 x=12) (Top 2.5 4))"))  # b1 and A: the parser's own
'[[3, x=12], [Top 2.5, 4]]'
"""

from __future__ import annotations

import json
import random
from collections.abc import Collection
from fractions import Fraction
from typing import Any

from plies.errors import SpecError, TreeError
from plies.games.tree import Node, Path, parse_tree

MAX_NODES = 400
"""The most nodes a random tree may have (drawn or not): a page still shows them all."""
MAX_DEPTH = 8
MAX_BRANCHING = 10
MAX_VALUE = 10**6
"""Leaf values lie within [-MAX_VALUE, MAX_VALUE]."""
PROBABILITIES = ("equal", "random")
"""How chance nodes share out probability: equally, or by random weights 1 to 4."""


def random_tree(
    depth: int,
    branching: int | tuple[int, int],
    low: int,
    high: int,
    *,
    chance: bool = False,
    probabilities: str = "equal",
    seed: int | None = None,
) -> Node:
    """A random tree ``depth`` edges deep with integer leaves in [low, high].

    ``branching`` is every internal node's number of children, or a range (fewest, most) to
    draw it from; ``chance`` makes every second layer below the root chance nodes, whose
    ``probabilities`` are "equal" or "random"; ``seed`` makes the draw repeatable. Raises
    :class:`~plies.errors.SpecError` for sizes past the limits, before drawing anything.
    """
    fewest, most = _check(depth, branching, low, high, probabilities)
    rng = random.Random(seed)

    def draw(level: int) -> str:
        if level == depth:
            return str(rng.randint(low, high))
        children = [draw(level + 1) for _ in range(rng.randint(fewest, most))]
        if not (chance and level % 2):
            return "[" + ", ".join(children) + "]"
        weights = [1 if probabilities == "equal" else rng.randint(1, 4) for _ in children]
        shares = [Fraction(weight, sum(weights)) for weight in weights]
        return "{" + ", ".join(f"{p}: {c}" for p, c in zip(shares, children, strict=True)) + "}"

    return parse_tree(draw(0))


def _check(
    depth: int, branching: int | tuple[int, int], low: int, high: int, probabilities: str
) -> tuple[int, int]:
    """The branching range, once every argument is checked to be within the limits."""
    fewest, most = (branching, branching) if isinstance(branching, int) else branching
    if not 1 <= depth <= MAX_DEPTH:
        raise SpecError(f"depth must be 1 to {MAX_DEPTH}, not {depth}")
    if not 1 <= fewest <= most <= MAX_BRANCHING:
        raise SpecError(
            f"branching must be 1 to {MAX_BRANCHING} children, the fewest first, "
            f"not {fewest} to {most}"
        )
    if not -MAX_VALUE <= low <= high <= MAX_VALUE:
        raise SpecError(
            f"leaf values must run from low to high within +-{MAX_VALUE}, not {low} to {high}"
        )
    if probabilities not in PROBABILITIES:
        raise SpecError(f"probabilities must be equal or random, not {probabilities!r}")
    most_nodes = sum(most**level for level in range(depth + 1))
    if most_nodes > MAX_NODES:
        raise SpecError(
            f"depth {depth} with up to {most} children a node makes up to {most_nodes} nodes; "
            f"the limit is {MAX_NODES}"
        )
    return fewest, most


# Writing a tree ----------------------------------------------------------------------------


def tree_text(tree: Node) -> str:
    """``tree`` as nested lists that :func:`~plies.games.tree.parse_tree` reads back to an
    equal tree: ``[[3, 12, 8], {1/2: 2, 1/2: c2=4}]``, a label written (first in its node's
    brackets, ``name=value`` at a leaf) only where the parser's own would differ. A tree
    whose nodes name their player, or whose labels brackets cannot hold, is written as JSON.
    """
    named = written_labels(tree)
    return json.dumps(_json(tree)) if named is None else _lists(tree, named)


def written_labels(tree: Node) -> frozenset[Path] | None:
    """The nodes whose labels :func:`tree_text` writes: those the parser would name otherwise,
    found from the root down; None when it writes JSON, which names every node."""
    if any(node.player for _, node in tree.walk()):
        return None
    nodes = dict(tree.walk())
    named: set[Path] = set()
    while True:
        try:
            read = parse_tree(_lists(tree, named))
        except TreeError:  # a label that reads as a number, such as inf
            return None
        if read == tree:
            return frozenset(named)
        labels = {path: node.label for path, node in read.walk()}
        if labels.keys() != nodes.keys():  # a label read as a leaf, such as 3
            return None
        wrong = {path for path, node in nodes.items() if labels[path] != node.label}
        inner = {path for path in wrong if not nodes[path].is_leaf}
        if inner:  # names go down the tree: the shallowest first
            wrong = {path for path in inner if len(path) == min(map(len, inner))}
        if wrong <= named:  # a label that brackets cannot hold
            return None
        named |= wrong


def _lists(tree: Node, named: Collection[Path]) -> str:
    """The nested-list text, with the labels of the nodes at ``named`` written."""

    def write(node: Node, path: Path) -> str:
        label = node.label if path in named else None
        if node.is_leaf:
            value = _value(node.value)
            return value if label is None else f"{label}={value}"
        children = [write(child, (*path, i)) for i, child in enumerate(node.children)]
        if node.chance:
            children = [
                f"{fraction_text(child.probability or 0.0)}: {text}"
                for child, text in zip(node.children, children, strict=True)
            ]
        inside = ", ".join(children) if label is None else f"{label} " + ", ".join(children)
        return "{" + inside + "}" if node.chance else "[" + inside + "]"

    return write(tree, ())


def _value(value: float | None) -> str:
    """A leaf value as Python reads it back: 3 as an int, 3.0 and 2.5 as floats."""
    assert value is not None
    return repr(value)


def fraction_text(probability: float) -> str:
    """A probability as a fraction n/d when one with d <= 1000 is exactly it (1/2, 1/6),
    else in full: as :func:`tree_text` writes it."""
    fraction = Fraction(probability).limit_denominator(1000)
    return str(fraction) if float(fraction) == probability else repr(probability)


def _json(node: Node) -> dict[str, Any]:
    """The JSON form of ``node``, every label written."""
    data: dict[str, Any] = {"label": node.label}
    if node.probability is not None:
        data["probability"] = fraction_text(node.probability)
    if node.player is not None:
        data["player"] = node.player
    if node.is_leaf:
        data["value"] = node.value
    else:
        data["chance" if node.chance else "children"] = [_json(c) for c in node.children]
    return data
