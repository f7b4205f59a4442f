"""MCTS strength: tic-tac-toe against perfect play, and Connect Four, Othello and checkers
against a uniformly random player.

The MCTS player is the agent ``mcts:iterations=N`` (:class:`plies.search.mcts.MCTS` with its
defaults: UCB1, c = sqrt 2, random playouts, Connect Four's compiled, MCTS-Solver on), N =
``--iterations`` per move, keeping its tree from move to move; the random player is the agent
``random``. Targets: at 2,000 iterations it never loses a tic-tac-toe game to perfect
play (50 games, colours alternating: all draws), and it wins at least 95 of 100 games against
the random player in each of the other games.

The perfect tic-tac-toe player (the library has none: ``alphabeta`` always plays the first best
move) chooses uniformly at random among the moves that keep the exact
minimax value, computed by a memoised negamax that is checked first against
:func:`plies.search.minimax` on every first move. In game ``i`` MCTS plays the first player when
``i`` is even; its seed is ``seed + i`` and the opponent's ``seed - i - 1``, so a run repeats
exactly. A progress line runs on stderr; Ctrl-C prints the games finished so far and stops
(exit status 130). ``--jobs N`` plays N games at a time in separate processes.

Usage (from the repository root)::

    PYTHONPATH=src .venv/bin/python benchmarks/mcts_strength.py [--iterations 2000]
        [--games 100] [--tictactoe-games 50] [--only connect4,othello] [--seed 1] [--jobs 1]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field

from plies.agents import Agent, make_agent
from plies.game import WinLossDrawGame
from plies.games import make_game
from plies.games.tictactoe import TicTacToe
from plies.match import GameOutcome, MatchResult, summarise
from plies.play import play_game
from plies.search import minimax
from plies.search.mcts import MCTS
from plies.testing import Oracle, OracleAgent

MATCHES = ("tictactoe", "connect4", "othello", "checkers")
TICTACTOE = TicTacToe()


ORACLE = Oracle(TICTACTOE)


def check_oracle() -> None:
    """The memoised oracle against the textbook minimax on every first move."""
    start = TICTACTOE.initial_state()
    for action in TICTACTOE.actions(start):
        child = TICTACTOE.result(start, action)
        if minimax(TICTACTOE, child).value != ORACLE.value(child):
            raise SystemExit(f"the perfect player disagrees with minimax after {action}")


@dataclass(frozen=True)
class Played:
    """One game: its outcome for MCTS (A) as a match records it, and MCTS's search totals."""

    outcome: GameOutcome
    iterations: int
    search_seconds: float


def play_one(match: str, index: int, iterations: int, seed: int) -> Played:
    game = make_game(match)
    assert isinstance(game, WinLossDrawGame)
    MCTS(game).search(game.initial_state(), iterations=1)  # loads a compiled playout untimed
    mcts = make_agent(f"mcts:iterations={iterations}", game, seed=seed + index)
    opponent: Agent
    if match == "tictactoe":
        opponent = OracleAgent(ORACLE, random.Random(seed - index - 1))
    else:
        opponent = make_agent("random", game, seed=seed - index - 1)
    first, second = game.players
    side = first if index % 2 == 0 else second
    agents = {side: mcts, game.opponent(side): opponent}
    began = time.perf_counter()
    record = play_game(game, agents)
    seconds = time.perf_counter() - began
    winner = game.winner(record.state)
    result = 0.5 if winner is None else float(winner == side)
    outcome = GameOutcome(index, 0, side, result, len(record.turns), seconds)  # from the start
    searches = [t.search for t in record.turns if t.player == side and t.search is not None]
    return Played(
        outcome,
        sum(s.stats.nodes for s in searches),
        sum(s.stats.time for s in searches),
    )


@dataclass
class Tally:
    match: str
    planned: int
    played: list[Played] = field(default_factory=list)

    def score(self) -> MatchResult:
        return summarise(p.outcome for p in self.played)

    def verdict(self) -> tuple[str, str]:
        """The target and whether it is met (on the games finished)."""
        played, score = len(self.played), self.score()
        if self.match == "tictactoe":
            return "no loss (all draws)", "MET" if score.losses == 0 and played else "NOT MET"
        needed = -(-95 * self.planned // 100)
        target = f">= {needed} wins of {self.planned}"
        if played < self.planned:
            return target, "INCOMPLETE"
        return target, "MET" if score.wins >= needed else "NOT MET"

    def row(self) -> list[str]:
        played, score = len(self.played), self.score()
        seconds = sum(p.outcome.seconds for p in self.played)
        searched = sum(p.iterations for p in self.played)
        search_seconds = sum(p.search_seconds for p in self.played)
        opponent = "perfect" if self.match == "tictactoe" else "random"
        target, verdict = self.verdict()
        return [
            f"{self.match} vs {opponent}",
            f"{played}/{self.planned}",
            str(score.wins),
            str(score.draws),
            str(score.losses),
            f"{seconds / played:.2f}" if played else "-",
            f"{searched / search_seconds:,.0f}" if search_seconds else "-",
            target,
            verdict,
        ]


def report(tallies: list[Tally], iterations: int) -> None:
    header = ["match", "games", "wins", "draws", "losses", "s/game", "iter/s", "target", ""]
    body = [t.row() for t in tallies]
    widths = [max(len(line[i]) for line in [header, *body]) for i in range(len(header))]
    print(f"MCTS (UCB1, c = sqrt 2, solver on), {iterations} iterations a move")
    for line in [header, ["-" * w for w in widths], *body]:
        print(
            "  ".join(
                c.ljust(w) if i == 0 else c.rjust(w)
                for i, (c, w) in enumerate(zip(line, widths, strict=True))
            )
        )
    sys.stdout.flush()


def games(match: str, count: int, iterations: int, seed: int, jobs: int) -> Iterator[Played]:
    """The outcomes of games 0..count-1, in order, ``jobs`` at a time."""
    if jobs == 1:
        for index in range(count):
            yield play_one(match, index, iterations, seed)
        return
    with ProcessPoolExecutor(jobs) as pool:
        futures = [pool.submit(play_one, match, i, iterations, seed) for i in range(count)]
        try:
            for future in futures:
                yield future.result()
        finally:
            pool.shutdown(cancel_futures=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=2000, help="MCTS iterations a move")
    parser.add_argument("--games", type=int, default=100, help="games against random (100)")
    parser.add_argument("--tictactoe-games", type=int, default=50, help="against perfect (50)")
    parser.add_argument("--only", default=",".join(MATCHES), help="matches, comma-separated")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1, help="games played at a time (1)")
    args = parser.parse_args(argv)
    chosen = [m.strip() for m in args.only.split(",") if m.strip()]
    unknown = sorted(set(chosen) - set(MATCHES))
    if unknown:
        parser.error(f"--only: unknown match {', '.join(unknown)}; choose from {MATCHES}")
    if min(args.iterations, args.games, args.tictactoe_games, args.jobs) < 1:
        parser.error("--iterations, --games, --tictactoe-games and --jobs must be positive")
    if "tictactoe" in chosen:
        check_oracle()
    tallies = [Tally(m, args.tictactoe_games if m == "tictactoe" else args.games) for m in chosen]
    began = time.perf_counter()
    try:
        for tally in tallies:
            for played in games(tally.match, tally.planned, args.iterations, args.seed, args.jobs):
                tally.played.append(played)
                score = tally.score()
                print(
                    f"\r{tally.match}: game {len(tally.played)}/{tally.planned}: "
                    f"{score.wins} wins, {score.draws} draws, {score.losses} losses "
                    f"({time.perf_counter() - began:.0f} s)",
                    end="",
                    file=sys.stderr,
                    flush=True,
                )
            print(file=sys.stderr)
    except KeyboardInterrupt:
        print("\ninterrupted: the games finished so far", file=sys.stderr)
        report(tallies, args.iterations)
        return 130
    report(tallies, args.iterations)
    print(f"(total {time.perf_counter() - began:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
