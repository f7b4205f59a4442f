"""PUCT Monte Carlo tree search guided by a policy-value evaluator, the one PUCT of plies (the
``az`` agent, self-play, and ``mcts:selection=puct`` with uniform priors and playouts).

The rule is AlphaGo Zero's and AlphaZero's (Silver et al. 2017, Nature 550, "Methods";
Silver et al. 2018, Science 362): select by Q + U with U = c_puct * P * sqrt(N_parent) / (1 + N),
expand a leaf with the evaluator's priors P and back its value up; no playouts of its own.

One value scale and one set of constants: Q and the evaluator's values are in [-1, 1] for the
player to move at each node (terminal states are scored by the game's utilities, scaled to
[-1, 1] by its value bounds); ``c_puct`` is :data:`DEFAULT_C_PUCT`, 1.5, and Q of an unvisited
move is 0 (``first_play``); no noise unless asked for (self-play's Dirichlet noise at the root).

Many trees search at once (:func:`run_simulations`): every round takes one leaf from each tree
(or several, held apart by a virtual loss), and all leaves go to the evaluator in one batch,
which is what makes a network affordable on a CPU. With one leaf per tree a round changes each
tree exactly as searching it alone would, so batching across trees never changes a result.

>>> from plies.games.tictactoe.rules import TicTacToe
>>> game = TicTacToe()
>>> tree = Tree(game, game.parse_position("XX./OO./..."), PUCTConfig(), np.random.default_rng(0))
>>> run_simulations([tree], UniformEvaluator(), 20)  # evaluator calls: the win needs none
5
>>> game.format_action(tree.root.state, tree.choose(0.0)), tree.value()
('c1', 1.0)
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np

from plies.capabilities import HasTensorEncoding, require
from plies.errors import IllegalMoveError, SpecError, UnsupportedGameError
from plies.game import Game, require_two_player_zero_sum
from plies.search.mcts import LeafEvaluator, declared_bounds
from plies.search.result import VisitNode

Priors = list[np.ndarray]


class PolicyValueEvaluator(Protocol):
    """``evaluator(states, indices) -> (priors, values)``: for each state, the prior of each of
    its legal moves (given by their indices, in the order of ACTIONS; they sum to 1) and its
    value in [-1, 1] for the player to move there (AlphaZero's f(s) = (p, v))."""

    def __call__(
        self, states: Sequence[Any], indices: Sequence[Sequence[int]]
    ) -> tuple[Priors, np.ndarray]: ...


class UniformEvaluator:
    """Equal priors and value 0 for every state (PUCT as a plain MCTS without playouts)."""

    calls = 0

    def __call__(
        self, states: Sequence[Any], indices: Sequence[Sequence[int]]
    ) -> tuple[Priors, np.ndarray]:
        self.calls += 1
        priors = [np.full(len(moves), 1.0 / len(moves)) for moves in indices]
        return priors, np.zeros(len(states))


class UniformPriorEvaluator:
    """Equal priors and a :data:`~plies.search.mcts.LeafEvaluator`'s estimate (a random
    playout, EVAL) as the value: the mover's utility scaled to [-1, 1] by the game's value
    bounds, clipped there. ``calls`` and ``positions`` count the batches and states."""

    def __init__(self, game: Game[Any, Any], leaf: LeafEvaluator, seed: int | None) -> None:
        bounds = declared_bounds(game)
        if bounds is None:
            raise UnsupportedGameError(f"PUCT search needs value bounds; '{game.name}' has none")
        self.game, self.leaf, self.bounds = game, leaf, bounds
        self.rng = random.Random(seed)
        self.calls = self.positions = 0

    def restart(self, seed: int | None) -> None:
        """Seed the playouts again."""
        self.rng.seed(seed)

    def __call__(
        self, states: Sequence[Any], indices: Sequence[Sequence[int]]
    ) -> tuple[Priors, np.ndarray]:
        self.calls += 1
        self.positions += len(states)
        game, (low, high), players = self.game, self.bounds, self.game.players
        values = np.empty(len(states))
        for n, state in enumerate(states):
            utility = self.leaf(game, state, self.rng)[players.index(game.to_move(state))]
            values[n] = 2 * (utility - low) / (high - low) - 1
        priors = [np.full(len(moves), 1.0 / len(moves)) for moves in indices]
        return priors, np.clip(values, -1.0, 1.0)


DEFAULT_C_PUCT = 1.5
"""PUCT's exploration constant, on the [-1, 1] value scale (every PUCT search: ``az``,
self-play, ``mcts:selection=puct``)."""
MAX_SIMULATIONS = 1_000_000
MAX_LEAVES = 256


@dataclass(frozen=True)
class PUCTConfig:
    """PUCT's settings. ``noise_alpha`` (None: no noise) mixes Dirichlet(alpha) noise into the
    root's priors with weight ``noise_fraction`` (self-play's exploration); ``leaves_per_tree``
    above 1 batches leaves within a tree by virtual loss; ``first_play`` is Q of unvisited
    moves."""

    c_puct: float = DEFAULT_C_PUCT
    noise_alpha: float | None = None
    noise_fraction: float = 0.25
    leaves_per_tree: int = 1
    first_play: float = 0.0

    def __post_init__(self) -> None:
        if not (math.isfinite(self.c_puct) and 0 < self.c_puct <= 100):
            raise SpecError(f"c_puct={self.c_puct} must be above 0 and at most 100")
        if self.noise_alpha is not None and not (0 < self.noise_alpha <= 100):
            raise SpecError(f"noise alpha={self.noise_alpha} must be above 0 and at most 100")
        if not 0 <= self.noise_fraction <= 1:
            raise SpecError(f"noise fraction={self.noise_fraction} must be 0 to 1")
        if not 1 <= self.leaves_per_tree <= MAX_LEAVES:
            raise SpecError(f"leaves per tree={self.leaves_per_tree} must be 1 to {MAX_LEAVES}")
        if not -1 <= self.first_play <= 1:
            raise SpecError(f"first-play value={self.first_play} must be -1 to 1")


class Node:
    """A state in the tree and the statistics of its moves (arrays indexed like ``actions``):
    ``priors`` P, ``visits`` N, ``totals`` W (summed values for the mover here), ``children``
    (None until first visited). ``terminal`` is the mover's value at a finished game."""

    __slots__ = (
        "actions",
        "children",
        "indices",
        "pending",
        "player",
        "priors",
        "state",
        "terminal",
        "totals",
        "visited",
        "visits",
    )

    def __init__(self, state: Any, player: str, terminal: float | None) -> None:
        self.state = state
        self.player = player
        self.terminal = terminal
        self.actions: Sequence[Any] = ()
        self.indices: list[int] = []
        self.priors = np.empty(0)
        self.visits = np.empty(0)
        self.totals = np.empty(0)
        self.children: list[Node | None] = []
        self.visited = 0
        self.pending = False

    @property
    def expanded(self) -> bool:
        """Evaluated, with its moves' statistics (a leaf waiting for the evaluator is not)."""
        return len(self.children) > 0


class Tree:
    """One search tree over ``game`` from ``state``; :meth:`advance` keeps the subtree of the
    move played (tree reuse). A move's index is the game's action index where it has a tensor
    encoding (:class:`~plies.capabilities.HasTensorEncoding`), else its place in ACTIONS."""

    def __init__(
        self, game: Game[Any, Any], state: Any, config: PUCTConfig, rng: np.random.Generator
    ) -> None:
        require_two_player_zero_sum(game, "PUCT search")
        self.game = game
        self.encoding = game if isinstance(game, HasTensorEncoding) else None
        bounds = declared_bounds(game)
        if bounds is None:
            raise UnsupportedGameError(f"PUCT search needs value bounds; '{game.name}' has none")
        self.low, self.high = bounds
        self.config = config
        self.rng = rng
        self.root = self.node(state)
        self.noised = False

    def node(self, state: Any) -> Node:
        player = self.game.to_move(state)
        terminal = None
        if self.game.is_terminal(state):
            utility = self.game.utility(state, player)
            terminal = 2 * (utility - self.low) / (self.high - self.low) - 1
        return Node(state, player, terminal)

    def expand(self, node: Node, priors: np.ndarray) -> None:
        node.priors = priors
        node.visits = np.zeros(len(node.indices))
        node.totals = np.zeros(len(node.indices))
        node.children = [None] * len(node.indices)
        if node is self.root:
            self.add_noise()

    def prepare(self, node: Node) -> None:
        """Fill ``node``'s legal moves and their indices (before it is evaluated)."""
        node.actions = self.game.actions(node.state)
        if self.encoding is None:
            node.indices = list(range(len(node.actions)))
        else:
            node.indices = [self.encoding.action_index(node.state, a) for a in node.actions]

    def add_noise(self) -> None:
        alpha = self.config.noise_alpha
        if alpha is None or self.noised or not self.root.expanded:
            return
        noise = self.rng.dirichlet(np.full(len(self.root.priors), alpha))
        fraction = self.config.noise_fraction
        self.root.priors = (1 - fraction) * self.root.priors + fraction * noise
        self.noised = True

    def select(self) -> tuple[list[tuple[Node, int]], Node]:
        """Descend by the PUCT rule to an unexpanded or terminal node, counting the visit (and
        a virtual loss when leaves are batched within the tree) on the way."""
        c, loss = self.config.c_puct, float(self.config.leaves_per_tree > 1)
        path: list[tuple[Node, int]] = []
        node = self.root
        while node.expanded and node.terminal is None:
            visits = node.visits
            q = np.where(visits > 0, node.totals / np.maximum(visits, 1), self.config.first_play)
            u = c * node.priors * (math.sqrt(max(node.visited, 1)) / (1 + visits))
            i = int(np.argmax(q + u))
            visits[i] += 1
            node.totals[i] -= loss
            node.visited += 1
            path.append((node, i))
            child = node.children[i]
            if child is None:
                child = node.children[i] = self.node(self.game.result(node.state, node.actions[i]))
            node = child
        return path, node

    def backup(self, path: list[tuple[Node, int]], leaf: Node, value: float) -> None:
        """Add ``value`` (for ``leaf``'s mover) along ``path``, lifting any virtual loss."""
        loss = float(self.config.leaves_per_tree > 1)
        for node, i in path:
            node.totals[i] += (value if node.player == leaf.player else -value) + loss

    def undo(self, path: list[tuple[Node, int]]) -> None:
        """Take back a selection that reached a leaf already waiting for the evaluator."""
        loss = float(self.config.leaves_per_tree > 1)
        for node, i in path:
            node.visits[i] -= 1
            node.totals[i] += loss
            node.visited -= 1

    def policy(self) -> np.ndarray:
        """The root's visit counts over the game's action indices, as a distribution."""
        encoding = require(self.game, HasTensorEncoding, "a policy target")
        target = np.zeros(encoding.action_count(), dtype=np.float32)
        if self.root.visited:
            target[self.root.indices] = self.root.visits / self.root.visited
        return target

    def choose(self, temperature: float) -> Any:
        """A root move: the most visited (temperature 0) or drawn with probability
        proportional to N^(1/temperature)."""
        visits = self.root.visits
        if temperature == 0 or visits.sum() == 0:
            return self.root.actions[int(np.argmax(visits))]
        weights = visits ** (1 / temperature)
        return self.root.actions[int(self.rng.choice(len(visits), p=weights / weights.sum()))]

    def advance(self, action: Any) -> None:
        """Make the root the state after ``action``, keeping its subtree."""
        root = self.root
        if not root.expanded:
            self.prepare(root)
        try:
            i = list(root.actions).index(action)
        except ValueError:
            raise IllegalMoveError(f"move {action!r} is not legal at the root") from None
        child = root.children[i] if root.children else None
        self.root = child if child is not None else self.node(self.game.result(root.state, action))
        self.noised = False
        self.add_noise()

    def scale(self, value: float) -> float:
        """A value in [-1, 1] on the game's utility scale."""
        return self.low + (value + 1) / 2 * (self.high - self.low)

    def value(self) -> float:
        """The root's value for its mover: the most visited move's mean value."""
        if not self.root.visited:
            return 0.0
        i = int(np.argmax(self.root.visits))
        return float(self.root.totals[i] / max(self.root.visits[i], 1))

    def principal_variation(self, limit: int = 32) -> list[Any]:
        line: list[Any] = []
        node: Node | None = self.root
        while node is not None and node.expanded and node.visited and len(line) < limit:
            i = int(np.argmax(node.visits))
            line.append(node.actions[i])
            node = node.children[i]
        return line

    def visit_tree(self, levels: int = 3, width: int = 8) -> tuple[VisitNode, ...]:
        """The first ``levels`` below the root, at most ``width`` children per node, most
        visited first (unvisited ones left out); values on the game's utility scale for the
        player who chose the move, ``proved`` at finished games."""

        def below(node: Node, level: int) -> tuple[VisitNode, ...]:
            if level >= levels or not node.expanded:
                return ()
            order = sorted(range(len(node.actions)), key=lambda i: -node.visits[i])[:width]
            found = []
            for i in (i for i in order if node.visits[i] > 0):
                child = node.children[i]
                value = self.scale(float(node.totals[i] / node.visits[i]))
                proved = child is not None and child.terminal is not None
                grown = below(child, level + 1) if child is not None else ()
                found.append(VisitNode(node.actions[i], int(node.visits[i]), value, proved, grown))
            return tuple(found)

        return below(self.root, 0)


def run_simulations(
    trees: Sequence[Tree], evaluator: PolicyValueEvaluator, simulations: int
) -> int:
    """Run ``simulations`` more simulations in every tree, batching the leaves of all trees
    into each evaluator call; returns the number of calls."""
    if not 1 <= simulations <= MAX_SIMULATIONS:
        raise SpecError(f"simulations={simulations} must be 1 to {MAX_SIMULATIONS}")
    remaining = [simulations] * len(trees)
    calls = 0
    while any(remaining):
        pending: list[tuple[Tree, list[tuple[Node, int]], Node]] = []
        for t, tree in enumerate(trees):
            for _ in range(min(tree.config.leaves_per_tree, remaining[t])):
                path, leaf = tree.select()
                if leaf.terminal is not None:
                    tree.backup(path, leaf, leaf.terminal)
                elif leaf.pending:
                    tree.undo(path)
                    break
                else:
                    leaf.pending = True
                    tree.prepare(leaf)
                    pending.append((tree, path, leaf))
                remaining[t] -= 1
        if pending:
            calls += 1
            priors, values = evaluator(
                [leaf.state for _, _, leaf in pending], [leaf.indices for _, _, leaf in pending]
            )
            for (tree, path, leaf), prior, value in zip(pending, priors, values, strict=True):
                leaf.pending = False
                tree.expand(leaf, prior)
                tree.backup(path, leaf, float(value))
    return calls
