"""Othello perft from the standard start: the compiled kernel against Aart Bik's published counts.

Times :meth:`plies.games.othello.Othello.perft` (Numba, bitboards, the last ply counted in bulk:
a node one ply above the leaves counts its legal moves instead of playing them) at each depth,
and pure-Python :func:`plies.perft.generic_perft` through the formal interface for comparison
(it counts only paths of exactly ``depth`` plies, which agrees with Bik's counts up to depth 9
because no game ends before ply 9).
Convention (Bik): a pass is a ply and a game that ends early counts as one leaf. Exits with
status 1 if any count differs from the published one.

Usage (from the repository root)::

    PYTHONPATH=src python benchmarks/othello_perft.py [--depth 10] [--python-depth 6]
"""

from __future__ import annotations

import argparse
import sys
import time

from plies.games.othello.rules import Othello, legal_moves
from plies.perft import generic_perft

PUBLISHED = [1, 4, 12, 56, 244, 1396, 8200, 55092, 390216, 3005288, 24571284]
"""Perft from the start, depth 0..10 (Aart Bik; REFERENCES.md)."""


def _row(depth: int, nodes: int, seconds: float) -> tuple[str, bool]:
    expected = PUBLISHED[depth] if depth < len(PUBLISHED) else None
    ok = expected is None or nodes == expected
    check = "unpublished" if expected is None else "ok" if ok else f"WRONG (published {expected})"
    rate = nodes / seconds if seconds > 0 else float("inf")
    return f"{depth:>5}  {nodes:>13,}  {seconds:>9.3f}  {rate:>15,.0f}  {check}", ok


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Othello perft against Aart Bik's counts.")
    parser.add_argument("--depth", type=int, default=10, help="deepest compiled perft (10)")
    parser.add_argument(
        "--python-depth", type=int, default=6, help="deepest pure-Python perft (6; 0 skips it)"
    )
    args = parser.parse_args(argv)
    if args.depth < 1 or not 0 <= args.python_depth <= 9:
        parser.error("--depth must be at least 1 and --python-depth between 0 and 9")
    game = Othello()
    start = game.initial_state()
    header = f"{'depth':>5}  {'nodes':>13}  {'seconds':>9}  {'nodes/s':>15}  check"
    all_ok = True

    began = time.perf_counter()
    game.perft(start, 1)
    print(
        f"first call (Numba compile, or load from its cache): {time.perf_counter() - began:.2f} s"
    )
    print()
    print("compiled kernel (plies.games.othello.Othello.perft, last ply counted in bulk)")
    print(header)
    for depth in range(1, args.depth + 1):
        began = time.perf_counter()
        nodes = game.perft(start, depth)
        line, ok = _row(depth, nodes, time.perf_counter() - began)
        print(line, flush=True)
        all_ok &= ok

    if args.python_depth > 0:
        print()
        print("pure Python (plies.perft.generic_perft through the formal interface, bulk last ply)")
        print(header)
        for depth in range(1, args.python_depth + 1):
            legal_moves.cache_clear()  # no help from the previous depth's walk
            began = time.perf_counter()
            nodes = generic_perft(game, start, depth)
            line, ok = _row(depth, nodes, time.perf_counter() - began)
            print(line, flush=True)
            all_ok &= ok
    return 0 if all_ok else 1


if __name__ == "__main__":
    sys.exit(main())
