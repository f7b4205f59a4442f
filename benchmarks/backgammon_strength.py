"""Backgammon: a greedy 1-ply player on the game's evaluation against a uniformly random player.

The greedy player is the agent ``expectiminimax:depth=1``: it plays the turn whose resulting
position :meth:`Backgammon.evaluate` scores best for it (the first such in the order of the legal
turns); the random player is the agent ``random``, a uniformly random legal turn. Colours
alternate game by game; game ``i`` draws its dice from ``random.Random(seed + i)`` and the random
player is seeded with ``seed - i - 1``, so a run repeats exactly. Prints the greedy player's
wins, gammons and backgammons, its points per game, and games per second (a match of
:mod:`plies.match` scores wins, draws and losses only, not the points of a win); a progress line
runs meanwhile, and Ctrl-C prints the games finished so far and stops (exit status 130).

Usage (from the repository root)::

    PYTHONPATH=src .venv/bin/python benchmarks/backgammon_strength.py [--games 100] [--seed 1]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from dataclasses import dataclass, field

from plies.agents import make_agent
from plies.games.backgammon import Backgammon
from plies.play import play_game


@dataclass
class Tally:
    """The greedy player's results so far."""

    games: int = 0
    wins: int = 0
    points: int = 0
    wins_by_size: dict[int, int] = field(default_factory=lambda: {1: 0, 2: 0, 3: 0})
    losses_by_size: dict[int, int] = field(default_factory=lambda: {1: 0, 2: 0, 3: 0})

    def add(self, points: int) -> None:
        self.games += 1
        self.points += points
        if points > 0:
            self.wins += 1
            self.wins_by_size[points] += 1
        else:
            self.losses_by_size[-points] += 1

    def report(self, seconds: float) -> str:
        won, lost = self.wins_by_size, self.losses_by_size
        rate = self.games / seconds if seconds > 0 else 0.0
        per_game = self.points / self.games if self.games else 0.0
        return "\n".join(
            [
                f"greedy 1-ply vs random: {self.wins} wins of {self.games} games",
                f"  greedy wins:   {won[1]} single, {won[2]} gammons, {won[3]} backgammons",
                f"  greedy losses: {lost[1]} single, {lost[2]} gammons, {lost[3]} backgammons",
                f"  points per game for greedy: {per_game:+.2f}",
                f"  {seconds:.1f} s, {rate:.2f} games/s",
            ]
        )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100, help="games to play (100)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the dice and random player")
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error("--games must be at least 1")
    game = Backgammon()
    greedy = make_agent("expectiminimax:depth=1", game)
    tally = Tally()
    began = time.perf_counter()
    try:
        for index in range(args.games):
            opponent = make_agent("random", game, seed=args.seed - index - 1)
            greedy_side = game.players[index % 2]  # greedy plays White in even-numbered games
            agents = {greedy_side: greedy, game.opponent(greedy_side): opponent}
            record = play_game(game, agents, chance=random.Random(args.seed + index))
            tally.add(int(game.utility(record.state, greedy_side)))
            print(
                f"\rgame {tally.games}/{args.games}: greedy {tally.wins} wins",
                end="",
                file=sys.stderr,
                flush=True,
            )
    except KeyboardInterrupt:
        print(f"\ninterrupted after {tally.games} games", file=sys.stderr)
        print(tally.report(time.perf_counter() - began))
        return 130
    print(file=sys.stderr)
    print(tally.report(time.perf_counter() - began))
    return 0


if __name__ == "__main__":
    sys.exit(main())
