"""Search algorithms: pure functions of (game, state, limits) returning a SearchResult."""

from plies.search.expectimax import expectiminimax, star1
from plies.search.maxn import maxn, paranoid
from plies.search.result import (
    Backup,
    Cutoff,
    Enter,
    Expectation,
    Leaf,
    RootMove,
    SearchResult,
    SearchStats,
    TraceEvent,
)
from plies.search.textbook import ALGORITHMS, NON_STRICT, STRICT, alphabeta, minimax

ALGORITHMS.update(expectiminimax=expectiminimax, star1=star1)
"""The textbook tier by CLI name: minimax and alphabeta, expectiminimax and star1."""

__all__ = [
    "ALGORITHMS",
    "NON_STRICT",
    "STRICT",
    "Backup",
    "Cutoff",
    "Enter",
    "Expectation",
    "Leaf",
    "RootMove",
    "SearchResult",
    "SearchStats",
    "TraceEvent",
    "alphabeta",
    "expectiminimax",
    "maxn",
    "minimax",
    "paranoid",
    "star1",
]
