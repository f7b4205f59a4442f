"""Monte Carlo tree search compiled (Numba) for the games of :mod:`plies.native.kernels`:
:class:`plies.search.mcts.MCTS`'s UCB1 iterations with random playouts and MCTS-Solver, the
tree kept in arrays.

One iteration is the Python search's (AIMA 4th ed., Figure 5.11): SELECT by UCB1 (Kocsis and
Szepesvári 2006) among the children added so far, proven losses left out; EXPAND one child a
visit, in the order of ACTIONS; SIMULATE a game of uniformly random moves (xorshift64,
Marsaglia 2003); BACK-PROPAGATE each node's chooser's utility; MCTS-Solver (Winands, Björnsson
and Saito 2008) proves a parent from a child that wins for its mover or from all its children.
Only the random numbers differ from the Python search (its playouts draw from ``random``).

A node is a row of ``tree`` (:data:`PARENT` ... :data:`PROVEN`), of ``values`` (total, mean and
``1 / sqrt(visits)``) and of ``states``. A node's children take consecutive rows, reserved when
its actions are listed (its second visit). A proven node holds its winner: 0 or 1 (the players'
indices) or :data:`DRAW`. :class:`CompiledTree` is the Python side; :class:`TreeWork` names the
arrays a search works in.
"""

from __future__ import annotations

import math
import random
from collections.abc import Hashable
from typing import Any, ClassVar, NamedTuple, Self

import numpy as np
from numpy.typing import NDArray

from plies.compiled import CLOCK, NOT_OVER, clock_now, compiled, monotonic
from plies.native.engine import CompiledSearch, to_word
from plies.native.kernels import MAX_MOVES, mover, moves, outcome, play, playout

PARENT, MOVE, FIRST, COUNT, ADDED, VISITS, OWNER, MOVER, PROVEN = range(9)
TREE_WORDS = 9
TOTAL, MEAN, SPREAD = 0, 1, 2
UNPROVEN, DRAW = -1, 2
# ``info``: rows used, nodes expanded, playouts, deepest node, stop flag, random state, root,
# switches (the solver, the game's own playout) and the clock.
USED, EXPANDED, PLAYOUTS, DEEPEST, STOP, RANDOM, ROOT, SOLVING, OWN_PLAYOUT, CLOCK_ID = range(10)
INFO_WORDS = 10
# ``floats``: exploration constant, value scale, utilities of a win, loss and draw, and the
# solver's win and loss bounds (infinite when it is off).
C, SCALE, U_WIN, U_LOSS, U_DRAW, WIN_BOUND, LOSS_BOUND, DEADLINE = range(8)
MAX_PATH = 4096
"""The deepest node an iteration may reach."""


class TreeWork(NamedTuple):
    """A search's arrays (``W`` in the kernels)."""

    params: NDArray[np.int64]
    """The kernel's id and the words of the game's rules."""
    states: NDArray[np.int64]
    """A state row per node."""
    tree: NDArray[np.int64]
    """:data:`PARENT` ... :data:`PROVEN` per node."""
    values: NDArray[np.float64]
    """:data:`TOTAL`, :data:`MEAN`, :data:`SPREAD` per node."""
    info: NDArray[np.int64]
    """:data:`USED` ... :data:`CLOCK_ID`."""
    floats: NDArray[np.float64]
    """:data:`C` ... :data:`DEADLINE`."""
    path: NDArray[np.int64]
    """The nodes an iteration went through."""
    playout_states: NDArray[np.int64]
    """The two state rows a playout alternates between."""
    row: NDArray[np.int64]
    """Room for one position's moves."""
    generator: NDArray[np.int64]
    """The move generator's work space."""


@compiled
def utility(floats: NDArray[np.float64], winner: int, player: int) -> float:
    """The utility for ``player`` of a game won by ``winner`` (or drawn)."""
    if winner == DRAW:
        return float(floats[U_DRAW])
    return float(floats[U_WIN] if winner == player else floats[U_LOSS])


@compiled
def _random(info: NDArray[np.int64], count: int) -> int:
    """A uniform index below ``count`` from the xorshift64 state in ``info``."""
    x = np.uint64(info[RANDOM])
    x ^= x << np.uint64(13)
    x ^= x >> np.uint64(7)
    x ^= x << np.uint64(17)
    info[RANDOM] = np.int64(x)
    return int(np.int64(x % np.uint64(count)))


@compiled
def _playout(W: TreeWork, node: int) -> int:
    """The winner (or :data:`DRAW`) of uniformly random moves from ``node``'s state: by the
    game's own playout where its rules declare one, else through its rules."""
    params, states, info, row, work = W.params, W.states, W.info, W.row, W.generator
    if info[OWN_PLAYOUT]:
        who = mover(params, states[node])
        result = playout(params, states[node], _random(info, 1 << 62) * 2 + 1)
        return DRAW if result == 0 else who if result == 1 else 1 - who
    here, there = W.playout_states[0], W.playout_states[1]
    for i in range(states.shape[1]):
        here[i] = states[node, i]
    while True:
        result = outcome(params, here)
        if result != NOT_OVER:
            who = mover(params, here)
            return DRAW if result == 0 else who if result == 1 else 1 - who
        count = moves(params, here, row, work)
        play(params, here, row[_random(info, count)], there)
        here, there = there, here


@compiled
def _select(W: TreeWork, node: int) -> int:
    """The child with the highest UCB1, proven losses for the mover left out."""
    tree, values, floats = W.tree, W.values, W.floats
    mover, scale, loss = tree[node, MOVER], floats[SCALE], floats[LOSS_BOUND]
    explore = floats[C] * math.sqrt(math.log(tree[node, VISITS]))
    best, best_score = -1, -math.inf
    first = tree[node, FIRST]
    for child in range(first, first + tree[node, ADDED]):
        proven = tree[child, PROVEN]
        if proven != UNPROVEN and utility(floats, proven, mover) <= loss:
            continue
        score = values[child, MEAN] * scale + explore * values[child, SPREAD]
        if score > best_score:
            best, best_score = child, score
    return best


@compiled
def _open(W: TreeWork, node: int, child: int) -> int:
    """EXPAND ``child`` of ``node`` (RESULT) and SIMULATE: the winner to back up."""
    params, states, tree, info = W.params, W.states, W.tree, W.info
    play(params, states[node], tree[child, MOVE], states[child])
    info[EXPANDED] += 1
    state = states[child]
    who = mover(params, state)
    result = outcome(params, state)
    if result != NOT_OVER:
        winner = DRAW if result == 0 else who if result == 1 else 1 - who
        tree[child, PROVEN] = winner
        return winner
    tree[child, MOVER] = who
    info[PLAYOUTS] += 1
    return _playout(W, child)


@compiled
def _prove(W: TreeWork, path: NDArray[np.int64], length: int) -> None:
    """MCTS-Solver's backup along ``path[:length]``, whose last node is proven."""
    tree, values, floats = W.tree, W.values, W.floats
    for depth in range(length - 1, 0, -1):
        child, parent = path[depth], path[depth - 1]
        winner, mover = tree[child, PROVEN], tree[parent, MOVER]
        if utility(floats, winner, mover) < floats[WIN_BOUND]:
            if tree[parent, ADDED] < tree[parent, COUNT]:
                return
            first = tree[parent, FIRST]
            best, best_value = UNPROVEN, -math.inf
            for sibling in range(first, first + tree[parent, ADDED]):
                proven = tree[sibling, PROVEN]
                if proven == UNPROVEN:
                    return
                value = utility(floats, proven, mover)
                if value > best_value:
                    best, best_value = proven, value
            winner = best
        tree[parent, PROVEN] = winner
        values[parent, MEAN] = utility(floats, winner, tree[parent, OWNER])
        values[parent, TOTAL] = values[parent, MEAN] * tree[parent, VISITS]


@compiled
def _iteration(W: TreeWork) -> bool:
    """One SELECT, EXPAND, SIMULATE, BACK-PROPAGATE from the root; False (nothing done) when
    the tree has no room for another node's children."""
    params, states, tree, values, info = W.params, W.states, W.tree, W.values, W.info
    floats, path, row, work = W.floats, W.path, W.row, W.generator
    if info[USED] + MAX_MOVES >= tree.shape[0]:
        return False
    node = info[ROOT]
    path[0], length = node, 1
    while True:
        winner = tree[node, PROVEN]
        if winner != UNPROVEN:
            break
        if tree[node, COUNT] < 0:  # the second visit: list the actions, reserve the children
            count = moves(params, states[node], row, work)
            first = info[USED]
            info[USED] += count
            tree[node, FIRST], tree[node, COUNT], tree[node, ADDED] = first, count, 0
            for i in range(count):
                tree[first + i, MOVE] = row[i]
        if tree[node, ADDED] < tree[node, COUNT]:
            child = tree[node, FIRST] + tree[node, ADDED]
            tree[node, ADDED] += 1
            tree[child, PARENT], tree[child, OWNER] = node, tree[node, MOVER]
            tree[child, FIRST], tree[child, COUNT], tree[child, ADDED] = -1, -1, 0
            tree[child, VISITS], tree[child, PROVEN] = 0, UNPROVEN
            values[child, TOTAL], values[child, MEAN], values[child, SPREAD] = 0.0, 0.0, math.inf
            path[length] = child
            length += 1
            winner = _open(W, node, child)
            break
        node = _select(W, node)
        if length == path.shape[0]:
            raise ValueError("native mcts: the tree is deeper than its path buffer")
        path[length] = node
        length += 1
    for i in range(length):
        node = path[i]
        visits = tree[node, VISITS] + 1
        total = values[node, TOTAL] + utility(floats, winner, tree[node, OWNER])
        tree[node, VISITS] = visits
        values[node, TOTAL], values[node, MEAN] = total, total / visits
        values[node, SPREAD] = visits**-0.5
    if info[SOLVING] and tree[path[length - 1], PROVEN] != UNPROVEN:
        _prove(W, path, length)
    if length - 1 > info[DEEPEST]:
        info[DEEPEST] = length - 1
    return True


@compiled
def run(W: TreeWork, iterations: int) -> int:
    """Up to ``iterations`` iterations; fewer when stopped, past the deadline (the clock is
    read every 16 iterations), when the root is proven or when the tree is full. The number
    done."""
    tree, info, floats = W.tree, W.info, W.floats
    done = 0
    while done < iterations and info[STOP] == 0 and tree[info[ROOT], PROVEN] == UNPROVEN:
        due = done & 15 == 15 and floats[DEADLINE] < math.inf
        if due and monotonic(info[CLOCK_ID]) >= floats[DEADLINE]:
            info[STOP] = 1
            break
        if not _iteration(W):
            break
        done += 1
    return done


class RowNode:
    """A view of one node of a compiled tree kept in arrays (row ``index`` of ``tree.nodes``)
    with the attributes of :class:`plies.search.mcts.TreeNode`; a subclass names the columns
    and gives ``action`` and ``mean``. The result column holds the winner's index (0 or 1) or
    :data:`DRAW` once known, anything else before."""

    __slots__ = ("index", "tree")
    VISITS: ClassVar[int]
    MOVER: ClassVar[int]
    OWNER: ClassVar[int]
    FIRST: ClassVar[int]
    CHILDREN: ClassVar[int]
    """The column of the number of children added so far."""
    RESULT: ClassVar[int]

    def __init__(self, tree: Any, index: int) -> None:
        self.tree, self.index = tree, index

    @property
    def visits(self) -> int:
        return int(self.tree.nodes[self.index, self.VISITS])

    @property
    def mover(self) -> int:
        return int(self.tree.nodes[self.index, self.MOVER])

    @property
    def owner(self) -> int:
        return int(self.tree.nodes[self.index, self.OWNER])

    @property
    def outcome(self) -> tuple[float, float] | None:
        """Every player's utility once the node is proven (terminal or by the solver)."""
        winner = int(self.tree.nodes[self.index, self.RESULT])
        if winner not in (0, 1, DRAW):
            return None
        win, loss, draw = self.tree.utilities
        if winner == DRAW:
            return draw, draw
        return (win, loss) if winner == 0 else (loss, win)

    @property
    def children(self) -> list[Self]:
        """The children added so far, in their rows' order."""
        nodes = self.tree.nodes
        first, count = nodes[self.index, self.FIRST], nodes[self.index, self.CHILDREN]
        return [type(self)(self.tree, int(first) + i) for i in range(int(count))]


class NativeNode(RowNode):
    """A node of a :class:`CompiledTree`; its children come in the order of ACTIONS."""

    __slots__ = ()
    VISITS, MOVER, OWNER, FIRST, CHILDREN, RESULT = VISITS, MOVER, OWNER, FIRST, ADDED, PROVEN

    @property
    def action(self) -> Any:
        return self.tree.kernel.rules.decode_move(int(self.tree.nodes[self.index, MOVE]))

    @property
    def mean(self) -> float:
        return float(self.tree.values[self.index, MEAN])


class CompiledTree:
    """The compiled search's tree and work space, kept between searches (see the module): a
    :class:`plies.capabilities.NativeTree`."""

    def __init__(
        self,
        kernel: CompiledSearch,
        exploration: float,
        scale: float,
        utilities: tuple[float, float, float],
        bounds: tuple[float, float],
        solving: bool,
        capacity: int = 1 << 16,
    ) -> None:
        self.kernel, self.utilities = kernel, utilities
        self.floats = np.array([exploration, scale, *utilities, *bounds, math.inf], np.float64)
        self.info = np.zeros(INFO_WORDS, np.int64)
        self.info[SOLVING], self.info[CLOCK_ID] = solving, CLOCK
        self.info[OWN_PLAYOUT] = kernel.rules.playout
        self.nodes = np.zeros((capacity, TREE_WORDS), np.int64)
        self.values = np.zeros((capacity, 3), np.float64)
        self.states = np.zeros((capacity, kernel.rules.words), np.int64)

    def _work(self) -> TreeWork:
        return TreeWork(
            params=self.kernel.params,
            states=self.states,
            tree=self.nodes,
            values=self.values,
            info=self.info,
            floats=self.floats,
            path=np.zeros(MAX_PATH, np.int64),
            playout_states=np.zeros((2, self.states.shape[1]), np.int64),
            row=np.zeros(MAX_MOVES, np.int64),
            generator=np.zeros(self.kernel.rules.work, np.int64),
        )

    def _row(self, state: Hashable) -> NDArray[np.int64]:
        row = np.zeros(self.states.shape[1], np.int64)
        words = [to_word(word) for word in self.kernel.rules.encode(state)]
        row[: len(words)] = words
        return row

    def root_for(self, state: Hashable, levels: int, mover_index: int) -> NativeNode:
        """The kept tree's node for ``state`` within ``levels`` plies below the root (then the
        new root), else a fresh tree rooted at ``state``."""
        row = self._row(state)
        if self.info[USED] > 0:
            layer = [int(self.info[ROOT])]
            for _ in range(levels + 1):
                for index in layer:
                    if np.array_equal(self.states[index], row):
                        self.info[ROOT] = index
                        return NativeNode(self, index)
                layer = [
                    child.index for index in layer for child in NativeNode(self, index).children
                ]
        self.info[USED], self.info[ROOT] = 1, 0
        self.nodes[0] = (-1, 0, -1, -1, 0, 0, mover_index, mover_index, UNPROVEN)
        self.values[0] = (0.0, 0.0, math.inf)
        self.states[0] = row
        return NativeNode(self, 0)

    def forget(self) -> None:
        self.info[USED] = 0

    def load(self, state: Hashable, mover_index: int) -> None:
        """Load the compiled search now (one iteration from ``state``, then forgotten), not on
        the clock of a search."""
        self.root_for(state, 0, mover_index)
        self.start()
        self.run(1)
        self.forget()

    def seed(self, rng: random.Random) -> None:
        """Draw the playouts' random state from ``rng``."""
        self.info[RANDOM] = rng.getrandbits(63) | 1

    def start(self) -> None:
        """Counters for a new search (no deadline yet); more room when the tree is nearly
        full."""
        self.info[EXPANDED] = self.info[PLAYOUTS] = self.info[DEEPEST] = self.info[STOP] = 0
        self.floats[DEADLINE] = math.inf
        self.make_room()

    def limit_time(self, seconds: float) -> None:
        """End the runs ``seconds`` from now (the kernel reads the clock itself)."""
        self.floats[DEADLINE] = clock_now() + seconds

    def make_room(self) -> None:
        """Double the arrays when another node's children might not fit."""
        if self.info[USED] + 2 * MAX_MOVES < self.nodes.shape[0]:
            return
        size = 2 * self.nodes.shape[0]
        self.nodes = np.resize(self.nodes, (size, TREE_WORDS))
        self.values = np.resize(self.values, (size, 3))
        self.states = np.resize(self.states, (size, self.states.shape[1]))

    def run(self, iterations: int) -> int:
        """Up to ``iterations`` iterations without the GIL; fewer when stopped, proven or full."""
        self.make_room()
        return int(run(self._work(), iterations))

    def stop(self) -> None:
        self.info[STOP] = 1

    def counts(self) -> tuple[int, int, int]:
        """(nodes expanded, playouts, deepest node) of this search."""
        return int(self.info[EXPANDED]), int(self.info[PLAYOUTS]), int(self.info[DEEPEST])
