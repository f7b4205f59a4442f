"""The learned agents: ``az`` (PUCT search guided by a policy-value network, AlphaZero) and
``policy`` (the network alone, no search: the most probable move of a policy-value network, or
the best predicted move of an action-value network).

A model is a checkpoint path or the name of a model shipped in ``plies/learn/models`` (the
game's name by default: ``connect4``, ``tictactoe``).
"""

from __future__ import annotations

import time
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np
import torch

from plies.agents.live import Watch
from plies.capabilities import HasTensorEncoding, require
from plies.clock import MIN_MOVE_SECONDS, move_budget
from plies.errors import CheckpointError
from plies.game import Game
from plies.learn.checkpoint import Checkpoint, load_checkpoint, resolve_device
from plies.learn.evaluator import NetworkEvaluator, masked_softmax, one_thread
from plies.learn.network import ACTION_VALUE, POLICY_VALUE, bin_centres
from plies.learn.puct import PUCTConfig, Tree, run_simulations
from plies.search import SearchResult
from plies.search.result import RootMove, SearchStats

WATCH_BATCH = 64
"""PUCT simulations between two looks at the clock and the stop flag while watched."""
WATCH_INTERVAL = 0.1
"""Seconds between two reports of a watched search."""
MODELS = "plies.learn.models"


def shipped_models() -> list[str]:
    """The names of the models that ship inside the package."""
    folder = resources.files(MODELS)
    return sorted(p.name[:-3] for p in folder.iterdir() if p.name.endswith(".pt"))


def model_path(model: str) -> Path:
    """A shipped model's file for a name, else ``model`` read as a path."""
    shipped = resources.files(MODELS) / f"{model}.pt"
    if "/" not in model and "\\" not in model and shipped.is_file():
        return Path(str(shipped))
    path = Path(model).expanduser()
    if not path.is_file():
        names = ", ".join(shipped_models()) or "none"
        raise CheckpointError(
            f"model {model!r} is neither a file nor a shipped model (shipped: {names})"
        )
    return path


def load_model(game: Game[Any, Any], model: str, kinds: tuple[str, ...], device: str) -> Checkpoint:
    """The checkpoint of ``model`` for ``game``, of one of ``kinds``, on ``device``."""
    require(game, HasTensorEncoding, "a learned agent")
    return load_checkpoint(model_path(model), game, kinds, resolve_device(device))


class PolicyAgent:
    """Plays the network's choice with no search."""

    last: SearchResult[Any] | None = None

    def __init__(self, game: Game[Any, Any], checkpoint: Checkpoint, name: str) -> None:
        self.encoding = require(game, HasTensorEncoding, "the policy agent")
        self.checkpoint = checkpoint
        self.name = name
        self.device = next(checkpoint.network.parameters()).device

    def scores(self, state: Any, actions: list[Any]) -> np.ndarray:
        """One number per action, higher better: its prior, or its expected value."""
        indices = [self.encoding.action_index(state, a) for a in actions]
        planes = torch.from_numpy(self.encoding.encode(state)[None]).to(self.device)
        with torch.inference_mode():
            output = self.checkpoint.network(planes)
        if self.checkpoint.shape.kind == POLICY_VALUE:
            return masked_softmax(output[0][0].float().cpu().numpy(), indices)
        probabilities = torch.softmax(output[0].float(), dim=-1).cpu()
        expected = probabilities @ bin_centres(self.checkpoint.shape.bins)
        return expected.numpy()[indices]

    def __call__(self, game: Game[Any, Any], state: Any) -> Any:
        actions = list(game.actions(state))
        return actions[int(np.argmax(self.scores(state, actions)))]

    def reset(self, seed: int | None = None) -> None:
        """Nothing is kept between moves, and nothing is random."""


class AZAgent:
    """PUCT search with a policy-value network for ``simulations`` a move, or for ``seconds``
    when given; the tree is kept between moves when the game continues from it."""

    def __init__(
        self,
        game: Game[Any, Any],
        checkpoint: Checkpoint,
        name: str,
        simulations: int,
        seconds: float | None,
        config: PUCTConfig,
        seed: int | None,
    ) -> None:
        self.evaluator = NetworkEvaluator(
            require(game, HasTensorEncoding, "the az agent"),
            checkpoint.network,
            next(checkpoint.network.parameters()).device,
        )
        self.name = name
        self.simulations = simulations
        self.seconds = self.spec_seconds = seconds
        self.config = config
        self.rng = np.random.default_rng(seed)
        self.tree: Tree | None = None
        self.last: SearchResult[Any] | None = None

    def set_clock(self, remaining: float, increment: float) -> None:
        """Search the next move for the time this clock allows
        (:func:`plies.clock.move_budget`) instead of the spec's simulations or time."""
        self.seconds = max(MIN_MOVE_SECONDS, move_budget(remaining, increment))

    def reset(self, seed: int | None = None) -> None:
        """Forget the tree and any clock; a seed restarts the random choices (root noise,
        sampling)."""
        self.tree, self.seconds = None, self.spec_seconds
        if seed is not None:
            self.rng = np.random.default_rng(seed)

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
        ``watch.stop`` is set."""
        started = time.perf_counter()
        tree = self._tree_at(game, state)
        positions, calls = self.evaluator.positions, self.evaluator.calls

        def report(simulations: int) -> SearchResult[Any]:
            evaluated = (self.evaluator.positions - positions, self.evaluator.calls - calls)
            return self._report(tree, state, tree.choose(0.0), simulations, evaluated, started)

        simulations, reported = 0, started
        with one_thread():
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
        or :data:`WATCH_BATCH` at a time while watched; under a clock, one batch of leaves
        (always one at least)."""
        if self.seconds is not None:
            running = done == 0 or time.perf_counter() - started < self.seconds
            return self.config.leaves_per_tree if running else 0
        left = self.simulations - done
        return min(left, WATCH_BATCH) if watched else left

    def _report(
        self,
        tree: Tree,
        state: Any,
        action: Any,
        simulations: int,
        evaluated: tuple[int, int],
        started: float,
    ) -> SearchResult[Any]:
        """The search as a :class:`SearchResult`: ``nodes`` and ``leaves`` are the positions
        the network evaluated (each added to the tree), ``iterations`` the simulations."""
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
            action=action,
            pv=tuple(tree.principal_variation()),
            stats=SearchStats(
                nodes=evaluated[0],
                leaves=evaluated[0],
                iterations=simulations,
                time=time.perf_counter() - started,
            ),
            algorithm="az",
            max_player=tree.game.to_move(state),
            root=tuple(moves),
            note=f"{evaluated[1]} network calls, {root.visited} visits at the root",
        )


KINDS_FOR_POLICY = (POLICY_VALUE, ACTION_VALUE)
