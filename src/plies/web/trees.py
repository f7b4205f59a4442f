"""Routes of the trees page: a tree read, searched step by step, drawn at random, and a
student's answer checked. The page sends the tree as text, in any form ``plies tree`` reads.

Sizes are checked before any work: :data:`MAX_TEXT` characters, :data:`MAX_NESTING` levels
of brackets and :data:`MAX_NODES` nodes a tree. Alpha and beta may be infinite, which JSON
cannot carry: they are written "-inf" and "+inf", as ``plies tree --json`` writes them.
"""

from __future__ import annotations

import math
import random
from typing import Annotated, Any, Literal

from fastapi import APIRouter
from pydantic import BaseModel, Field

from plies.errors import SpecError, TreeError
from plies.lectures import Node, parse_tree
from plies.lectures import Path as NodePath
from plies.lectures import random_tree as randoms
from plies.lectures.quiz import Answer, Mark, check_answer, solution
from plies.lectures.tree_report import (
    ALGORITHM_NAMES,
    Shown,
    TreeReport,
    analyse_tree,
    bounds_text,
    number,
    report_json,
    rule_text,
    steps,
)
from plies.search import Cutoff, Enter, Leaf

router = APIRouter(tags=["trees"])

MAX_TEXT = 20_000
"""The longest tree text, in characters."""
MAX_NESTING = 24
"""The most levels of brackets in a tree's text."""
MAX_NODES = 1000
"""The most nodes of a tree the page is sent."""

Finite = Annotated[float, Field(allow_inf_nan=False)]
Player = Literal["MAX", "MIN"]


class TreeSettings(BaseModel):
    """A tree and how to search it, as ``plies tree`` takes them."""

    tree: str = Field(
        max_length=MAX_TEXT,
        description="The tree: nested lists [[3,12,8],[2,4,6]], parentheses (A (B 3 12) 4), "
        "JSON, with chance nodes {1/2: [3, 12], 1/2: 5}.",
        examples=["[[3,12,8],[2,4,6],[14,5,2]]"],
    )
    algorithm: Literal["minimax", "alphabeta", "expectiminimax", "star1"] | None = Field(
        None, description="Default: alphabeta, or expectiminimax for a tree with chance nodes."
    )
    strict: bool = Field(False, description="Alpha-beta prunes only on v > beta / v < alpha.")
    root: Player | None = Field(None, description="Who moves at the root (default MAX).")
    players: list[Player] | None = Field(
        None,
        min_length=1,
        max_length=8,
        description="Who moves in each layer of decision nodes, repeated: MAX, MIN, MIN.",
    )
    order: Literal["ltr", "rtl"] = Field("ltr", description="Children left to right or back.")
    bounds: tuple[Finite, Finite] | None = Field(
        None, description="Star1's bounds [L, U] on leaf values (default: the leaves' range)."
    )


class AnswerRequest(TreeSettings):
    """A tree exercise and the student's answer."""

    values: dict[str, str | float] = Field(
        default_factory=dict,
        description='Each internal node\'s value by path ("" the root, "0.1" its first '
        'child\'s second child): 3, "2.5", "<=2" or ">=5"; "" or missing for none.',
    )
    pruned: list[str] = Field(
        default_factory=list,
        max_length=MAX_NODES,
        description="The edges marked pruned, each by the path of the node below it.",
    )


class RandomRequest(BaseModel):
    """What a random tree is drawn with."""

    depth: int = Field(description=f"Edges from the root to every leaf, 1 to {randoms.MAX_DEPTH}.")
    branching: int | tuple[int, int] = Field(
        description="Children of every internal node, or the range [fewest, most] to draw from."
    )
    low: int = Field(description="The smallest leaf value.")
    high: int = Field(description="The largest leaf value.")
    chance: bool = Field(False, description="Every second layer below the root is chance nodes.")
    probabilities: Literal["equal", "random"] = Field(
        "equal", description="Chance nodes' probabilities: equal, or random fractions."
    )
    seed: int | None = Field(
        None, ge=0, lt=2**63, description="Repeats a draw; default: a new one, answered."
    )


def _read(settings: TreeSettings) -> Node:
    """The tree, its size checked before and after it is read."""
    depth = deepest = 0
    for character in settings.tree:
        depth += (character in "([{") - (character in ")]}")
        deepest = max(deepest, depth)
    if deepest > MAX_NESTING:
        raise TreeError(f"tree: nested {deepest} levels deep; the page takes at most {MAX_NESTING}")
    tree = parse_tree(settings.tree)
    count = sum(1 for _ in tree.walk())
    if count > MAX_NODES:
        raise TreeError(f"tree: {count} nodes; the page takes at most {MAX_NODES}")
    return tree


def _search(settings: TreeSettings) -> TreeReport:
    return analyse_tree(
        _read(settings),
        settings.algorithm,
        strict=settings.strict,
        root=settings.root,
        layers=settings.players,
        order=settings.order,
        bounds=settings.bounds,
    )


def _dotted(path: NodePath) -> str:
    """A path as the page names it: "" for the root, "0.1" for its first child's second."""
    return ".".join(map(str, path))


def _path(text: str) -> NodePath:
    try:
        return tuple(int(part) for part in text.split(".")) if text else ()
    except ValueError:
        raise SpecError(f"{text!r} is not a node's path (write 0.1 for a child's child)") from None


def _infinite(value: float | None) -> float | str | None:
    """A value JSON can carry: an infinity as "-inf" or "+inf"."""
    return number(value) if value is not None and math.isinf(value) else value


def _tree_json(report: TreeReport) -> dict[str, Any]:
    """The tree, nested as drawn: every node's path, label, kind (MAX, MIN, chance or leaf),
    leaf value, probability, the player it names itself, and whether its label is written."""
    named = randoms.written_labels(report.tree)

    def write(node: Node, path: NodePath) -> dict[str, Any]:
        return {
            "path": _dotted(path),
            "label": node.label,
            "named": named is None or path in named,
            "kind": report.node(path).player,
            "player": node.player,
            "value": node.value,
            "probability": node.probability,
            "probability_text": (
                None if node.probability is None else randoms.fraction_text(node.probability)
            ),
            "children": [write(child, (*path, i)) for i, child in enumerate(node.children)],
        }

    return write(report.tree, ())


def _shown_json(shown: Shown) -> dict[str, Any]:
    bound = {"exact": "", "upper": "<=", "lower": ">=", None: ""}[shown.bound]
    return {
        "path": _dotted(shown.path),
        "value": shown.value,
        "text": "" if shown.value is None else bound + number(shown.value),
        "final": shown.bound is not None,
        "alpha": _infinite(shown.alpha),
        "beta": _infinite(shown.beta),
    }


def _events_json(report: TreeReport) -> list[dict[str, Any]]:
    """One entry per trace event: its kind, node, value and window (None where the event has
    none), text, and what it changes on the board."""
    events = []
    for step in steps(report):
        event = step.event
        entry: dict[str, Any] = {
            "kind": type(event).__name__.lower(),
            "path": _dotted(event.path),
            "label": report.node(event.path).label,
            "value": None if isinstance(event, Enter) else event.value,
            "alpha": None if isinstance(event, Leaf) else _infinite(event.alpha),
            "beta": None if isinstance(event, Leaf) else _infinite(event.beta),
            "depth": len(event.path) + isinstance(event, Cutoff),
            "text": step.text,
            "leaf": isinstance(event, Enter | Leaf) and report.node(event.path).player == "leaf",
            "shown": [_shown_json(shown) for shown in step.shown],
        }
        if isinstance(event, Cutoff):
            entry["skipped"] = [_dotted((*event.path, action)) for action in event.skipped]
        events.append(entry)
    return events


def _settings_json(report: TreeReport, settings: TreeSettings) -> dict[str, Any]:
    return {
        "algorithm": report.algorithm,
        "strict": settings.strict,
        "root": report.root,
        "players": list(report.layers),
        "order": report.order,
        "bounds": None if report.bounds is None else list(report.bounds),
    }


def _summary(report: TreeReport) -> str:
    name = ALGORITHM_NAMES.get(report.algorithm, report.algorithm)
    text = f"{name} ({rule_text(report.rule)}); value {number(report.value)} for MAX"
    return text + (f"; {bounds_text(report)}" if report.bounds is not None else "")


def _drawn(report: TreeReport, settings: TreeSettings) -> dict[str, Any]:
    """What the page draws: the tree, its text as nested lists, its size, the settings."""
    return {
        "text": randoms.tree_text(report.tree),
        "tree": _tree_json(report),
        "node_count": len(report.nodes),
        "leaf_count": report.leaf_count,
        "settings": _settings_json(report, settings),
    }


@router.post("/trees/parse", summary="Read a tree and who moves where, without its search")
def parse(settings: TreeSettings) -> dict[str, Any]:
    """The tree as the page draws it, and its text as nested lists (``text``), with nothing
    of the search: a quiz shows this much. The settings are checked as ``analyse`` would."""
    return _drawn(_search(settings), settings)


@router.post("/trees/analyse", summary="Search a tree and replay the search event by event")
def analyse(settings: TreeSettings) -> dict[str, Any]:
    """``report`` is ``plies tree --json``'s object; ``events`` has one entry per trace event
    (enter, leaf, cutoff, backup, expectation), each with its text and the board entries it
    changes (``shown``: a node's value so far and its alpha and beta); ``solution`` is the
    quiz's answer: each visited internal node's searched value and the pruned edges."""
    report = _search(settings)
    right = solution(report)
    return {
        **_drawn(report, settings),
        "summary": _summary(report),
        "report": report_json(report),
        "events": _events_json(report),
        "solution": {
            "values": {_dotted(path): value for path, value in right.values.items()},
            "pruned": sorted(_dotted(path) for path in right.pruned),
        },
    }


@router.post("/trees/check", summary="Check a student's values and pruned edges")
def check(request: AnswerRequest) -> dict[str, Any]:
    """Every internal node and edge marked right or wrong (``why`` says what is right when
    wrong), ``correct``, and ``first_mistake``: the first mistake in the search's order, in
    words. A node the search cuts off is right as its backed-up value or that value's bound:
    "2" or "<=2" for C of AIMA Figure 5.5; a node never searched gets no value."""
    report = _search(request)
    answer = Answer(
        {_path(path): value for path, value in request.values.items()},
        frozenset(_path(path) for path in request.pruned),
    )
    checked = check_answer(report, answer)
    marks = checked.nodes + checked.edges

    def write(mark: Mark) -> dict[str, Any]:
        return {
            "path": _dotted(mark.path),
            "label": mark.label,
            "right": mark.right,
            "why": mark.why,
        }

    return {
        "correct": checked.correct,
        "first_mistake": checked.first_mistake,
        "right": sum(mark.right for mark in marks),
        "total": len(marks),
        "nodes": [write(mark) for mark in checked.nodes],
        "edges": [write(mark) for mark in checked.edges],
    }


@router.post("/trees/random", summary="Draw a random tree")
def random_tree(request: RandomRequest) -> dict[str, Any]:
    """A random tree as nested-list ``text``, with the ``seed`` that draws it again."""
    seed = random.randrange(10**6) if request.seed is None else request.seed
    tree = randoms.random_tree(
        request.depth,
        request.branching,
        request.low,
        request.high,
        chance=request.chance,
        probabilities=request.probabilities,
        seed=seed,
    )
    return {
        "text": randoms.tree_text(tree),
        "seed": seed,
        "node_count": sum(1 for _ in tree.walk()),
        "leaf_count": tree.leaf_count,
    }
