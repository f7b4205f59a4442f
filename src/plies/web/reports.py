"""Searches as JSON for the browser: the live report of an agent thinking, the line in the
game's notation, and MCTS's tree. JSON has no NaN or infinity: such numbers become null."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from plies.agents import Agent, PerfectAgent
from plies.game import Game
from plies.play import line_notation
from plies.search import SearchResult
from plies.search.result import VisitNode


def finite(value: float | None) -> float | None:
    """``value`` when it is a finite number, else None."""
    return value if value is not None and math.isfinite(value) else None


def score_text(result: SearchResult[Any]) -> str | None:
    """The engine's score as people read it: ``+0.35``, ``wins in 5``, ``loses in 4``."""
    if result.score is None or not math.isfinite(result.score):
        return None
    mate = result.mate
    if mate is not None:
        plies = f"{abs(mate)} ply" if abs(mate) == 1 else f"{abs(mate)} plies"
        return f"wins in {plies}" if mate > 0 else f"loses in {plies}"
    return f"{result.score:+.3f}"


def search_json(
    game: Game[Any, Any], state: Any, result: SearchResult[Any], agent: Agent | None = None
) -> dict[str, Any]:
    """A search so far (or finished) as JSON, in the game's notation; values are the root
    mover's where the search reports so (engine, MCTS, PUCT, solver), else MAX's."""
    stats = result.stats
    report: dict[str, Any] = {
        "algorithm": result.algorithm,
        "player": result.max_player,
        "value": finite(result.value),
        "pv": line_notation(game, state, result.pv),
        "depth": result.depth,
        "seldepth": stats.max_depth,
        "nodes": stats.nodes,
        "leaves": stats.leaves,
        "cutoffs": stats.cutoffs,
        "iterations": stats.iterations,
        "time": round(stats.time, 4),
        "nps": round(result.nps),
        "score": finite(result.score),
        "score_text": score_text(result),
        "complete": result.complete,
        "solved": result.solved,
        "note": result.note,
    }
    report["move"] = report["pv"][0] if report["pv"] else None  # the move chosen so far
    if result.root is not None:
        report["root"] = [
            {
                "move": game.format_action(state, move.action),
                "visits": move.visits,
                "value": finite(move.value),
                "prior": finite(move.prior),
            }
            for move in result.root
        ]
    if result.solver_score is not None or result.move_scores is not None:
        solvers = agent.solvers if isinstance(agent, PerfectAgent) else None
        report["solver_score"] = result.solver_score
        report["move_scores"] = [
            {
                "move": game.format_action(state, action),
                "score": score,
                "meaning": None if solvers is None else solvers.meaning(score),
            }
            for action, score in result.move_scores or ()
        ]
    return report


def visit_tree_json(
    game: Game[Any, Any], state: Any, nodes: Sequence[VisitNode]
) -> list[dict[str, Any]]:
    """MCTS's first levels below ``state`` as nested JSON, each move in the game's notation."""
    tree = []
    for node in nodes:
        child = game.result(state, node.action)
        tree.append(
            {
                "move": game.format_action(state, node.action),
                "visits": node.visits,
                "value": finite(node.value),
                "proved": node.proved,
                "children": visit_tree_json(game, child, node.children),
            }
        )
    return tree
