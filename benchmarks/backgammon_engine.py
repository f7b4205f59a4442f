"""Backgammon's engine and training, timed: the compiled search's mean time a move at depths 1, 2
and 3 (gnubg's 0, 1 and 2 plies) over positions of random games, the evaluations it makes a
second, and the self-play training's games a second for a network of ``--hidden`` units.

Usage (from the repository root)::

    PYTHONPATH=src .venv/bin/python benchmarks/backgammon_engine.py [--positions 200]
        [--hidden 128] [--games 2000] [--evaluation learned|hand]
"""

from __future__ import annotations

import argparse
import random
import sys
import time

from plies.games.backgammon import engine_native
from plies.games.backgammon.network import Network
from plies.games.backgammon.rules import Backgammon, BackgammonState


def positions(game: Backgammon, count: int, seed: int) -> list[BackgammonState]:
    """Positions with dice met in random games, about one in ten."""
    rng = random.Random(seed)
    found: list[BackgammonState] = []
    state = game.initial_state()
    while len(found) < count:
        if game.is_terminal(state):
            state = game.initial_state()
        if state.dice and rng.random() < 0.1:
            found.append(state)
        state = game.result(state, rng.choice(game.actions(state)))
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=200)
    parser.add_argument("--hidden", type=int, default=128)
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--evaluation", default="learned", choices=("learned", "hand"))
    args = parser.parse_args(argv)
    game = Backgammon(args.evaluation)
    search = engine_native.backgammon_engine(game)
    sample = positions(game, args.positions, 1)
    list(search.iterate(sample[0], 3, None))  # compiled now, not on the clock
    for depth in (1, 2, 3):
        began = time.perf_counter()
        leaves = 0
        for state in sample:
            leaves += list(search.iterate(state, depth, None))[-1].stats.leaves
        seconds = time.perf_counter() - began
        print(
            f"depth {depth}: {1000 * seconds / len(sample):.2f} ms a move, "
            f"{leaves / len(sample):,.0f} evaluations a move, {leaves / seconds:,.0f} a second "
            f"({args.evaluation} evaluation, {len(sample)} positions)"
        )
    network = Network.fresh(args.hidden, 1)
    network.train(10, 0.1, 0.7)  # compiled now
    began = time.perf_counter()
    _, turns = network.train(args.games, 0.1, 0.7)
    seconds = time.perf_counter() - began
    print(
        f"TD(lambda) self-play, {args.hidden} hidden units: {args.games / seconds:,.0f} games a "
        f"second, {turns / seconds:,.0f} moves a second (an untrained network's games)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
