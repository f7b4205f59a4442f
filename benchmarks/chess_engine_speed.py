"""The chess engine's speed: nodes per second of the compiled engine from the usual test
positions, against the Python engine on the same searches, and the depth a second reaches.

For each position (the start, Kiwipete and the Chess Programming Wiki's perft positions 3 to 6,
and two quiet middlegames): the compiled engine (``engine`` with its defaults) searches for
``--seconds`` (nodes, depth reached, nodes per second); then both engines search to
``--python-depth`` with tables of the same number of slots, which must give the same reports
node for node (the script exits with status 1 if they differ), and their time ratio is the
speed-up per node. One search at a time, one core each; the compiled code is loaded before any
timing. Ctrl-C prints what was measured and exits with status 130.

Usage (from the repository root)::

    PYTHONPATH=src .venv/bin/python benchmarks/chess_engine_speed.py [--seconds 5]
        [--python-depth 4]
"""

from __future__ import annotations

import argparse
import sys
import time

from plies.games.chess import Chess
from plies.native import native_search
from plies.search import EngineOptions, Limits, SearchResult, TranspositionTable, iterate

POSITIONS = {
    "start": "startpos",
    "kiwipete": "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "position 3": "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "position 4": "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "position 5": "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "position 6": "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "italian": "r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/2PP1N2/PP3PPP/RNBQK2R b KQkq - 0 5",
    "queen's gambit": "rnbqkb1r/ppp2ppp/4pn2/3p2B1/2PP4/2N5/PP2PPPP/R2QKBNR b KQkq - 3 4",
}


def _last(reports: list[SearchResult[object]]) -> SearchResult[object]:
    return reports[-1]


def _fields(report: SearchResult[object]) -> tuple[object, ...]:
    return (report.value, report.pv, report.depth, report.stats.nodes, report.stats.leaves)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="The chess engine's speed.")
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--python-depth", type=int, default=4)
    args = parser.parse_args(argv)
    game = Chess()
    kernel = native_search(game)
    assert kernel is not None
    kernel.load(game.initial_state())
    fixed = f"depth {args.python_depth}: compiled"
    print(f"{'position':<16} {'depth':>5} {'nodes':>12} {'nodes/s':>12}   {fixed:>20} "
          f"{'python':>9} {'ratio':>7}")  # fmt: skip
    total_nodes = total_seconds = 0.0
    same = True
    try:
        for name, fen in POSITIONS.items():
            state = game.parse_position(fen)
            began = time.perf_counter()
            timed = _last(list(iterate(game, state, Limits(seconds=args.seconds))))
            seconds = time.perf_counter() - began
            total_nodes += timed.stats.nodes
            total_seconds += seconds
            searches = []
            for native in (True, False):
                table = TranspositionTable(16)
                if native:
                    table.native = kernel.table(table.size)
                began = time.perf_counter()
                limits, options = Limits(depth=args.python_depth), EngineOptions(native=native)
                report = _last(list(iterate(game, state, limits, options, table)))
                searches.append((report, time.perf_counter() - began))
            (compiled, fast), (python, slow) = searches
            same &= _fields(compiled) == _fields(python)
            check = "" if _fields(compiled) == _fields(python) else "  DIFFERENT"
            print(f"{name:<16} {timed.depth:>5} {timed.stats.nodes:>12,} "
                  f"{timed.stats.nodes / seconds:>12,.0f}   {fast:>19.3f}s {slow:>8.2f}s "
                  f"{slow / fast:>6.0f}x{check}", flush=True)  # fmt: skip
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    print(f"all positions: {total_nodes / total_seconds:,.0f} nodes/s over {total_seconds:.1f} s")
    print("the two engines give the same reports node for node" if same else "REPORTS DIFFER")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
