"""Explicit game trees, as the exercises draw them, and the game whose states are their nodes.

Three input forms are read by :func:`parse_tree`:

* nested lists: ``[[3,12,8],[2,4,6],[14,5,2]]`` (commas optional);
* parenthesised: ``((3 12 8) (2 4 6) (14 5 2))``, where a name first in a list labels the
  node and ``name=value`` labels a leaf: ``(A (B b1=3 b2=12) (C 2 4))``;
* JSON objects: ``{"label": "A", "children": [{"label": "b1", "value": 3}, 12]}``.

Leaves are ints or floats; branching and depth may vary. Unlabelled nodes get the textbook's
names: internal nodes A, B, C... in breadth-first order, leaves their parent's letter in lower
case and their 1-based place (``b1``, ``b2``...).

>>> tree = parse_tree("[[3,12,8],[2,4,6],[14,5,2]]")
>>> [tree.children[1].label, tree.children[1].children[0].label, tree.leaf_count]
['C', 'c1', 9]
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from plies.errors import TreeError
from plies.game import Game

Path = tuple[int, ...]


@dataclass(frozen=True)
class Node:
    """A node of an explicit tree: a leaf has a ``value``, an internal node ``children``."""

    label: str
    value: float | None = None
    children: tuple[Node, ...] = field(default=())

    @property
    def is_leaf(self) -> bool:
        return not self.children

    @property
    def leaf_count(self) -> int:
        return sum(1 for _ in self.leaves())

    def walk(self, path: Path = ()) -> Iterator[tuple[Path, Node]]:
        """Every (path, node) in depth-first, left-to-right order."""
        yield path, self
        for i, child in enumerate(self.children):
            yield from child.walk((*path, i))

    def leaves(self, path: Path = ()) -> Iterator[tuple[Path, Node]]:
        """The leaves, left to right."""
        return ((p, n) for p, n in self.walk(path) if n.is_leaf)


class TreeGame(Game[Path, int]):
    """A game whose states are node paths: the same search that plays games solves exercises.

    Players are MAX and MIN alternating by depth, ``root`` moving first; actions are 0-based
    child indices; UTILITY(leaf, MAX) is the leaf's value and UTILITY(leaf, MIN) its negation.
    """

    name = "tree"
    players = ("MAX", "MIN")

    def __init__(self, tree: Node, root: str = "MAX") -> None:
        if root not in self.players:
            raise TreeError(f"tree: root player must be MAX or MIN, not {root!r}")
        self.tree, self.root = tree, root
        self.nodes: dict[Path, Node] = dict(tree.walk())

    def initial_state(self) -> Path:
        return ()

    def to_move(self, state: Path) -> str:
        return self.root if len(state) % 2 == 0 else self.opponent(self.root)

    def actions(self, state: Path) -> Sequence[int]:
        return range(len(self.nodes[state].children))

    def result(self, state: Path, action: int) -> Path:
        return (*state, action)

    def is_terminal(self, state: Path) -> bool:
        return self.nodes[state].is_leaf

    def utility(self, state: Path, player: str) -> float:
        value = self.nodes[state].value
        assert value is not None
        return value if player == "MAX" else -value

    def format_action(self, state: Path, action: int) -> str:
        return self.nodes[(*state, action)].label

    def display(self, state: Path) -> str:
        return self.nodes[state].label


# Parsing -----------------------------------------------------------------------------------

_TOKEN = re.compile(r"\s*(?:([()\[\]])|([^\s()\[\],]+)|(,))")
_CLOSERS = {"(": ")", "[": "]"}
_NAME = re.compile(r"[A-Za-z_][\w'.-]*$")


@dataclass
class _Raw:
    """A node as read, before labels are assigned."""

    label: str | None
    value: float | None = None
    children: list[_Raw] = field(default_factory=list)


def parse_tree(text: str) -> Node:
    """Read a tree in any of the three forms; raises :class:`TreeError` naming the problem."""
    stripped = text.strip()
    if not stripped:
        raise TreeError("tree: empty input")
    raw = _parse_json_tree(stripped) if stripped.startswith("{") else _parse_bracketed(stripped)
    return _label(raw)


def _number(word: str, where: str) -> float:
    try:
        value = float(word) if re.search(r"[.eE]|inf|nan", word, re.I) else int(word)
    except ValueError:
        raise TreeError(f"tree: leaf {word!r} {where} is not a number") from None
    if not math.isfinite(value):
        raise TreeError(f"tree: leaf {word!r} {where} is not a finite number")
    return value


def _parse_bracketed(text: str) -> _Raw:
    tokens: list[tuple[str, int]] = []
    position = 0
    while position < len(text):
        match = _TOKEN.match(text, position)
        if match is None:  # only trailing whitespace can fail to match
            break
        word = match.group(1) or match.group(2)
        if word:
            tokens.append((word, match.start(1) if match.group(1) else match.start(2)))
        position = match.end()
    if not tokens:
        raise TreeError("tree: empty input")
    root, end = _parse_node(tokens, 0, ())
    if end < len(tokens):
        word, at = tokens[end]
        raise TreeError(f"tree: unexpected {word!r} at character {at + 1} after the tree")
    return root


def _parse_node(tokens: list[tuple[str, int]], index: int, path: Path) -> tuple[_Raw, int]:
    word, at = tokens[index]
    if word in _CLOSERS:
        node = _Raw(None)
        index += 1
        if index < len(tokens) and _NAME.match(tokens[index][0]) and "=" not in tokens[index][0]:
            node.label = tokens[index][0]
            index += 1
        while True:
            if index >= len(tokens):
                raise TreeError(
                    f"tree: unbalanced brackets: {word!r} at character {at + 1} is never closed"
                )
            inner, inner_at = tokens[index]
            if inner in (")", "]"):
                if inner != _CLOSERS[word]:
                    raise TreeError(
                        f"tree: {inner!r} at character {inner_at + 1} closes {word!r} "
                        f"from character {at + 1}"
                    )
                if not node.children:
                    raise TreeError(f"tree: node at path {list(path)} has no children")
                return node, index + 1
            child, index = _parse_node(tokens, index, (*path, len(node.children)))
            node.children.append(child)
    if word in (")", "]"):
        raise TreeError(f"tree: unbalanced brackets: unexpected {word!r} at character {at + 1}")
    name, sep, number = word.partition("=")
    if not sep:
        name, sep, number = word.rpartition(":")
    where = f"at character {at + 1}"
    if sep:
        if not _NAME.match(name):
            raise TreeError(f"tree: leaf label {name!r} {where} is not a name")
        return _Raw(name, _number(number, where)), index + 1
    return _Raw(None, _number(word, where)), index + 1


def _parse_json_tree(text: str) -> _Raw:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise TreeError(f"tree: invalid JSON: {error.msg} at character {error.pos + 1}") from None
    return _from_json(data, ())


def _from_json(data: Any, path: Path) -> _Raw:
    where = f"at path {list(path)}"
    if isinstance(data, bool) or data is None:
        raise TreeError(f"tree: leaf {json.dumps(data)} {where} is not a number")
    if isinstance(data, int | float):
        return _Raw(None, _number(repr(data), where))
    if isinstance(data, list):
        data = {"children": data}
    if not isinstance(data, dict):
        raise TreeError(f"tree: node {where} is a {type(data).__name__}, not a number or object")
    unknown = set(data) - {"label", "value", "children"}
    if unknown:
        raise TreeError(f"tree: node {where} has unknown key {sorted(unknown)[0]!r}")
    label = data.get("label")
    if label is not None and not isinstance(label, str | int):
        raise TreeError(f"tree: label of node {where} must be a string")
    label = None if label is None else str(label)
    has_value, children = "value" in data, data.get("children")
    if has_value == (children is not None):
        raise TreeError(f"tree: node {where} needs exactly one of 'value' and 'children'")
    if has_value:
        return (
            _from_json(data["value"], path)
            if label is None
            else _Raw(label, _from_json(data["value"], path).value)
        )
    if not isinstance(children, list) or not children:
        raise TreeError(f"tree: node {where} has no children")
    return _Raw(label, None, [_from_json(c, (*path, i)) for i, c in enumerate(children)])


def _letters(index: int) -> str:
    """0 -> A, 25 -> Z, 26 -> AA..."""
    name = ""
    index += 1
    while index:
        index, remainder = divmod(index - 1, 26)
        name = chr(ord("A") + remainder) + name
    return name


def _label(root: _Raw) -> Node:
    """Give every unlabelled node its textbook name; refuse duplicate labels."""
    used: set[str] = set()
    order: list[tuple[_Raw, _Raw | None, int]] = []
    queue: list[tuple[_Raw, _Raw | None, int]] = [(root, None, 0)]
    while queue:  # breadth first, so letters go down the tree level by level
        item = queue.pop(0)
        order.append(item)
        queue.extend((child, item[0], i) for i, child in enumerate(item[0].children))
    for node, _, _ in order:
        if node.label is not None:
            if node.label in used:
                raise TreeError(f"tree: label {node.label!r} is used twice")
            used.add(node.label)
    letter = 0
    for node, parent, place in order:
        if node.label is not None:
            continue
        if node.children or parent is None:
            while _letters(letter) in used:
                letter += 1
            node.label = _letters(letter)
        else:
            assert parent.label is not None
            node.label = f"{parent.label.lower()}{place + 1}"
            while node.label in used:
                node.label += "'"
        used.add(node.label)
    return _freeze(root)


def _freeze(raw: _Raw) -> Node:
    assert raw.label is not None
    return Node(raw.label, raw.value, tuple(_freeze(c) for c in raw.children))
