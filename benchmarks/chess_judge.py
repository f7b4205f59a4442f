"""Chess agents judged by Stockfish at a fixed depth (``plies evaluate chess``'s judge): the
agreement with Stockfish's move and the mean losses of each agent on the same positions, the
baseline that a network playing without search (issue 28) is to be measured against.

Positions: one from each of ``--positions`` games that ``engine:depth=2`` plays against itself
after 8 random plies, drawn between the 12th and the 80th ply (middle games mostly). Written to
``--out`` (a FEN a line) so that ``plies evaluate chess SPEC --set FILE`` judges the same set.

Usage (from the repository root; needs Stockfish)::

    PYTHONPATH=src .venv/bin/python benchmarks/chess_judge.py [--positions 200] [--depth 12]
"""

from __future__ import annotations

import argparse
import random
import time
from pathlib import Path
from typing import Any

from plies.agents import make_agent
from plies.games import make_game
from plies.mistakes import AgreementSummary

AGENTS = ("random", "engine:depth=1", "engine:depth=3", "engine:depth=5", "engine:time=0.1")


def positions(game: Any, count: int, seed: int) -> list[Any]:
    """One position from each of ``count`` quick self-play games (see the module's text)."""
    rng = random.Random(seed)
    player = make_agent("engine:depth=2", game, seed=seed)
    found: list[Any] = []
    while len(found) < count:
        state, stop = game.initial_state(), rng.randint(12, 80)
        for ply in range(stop):
            if game.is_terminal(state):
                break
            move = rng.choice(list(game.actions(state))) if ply < 8 else player(game, state)
            state = game.result(state, move)
        if not game.is_terminal(state):
            found.append(state)
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=200)
    parser.add_argument("--depth", type=int, default=12)
    parser.add_argument("--seed", type=int, default=28)
    parser.add_argument("--out", type=Path, default=Path("chess_judge_set.fen"))
    args = parser.parse_args()
    game = make_game("chess")
    states = positions(game, args.positions, args.seed)
    args.out.write_text("".join(game.format_position(s) + "\n" for s in states))
    print(f"{len(states)} positions in {args.out}; Stockfish at depth {args.depth} judges\n")
    print(f"{'agent':<18} {'agrees':>7} {'mean cp loss':>13} {'mean expected loss':>19} {'s':>6}")
    referee = game.engine_judge(None, args.depth)
    try:
        numbered = list(enumerate(states, start=1))
        for spec in AGENTS:
            agent = make_agent(spec, game, seed=args.seed)
            began, summary = time.perf_counter(), AgreementSummary()
            for verdict in referee.verdicts(agent, numbered):
                summary = summary.add(verdict)
            seconds = time.perf_counter() - began
            print(
                f"{spec:<18} {summary.agreement_rate:>7.1%} {summary.mean_loss:>13.1f} "
                f"{summary.mean_expected_loss:>19.3f} {seconds:>6.0f}"
            )
    finally:
        referee.close()


if __name__ == "__main__":
    main()
