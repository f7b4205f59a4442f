"""Backgammon: one agent against another in cubeless money games, as an arena run, scored in
points a game (gammons 2, backgammons 3) with a 95% interval.

By default the player is the greedy agent ``expectiminimax:depth=1`` (the turn whose resulting
position :meth:`Backgammon.evaluate` scores best for it) and the opponent ``random`` (a
uniformly random legal turn); ``--player`` and ``--opponent`` name any others, such as
``engine:depth=3`` and ``gnubg:expert`` (GNU Backgammon,
:mod:`plies.games.backgammon.gnubg_agent`). The match is a two-player tournament of
:mod:`plies.arena`: game pairs from the initial position with colours swapped, both games of a
pair rolling the same dice, every game seeded from its schedule key and ``--seed`` (so a run
repeats exactly), played in ``--concurrency`` worker processes (1: in this process) and written
at once to the record ``--db FILE`` (by default a new file in a temporary folder, printed); a
rerun with the same ``--db`` plays only the games not yet recorded.

Prints the player's wins, gammons and backgammons, its points per game (read from each game's
final position, replayed from the record) with a 95% interval over the pairs of games (the two
games of a pair share their dice, so a pair's points vary less than two games'), the seconds a
move of each side and the games per second of this run; then the arena's standings:
maximum-likelihood Elo with 95% bootstrap intervals over game pairs
(:func:`plies.arena.ratings.rating_intervals`), which count a game as won or lost, not the
points of a win. A progress line runs meanwhile; Ctrl-C prints the games finished so far and
stops (exit status 130), the record kept for a rerun.

Usage (from the repository root)::

    PYTHONPATH=src .venv/bin/python benchmarks/backgammon_strength.py [--games 100] [--seed 1]
        [--player SPEC] [--opponent SPEC] [--concurrency CORES] [--db FILE]
"""

from __future__ import annotations

import argparse
import contextlib
import math
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
    """The player's results so far, and each side's seconds a move."""

    player: str
    opponent: str
    games: int = 0
    wins: int = 0
    points: int = 0
    wins_by_size: dict[int, int] = field(default_factory=lambda: {1: 0, 2: 0, 3: 0})
    losses_by_size: dict[int, int] = field(default_factory=lambda: {1: 0, 2: 0, 3: 0})
    seconds: dict[str, list[float]] = field(default_factory=dict)
    played: list[PlayedGame] = field(default_factory=list)
    pairs: dict[int, list[int]] = field(default_factory=dict)

    def add(self, game: Backgammon, record: PlayedGame) -> None:
        """Replay a recorded game: its points for the player, the time of each move."""
        state = opening_state(game, record.opening)
        white = game.players[0]
        for text, seconds in zip(record.moves, record.seconds, strict=True):
            mover = game.to_move(state)
            if mover != CHANCE:
                spec = record.first if mover == white else record.second
                self.seconds.setdefault(spec, []).append(seconds)
            state = game.result(state, game.parse_action(state, text))
        side = white if record.first == self.player else game.players[1]
        if game.is_terminal(state):
            points = int(game.utility(state, side))
        else:  # a forfeit (an agent failed): a single game
            points = 1 if (record.result == 1.0) == (record.first == self.player) else -1
        self.played.append(record)
        self.pairs.setdefault(record.pair, []).append(points)
        self.games += 1
        self.points += points
        if points > 0:
            self.wins += 1
            self.wins_by_size[points] += 1
        else:
            self.losses_by_size[-points] += 1

    def margin(self) -> float:
        """The 95% interval's half width of the points a game, over the complete pairs (the
        normal approximation to the mean of their per-game points)."""
        means = [sum(points) / 2 for points in self.pairs.values() if len(points) == 2]
        if len(means) < 2:
            return math.inf
        mean = sum(means) / len(means)
        variance = sum((x - mean) ** 2 for x in means) / (len(means) - 1)
        return 1.96 * math.sqrt(variance / len(means))

    def report(self, new_games: int, seconds: float) -> str:
        won, lost = self.wins_by_size, self.losses_by_size
        rate = new_games / seconds if seconds > 0 else 0.0
        per_game = self.points / self.games if self.games else 0.0
        per_move = {
            spec: sum(times) / len(times) if times else 0.0 for spec, times in self.seconds.items()
        }
        lines = [
            f"{self.player} vs {self.opponent}: {self.wins} wins of {self.games} games",
            f"  wins:   {won[1]} single, {won[2]} gammons, {won[3]} backgammons",
            f"  losses: {lost[1]} single, {lost[2]} gammons, {lost[3]} backgammons",
            f"  points per game for {self.player}: {per_game:+.3f} +-{self.margin():.3f} "
            "(95%, over pairs)",
            "  seconds a move: "
            + ", ".join(
                f"{spec} {per_move.get(spec, 0.0):.4f}" for spec in (self.player, self.opponent)
            ),
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
    parser.add_argument("--player", default=GREEDY, help=f"the agent measured ({GREEDY})")
    parser.add_argument("--opponent", default=RANDOM, help=f"its opponent ({RANDOM})")
    args = parser.parse_args(argv)
    if args.games < 2 or args.games % 2:
        parser.error("--games must be even and at least 2 (pairs, colours swapped)")
    if args.concurrency < 1:
        parser.error("--concurrency must be at least 1")
    path = args.db or Path(tempfile.mkdtemp(prefix="plies-backgammon-strength-")) / "games.sqlite"
    print(f"records in {path} (rerun with --db {path} to resume)", flush=True)
    game = Backgammon()
    players = [args.player, args.opponent]
    check_players(GAME, players)
    planned = schedule(GAME, players, games=args.games, openings=[""], seed=args.seed)
    keys = {task.key for task in planned}
    records = Records(path, GAME)
    tally = Tally(args.player, args.opponent)
    for record in records.games():
        if record.key in keys:
            tally.add(game, record)
    already = tally.games
    began = time.perf_counter()
    try:
        with contextlib.closing(run(records, planned, args.concurrency)) as games:
            for record in games:
                tally.add(game, record)
                if sys.stderr.isatty() or tally.games % 100 == 0:
                    end = "" if sys.stderr.isatty() else "\n"
                    line = (
                        f"game {tally.games}/{args.games}: {tally.points / tally.games:+.3f} a game"
                    )
                    print(f"\r{line}", end=end, file=sys.stderr, flush=True)
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
