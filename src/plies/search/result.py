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

    ``skipped`` are the actions of the children never examined, in order.
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


TraceEvent = Enter | Leaf | Cutoff | Backup


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
    trace: tuple[TraceEvent, ...] | None = field(default=None, repr=False)
