"""The textbook tier for games with chance nodes: expectiminimax and Ballard's *-minimax (Star1).

EXPECTIMINIMAX (AIMA 4th ed., section 5.5) extends minimax by a third kind of node::

    EXPECTIMINIMAX(s) = UTILITY(s, MAX)                            if IS-TERMINAL(s)
                        max_a EXPECTIMINIMAX(RESULT(s, a))         if TO-MOVE(s) = MAX
                        min_a EXPECTIMINIMAX(RESULT(s, a))         if TO-MOVE(s) = MIN
                        sum_r P(r) EXPECTIMINIMAX(RESULT(s, r))    if TO-MOVE(s) = CHANCE

where the outcomes r and their probabilities P(r) come from ``game.chance_outcomes`` (checked
by :func:`~plies.game.checked_outcomes`). A game without chance nodes is searched exactly as
minimax searches it.

Conventions, shared with :mod:`plies.search.textbook`:

* values are from MAX's point of view: MAX is ``max_player``, else the player to move at the
  root, else (a chance root) the first of ``game.players``;
* ``depth`` counts the players' moves only: chance layers do not count. IS-CUTOFF(s, d) is
  IS-TERMINAL(s) or d >= depth, tested at every node, so a search to depth 2 from MAX's turn in
  backgammon plays MAX's move, every roll, MIN's move, and evaluates the position before the
  next roll with EVAL(s, MAX);
* the principal variation follows the best moves from the root and ends at the first chance
  node (nature's move is not chosen); a chance root has no best action;
* statistics count every node entered (decision, chance and leaf nodes), ``max_depth`` counts
  chance edges too, and ``cutoffs`` the nodes, chance nodes included, left with children unseen.

``prune=True`` is Star1, the first *-minimax procedure of B. W. Ballard, "The *-minimax search
procedure for trees containing chance nodes", Artificial Intelligence 21(3), 1983, in the form
of Hauk, Buro and Schaeffer, "Rediscovering *-Minimax Search" (Computers and Games 2004),
generalised from equally likely outcomes to any probabilities. MAX and MIN nodes are alpha-beta
(AIMA 4th ed., Figure 5.7, the lectures' non-strict rule: stop when v >= beta at MAX, v <= alpha
at MIN). At a chance node with window (alpha, beta), every value lying in [L, U] (the game's
``value_bounds``), after outcomes 1..i with values V_1..V_i the expectation is known to lie in::

    [S_i + L * R_i,  S_i + U * R_i]    with S_i = sum_{j<=i} P_j V_j,  R_i = sum_{j>i} P_j

so the node fails low (returns the upper bound, <= alpha) as soon as S_i + U * R_i <= alpha and
high (returns the lower bound, >= beta) as soon as S_i + L * R_i >= beta. Outcome i is searched
with the window the two tests put on V_i, ``(max(A_i, L), min(B_i, U))``, where
A_i = (alpha - S_{i-1} - U * R_i) / P_i and B_i = (beta - S_{i-1} - L * R_i) / P_i. Searches
return fail-soft values: at or below their alpha an upper bound on the true value, at or above
their beta a lower bound, exact in between; so the root's value is always exact. With
probabilities that are exact binary fractions (1/2, 1/4, 3/8...) and values that add exactly
(integers), Star1 returns the same value as expectiminimax to the last bit; with other
probabilities (1/3, 1/36) the two agree to rounding error.

>>> from plies.games.tree import parse_tree, tree_game
>>> game = tree_game(parse_tree("[{0.5: [2, 4], 0.5: [6, 8]}, {0.5: [0, 1], 0.5: [1, 2]}]"))
>>> expectiminimax(game, ()).value, expectiminimax(game, (), prune=True).value
(4.0, 4.0)
"""

from __future__ import annotations

import math
import time
from collections.abc import Hashable
from typing import Any, TypeVar

from plies.capabilities import HasValueBounds, require
from plies.errors import GameDefinitionError
from plies.game import CHANCE, Game, checked_outcomes
from plies.search.result import (
    Backup,
    Expectation,
    Path,
    SearchResult,
)
from plies.search.textbook import NON_STRICT, AlphaBetaSearch, Line, TextbookSearch, root_player

S = TypeVar("S", bound=Hashable)
A = TypeVar("A", bound=Hashable)


class _ChanceNodes(TextbookSearch[S, A]):
    """What the searches of chance nodes share: checked outcomes and the Expectation event;
    IS-CUTOFF(s, d) counts ``d`` as the players' moves made (chance layers do not count)."""

    def outcomes(self, state: S, path: Path) -> tuple[tuple[A, float], ...]:
        outcomes = tuple(checked_outcomes(self.game, state))
        if not outcomes:
            raise GameDefinitionError(
                f"game '{self.game.name}' has a chance state with no outcomes "
                f"(after moves {list(path)})"
            )
        return outcomes

    def expectation(self, path: Path, v: float, alpha: float | None, beta: float | None) -> None:
        if self.events is not None:
            self.events.append(Expectation(path, v, alpha, beta))


class _Expectiminimax(_ChanceNodes[S, A]):
    """EXPECTIMINIMAX of section 5.5, every node visited."""

    def value(self, state: S, depth: int, path: Path) -> tuple[float, Line]:
        mover = self.enter(state, path, None, None)
        if self.is_cutoff(state, depth):
            return self.leaf_value(state, path), ()
        if mover == CHANCE:
            v = 0.0
            for r, p in self.outcomes(state, path):
                v += p * self.value(self.game.result(state, r), depth, (*path, r))[0]
            self.expectation(path, v, None, None)
            return v, ()
        maximising = mover == self.player
        v = -math.inf if maximising else math.inf
        line: Line = ()
        for a in self.legal_actions(state, path):
            v2, line2 = self.value(self.game.result(state, a), depth + 1, (*path, a))
            if (v2 > v) if maximising else (v2 < v):
                v, line = v2, (a, *line2)
        if self.events is not None:
            self.events.append(Backup(path, v, line[0], None, None))
        return v, line


class _Star1(_ChanceNodes[S, A], AlphaBetaSearch[S, A]):
    """Star1: the textbook alpha-beta (Figure 5.7, non-strict) at MAX and MIN nodes, Ballard's
    bounds-driven cutoffs at chance nodes."""

    def __init__(
        self,
        game: Game[S, A],
        max_player: str,
        depth: int | None,
        trace: bool,
        bounds: tuple[float, float],
        nodes: int | None,
    ) -> None:
        super().__init__(game, max_player, depth, trace, False, "star1", True, nodes)
        self.lower, self.upper = bounds

    def value(
        self, state: S, alpha: float, beta: float, depth: int, path: Path
    ) -> tuple[float, Line]:
        if self.game.to_move(state) != CHANCE or self.game.is_terminal(state):
            return super().value(state, alpha, beta, depth, path)
        self.enter(state, path, alpha, beta)
        if self.is_cutoff(state, depth):
            return self.leaf_value(state, path), ()
        return self.chance_value(state, alpha, beta, depth, path), ()

    def leaf_value(self, state: S, path: Path) -> float:
        value = super().leaf_value(state, path)
        if not self.lower <= value <= self.upper:
            raise GameDefinitionError(
                f"game '{self.game.name}': value {value} after moves {list(path)} lies "
                f"outside the value bounds [{self.lower}, {self.upper}] that Star1 relies on"
            )
        return value

    def chance_value(self, state: S, alpha: float, beta: float, depth: int, path: Path) -> float:
        outcomes = self.outcomes(state, path)
        after = [0.0] * len(outcomes)  # after[i] = R_i, the probability of outcomes i+1..n
        for i in range(len(outcomes) - 2, -1, -1):
            after[i] = after[i + 1] + outcomes[i + 1][1]
        total = 0.0  # S_{i-1}, then S_i
        for i, (r, p) in enumerate(outcomes):
            if p > 0:
                low = (alpha - total - self.upper * after[i]) / p  # A_i
                high = (beta - total - self.lower * after[i]) / p  # B_i
            else:  # an impossible outcome cannot move the expectation
                low, high = -math.inf, math.inf
            child = self.game.result(state, r)
            v, _ = self.value(child, max(low, self.lower), min(high, self.upper), depth, (*path, r))
            total += p * v
            if v <= low or v >= high:
                bound = total + (self.upper if v <= low else self.lower) * after[i]
                self.cut(path, CHANCE, bound, alpha, beta, tuple(o for o, _ in outcomes[i + 1 :]))
                self.expectation(path, bound, alpha, beta)
                return bound
        self.expectation(path, total, alpha, beta)
        return total


def _value_bounds(game: Game[Any, Any], bounds: tuple[float, float] | None) -> tuple[float, float]:
    if bounds is None:
        bounds = require(game, HasValueBounds, "Star1's pruning at chance nodes").value_bounds
    lower, upper = bounds
    if not (math.isfinite(lower) and math.isfinite(upper) and lower <= upper):
        raise GameDefinitionError(
            f"game '{game.name}': value bounds {tuple(bounds)} are not finite with lower <= upper"
        )
    return lower, upper


def expectiminimax(
    game: Game[S, A],
    state: S,
    *,
    depth: int | None = None,
    max_player: str | None = None,
    trace: bool = False,
    prune: bool = False,
    bounds: tuple[float, float] | None = None,
    nodes: int | None = None,
) -> SearchResult[A]:
    """EXPECTIMINIMAX (AIMA 4th ed., section 5.5); Star1 (Ballard 1983) when ``prune`` is set.

    Two-player zero-sum games, with or without chance nodes. ``depth`` limits the players'
    moves (chance layers do not count) and needs the game's EVAL. Star1 needs bounds ``(L, U)``
    on every value MAX can see, utilities and evaluations alike: ``bounds`` when given, else the
    game's ``value_bounds`` (a :class:`MissingCapabilityError` when it has none); a value outside
    them is a :class:`GameDefinitionError`. The result's ``rule`` is None for expectiminimax and
    ``"non-strict"`` for Star1; the root value is the same either way. ``nodes`` is a budget,
    as for :func:`~plies.search.textbook.minimax`.
    """
    player = root_player(game, state, max_player)
    started = time.perf_counter()
    if not prune:
        plain: _Expectiminimax[S, A] = _Expectiminimax(
            game, player, depth, trace, "expectiminimax", True, nodes
        )
        value, line = plain.value(state, 0, ())
        return plain.result(started, value, line, "expectiminimax", None)
    star: _Star1[S, A] = _Star1(game, player, depth, trace, _value_bounds(game, bounds), nodes)
    value, line = star.value(state, -math.inf, math.inf, 0, ())
    return star.result(started, value, line, "star1", NON_STRICT)


def star1(
    game: Game[S, A],
    state: S,
    *,
    depth: int | None = None,
    max_player: str | None = None,
    trace: bool = False,
    bounds: tuple[float, float] | None = None,
) -> SearchResult[A]:
    """Ballard's Star1: :func:`expectiminimax` with ``prune=True``."""
    return expectiminimax(
        game, state, depth=depth, max_player=max_player, trace=trace, prune=True, bounds=bounds
    )
