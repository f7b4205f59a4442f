"""The textbook searches' agents: ``minimax``, ``alphabeta``, ``expectiminimax``, ``maxn`` and
``paranoid`` play the move of :mod:`plies.search`'s textbook searches (registered by
:mod:`plies.agents.builtin`)."""

from __future__ import annotations

import math
import threading
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from plies.agents.live import stoppable
from plies.agents.options import DEPTH_OPTION
from plies.agents.registry import Agent, AgentKind, Context, Option
from plies.capabilities import HasEvaluation, HasValueBounds, require
from plies.errors import BudgetExhaustedError, UnsupportedGameError
from plies.game import Game, WinLossDrawGame, define_game, has_chance, require_two_player_zero_sum
from plies.search import SearchResult, alphabeta, expectiminimax, minimax
from plies.search.analysis import estimate_tree_size
from plies.search.maxn import maxn, paranoid
from plies.spec import DEPTH


@dataclass
class SearchAgent:
    """Plays the move a textbook search chooses (minimax, alpha-beta, expectiminimax, max^n,
    paranoid); ``last`` keeps that search's result.

    Minimax and alpha-beta keep the textbook values, which do not tell a win now from a win
    later, so between moves of equal value the agent plays the shortest forced win
    (:meth:`fastest_win`).
    """

    algorithm: str
    depth: int | None = None
    options: Mapping[str, Any] = field(default_factory=dict)
    name: str = ""
    last: SearchResult[Any] | None = field(default=None, repr=False)

    def __call__(self, game: Game[Any, Any], state: Any) -> Any:
        search = TEXTBOOK[self.algorithm]
        self.last = search(game, state, depth=self.depth, **self.options)
        if self.algorithm in ("minimax", "alphabeta"):
            return self.fastest_win(game, state, self.last)
        return self.last.action

    def fastest_win(self, game: Game[Any, Any], state: Any, found: SearchResult[Any]) -> Any:
        """The first move of a shortest forced win when ``found`` is a win for the mover,
        else ``found``'s move: alpha-beta to depths 1, 2, ... with every unfinished line
        scored as a loss (:func:`_win_within`) until one proves the win."""
        if not isinstance(game, WinLossDrawGame):
            return found.action
        mover = game.to_move(state)
        if found.value != game.scoring.utility(mover, mover):
            return found.action
        horizon = _win_within(game, mover)
        for depth in range(1, (self.depth or found.stats.max_depth) + 1):
            shortest = alphabeta(horizon, state, depth=depth)
            if shortest.value == found.value:
                return shortest.action
        return found.action

    def reset(self, seed: int | None = None) -> None:
        """Nothing is kept between moves, and nothing is random."""
        self.last = None


def _win_within(game: WinLossDrawGame[Any, Any], player: str) -> Game[Any, Any]:
    """``game`` with EVAL scoring every unfinished line as a loss for ``player``: a
    depth-limited search of it finds a win only where one is forced within its depth."""
    winner = game.opponent(player)  # every unfinished line: as if they had won
    return define_game(
        name=game.name,
        players=game.players,
        initial_state=game.initial_state,
        to_move=game.to_move,
        actions=game.actions,
        result=game.result,
        is_terminal=game.is_terminal,
        utility=game.utility,
        evaluate=lambda state, someone: game.scoring.utility(winner, someone),
    )


PRUNING = ("alphabeta", "paranoid")
"""The textbook searches that prune: at best they visit about the square root of the tree
(Knuth and Moore's minimal tree); the others visit all of it."""


def search_cost_problem(
    agent: Agent, game: Game[Any, Any], state: Any, positions: int, seconds: float
) -> str | None:
    """Why ``agent``, if a textbook search, would be too slow from ``state`` (a textbook search
    has no move before it ends, so it cannot be cut short with one in hand); None when it fits
    in ``positions`` and ``seconds`` or is no textbook search. The tree's size to the search's
    depth is estimated (:func:`~plies.search.analysis.estimate_tree_size`); a pruning search
    on a tree too big to be sure of is tried, within the budget."""
    if not isinstance(agent, SearchAgent):
        return None
    horizon = "to the end of the game" if agent.depth is None else f"to depth {agent.depth}"
    advice = (
        f"give it a depth ({agent.algorithm}:depth=3)"
        if agent.depth is None
        else "give it a smaller depth"
    )
    too_slow = (
        f"{agent.name!r} is too slow here: its search {horizon} in {game.name} takes more than "
        f"{positions:,} positions or {seconds:g} s, and it has no move before it ends; "
        f"{advice}, or use engine:time=1 or mcts:time=1"
    )
    size = estimate_tree_size(game, state, agent.depth)
    least = math.sqrt(size) if agent.algorithm in PRUNING else size
    if least > positions:
        return too_slow
    if size <= positions or has_chance(game):
        return None
    try:  # it may prune enough: try it
        agent(stoppable(game, threading.Event(), positions=positions, seconds=seconds), state)
    except BudgetExhaustedError:
        return too_slow
    except RecursionError:
        return f"{agent.name!r}: {game.name} is too deep for a search to the end; {advice}"
    return None


TEXTBOOK = {
    "minimax": minimax,
    "alphabeta": alphabeta,
    "expectiminimax": expectiminimax,
    "maxn": maxn,
    "paranoid": paranoid,
}
"""The searches behind :class:`SearchAgent`, by agent name."""


def _textbook(algorithm: str, two_player: bool) -> Any:
    def factory(game: Game[Any, Any], values: Mapping[str, Any], context: Context) -> Agent:
        if two_player:
            require_two_player_zero_sum(game, algorithm)
        depth = values["depth"]
        if depth is not None:
            require(game, HasEvaluation, f"{algorithm} with a depth limit")
        elif not game.searchable_to_end:
            raise UnsupportedGameError(
                f"{algorithm} without a depth searches to the end of the game, which no search "
                f"of {game.name!r} can reach: give {algorithm}:depth=N (EVAL below it) or use "
                "engine:time=S"
            )
        options = {"strict": values["strict"]} if "strict" in values else {}
        return SearchAgent(algorithm, depth, options, name=context.name)

    return factory


def _expectiminimax(game: Game[Any, Any], values: Mapping[str, Any], context: Context) -> Agent:
    require_two_player_zero_sum(game, "expectiminimax", chance=True)
    require(game, HasEvaluation, "expectiminimax with a depth limit")
    if values["prune"]:
        require(game, HasValueBounds, "expectiminimax with pruning")
    options = {"prune": values["prune"]}
    return SearchAgent("expectiminimax", values["depth"], options, name=context.name)


MINIMAX = AgentKind(
    "minimax",
    "MINIMAX-SEARCH to the end, or to a depth with EVAL",
    (DEPTH_OPTION,),
    _textbook("minimax", True),
)
ALPHABETA = AgentKind(
    "alphabeta",
    "ALPHA-BETA-SEARCH to the end, or to a depth with EVAL",
    (DEPTH_OPTION, Option("strict", "flag", "prune only on v > beta / v < alpha", False)),
    _textbook("alphabeta", True),
)
EXPECTIMINIMAX = AgentKind(
    "expectiminimax",
    "EXPECTIMINIMAX for games with chance",
    (
        Option("depth", "int", "moves searched (chance layers do not count)", 1, DEPTH),
        Option("prune", "flag", "Star1 pruning with the game's value bounds", False),
    ),
    _expectiminimax,
)
MAXN = AgentKind(
    "maxn", "max^n, for any number of players", (DEPTH_OPTION,), _textbook("maxn", False)
)
PARANOID = AgentKind(
    "paranoid",
    "the mover against all the others, by alpha-beta",
    (DEPTH_OPTION,),
    _textbook("paranoid", False),
)
