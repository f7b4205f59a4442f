"""ISMCTS strength and speed: the ``ismcts`` agent (MO-ISMCTS, :mod:`plies.search.ismcts`)
against ``random``, against itself at a quarter of its budget and, where the game ships a
CFR strategy (poker), against ``cfr`` (an approximate equilibrium), on Leduc poker, Kuhn poker
and the blind games (phantom tic-tac-toe, battleship) where they are registered.

Poker is scored in chips: every deal is played twice, the seats swapped and the cards the
same (duplicate poker, which takes most of the luck of the deal out), and the table gives A's
mean winnings a hand with the 95% interval of the mean over deals (normal, z = 1.96), and the
share of hands A won. The board games are matches of the arena (:func:`plies.arena.match.
run_match`: game pairs, colours swapped, every game seeded from ``--seed``), scored as wins,
draws and losses with the Wilson 95% interval of A's score. Each row also gives games a
second (both sides' thinking included) and the search's iterations a second, measured on
states of the game's random hands (no playing), ``--iterations`` a search.

Usage (from the repository root)::

    PYTHONPATH=src .venv/bin/python benchmarks/ismcts_strength.py [--iterations 1000]
        [--games 200] [--only leduc,phantom] [--seed 1]
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import time
from collections.abc import Iterator
from typing import Any

from plies.agents import make_agent
from plies.arena.match import Z_95, run_match, summarise
from plies.capabilities import HasShippedStrategy
from plies.errors import UnknownNameError
from plies.game import CHANCE, Game
from plies.play import play_game
from plies.registry import make_game
from plies.search.ismcts import ISMCTS

POKER = ("leduc", "kuhn")
"""Scored in chips, deals played twice."""
BOARDS = ("phantom", "battleship")
"""Scored as wins, draws and losses (arena matches)."""


def poker_row(game: Game[Any, Any], a: str, b: str, deals: int, seed: int) -> str:
    """A's mean chips a hand against B over ``deals`` deals played twice, with its interval."""
    means, won, hands = [], 0, 0
    began = time.perf_counter()
    for deal in range(deals):
        pair = []
        for a_seat in range(2):
            seats = {game.players[a_seat]: a, game.players[1 - a_seat]: b}
            agents = {
                player: make_agent(spec, game, seed=seed * 100_003 + 2 * deal + a_seat)
                for player, spec in seats.items()
            }
            chance = random.Random(seed * 1_000_003 + deal)
            record = play_game(game, agents, chance=chance)
            chips = game.utility(record.state, game.players[a_seat])
            pair.append(chips)
            won += chips > 0
            hands += 1
        means.append(statistics.mean(pair))
    seconds = time.perf_counter() - began
    mean = statistics.mean(means)
    half = Z_95 * statistics.stdev(means) / math.sqrt(len(means)) if len(means) > 1 else math.nan
    return (
        f"{a:>24} vs {b:<24} {hands:5d} hands  {mean:+7.3f} +- {half:5.3f} chips a hand  "
        f"won {won / hands:5.1%}  {hands / seconds:7.1f} games/s"
    )


def board_row(game: Game[Any, Any], a: str, b: str, games: int, seed: int) -> str:
    """A's wins, draws and losses against B in an arena match, with its score's interval."""
    began = time.perf_counter()
    result = summarise(run_match(game, a, b, games, seed=seed))
    seconds = time.perf_counter() - began
    low, high = wilson(result.score, result.games)
    return (
        f"{a:>24} vs {b:<24} {result.games:5d} games  +{result.wins} ={result.draws} "
        f"-{result.losses}  score {result.score:.3f} [{low:.3f}, {high:.3f}]  "
        f"{result.games / seconds:7.1f} games/s"
    )


def wilson(score: float, games: int) -> tuple[float, float]:
    """The Wilson 95% interval of a mean score over ``games`` games (a draw as half a win)."""
    z2 = Z_95**2
    spread = Z_95 * math.sqrt(score * (1 - score) / games + z2 / (4 * games * games))
    centre = score + z2 / (2 * games)
    return (centre - spread) / (1 + z2 / games), (centre + spread) / (1 + z2 / games)


def searched_states(game: Game[Any, Any], count: int, seed: int) -> Iterator[Any]:
    """``count`` states where a player is to move, from random hands."""
    rng = random.Random(seed)
    found = 0
    while found < count:
        state = game.initial_state()
        while not game.is_terminal(state):
            if game.to_move(state) != CHANCE and rng.random() < 0.3:
                found += 1
                yield state
                break
            state = game.result(state, rng.choice(list(game.actions(state))))


def speed(game: Game[Any, Any], iterations: int, seed: int) -> float:
    """ISMCTS's iterations a second over 20 searches of ``iterations``."""
    search: ISMCTS[Any, Any] = ISMCTS(game, seed=seed)
    began = time.perf_counter()
    for state in searched_states(game, 20, seed):
        search.search(state, iterations=iterations)
    return 20 * iterations / (time.perf_counter() - began)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--iterations", type=int, default=1000, help="ISMCTS iterations a move")
    parser.add_argument("--games", type=int, default=200, help="games (deals) a match")
    parser.add_argument("--only", default=",".join(POKER + BOARDS), help="games, by name")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    strong = f"ismcts:iterations={args.iterations}"
    weak = f"ismcts:iterations={max(1, args.iterations // 4)}"
    for name in args.only.split(","):
        try:
            game = make_game(name)
        except UnknownNameError:
            print(f"{name}: not registered here, skipped")
            continue
        print(f"{name}: {speed(game, args.iterations, args.seed):,.0f} iterations/s")
        row = poker_row if name in POKER else board_row
        opponents = ["random", weak] + (["cfr"] if isinstance(game, HasShippedStrategy) else [])
        for opponent in opponents:
            print(row(game, strong, opponent, args.games, args.seed), flush=True)


if __name__ == "__main__":
    main()
