"""Checkers perft from the start position against Aart Bik's published counts (OEIS A133046).

Counts move paths of exactly N plies with the compiled kernel of
:class:`plies.games.checkers.Checkers` (a whole capture sequence is one ply; the last ply is
counted in bulk, as the number of legal moves, not played), and prints depth, nodes, seconds and
nodes per second for each depth. The first call's time (loading Numba and compiling the kernel,
or loading it from Numba's cache) is printed apart. Exits with status 1 if a count is wrong.

Usage (from the repository root)::

    PYTHONPATH=src python benchmarks/checkers_perft.py [--depth 10]
"""

from __future__ import annotations

import argparse
import sys
import time

from plies.games.checkers.rules import Checkers

PUBLISHED = [7, 49, 302, 1469, 7361, 36768, 179740, 845931, 3963680, 18391564]
"""Perft of the start position, depths 1..10 (Aart Bik; OEIS A133046)."""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--depth", type=int, default=10, help="deepest depth, 1 to 10")
    args = parser.parse_args(argv)
    if not 1 <= args.depth <= len(PUBLISHED):
        parser.error(f"--depth {args.depth}: published counts go from 1 to {len(PUBLISHED)}")

    game = Checkers()
    start = game.initial_state()
    started = time.perf_counter()
    game.perft(start, 1)
    print(
        f"first call (import Numba, compile or load the kernel): "
        f"{time.perf_counter() - started:.2f} s"
    )
    print()
    print(f"{'depth':>5}  {'nodes':>12}  {'published':>12}  {'seconds':>8}  {'nodes/s':>12}")
    wrong = []
    for depth in range(1, args.depth + 1):
        started = time.perf_counter()
        nodes = game.perft(start, depth)
        seconds = time.perf_counter() - started
        rate = f"{nodes / seconds:,.0f}" if seconds > 0 else "-"
        mark = "" if nodes == PUBLISHED[depth - 1] else "  WRONG"
        print(
            f"{depth:>5}  {nodes:>12,}  {PUBLISHED[depth - 1]:>12,}  {seconds:>8.3f}  "
            f"{rate:>12}{mark}"
        )
        if mark:
            wrong.append(depth)
    if wrong:
        print(
            f"checkers_perft: wrong counts at depth {', '.join(map(str, wrong))}", file=sys.stderr
        )
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
