"""Random Go playouts a second (the compiled playout behind ``Go.random_playout``), per core,
and MCTS iterations a second on the same boards: compiled with RAVE (the default), compiled
without, and the Python tree.

Usage (from the repository root)::

    PYTHONPATH=src .venv/bin/python benchmarks/go_playouts.py [--playouts 20000] [--seconds 5]

Each playout starts from the empty board (the longest), through the game's capability, so the
Python call (about 5 us) is included; each search starts from the empty board with a fresh
tree. Every figure is one process on one core.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from typing import Any

from plies.games.go.rules import Go
from plies.search.mcts import MCTS

SEARCHES: tuple[tuple[str, dict[str, Any]], ...] = (
    ("compiled, RAVE", {}),
    ("compiled, no RAVE", {"rave": 0}),
    ("Python tree", {"native": False}),
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--playouts", type=int, default=20_000)
    parser.add_argument("--seconds", type=float, default=5.0, help="each search's time")
    args = parser.parse_args()
    print(f"{'board':<7} {'playouts/s':>11} {'black wins':>10}")
    for size, komi in ((9, 7.5), (13, 7.5), (19, 7.5)):
        game = Go(size=size, komi=komi)
        rng = random.Random(1)
        game.random_playout(game.initial_state(), rng)  # compile or load
        count = args.playouts if size == 9 else args.playouts // 4
        started = time.perf_counter()
        results = [game.random_playout(game.initial_state(), rng)[0] for _ in range(count)]
        rate = count / (time.perf_counter() - started)
        wins = statistics.mean(r > 0 for r in results)
        print(f"{size}x{size:<4} {rate:>11,.0f} {wins:>10.1%}")
    print(f"\n{'board':<7} {'search':<18} {'iterations/s':>12} {'deepest':>7}")
    for size in (9, 19):
        game = Go(size=size)
        for name, options in SEARCHES:
            mcts = MCTS(game, seed=1, **options)
            result = mcts.search(game.initial_state(), seconds=args.seconds)
            rate = result.stats.iterations / result.stats.time
            print(f"{size}x{size:<4} {name:<18} {rate:>12,.0f} {result.stats.max_depth:>7}")


if __name__ == "__main__":
    main()
