"""plies' CFR and CFR+ against OpenSpiel's, on Kuhn and Leduc poker, in one run on one core.

Prints, for each game and solver, the exploitability (NashConv / 2) of the average strategy
after 1, 2, 5, ... 1,000 iterations and the solver's own seconds to get there (the
exploitability measurements are not timed), for plies (``plies.solvers.cfr.CfrSolver``,
compiled; the first call of each compiled loop is warmed up on a separate solver first) and
OpenSpiel's C++ solvers (``pyspiel.CFRSolver``, ``pyspiel.CFRPlusSolver``), and the ratio of
their times to 1,000 iterations. Each side's exploitability is measured by its own code
(``plies.solvers.cfr.exploitability``, ``pyspiel.exploitability``). Asserts nothing.

plies deals Leduc by rank (288 information sets, 1,939 nodes), OpenSpiel by card (936 sets,
9,457 nodes): the strategies and figures are the same in exact arithmetic, and agree to six
digits while the rounding of two summation orders has not yet grown (CFR+ on Leduc is chaotic
at the last bit: see BENCHMARKS.md).

Runs in the peers' environment (benchmarks/peers/requirements.txt)::

    benchmarks/.venv-peers/bin/python benchmarks/peers/cfr_compare.py \
        [--plot docs/cfr-convergence.png]
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

import pyspiel

from plies.registry import make_game
from plies.solvers.cfr import CfrSolver, exploitability

CHECKPOINTS = (1, 2, 5, 10, 20, 50, 100, 200, 500, 1000)
GAMES = {"kuhn": "kuhn_poker", "leduc": "leduc_poker"}
OPENSPIEL = {"cfr": pyspiel.CFRSolver, "cfr+": pyspiel.CFRPlusSolver}


def plies_curve(name: str, variant: str) -> list[tuple[int, float, float]]:
    """(iterations, seconds, exploitability) at each checkpoint, plies' solver."""
    CfrSolver(make_game(name), variant).run(1)  # load the compiled loops
    solver = CfrSolver(make_game(name), variant)
    curve, done, seconds = [], 0, 0.0
    for checkpoint in CHECKPOINTS:
        began = time.perf_counter()
        solver.run(checkpoint - done)
        seconds += time.perf_counter() - began
        done = checkpoint
        curve.append((done, seconds, exploitability(solver.tree, solver.average()).exploitability))
    return curve


def openspiel_curve(name: str, variant: str) -> list[tuple[int, float, float]]:
    """(iterations, seconds, exploitability) at each checkpoint, OpenSpiel's C++ solver."""
    game = pyspiel.load_game(GAMES[name])
    solver = OPENSPIEL[variant](game)
    curve, done, seconds = [], 0, 0.0
    for checkpoint in CHECKPOINTS:
        began = time.perf_counter()
        for _ in range(checkpoint - done):
            solver.evaluate_and_update_policy()
        seconds += time.perf_counter() - began
        done = checkpoint
        curve.append((done, seconds, pyspiel.exploitability(game, solver.average_policy())))
    return curve


def report(results: dict[str, Any]) -> None:
    for key, sides in results.items():
        print(f"\n{key}")
        print(f"{'iterations':>10}  {'plies':>10} {'s':>8}  {'OpenSpiel':>10} {'s':>8}")
        for ours, theirs in zip(sides["plies"], sides["openspiel"], strict=True):
            mine = f"{ours[2]:>10.6f} {ours[1]:>8.3f}"
            print(f"{ours[0]:>10,}  {mine}  {theirs[2]:>10.6f} {theirs[1]:>8.3f}")
        ratio = sides["openspiel"][-1][1] / sides["plies"][-1][1]
        print(f"time to 1,000 iterations: OpenSpiel C++ / plies = {ratio:.0f}x")


def plot(results: dict[str, Any], path: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(2, 2, figsize=(11, 8))
    for row, name in enumerate(GAMES):
        for variant, colour in (("cfr", "tab:blue"), ("cfr+", "tab:red")):
            sides = results[f"{name} {variant}"]
            for side, style in (("plies", "-"), ("openspiel", ":")):
                points = sides[side]
                label = f"{variant}, {'plies' if side == 'plies' else 'OpenSpiel C++'}"
                axes[row][0].loglog([p[0] for p in points], [p[2] for p in points], style,
                                    color=colour, label=label)  # fmt: skip
                axes[row][1].loglog([p[1] for p in points], [p[2] for p in points], style,
                                    color=colour, label=label)  # fmt: skip
        axes[row][0].set_title(f"{name} poker: exploitability against iterations")
        axes[row][1].set_title(f"{name} poker: exploitability against seconds (one core)")
        axes[row][0].set_xlabel("iterations")
        axes[row][1].set_xlabel("seconds")
        for axis in axes[row]:
            axis.set_ylabel("exploitability (NashConv / 2)")
            axis.grid(True, which="both", alpha=0.3)
            axis.legend(fontsize=8)
    figure.tight_layout()
    figure.savefig(path, dpi=90)
    print(f"\nplotted: {path}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--plot", help="draw the curves into this PNG file")
    parser.add_argument("--json", help="write the figures into this JSON file")
    args = parser.parse_args()
    results = {
        f"{name} {variant}": {
            "plies": plies_curve(name, variant),
            "openspiel": openspiel_curve(name, variant),
        }
        for name in GAMES
        for variant in OPENSPIEL
    }
    report(results)
    if args.json:
        with open(args.json, "w") as stream:
            json.dump(results, stream)
    if args.plot:
        plot(results, args.plot)


if __name__ == "__main__":
    main()
