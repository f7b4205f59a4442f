"""The report on a searched textbook tree: every node's value, what alpha-beta proved and
pruned, and its alpha/beta trace.

:func:`analyse_tree` runs a textbook search on a :class:`~plies.games.tree.TreeGame` (the tree
as a game) with the trace on, and reads the per-node facts off the trace. The true minimax value
of every node is computed separately by plain recursion, the oracle the searched values are
shown against. Trees with chance nodes are searched by expectiminimax (or Star1, its pruning
version); their true values are then expectiminimax values, a chance node's the
probability-weighted sum of its children's. :func:`steps` replays the trace one event at a
time, each node's value so far and window as the lecture's board shows them.

>>> from plies.games.tree import parse_tree
>>> report = analyse_tree(parse_tree("[[3,12,8],[2,4,6],[14,5,2]]"))
>>> report.value, report.best_path, report.pruned_leaves
(3, (0,), (4, 5))
>>> [searched_text(report.node(path)) for path in [(), (0,), (1,), (2,)]]  # AIMA Figure 5.5
['3', '3', '<=2', '2']
>>> chance = analyse_tree(parse_tree("[{1/2: [3, 12], 1/2: [2, 4]}, {1/4: 5, 3/4: 1}]"))
>>> chance.algorithm, chance.value, expectation_text(chance, chance.node((0,)))
('expectiminimax', 2.5, 'B = 0.5*3 + 0.5*2 = 2.5')
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property
from typing import Any

from plies.errors import SpecError, TreeError
from plies.game import CHANCE
from plies.games.tree import DECIDERS, Node, Path, TreeGame, tree_game
from plies.search import (
    ALGORITHMS,
    NON_STRICT,
    STRICT,
    Backup,
    Cutoff,
    Enter,
    Expectation,
    Leaf,
    TraceEvent,
)
from plies.search.result import Bound, SearchStats

ALGORITHM_NAMES = {
    "minimax": "minimax",
    "alphabeta": "alpha-beta",
    "expectiminimax": "expectiminimax",
    "star1": "Star1 (*-minimax)",
}
"""The algorithms' names as the outputs print them."""


@dataclass
class NodeReport:
    """What one node is and what the search did there."""

    path: Path
    label: str
    player: str
    """MAX, MIN, "chance" (CHANCE), or "leaf"."""
    minimax: float
    """The node's true minimax value (MAX's view); its expectiminimax value in a tree with
    chance nodes."""
    leaf_index: int | None = None
    visit: int | None = None
    """Place in the visiting order (0 = root), None if never visited."""
    value: float | None = None
    """The value the search backed up (or evaluated at a leaf); None if never visited."""
    bound: Bound | None = None
    """What the search proved: exact when it searched every child that could change the value
    (D of AIMA Figure 5.5, 2 <= alpha but with all its leaves seen, is exactly 2), else lower
    (true value >= value) or upper (true value <= value); None if never visited."""
    alpha_in: float | None = None
    beta_in: float | None = None
    alpha_out: float | None = None
    beta_out: float | None = None
    pruned: bool = False
    """Never visited because an ancestor was cut off."""
    probability: float | None = None
    """The probability of reaching this node from its parent, a chance node; else None."""


@dataclass(frozen=True)
class PrunedBranch:
    """A cutoff: at ``path`` the value crossed a bound, so ``skipped`` were never searched."""

    path: Path
    player: str
    value: float
    alpha: float
    beta: float
    skipped: tuple[Path, ...]


@dataclass(frozen=True)
class TreeReport:
    """The whole analysis of one tree under one algorithm."""

    tree: Node
    algorithm: str
    rule: str | None
    root: str
    value: float
    pv: tuple[int, ...]
    """The principal variation: the child index chosen at each node from the root to a leaf."""
    nodes: tuple[NodeReport, ...]
    """Every node, depth-first left to right as the tree is written (whatever the order)."""
    pruned_branches: tuple[PrunedBranch, ...]
    stats: SearchStats
    trace: tuple[TraceEvent, ...]
    bounds: tuple[float, float] | None = None
    """The bounds on leaf values that Star1 relied on; None for the other algorithms."""
    layers: tuple[str, ...] = ("MAX", "MIN")
    """The decision layers' movers from the root, repeated (nodes may name their own)."""
    order: str = "ltr"
    """The order the search took children in: "ltr" (left to right) or "rtl"."""

    @property
    def best_path(self) -> tuple[int, ...]:
        """The root's best move as a path, ``(i,)``, or ``()`` when the root is a leaf."""
        return self.pv[:1]

    def node(self, path: Path) -> NodeReport:
        return self._by_path[path]

    @cached_property
    def _by_path(self) -> dict[Path, NodeReport]:
        return {n.path: n for n in self.nodes}

    def tree_node(self, path: Path) -> Node:
        node = self.tree
        for i in path:
            node = node.children[i]
        return node

    def children(self, path: Path) -> list[NodeReport]:
        return [self.node((*path, i)) for i in range(len(self.tree_node(path).children))]

    @property
    def leaf_count(self) -> int:
        return sum(1 for n in self.nodes if n.leaf_index is not None)

    @property
    def pruned_leaves(self) -> tuple[int, ...]:
        """0-based indices of the leaves the search never evaluated, in the written tree's
        left-to-right order (whatever order the search took)."""
        return tuple(n.leaf_index for n in self.nodes if n.leaf_index is not None and n.pruned)

    @property
    def pruned_leaf_labels(self) -> list[str]:
        return [n.label for n in self.nodes if n.leaf_index is not None and n.pruned]

    @property
    def visit_order(self) -> tuple[NodeReport, ...]:
        visited = [n for n in self.nodes if n.visit is not None]
        return tuple(sorted(visited, key=lambda n: n.visit or 0))

    def labels(self, path: Path) -> list[str]:
        """The labels along ``path`` from the root."""
        return [self.node(path[:i]).label for i in range(len(path) + 1)]


def exact_values(
    tree: Node, root: str | None = None, *, layers: Sequence[str] | None = None
) -> dict[Path, float]:
    """Every node's minimax value by plain recursion (MAX's view): the oracle. A chance node's
    value is the sum of its children's values times their probabilities, added left to right.
    Who moves where is the tree game's rule (:class:`~plies.games.tree.TreeGame`)."""
    return _exact_values(tree_game(tree, root, layers=layers))


def _exact_values(game: TreeGame) -> dict[Path, float]:
    values: dict[Path, float] = {}

    def value(node: Node, path: Path) -> float:
        if node.is_leaf:
            assert node.value is not None
            result = node.value
        elif node.chance:
            result = sum(
                (c.probability or 0.0) * value(c, (*path, i)) for i, c in enumerate(node.children)
            )
        else:
            children = [value(c, (*path, i)) for i, c in enumerate(node.children)]
            result = max(children) if game.movers[path] == "MAX" else min(children)
        values[path] = result
        return result

    value(game.tree, ())
    return values


def _bound(
    value: float, alpha: float | None, beta: float | None, proved: tuple[float, float]
) -> Bound:
    """The side of a searched value that is not exact, by the fail-soft reading of Figure 5.7:
    at or below the entry window's alpha an upper bound, at or above its beta a lower one.

    An empty window (alpha == beta, as Star1's clipped windows can be) reads both ways when
    the value equals it, and only one is proved: a MAX node cut off by ``v >= beta`` may have
    returned a MIN child's upper bound. ``proved``, the interval the true value is known to
    lie in, then decides: an upper bound when the value is its top, else a lower bound.
    """
    fails_low = alpha is not None and value <= alpha
    fails_high = beta is not None and value >= beta
    if fails_low and fails_high:
        return Bound.UPPER if value >= proved[1] else Bound.LOWER
    if fails_low:
        return Bound.UPPER
    return Bound.LOWER if fails_high else Bound.EXACT


def _node_reports(game: TreeGame) -> dict[Path, NodeReport]:
    """Every node's report before the search: its label, player, true value and leaf index."""
    truth = _exact_values(game)
    reports: dict[Path, NodeReport] = {}
    leaf_index = 0
    for path, node in game.tree.walk():
        player = "leaf" if node.is_leaf else game.to_move(path)
        reports[path] = NodeReport(path, node.label, player, truth[path])
        reports[path].probability = node.probability
        if node.is_leaf:
            reports[path].leaf_index = leaf_index
            leaf_index += 1
    return reports


def _read_trace(
    game: TreeGame, trace: tuple[TraceEvent, ...], reports: dict[Path, NodeReport]
) -> tuple[PrunedBranch, ...]:
    """Each node's visit, windows and value, read off the trace into ``reports``, and the
    cutoffs, whose subtrees are marked pruned."""
    entries = [e for e in trace if isinstance(e, Enter)]
    for visit, entry in enumerate(entries):
        report = reports[entry.path]
        report.visit, report.alpha_in, report.beta_in = visit, entry.alpha, entry.beta
    branches = []
    for event in trace:
        if isinstance(event, Leaf):
            reports[event.path].value = event.value
        elif isinstance(event, Backup | Expectation):
            report = reports[event.path]
            report.value, report.alpha_out, report.beta_out = event.value, event.alpha, event.beta
        elif isinstance(event, Cutoff):
            skipped = tuple((*event.path, a) for a in event.skipped)
            branches.append(
                PrunedBranch(
                    event.path, event.player, event.value, event.alpha, event.beta, skipped
                )
            )
            for top in skipped:
                for path, _ in game.nodes[top].walk(top):
                    reports[path].pruned = True
    return tuple(branches)


def _prove_bounds(
    game: TreeGame, reports: dict[Path, NodeReport], unknown: tuple[float, float]
) -> None:
    """Set every visited node's ``bound`` from what the search proved about its true value.

    Children before parents, each node gets the interval [low, high] its true value is known
    to lie in: a leaf's value; ``unknown`` for a node never visited (any value, or Star1's leaf
    bounds); max or min of the children's intervals at MAX or MIN, their probability-weighted
    sum at a chance node. A value is exact when low == high: every child that could change it
    was searched. Otherwise it is a bound, whose side is the fail-soft reading of the value
    against the node's window (Figure 5.7: <= alpha an upper, >= beta a lower bound).
    """
    known: dict[Path, tuple[float, float]] = {}
    for path, node in reversed(list(game.tree.walk())):
        report = reports[path]
        if report.value is None:
            known[path] = unknown
            continue
        if node.is_leaf:
            known[path] = (report.value, report.value)
        else:
            children = [known[(*path, i)] for i in range(len(node.children))]
            if node.chance:
                weights = [child.probability or 0.0 for child in node.children]
                known[path] = (
                    sum(p * low for p, (low, _) in zip(weights, children, strict=True)),
                    sum(p * high for p, (_, high) in zip(weights, children, strict=True)),
                )
            else:
                pick = max if game.movers[path] == "MAX" else min
                known[path] = (pick(c[0] for c in children), pick(c[1] for c in children))
        low, high = known[path]
        report.bound = (
            Bound.EXACT
            if low == high
            else _bound(report.value, report.alpha_in, report.beta_in, (low, high))
        )


def default_algorithm(tree: Node) -> str:
    """alphabeta, or expectiminimax for a tree with chance nodes."""
    return "expectiminimax" if tree.has_chance else "alphabeta"


def leaf_bounds(tree: Node, bounds: tuple[float, float] | None = None) -> tuple[float, float]:
    """Star1's bounds on leaf values: ``bounds`` checked against every leaf, else the leaves'
    range; :class:`TreeError` for bounds that are not finite, reversed, or miss a leaf."""
    leaves = [(n.label, n.value) for _, n in tree.leaves() if n.value is not None]
    if bounds is None:
        values = [value for _, value in leaves]
        return min(values), max(values)
    lower, upper = bounds
    if not (math.isfinite(lower) and math.isfinite(upper) and lower <= upper):
        raise TreeError(
            f"tree: bounds [{number(lower)}, {number(upper)}] must be finite, lower <= upper"
        )
    for label, value in leaves:
        if not lower <= value <= upper:
            raise TreeError(
                f"tree: leaf {label} = {number(value)} lies outside the bounds "
                f"[{number(lower)}, {number(upper)}]"
            )
    return lower, upper


def analyse_tree(
    tree: Node,
    algorithm: str | None = None,
    *,
    strict: bool = False,
    root: str | None = None,
    layers: Sequence[str] | None = None,
    order: str = "ltr",
    bounds: tuple[float, float] | None = None,
) -> TreeReport:
    """Search ``tree`` with a textbook algorithm and report every node.

    The algorithm is a name of :data:`plies.search.ALGORITHMS`, by default
    :func:`default_algorithm`'s. ``strict`` is alpha-beta's pruning rule; ``bounds`` are
    Star1's bounds on leaf values (default: the leaves' range, see :func:`leaf_bounds`).
    Who moves is the tree game's rule: ``root`` (MAX by default) then the other player
    alternating, or the ``layers``' movers repeated from the root, such as CS188's
    ``("MAX", "MIN", "MIN")``, and any node's own ``player``. ``order`` "rtl" searches
    children right to left; paths, labels and leaf indices stay those of the written tree.
    Values are MAX's.

    >>> from plies.games.tree import parse_tree
    >>> ghosts = analyse_tree(parse_tree("[[[3, 9], [8, 2]], [[4, 7], [1, 5]]]"),
    ...                       layers=("MAX", "MIN", "MIN"))
    >>> ghosts.value, ghosts.pruned_leaves
    (2, (7,))
    """
    algorithm = algorithm or default_algorithm(tree)
    if algorithm not in ALGORITHMS:
        raise SpecError(f"unknown algorithm {algorithm!r} (algorithms: {', '.join(ALGORITHMS)})")
    if strict and algorithm == "star1":
        raise SpecError(
            "strict pruning is an alpha-beta option; star1 prunes by the lectures' rule"
        )
    if bounds is not None and algorithm != "star1":
        raise SpecError(f"bounds on leaf values are for star1, not {algorithm}")
    game = tree_game(tree, root, layers=layers, order=order)
    options: dict[str, Any] = {}
    if algorithm == "alphabeta":
        options["strict"] = strict
    elif algorithm == "star1":
        options["bounds"] = bounds = leaf_bounds(tree, bounds)
    result = ALGORITHMS[algorithm](game, (), max_player="MAX", trace=True, **options)
    trace = result.trace or ()
    reports = _node_reports(game)
    branches = _read_trace(game, trace, reports)
    _prove_bounds(game, reports, (-math.inf, math.inf) if bounds is None else bounds)
    return TreeReport(
        tree=tree,
        algorithm=algorithm,
        rule=result.rule,
        root=game.root,
        value=result.value,
        pv=tuple(result.pv),
        nodes=tuple(reports.values()),  # depth first, left to right
        pruned_branches=branches,
        stats=result.stats,
        trace=trace,
        bounds=bounds,
        layers=game.layers,
        order=order,
    )


# Output ------------------------------------------------------------------------------------


def number(value: float | None) -> str:
    """A value as people write it: 3 not 3.0, 10 significant digits (2.8 not
    2.8000000000000003, 1/6 as 0.1666666667), and the infinities as -inf/+inf."""
    if value is None:
        return ""
    if math.isinf(value):
        return "+inf" if value > 0 else "-inf"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return f"{value:.10g}" if isinstance(value, float) else str(value)


def _json_number(value: float | None) -> float | str | None:
    if value is None:
        return None
    return number(value) if math.isinf(value) else value


def probability_text(probability: float) -> str:
    """A probability as people write it: 0.5, 0.25, and 1/6 rather than 0.16666666666666666."""
    text = number(probability)
    if len(text) <= 6:
        return text
    fraction = Fraction(probability).limit_denominator(1000)
    return f"{fraction}" if float(fraction) == probability else text


def expectation_text(report: TreeReport, node: NodeReport) -> str:
    """A chance node's true value as its weighted sum: ``B = 1/2*3 + 1/2*2 = 2.5``."""
    terms = [
        f"{probability_text(child.probability or 0.0)}*{number(child.minimax)}"
        for child in report.children(node.path)
    ]
    return f"{node.label} = {' + '.join(terms)} = {number(node.minimax)}"


def bounds_text(report: TreeReport) -> str:
    """What Star1 prunes at chance nodes, and with which bounds; "" for other algorithms."""
    if report.bounds is None:
        return ""
    lower, upper = (number(b) for b in report.bounds)
    return (
        f"chance nodes stop once their expected value is known to be <= alpha or >= beta, "
        f"with leaf values in [{lower}, {upper}]"
    )


def rule_text(rule: str | None) -> str:
    if rule == NON_STRICT:
        return "non-strict pruning: stop when v >= beta at MAX, v <= alpha at MIN"
    if rule == STRICT:
        return "strict pruning: stop only when v > beta at MAX, v < alpha at MIN"
    return "no pruning"


def report_json(report: TreeReport) -> dict[str, Any]:
    """The ``plies tree --json`` object; infinite alpha/beta are written "-inf" / "+inf"."""
    return {
        "algorithm": report.algorithm,
        "rule": report.rule or NON_STRICT,
        "root": report.root,
        "layers": list(report.layers),
        "order": report.order,
        "value": report.value,
        "best_path": list(report.best_path),
        "best_path_labels": report.labels(report.best_path),
        "pv": list(report.pv),
        "pv_labels": report.labels(report.pv),
        "pruned_leaves": list(report.pruned_leaves),
        "pruned_leaf_labels": report.pruned_leaf_labels,
        "pruned_subtrees": [
            {
                "at": list(b.path),
                "at_label": report.node(b.path).label,
                "value": b.value,
                "alpha": _json_number(b.alpha),
                "beta": _json_number(b.beta),
                "skipped": [list(p) for p in b.skipped],
                "skipped_labels": [report.node(p).label for p in b.skipped],
            }
            for b in report.pruned_branches
        ],
        "leaf_count": report.leaf_count,
        "node_count": len(report.nodes),
        "nodes_visited": report.stats.nodes,
        "leaves_evaluated": report.stats.leaves,
        "cutoffs": report.stats.cutoffs,
        "visit_order": [n.label for n in report.visit_order],
        "bounds": None if report.bounds is None else list(report.bounds),
        "chance_nodes": sum(1 for n in report.nodes if n.player == CHANCE),
        "nodes": [
            {
                "label": n.label,
                "path": list(n.path),
                "player": n.player,
                "minimax": n.minimax,
                "value": n.value,
                "bound": n.bound,
                "visited": n.visit is not None,
                "visit": n.visit,
                "pruned": n.pruned,
                "leaf_index": n.leaf_index,
                "alpha_in": _json_number(n.alpha_in),
                "beta_in": _json_number(n.beta_in),
                "alpha_out": _json_number(n.alpha_out),
                "beta_out": _json_number(n.beta_out),
                "kind": _kind(n),
                "probability": n.probability,
            }
            for n in report.nodes
        ],
    }


def _kind(node: NodeReport) -> str:
    """decision, chance or leaf."""
    return node.player if node.player in ("leaf", CHANCE) else "decision"


def searched_text(node: NodeReport) -> str:
    """The searched value with its bound: ``3``, ``<=2``, ``>=5``, or ``pruned``."""
    if node.pruned:
        return "pruned"
    if node.value is None:
        return "-"
    prefix = {Bound.EXACT: "", Bound.LOWER: ">=", Bound.UPPER: "<="}[node.bound or Bound.EXACT]
    return prefix + number(node.value)


def trace_lines(report: TreeReport) -> list[str]:
    """The trace as indented lines, one event each, leaves' Enter events left out (their
    Leaf event follows)."""
    return [
        "  " * (len(event.path) + isinstance(event, Cutoff)) + event_text(report, event)
        for event in report.trace
        if not (isinstance(event, Enter) and report.node(event.path).player == "leaf")
    ]


def _window_text(alpha: float | None, beta: float | None) -> str:
    return "" if alpha is None else f"alpha={number(alpha)} beta={number(beta)}"


def event_text(report: TreeReport, event: TraceEvent) -> str:
    """One event of ``report.trace`` in words: ``enter C (MIN) alpha=3 beta=+inf``,
    ``leaf c1 = 2``, ``cutoff at C: v=2 <= alpha=3, prune c2, c3``, ``C = 2 via c1 (...)``,
    ``B = 1/2*3 + 1/2*2 = 2.5 (expected value)``; a leaf's Enter reads ``enter c1 (leaf)``."""
    node = report.node(event.path)
    if isinstance(event, Enter):
        window = _window_text(event.alpha, event.beta)
        return f"enter {node.label} ({node.player})" + (f" {window}" if window else "")
    if isinstance(event, Leaf):
        return f"leaf {node.label} = {number(event.value)}"
    if isinstance(event, Cutoff):
        return f"cutoff at {node.label}: {cutoff_test(report, event)}, prune " + ", ".join(
            report.node((*event.path, a)).label for a in event.skipped
        )
    window = _window_text(event.alpha, event.beta)
    window = f" ({window})" if window else ""
    if isinstance(event, Backup):
        best = report.node((*event.path, event.action)).label
        return f"{node.label} = {number(event.value)} via {best}{window}"
    if node.bound != Bound.EXACT:
        test = "<=" if node.bound == Bound.UPPER else ">="
        return f"{node.label} {test} {number(event.value)} (bound on the expected value){window}"
    terms = " + ".join(
        f"{probability_text(child.probability or 0.0)}*{number(child.value)}"
        for child in report.children(event.path)
    )
    return f"{node.label} = {terms} = {number(event.value)} (expected value){window}"


def cutoff_test(report: TreeReport, cutoff: Cutoff) -> str:
    """The test that stopped a node: ``v=2 <= alpha=3`` (``<`` under the strict rule), or at a
    chance node ``expected value <= 1.5 <= alpha=2``."""
    if cutoff.player == CHANCE:
        low = cutoff.value <= cutoff.alpha
        test, bound, limit = ("<=", "alpha", cutoff.alpha) if low else (">=", "beta", cutoff.beta)
        return f"expected value {test} {number(cutoff.value)} {test} {bound}={number(limit)}"
    test = ">=" if cutoff.player == "MAX" else "<="
    if report.rule == STRICT:
        test = test[0]
    bound = "beta" if cutoff.player == "MAX" else "alpha"
    limit = cutoff.beta if cutoff.player == "MAX" else cutoff.alpha
    return f"v={number(cutoff.value)} {test} {bound}={number(limit)}"


# The trace replayed ------------------------------------------------------------------------


@dataclass(frozen=True)
class Shown:
    """One node as the lecture's board shows it after an event: its value so far (None before
    any), the bound that value is once backed up (None while the node is searched), and its
    alpha and beta (None for minimax and expectiminimax)."""

    path: Path
    value: float | None
    bound: Bound | None
    alpha: float | None
    beta: float | None


@dataclass(frozen=True)
class Step:
    """One event of the trace: the event, its text, and the nodes whose board entry it changes
    (the event's node, and its parent when a value comes back to it)."""

    event: TraceEvent
    text: str
    shown: tuple[Shown, ...]


def steps(report: TreeReport) -> tuple[Step, ...]:
    """The trace replayed on the lecture's board, one step per event of ``report.trace``
    (leaves' Enter events included, unlike :func:`trace_lines`).

    A decision node searching its children shows v of Figure 5.7's loop, the best value come
    back so far, and the window it passes on: alpha raised to v at MAX, beta lowered to v at
    MIN. A chance node shows its value once it is backed up.
    """
    board: dict[Path, Shown] = {}
    replay = []
    for event in report.trace:
        changed = [_shown_after(report, event, board)]
        if isinstance(event, Leaf | Backup | Expectation) and event.path:
            parent = board[event.path[:-1]]
            if report.node(parent.path).player in DECIDERS:
                changed.append(_running(report.node(parent.path).player, parent, event.value))
        board.update((shown.path, shown) for shown in changed)
        replay.append(Step(event, event_text(report, event), tuple(changed)))
    return tuple(replay)


def _shown_after(report: TreeReport, event: TraceEvent, board: dict[Path, Shown]) -> Shown:
    """The event's own node after it."""
    if isinstance(event, Enter):
        return Shown(event.path, None, None, event.alpha, event.beta)
    if isinstance(event, Leaf):
        entered = board[event.path]
        return Shown(event.path, event.value, Bound.EXACT, entered.alpha, entered.beta)
    bound = None if isinstance(event, Cutoff) else report.node(event.path).bound
    return Shown(event.path, event.value, bound, event.alpha, event.beta)


def _running(player: str, parent: Shown, value: float) -> Shown:
    """A MAX or MIN node once a child's ``value`` came back: v = max(v, value) and
    alpha = max(alpha, v) at MAX, the mirror image at MIN (AIMA Figure 5.7)."""
    pick = max if player == "MAX" else min
    v = value if parent.value is None else pick(parent.value, value)
    alpha, beta = parent.alpha, parent.beta
    if alpha is not None and beta is not None:
        alpha, beta = (max(alpha, v), beta) if player == "MAX" else (alpha, min(beta, v))
    return Shown(parent.path, v, None, alpha, beta)
