"""Where a 9x9 Go search spends its iterations, by setting: why RAVE with informed playouts and
an exploration term of 0.3 lost in the tree (issue 16), and what the priors and c = 0 change.

For each setting, from the same positions (the 10th to 30th move of games that
``mcts:iterations=500`` plays against itself from random openings), one search of ``--iterations``
iterations: the share of the root's visits that its most visited move got (how far the search
concentrated), the depth it reached, and how often its move is the one a long search of the
default settings (``--reference`` iterations) chooses.

Usage (from the repository root)::

    PYTHONPATH=src .venv/bin/python benchmarks/go_focus.py [--positions 30] [--iterations 3000]
"""

from __future__ import annotations

import argparse
import random
import statistics
from typing import Any

from plies.games.go.rules import Go, GoState
from plies.search.mcts import MCTS

UNIFORM = {"capture": 0.0, "pattern": 0.0, "selfatari": 0.0}
SETTINGS: tuple[tuple[str, dict[str, Any]], ...] = (
    (
        "uniform playouts, c = 0.3 (issue 16's default)",
        {"c": 0.3, "knowledge": UNIFORM | {"prior": 0.0}},
    ),
    ("informed playouts, c = 0.3 (issue 16's attempt)", {"c": 0.3, "knowledge": {"prior": 0.0}}),
    ("informed playouts, c = 0", {"c": 0.0, "knowledge": {"prior": 0.0}}),
    ("uniform playouts and priors, c = 0", {"c": 0.0, "knowledge": UNIFORM}),
    ("informed playouts and priors, c = 0.3", {"c": 0.3}),
    ("informed playouts and priors, c = 0 (the default)", {}),
)


def positions(game: Go, count: int, seed: int) -> list[GoState]:
    """States between the 10th and 30th move of quick self-play games from random openings."""
    rng = random.Random(seed)
    found: list[GoState] = []
    while len(found) < count:
        mcts = MCTS(game, seed=rng.getrandbits(32))
        state = game.initial_state()
        for _ in range(2):
            state = game.result(state, rng.choice(game.actions(state)[:-1]))
        stop = rng.randint(10, 30)
        while len(state.moves) < stop and not game.is_terminal(state):
            state = game.result(state, mcts.search(state, iterations=500).action)
        if not game.is_terminal(state):
            found.append(state)
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=30)
    parser.add_argument("--iterations", type=int, default=3000)
    parser.add_argument("--reference", type=int, default=30_000)
    parser.add_argument("--seed", type=int, default=27)
    args = parser.parse_args()
    game = Go(size=9, komi=7.5)
    states = positions(game, args.positions, args.seed)
    best = [MCTS(game, seed=1).search(s, iterations=args.reference).action for s in states]
    print(f"{args.positions} positions, {args.iterations:,} iterations a search; the reference: "
          f"the default at {args.reference:,}")  # fmt: skip
    print(f"{'setting':<52} {'top share':>9} {'depth':>6} {'same move':>9}")
    for name, options in SETTINGS:
        shares, depths, same = [], [], 0
        for state, reference in zip(states, best, strict=True):
            result = MCTS(game, seed=2, **options).search(state, iterations=args.iterations)
            visits = [move.visits for move in result.root]
            shares.append(max(visits) / sum(visits))
            depths.append(result.stats.max_depth)
            same += result.action == reference
        print(f"{name:<52} {statistics.mean(shares):>9.1%} {statistics.mean(depths):>6.1f} "
              f"{same / len(states):>9.0%}")  # fmt: skip


if __name__ == "__main__":
    main()
