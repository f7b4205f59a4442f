"""Monte Carlo tree search: UCT on any formal game, two players or more, with or without chance.

Each iteration has the four phases of AIMA 4th ed., section 5.4 (Figure 5.11,
MONTE-CARLO-TREE-SEARCH):

1. SELECT: from the root, while the node is fully expanded, follow the child with the highest
   UCB1 (Kocsis & Szepesvári 2006: ``Q + c * sqrt(ln N(parent) / N(child))``), ``Q`` being the
   child's mean value normalised to [0, 1] for the player who chose it; at a chance node, draw an
   outcome with its probability instead.
2. EXPAND: add a child for the first untried action, in the order of ACTIONS: RESULT(s, a) gives
   its state.
3. SIMULATE: the evaluator estimates the new leaf, a vector of utilities, one per player: by
   default the utilities at the end of a game of uniformly random moves (a playout).
4. BACK-PROPAGATE: every node on the path adds the utility of the player who chose the move into
   it (at an outcome of a chance node: the player who moved before nature), so each node's mean is
   from its chooser's point of view and a chance node's mean averages its sampled outcomes.

Values are kept on the game's utility scale; selection normalises them with
``game.value_bounds`` (:class:`~plies.game.HasValueBounds`), else with the loss and win utilities
of a :class:`~plies.game.WinLossDrawGame`, else with the range of utilities and evaluations seen
so far (every value counts as 0.5 until two different ones have been seen).

MCTS-Solver (Winands, Björnsson & Saito 2008), for two-player zero-sum games without chance: a
terminal node's utilities are exact, and so are a node's once a child is proven a win for its
mover (the best utility the bounds allow) or once every child is proven (the mover's best of
them; this proves draws too). Proven nodes end the selection at once and keep their exact value
as their mean; proven losses are never selected nor played; a proven root stops the search.

RAVE (Gelly & Silver 2011), where the game's compiled tree keeps all-moves-as-first statistics
(Go: :mod:`plies.games.go.mcts_native`): a child's value mixes its mean with the mean result of the
playouts in which its mover played its move first, by the minimum-MSE schedule whose
equivalence visits ``k`` are ``rave`` (:data:`DEFAULT_RAVE` by default there; 0 turns it off);
the game's own ``knowledge`` (Go: playout rules, priors) applies there too.

PUCT with priors (AlphaZero's selection) is :mod:`plies.search.puct`, the one PUCT of plies.

Searches reuse the tree: a state found a few plies below the previous root (the reply and chance
outcomes included) becomes the new root with its statistics.

>>> from plies.games.tictactoe.rules import TicTacToe
>>> game = TicTacToe()
>>> mcts = MCTS(game, seed=1)
>>> result = mcts.search(game.parse_position("XX./OO./..."), iterations=200)
>>> game.format_action(game.initial_state(), result.action), result.value, result.note
('c1', 1, 'the solver proved the root: X wins')
"""

from __future__ import annotations

import functools
import math
import random
import time
from collections.abc import Generator, Hashable, Mapping, Sequence
from typing import Any, Generic, Protocol, TypeVar

from plies.capabilities import (
    HasEvaluation,
    HasRandomPlayout,
    HasValueBounds,
    LearnedPrior,
    NativeTree,
    require,
)
from plies.errors import GameDefinitionError, GameOverError, SpecError, UnsupportedGameError
from plies.game import CHANCE, Game, WinLossDrawGame, checked_outcomes, has_chance, sample_outcome
from plies.native import native_mcts
from plies.search.result import RootMove, SearchResult, SearchStats, VisitNode
from plies.search.worker import run_stoppable

S = TypeVar("S", bound=Hashable)
A = TypeVar("A", bound=Hashable)

DEFAULT_C = math.sqrt(2)
"""The exploration constant: the theoretical value for UCB1 with values in [0, 1] that AIMA 4th
ed. (section 5.4) cites."""
DEFAULT_RAVE = 1000.0
"""RAVE's equivalence visits where the game's compiled tree keeps AMAF statistics: the visits at
which a child's own mean weighs half (MoGo's value, Gelly & Silver 2011)."""
DEFAULT_RAVE_C = 0.0
"""The exploration constant with RAVE, whose AMAF values explore already (measured on 9x9 Go:
BENCHMARKS.md)."""
REUSE_DEPTH = 4
"""How many plies below the previous root a new search looks for its state (own move, chance,
the reply, chance)."""
REPORT_EVERY = 1000
"""Iterations between two results of :meth:`MCTS.iterate`."""
UNREPORTED = 1 << 62
"""``every`` of a search whose results between are not wanted (:meth:`MCTS.search`)."""


class LeafEvaluator(Protocol):
    """SIMULATE: the estimated utilities of a non-terminal state, one per player in the order of
    ``game.players``, on the game's utility scale (a playout, EVAL, a learned network)."""

    def __call__(self, game: Game[Any, Any], state: Any, rng: random.Random) -> Sequence[float]: ...


def random_playout(game: Game[S, A], state: S, rng: random.Random) -> tuple[float, ...]:
    """The utilities at the end of a game of uniformly random moves from ``state``, through the
    game's own rules (nature draws each outcome with its probability)."""
    actions, result, is_terminal, draw = game.actions, game.result, game.is_terminal, rng.random
    if not has_chance(game):
        while not is_terminal(state):
            moves = actions(state)
            state = result(state, moves[int(draw() * len(moves))])
    else:
        to_move = game.to_move
        while not is_terminal(state):
            if to_move(state) == CHANCE:
                state = result(state, sample_outcome(game, state, rng))
            else:
                moves = actions(state)
                state = result(state, moves[int(draw() * len(moves))])
    return game.payoffs(state)


def default_evaluator(game: Game[Any, Any]) -> LeafEvaluator:
    """Random playouts: the game's own :class:`HasRandomPlayout` (Connect Four's is compiled)
    when it has one, else :func:`random_playout` through its rules."""
    if not isinstance(game, HasRandomPlayout):
        return random_playout
    playout = game.random_playout

    def game_playout(game: Game[Any, Any], state: Any, rng: random.Random) -> Sequence[float]:
        return playout(state, rng)

    return game_playout


def heuristic_evaluator(game: Game[Any, Any]) -> LeafEvaluator:
    """EVAL(s, p) for every player p instead of a playout (the game's evaluation function)."""
    evaluate = require(game, HasEvaluation, "mcts with the evaluation function").evaluate
    players = game.players

    def evaluation(game: Game[Any, Any], state: Any, rng: random.Random) -> tuple[float, ...]:
        return tuple(evaluate(state, player) for player in players)

    return evaluation


_CHANCE_MOVER = -1
"""``_Node.mover`` of a chance node (player nodes hold the mover's index in ``game.players``)."""


class TreeNode(Protocol):
    """What results read of a tree node, Python's (:class:`_Node`) or a compiled tree's."""

    @property
    def action(self) -> Any: ...

    @property
    def visits(self) -> int: ...

    @property
    def mean(self) -> float:
        """The mean utility for the player who chose ``action``."""
        ...

    @property
    def outcome(self) -> tuple[float, ...] | None:
        """Every player's exact utility once known (terminal or proven)."""
        ...

    @property
    def children(self) -> Sequence[TreeNode]: ...

    @property
    def mover(self) -> int: ...

    @property
    def owner(self) -> int: ...


class _Node:
    """A node of the search tree, reached by ``action``; ``state`` is None until it is opened.

    ``total`` sums the utilities of player ``owner`` (who chose ``action``) over the ``visits``;
    ``mean`` is their mean and ``spread`` ``1 / sqrt(visits)``, kept for UCB1.
    ``actions`` are listed on the second visit; ``children`` follow their order (UCB1 adds one at
    a time, chance nodes hold them all, unopened). ``probability`` is a chance outcome's.
    ``outcome`` holds the exact utilities once known (terminal, or proven).
    """

    __slots__ = (
        "action",
        "actions",
        "children",
        "mean",
        "mover",
        "outcome",
        "owner",
        "probability",
        "spread",
        "state",
        "total",
        "visits",
    )

    def __init__(self, action: Any, state: Any, owner: int, probability: float) -> None:
        self.action = action
        self.state = state
        self.owner = owner
        self.probability = probability
        self.mover = 0
        self.actions: tuple[Any, ...] | None = None
        self.children: list[_Node] = []
        self.visits = 0
        self.total = 0.0
        self.mean = 0.0
        self.spread = math.inf
        self.outcome: tuple[float, ...] | None = None


def _visits(node: TreeNode) -> int:
    return node.visits


def search_limits(
    name: str, iterations: int | None, seconds: float | None, every: int
) -> tuple[float, float]:
    """A tree search's limits, checked (a :class:`SpecError` naming ``name`` otherwise): at
    least one of ``iterations`` and ``seconds``, each positive, and reports ``every`` one or
    more iterations. Returns both limits, infinite where not given."""
    if iterations is None and seconds is None:
        raise SpecError(f"{name}: give a limit, iterations or seconds (or both)")
    if iterations is not None and iterations < 1:
        raise SpecError(f"{name}: iterations must be at least 1, got {iterations}")
    if seconds is not None and not seconds > 0:
        raise SpecError(f"{name}: seconds must be positive, got {seconds}")
    if every < 1:
        raise SpecError(f"{name}: every must be at least 1, got {every}")
    return (math.inf if iterations is None else iterations), (
        math.inf if seconds is None else seconds
    )


class MCTS(Generic[S, A]):
    """Monte Carlo tree search on ``game`` (see the module docstring), keeping its tree between
    searches.

    ``c`` is the exploration constant (:data:`DEFAULT_C`); ``evaluator`` estimates new leaves
    (:func:`default_evaluator`: random playouts; :func:`heuristic_evaluator`: EVAL); ``seed``
    makes the playouts and the chance draws repeatable; ``solver`` turns on MCTS-Solver where
    it applies (two-player zero-sum games without chance: :attr:`solving`);
    ``native`` runs the game's compiled tree where it has one; ``rave`` is RAVE's equivalence
    visits (None: :data:`DEFAULT_RAVE` where the compiled tree keeps AMAF statistics, else off);
    ``knowledge`` sets the compiled tree's own settings (Go: its playout rules' rates and its
    priors' weight, :data:`plies.games.go.knowledge.KNOWLEDGE`), its defaults for the others;
    ``learned`` gives its tree a network's policy as a prior (Go).
    """

    def __init__(
        self,
        game: Game[S, A],
        *,
        c: float | None = None,
        evaluator: LeafEvaluator | None = None,
        seed: int | None = None,
        solver: bool = True,
        native: bool = True,
        rave: float | None = None,
        knowledge: Mapping[str, float] | None = None,
        learned: LearnedPrior | None = None,
    ) -> None:
        if c is not None and not (math.isfinite(c) and c >= 0):
            raise SpecError(f"mcts: the exploration constant c must be a number >= 0, got {c}")
        if rave is not None and not (math.isfinite(rave) and rave >= 0):
            raise SpecError(f"mcts: rave must be a number of visits >= 0, got {rave}")
        self.game = game
        self.c = DEFAULT_C if c is None else c
        """The exploration constant: ``c``, else :data:`DEFAULT_C`, or :data:`DEFAULT_RAVE_C`
        with RAVE."""
        self.evaluator = default_evaluator(game) if evaluator is None else evaluator
        self.rng = random.Random(seed)
        self.solving = solver and len(game.players) == 2 and game.zero_sum and not has_chance(game)
        """Whether MCTS-Solver is on: asked for, and the game two-player zero-sum without
        chance."""
        self._movers = {player: index for index, player in enumerate(game.players)}
        self._movers[CHANCE] = _CHANCE_MOVER
        bounds = declared_bounds(game)
        self._fixed_bounds = bounds is not None
        self._seen_low, self._seen_high = math.inf, -math.inf
        self._low, self._scale = 0.0, 1.0  # normalised value = (value - low) * scale
        if bounds is not None:
            self._set_scale(*bounds)
        self._win = bounds[1] if self.solving and bounds is not None else math.inf
        self._loss = bounds[0] if self.solving and bounds is not None else -math.inf
        self._root: _Node | None = None
        self._simulations = 0
        self._expanded = 0
        self.rave = 0.0
        """RAVE's equivalence visits (0: off)."""
        wanted = native and evaluator is None
        self._native = self._compiled_tree(
            wanted, rave, dict(knowledge or {}), learned, c is not None
        )
        """The game's compiled search, used instead of the Python one where it has one."""
        self._native_root: TreeNode | None = None

    def _compiled_tree(
        self,
        wanted: bool,
        rave: float | None,
        knowledge: dict[str, float],
        learned: LearnedPrior | None,
        explicit_c: bool,
    ) -> NativeTree | None:
        """The game's compiled MCTS when ``wanted`` and it runs this search: UCB1 with random
        playouts (or the solver) on a win/loss/draw game, with RAVE where its tree has AMAF
        statistics (and then its exploration constant unless ``explicit_c``), with the game's
        ``knowledge`` settings and the ``learned`` prior."""
        game = self.game
        kernel = native_mcts(game) if wanted else None
        if kernel is None or not isinstance(game, WinLossDrawGame):
            if rave or knowledge or learned:
                asked = "rave" if rave else "a learned prior" if learned else next(iter(knowledge))
                raise SpecError(
                    f"mcts: {asked} needs a game whose compiled search has it (go), with"
                    " native=true, UCB1 and its playouts"
                )
            return None
        for key, value in knowledge.items():
            if key not in kernel.knowledge:
                raise SpecError(f"mcts: the compiled search of {game.name} has no setting {key}")
            if not (math.isfinite(value) and value >= 0):
                raise SpecError(f"mcts: {key} must be a number >= 0, got {value}")
        if learned is not None and not kernel.learns:
            raise SpecError(f"mcts: the compiled search of {game.name} takes no learned prior")
        if kernel.amaf:
            self.rave = DEFAULT_RAVE if rave is None else rave
            if self.rave and not explicit_c:
                self.c = DEFAULT_RAVE_C
        elif rave:
            raise SpecError(f"mcts: the compiled search of {game.name} keeps no AMAF statistics")
        first, second = game.players[0], game.players[1]
        win, loss, draw = (game.scoring.utility(winner, first) for winner in (first, second, None))
        utilities, bounds = (win, loss, draw), (self._win, self._loss)
        tree = kernel.tree(
            self.c, self._scale, utilities, bounds, self.solving, self.rave, knowledge, learned
        )
        start = game.initial_state()
        tree.load(start, game.players.index(game.to_move(start)))  # before any clock runs
        return tree

    @property
    def native(self) -> bool:
        """Whether the searches run compiled (:func:`plies.native.native_mcts`)."""
        return self._native is not None

    # Searching -----------------------------------------------------------------------------

    def forget(self) -> None:
        """Drop the tree: the next search starts afresh."""
        self._root = self._native_root = None
        if self._native is not None:
            self._native.forget()

    def restart(self, seed: int | None) -> None:
        """Drop the tree, the value scale learnt from playouts and the random state: the
        searches go on as those of a new instance built with ``seed``."""
        self.forget()
        self.rng.seed(seed)
        if not self._fixed_bounds:
            self._seen_low, self._seen_high = math.inf, -math.inf
            self._low, self._scale = 0.0, 1.0

    def search(
        self, state: S, *, iterations: int | None = None, seconds: float | None = None
    ) -> SearchResult[A]:
        """Run iterations from ``state`` until ``iterations`` are done, ``seconds`` have passed
        (checked after every iteration) or the solver proves the root, whichever comes first.

        The result's ``action`` is the most visited root move (ties: the first in ACTIONS
        order) unless the solver has proven a move best or some moves lost; ``value`` is the
        root mover's mean utility after it (exact when proven); ``pv`` follows the same choice
        down the tree (chance outcomes included); ``stats.iterations`` counts this search's
        iterations, ``stats.nodes`` the positions it added to the tree, ``stats.leaves`` its
        evaluator calls and ``stats.max_depth`` the deepest tree node it reached; ``solved``
        says whether the solver proved the root; ``root`` lists every root move searched.
        """
        searches = self.iterate(state, iterations=iterations, seconds=seconds, every=UNREPORTED)
        *_, final = searches  # only the last result: no report between
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
        iterations and the final result last (the clock starts at the first ``next``). An
        interrupted search forgets its tree."""
        limit, seconds = search_limits("mcts", iterations, seconds, every)
        root = self._root_for(state)
        if self._native is not None:
            return self._run_native(self._native, root, limit, seconds, every)
        assert isinstance(root, _Node)
        return self._run(root, limit, seconds, every)

    def _run_native(
        self, tree: NativeTree, root: TreeNode, limit: float, seconds: float, every: int
    ) -> Generator[SearchResult[A], None, None]:
        """:meth:`_run` with the iterations compiled, ``every`` at a time in a worker thread
        (:func:`~plies.search.worker.run_stoppable`) that the clock stops."""
        started = time.perf_counter()
        deadline = started + seconds
        tree.start()
        if seconds < math.inf:
            tree.limit_time(seconds)
        tree.seed(self.rng)
        done, chunk_seconds = 0, math.inf  # the first chunk in a thread: its time is unknown
        while done < limit and root.outcome is None:
            chunk = int(min(every - done % every, limit - done))
            run = functools.partial(tree.run, chunk)
            chunk_started = time.perf_counter()
            try:
                done += run_stoppable(run, tree.stop, deadline, expected=chunk_seconds)
                chunk_seconds = time.perf_counter() - chunk_started
            except BaseException:
                self.forget()  # the iteration may have stopped halfway
                raise
            self._expanded, self._simulations, max_depth = tree.counts()
            if time.perf_counter() >= deadline:
                break
            if done % every == 0 and done < limit:
                yield self._result(root, done, max_depth, started)
        self._expanded, self._simulations, max_depth = tree.counts()
        yield self._result(root, done, max_depth, started)

    def _run(
        self, root: _Node, limit: float, seconds: float, every: int
    ) -> Generator[SearchResult[A], None, None]:
        started = time.perf_counter()
        deadline = started + seconds
        done, max_depth, self._simulations, self._expanded = 0, 0, 0, 0
        while done < limit and root.outcome is None:
            try:
                depth = self._iteration(root)
            except BaseException:
                self._root = None  # the iteration may have stopped halfway
                raise
            done += 1
            max_depth = max(max_depth, depth)
            if time.perf_counter() >= deadline:
                break
            if done % every == 0 and done < limit:
                yield self._result(root, done, max_depth, started)
        yield self._result(root, done, max_depth, started)

    def _root_for(self, state: S) -> TreeNode:
        """The previous tree's node for ``state`` when it lies a few plies below the old root,
        else a fresh root."""
        game = self.game
        if game.is_terminal(state):
            raise GameOverError("the game is over in this position: there is nothing to search")
        mover = self._movers.get(game.to_move(state))
        if mover is None:
            raise GameDefinitionError(
                f"game '{game.name}': {game.to_move(state)!r} is to move, not one of {game.players}"
            )
        if mover == _CHANCE_MOVER:
            raise UnsupportedGameError(
                "mcts searches for a player: nature moves in this chance state"
            )
        if self._native is not None:
            self._native_root = self._native.root_for(state, REUSE_DEPTH, mover)
            return self._native_root
        layer = [] if self._root is None else [self._root]
        for _ in range(REUSE_DEPTH + 1):
            for node in layer:
                if node.state == state:
                    self._root = node
                    return node
            layer = [child for node in layer for child in node.children if child.state is not None]
        self._root = _Node(None, state, mover, 1.0)
        self._root.mover = mover
        return self._root

    def _iteration(self, root: _Node) -> int:
        """One SELECT, EXPAND, SIMULATE, BACK-PROPAGATE from ``root``; the depth it reached."""
        node, path = root, [root]
        while True:
            payoffs = node.outcome
            if payoffs is not None:  # terminal or proven: its exact value is the simulation
                break
            if node.actions is None:
                self._list_actions(node)
            if node.mover == _CHANCE_MOVER:
                child = self._draw(node)
            else:
                children, actions = node.children, node.actions
                assert actions is not None
                if len(children) < len(actions):
                    child = _Node(actions[len(children)], None, node.mover, 1.0)
                    children.append(child)
                else:
                    child = self._select_ucb1(node)
            path.append(child)
            if child.state is None:
                payoffs = self._open(child, node.state)
                break
            node = child
        for node in path:
            visits, total = node.visits + 1, node.total + payoffs[node.owner]
            node.visits, node.total, node.mean, node.spread = (
                visits,
                total,
                total / visits,
                visits**-0.5,
            )
        if self.solving and path[-1].outcome is not None:
            self._prove(path)
        return len(path) - 1

    def _list_actions(self, node: _Node) -> None:
        """A node's second visit: its actions (and its outcomes' probabilities, with the
        children they belong to)."""
        game, state = self.game, node.state
        actions = tuple(game.actions(state))
        if not actions:
            raise GameDefinitionError(
                f"game '{game.name}' has a non-terminal state with no legal actions: {state!r}"
            )
        if node.mover == _CHANCE_MOVER:
            outcomes = checked_outcomes(game, state)
            if tuple(outcome for outcome, _ in outcomes) != actions:
                raise GameDefinitionError(
                    f"game '{game.name}': the chance outcomes are not the actions, in order"
                )
            node.children = [_Node(o, None, node.owner, p) for o, p in outcomes]
        node.actions = actions

    def _draw(self, node: _Node) -> _Node:
        """A chance node's outcome, drawn with its probability."""
        draw = self.rng.random()
        for child in node.children:
            draw -= child.probability
            if draw < 0:
                return child
        return node.children[-1]  # rounding left a sliver of probability

    def _select_ucb1(self, node: _Node) -> _Node:
        """The child with the highest UCB1 (proven losses left out)."""
        mover, scale, loss = node.mover, self._scale, self._loss
        explore = self.c * math.sqrt(math.log(node.visits))
        best, best_score = None, -math.inf
        for child in node.children:
            outcome = child.outcome
            if outcome is not None and outcome[mover] <= loss:
                continue
            # Q is (mean - low) * scale: low * scale is the same for every child
            score = child.mean * scale + explore * child.spread
            if score > best_score:
                best, best_score = child, score
        assert best is not None, "a node whose children all lost is proven"
        return best

    def _open(self, node: _Node, parent_state: S) -> tuple[float, ...]:
        """EXPAND a new node (RESULT) and SIMULATE from it: the utilities to back up."""
        game = self.game
        state = node.state = game.result(parent_state, node.action)
        self._expanded += 1
        if game.is_terminal(state):
            payoffs = node.outcome = tuple(game.payoffs(state))
        else:
            mover = self._movers.get(game.to_move(state))
            if mover is None:
                raise GameDefinitionError(
                    f"game '{game.name}': {game.to_move(state)!r} is to move, not one of "
                    f"{game.players}"
                )
            node.mover = mover
            self._simulations += 1
            payoffs = tuple(self.evaluator(game, state, self.rng))
            if len(payoffs) != len(game.players):
                raise SpecError(
                    f"mcts: the evaluator gave {len(payoffs)} values for "
                    f"{len(game.players)} players"
                )
        if not self._fixed_bounds:
            self._see(payoffs)
        return payoffs

    def _prove(self, path: list[_Node]) -> None:
        """MCTS-Solver's backup along ``path``, whose last node has an exact value: a parent
        is proven by a child that wins for its mover, or by all its children."""
        for depth in range(len(path) - 1, 0, -1):
            child, parent = path[depth], path[depth - 1]
            outcome, mover = child.outcome, parent.mover
            assert outcome is not None
            if outcome[mover] < self._win:
                children, actions = parent.children, parent.actions
                assert actions is not None
                if len(children) < len(actions):
                    return
                exact = []
                for sibling in children:
                    if sibling.outcome is None:
                        return
                    exact.append(sibling.outcome)
                outcome = max(exact, key=lambda o: o[mover])
            parent.outcome = outcome
            parent.mean = outcome[parent.owner]
            parent.total = parent.mean * parent.visits

    # Normalisation -------------------------------------------------------------------------

    def _set_scale(self, low: float, high: float) -> None:
        if high > low:
            self._low, self._scale = low, 1 / (high - low)
        else:  # one value seen: it counts as 0.5
            self._low, self._scale = low - 0.5, 1.0

    def _see(self, payoffs: tuple[float, ...]) -> None:
        """Widen the range seen so far (games without declared bounds)."""
        low, high = min(payoffs), max(payoffs)
        if low < self._seen_low or high > self._seen_high:
            self._seen_low = min(low, self._seen_low)
            self._seen_high = max(high, self._seen_high)
            self._set_scale(self._seen_low, self._seen_high)

    # Results -------------------------------------------------------------------------------

    def visit_tree(self, levels: int = 3, width: int = 8) -> tuple[VisitNode, ...]:
        """The first ``levels`` of the kept tree below its root, at most ``width`` children
        per node, most visited first (unvisited children left out); empty before any search.
        A proven node's value is its exact utility for the player who chose its action."""

        def summary(node: TreeNode, level: int) -> VisitNode:
            proved = node.outcome is not None
            value = node.outcome[node.owner] if node.outcome is not None else node.mean
            children: tuple[VisitNode, ...] = ()
            if level < levels:
                visited = sorted((c for c in node.children if c.visits > 0), key=_visits)
                children = tuple(summary(c, level + 1) for c in reversed(visited[-width:]))
            return VisitNode(node.action, node.visits, value, proved, children)

        root = self._root if self._native is None else self._native_root
        if root is None:
            return ()
        return summary(root, 0).children

    def _choose(self, node: TreeNode) -> TreeNode | None:
        """The child to play: most visited (ties: the first), among those achieving a proven
        node's value, else among those not proven lost; None when no child has been visited."""
        candidates = [child for child in node.children if child.visits > 0]
        if not candidates:
            return None
        if self.solving:
            mover = node.mover
            if node.outcome is not None:
                best = node.outcome[mover]
                chosen = [
                    c for c in candidates if c.outcome is not None and c.outcome[mover] == best
                ]
            else:
                chosen = [
                    c for c in candidates if c.outcome is None or c.outcome[mover] > self._loss
                ]
            candidates = chosen or candidates
        return max(candidates, key=_visits)

    def _result(self, root: TreeNode, done: int, max_depth: int, started: float) -> SearchResult[A]:
        player = self.game.players[root.mover]
        line: list[A] = []
        node: TreeNode | None = self._choose(root)
        assert node is not None, "the root has a visited child after an iteration"
        value = node.mean
        note = None
        if root.outcome is not None:
            value = root.outcome[root.mover]
            note = f"the solver proved the root: {self._outcome_text(root.outcome)}"
        while node is not None:
            line.append(node.action)
            node = self._choose(node)
        ranked = sorted(
            (child for child in root.children if child.visits > 0), key=_visits, reverse=True
        )
        return SearchResult(
            value=value,
            action=line[0],
            pv=tuple(line),
            stats=SearchStats(
                nodes=self._expanded,
                leaves=self._simulations,
                max_depth=max_depth,
                time=time.perf_counter() - started,
                iterations=done,
            ),
            algorithm="mcts",
            max_player=player,
            solved=root.outcome is not None,
            note=note,
            root=tuple(RootMove(c.action, c.visits, c.mean) for c in ranked),
        )

    def _outcome_text(self, outcome: tuple[float, ...]) -> str:
        players = self.game.players
        if outcome[0] == outcome[1]:
            return "draw"
        if isinstance(self.game, WinLossDrawGame) and max(outcome) == self._win:
            return f"{players[outcome.index(max(outcome))]} wins"
        return ", ".join(f"{p} {u:g}" for p, u in zip(players, outcome, strict=True))


def declared_bounds(game: Game[Any, Any]) -> tuple[float, float] | None:
    """``game.value_bounds``, else a win/loss/draw game's loss and win utilities, else None."""
    if isinstance(game, HasValueBounds):
        low, high = game.value_bounds
        if not low < high:
            raise GameDefinitionError(
                f"game '{game.name}': value bounds {game.value_bounds} need lower < upper"
            )
        return float(low), float(high)
    if isinstance(game, WinLossDrawGame):
        first, second = game.players[0], game.players[1]
        return game.scoring.utility(second, first), game.scoring.utility(first, first)
    return None


def winning_chance(game: Game[Any, Any], result: SearchResult[Any]) -> float | None:
    """The mover's chance of winning by ``result``'s value: the value mapped from the loss's
    utility (0) to the win's (1); None for a game without declared bounds."""
    bounds = declared_bounds(game)
    if bounds is None:
        return None
    loss, win = bounds
    return (result.value - loss) / (win - loss)
