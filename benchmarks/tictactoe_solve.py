"""Tic-tac-toe solved from the empty board by each tier: value, nodes and time.

Usage (from the repository root)::

    PYTHONPATH=src .venv/bin/python benchmarks/tictactoe_solve.py
"""

from __future__ import annotations

import sys

from plies.games import make_game
from plies.search import alphabeta, minimax
from plies.search.engine import EngineOptions, iterate


def main() -> int:
    game = make_game("tictactoe")
    start = game.initial_state()
    print(f"{'search':<44} {'value':>5} {'nodes':>9} {'seconds':>8}")
    for name, run in (("minimax (textbook)", minimax), ("alpha-beta (textbook)", alphabeta)):
        result = run(game, start)
        print(f"{name:<44} {result.value:>5g} {result.stats.nodes:>9,} {result.stats.time:>8.3f}")
    for name, options in (
        ("engine, all refinements", EngineOptions()),
        ("engine, no table", EngineOptions(tt_mb=0)),
        ("engine, no table, no ordering", EngineOptions(tt_mb=0, ordering=False, pvs=False)),
    ):
        final = list(iterate(game, start, options=options))[-1]
        label = f"{name} (to depth {final.depth})"
        print(f"{label:<44} {final.value:>5g} {final.nodes:>9,} {final.time:>8.3f}")
        if not final.solved:
            print("  not solved", file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
