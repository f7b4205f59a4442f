"""Backgammon's bear-off databases: how long each takes to build and how large its file is.

Builds the one-sided database (:func:`plies.games.backgammon.bearoff.build`) and the
two-sided one (:func:`~plies.games.backgammon.bearoff.build_two_sided`, ``--checkers`` a side,
by default the database's :data:`~plies.games.backgammon.bearoff.TWO_SIDED_CHECKERS`) into a
temporary folder, once their compiled loops are ready (a small build first), and prints a line
for each: positions, build seconds, save seconds, file size. The user's endgame folder is left
alone.

Usage (from the repository root)::

    PYTHONPATH=src .venv/bin/python benchmarks/backgammon_bearoff.py [--checkers 8]
"""

from __future__ import annotations

import argparse
import tempfile
import time
from collections.abc import Callable
from math import comb
from pathlib import Path
from typing import Any

from plies.games.backgammon import bearoff


def measure(name: str, build: Callable[[], Any], save: Callable[[Any, Path], None]) -> None:
    """Print ``name``'s build and save times and its file's size."""
    start = time.perf_counter()
    table = build()
    built = time.perf_counter() - start
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "table.npz"
        start = time.perf_counter()
        save(table, path)
        saved = time.perf_counter() - start
        size = path.stat().st_size
    print(f"{name}: built in {built:.2f} s, saved in {saved:.2f} s, {size / 1e6:.1f} MB")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--checkers", type=int, default=bearoff.TWO_SIDED_CHECKERS)
    arguments = parser.parse_args()
    bearoff.build_two_sided(2)  # compiles (or loads from Numba's cache) the loops
    bearoff.build()
    measure(f"one-sided, {bearoff.POSITIONS} positions", bearoff.build, bearoff.save)
    checkers = arguments.checkers
    positions = comb(checkers + bearoff.POINTS, bearoff.POINTS)
    measure(
        f"two-sided, {checkers} checkers a side, {positions} positions a side",
        lambda: bearoff.build_two_sided(checkers),
        bearoff.save_two_sided,
    )


if __name__ == "__main__":
    main()
