"""Checkers endgame databases: probes a second, and how many won endgames the engine converts
with the databases and without.

Won positions are drawn from the databases (a seeded sample over the materials of
``--pieces`` pieces, wins for the side to move of at least ``--min-distance`` plies). Each is
played out under plies' rules (the 80-ply draw count from 0) by the engine spec under test for
the winning side against the engine with the databases for the losing side (the longest
defence once it holds the position). A conversion is a win; a draw or a loss is a failure.
The positions are also written to ``--openings`` for ``plies tournament`` (one PDN FEN a
line), so the two engines can meet from them in the arena.

Usage (from the repository root)::

    PYTHONPATH=src python benchmarks/checkers_endgames.py [--pieces 4] [--positions 40] \\
        [--min-distance 21] [--time 0.1] [--db DIR] [--openings FILE] [--with-only]
"""

from __future__ import annotations

import argparse
import random
import time
from pathlib import Path

import numpy as np

from plies.agents import make_agent
from plies.capabilities import WIN
from plies.games import make_game
from plies.games.checkers.endgame import slice_index, slices
from plies.play import play_game
from plies.solvers.endgames import endgames_for


def probes_a_second(endgames: object, game: object, pieces: int, count: int = 20_000) -> float:
    """Random positions of ``pieces`` pieces (every position equally likely) probed one by
    one (their tables loaded first)."""
    rng = random.Random(1)
    chosen = slices(pieces)
    weights = [slice_index(s).positions for s in chosen]
    states = []
    for piece in rng.choices(chosen, weights, k=count):
        index = slice_index(piece)
        states.append(index.position(rng.randrange(index.positions)))
    for piece in chosen:
        endgames.table(piece)  # type: ignore[attr-defined]
    endgames.probe(states[0])  # type: ignore[attr-defined]  # compiled code loaded
    began = time.perf_counter()
    for state in states:
        endgames.probe(state)  # type: ignore[attr-defined]
    return count / (time.perf_counter() - began)


def won_positions(endgames: object, pieces: int, count: int, min_distance: int) -> list[object]:
    """``count`` positions won for the side to move in at least ``min_distance`` plies."""
    rng = np.random.default_rng(7)
    found = []
    candidates = []
    for piece in slices(pieces):
        table = endgames.table(piece)  # type: ignore[attr-defined]
        if table is None:
            raise SystemExit(f"no table for {piece}: build the databases first")
        numbers = np.flatnonzero((table.outcomes == WIN) & (table.distances >= min_distance))
        candidates += [(piece, int(n)) for n in numbers]
    for k in rng.choice(len(candidates), size=min(count, len(candidates)), replace=False):
        piece, number = candidates[int(k)]
        found.append(slice_index(piece).position(number))
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pieces", type=int, default=4)
    parser.add_argument("--positions", type=int, default=40)
    parser.add_argument("--min-distance", type=int, default=21)
    parser.add_argument("--time", type=float, default=0.1, help="seconds a move")
    parser.add_argument("--db", type=Path, action="append", default=[], help="a tables folder")
    parser.add_argument("--openings", type=Path, help="write the positions here")
    parser.add_argument(
        "--with-only", action="store_true", help="play only the engine with the databases"
    )
    args = parser.parse_args(argv)
    game = make_game("checkers")
    endgames = endgames_for(game, args.db)
    for pieces in range(2, args.pieces + 1):
        rate = probes_a_second(endgames, game, pieces)
        print(f"probes, {pieces} pieces: {rate:,.0f} a second (one thread, tables in memory)")
    positions = won_positions(endgames, args.pieces, args.positions, args.min_distance)
    if args.openings:
        args.openings.write_text("".join(game.format_position(s) + "\n" for s in positions))
    print(f"{len(positions)} positions of {args.pieces} pieces won in >= {args.min_distance} plies")
    defender = f"engine:time={args.time}"
    specs = [f"engine:time={args.time},endgames=false", f"engine:time={args.time}"]
    for spec in specs[1:] if args.with_only else specs:
        results = {"win": 0, "draw": 0, "loss": 0}
        plies, began = [], time.perf_counter()
        for state in positions:
            mover = game.to_move(state)
            agents = {
                mover: make_agent(spec, game),
                game.opponent(mover): make_agent(defender, game),
            }
            record = play_game(game, agents, state=state)
            winner = game.winner(record.state)  # type: ignore[attr-defined]
            results["win" if winner == mover else "draw" if winner is None else "loss"] += 1
            plies.append(len(record.turns))
        seconds = time.perf_counter() - began
        print(
            f"{spec:40} converts {results['win']}/{len(positions)} "
            f"(draws {results['draw']}, losses {results['loss']}), "
            f"mean {np.mean(plies):.1f} plies, {seconds:.0f} s"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
