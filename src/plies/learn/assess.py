"""How each generation of a run is judged: the network alone (``policy``) against random moves
over paired games, and, for games with a perfect solver, the mistake rate of the network alone
and of ``az`` on a fixed sample of positions (:mod:`plies.mistakes`)."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from plies.agents import make_agent
from plies.capabilities import HasPerfectSolver, HasPositionNotation, require
from plies.game import Game
from plies.match import run_match, summarise
from plies.mistakes import judge_moves, summarise_verdicts
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
        match = summarise(run_match(game, policy, "random", games - games % 2, seed=seed))
        figures["policy_vs_random"] = round(match.score, 4)
    if positions and isinstance(game, HasPerfectSolver):
        az = f"az:model={checkpoint},simulations={simulations},device=cpu"
        for name, spec in (("policy", policy), ("az", az)):
            agent = make_agent(spec, game, seed=seed)
            summary = summarise_verdicts(judge_moves(game, agent, positions))
            figures[f"{name}_mistake_rate"] = round(summary.mistake_rate, 4)
    return figures
