"""Information set Monte Carlo tree search: MO-ISMCTS (Cowling, Powley & Whitehouse 2012,
"Information Set Monte Carlo Tree Search", IEEE TCIAIG 4(2), Algorithm 2 and Appendix C) on
any game of imperfect information (:class:`~plies.capabilities.HasInformationSets`).

A player who cannot see the whole state cannot search a tree of states: the searcher would
plan as if it knew the opponent's cards (strategy fusion, section III-B). MO-ISMCTS keeps one
tree per player whose nodes are that player's information sets and whose edges are moves as
that player sees them; each iteration descends all the trees at once along one path:

1. DETERMINISE (Algorithm 2, line 4): draw a state the searcher cannot tell from the root
   (:meth:`~plies.capabilities.HasInformationSets.sample_state`, which uses only what the
   searcher has observed); the iteration is restricted to it.
2. SELECT (lines 6-9): where a player moves, its own tree's node for its information set in
   the determinisation (its :meth:`~plies.capabilities.HasInformationSets.information_key`)
   chooses by UCB1 (section IV-A, equation (7)), values normalised to [0, 1] for the mover;
   nature draws a chance outcome with its probability (:func:`plies.game.sample_outcome`;
   the paper's outcomes, equally likely, are visited in turn instead: section III-C-2).
3. EXPAND (lines 11-15): at the first node with an action never tried, one of them chosen at
   random is tried.
4. SIMULATE (line 18): uniformly random moves to the end of the game.
5. BACK-PROPAGATE (lines 21-24): every decision on the path adds its mover's utility.

A node is found by its key, so a move a player does not see (a phantom opponent's attempt, a
card dealt to someone else) leaves that player's key, hence its node, unchanged: its tree is
not split by what it cannot observe, which is what distinguishes MO-ISMCTS from SO-ISMCTS
(section IV-G). Only the mover's tree chooses, so only the mover's key is taken at each step;
the nodes the others pass through hold statistics no selection reads, and are not kept. The
key is the player's whole information state, its own hidden cards included: an opponent's
choices in the search follow the cards the determinisation dealt it, where the paper's trees,
rooted at the search's start, tell apart only the moves seen since. As in the paper, the
determinisations keep the searcher's own cards, so the opponents' trees learn against them
(section X: the searcher assumes opponents who can see its hand).

Section IV-B's availability counts (the times a child could have been chosen, in UCB1 in
place of the parent's visits) equal a node's visits here: the mover's legal actions are the
same throughout its information set (the capability's contract,
:func:`plies.testing.check_information_sets`), so every child is available at every visit.

>>> from plies.games.kuhn.rules import KuhnPoker
>>> game = KuhnPoker()
>>> state = game.initial_state()
>>> for move in ("K", "J", "bet"):
...     state = game.result(state, move)
>>> result = ISMCTS(game, seed=1).search(state, iterations=300)
>>> result.action, result.value, sum(move.visits for move in result.root)
('pass', -1.0, 300)
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Generator, Hashable, Sequence
from typing import Any, Generic, TypeVar

from plies.capabilities import HasInformationSets, require
from plies.errors import GameDefinitionError, GameOverError, SpecError, UnsupportedGameError
from plies.game import CHANCE, Game, sample_outcome
from plies.search.mcts import (
    LeafEvaluator,
    declared_bounds,
    default_evaluator,
    search_limits,
)
from plies.search.result import RootMove, SearchResult, SearchStats

S = TypeVar("S", bound=Hashable)
A = TypeVar("A", bound=Hashable)

DEFAULT_C = 0.7
"""The exploration constant of every experiment of Cowling, Powley & Whitehouse (section
IV-A: none of their algorithms was sensitive to it within [0.5, 1])."""
REPORT_EVERY = 1000
"""Iterations between two results of :meth:`ISMCTS.iterate`."""
UNREPORTED = 1 << 62
"""``every`` of a search whose results between are not wanted (:meth:`ISMCTS.search`)."""


class _Node:
    """A player's information set in its tree: its ``actions`` (the legal ones throughout the
    set), the indices of those never tried (``untried``), and per action the ``visits`` and
    the ``totals`` of the mover's utilities; ``decisions`` counts the choices made here."""

    __slots__ = ("actions", "decisions", "totals", "untried", "visits")

    def __init__(self, actions: Sequence[Any]) -> None:
        self.actions = tuple(actions)
        self.untried = list(range(len(self.actions)))
        self.visits = [0] * len(self.actions)
        self.totals = [0.0] * len(self.actions)
        self.decisions = 0


class ISMCTS(Generic[S, A]):
    """MO-ISMCTS on ``game`` (see the module docstring), searching for the player to move.

    ``c`` is UCB1's exploration constant (:data:`DEFAULT_C`); ``seed`` makes the
    determinisations, the chance draws and the playouts repeatable. Each search starts
    afresh: its trees, and the range of values it normalises with (the game's declared
    bounds, :func:`~plies.search.mcts.declared_bounds`, else the utilities it has seen).
    """

    def __init__(self, game: Game[S, A], *, c: float | None = None, seed: int | None = None):
        self.hidden = require(game, HasInformationSets, "ismcts")
        if c is not None and not (math.isfinite(c) and c >= 0):
            raise SpecError(f"ismcts: the exploration constant c must be a number >= 0, got {c}")
        self.game = game
        self.c = DEFAULT_C if c is None else c
        self.rng = random.Random(seed)
        self.evaluator: LeafEvaluator = default_evaluator(game)
        bounds = declared_bounds(game)
        self._bounds = bounds if bounds is not None else (math.inf, -math.inf)
        self._low, self._high = self._bounds
        self._seats = {name: seat for seat, name in enumerate(game.players)}
        self._trees: dict[str, dict[str, _Node]] = {}
        self._expanded = self._playouts = 0

    def restart(self, seed: int | None) -> None:
        """Draw afresh from ``seed``: the searches go on as those of a new instance built
        with ``seed``."""
        self.rng.seed(seed)

    def search(
        self, state: S, *, iterations: int | None = None, seconds: float | None = None
    ) -> SearchResult[A]:
        """Run iterations from ``state`` until ``iterations`` are done or ``seconds`` have
        passed (checked after every iteration), whichever comes first.

        The result's ``action`` is the root action most visited (Algorithm 2, line 26; ties:
        the first in ACTIONS order), ``value`` the mover's mean utility after it; ``root``
        lists every root action tried, most visited first, whose visits add up to the
        iterations; ``stats.iterations`` counts them, ``stats.nodes`` the actions expanded
        in every player's tree, ``stats.leaves`` the playouts and ``stats.max_depth`` the
        most decisions an iteration made in the trees.
        """
        *_, final = self.iterate(state, iterations=iterations, seconds=seconds, every=UNREPORTED)
        return final

    def iterate(
        self,
        state: S,
        *,
        iterations: int | None = None,
        seconds: float | None = None,
        every: int = REPORT_EVERY,
    ) -> Generator[SearchResult[A], None, None]:
        """Search as :meth:`search` does, yielding the result so far after every ``every``
        iterations and the final result last (the clock starts at the first ``next``)."""
        limit, most_seconds = search_limits("ismcts", iterations, seconds, every)
        player = self._searcher(state)
        return self._run(state, player, limit, most_seconds, every)

    def _searcher(self, state: S) -> str:
        """The player to move at ``state``, who searches."""
        game = self.game
        if game.is_terminal(state):
            raise GameOverError("the game is over in this position: there is nothing to search")
        player = game.to_move(state)
        if player == CHANCE:
            raise UnsupportedGameError("ismcts searches for a player: nature moves here")
        if player not in game.players:
            raise GameDefinitionError(
                f"game '{game.name}': {player!r} is to move, not one of {game.players}"
            )
        return player

    def _run(
        self, state: S, player: str, limit: float, seconds: float, every: int
    ) -> Generator[SearchResult[A], None, None]:
        started = time.perf_counter()
        deadline = started + seconds
        self._trees = {name: {} for name in self.game.players}
        self._low, self._high = self._bounds
        self._expanded = self._playouts = done = max_depth = 0
        key = self.hidden.information_key(state, player)
        while done < limit:
            max_depth = max(max_depth, self._iteration(state, player))
            done += 1
            if time.perf_counter() >= deadline:
                break
            if done % every == 0 and done < limit:
                yield self._result(player, key, done, max_depth, started)
        yield self._result(player, key, done, max_depth, started)

    def _iteration(self, root: S, player: str) -> int:
        """One iteration of Algorithm 2 (lines 4-24) from a determinisation of ``root`` for
        ``player``; the number of decisions it made in the trees."""
        game, trees, rng = self.game, self._trees, self.rng
        key_of, is_terminal, to_move, result = (
            self.hidden.information_key,
            game.is_terminal,
            game.to_move,
            game.result,
        )
        seats = self._seats
        state = self.hidden.sample_state(root, player, rng)
        path: list[tuple[_Node, int, int]] = []
        payoffs: Sequence[float]
        while True:
            if is_terminal(state):
                payoffs = game.payoffs(state)
                break
            mover = to_move(state)
            if mover == CHANCE:
                state = result(state, sample_outcome(game, state, rng))
                continue
            tree = trees[mover]
            key = key_of(state, mover)
            node = tree.get(key)
            if node is None:
                node = tree[key] = _Node(game.actions(state))
            seat = seats[mover]
            if node.untried:  # EXPAND, then SIMULATE
                untried = node.untried
                index = untried.pop(int(rng.random() * len(untried)))
                self._expanded += 1
                path.append((node, index, seat))
                state = result(state, node.actions[index])
                payoffs = game.payoffs(state) if is_terminal(state) else self._playout(state)
                break
            index = self._select(node)
            path.append((node, index, seat))
            state = result(state, node.actions[index])
        self._see(payoffs)
        for node, index, seat in path:
            node.decisions += 1
            node.visits[index] += 1
            node.totals[index] += payoffs[seat]
        return len(path)

    def _playout(self, state: S) -> Sequence[float]:
        self._playouts += 1
        payoffs = self.evaluator(self.game, state, self.rng)
        if len(payoffs) != len(self.game.players):
            raise GameDefinitionError(
                f"game '{self.game.name}': a playout gave {len(payoffs)} utilities for "
                f"{len(self.game.players)} players"
            )
        return payoffs

    def _select(self, node: _Node) -> int:
        """UCB1 (equation (7)) over the node's actions, every one tried: the mean normalised
        to [0, 1] plus ``c * sqrt(ln n / n_a)``, ``n`` the node's visits (its availability
        count, section IV-B)."""
        scale = 1 / (self._high - self._low) if self._high > self._low else 0.0
        log_n = math.log(node.decisions)
        c, totals = self.c, node.totals
        best, best_score = 0, -math.inf
        for index, visits in enumerate(node.visits):
            # the normalised mean is (mean - low) * scale: low * scale is alike for all
            score = totals[index] / visits * scale + c * math.sqrt(log_n / visits)
            if score > best_score:
                best, best_score = index, score
        return best

    def _see(self, payoffs: Sequence[float]) -> None:
        """Widen the range of values to the utilities seen (beyond the declared bounds, if
        any, none lies)."""
        self._low = min(self._low, *payoffs)
        self._high = max(self._high, *payoffs)

    def _result(
        self, player: str, key: str, done: int, max_depth: int, started: float
    ) -> SearchResult[A]:
        root = self._trees[player][key]
        ranked = sorted(
            (index for index, visits in enumerate(root.visits) if visits),
            key=lambda index: -root.visits[index],
        )
        moves = tuple(
            RootMove(root.actions[i], root.visits[i], root.totals[i] / root.visits[i])
            for i in ranked
        )
        return SearchResult(
            value=moves[0].value,
            action=moves[0].action,
            pv=(moves[0].action,),
            stats=SearchStats(
                nodes=self._expanded,
                leaves=self._playouts,
                max_depth=max_depth,
                time=time.perf_counter() - started,
                iterations=done,
            ),
            algorithm="ismcts",
            max_player=player,
            root=moves,
        )
