"""Backgammon: a greedy 1-ply player on the game's evaluation against a uniformly random player,
as an arena run.

The greedy player is the agent ``expectiminimax:depth=1``: it plays the turn whose resulting
position :meth:`Backgammon.evaluate` scores best for it (the first such in the order of the legal
turns); the random player is the agent ``random``, a uniformly random legal turn. The match is a
two-player tournament of :mod:`plies.arena`: game pairs from the initial position with colours
swapped, both games of a pair rolling the same dice, every game seeded from its schedule key and
``--seed`` (so a run repeats exactly), played in ``--concurrency`` worker processes (1: in this
process) and written at once to the record ``--db FILE`` (by default a new file in a temporary
folder, printed); a rerun with the same ``--db`` plays only the games not yet recorded.

Prints the greedy player's wins, gammons and backgammons, its points per game (read from each
game's final position, replayed from the record), the seconds a move of each side and the games
per second of this run; then the arena's standings: maximum-likelihood Elo with 95% bootstrap
intervals over game pairs (:func:`plies.arena.ratings.rating_intervals`), which count a game as
won or lost, not the points of a win. A progress line runs meanwhile; Ctrl-C prints the games
finished so far and stops (exit status 130), the record kept for a rerun.

Usage (from the repository root)::

    PYTHONPATH=src .venv/bin/python benchmarks/backgammon_strength.py [--games 100] [--seed 1]
        [--concurrency CORES] [--db FILE]
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from plies.arena.ratings import format_standings, rating_intervals
from plies.arena.records import PlayedGame, Records, results_of
from plies.arena.tournament import check_players, opening_state, run, schedule
from plies.game import CHANCE
from plies.games.backgammon.rules import Backgammon

GAME = "backgammon"
GREEDY = "expectiminimax:depth=1"
RANDOM = "random"


@dataclass
class Tally:
    """The greedy player's results so far, and each side's seconds a move."""

    games: int = 0
    wins: int = 0
    points: int = 0
    wins_by_size: dict[int, int] = field(default_factory=lambda: {1: 0, 2: 0, 3: 0})
    losses_by_size: dict[int, int] = field(default_factory=lambda: {1: 0, 2: 0, 3: 0})
    seconds: dict[str, list[float]] = field(default_factory=lambda: {GREEDY: [], RANDOM: []})
    played: list[PlayedGame] = field(default_factory=list)

    def add(self, game: Backgammon, record: PlayedGame) -> None:
        """Replay a recorded game: its points for the greedy player, the time of each move."""
        state = opening_state(game, record.opening)
        white = game.players[0]
        for text, seconds in zip(record.moves, record.seconds, strict=True):
            mover = game.to_move(state)
            if mover != CHANCE:
                self.seconds[record.first if mover == white else record.second].append(seconds)
            state = game.result(state, game.parse_action(state, text))
        greedy_side = white if record.first == GREEDY else game.players[1]
        if game.is_terminal(state):
            points = int(game.utility(state, greedy_side))
        else:  # a forfeit (an agent failed): a single game
            points = 1 if (record.result == 1.0) == (record.first == GREEDY) else -1
        self.played.append(record)
        self.games += 1
        self.points += points
        if points > 0:
            self.wins += 1
            self.wins_by_size[points] += 1
        else:
            self.losses_by_size[-points] += 1

    def report(self, new_games: int, seconds: float) -> str:
        won, lost = self.wins_by_size, self.losses_by_size
        rate = new_games / seconds if seconds > 0 else 0.0
        per_game = self.points / self.games if self.games else 0.0
        per_move = {
            spec: sum(times) / len(times) if times else 0.0 for spec, times in self.seconds.items()
        }
        lines = [
            f"greedy 1-ply ({GREEDY}) vs random: {self.wins} wins of {self.games} games",
            f"  greedy wins:   {won[1]} single, {won[2]} gammons, {won[3]} backgammons",
            f"  greedy losses: {lost[1]} single, {lost[2]} gammons, {lost[3]} backgammons",
            f"  points per game for greedy: {per_game:+.2f}",
            f"  seconds a move: greedy {per_move[GREEDY]:.4f}, random {per_move[RANDOM]:.5f}",
            f"  this run: {new_games} games in {seconds:.1f} s, {rate:.2f} games/s",
        ]
        if self.played:
            lines += ["", format_standings(rating_intervals(results_of(self.played)))]
        return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100, help="games to play, even (100)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the dice and the agents")
    parser.add_argument(
        "--concurrency",
        type=int,
        default=os.cpu_count() or 1,
        help="worker processes (default: the cores; 1: in this process)",
    )
    parser.add_argument("--db", type=Path, help="the record (default: a new temporary file)")
    args = parser.parse_args(argv)
    if args.games < 2 or args.games % 2:
        parser.error("--games must be even and at least 2 (pairs, colours swapped)")
    if args.concurrency < 1:
        parser.error("--concurrency must be at least 1")
    path = args.db or Path(tempfile.mkdtemp(prefix="plies-backgammon-strength-")) / "games.sqlite"
    print(f"records in {path} (rerun with --db {path} to resume)", flush=True)
    game = Backgammon()
    check_players(GAME, [GREEDY, RANDOM])
    planned = schedule(GAME, [GREEDY, RANDOM], games=args.games, openings=[""], seed=args.seed)
    keys = {task.key for task in planned}
    records = Records(path, GAME)
    tally = Tally()
    for record in records.games():
        if record.key in keys:
            tally.add(game, record)
    already = tally.games
    began = time.perf_counter()
    try:
        with contextlib.closing(run(records, planned, args.concurrency)) as games:
            for record in games:
                tally.add(game, record)
                print(
                    f"\rgame {tally.games}/{args.games}: greedy {tally.wins} wins",
                    end="",
                    file=sys.stderr,
                    flush=True,
                )
    except KeyboardInterrupt:
        print(f"\ninterrupted after {tally.games} games", file=sys.stderr)
        print(tally.report(tally.games - already, time.perf_counter() - began))
        print(f"the finished games are kept in {path}: rerun with --db {path} to resume")
        return 130
    finally:
        records.close()
    if tally.games > already:
        print(file=sys.stderr)
    print(tally.report(tally.games - already, time.perf_counter() - began))
    return 0


if __name__ == "__main__":
    sys.exit(main())
