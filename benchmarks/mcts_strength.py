"""MCTS strength: tic-tac-toe against perfect play, and Connect Four, Othello and checkers
against a uniformly random player, each match an arena run.

The MCTS player is the agent ``mcts:iterations=N`` (:class:`plies.search.mcts.MCTS` with its
defaults: UCB1, c = sqrt 2, random playouts, Connect Four's compiled, MCTS-Solver on), N =
``--iterations`` per move, keeping its tree from move to move; the random player is the agent
``random``. Targets: at 2,000 iterations it never loses a tic-tac-toe game to perfect play (50
games: all draws), and it wins at least 95 of 100 games against the random player in each of
the other games.

The perfect tic-tac-toe player (the library has none: ``alphabeta`` always plays the first best
move) is the agent ``oracle`` that this script registers (worker processes register it again
when they import the script): it chooses uniformly at random among the moves that keep the exact
minimax value, by :class:`plies.testing.Oracle`'s memoised negamax, checked first against
:func:`plies.search.minimax` on every first move.

Each match is a two-player tournament of :mod:`plies.arena`: game pairs from the initial
position, colours swapped, played in ``--concurrency`` worker processes (1: in this process),
every game seeded from its schedule key and ``--seed`` (so a run repeats exactly) and written
at once to the record ``DIR/GAME.sqlite`` of ``--db DIR`` (by default a new temporary folder,
printed); a rerun with the same ``--db`` plays only the games not yet recorded. Per match the
table gives MCTS's wins, draws and losses, the seconds a game (its moves' time, both sides) and
MCTS's seconds a move, the target and whether it is met; then the arena's standings: maximum
likelihood Elo with 95% bootstrap intervals over game pairs
(:func:`plies.arena.ratings.rating_intervals`; a player who won every game is marked ``*``).
The first MCTS move of each worker process also loads Connect Four's compiled playout (this
process loads it before the games). A progress line runs on stderr; Ctrl-C prints the games
finished so far and stops (exit status 130), the record kept for a rerun.

Usage (from the repository root)::

    PYTHONPATH=src .venv/bin/python benchmarks/mcts_strength.py [--iterations 2000]
        [--games 100] [--tictactoe-games 50] [--only connect4,othello] [--seed 1]
        [--concurrency CORES] [--db DIR]
"""

from __future__ import annotations

import argparse
import contextlib
import os
import random
import sys
import tempfile
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from plies.agents import AGENTS, Agent, AgentKind, Context, register
from plies.arena.ratings import format_standings, rating_intervals
from plies.arena.records import PlayedGame, Records, results_of
from plies.arena.tournament import check_players, opening_state, run, schedule
from plies.errors import SpecError
from plies.game import CHANCE, Game
from plies.games import make_game
from plies.games.tictactoe.rules import TicTacToe
from plies.search import minimax
from plies.search.mcts import MCTS
from plies.testing import Oracle, OracleAgent

MATCHES = ("tictactoe", "connect4", "othello", "checkers")
TICTACTOE = TicTacToe()
ORACLE = Oracle(TICTACTOE)
PERFECT = "oracle"
"""The agent kind of the perfect tic-tac-toe player."""


def perfect_player(game: Game[Any, Any], values: Mapping[str, Any], context: Context) -> Agent:
    """Tic-tac-toe's perfect player: uniformly at random among the best moves."""
    if not isinstance(game, TicTacToe):
        raise SpecError(f"{PERFECT}: tic-tac-toe only, not {game.name}")
    return OracleAgent(Oracle(game), random.Random(context.seed), name=context.name)


if PERFECT not in AGENTS:  # a worker process imports this script again
    register(
        AgentKind(
            PERFECT,
            "tic-tac-toe's perfect player, at random among the best moves (this benchmark's)",
            (),
            perfect_player,
        )
    )


def check_oracle() -> None:
    """The memoised oracle against the textbook minimax on every first move."""
    start = TICTACTOE.initial_state()
    for action in TICTACTOE.actions(start):
        child = TICTACTOE.result(start, action)
        if minimax(TICTACTOE, child).value != ORACLE.value(child):
            raise SystemExit(f"the perfect player disagrees with minimax after {action}")


def move_seconds(game: Game[Any, Any], record: PlayedGame) -> dict[str, list[float]]:
    """The seconds of each player's moves in a recorded game, by spec (chance moves left out),
    found by replaying its moves from its opening."""
    state = opening_state(game, record.opening)
    first = game.players[0]
    spent: dict[str, list[float]] = {record.first: [], record.second: []}
    for text, seconds in zip(record.moves, record.seconds, strict=True):
        mover = game.to_move(state)
        if mover != CHANCE:
            spent[record.first if mover == first else record.second].append(seconds)
        state = game.result(state, game.parse_action(state, text))
    return spent


@dataclass
class Match:
    """One match: MCTS against its opponent in one game, and its recorded games so far."""

    game: str
    planned: int
    mcts: str
    opponent: str
    played: list[PlayedGame] = field(default_factory=list)
    mcts_seconds: list[float] = field(default_factory=list)

    def add(self, game: Game[Any, Any], record: PlayedGame) -> None:
        self.played.append(record)
        self.mcts_seconds += move_seconds(game, record)[self.mcts]

    def scores(self) -> list[float]:
        """MCTS's score in each game."""
        return [g.result if g.first == self.mcts else 1 - g.result for g in self.played]

    def wdl(self) -> tuple[int, int, int]:
        scores = self.scores()
        return scores.count(1.0), scores.count(0.5), scores.count(0.0)

    def verdict(self) -> tuple[str, str]:
        """The target and whether it is met (on the games finished)."""
        wins, _, losses = self.wdl()
        if self.game == "tictactoe":
            return "no loss (all draws)", "MET" if losses == 0 and self.played else "NOT MET"
        needed = -(-95 * self.planned // 100)
        target = f">= {needed} wins of {self.planned}"
        if len(self.played) < self.planned:
            return target, "INCOMPLETE"
        return target, "MET" if wins >= needed else "NOT MET"

    def row(self) -> list[str]:
        played = len(self.played)
        wins, draws, losses = self.wdl()
        seconds = sum(sum(g.seconds) for g in self.played)
        moves = len(self.mcts_seconds)
        target, verdict = self.verdict()
        return [
            f"{self.game} vs {'perfect' if self.game == 'tictactoe' else 'random'}",
            f"{played}/{self.planned}",
            str(wins),
            str(draws),
            str(losses),
            f"{seconds / played:.2f}" if played else "-",
            f"{sum(self.mcts_seconds) / moves:.4f}" if moves else "-",
            target,
            verdict,
        ]


def report(matches: list[Match], iterations: int) -> None:
    header = ["match", "games", "wins", "draws", "losses", "s/game", "MCTS s/move", "target", ""]
    body = [m.row() for m in matches]
    widths = [max(len(line[i]) for line in [header, *body]) for i in range(len(header))]
    print(f"MCTS (UCB1, c = sqrt 2, solver on), {iterations} iterations a move")
    for line in [header, ["-" * w for w in widths], *body]:
        print(
            "  ".join(
                c.ljust(w) if i == 0 else c.rjust(w)
                for i, (c, w) in enumerate(zip(line, widths, strict=True))
            ).rstrip()
        )
    for match in matches:
        if match.played:
            print(f"\n{match.game}: {len(match.played)} games")
            print(format_standings(rating_intervals(results_of(match.played))))
    sys.stdout.flush()


def play_match(match: Match, folder: Path, concurrency: int, seed: int, began: float) -> None:
    """Play (or finish) a match, adding its games to ``match`` as they end."""
    game = make_game(match.game)
    specs = [match.mcts, match.opponent]
    check_players(match.game, specs)
    planned = schedule(match.game, specs, games=match.planned, openings=[""], seed=seed)
    keys = {task.key for task in planned}
    records = Records(folder / f"{match.game}.sqlite", match.game)
    try:
        for record in records.games():
            if record.key in keys:
                match.add(game, record)
        if concurrency == 1 and match.game == "connect4":
            MCTS(game).search(game.initial_state(), iterations=1)  # loads the compiled playout
        already = len(match.played)
        with contextlib.closing(run(records, planned, concurrency)) as games:
            for record in games:
                match.add(game, record)
                wins, draws, losses = match.wdl()
                print(
                    f"\r{match.game}: game {len(match.played)}/{match.planned}: "
                    f"{wins} wins, {draws} draws, {losses} losses "
                    f"({time.perf_counter() - began:.0f} s)",
                    end="",
                    file=sys.stderr,
                    flush=True,
                )
        if len(match.played) > already:
            print(file=sys.stderr)
    finally:
        records.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=2000, help="MCTS iterations a move")
    parser.add_argument("--games", type=int, default=100, help="games against random (100)")
    parser.add_argument("--tictactoe-games", type=int, default=50, help="against perfect (50)")
    parser.add_argument("--only", default=",".join(MATCHES), help="matches, comma-separated")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--concurrency",
        "--jobs",
        type=int,
        default=os.cpu_count() or 1,
        help="worker processes (default: the cores; 1: in this process)",
    )
    parser.add_argument(
        "--db", type=Path, help="folder of the records, one GAME.sqlite each (default: a new one)"
    )
    args = parser.parse_args(argv)
    chosen = [m.strip() for m in args.only.split(",") if m.strip()]
    unknown = sorted(set(chosen) - set(MATCHES))
    if unknown:
        parser.error(f"--only: unknown match {', '.join(unknown)}; choose from {MATCHES}")
    if min(args.iterations, args.games, args.tictactoe_games, args.concurrency) < 1:
        parser.error("--iterations, --games, --tictactoe-games and --concurrency must be positive")
    if args.games % 2 or args.tictactoe_games % 2:
        parser.error("--games and --tictactoe-games must be even (pairs, colours swapped)")
    if "tictactoe" in chosen:
        check_oracle()
    folder = args.db or Path(tempfile.mkdtemp(prefix="plies-mcts-strength-"))
    folder.mkdir(parents=True, exist_ok=True)
    print(f"records in {folder} (rerun with --db {folder} to resume)", flush=True)
    mcts = f"mcts:iterations={args.iterations}"
    matches = [
        Match(m, args.tictactoe_games, mcts, PERFECT)
        if m == "tictactoe"
        else Match(m, args.games, mcts, "random")
        for m in chosen
    ]
    began = time.perf_counter()
    try:
        for match in matches:
            play_match(match, folder, args.concurrency, args.seed, began)
    except KeyboardInterrupt:
        print("\ninterrupted: the games finished so far", file=sys.stderr)
        report(matches, args.iterations)
        print(f"the finished games are kept in {folder}: rerun with --db {folder} to resume")
        return 130
    report(matches, args.iterations)
    print(f"(total {time.perf_counter() - began:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
