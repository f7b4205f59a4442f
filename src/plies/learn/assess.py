"""How each generation of a run is judged: the network alone (``policy``) against random moves
over paired games, and, for games with a perfect solver, the mistake rate of the network alone
and of ``az`` on a fixed sample of positions (:mod:`plies.mistakes`). The figures depend on the
network and the seed alone, not on where the run's folder is."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from plies.agents import make_agent
from plies.capabilities import HasPerfectSolver, HasPositionNotation, require
from plies.game import Game
from plies.mistakes import judge_moves, summarise_verdicts
from plies.openings import random_openings
from plies.play import play_game
from plies.solvers.sets import SetEntry, read_set
from plies.testing import random_position


def sample_positions(game: Game[Any, Any], count: int, seed: int) -> list[SetEntry]:
    """``count`` distinct positions of random games (10 to 24 plies: quick to solve), as set
    entries."""
    if count == 0 or not isinstance(game, HasPerfectSolver):
        return []
    notation = require(game, HasPositionNotation, "positions to judge moves on")
    rng = random.Random(seed)
    lines: dict[str, None] = {}
    for _ in range(count * 20):
        state = random_position(game, rng, range(10, 25))
        if not game.is_terminal(state):
            lines[notation.format_position(state)] = None
        if len(lines) == count:
            break
    return read_set(game, list(lines))


def assess_generation(
    game: Game[Any, Any],
    checkpoint: Path,
    games: int,
    positions: list[SetEntry],
    simulations: int,
    seed: int,
) -> dict[str, Any]:
    """The figures of one generation's ``checkpoint``."""
    figures: dict[str, Any] = {}
    policy = f"policy:model={checkpoint},device=cpu"
    if games >= 2:
        figures["policy_vs_random"] = round(_score_against_random(game, policy, games, seed), 4)
    if positions and isinstance(game, HasPerfectSolver):
        az = f"az:model={checkpoint},simulations={simulations},device=cpu"
        for name, spec in (("policy", policy), ("az", az)):
            agent = make_agent(spec, game, seed=seed)
            summary = summarise_verdicts(judge_moves(game, agent, positions))
            figures[f"{name}_mistake_rate"] = round(summary.mistake_rate, 4)
    return figures


def _score_against_random(game: Game[Any, Any], spec: str, games: int, seed: int) -> float:
    """The mean score of agent ``spec`` against random moves over ``games // 2`` pairs of games
    from random openings, each side first once on the same dice. The games are drawn from
    ``seed`` alone (a match's seeds would include the spec, and with it the checkpoint's path)."""
    agent, rival = make_agent(spec, game), make_agent("random", game)
    pairs = games // 2
    openings = random_openings(game, pairs, game.opening_plies, seed)
    total = 0.0
    for pair in range(pairs):
        dice = random.Random(f"plies-assess:{seed}:{pair}").getrandbits(63)
        for seat in game.players:
            agent.reset(dice)
            rival.reset(dice)
            seats = {player: agent if player == seat else rival for player in game.players}
            start = openings[pair % len(openings)].state
            total += play_game(game, seats, start, chance=random.Random(dice)).score(seat)
    return total / (2 * pairs)
