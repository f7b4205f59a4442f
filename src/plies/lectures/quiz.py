"""A student's answer to a tree exercise, checked against the search itself.

The exercise is Berkeley's abTreePractice (Aleks Kamko's "Alpha-Beta Pruning Practice" for
UC Berkeley's CS61B,
https://inst.eecs.berkeley.edu/~cs61b/fa14/ta-materials/apps/ab_tree_practice/), as the
README's Trees page offers it: given a tree and an algorithm, write each internal node's value
as the search backs it up and mark the edges it prunes.
:func:`check_answer` marks every node and edge right or wrong against
:func:`~plies.lectures.tree_report.analyse_tree`'s report, each wrong mark with the reason, and
picks the first mistake in the order the search would have made it.

What is right:

* a visited internal node's value is the one the search backed up, to within
  :data:`TOLERANCE` (two decimals suffice: 2.33 for 7/3). Where the search stopped early that
  value is only a bound: C of AIMA Figure 5.5 is ``<=2``, and both "2" and "<=2" are right.
  A written ``<=`` or ``>=`` must be true of what the search proved: ``<=`` for an upper bound
  or an exact value, ``>=`` for a lower bound or an exact value;
* a node the search never visits (below a pruned edge) has no value;
* the pruned edges are those from a node that cut off to each child it skipped: the top edges
  of the pruned subtrees, not the edges inside them, which go with their top edge.

Leaves are given. Answers name nodes and edges by paths, an edge by the node below it.

>>> from plies.games.tree import parse_tree
>>> from plies.lectures.tree_report import analyse_tree
>>> report = analyse_tree(parse_tree("[[3,12,8],[2,4,6],[14,5,2]]"))
>>> sorted(solution(report).values.items()), sorted(solution(report).pruned)
([((), '3'), ((0,), '3'), ((1,), '<=2'), ((2,), '2')], [(1, 1), (1, 2)])
>>> answer = Answer({(): "3", (0,): "3", (1,): "2", (2,): "2"}, frozenset({(1, 1)}))
>>> check_answer(report, answer).first_mistake
'C is cut after c1: v=2 <= alpha=3, so c2, c3 are pruned'
>>> check_answer(report, Answer({(): "3", (0,): "8", (1,): "2", (2,): "2"})).first_mistake
'B = 3: the minimum of 3, 12, 8'
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction

from plies.errors import SpecError
from plies.game import CHANCE
from plies.games.tree import Path
from plies.lectures.tree_report import (
    NodeReport,
    Shown,
    TreeReport,
    cutoff_test,
    number,
    probability_text,
    searched_text,
    steps,
)
from plies.search import Backup, Cutoff, Enter, Expectation, Leaf
from plies.search.result import Bound

TOLERANCE = 0.005
"""How far a written value may be from the searched one."""
_WRITTEN = re.compile(r"^\s*(<=|≤|>=|≥|=)?\s*(\S.*?)\s*$")
_NO_VALUE = ("", "-", "pruned")


@dataclass(frozen=True)
class Answer:
    """What the student wrote: a value per internal node (missing or "": none) and the edges
    marked pruned, each named by the path of the node below it."""

    values: Mapping[Path, str | float]
    pruned: frozenset[Path] = field(default_factory=frozenset)


@dataclass(frozen=True)
class Mark:
    """One node's value or one edge, right or wrong; ``why`` says what is right when wrong."""

    path: Path
    label: str
    right: bool
    why: str = ""


@dataclass(frozen=True)
class Checked:
    """Every internal node's and every edge's mark, depth first as the tree is written, and
    the first mistake in the search's order (None when all is right)."""

    nodes: tuple[Mark, ...]
    edges: tuple[Mark, ...]
    first_mistake: str | None

    @property
    def correct(self) -> bool:
        return self.first_mistake is None


def solution(report: TreeReport) -> Answer:
    """The right answer: every visited internal node's searched value (``<=2`` for a bound,
    see :func:`~plies.lectures.tree_report.searched_text`) and the top edges pruned."""
    values = {
        node.path: searched_text(node)
        for node in report.nodes
        if node.player != "leaf" and node.value is not None
    }
    pruned = frozenset(top for branch in report.pruned_branches for top in branch.skipped)
    return Answer(values, pruned)


def check_answer(report: TreeReport, answer: Answer) -> Checked:
    """Mark ``answer`` against ``report``; :class:`~plies.errors.SpecError` for a path that is
    not in the tree, a value given to a leaf, or a value that is not a number."""
    _check_paths(report, answer)
    order = _SearchOrder(report)
    keyed: list[tuple[tuple[int, int, int], Mark]] = []
    nodes, edges = [], []
    for place, node in enumerate(report.nodes):
        if node.player != "leaf":
            key, mark = _node_mark(report, order, node, answer.values.get(node.path))
            nodes.append(mark)
            keyed.append(((*key, place), mark))
        if node.path:
            key, mark = _edge_mark(report, order, node, node.path in answer.pruned)
            edges.append(mark)
            keyed.append(((*key, place), mark))
    wrong = sorted((key, mark.why) for key, mark in keyed if not mark.right)
    return Checked(tuple(nodes), tuple(edges), wrong[0][1] if wrong else None)


def _check_paths(report: TreeReport, answer: Answer) -> None:
    known = {node.path: node for node in report.nodes}
    for path in answer.values:
        if path not in known:
            raise SpecError(f"there is no node at path {_dotted(path)}")
        if known[path].player == "leaf":
            raise SpecError(f"{known[path].label} is a leaf: its value is given")
    for path in answer.pruned:
        if not path or path not in known:
            raise SpecError(f"there is no edge to a node at path {_dotted(path) or 'root'}")


def _dotted(path: Path) -> str:
    return ".".join(map(str, path))


def _written(text: str | float, label: str) -> tuple[str, float] | None:
    """A written value as (relation, number): "<=", ">=" or "=" and the value; None for none."""
    if isinstance(text, int | float):
        text = repr(text)
    if text.strip().lower() in _NO_VALUE:
        return None
    match = _WRITTEN.match(text)
    assert match is not None  # any text with a character not blank
    try:
        value = float(Fraction(match[2]))
    except (ValueError, ZeroDivisionError, OverflowError):
        value = math.nan
    if not math.isfinite(value):
        raise SpecError(
            f"{label}: {text.strip()!r} is not a number (write 3, 2.5, 7/3, <=2 or >=5)"
        )
    return {"≤": "<=", "≥": ">=", None: "="}.get(match[1], match[1]), value


class _SearchOrder:
    """Where each node's events fall in the trace, and the board just before each Enter."""

    def __init__(self, report: TreeReport) -> None:
        self.entered: dict[Path, int] = {}
        self.done: dict[Path, int] = {}
        self.last_child: dict[Path, Path] = {}
        """At each cutoff node: the child searched last, just before it stopped."""
        self.previous: dict[Path, Path | None] = {}
        """At each entered child: the child its parent searched before it (None: the first)."""
        self.before: dict[Path, Shown] = {}
        """At each entered child: its parent's board entry as the search reaches it."""
        self.pruned_at: dict[Path, tuple[int, Cutoff, Path]] = {}
        """At each pruned node: the cutoff's place, the cutoff, and the pruned top above it."""
        board: dict[Path, Shown] = {}
        latest: dict[Path, Path] = {}
        for index, step in enumerate(steps(report)):
            event = step.event
            if isinstance(event, Enter):
                self.entered[event.path] = index
                if event.path:
                    self.before[event.path] = board[event.path[:-1]]
                    self.previous[event.path] = latest.get(event.path[:-1])
            elif isinstance(event, Leaf | Backup | Expectation):
                self.done[event.path] = index
                if event.path:
                    latest[event.path[:-1]] = event.path
            elif isinstance(event, Cutoff):
                self.last_child[event.path] = latest[event.path]
                for action in event.skipped:
                    top = (*event.path, action)
                    for path, _ in report.tree_node(top).walk(top):
                        self.pruned_at[path] = (index, event, top)
            board.update((shown.path, shown) for shown in step.shown)


def _mark(path: Path, label: str, right: bool, why: str) -> Mark:
    return Mark(path, label, right, "" if right else why)


def _node_mark(
    report: TreeReport, order: _SearchOrder, node: NodeReport, given: str | float | None
) -> tuple[tuple[int, int], Mark]:
    """A value's mark, keyed by where the search settles it: its backup, or the cutoff that
    prunes it."""
    written = None if given is None else _written(given, node.label)
    if node.value is None:
        index, cutoff, top = order.pruned_at[node.path]
        pruned = report.node(top).label + (" above it" if top != node.path else "")
        why = (
            f"{node.label} is never searched ({report.node(cutoff.path).label} prunes "
            f"{pruned}), so it has no value"
        )
        return (index, 2), _mark(node.path, node.label, written is None, why)
    right = written is not None and abs(written[1] - node.value) <= TOLERANCE
    if written is not None and written[0] != "=":
        right = right and node.bound in (
            Bound.EXACT,
            Bound.UPPER if written[0] == "<=" else Bound.LOWER,
        )
    return (order.done[node.path], 0), _mark(
        node.path, node.label, right, _value_reason(report, node)
    )


def _edge_mark(
    report: TreeReport, order: _SearchOrder, node: NodeReport, marked: bool
) -> tuple[tuple[int, int], Mark]:
    """An edge's mark, keyed by where the search takes it or prunes it."""
    parent = report.node(node.path[:-1])
    label = f"{parent.label}–{node.label}"
    if node.path in order.entered:
        why = f"{label} is not pruned: {_searched_reason(report, order, node)}"
        return (order.entered[node.path], 0), _mark(node.path, label, not marked, why)
    index, cutoff, top = order.pruned_at[node.path]
    if top != node.path:
        why = (
            f"{label} lies below {report.node(top).label}, which is pruned already: mark only "
            f"the edge where the search stops, {report.node(top[:-1]).label}–"
            f"{report.node(top).label}"
        )
        return (index, 1), _mark(node.path, label, not marked, why)
    return (index, 0), _mark(node.path, label, marked, _cutoff_reason(report, order, cutoff))


def _cutoff_reason(report: TreeReport, order: _SearchOrder, cutoff: Cutoff) -> str:
    """Why a node stops: ``C is cut after c1: v=2 <= alpha=3, so c2, c3 are pruned``."""
    node = report.node(cutoff.path)
    last = report.node(order.last_child[cutoff.path]).label
    skipped = [report.node((*cutoff.path, a)).label for a in cutoff.skipped]
    verb = "is" if len(skipped) == 1 else "are"
    return (
        f"{node.label} is cut after {last}: {cutoff_test(report, cutoff)}, "
        f"so {', '.join(skipped)} {verb} pruned"
    )


def _searched_reason(report: TreeReport, order: _SearchOrder, node: NodeReport) -> str:
    """Why the search goes on to ``node``: nothing prunes, it is the first child, or the
    parent's value so far does not reach its bound."""
    parent = report.node(node.path[:-1])
    running, before = order.before[node.path], order.previous[node.path]
    if report.rule is None and report.bounds is None:
        return f"{report.algorithm} searches every node"
    if before is None:
        return f"{node.label} is the first child {parent.label} searches"
    previous = report.node(before).label
    if parent.player == CHANCE:
        return (
            f"after {previous}, the expected value of {parent.label} is not yet known to be "
            f"<= alpha={number(running.alpha)} or >= beta={number(running.beta)}"
        )
    strict = report.rule == "strict"
    if parent.player == "MAX":
        test, bound, limit = (">" if strict else ">="), "beta", running.beta
    else:
        test, bound, limit = ("<" if strict else "<="), "alpha", running.alpha
    return (
        f"after {previous}, {parent.label} has v={number(running.value)}, "
        f"not {test} {bound}={number(limit)}"
    )


def _value_reason(report: TreeReport, node: NodeReport) -> str:
    """How the search comes to an internal node's value: ``B = 3: the minimum of 3, 12, 8``,
    ``C <= 2: the minimum of 2, before c2, c3 are pruned``, ``B = 1/2*3 + 1/2*2 = 2.5``."""
    relation = {Bound.EXACT: "=", Bound.UPPER: "<=", Bound.LOWER: ">="}[node.bound or Bound.EXACT]
    children = report.children(node.path)
    if report.order == "rtl":
        children.reverse()
    pruned = [child.label for child in children if child.pruned]
    head = f"{node.label} {relation} {number(node.value)}"
    if node.player != CHANCE:
        kind = "maximum" if node.player == "MAX" else "minimum"
        seen = ", ".join(searched_text(child) for child in children if not child.pruned)
        tail = f", before {', '.join(pruned)} {'is' if len(pruned) == 1 else 'are'} pruned"
        return f"{head}: the {kind} of {seen}" + (tail if pruned else "")
    assert report.bounds is not None or not pruned
    low, high = report.bounds or (0.0, 0.0)
    counted = number(high if node.bound == Bound.UPPER else low)
    terms = " + ".join(
        f"{probability_text(child.probability or 0.0)}*"
        + (counted if child.pruned else searched_text(child))
        for child in report.children(node.path)
    )
    if node.bound == Bound.EXACT:
        return f"{node.label} = {terms} = {number(node.value)}"
    if not pruned:
        return f"{head}: {terms}"
    extreme = "largest" if node.bound == Bound.UPPER else "smallest"
    return (
        f"{head}: {terms}, with {', '.join(pruned)} pruned and counted at the {extreme} "
        f"leaf value {counted}"
    )
