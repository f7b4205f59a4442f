"""The arena's overhead and scaling: tic-tac-toe games per second between two cheap agents,
every game written to the SQLite record, in this process and with 2 worker processes; then a
CPU-bound pairing (Connect Four, engine:depth=4 against mcts:iterations=300) with 1 and 2
workers, and the speed-up; then (``--ray``) the CPU-bound pairing on a Ray cluster of two
nodes of one CPU each that the script starts on 127.0.0.1 (``ray.cluster_utils``), with one
actor on each, checking that it records exactly the games the process pool did.

Prints games, seconds and games per second for each (the first measures the schedule, the
record and the process pool: the agents are a random player and alpha-beta to depth 1, which
cost microseconds a move); first, how many games a second the record takes in (30-move Connect
Four games, one a transaction and 256 a transaction, as batches arrive).

Usage (from the repository root)::

    PYTHONPATH=src .venv/bin/python benchmarks/arena_overhead.py [--games 4000]
        [--cpu-games 120] [--ray]
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path
from typing import Any

from plies.arena.records import PlayedGame, Records
from plies.arena.tournament import run, schedule

HEADER = f"{'pairing':<40} {'workers':>9} {'games':>6} {'seconds':>8} {'games/s':>8}"


def timed(game: str, specs: list[str], games: int, concurrency: int, **where: Any) -> Any:
    """Play the pairing's games into a new record: (games per second, the games' table)."""
    planned = schedule(game, specs, games=games, openings=[""], seed=1)
    with tempfile.TemporaryDirectory() as folder:
        records = Records(Path(folder) / "t.sqlite", game)
        began = time.perf_counter()
        played = sum(1 for _ in run(records, planned, concurrency, **where))
        seconds = time.perf_counter() - began
        table = sorted((g.key, g.moves, g.result) for g in records.games())
        assert played == len(table) == games
        records.close()
    return played / seconds, seconds, table


def record_writes() -> None:
    """Games a second written to a record, one a transaction and in batches of 256."""
    moves = tuple(str(i % 7 + 1) for i in range(30))
    with tempfile.TemporaryDirectory() as folder:
        records = Records(Path(folder) / "t.sqlite", "connect4")
        for batch, count in ((1, 3000), (256, 20480)):
            games = [
                PlayedGame(f"{batch}|{i}", "a", "b", i, 0, "", moves, (0.01,) * 30, 1.0, "", i)
                for i in range(count)
            ]
            began = time.perf_counter()
            for start in range(0, count, batch):
                records.add_many(games[start : start + batch])
            rate = count / (time.perf_counter() - began)
            print(f"record writes, {batch} a transaction: {rate:,.0f} games/s")
        records.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4000)
    parser.add_argument("--cpu-games", type=int, default=120)
    parser.add_argument("--ray", action="store_true", help="Also on a two-node Ray cluster.")
    args = parser.parse_args()
    record_writes()
    print(HEADER)
    cheap = ("tictactoe", ["random", "alphabeta:depth=1"], args.games)
    bound = ("connect4", ["engine:depth=4", "mcts:iterations=300"], args.cpu_games)
    tables = {}
    for game, specs, games in (cheap, bound):
        rates = []
        label = f"{game}: {' vs '.join(specs)}"
        for concurrency in (1, 2):
            rate, seconds, tables[game, concurrency] = timed(game, specs, games, concurrency)
            rates.append(rate)
            print(f"{label:<40} {concurrency:>9} {games:>6} {seconds:>8.2f} {rate:>8.1f}")
        print(f"{'':<40} speed-up with 2 workers: {rates[1] / rates[0]:.2f}x")
    if args.ray:
        from ray.cluster_utils import Cluster

        from plies.pool import ray_on_loopback

        with ray_on_loopback():  # on 127.0.0.1, as the tests' cluster
            cluster = Cluster(initialize_head=True, head_node_args={"num_cpus": 1})
            cluster.add_node(num_cpus=1)
            cluster.wait_for_nodes()
        try:
            game, specs, games = bound
            rate, seconds, table = timed(game, specs, games, 2, ray_address=cluster.address)
            label = f"{game}: {' vs '.join(specs)}"
            print(f"{label:<40} {'2 on Ray':>9} {games:>6} {seconds:>8.2f} {rate:>8.1f}")
            same = table == tables[game, 2]
            print(f"{'':<40} the same games as the process pool: {'yes' if same else 'NO'}")
        finally:
            cluster.shutdown()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
