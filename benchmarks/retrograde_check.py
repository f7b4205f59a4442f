"""Retrograde analysis as a cross-check of the forward solvers: every position reachable from
the start of a small game solved backwards, then compared with the Connect Four solver (Pons's
score from the outcome and distance) or with alpha-beta to the end.

Prints positions, rounds, wins/draws/losses, the seconds to enumerate and solve, and the
number of positions that disagree (0 expected; exits with status 1 otherwise).

Usage (from the repository root)::

    PYTHONPATH=src python benchmarks/retrograde_check.py [tictactoe connect4:width=4,height=4 \\
        connect4:width=5,height=4 ...]
"""

from __future__ import annotations

import argparse
import time
from typing import Any

from plies.games import make_game
from plies.search import alphabeta
from plies.solvers.retrograde import EnumeratedPositions, solve_graph


def disagreements(game: Any, positions: EnumeratedPositions, solved: Any) -> tuple[int, int]:
    """Positions whose solved value differs from the forward solver's, and positions checked."""
    solver = game.perfect_solver() if hasattr(game, "perfect_solver") else None
    wrong = checked = 0
    for index, state in enumerate(positions.states):
        if game.is_terminal(state):
            continue
        outcome, distance = int(solved.outcomes[index]), int(solved.distances[index])
        if solver is not None:
            cells = game.width * game.height
            magnitude = (cells + 1 - (state.moves + distance - 1)) // 2
            expected = 0 if outcome == 3 else magnitude if outcome == 1 else -magnitude
            wrong += solver.solve(state).score != expected
        else:
            mover = game.to_move(state)
            value = alphabeta(game, state, max_player=mover).value
            draw = game.scoring.utility(None, mover)
            found = 1 if value > draw else 2 if value < draw else 3
            wrong += found != outcome
        checked += 1
    return wrong, checked


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "games", nargs="*", default=["tictactoe", "nim", "tiles", "connect4:width=4,height=4"]
    )
    args = parser.parse_args(argv)
    failed = False
    for spec in args.games:
        game = make_game(spec)
        began = time.perf_counter()
        positions = EnumeratedPositions(game)
        enumerated = time.perf_counter() - began
        began = time.perf_counter()
        solved = solve_graph(positions.graph)
        solving = time.perf_counter() - began
        began = time.perf_counter()
        wrong, checked = disagreements(game, positions, solved)
        checking = time.perf_counter() - began
        failed |= wrong > 0
        print(
            f"{spec}: {len(positions):,} positions, {len(positions.graph.children):,} moves, "
            f"{solved.rounds} rounds; {solved.counts()}; enumerated in {enumerated:.1f} s, "
            f"solved in {solving:.2f} s; {wrong} of {checked:,} disagree "
            f"(checked in {checking:.0f} s)",
            flush=True,
        )
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
