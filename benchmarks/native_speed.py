"""The compiled (native) engine and MCTS against plies' Python ones, game by game.

Prints figures, asserts only that the two engines agree. From the repository root::

    PYTHONPATH=src .venv/bin/python benchmarks/native_speed.py [--compile]

Engine: iterative deepening to a fixed depth from a few opening positions of each game, with
tables of the same number of slots (``TranspositionTable(16)``, its native twin given as many
slots), so both engines search exactly the same nodes (the script checks the reports are
equal): the time ratio is the speed-up per node. MCTS: iterations per second of a fresh
``MCTS(game, seed=1)`` from the start position, native (UCB1, compiled playouts and solver)
and Python (the Python tree; Connect Four's playouts are compiled there too).

``--compile`` first times the compilation itself: a fresh Python process with an empty Numba
cache directory (``NUMBA_CACHE_DIR``) runs one engine search and one MCTS search on Connect
Four (compiling the kernels of every native game at once), then a second process with that
cache loads them.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from typing import Any

from plies.games import make_game
from plies.native import native_search
from plies.search.engine import EngineOptions, Limits, TranspositionTable, iterate
from plies.search.mcts import MCTS

ENGINE_TASKS = (
    ("tictactoe", ["", "X../.O./..."], 9),
    ("connect4", ["", "4453", "44444"], 11),
    ("othello", ["", "f5d6c3"], 8),
    ("checkers", ["", "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,13"], 10),
)
MCTS_TASKS = (("tictactoe", 20_000), ("connect4", 20_000), ("othello", 5_000), ("checkers", 5_000))

FIRST_SEARCH = """
import time
started = time.perf_counter()
from plies.games import make_game
from plies.search.engine import Limits, search
from plies.search.mcts import MCTS
game = make_game("connect4")
search(game, game.initial_state(), Limits(depth=2))
MCTS(game, seed=1).search(game.initial_state(), iterations=10)
print(time.perf_counter() - started)
"""


def compile_times() -> None:
    """Seconds to the first engine and MCTS results: with an empty cache, then with it."""
    with tempfile.TemporaryDirectory() as cache:
        environment = {**os.environ, "NUMBA_CACHE_DIR": cache}
        for label in ("empty cache: compiles", "cache kept: loads"):
            command = [sys.executable, "-c", FIRST_SEARCH]
            output = subprocess.run(
                command, env=environment, capture_output=True, text=True, check=True
            )
            print(f"{label:<24} {float(output.stdout):7.2f} s to the first results")


def _engine_run(game: Any, state: Any, depth: int, native: bool) -> tuple[list[Any], float]:
    table = TranspositionTable(16)
    if native:
        kernel = native_search(game)
        assert kernel is not None
        table.native = kernel.table(table.size)
    started = time.perf_counter()
    reports = list(iterate(game, state, Limits(depth=depth), EngineOptions(native=native), table))
    elapsed = time.perf_counter() - started
    fields = [(r.score, r.pv, r.depth, r.stats.nodes, r.stats.leaves) for r in reports]
    return fields, elapsed


def engine_table() -> None:
    print("\nEngine, iterative deepening to the depth given, the same tables (same nodes)")
    print(f"{'game':<10} {'depth':>5} {'nodes':>12} {'Python s':>9} {'native s':>9} "
          f"{'Python n/s':>11} {'native n/s':>12} {'speed-up':>8}")  # fmt: skip
    for name, positions, depth in ENGINE_TASKS:
        game = make_game(name)
        nodes, python_time, native_time = 0, 0.0, 0.0
        _engine_run(game, game.initial_state(), 1, True)  # load the compiled code
        for position in positions:
            state = game.parse_position(position) if position else game.initial_state()
            python, seconds = _engine_run(game, state, depth, False)
            compiled, native_seconds = _engine_run(game, state, depth, True)
            assert compiled == python, f"{name} {position!r}: the engines disagree"
            nodes += sum(report[3] for report in python)
            python_time += seconds
            native_time += native_seconds
        print(f"{name:<10} {depth:>5} {nodes:>12,} {python_time:>9.2f} {native_time:>9.3f} "
              f"{nodes / python_time:>11,.0f} {nodes / native_time:>12,.0f} "
              f"{python_time / native_time:>7.1f}x")  # fmt: skip


def mcts_table() -> None:
    print("\nMCTS from the start position, iterations a second (best of 3, fresh searches)")
    print(
        f"{'game':<10} {'iterations':>10} {'Python it/s':>12} {'native it/s':>12} {'speed-up':>8}"
    )
    for name, iterations in MCTS_TASKS:
        game = make_game(name)
        rates = []
        for native in (False, True):
            MCTS(game, seed=1, native=native).search(game.initial_state(), iterations=10)
            best = 0.0
            for _ in range(3):
                mcts = MCTS(game, seed=1, native=native)
                started = time.perf_counter()
                result = mcts.search(game.initial_state(), iterations=iterations)
                elapsed = time.perf_counter() - started
                best = max(best, result.stats.iterations / elapsed)
            rates.append(best)
        print(f"{name:<10} {iterations:>10,} {rates[0]:>12,.0f} {rates[1]:>12,.0f} "
              f"{rates[1] / rates[0]:>7.1f}x")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--compile", action="store_true", help="time the compilation first")
    args = parser.parse_args()
    if args.compile:
        compile_times()
    engine_table()
    mcts_table()


if __name__ == "__main__":
    main()
