"""Search algorithms: pure functions of (game, state, limits) returning a SearchResult; this
package is their public API (front ends import searches from here, not from its modules)."""

from plies.search.engine import EngineOptions, Limits, TranspositionTable, iterate, prepare
from plies.search.expectimax import expectiminimax, star1
from plies.search.ismcts import ISMCTS
from plies.search.maxn import maxn, paranoid
from plies.search.mcts import MCTS, declared_bounds, winning_chance
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
    "ISMCTS",
    "MCTS",
    "NON_STRICT",
    "STRICT",
    "Backup",
    "Cutoff",
    "EngineOptions",
    "Enter",
    "Expectation",
    "Leaf",
    "Limits",
    "RootMove",
    "SearchResult",
    "SearchStats",
    "TraceEvent",
    "TranspositionTable",
    "alphabeta",
    "declared_bounds",
    "expectiminimax",
    "iterate",
    "maxn",
    "minimax",
    "paranoid",
    "prepare",
    "star1",
    "winning_chance",
]
