"""The specification tier: minimax and alpha-beta written as the lecture pseudocode.

Slow and obviously right, these are the oracle every faster search is checked against. They
follow AIMA 4th ed., Figure 5.3 (MINIMAX-SEARCH) and Figure 5.7 (ALPHA-BETA-SEARCH), where
MAX-VALUE and MIN-VALUE return a (utility, move) pair, with two documented generalisations:

* the child's value comes from MAX-VALUE when MAX is to move there and MIN-VALUE otherwise, so
  games where a player may move twice in a row (a pass) are searched correctly; in strictly
  alternating games this is exactly the figures' MAX-VALUE -> MIN-VALUE -> MAX-VALUE;
* the pair carries the whole principal variation, whose first action is the figure's move.

With ``depth`` set they become the depth-limited versions of section 5.3: IS-CUTOFF(s, d) is
IS-TERMINAL(s) or d >= depth, and EVAL(s, p) replaces UTILITY there.

Values are from MAX's point of view: MAX is the player to move at the root unless
``max_player`` names another (a tree whose root is a MIN node, or "value for the first player").
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Hashable
from typing import Any, Generic, TypeVar

from plies.capabilities import HasEvaluation, require
from plies.errors import BudgetExhaustedError, GameDefinitionError, UnknownNameError
from plies.game import CHANCE, Game, require_two_player_zero_sum
from plies.search.result import (
    Backup,
    Cutoff,
    Enter,
    Leaf,
    Path,
    SearchResult,
    SearchStats,
    TraceEvent,
)

S = TypeVar("S", bound=Hashable)
A = TypeVar("A", bound=Hashable)

Line = tuple[Any, ...]
NON_STRICT = "non-strict"
STRICT = "strict"


def root_player(game: Game[S, A], state: S, max_player: str | None = None) -> str:
    """MAX of a search from ``state``: ``max_player`` when given, else the player to move,
    else (a chance root) the first of ``game.players``; checked to be one of the players."""
    if max_player is None:
        mover = game.to_move(state)
        max_player = game.players[0] if mover == CHANCE else mover
    if max_player not in game.players:
        raise UnknownNameError(f"'{max_player}' is not a player of '{game.name}' ({game.players})")
    return max_player


class TextbookSearch(Generic[S, A]):
    """Shared state of one search: the game, MAX, the limits, the counters and the trace
    (``chance``: the game may have chance nodes, for :mod:`plies.search.expectimax`;
    ``nodes``: a budget of nodes, past which the search raises
    :class:`~plies.errors.BudgetExhaustedError`)."""

    def __init__(
        self,
        game: Game[S, A],
        max_player: str,
        depth: int | None,
        trace: bool,
        algorithm: str,
        chance: bool = False,
        nodes: int | None = None,
    ) -> None:
        require_two_player_zero_sum(game, algorithm, chance)
        self.game = game
        self.player = max_player
        self.depth_limit = depth
        self.evaluate: Callable[[S, str], float] | None = (
            None
            if depth is None
            else require(game, HasEvaluation, f"{algorithm} with a depth limit").evaluate
        )
        self.budget = math.inf if nodes is None else nodes
        self.horizon = False
        """Whether a non-terminal leaf was evaluated (the value is then EVAL's, not exact)."""
        self.stats = SearchStats()
        self.events: list[TraceEvent] | None = [] if trace else None

    def is_cutoff(self, state: S, depth: int) -> bool:
        """IS-CUTOFF(s, d): terminal, or the depth limit reached."""
        return self.game.is_terminal(state) or (
            self.depth_limit is not None and depth >= self.depth_limit
        )

    def leaf_value(self, state: S, path: Path) -> float:
        """UTILITY(s, MAX) at a terminal state, EVAL(s, MAX) at a cut-off one."""
        self.stats.leaves += 1
        terminal = self.evaluate is None or self.game.is_terminal(state)
        self.horizon = self.horizon or not terminal
        if terminal:
            value = self.game.utility(state, self.player)
        else:
            assert self.evaluate is not None
            value = self.evaluate(state, self.player)
        if self.events is not None:
            self.events.append(Leaf(path, value, terminal))
        return value

    def enter(self, state: S, path: Path, alpha: float | None, beta: float | None) -> str:
        """Count and trace a node; returns who moves there."""
        mover = self.game.to_move(state)
        self.stats.nodes += 1
        if self.stats.nodes > self.budget:
            raise BudgetExhaustedError(
                f"not solved within {self.budget:,} nodes (the textbook search visits every "
                "node it does not prune)"
            )
        self.stats.max_depth = max(self.stats.max_depth, len(path))
        if self.events is not None:
            self.events.append(Enter(path, mover, alpha, beta))
        return mover

    def legal_actions(self, state: S, path: Path) -> tuple[A, ...]:
        actions = tuple(self.game.actions(state))
        if not actions:
            raise GameDefinitionError(
                f"game '{self.game.name}' has a non-terminal state with no legal actions "
                f"(after moves {list(path)})"
            )
        return actions

    def is_max(self, state: S) -> bool:
        return self.game.to_move(state) == self.player

    def result(
        self, started: float, value: float, line: Line, algorithm: str, rule: str | None
    ) -> SearchResult[A]:
        self.stats.time = time.perf_counter() - started
        return SearchResult(
            value=value,
            action=line[0] if line else None,
            pv=line,
            stats=self.stats,
            algorithm=algorithm,
            max_player=self.player,
            rule=rule,
            depth=self.depth_limit,
            solved=not self.horizon,
            trace=None if self.events is None else tuple(self.events),
        )


class MinimaxSearch(TextbookSearch[S, A]):
    """MAX-VALUE and MIN-VALUE of Figure 5.3."""

    def value(self, state: S, depth: int, path: Path) -> tuple[float, Line]:
        if self.is_max(state):
            return self.max_value(state, depth, path)
        return self.min_value(state, depth, path)

    def max_value(self, state: S, depth: int, path: Path) -> tuple[float, Line]:
        self.enter(state, path, None, None)
        if self.is_cutoff(state, depth):
            return self.leaf_value(state, path), ()
        v, line = -math.inf, ()
        for a in self.legal_actions(state, path):
            v2, line2 = self.value(self.game.result(state, a), depth + 1, (*path, a))
            if v2 > v:
                v, line = v2, (a, *line2)
        self.backup(path, v, line)
        return v, line

    def min_value(self, state: S, depth: int, path: Path) -> tuple[float, Line]:
        self.enter(state, path, None, None)
        if self.is_cutoff(state, depth):
            return self.leaf_value(state, path), ()
        v, line = math.inf, ()
        for a in self.legal_actions(state, path):
            v2, line2 = self.value(self.game.result(state, a), depth + 1, (*path, a))
            if v2 < v:
                v, line = v2, (a, *line2)
        self.backup(path, v, line)
        return v, line

    def backup(self, path: Path, v: float, line: Line) -> None:
        if self.events is not None:
            self.events.append(Backup(path, v, line[0], None, None))


class AlphaBetaSearch(TextbookSearch[S, A]):
    """MAX-VALUE and MIN-VALUE of Figure 5.7, with the pruning rule made a choice."""

    def __init__(
        self,
        game: Game[S, A],
        max_player: str,
        depth: int | None,
        trace: bool,
        strict: bool,
        algorithm: str = "alpha-beta",
        chance: bool = False,
        nodes: int | None = None,
    ) -> None:
        super().__init__(game, max_player, depth, trace, algorithm, chance, nodes)
        self.strict = strict

    def value(
        self, state: S, alpha: float, beta: float, depth: int, path: Path
    ) -> tuple[float, Line]:
        if self.is_max(state):
            return self.max_value(state, alpha, beta, depth, path)
        return self.min_value(state, alpha, beta, depth, path)

    def max_value(
        self, state: S, alpha: float, beta: float, depth: int, path: Path
    ) -> tuple[float, Line]:
        self.enter(state, path, alpha, beta)
        if self.is_cutoff(state, depth):
            return self.leaf_value(state, path), ()
        v, line = -math.inf, ()
        actions = self.legal_actions(state, path)
        for i, a in enumerate(actions):
            v2, line2 = self.value(self.game.result(state, a), alpha, beta, depth + 1, (*path, a))
            if v2 > v:
                v, line = v2, (a, *line2)
                alpha = max(alpha, v)
            if v > beta or (v == beta and not self.strict):
                self.cut(path, self.game.to_move(state), v, alpha, beta, actions[i + 1 :])
                break
        self.backup(path, v, line, alpha, beta)
        return v, line

    def min_value(
        self, state: S, alpha: float, beta: float, depth: int, path: Path
    ) -> tuple[float, Line]:
        self.enter(state, path, alpha, beta)
        if self.is_cutoff(state, depth):
            return self.leaf_value(state, path), ()
        v, line = math.inf, ()
        actions = self.legal_actions(state, path)
        for i, a in enumerate(actions):
            v2, line2 = self.value(self.game.result(state, a), alpha, beta, depth + 1, (*path, a))
            if v2 < v:
                v, line = v2, (a, *line2)
                beta = min(beta, v)
            if v < alpha or (v == alpha and not self.strict):
                self.cut(path, self.game.to_move(state), v, alpha, beta, actions[i + 1 :])
                break
        self.backup(path, v, line, alpha, beta)
        return v, line

    def cut(
        self, path: Path, mover: str, v: float, alpha: float, beta: float, skipped: tuple[A, ...]
    ) -> None:
        """Record a cutoff; returning after the last child prunes nothing and is not counted."""
        if not skipped:
            return
        self.stats.cutoffs += 1
        if self.events is not None:
            self.events.append(Cutoff(path, mover, v, alpha, beta, skipped))

    def backup(self, path: Path, v: float, line: Line, alpha: float, beta: float) -> None:
        if self.events is not None:
            self.events.append(Backup(path, v, line[0], alpha, beta))


def minimax(
    game: Game[S, A],
    state: S,
    *,
    depth: int | None = None,
    max_player: str | None = None,
    trace: bool = False,
    nodes: int | None = None,
) -> SearchResult[A]:
    """MINIMAX-SEARCH (AIMA 4th ed., Figure 5.3); depth-limited with EVAL when ``depth`` is set.

    Visits every node of the game tree (down to ``depth`` plies): from the empty tic-tac-toe
    board that is 549,946 nodes, the root included. With a budget of ``nodes``, a search that
    needs more raises :class:`~plies.errors.BudgetExhaustedError`.
    """
    player = root_player(game, state, max_player)
    search: MinimaxSearch[S, A] = MinimaxSearch(game, player, depth, trace, "minimax", nodes=nodes)
    started = time.perf_counter()
    value, line = search.value(state, 0, ())
    return search.result(started, value, line, "minimax", None)


def alphabeta(
    game: Game[S, A],
    state: S,
    *,
    depth: int | None = None,
    strict: bool = False,
    max_player: str | None = None,
    trace: bool = False,
    nodes: int | None = None,
) -> SearchResult[A]:
    """ALPHA-BETA-SEARCH (AIMA 4th ed., Figure 5.7); depth-limited with EVAL when ``depth`` is set.

    Children are searched in the order of ``game.actions``. The pruning rule is the lectures'
    by default (stop when v >= beta at MAX, v <= alpha at MIN); ``strict=True`` prunes only on
    v > beta and v < alpha, for courses that forbid pruning on equality. Either way the root
    value equals minimax's. ``nodes`` is a budget, as for :func:`minimax`.
    """
    player = root_player(game, state, max_player)
    search: AlphaBetaSearch[S, A] = AlphaBetaSearch(game, player, depth, trace, strict, nodes=nodes)
    started = time.perf_counter()
    value, line = search.value(state, -math.inf, math.inf, 0, ())
    return search.result(started, value, line, "alphabeta", STRICT if strict else NON_STRICT)


ALGORITHMS: dict[str, Callable[..., SearchResult[Any]]] = {
    "minimax": minimax,
    "alphabeta": alphabeta,
}
"""The textbook algorithms by CLI name."""
