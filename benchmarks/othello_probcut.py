"""ProbCut's margin for Othello's evaluation: how far a search of half the depth strays from the
full one (Buro, "ProbCut: An Effective Selective Extension of the Alpha-Beta Algorithm", ICCA
Journal 1995, fits ``v_d = a * v_d' + b + e`` and cuts where ``v_d'`` lies ``t * sigma(e)``
beyond the window).

Positions are drawn from the games of a tournament file (``--records``, e.g. the engine
self-play the pattern tables were fitted on: every ``--every``-th position from ply 12 to 50,
up to ``--positions``); each is searched by the compiled engine without ProbCut to depths 4 to
8 and to ProbCut's shallow depth for each (about half, of the same parity). Prints, per pair
of depths and per stage (discs), the regression's a and b, the standard deviation of
``v_d - v_d'`` (in the engine's scores: a win is 1) and the margin ``t * sigma`` (``--t``,
default 1.5) over all pairs, which is what ``plies.games.othello.rules.PROBCUT_MARGIN``
holds.

Usage (from the repository root)::

    PYTHONPATH=src .venv/bin/python benchmarks/othello_probcut.py --records FILE \\
        [--positions 600] [--every 7] [--t 1.5] [--evaluation patterns]
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from plies.arena.records import Records, stored_game
from plies.arena.tournament import opening_state
from plies.games.othello import Othello
from plies.native import probcut_depth
from plies.search.engine import EngineOptions, Limits, search

PAIRS = tuple((depth, probcut_depth(depth)) for depth in range(4, 9))


def positions(path: str, game: Othello, count: int, every: int) -> list[object]:
    """Every ``every``-th position of the file's games from ply 12 to 50, up to ``count``."""
    records = Records(path, stored_game(path), None)
    try:
        played = records.games()
    finally:
        records.close()
    found: list[object] = []
    for record in played:
        state = opening_state(game, record.opening)
        ply = len(record.opening.split())
        for text in record.moves:
            if 12 <= ply <= 50 and ply % every == 0 and not game.is_terminal(state):
                found.append(state)
                if len(found) == count:
                    return found
            state = game.result(state, game.parse_action(state, text))
            ply += 1
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--records", required=True)
    parser.add_argument("--positions", type=int, default=600)
    parser.add_argument("--every", type=int, default=7)
    parser.add_argument("--t", type=float, default=1.5)
    parser.add_argument("--evaluation", default="patterns")
    args = parser.parse_args()
    game = Othello(evaluation=args.evaluation)
    chosen = positions(args.records, game, args.positions, args.every)
    options = EngineOptions(probcut=False)
    began = time.perf_counter()
    values: dict[int, list[float]] = {}
    discs = [(s.black | s.white).bit_count() for s in chosen]  # type: ignore[attr-defined]
    for state in chosen:
        for depth in sorted({d for pair in PAIRS for d in pair}):
            found = search(game, state, Limits(depth=depth), options).value
            values.setdefault(depth, []).append(float(found))
    print(f"{len(chosen)} positions of {args.records}, {args.evaluation} evaluation, "
          f"{time.perf_counter() - began:.0f} s")  # fmt: skip
    print("depths  stage (discs)  positions      a       b   sigma")
    pooled = []
    stages = ((0, 64), (12, 24), (24, 36), (36, 48), (48, 64))
    for deep, shallow in PAIRS:
        full, half = np.array(values[deep]), np.array(values[shallow])
        for low, high in stages:
            chosen_rows = np.array([low <= d < high for d in discs])
            if chosen_rows.sum() < 10:
                continue
            a, b = np.polyfit(half[chosen_rows], full[chosen_rows], 1)
            sigma = float(np.std(full[chosen_rows] - half[chosen_rows]))
            where = "all" if (low, high) == (0, 64) else f"{low}-{high - 1}"
            print(f"{deep}/{shallow:<5} {where:>13}  {chosen_rows.sum():9}  {a:6.3f} {b:7.3f} "
                  f"{sigma:7.4f}")  # fmt: skip
        pooled.extend(full - half)
    sigma = float(np.std(pooled))
    print(f"pooled sigma {sigma:.4f}; margin t * sigma = {args.t} * {sigma:.4f} = "
          f"{args.t * sigma:.4f}")  # fmt: skip


if __name__ == "__main__":
    main()
