"""Deep searches of the compiled engine and MCTS with a digest of everything they report: run
it before and after a change that must not change any search (a refactor of the compiled
layer) and compare the digests, node counts and times. From the repository root::

    PYTHONPATH=src .venv/bin/python benchmarks/native_digests.py [--repeats N]

Engine: iterative deepening to a fixed depth from fixed positions with a 16 MB table; the digest
covers every iteration's score, line, depth and counts. MCTS: ``MCTS(game, seed=1)`` from the
start for a fixed number of iterations (Go from a fixed position, with and without RAVE); the
digest covers the move, value, line and root visits. Times are the best of the repeats; the
script asserts every repeat reports the same.
"""

from __future__ import annotations

import argparse
import hashlib
import time
from typing import Any

from plies.games import make_game
from plies.search import MCTS, EngineOptions, Limits, TranspositionTable, iterate

ENGINE = (
    ("tictactoe:m=5,n=5,k=4", [""], 8),
    ("connect4", ["", "4453", "44444"], 14),
    ("othello", ["", "f5d6c3"], 12),
    ("checkers", ["", "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,13"], 13),
)
TREES = (
    ("tictactoe", "", {}, 200_000),
    ("connect4", "", {}, 100_000),
    ("othello", "", {}, 20_000),
    ("checkers", "", {}, 20_000),
    ("go:size=9", "E5 C3", {}, 30_000),
    ("go:size=9", "E5 C3", {"rave": 0}, 30_000),
    ("go:size=19", "E5 C3", {}, 5_000),
)


def _digest(value: Any) -> str:
    return hashlib.sha1(repr(value).encode()).hexdigest()[:12]


def _start(game: Any, position: str) -> Any:
    return game.parse_position(position) if position else game.initial_state()


def engine(repeats: int) -> None:
    print(f"{'engine':<24} {'depth':>5} {'nodes':>12} {'seconds':>8} {'nodes/s':>12} digest")
    for spec, positions, depth in ENGINE:
        game = make_game(spec)
        list(iterate(game, game.initial_state(), Limits(depth=1)))  # loads the compiled code
        best, seen = float("inf"), None
        for _ in range(repeats):
            total, reports = 0.0, []
            for position in positions:
                state, table = _start(game, position), TranspositionTable(16)
                began = time.perf_counter()
                found = list(iterate(game, state, Limits(depth=depth), EngineOptions(), table))
                total += time.perf_counter() - began
                reports += [
                    (r.score, r.pv, r.depth, r.stats.nodes, r.stats.leaves, r.stats.cutoffs)
                    for r in found
                ]
            assert seen is None or seen == reports, f"{spec}: a repeat searched differently"
            best, seen = min(best, total), reports
        nodes = sum(report[3] for report in seen or ())
        print(f"{spec:<24} {depth:>5} {nodes:>12,} {best:>8.3f} {nodes / best:>12,.0f} "
              f"{_digest(seen)}")  # fmt: skip


def trees(repeats: int) -> None:
    print(f"{'mcts':<24} {'options':<12} {'iterations':>10} {'it/s':>12} digest")
    for spec, position, options, iterations in TREES:
        game = make_game(spec)
        MCTS(game, seed=1, **options).search(_start(game, position), iterations=10)
        best, seen = 0.0, None
        for _ in range(repeats):
            began = time.perf_counter()
            result = MCTS(game, seed=1, **options).search(
                _start(game, position), iterations=iterations
            )
            best = max(best, result.stats.iterations / (time.perf_counter() - began))
            root = [(move.action, move.visits) for move in result.root or ()]
            found = (result.action, result.value, result.pv, root, result.stats.nodes)
            assert seen is None or seen == found, f"{spec}: a repeat searched differently"
            seen = found
        print(f"{spec:<24} {options!s:<12} {iterations:>10,} {best:>12,.0f} {_digest(seen)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.partition("\n")[0])
    parser.add_argument("--repeats", type=int, default=3)
    repeats = parser.parse_args().repeats
    engine(repeats)
    trees(repeats)


if __name__ == "__main__":
    main()
