"""Chess perft against the published counts, with nodes per second.

Times :meth:`plies.games.chess.Chess.perft` (python-chess move generation on one board with
push/pop, the last ply counted in bulk) from the start position and from Kiwipete, one first
move at a time (progress on stderr), and pure-Python :func:`plies.perft.generic_perft` through
the formal interface (a new immutable state per move, repetition history, draw rules) at a
shallow depth for comparison. Counts follow the published convention: only checkmate and
stalemate end a path. Exits with status 1 if a count differs from the published one, 130 when
interrupted (Ctrl-C), after printing what was counted.

Usage (from the repository root)::

    PYTHONPATH=src python benchmarks/chess_perft.py [--start-depth 5] [--kiwipete-depth 4]
        [--python-depth 3]
"""

from __future__ import annotations

import argparse
import sys
import time

from plies.games.chess.rules import Chess, ChessState
from plies.perft import generic_perft

KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq -"
PUBLISHED = {
    "start": [1, 20, 400, 8902, 197281, 4865609, 119060324],
    "kiwipete": [1, 48, 2039, 97862, 4085603, 193690690],
}
"""Perft by depth from 0 (REFERENCES.md; the Chess Programming Wiki, "Perft Results")."""

HEADER = f"{'depth':>5}  {'nodes':>13}  {'seconds':>9}  {'nodes/s':>12}  check"


def _row(name: str, depth: int, nodes: int, seconds: float) -> tuple[str, bool]:
    published = PUBLISHED[name]
    expected = published[depth] if depth < len(published) else None
    ok = expected is None or nodes == expected
    check = "unpublished" if expected is None else "ok" if ok else f"WRONG (published {expected})"
    rate = nodes / seconds if seconds > 0 else float("inf")
    return f"{depth:>5}  {nodes:>13,}  {seconds:>9.3f}  {rate:>12,.0f}  {check}", ok


def _divided(game: Chess, state: ChessState, depth: int) -> int:
    """Perft counted one first move at a time, showing progress on stderr."""
    moves = game.actions(state)
    show = sys.stderr.isatty()
    total = 0
    for index, move in enumerate(moves, start=1):
        total += game.perft(game.result(state, move), depth - 1)
        if show:
            print(f"\r  depth {depth}: {index}/{len(moves)} first moves", end="", file=sys.stderr)
    if show:
        print("\r" + " " * 40 + "\r", end="", file=sys.stderr)
    return total


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Chess perft against the published counts.")
    parser.add_argument("--start-depth", type=int, default=5, help="deepest start perft (5)")
    parser.add_argument("--kiwipete-depth", type=int, default=4, help="deepest Kiwipete (4)")
    parser.add_argument(
        "--python-depth", type=int, default=3, help="deepest formal-interface perft (3; 0 skips)"
    )
    args = parser.parse_args(argv)
    if min(args.start_depth, args.kiwipete_depth) < 1 or args.python_depth < 0:
        parser.error("depths must be at least 1 (--python-depth at least 0)")
    game = Chess()
    positions = {
        "start": (game.initial_state(), args.start_depth),
        "kiwipete": (game.parse_position(KIWIPETE), args.kiwipete_depth),
    }
    all_ok = True
    try:
        for name, (state, deepest) in positions.items():
            print(f"{name}: Chess.perft (python-chess, push/pop, last ply in bulk)")
            print(HEADER)
            for depth in range(1, deepest + 1):
                began = time.perf_counter()
                nodes = _divided(game, state, depth)
                line, ok = _row(name, depth, nodes, time.perf_counter() - began)
                print(line, flush=True)
                all_ok &= ok
            print()
        if args.python_depth > 0:
            print("start: generic_perft through the formal interface (states, bulk last ply)")
            print(HEADER)
            for depth in range(1, args.python_depth + 1):
                began = time.perf_counter()
                nodes = generic_perft(game, game.initial_state(), depth)
                line, ok = _row("start", depth, nodes, time.perf_counter() - began)
                print(line, flush=True)
                all_ok &= ok
    except KeyboardInterrupt:
        print("\ninterrupted: the depths above are complete", file=sys.stderr)
        return 130
    return 0 if all_ok else 1


if __name__ == "__main__":
    sys.exit(main())
