"""The ``mcts`` agent: Monte Carlo tree search (UCB1, compiled where the game has it, with the
settings of a game's own compiled tree), or PUCT with uniform priors (registered by
:mod:`plies.agents.builtin`; ``alphago`` builds on it)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from plies.agents.live import Watch
from plies.agents.options import TIME_OPTION
from plies.agents.puct import PUCTAgent
from plies.agents.registry import Agent, AgentKind, Context, Option
from plies.capabilities import HasOwnMcts, LearnedPrior
from plies.clock import MIN_MOVE_SECONDS, move_budget
from plies.errors import Resigns, SpecError, UnsupportedGameError
from plies.game import Game, has_chance
from plies.search import SearchResult
from plies.search.mcts import (
    DEFAULT_C,
    DEFAULT_RAVE,
    DEFAULT_RAVE_C,
    MCTS,
    LeafEvaluator,
    default_evaluator,
    heuristic_evaluator,
    winning_chance,
)
from plies.search.puct import DEFAULT_C_PUCT, PUCTConfig, UniformPriorEvaluator
from plies.spec import EXPLORATION, ITERATIONS, RAVE_VISITS, RESIGN_BELOW

SELECTIONS = ("ucb1", "puct")
"""The selection rules of the ``mcts`` agent: UCB1 (:class:`~plies.search.mcts.MCTS`) or PUCT
(:mod:`plies.search.puct`)."""


WATCH_EVERY = 50
"""MCTS iterations between two reports of a watched search, and two looks at its stop flag
(a second at most in chess, whose playouts are the slowest)."""


@dataclass
class MCTSAgent:
    """Plays the move Monte Carlo tree search chooses; the tree carries over between moves."""

    mcts: MCTS[Any, Any]
    iterations: int | None
    seconds: float | None
    name: str = "mcts"
    resign: float = 0.0
    """Resign (raise :class:`~plies.errors.Resigns`) when the search gives the mover a chance
    of winning below this (0: never)."""
    last: SearchResult[Any] | None = field(default=None, repr=False)
    move_seconds: float | None = field(default=None, repr=False)
    """The next move's time from a clock (:meth:`set_clock`), instead of the spec's."""

    def set_clock(self, remaining: float, increment: float) -> None:
        """Budget the next move from this clock (:func:`plies.clock.move_budget`); an
        iteration limit still applies."""
        self.move_seconds = max(MIN_MOVE_SECONDS, move_budget(remaining, increment))

    def __call__(self, game: Game[Any, Any], state: Any) -> Any:
        return self.think(game, state, Watch())

    def think(self, game: Game[Any, Any], state: Any, watch: Watch) -> Any:
        """The move, the search reported every :data:`WATCH_EVERY` iterations and stopped
        between them once ``watch.stop`` is set; the last result carries the tree's first
        levels (:meth:`~plies.search.mcts.MCTS.visit_tree`)."""
        seconds = self.seconds if self.move_seconds is None else self.move_seconds
        searches = self.mcts.iterate(
            state, iterations=self.iterations, seconds=seconds, every=WATCH_EVERY
        )
        for result in searches:
            self.last = result
            if watch.stop.is_set():
                searches.close()
                break
            watch.report(result)
        assert self.last is not None
        self.last = replace(self.last, tree=self.mcts.visit_tree())
        watch.report(self.last)
        chance = winning_chance(game, self.last) if self.resign else None
        if chance is not None and chance < self.resign:
            raise Resigns(f"{self.name} resigns: it gives itself a {chance:.0%} chance")
        return self.last.action

    def reset(self, seed: int | None = None) -> None:
        """Forget the tree; a seed restarts the search as a new one with that seed."""
        if seed is None:
            self.mcts.forget()
        else:
            self.mcts.restart(seed)
        self.last, self.move_seconds = None, None


def own_mcts_options(game: Game[Any, Any]) -> tuple[Option, ...]:
    """The settings of ``game``'s own compiled tree (:class:`HasOwnMcts`: playout rules,
    priors), which ``mcts`` offers for it alone."""
    return tuple(game.mcts_options()) if isinstance(game, HasOwnMcts) else ()


def _mcts(game: Game[Any, Any], values: Mapping[str, Any], context: Context) -> Agent:
    return mcts_agent(game, values, context)


def mcts_agent(
    game: Game[Any, Any],
    values: Mapping[str, Any],
    context: Context,
    learned: LearnedPrior | None = None,
) -> Agent:
    """The ``mcts`` agent of the option ``values`` (:data:`MCTS_OPTIONS`), its compiled tree
    given the ``learned`` prior if any (the ``alphago`` agent's network)."""
    iterations, seconds = values["iterations"], values["time"]
    if iterations is None and seconds is None:
        seconds = 1.0
    estimate = values["evaluator"] or game.leaf_estimate
    leaf = heuristic_evaluator(game) if estimate == "eval" else None
    if values["selection"] == "puct":
        return _puct(game, values, context, leaf or default_evaluator(game), (iterations, seconds))
    mcts = MCTS(
        game,
        c=values["c"],
        evaluator=leaf,
        seed=context.seed,
        solver=values["solver"],
        native=values["native"],
        rave=values["rave"],
        knowledge={
            option.key: values[option.key]
            for option in own_mcts_options(game)
            if values[option.key] is not None
        },
        learned=learned,
    )
    return MCTSAgent(mcts, iterations, seconds, name=context.name, resign=values["resign"])


def _puct(
    game: Game[Any, Any],
    values: Mapping[str, Any],
    context: Context,
    leaf: LeafEvaluator,
    limits: tuple[int | None, float | None],
) -> Agent:
    """``mcts:selection=puct``: the PUCT of ``az`` with uniform priors and ``leaf``'s values,
    ``c`` as c_puct (:data:`~plies.search.puct.DEFAULT_C_PUCT` by default); no solver, no
    RAVE, and nothing compiled."""
    if len(game.players) != 2 or not game.zero_sum or has_chance(game):
        raise UnsupportedGameError(
            "mcts:selection=puct searches two-player zero-sum games without chance, not "
            f"{game.name!r}: use selection=ucb1"
        )
    if values["rave"]:
        raise SpecError("mcts: rave needs selection=ucb1 (PUCT keeps no AMAF statistics)")
    c = DEFAULT_C_PUCT if values["c"] is None else values["c"]
    if not 0 < c <= 100:
        raise SpecError(f"mcts: with selection=puct, c is c_puct, above 0 and at most 100: {c}")
    return PUCTAgent(
        UniformPriorEvaluator(game, leaf, context.seed),
        PUCTConfig(c_puct=c),
        name=context.name,
        algorithm="mcts",
        simulations=limits[0],
        seconds=limits[1],
        seed=context.seed,
    )


MCTS_OPTIONS = (
    Option("iterations", "int", "iterations a move", None, ITERATIONS),
    TIME_OPTION,
    Option(
        "c",
        "number",
        f"the exploration constant ({DEFAULT_C:.3g}; {DEFAULT_RAVE_C:g} with RAVE;"
        f" c_puct {DEFAULT_C_PUCT:g} with PUCT)",
        None,
        EXPLORATION,
    ),
    Option(
        "evaluator",
        "choice",
        "leaf estimates [default: the game's: eval for backgammon's learned network, else playout]",
        None,
        choices=("playout", "eval"),
    ),
    Option(
        "selection",
        "choice",
        "UCB1, or the PUCT of az with uniform priors",
        "ucb1",
        choices=SELECTIONS,
    ),
    Option("solver", "flag", "MCTS-Solver (UCB1) in two-player games without chance", True),
    Option("native", "flag", "compiled where the game has it (UCB1 with playouts)", True),
    Option(
        "rave",
        "number",
        f"RAVE's equivalence visits, 0 off ({DEFAULT_RAVE:g} by default where the compiled"
        " tree keeps AMAF statistics)",
        None,
        RAVE_VISITS,
    ),
    Option(
        "resign",
        "number",
        "resign below this chance of winning (0: never; UCB1 on win/loss/draw games)",
        0.0,
        RESIGN_BELOW,
    ),
)
"""The ``mcts`` agent's options (``alphago`` adds its network's); a game with a compiled tree of
its own adds that tree's settings (:func:`own_mcts_options`)."""


MCTS_KIND = AgentKind(
    "mcts",
    "Monte Carlo tree search (UCT), its tree reused between moves (1 s a move by default)",
    MCTS_OPTIONS,
    _mcts,
    game_options=own_mcts_options,
)
