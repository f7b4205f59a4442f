"""What a search returns: the value, the best action, the line, statistics and the trace."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

A = TypeVar("A")

Path = tuple[Any, ...]
"""A node's place in the search tree: the actions from the root that lead to it."""


@dataclass
class SearchStats:
    """Counters every search keeps; the lectures' node-count tables are built from them."""

    nodes: int = 0
    """Nodes visited: calls of MAX-VALUE / MIN-VALUE, the root included."""
    leaves: int = 0
    """Leaves evaluated: terminal states (UTILITY) and cut-off states (EVAL)."""
    cutoffs: int = 0
    """Nodes whose search stopped early with at least one child left unexamined."""
    max_depth: int = 0
    """Deepest ply reached below the root."""
    time: float = 0.0
    """Wall-clock seconds."""


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
    """Per root move, MCTS: visits and mean value for the player to move at the root."""

    action: Any
    visits: int
    value: float


@dataclass(frozen=True)
class SearchResult(Generic[A]):
    """The outcome of a search.

    ``value`` is from ``max_player``'s point of view, as the lectures keep it; ``action`` is the
    move chosen at the root (None when the root is a leaf) and ``pv`` the principal variation
    starting with it. ``trace`` holds the events in order when the search was asked for them.
    """

    value: float
    action: A | None
    pv: tuple[A, ...]
    stats: SearchStats
    algorithm: str
    max_player: str
    rule: str | None = None
    depth_limit: int | None = None
    score: float | None = None
    """The engine's score (mover's view, wins by distance); None for the textbook tier."""
    note: str | None = None
    """How the move was chosen, in a line, when the search has more to say (e.g. a solver
    that ran out of time and fell back on another search)."""
    values: tuple[float, ...] | None = None
    """Every player's value, in the order of the game's ``players``, for searches that back up
    a vector (max^n); None for the others, whose ``value`` is ``max_player``'s alone."""
    trace: tuple[TraceEvent, ...] | None = field(default=None, repr=False)
    root: tuple[RootMove, ...] | None = None
    """MCTS: every root move searched, most visited first."""
