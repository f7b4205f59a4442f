"""Star1 (*-minimax) against plain expectiminimax: nodes and seconds, same values.

Random chance trees. Regular trees whose layers repeat MAX, CHANCE, MIN, CHANCE (the lecture's
backgammon tree), in a few shapes: ``b`` moves at each decision node, ``c`` outcomes at each
chance node, equally likely or skewed (1/2, 1/4, 1/8, 1/8), leaves uniform integers in
[-100, 100] (a hash of the tree's seed and the leaf's path) with Star1 told those bounds. Both
searches visit children in the same order; nodes, leaves and seconds are summed over the trees.

Backgammon. Positions from seeded random games (:func:`plies.testing.random_position`, 12 to 79
plies in, the rolls drawn with their probabilities) where a player has just rolled, searched to
depth 2 (the mover's turn, every roll, the opponent's turn, then EVAL before the next roll),
with the game's value bounds (-3, 3). Each position is searched once untimed first, so both
searches find the game's move-generation cache warm. Skipped with a note when there is no
backgammon game.

Every value pair is checked (equal to 1e-9: the dice's 1/36 and 1/18 are not binary
fractions). A progress line runs on stderr; Ctrl-C prints the rows finished and exits with 130.

Usage (from the repository root)::

    PYTHONPATH=src .venv/bin/python benchmarks/star1.py [--trees 100] [--positions 8] [--seed 1]
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from plies.errors import UnknownNameError
from plies.game import CHANCE, Game
from plies.games import make_game
from plies.search import expectiminimax
from plies.testing import random_position

LEAF_RANGE = 100
SKEWED = (0.5, 0.25, 0.125, 0.125)

Path = tuple[int, ...]


@dataclass(frozen=True)
class Shape:
    """A regular tree: ``layers`` levels below the root, MAX, CHANCE, MIN, CHANCE..."""

    moves: int
    outcomes: int
    layers: int
    skewed: bool = False

    def __str__(self) -> str:
        odds = "skewed" if self.skewed else "uniform"
        return f"b={self.moves} c={self.outcomes} {odds}, {self.layers} layers"


SHAPES = (
    Shape(moves=4, outcomes=2, layers=6),
    Shape(moves=4, outcomes=6, layers=4),
    Shape(moves=3, outcomes=6, layers=6),
    Shape(moves=8, outcomes=3, layers=4),
    Shape(moves=4, outcomes=4, layers=6, skewed=True),
)


class RandomChanceTree(Game[Path, int]):
    """An implicit regular tree: states are paths, leaf values a hash of (seed, path)."""

    name = "random-chance-tree"
    players = ("MAX", "MIN")
    value_bounds = (-float(LEAF_RANGE), float(LEAF_RANGE))

    def __init__(self, shape: Shape, seed: int) -> None:
        self.shape, self.seed = shape, seed
        share = 1 / shape.outcomes
        self.odds = SKEWED if shape.skewed else (share,) * shape.outcomes

    def initial_state(self) -> Path:
        return ()

    def to_move(self, state: Path) -> str:
        return ("MAX", CHANCE, "MIN", CHANCE)[len(state) % 4]

    def actions(self, state: Path) -> Sequence[int]:
        return range(self.shape.outcomes if len(state) % 2 else self.shape.moves)

    def chance_outcomes(self, state: Path) -> Sequence[tuple[int, float]]:
        return list(enumerate(self.odds))

    def result(self, state: Path, action: int) -> Path:
        return (*state, action)

    def is_terminal(self, state: Path) -> bool:
        return len(state) == self.shape.layers

    def utility(self, state: Path, player: str) -> float:
        value = hash((self.seed, state)) % (2 * LEAF_RANGE + 1) - LEAF_RANGE
        return value if player == "MAX" else -value


@dataclass
class Row:
    """Both searches' totals over one set of trees or positions."""

    name: str
    searched: int = 0
    plain_nodes: int = 0
    star_nodes: int = 0
    plain_leaves: int = 0
    star_leaves: int = 0
    plain_seconds: float = 0.0
    star_seconds: float = 0.0
    mismatches: int = 0

    def add(self, game: Game[Any, Any], state: Any, depth: int | None) -> None:
        plain = expectiminimax(game, state, depth=depth)
        star = expectiminimax(game, state, depth=depth, prune=True)
        self.searched += 1
        self.plain_nodes += plain.stats.nodes
        self.star_nodes += star.stats.nodes
        self.plain_leaves += plain.stats.leaves
        self.star_leaves += star.stats.leaves
        self.plain_seconds += plain.stats.time
        self.star_seconds += star.stats.time
        if not math.isclose(plain.value, star.value, rel_tol=1e-9, abs_tol=1e-9):
            self.mismatches += 1


def print_table(rows: list[Row]) -> None:
    header = (
        f"{'':<34} {'n':>3} {'expecti nodes':>14} {'Star1 nodes':>12} {'saved':>6} "
        f"{'leaves saved':>12} {'expecti s':>9} {'Star1 s':>8} {'values':>7}"
    )
    print(header)
    print("-" * len(header))
    for row in rows:
        saved = 1 - row.star_nodes / row.plain_nodes if row.plain_nodes else 0.0
        leaves = 1 - row.star_leaves / row.plain_leaves if row.plain_leaves else 0.0
        values = "same" if not row.mismatches else f"{row.mismatches} DIFFER"
        print(
            f"{row.name:<34} {row.searched:>3} {row.plain_nodes:>14,} {row.star_nodes:>12,} "
            f"{saved:>6.1%} {leaves:>12.1%} {row.plain_seconds:>9.2f} {row.star_seconds:>8.2f} "
            f"{values:>7}"
        )


def progress(text: str) -> None:
    if sys.stderr.isatty():
        print(f"\r{text:<70}", end="", file=sys.stderr, flush=True)


def backgammon_positions(game: Game[Any, Any], count: int, seed: int) -> list[Any]:
    """States of seeded random games where a player has rolled: 12 to 79 plies (6 to 40 turns)
    in, the dice drawn with their probabilities."""
    rng = random.Random(seed)
    found: list[Any] = []
    while len(found) < count:
        state = random_position(game, rng, range(12, 80))
        if game.to_move(state) != CHANCE:
            found.append(state)
    return found


def run(args: argparse.Namespace, rows: list[Row]) -> None:
    for shape in SHAPES:
        row = Row(str(shape))
        rows.append(row)
        for i in range(args.trees):
            progress(f"{shape}: tree {i + 1}/{args.trees}")
            row.add(RandomChanceTree(shape, args.seed * 1_000_003 + i), (), None)
    try:
        game = make_game("backgammon")
    except UnknownNameError:
        progress("")
        print("\nbackgammon: no such game yet (make_game('backgammon')); skipped")
        return
    row = Row("backgammon, depth 2")
    rows.append(row)
    for i, state in enumerate(backgammon_positions(game, args.positions, args.seed)):
        progress(f"backgammon: position {i + 1}/{args.positions} (warming up)")
        expectiminimax(game, state, depth=2)
        progress(f"backgammon: position {i + 1}/{args.positions}")
        row.add(game, state, 2)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trees", type=int, default=100, help="random trees per shape")
    parser.add_argument("--positions", type=int, default=8, help="backgammon positions")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if args.trees < 1 or args.positions < 0:
        parser.error("--trees must be at least 1 and --positions at least 0")
    rows: list[Row] = []
    started = time.perf_counter()
    try:
        run(args, rows)
    except KeyboardInterrupt:
        progress("")
        print("\ninterrupted: the rows so far (the last one partial)")
        print_table([row for row in rows if row.searched])
        return 130
    progress("")
    print()
    print("Star1 (alpha-beta + Ballard's chance-node cutoffs) vs expectiminimax, same move order")
    print_table(rows)
    print(f"total {time.perf_counter() - started:.1f} s")
    return 1 if any(row.mismatches for row in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
