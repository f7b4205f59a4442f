"""Perfect solvers, whatever the game: a game's solver (:func:`perfect_solver`, behind the
interface of :mod:`plies.perfect`), every move scored within a budget (:func:`score_moves`),
and set files of positions (:mod:`plies.solvers.sets`)."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from plies.capabilities import HasPerfectSolver
from plies.errors import BudgetExhaustedError
from plies.game import Game
from plies.perfect import Decision, PerfectSolver


def perfect_solver(game: Game[Any, Any]) -> PerfectSolver | None:
    """The game's perfect solver (:class:`~plies.capabilities.HasPerfectSolver`), or None
    when plies has none for it."""
    return game.perfect_solver() if isinstance(game, HasPerfectSolver) else None


@dataclass
class MoveScores:
    """What a perfect solver proved about a position within a budget: its ``score`` and the
    ``best`` moves that keep it (None and empty when not solved in time), the exact ``scores``
    of the moves solved (the side to move's view, the solver's convention), the positions
    searched, and whether every move was solved (``complete``)."""

    score: int | None = None
    best: list[Any] = field(default_factory=list)
    scores: dict[Any, int] = field(default_factory=dict)
    nodes: int = 0
    complete: bool = False


def score_moves(
    game: Game[Any, Any],
    solver: PerfectSolver,
    state: Any,
    seconds: float | None = None,
    nodes: int | None = None,
    decision: Decision | None = None,
) -> MoveScores:
    """Score every move of ``state`` with ``solver`` within ``seconds`` (and ``nodes`` a
    search): first the position's score and the moves that keep it (``decision`` where the
    caller has it, else one solve and a null-window test per move), then each other move by
    solving the position after it, in the game's move order, until the budget runs out (what
    was solved by then is kept). The solver's table is kept between the calls. The ``perfect``
    agent, the web's analysis and any caller share this one account of a position."""
    assert decision is None or not decision.weak, "the moves' scores need an exact decision"
    deadline = None if seconds is None else time.perf_counter() + seconds
    found = MoveScores()
    try:
        if decision is None:
            decision = solver.decide(state, keep_table=True, nodes=nodes, seconds=_left(deadline))
            found.nodes = decision.nodes
        found.score, found.best = decision.score, list(decision.moves)
        found.scores = dict.fromkeys(found.best, decision.score)
        for action in game.actions(state):
            if action not in found.scores:
                child = game.result(state, action)
                solution = solver.solve(
                    child, keep_table=True, nodes=nodes, seconds=_left(deadline)
                )
                found.scores[action] = -solution.score
                found.nodes += solution.nodes
        found.complete = True
    except BudgetExhaustedError:
        pass
    return found


def _left(deadline: float | None) -> float | None:
    """Seconds to the deadline (None: no deadline); a sliver when it has passed, so the solver
    stops at once."""
    return None if deadline is None else max(deadline - time.perf_counter(), 1e-3)
