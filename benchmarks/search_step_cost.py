"""What a search from the start position costs, best of several runs: the figure to compare
between two versions of plies (the same machine, run alternately), such as before and after a
per-node feature like the endgame probes.

From the repository root (and with ``PYTHONPATH`` pointing at another checkout's ``src`` for
the version to compare)::

    PYTHONPATH=src .venv/bin/python benchmarks/search_step_cost.py [--depth 12] [--runs 5]
"""

from __future__ import annotations

import argparse
import time

import plies
from plies.games import make_game
from plies.search.engine import Limits, iterate


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--depth", type=int, default=12)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("games", nargs="*", default=["checkers", "connect4"])
    args = parser.parse_args(argv)
    print(f"plies from {plies.__file__}")
    for spec in args.games:
        game = make_game(spec)
        start = game.initial_state()
        for _ in iterate(game, start, Limits(depth=args.depth)):  # compiled and loaded
            pass
        seconds = []
        for _ in range(args.runs):
            began = time.perf_counter()
            for _ in iterate(game, start, Limits(depth=args.depth)):
                pass
            seconds.append(time.perf_counter() - began)
        print(
            f"{spec}: depth {args.depth}, seconds " + " ".join(f"{s:.4f}" for s in sorted(seconds))
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
