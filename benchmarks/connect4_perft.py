"""Connect Four (7 x 6) perft by the compiled kernel, and distinct positions after n plies.

Perft counts move paths of exactly n plies (a finished game contributes nothing; the last ply is
counted in bulk), checked against the pure-Python walk's counts; positions after n plies are
checked against OEIS A212693 (REFERENCES.md). Prints depth, nodes, seconds and nodes/s, and
exits 1 if a count is wrong.

Usage (from the repository root)::

    PYTHONPATH=src python benchmarks/connect4_perft.py [--depth 9] [--positions 8]
"""

from __future__ import annotations

import argparse
import sys
import time

from plies.games.connect4.rules import ConnectFour, count_positions

PERFT = [1, 7, 49, 343, 2401, 16807, 117649, 823536, 5673234, 39394572, 268031646]
"""Move paths of exactly n plies, n = 0..10, as counted by ``plies.perft.generic_perft`` (pure
Python through the formal interface: 17 s for depth 9, 193 s for depth 10 on 2 cores). No
published source gives these; at 7 plies the 7 paths that fill a column leave 6 moves, not 7."""

POSITIONS = [1, 7, 49, 238, 1120, 4263, 16422, 54859, 184275]
"""Distinct positions after n plies, n = 0..8 (OEIS A212693)."""


def _expected(table: list[int], n: int) -> str:
    return f"{table[n]:,}" if n < len(table) else "-"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--depth", type=int, default=9, help="deepest perft (default 9)")
    parser.add_argument(
        "--positions", type=int, default=8, help="most plies for the position count (default 8)"
    )
    args = parser.parse_args(argv)
    if args.depth < 1 or args.positions < 0:
        parser.error("--depth must be at least 1 and --positions at least 0")
    game = ConnectFour()
    start = game.initial_state()
    wrong = 0

    began = time.perf_counter()
    game.perft(start, 1)
    print(
        f"first kernel call (Numba import + compile or cache load): "
        f"{time.perf_counter() - began:.2f} s"
    )
    print()
    print("perft, 7 x 6 from the empty grid (compiled kernel)")
    print(f"{'depth':>5} {'nodes':>14} {'expected':>14} {'seconds':>9} {'nodes/s':>14}")
    for depth in range(1, args.depth + 1):
        began = time.perf_counter()
        nodes = game.perft(start, depth)
        seconds = time.perf_counter() - began
        ok = depth >= len(PERFT) or nodes == PERFT[depth]
        wrong += not ok
        rate = f"{nodes / seconds:,.0f}" if seconds > 0 else "-"
        print(
            f"{depth:>5} {nodes:>14,} {_expected(PERFT, depth):>14} {seconds:>9.4f} {rate:>14}"
            + ("" if ok else "  WRONG")
        )
    print()
    print("distinct positions after n plies (pure Python, breadth first)")
    print(f"{'plies':>5} {'positions':>14} {'OEIS A212693':>14} {'seconds':>9}")
    for plies in range(args.positions + 1):
        began = time.perf_counter()
        positions = count_positions(game, plies)
        seconds = time.perf_counter() - began
        ok = plies >= len(POSITIONS) or positions == POSITIONS[plies]
        wrong += not ok
        print(
            f"{plies:>5} {positions:>14,} {_expected(POSITIONS, plies):>14} {seconds:>9.3f}"
            + ("" if ok else "  WRONG")
        )
    if wrong:
        print(f"{wrong} count(s) WRONG", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
