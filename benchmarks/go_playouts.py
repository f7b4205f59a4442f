"""Go playouts a second per core, uniform (the compiled playout behind ``Go.random_playout``)
and with the informed policy of the compiled tree (MoGo's rules at their default rates), and
MCTS iterations a second on the same boards: compiled with the default knowledge and RAVE,
compiled with uniform playouts and no priors, compiled without RAVE, and the Python tree.

Usage (from the repository root)::

    PYTHONPATH=src .venv/bin/python benchmarks/go_playouts.py [--playouts 20000] [--seconds 5]

Each playout starts from the empty board (the longest), through a Python call each (about 5 us
included), then in one compiled loop as the tree runs them (the best of three); each search
starts from the empty board with a fresh tree. Every figure is one process on one core.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from typing import Any

import numpy as np

from plies.games.go import kernel
from plies.games.go.knowledge import KNOWLEDGE, PLAYOUT_RULES
from plies.games.go.patterns import pattern_table
from plies.games.go.rules import Go
from plies.search.mcts import MCTS

UNIFORM = {"capture": 0.0, "pattern": 0.0, "selfatari": 0.0, "prior": 0.0}
SEARCHES: tuple[tuple[str, dict[str, Any]], ...] = (
    ("compiled (default)", {}),
    ("compiled, uniform", {"knowledge": UNIFORM}),
    ("compiled, no RAVE", {"rave": 0}),
    ("Python tree", {"native": False}),
)
INFORMED = np.array([KNOWLEDGE[rule] for rule in PLAYOUT_RULES], np.float64)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--playouts", type=int, default=20_000)
    parser.add_argument("--seconds", type=float, default=5.0, help="each search's time")
    args = parser.parse_args()
    print(
        f"{'board':<7} {'playouts':<9} {'a call each/s':>13} {'black wins':>10} {'one loop/s':>10}"
    )
    for size, komi in ((9, 7.5), (13, 7.5), (19, 7.5)):
        game = Go(size=size, komi=komi)
        count = args.playouts if size == 9 else args.playouts // 4
        for policy in ("uniform", "informed"):
            rate, wins = _playouts(game, count, policy)
            loop = _compiled_loop(game, count, policy)
            print(f"{size}x{size:<4} {policy:<9} {rate:>13,.0f} {wins:>10.1%} {loop:>10,.0f}")
    print(f"\n{'board':<7} {'search':<18} {'iterations/s':>12} {'deepest':>7}")
    for size in (9, 13, 19):
        game = Go(size=size)
        for name, options in SEARCHES:
            mcts = MCTS(game, seed=1, **options)
            result = mcts.search(game.initial_state(), seconds=args.seconds)
            rate = result.stats.iterations / result.stats.time
            print(f"{size}x{size:<4} {name:<18} {rate:>12,.0f} {result.stats.max_depth:>7}")


def _compiled_loop(game: Go, count: int, policy: str) -> float:
    """Playouts a second from the empty board in one compiled loop (as the tree runs them, with
    each point's owner counted too), the best of three runs."""
    board = kernel.board_for(game.size)
    empty = np.zeros(game.size * game.size, np.uint8)
    owners = np.zeros(game.size * game.size)
    rates = kernel.UNIFORM if policy == "uniform" else INFORMED
    table = pattern_table()
    kernel.playouts(board, empty, 1, 0, rates, table, 10, 1, owners)  # compile or load
    best = 0.0
    for run in range(3):
        started = time.perf_counter()
        kernel.playouts(board, empty, 1, 0, rates, table, count, 2 * run + 1, owners)
        best = max(best, count / (time.perf_counter() - started))
    return best


def _playouts(game: Go, count: int, policy: str) -> tuple[float, float]:
    """Playouts a second from the empty board under ``policy``, and black's share of wins."""
    empty = np.zeros(game.size * game.size, np.uint8)
    rng = random.Random(1)
    if policy == "uniform":
        game.random_playout(game.initial_state(), rng)  # compile or load
        started = time.perf_counter()
        results = [game.random_playout(game.initial_state(), rng)[0] for _ in range(count)]
    else:
        table = pattern_table()
        kernel.random_playout(empty, game.size, 1, 0, game.komi, 1, INFORMED, table)
        started = time.perf_counter()
        results = [
            kernel.random_playout(
                empty, game.size, 1, 0, game.komi, rng.getrandbits(63) | 1, INFORMED, table
            )
            for _ in range(count)
        ]
    rate = count / (time.perf_counter() - started)
    return rate, statistics.mean(r > 0 for r in results)


if __name__ == "__main__":
    main()
