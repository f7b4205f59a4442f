"""The PUCT agent: plays the move :mod:`plies.search.puct` chooses with a policy-value evaluator,
keeping its tree between moves. ``az`` runs it with a network (:mod:`plies.learn.players`),
``mcts:selection=puct`` with uniform priors and the MCTS leaf evaluation (random playouts, EVAL).
"""

from __future__ import annotations

import time
from contextlib import AbstractContextManager, nullcontext
from typing import Any, Protocol, runtime_checkable

import numpy as np

from plies.agents.live import Watch
from plies.clock import MIN_MOVE_SECONDS, move_budget
from plies.game import Game
from plies.search.puct import PolicyValueEvaluator, PUCTConfig, Tree, run_simulations
from plies.search.result import RootMove, SearchResult, SearchStats

WATCH_BATCH = 64
"""PUCT simulations between two looks at the clock and the stop flag while watched."""
WATCH_INTERVAL = 0.1
"""Seconds between two reports of a watched search."""


class CountingEvaluator(PolicyValueEvaluator, Protocol):
    """An evaluator that counts its ``calls`` (batches) and the ``positions`` it evaluated."""

    calls: int
    positions: int


@runtime_checkable
class Restartable(Protocol):
    """An evaluator with random choices of its own, which ``restart(seed)`` seeds again."""

    def restart(self, seed: int | None) -> None: ...


class PUCTAgent:
    """PUCT search with ``evaluator`` for ``simulations`` a move, or for ``seconds`` when given
    (both: whichever ends first); the tree is kept between moves when the game continues from
    it. Results name ``algorithm``; their note counts the evaluator's calls as ``calls_name``."""

    def __init__(
        self,
        evaluator: CountingEvaluator,
        config: PUCTConfig,
        *,
        name: str,
        algorithm: str,
        simulations: int | None,
        seconds: float | None,
        seed: int | None,
        calls_name: str = "evaluator calls",
    ) -> None:
        self.evaluator = evaluator
        self.config = config
        self.name, self.algorithm, self.calls_name = name, algorithm, calls_name
        self.simulations = self.spec_simulations = simulations
        self.seconds = self.spec_seconds = seconds
        self.rng = np.random.default_rng(seed)
        self.tree: Tree | None = None
        self.last: SearchResult[Any] | None = None

    def set_clock(self, remaining: float, increment: float) -> None:
        """Search the next move for the time this clock allows
        (:func:`plies.clock.move_budget`) instead of the spec's simulations or time."""
        self.seconds = max(MIN_MOVE_SECONDS, move_budget(remaining, increment))
        self.simulations = None

    def reset(self, seed: int | None = None) -> None:
        """Forget the tree and any clock; a seed restarts the random choices (root noise,
        sampling, and a :class:`Restartable` evaluator's)."""
        self.tree, self.seconds, self.simulations = None, self.spec_seconds, self.spec_simulations
        if seed is not None:
            self.rng = np.random.default_rng(seed)
            if isinstance(self.evaluator, Restartable):
                self.evaluator.restart(seed)

    def searching(self) -> AbstractContextManager[object]:
        """The context the simulations run in (a network's agent keeps PyTorch on one
        thread)."""
        return nullcontext()

    def _tree_at(self, game: Game[Any, Any], state: Any) -> Tree:
        """The kept tree re-rooted at ``state`` if it is the root or one or two moves below."""
        tree = self.tree
        if tree is not None and tree.game is game:
            if tree.root.state == state:
                return tree
            for child in tree.root.children:
                for node in [child, *(child.children if child is not None else [])]:
                    if node is not None and node.state == state:
                        tree.root, tree.noised = node, False
                        return tree
        self.tree = Tree(game, state, self.config, self.rng)
        return self.tree

    def __call__(self, game: Game[Any, Any], state: Any) -> Any:
        return self.think(game, state, Watch())

    def think(self, game: Game[Any, Any], state: Any, watch: Watch) -> Any:
        """The move after the simulations (or the seconds), the search reported about ten
        times a second while anyone watches, and stopped between batches once
        ``watch.stop`` is set; the last result carries the tree's first levels."""
        started = time.perf_counter()
        tree = self._tree_at(game, state)
        positions, calls = self.evaluator.positions, self.evaluator.calls

        def report(simulations: int) -> SearchResult[Any]:
            evaluated = (self.evaluator.positions - positions, self.evaluator.calls - calls)
            return self._report(tree, state, simulations, evaluated, started)

        simulations, reported = 0, started
        with self.searching():
            while (step := self._next_step(simulations, started, watch.watched)) > 0:
                run_simulations([tree], self.evaluator, step)
                simulations += step
                if watch.stop.is_set():
                    break
                if watch.watched and time.perf_counter() - reported > WATCH_INTERVAL:
                    reported = time.perf_counter()
                    watch.report(report(simulations))
        self.last = report(simulations)
        watch.report(self.last)
        return self.last.action

    def _next_step(self, done: int, started: float, watched: bool) -> int:
        """The simulations to run next (0: the search is over): all that are left at once,
        or :data:`WATCH_BATCH` at a time while watched; under a time limit, one batch of
        leaves (always one at least)."""
        left = self.simulations - done if self.simulations is not None else 1 << 62
        if self.seconds is not None:
            running = done == 0 or time.perf_counter() - started < self.seconds
            return min(left, self.config.leaves_per_tree) if running else 0
        return min(left, WATCH_BATCH) if watched else left

    def _report(
        self,
        tree: Tree,
        state: Any,
        simulations: int,
        evaluated: tuple[int, int],
        started: float,
    ) -> SearchResult[Any]:
        """The search as a :class:`SearchResult`: ``nodes`` and ``leaves`` are the positions
        the evaluator evaluated (each added to the tree), ``iterations`` the simulations."""
        root = tree.root
        moves = sorted(
            (
                RootMove(a, int(n), tree.scale(float(w / n)) if n else float("nan"), float(p))
                for a, n, w, p in zip(
                    root.actions, root.visits, root.totals, root.priors, strict=True
                )
            ),
            key=lambda move: -move.visits,
        )
        return SearchResult(
            value=tree.scale(tree.value()),
            action=tree.choose(0.0),
            pv=tuple(tree.principal_variation()),
            stats=SearchStats(
                nodes=evaluated[0],
                leaves=evaluated[0],
                iterations=simulations,
                time=time.perf_counter() - started,
            ),
            algorithm=self.algorithm,
            max_player=tree.game.to_move(state),
            root=tuple(moves),
            note=f"{evaluated[1]} {self.calls_name}, {root.visited} visits at the root",
            tree=tree.visit_tree(),
        )
