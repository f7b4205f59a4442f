"""What a search returns: the value, the best action, the line, statistics and the trace."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Generic, TypeVar

A = TypeVar("A")

MATE = 1000.0
"""The engine's score of a win at the root; each ply to it costs 1. Evaluations stay inside
(-1, 1)."""


class Bound(StrEnum):
    """What a searched value says about the true one: exact, or a lower or upper bound (a
    fail-high or fail-low of alpha-beta). The one name of each, for the engine's table, the
    tree reports and their JSON (``"exact"``, ``"lower"``, ``"upper"``)."""

    EXACT = "exact"
    LOWER = "lower"
    UPPER = "upper"


Path = tuple[Any, ...]
"""A node's place in the search tree: the actions from the root that lead to it."""


@dataclass
class SearchStats:
    """Counters every search keeps; the lectures' node-count tables are built from them."""

    nodes: int = 0
    """Positions searched: calls of MAX-VALUE / MIN-VALUE (the root included) in the textbook
    tier, of the negamax and quiescence searches in the engine, positions added to the tree
    (RESULT computed) in MCTS, recursive calls in the Connect Four solver."""
    leaves: int = 0
    """Leaves evaluated: terminal states (UTILITY) and cut-off states (EVAL); MCTS: evaluator
    calls (playouts)."""
    cutoffs: int = 0
    """Nodes whose search stopped early with at least one child left unexamined."""
    max_depth: int = 0
    """Deepest ply reached below the root (the engine's selective depth)."""
    time: float = 0.0
    """Wall-clock seconds."""
    iterations: int = 0
    """MCTS: iterations run (SELECT, EXPAND, SIMULATE, BACK-PROPAGATE); 0 for the others."""


@dataclass(frozen=True)
class Enter:
    """The search entered a node; alpha and beta are None for minimax."""

    path: Path
    player: str
    alpha: float | None
    beta: float | None


@dataclass(frozen=True)
class Leaf:
    """A leaf was evaluated: UTILITY at a terminal state, EVAL at a cut-off one."""

    path: Path
    value: float
    terminal: bool


@dataclass(frozen=True)
class Cutoff:
    """A node stopped early: ``value >= beta`` at MAX or ``value <= alpha`` at MIN (strict: > / <).

    ``skipped`` are the actions of the children never examined, in order. At a chance node
    (Star1, ``player`` CHANCE) ``value`` is the bound on the expectation that crossed the window:
    an upper bound ``<= alpha`` or a lower bound ``>= beta``.
    """

    path: Path
    player: str
    value: float
    alpha: float
    beta: float
    skipped: tuple[Any, ...]


@dataclass(frozen=True)
class Backup:
    """A node's value was backed up to its parent; alpha and beta are their values on leaving."""

    path: Path
    value: float
    action: Any
    alpha: float | None
    beta: float | None


@dataclass(frozen=True)
class Expectation:
    """A chance node's value was backed up: the probability-weighted sum of its children's
    values, or (Star1, after a cutoff there) the bound that stopped it. alpha and beta are the
    node's window, None for expectiminimax."""

    path: Path
    value: float
    alpha: float | None
    beta: float | None


TraceEvent = Enter | Leaf | Cutoff | Backup | Expectation


@dataclass(frozen=True)
class RootMove:
    """Per root move, MCTS and PUCT: visits and mean value for the player to move at the root,
    and PUCT's prior (the network's probability of the move; None for MCTS)."""

    action: Any
    visits: int
    value: float
    prior: float | None = None


@dataclass(frozen=True)
class VisitNode:
    """A node of a Monte Carlo search tree as the search left it: the ``action`` that reaches
    it, its ``visits``, its mean ``value`` for the player who chose the action, whether the
    solver ``proved`` that value exact, and its most visited children (first levels only)."""

    action: Any
    visits: int
    value: float
    proved: bool
    children: tuple[VisitNode, ...]


@dataclass(frozen=True)
class SearchResult(Generic[A]):
    """The outcome of a search, the same type for every search (and for every iteration of the
    engine's iterative deepening, which yields one per iteration).

    Points of view: ``value`` is on the game's utility scale from ``max_player``'s point of
    view. The textbook tier keeps the lectures' MAX (the root's mover unless told otherwise);
    the engine, MCTS and the perfect agent report for the player to move at the root, so for
    them ``max_player`` is that player. ``score`` (engine) and ``solver_score`` (perfect solver)
    are always the root mover's.
    """

    value: float
    """From ``max_player``'s point of view, on the game's utility scale (NaN when the engine
    was stopped before it could score any move)."""
    action: A | None
    """The move chosen at the root (None when the root is a leaf)."""
    pv: tuple[A, ...]
    """The principal variation, starting with ``action``."""
    stats: SearchStats
    algorithm: str
    max_player: str
    rule: str | None = None
    """The pruning rule of alpha-beta searches: ``"non-strict"`` or ``"strict"``."""
    depth: int | None = None
    """The depth (plies) to which every line was searched: the depth limit of the textbook
    tier (None: to the end of the game), the last completed iteration of the engine; None for
    MCTS and the perfect solver, which have no such depth."""
    score: float | None = None
    """The engine's score: the root mover's, in engine units (evaluations inside (-1, 1), a
    win ``d`` plies away ``1000 - d``); None for the other searches."""
    solver_score: int | None = None
    """The perfect solver's score of the root (its own convention, e.g. Pons's for Connect
    Four: the root mover's view); None for the searches."""
    complete: bool = True
    """False when a limit cut the engine's last iteration short (its move is then the last
    completed iteration's, or one the cut-short iteration proved better)."""
    solved: bool = False
    """True when ``value`` is the game-theoretic value: every line was searched to the end of
    the game (or the solver or MCTS-Solver proved it)."""
    note: str | None = None
    """How the move was chosen, in a line, when the search has more to say (e.g. a solver
    that ran out of time and fell back on another search)."""
    values: tuple[float, ...] | None = None
    """Every player's value, in the order of the game's ``players``, for searches that back up
    a vector (max^n); None for the others, whose ``value`` is ``max_player``'s alone."""
    trace: tuple[TraceEvent, ...] | None = field(default=None, repr=False)
    root: tuple[RootMove, ...] | None = None
    """MCTS and PUCT: every root move searched, most visited first."""
    tree: tuple[VisitNode, ...] | None = None
    """MCTS: the first levels of its tree below the root, most visited first, when asked for
    (:meth:`plies.search.mcts.MCTS.visit_tree`)."""
    move_scores: tuple[tuple[A, int], ...] | None = None
    """The perfect solver: the exact score of each root move it solved within its budget (its
    own convention, the root mover's view)."""

    @property
    def nps(self) -> float:
        """Nodes per second."""
        return self.stats.nodes / self.stats.time if self.stats.time > 0 else 0.0

    @property
    def mate(self) -> int | None:
        """The engine's forced result: plies to a won (+) or lost (-) end of the game; None
        without a forced result (or from another search)."""
        if self.score is None or not abs(self.score) >= 1:
            return None
        return int(math.copysign(MATE - math.ceil(abs(self.score)), self.score))

    @property
    def mate_moves(self) -> int | None:
        """:attr:`mate` in moves of the side to move, as chess counts them (mate in N: N > 0;
        mated in N: -N); None without a forced result."""
        plies = self.mate
        if plies is None:
            return None
        return (plies + 1) // 2 if plies > 0 else -(-plies // 2)
