"""The arena's overhead and scaling: tic-tac-toe games per second between two cheap agents,
every game written to the SQLite record, in this process and with 2 worker processes; then a
CPU-bound pairing (Connect Four, engine:depth=4 against mcts:iterations=300) with 1 and 2
workers, and the speed-up.

Prints games, seconds and games per second for each (the first measures the schedule, the
record and the process pool: the agents are a random player and alpha-beta to depth 1, which
cost microseconds a move).

Usage (from the repository root)::

    PYTHONPATH=src .venv/bin/python benchmarks/arena_overhead.py [--games 4000] [--cpu-games 120]
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from plies.arena.records import Records
from plies.arena.tournament import run, schedule


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4000)
    parser.add_argument("--cpu-games", type=int, default=120)
    args = parser.parse_args()
    print(f"{'pairing':<40} {'workers':>7} {'games':>6} {'seconds':>8} {'games/s':>8}")
    cheap = ("tictactoe", ["random", "alphabeta:depth=1"], args.games)
    bound = ("connect4", ["engine:depth=4", "mcts:iterations=300"], args.cpu_games)
    for game, specs, games in (cheap, bound):
        rates = []
        for concurrency in (1, 2):
            planned = schedule(game, specs, games=games, openings=[""], seed=1)
            with tempfile.TemporaryDirectory() as folder:
                records = Records(Path(folder) / "t.sqlite", game)
                began = time.perf_counter()
                played = sum(1 for _ in run(records, planned, concurrency))
                seconds = time.perf_counter() - began
                assert played == len(records.games()) == games
                records.close()
            rates.append(played / seconds)
            label = f"{game}: {' vs '.join(specs)}"
            print(f"{label:<40} {concurrency:>7} {played:>6} {seconds:>8.2f} {rates[-1]:>8.1f}")
        print(f"{'':<40} speed-up with 2 workers: {rates[1] / rates[0]:.2f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
