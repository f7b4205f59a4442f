"""The perfect agent from the first move: Connect Four games against the engine and random
players, every move of the perfect agent timed and checked.

The agent is ``perfect:time=T`` (T seconds a move, 1 by default: 80% for the solver, the
engine's move when the solver does not finish), with the opening book shipped in the package.
It plays each opponent of ``--opponents`` ``--games`` times in each seat, the opponents seeded
per game. For each of its moves the script records where the move came from (the book, a
solve, or the engine's fallback) and its wall time, and checks it: a position the book holds
is judged by the book, any other by a fresh solver without the book (at most ``--judge``
seconds; a position it cannot judge in that time is counted as unjudged). Prints, per
opponent and seat: games, the agent's moves, how many came from the book, from a solve and
from the fallback, the mean and the worst seconds a move, the moves that lost score, and the
agent's results. Target (issue 15): no fallback, no lost score, every move within 1 s.

Usage (from the repository root)::

    PYTHONPATH=src .venv/bin/python benchmarks/connect4_perfect_play.py [--games 4]
        [--time 1.0] [--opponents engine:time=0.1,random] [--judge 60]
"""

from __future__ import annotations

import argparse
import statistics
import time
from dataclasses import dataclass, field
from typing import Any

from plies.agents import make_agent
from plies.errors import BudgetExhaustedError
from plies.games.connect4.book import shipped_book
from plies.games.connect4.rules import ConnectFour
from plies.games.connect4.solver import Connect4Solver


@dataclass
class Tally:
    """What the perfect agent did in the games of one row."""

    games: int = 0
    book: int = 0
    solved: int = 0
    fallback: int = 0
    lost_score: int = 0
    unjudged: int = 0
    seconds: list[float] = field(default_factory=list)
    results: list[str] = field(default_factory=list)


def keeps_score(judge: Connect4Solver, state: Any, move: int, limit: float) -> bool | None:
    """Whether ``move`` keeps the score of ``state``: by the shipped book where it holds the
    position, else by a solve without it (None when that runs out of time)."""
    book = shipped_book()
    known = None if book is None else book.lookup(state)
    if known is not None:
        return move in known.moves
    try:
        return move in judge.decide(state, seconds=limit).moves
    except BudgetExhaustedError:
        return None


def play(
    game: ConnectFour,
    tally: Tally,
    agent: Any,
    opponent: Any,
    seat: int,
    limit: float,
    judge: Connect4Solver,
) -> None:
    """One game, the agent moving when the stones on the board have parity ``seat``."""
    state = game.initial_state()
    while not game.is_terminal(state):
        if state.moves % 2 != seat:
            state = game.result(state, opponent(game, state))
            continue
        began = time.perf_counter()
        move = agent(game, state)
        tally.seconds.append(time.perf_counter() - began)
        report = agent.last
        if not report.solved:
            tally.fallback += 1
        elif report.stats.nodes == 0:
            tally.book += 1
        else:
            tally.solved += 1
        verdict = keeps_score(judge, state, move, limit)
        tally.unjudged += verdict is None
        tally.lost_score += verdict is False
        state = game.result(state, move)
    winner = game.winner(state)
    tally.results.append(
        "draw" if winner is None else "won" if winner == game.players[seat] else "lost"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--time", type=float, default=1.0)
    parser.add_argument("--opponents", default="engine:time=0.1,random")
    parser.add_argument("--judge", type=float, default=60.0)
    args = parser.parse_args()
    game = ConnectFour()
    book = shipped_book()
    print(f"book: {'none' if book is None else f'{len(book):,} positions, {book.plies} plies'}")
    judge = Connect4Solver(game, book=False)
    header = (
        f"{'opponent':<22} {'seat':<6} {'games':>5} {'moves':>5} {'book':>5} {'solved':>6} "
        f"{'fallback':>8} {'mean s':>7} {'worst s':>7} {'lost':>4} {'unjudged':>8}  results"
    )
    print(header)
    worst = 0.0
    for spec in args.opponents.split(","):
        for seat in (0, 1):
            tally = Tally()
            for index in range(args.games):
                agent = make_agent(f"perfect:time={args.time}", game, seed=index)
                opponent = make_agent(spec, game, seed=1000 * seat + index)
                play(game, tally, agent, opponent, seat, args.judge, judge)
                tally.games += 1
            worst = max(worst, max(tally.seconds))
            results = ", ".join(f"{tally.results.count(r)} {r}" for r in ("won", "draw", "lost"))
            print(
                f"{spec:<22} {'first' if seat == 0 else 'second':<6} {tally.games:>5} "
                f"{len(tally.seconds):>5} {tally.book:>5} {tally.solved:>6} {tally.fallback:>8} "
                f"{statistics.mean(tally.seconds):>7.3f} {max(tally.seconds):>7.3f} "
                f"{tally.lost_score:>4} {tally.unjudged:>8}  {results}"
            )
    print(f"worst move: {worst:.3f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
