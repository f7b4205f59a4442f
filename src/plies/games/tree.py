"""Explicit game trees, as the exercises draw them, and the game whose states are their nodes.

Three input forms are read by :func:`parse_tree`:

* nested lists: ``[[3,12,8],[2,4,6],[14,5,2]]`` (commas optional);
* parenthesised: ``((3 12 8) (2 4 6) (14 5 2))``, where a name first in a list labels the
  node and ``name=value`` labels a leaf: ``(A (B b1=3 b2=12) (C 2 4))``;
* JSON objects: ``{"label": "A", "children": [{"label": "b1", "value": 3}, 12]}``.

Leaves are ints or floats; branching and depth may vary. Unlabelled nodes get the textbook's
names: internal nodes A, B, C... in breadth-first order, leaves their parent's letter in lower
case and their 1-based place (``b1``, ``b2``...).

Chance nodes (AIMA 4th ed., section 5.5) give each child its probability:

* nested lists and parentheses: braces holding ``P: child`` pairs, with an optional label first
  as in parentheses: ``[{0.5: [3, 12], 0.5: [2, 4]}, {1/4: 5, 3/4: (X 6 1)}]``,
  ``{roll 1/6: (B 3 12) 5/6: c2=7}``;
* JSON: ``"chance"`` in place of ``"children"``, a list of nodes that each carry a
  ``"probability"``: ``{"chance": [{"probability": 0.5, "value": 3}, {"probability": "1/2",
  "children": [2, 4]}]}``.

A probability is a decimal or a fraction ``n/d``; those of one chance node are at least 0 and
sum to 1 (within 1e-9). Leaf values and probabilities must be finite (no ``nan``, ``inf`` or
``1e999``).

Who moves: chance nodes do not take a turn; a decision node with d decision nodes above it is
played by ``layers[d % len(layers)]``, by default ``(root, other)``: MAX, CHANCE, MIN, CHANCE,
MAX... as in the lecture's backgammon tree, MAX, MIN, MAX... in a tree without chance nodes, a
chance root followed by the root player, and MAX, MIN, MIN, MAX... with
``layers=("MAX", "MIN", "MIN")`` (UC Berkeley CS188's trees with two ghosts). In JSON a decision
node may name its own mover, ``"player": "MAX"`` or ``"MIN"``, overriding its layer's.

A leading UTF-8 byte-order mark is ignored. ``#`` starts a comment to the end of the line in
lists and parentheses; JSON takes whole-line comments only (a line whose first non-blank
character is ``#``, which valid JSON never has), not comments after a value.

>>> tree = parse_tree("[[3,12,8],[2,4,6],[14,5,2]]")
>>> [tree.children[1].label, tree.children[1].children[0].label, tree.leaf_count]
['C', 'c1', 9]
>>> game = tree_game(parse_tree("[{0.5: [3, 12], 0.5: [2, 4]}, 1]"))
>>> [game.to_move(path) for path in [(), (0,), (0, 1)]], game.chance_outcomes((0,))
(['MAX', 'chance', 'MIN'], [(0, 0.5), (1, 0.5)])
>>> ghosts = tree_game(parse_tree("[[[1, 2]]]"), layers=("MAX", "MIN", "MIN"), order="rtl")
>>> [ghosts.to_move(path) for path in [(), (0,), (0, 0)]], list(ghosts.actions((0, 0)))
(['MAX', 'MIN', 'MIN'], [1, 0])
"""

from __future__ import annotations

import json
import math
import re
from collections import deque
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from plies.capabilities import HasChance
from plies.errors import TreeError
from plies.game import CHANCE, Game

Path = tuple[int, ...]

DECIDERS = ("MAX", "MIN")
"""The players of a tree, who may be named as a node's or a layer's mover."""
ORDERS = ("ltr", "rtl")
"""The orders in which a search takes a node's children: left to right, or right to left."""


@dataclass(frozen=True)
class Node:
    """A node of an explicit tree: a leaf has a ``value``, an internal node ``children``.

    A chance node has ``chance`` set, and each of its children the ``probability`` of being
    reached from it (None below decision nodes). ``player`` is a decision node's own mover,
    MAX or MIN, when the tree names one (None: its layer's, see :class:`TreeGame`).
    """

    label: str
    value: float | None = None
    children: tuple[Node, ...] = field(default=())
    chance: bool = False
    probability: float | None = None
    player: str | None = None

    @property
    def is_leaf(self) -> bool:
        return not self.children

    @property
    def has_chance(self) -> bool:
        """Whether the tree under this node (itself included) has a chance node."""
        return any(node.chance for _, node in self.walk())

    @property
    def leaf_count(self) -> int:
        return sum(1 for _ in self.leaves())

    def walk(self, path: Path = ()) -> Iterator[tuple[Path, Node]]:
        """Every (path, node) in depth-first, left-to-right order."""
        stack = [(path, self)]
        while stack:
            path, node = stack.pop()
            yield path, node
            stack.extend(
                ((*path, i), node.children[i]) for i in reversed(range(len(node.children)))
            )

    def leaves(self, path: Path = ()) -> Iterator[tuple[Path, Node]]:
        """The leaves, left to right."""
        return ((p, n) for p, n in self.walk(path) if n.is_leaf)


class TreeGame(Game[Path, int]):
    """A game whose states are node paths: the same search that plays games solves exercises.

    Players are MAX and MIN: the decision layers' movers repeat ``layers`` from the root
    (default: MAX and MIN alternating, ``root`` first; ``root``, when given with ``layers``,
    must be their first), and a node that names its ``player`` is played by it. Actions are
    0-based child indices, taken left to right, or right to left when ``order`` is "rtl";
    UTILITY(leaf, MAX) is the leaf's value and UTILITY(leaf, MIN) its negation.
    ``value_bounds`` spans every leaf value for both players. Trees with chance nodes are
    :class:`ChanceTreeGame` (see :func:`tree_game`), where chance nodes take no turn.
    """

    name = "tree"
    players = DECIDERS

    def __init__(
        self,
        tree: Node,
        root: str | None = None,
        *,
        layers: Sequence[str] | None = None,
        order: str = "ltr",
    ) -> None:
        if tree.has_chance and not isinstance(self, HasChance):
            raise TreeError("tree: the tree has chance nodes; search it as a ChanceTreeGame")
        if order not in ORDERS:
            raise TreeError(f"tree: order must be ltr or rtl, not {order!r}")
        self.tree, self.order = tree, order
        self.layers = _layers(root, layers)
        self.nodes: dict[Path, Node] = dict(tree.walk())
        self.movers = _movers(tree, self.layers)
        self.root = self.layers[0] if tree.chance else self.movers[()]
        """Who moves first: the root's mover, or the first layer's below a chance root."""
        values = [node.value for _, node in tree.leaves() if node.value is not None]
        self.value_bounds = (min(min(values), -max(values)), max(max(values), -min(values)))

    def initial_state(self) -> Path:
        return ()

    def to_move(self, state: Path) -> str:
        return self.movers[state]

    def actions(self, state: Path) -> Sequence[int]:
        count = len(self.nodes[state].children)
        return range(count - 1, -1, -1) if self.order == "rtl" else range(count)

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


class ChanceTreeGame(TreeGame):
    """A tree with chance nodes: TO-MOVE is CHANCE there, with the children's probabilities."""

    def chance_outcomes(self, state: Path) -> Sequence[tuple[int, float]]:
        children = self.nodes[state].children
        return [(i, children[i].probability or 0.0) for i in self.actions(state)]


def tree_game(
    tree: Node,
    root: str | None = None,
    *,
    layers: Sequence[str] | None = None,
    order: str = "ltr",
) -> TreeGame:
    """The game of ``tree``: a :class:`ChanceTreeGame` when it has chance nodes."""
    kind = ChanceTreeGame if tree.has_chance else TreeGame
    return kind(tree, root, layers=layers, order=order)


def _layers(root: str | None, layers: Sequence[str] | None) -> tuple[str, ...]:
    """The decision layers' movers, from ``root`` (MAX, MIN alternating) or ``layers``."""
    if root is not None and root not in DECIDERS:
        raise TreeError(f"tree: root player must be MAX or MIN, not {root!r}")
    if layers is None:
        first = root or "MAX"
        return (first, "MIN" if first == "MAX" else "MAX")
    if not layers:
        raise TreeError("tree: name at least one layer's player, e.g. MAX, MIN, MIN")
    for player in layers:
        if player not in DECIDERS:
            raise TreeError(f"tree: the layers' players must be MAX or MIN, not {player!r}")
    if root is not None and root != layers[0]:
        raise TreeError(
            f"tree: the root player {root} is not the first of the layers' players "
            f"({', '.join(layers)}); give one or the other"
        )
    return tuple(layers)


def _movers(tree: Node, layers: tuple[str, ...]) -> dict[Path, str]:
    """TO-MOVE of every node: CHANCE at chance nodes; at a decision node its own ``player``,
    else ``layers[d % len(layers)]`` with d the decision nodes above it."""
    movers: dict[Path, str] = {}

    def visit(node: Node, path: Path, decisions: int) -> None:
        movers[path] = CHANCE if node.chance else node.player or layers[decisions % len(layers)]
        below = decisions if node.chance else decisions + 1
        for i, child in enumerate(node.children):
            visit(child, (*path, i), below)

    visit(tree, (), 0)
    return movers


# Parsing -----------------------------------------------------------------------------------

_TOKEN = re.compile(r"(?:\s|#[^\n]*)*+(?:([()\[\]{}])|([^\s()\[\]{},#]+)|(,))")
_COMMENT_LINE = re.compile(r"^[ \t]*#[^\n]*", re.MULTILINE)
_CLOSERS = {"(": ")", "[": "]", "{": "}"}
_NAME = re.compile(r"[A-Za-z_][\w'.-]*$")
_JSON_START = re.compile(r"\{\s*(?:[\"}]|$)")
_TOLERANCE = Fraction(1, 10**9)


@dataclass
class _Raw:
    """A node as read, before labels are assigned."""

    label: str | None
    value: float | None = None
    children: list[_Raw] = field(default_factory=list)
    chance: bool = False
    probability: Fraction | None = None
    player: str | None = None


class _Written(str):
    """A JSON number that is not finite (``NaN``, ``Infinity``, ``1e999``), as written."""


def parse_tree(text: str) -> Node:
    """Read a tree in any of the three forms; raises :class:`TreeError` naming the problem.

    A leading byte-order mark is dropped and whole-line ``#`` comments are blanked out, so
    JSON may have them too; the tokenizer of lists and parentheses skips the comments that
    follow a value. Messages count character positions from the first one not blank.
    """
    text = _COMMENT_LINE.sub(lambda line: " " * len(line[0]), text.removeprefix("\ufeff"))
    stripped = text.strip()
    if not stripped:
        raise TreeError("tree: empty input")
    parse = _parse_json_tree if _JSON_START.match(stripped) else _parse_bracketed
    try:
        return _label(parse(stripped))
    except RecursionError:
        raise TreeError("tree: nested too deeply to read (hundreds of levels)") from None


def _is_float(word: str) -> bool:
    """Whether Python reads ``word`` as a float (``nan`` and ``inf`` included)."""
    try:
        float(word)
    except ValueError:
        return False
    return True


def _number(word: str, where: str) -> float:
    """A leaf value: an int, or a float when written with a point, an exponent, inf or nan;
    refused unless finite and within a float's range."""
    try:
        value = float(word) if re.search(r"[.eE]|inf|nan", word, re.I) else int(word)
    except ValueError:
        raise TreeError(f"tree: leaf {word!r} {where} is not a number") from None
    try:
        finite = math.isfinite(value)
    except OverflowError:
        shown = word if len(word) <= 24 else f"{word[:12]}...{word[-6:]}"
        raise TreeError(
            f"tree: leaf {shown!r} ({len(word)} characters) {where} is too large for a float"
        ) from None
    if not finite:
        raise TreeError(f"tree: leaf {word!r} {where} is not a finite number")
    return value


def _probability(text: str, where: str) -> Fraction:
    """A probability written as a decimal or a fraction n/d, kept exact."""
    if _is_float(text) and not math.isfinite(float(text)):
        raise TreeError(f"tree: probability {text!r} {where} is not a finite number")
    try:
        value = Fraction(text)
    except (ValueError, ZeroDivisionError):
        raise TreeError(
            f"tree: probability {text!r} {where} is not a number or a fraction n/d"
        ) from None
    if value < 0:
        raise TreeError(f"tree: probability {text!r} {where} is negative")
    if value > 1:
        raise TreeError(f"tree: probability {text!r} {where} is more than 1")
    return value


def _check_probabilities(node: _Raw, where: str) -> None:
    total = sum((child.probability or Fraction(0) for child in node.children), Fraction(0))
    if abs(total - 1) > _TOLERANCE:
        raise TreeError(
            f"tree: the probabilities of the chance node {where} sum to {float(total):g}, not 1"
        )


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
        node = _Raw(None, chance=word == "{")
        index += 1
        first = tokens[index][0] if index < len(tokens) else ""
        if _NAME.match(first) and "=" not in first and not _is_float(first):  # not nan, inf
            node.label = first
            index += 1
        while True:
            if index >= len(tokens):
                raise TreeError(
                    f"tree: unbalanced brackets: {word!r} at character {at + 1} is never closed"
                )
            inner, inner_at = tokens[index]
            if inner in _CLOSERS.values():
                if inner != _CLOSERS[word]:
                    raise TreeError(
                        f"tree: {inner!r} at character {inner_at + 1} closes {word!r} "
                        f"from character {at + 1}"
                    )
                if not node.children:
                    raise TreeError(f"tree: node at path {list(path)} has no children")
                if node.chance:
                    _check_probabilities(node, f"at character {at + 1} (path {list(path)})")
                return node, index + 1
            place = (*path, len(node.children))
            if node.chance:
                child, index = _parse_chance_child(tokens, index, place)
            else:
                child, index = _parse_node(tokens, index, place)
            node.children.append(child)
    if word in _CLOSERS.values():
        raise TreeError(f"tree: unbalanced brackets: unexpected {word!r} at character {at + 1}")
    return _parse_leaf(word, at), index + 1


def _parse_chance_child(tokens: list[tuple[str, int]], index: int, path: Path) -> tuple[_Raw, int]:
    """``P: child`` inside braces; the colon may stand apart or touch a leaf (``1/2:b1=3``)."""
    word, at = tokens[index]
    where = f"at character {at + 1}"
    text, colon, rest = word.partition(":")
    rest_at = at + len(text) + 1
    index += 1
    if not colon and word not in _CLOSERS and index < len(tokens):
        following, following_at = tokens[index]
        if following.startswith(":"):
            colon, rest, rest_at = ":", following[1:], following_at + 1
            index += 1
    if not colon:
        raise TreeError(
            f"tree: expected a probability 'P:' {where} in a chance node, found {word!r}"
        )
    probability = _probability(text, where)
    if rest:
        child = _parse_leaf(rest, rest_at)
    elif index >= len(tokens) or tokens[index][0] in _CLOSERS.values():
        raise TreeError(f"tree: probability {text!r} {where} has no child after it")
    else:
        child, index = _parse_node(tokens, index, path)
    child.probability = probability
    return child, index


def _parse_leaf(word: str, at: int) -> _Raw:
    """A leaf: a number, or ``name=number`` (also ``name:number``)."""
    name, sep, number = word.partition("=")
    if not sep:
        name, sep, number = word.rpartition(":")
    where = f"at character {at + 1}"
    if sep:
        if not _NAME.match(name):
            raise TreeError(f"tree: leaf label {name!r} {where} is not a name")
        return _Raw(name, _number(number, where))
    return _Raw(None, _number(word, where))


def _parse_json_tree(text: str) -> _Raw:
    try:
        data = json.loads(text, parse_float=_json_float, parse_constant=_Written)
    except json.JSONDecodeError as error:
        raise TreeError(f"tree: invalid JSON: {error.msg} at character {error.pos + 1}") from None
    except ValueError:  # Python's limit on the digits of an integer
        raise TreeError("tree: a leaf has too many digits (more than 4300)") from None
    return _from_json(data, ())


def _json_float(text: str) -> float | _Written:
    value = float(text)
    return value if math.isfinite(value) else _Written(text)


def _json_number(data: Any, where: str) -> float:
    if isinstance(data, _Written):
        raise TreeError(f"tree: leaf {data!r} {where} is not a finite number")
    if isinstance(data, bool) or not isinstance(data, int | float):
        raise TreeError(f"tree: leaf {json.dumps(data)} {where} is not a number")
    return _number(repr(data), where)


def _from_json(data: Any, path: Path, in_chance: bool = False) -> _Raw:
    """A node from JSON; ``in_chance``: a child of a chance node, which needs a probability."""
    where = f"at path {list(path)}"
    if in_chance and not isinstance(data, dict):
        raise TreeError(
            f"tree: child {where} of a chance node must be an object with a 'probability'"
        )
    if isinstance(data, list):
        data = {"children": data}
    if not isinstance(data, dict):
        return _Raw(None, _json_number(data, where))
    unknown = set(data) - {"label", "value", "children", "chance", "probability", "player"}
    if unknown:
        raise TreeError(f"tree: node {where} has unknown key {sorted(unknown)[0]!r}")
    if "probability" in data and not in_chance:
        raise TreeError(f"tree: node {where} has a 'probability' but is not a chance node's child")
    label = data.get("label")
    if label is not None and (not isinstance(label, str | int) or isinstance(label, _Written)):
        raise TreeError(f"tree: label of node {where} must be a string")
    node = _Raw(None if label is None else str(label))
    kinds = [key for key in ("value", "children", "chance") if key in data]
    if len(kinds) != 1:
        raise TreeError(f"tree: node {where} needs exactly one of 'value', 'children' and 'chance'")
    if in_chance:
        if "probability" not in data:
            raise TreeError(f"tree: child {where} of a chance node has no 'probability'")
        given = data["probability"]
        if isinstance(given, bool) or not isinstance(given, int | float | str):
            raise TreeError(
                f"tree: probability {json.dumps(given)} {where} is not a number or a fraction n/d"
            )
        node.probability = _probability(given if isinstance(given, str) else repr(given), where)
    if "player" in data:
        player = data["player"]
        if kinds != ["children"]:
            raise TreeError(f"tree: node {where} has a 'player' but only decision nodes move")
        if not isinstance(player, str) or player.upper() not in DECIDERS:
            raise TreeError(f"tree: player {json.dumps(player)} of node {where} is not MAX or MIN")
        node.player = player.upper()
    if kinds == ["value"]:
        node.value = _json_number(data["value"], where)
        return node
    children = data[kinds[0]]
    if not isinstance(children, list) or not children:
        raise TreeError(f"tree: node {where} has no children")
    node.chance = kinds == ["chance"]
    node.children = [_from_json(c, (*path, i), node.chance) for i, c in enumerate(children)]
    if node.chance:
        _check_probabilities(node, where)
    return node


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
    queue: deque[tuple[_Raw, _Raw | None, int]] = deque([(root, None, 0)])
    while queue:  # breadth first, so letters go down the tree level by level
        item = queue.popleft()
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
    probability = None if raw.probability is None else float(raw.probability)
    children = tuple(_freeze(c) for c in raw.children)
    return Node(raw.label, raw.value, children, raw.chance, probability, raw.player)
