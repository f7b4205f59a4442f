"""How closely the engine keeps to its clock: 50 searches of 50 ms on Othello and checkers.

Prints, per game, the mean, the 95th percentile and the worst wall time of ``search`` (the
call as an agent makes it) and the worst overshoot past the budget.

Usage (from the repository root)::

    PYTHONPATH=src .venv/bin/python benchmarks/engine_clock.py [--budget 0.05] [--searches 50]
        [--native on|off]

The compiled engine (the default where a game has one) is loaded by an untimed search first,
as building an engine agent loads it before the first move.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time

from plies.games import make_game
from plies.search.engine import EngineOptions, Limits, search


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--budget", type=float, default=0.05)
    parser.add_argument("--searches", type=int, default=50)
    parser.add_argument("--native", choices=("on", "off"), default="on")
    args = parser.parse_args()
    options = EngineOptions(native=args.native == "on")
    print(f"{'game':<10} {'mean ms':>8} {'p95 ms':>8} {'worst ms':>9} {'overshoot ms':>13}")
    for name in ("othello", "checkers"):
        game = make_game(name)
        search(game, game.initial_state(), Limits(depth=1), options)  # load compiled code, as
        rng = random.Random(11)  # building an engine agent does before its first move
        times = []
        for _ in range(args.searches):
            state = game.initial_state()
            for _ in range(rng.randrange(0, 30)):
                if game.is_terminal(state):
                    break
                following = game.result(state, rng.choice(list(game.actions(state))))
                if game.is_terminal(following):
                    break
                state = following
            started = time.perf_counter()
            result = search(game, state, Limits(seconds=args.budget), options)
            times.append(time.perf_counter() - started)
            assert result.action in list(game.actions(state))
        ms = sorted(t * 1000 for t in times)
        p95 = ms[int(0.95 * (len(ms) - 1))]
        print(
            f"{name:<10} {statistics.mean(ms):>8.1f} {p95:>8.1f} {ms[-1]:>9.1f} "
            f"{ms[-1] - args.budget * 1000:>13.1f}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
