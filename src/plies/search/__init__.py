"""Search algorithms: pure functions of (game, state, limits) returning a SearchResult."""

from plies.search.result import (
    Backup,
    Cutoff,
    Enter,
    Leaf,
    SearchResult,
    SearchStats,
    TraceEvent,
)
from plies.search.textbook import ALGORITHMS, NON_STRICT, STRICT, alphabeta, minimax

__all__ = [
    "ALGORITHMS",
    "NON_STRICT",
    "STRICT",
    "Backup",
    "Cutoff",
    "Enter",
    "Leaf",
    "SearchResult",
    "SearchStats",
    "TraceEvent",
    "alphabeta",
    "minimax",
]
