"""The engine's ladder of refinements, measured: nodes and time to a fixed depth.

For each game with an evaluation, the same positions (seeded random playouts) are searched to a
fixed depth by iterative deepening with the refinements switched on one after another, in the
spirit of Pascal Pons's Connect Four ladder: plain alpha-beta (game order, no table), + move
ordering, + transposition table, + PVS, + aspiration windows. Values must not change along the
ladder (checked); nodes and seconds are summed over the positions.

Usage (from the repository root)::

    PYTHONPATH=src .venv/bin/python benchmarks/engine_ladder.py [--positions 20]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from typing import Any

from plies.game import Game
from plies.games import make_game
from plies.search.engine import EngineOptions, Limits, iterate

DEPTHS = {"connect4": 8, "othello": 6, "checkers": 8, "tictactoe:m=4,n=4,k=3": 6}

LADDER: list[tuple[str, EngineOptions]] = [
    ("alpha-beta", EngineOptions(tt_mb=0, pvs=False, ordering=False, quiescence=False)),
    ("+ ordering", EngineOptions(tt_mb=0, pvs=False, ordering=True, quiescence=False)),
    ("+ table", EngineOptions(tt_mb=16, pvs=False, ordering=True, quiescence=False)),
    ("+ PVS", EngineOptions(tt_mb=16, pvs=True, ordering=True, quiescence=False)),
    ("+ aspiration", EngineOptions(tt_mb=16, pvs=True, aspiration=True, quiescence=False)),
    ("aspiration, no PVS", EngineOptions(tt_mb=16, pvs=False, aspiration=True, quiescence=False)),
]


def positions(game: Game[Any, Any], count: int, seed: int) -> list[Any]:
    """Positions 4 to 20 random plies into seeded games, non-terminal."""
    rng = random.Random(seed)
    found: list[Any] = []
    while len(found) < count:
        state = game.initial_state()
        for _ in range(rng.randrange(4, 21)):
            if game.is_terminal(state):
                break
            state = game.result(state, rng.choice(list(game.actions(state))))
        if not game.is_terminal(state):
            found.append(state)
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=20)
    args = parser.parse_args()
    mismatches = 0
    for spec, depth in DEPTHS.items():
        game = make_game(spec)
        states = positions(game, args.positions, seed=1)
        print(f"\n{spec}: {len(states)} positions, depth {depth}")
        print(f"{'variant':<20} {'nodes':>12} {'seconds':>9} {'nodes/s':>9} {'vs plain':>9}")
        baseline_values: list[float] | None = None
        baseline_nodes = 0
        for name, options in LADDER:
            nodes, started, values = 0, time.perf_counter(), []
            for state in states:
                final = list(iterate(game, state, Limits(depth=depth), options))[-1]
                nodes += final.stats.nodes
                values.append(final.value)
            seconds = time.perf_counter() - started
            if baseline_values is None:
                baseline_values, baseline_nodes = values, nodes
            elif values != baseline_values:
                mismatches += 1
                print(f"  VALUES DIFFER from plain alpha-beta for {name}")
            print(
                f"{name:<20} {nodes:>12,} {seconds:>9.2f} {nodes / seconds:>9,.0f} "
                f"{nodes / baseline_nodes:>9.3f}"
            )
            sys.stdout.flush()
    return 1 if mismatches else 0


if __name__ == "__main__":
    sys.exit(main())
