"""Monte Carlo tree search for Go compiled (Numba) with the rules of :mod:`plies.games.go.kernel`:
UCT with RAVE and prior knowledge, the tree in arrays, Go's own compiled MCTS
(:class:`plies.capabilities.HasOwnMcts`: :meth:`plies.games.go.Go.own_mcts` names it, and
:func:`plies.native.native_mcts` builds it with Go's compiled rules). A room of its own in Go's
folder, at :mod:`plies.native`'s layer: Go's rules never import it.

One iteration (Gelly and Silver 2011, "Monte-Carlo tree search and rapid action value
estimation in computer Go", Algorithm 2 with heuristic priors and UCT's exploration term): from
the root's board, SELECT down the tree the child of best value,
``(1 - beta) * mean + beta * amaf + c * sqrt(ln N / (n + 1))``, where ``mean`` counts the
child's prior as ``n0`` virtual visits with ``w0`` wins, ``(w + w0) / (n + n0)``, and ``amaf``
is its all-moves-as-first mean over ``m`` samples, weighted by the minimum-MSE schedule
``beta = m / (m + n + n0 + (n + n0) m / k)`` (Silver 2009; ``k``, the equivalence visits, is
``rave``; 0 turns AMAF off); an untried child without a prior (no visits, no AMAF sample) is
worth a win. A leaf visited :data:`EXPAND_AFTER` times gains every child at once (the points
where its mover may play without filling an eye, and pass, shuffled), each with its prior
(:func:`plies.games.go.kernel.prior`, Michi's virtual visits and wins, times the weight
``prior``; a pass gets lost ones); SIMULATE a playout with the policy of
:func:`~plies.games.go.kernel.play_out` (``rates``: uniform when all are 0); BACK-PROPAGATE the
winner to each node on the path, and to each child of a node on the path whose point its mover
played first from there on (in the tree or in the playout). Two passes end the game: such a
node holds the winner by area. A node after a pass gains its children at its first visit, so
the pass that would end the game is scored at once; a node with a child that wins for its
mover is proven won (its parent's chooser then prefers any other move, and a proven root stops
the search: a won pass ends the game, a losing one is never played).

The tree plays the simple ko rule on its boards, and positional superko by Zobrist keys: a
child whose board repeats one of the game's (the sorted keys of the root's history) or one on
the path to it is banned when the descent first reaches it; the root's children are also
checked against the game's own rules in Python. A node is a row of ``nodes`` (:data:`PARENT`
... :data:`WINNER`) and of ``values`` (the chooser's wins, normalised to 0..1: :data:`TOTAL`,
:data:`MEAN`, :data:`AMAF_TOTAL`, :data:`AMAF_VISITS`, :data:`PRIOR_VISITS`,
:data:`PRIOR_WINS`); :class:`GoWork` names the arrays a search works in.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable, Mapping
from typing import Any, NamedTuple

import numpy as np
from numpy.typing import NDArray

from plies.capabilities import CompiledRules, LearnedPrior
from plies.compiled import CLOCK, clock_now, compiled, monotonic
from plies.game import Game
from plies.games.go import kernel
from plies.games.go.kernel import (
    LAST,
    MOVES_PER_POINT,
    PASS,
    PASSES,
    GoBoard,
    area,
    cfg_distances,
    copy_board,
    draw,
    is_eye,
    pass_move,
    place,
    play_out,
    playable,
    prior,
)
from plies.games.go.knowledge import KNOWLEDGE, PLAYOUT_RULES
from plies.native.mcts import RowNode

PARENT, MOVE, FIRST, COUNT, VISITS, MOVER, OWNER, WINNER = range(8)
NODE_WORDS = 8
TOTAL, MEAN, AMAF_TOTAL, AMAF_VISITS, PRIOR_VISITS, PRIOR_WINS = range(6)
VALUE_WORDS = 6
UNDECIDED, DRAW, BANNED = -1, 2, 3
"""``WINNER`` of a node whose game goes on, of a drawn end, of a root move the rules forbid
(0 and 1: the players' indices)."""
# ``info``: rows used, nodes added, playouts, deepest node, stop flag, root, passes at the
# root, the clock, the nodes waiting for a learned prior, the visits after which a node waits
# (0: no learned prior).
USED, ADDED, PLAYOUTS, DEEPEST, STOP, ROOT, ROOT_PASSES, CLOCK_ID, WAITING, LEARN_AFTER = range(10)
INFO_WORDS = 10
C, RAVE, KOMI, DEADLINE, PRIOR = range(5)
EXPAND_AFTER = 8
"""Visits of a leaf before its children are added (the first ones only play out)."""
MAX_PATH = 1024
"""The deepest node an iteration may reach."""
KEPT_ROWS = 1 << 22
"""Rows in use beyond which a new search starts a fresh tree instead of keeping a subtree (the
rows of earlier roots are not reclaimed): about 200 MB."""
CLOCK_EVERY = 16
"""Iterations between readings of the clock."""
LEARNED_BATCH = 16
"""The nodes that wait for a learned prior before the network sees them in one batch."""
LEARNED_VISITS = 20.0
"""The virtual visits a learned prior gives each child (times its weight)."""


class GoWork(NamedTuple):
    """A search's arrays (``W`` in the kernels): the tree, the root's board, and the work board
    an iteration plays on, with the playouts' policy and the kernel's scratch space."""

    nodes: NDArray[np.int32]
    """:data:`PARENT` ... :data:`WINNER` per node."""
    values: NDArray[np.float32]
    """:data:`TOTAL` ... :data:`PRIOR_WINS` per node."""
    info: NDArray[np.int64]
    """:data:`USED` ... :data:`CLOCK_ID`."""
    floats: NDArray[np.float64]
    """:data:`C` ... :data:`PRIOR`."""
    rng: NDArray[np.uint64]
    """The random state (one word)."""
    root: GoBoard
    board: GoBoard
    rates: NDArray[np.float64]
    """The playout policy's rates (:data:`plies.games.go.kernel.CAPTURE` ...)."""
    patterns: NDArray[np.uint8]
    """MoGo's shapes by 3x3 key (:func:`plies.games.go.kernel.pattern_table`)."""
    history: NDArray[np.uint64]
    """The Zobrist keys of the boards of the game so far, sorted (positional superko)."""
    path: NDArray[np.int64]
    """The nodes an iteration went through, and the keys of their boards."""
    path_keys: NDArray[np.uint64]
    record: NDArray[np.int64]
    """The stones a playout placed (point and colour)."""
    first_colour: NDArray[np.int64]
    """The colour that played first on each point (AMAF)."""
    cfg: NDArray[np.int64]
    """Scratch: the distances of :func:`plies.games.go.kernel.cfg_distances`."""
    waiting: NDArray[np.int64]
    """The nodes waiting for a learned prior (the first ``info[WAITING]``)."""


@compiled
def _won(winner: int, player: int) -> float:
    """``player``'s normalised result: 1 for a win, 0 for a loss, 0.5 for a draw."""
    if winner == DRAW:
        return 0.5
    return 1.0 if winner == player else 0.0


@compiled
def _winner(score: float) -> int:
    """The winner's index (0 black, 1 white) or :data:`DRAW` from black's score."""
    return 0 if score > 0 else 1 if score < 0 else DRAW


@compiled
def expand(W: GoWork, node: int) -> None:
    """Give ``node`` every child at once: the points where its mover may play on the work board
    without filling an eye, shuffled, then pass; each with its prior (virtual visits and wins,
    :func:`plies.games.go.kernel.prior`, scaled by :data:`PRIOR`) where the weight is above 0."""
    nodes, values, info, rng, B = W.nodes, W.values, W.info, W.rng, W.board
    mover = nodes[node, MOVER]
    first = info[USED]
    added = 0
    for i in range(B.state[kernel.COUNT]):
        p = B.empties[i]
        if playable(B, p, mover + 1) and not is_eye(B, p, mover + 1):
            nodes[first + added, MOVE] = p
            added += 1
    for i in range(added - 1, 0, -1):  # Fisher-Yates: ties between untried moves fall by chance
        a, b = first + i, first + draw(rng, i + 1)
        nodes[a, MOVE], nodes[b, MOVE] = nodes[b, MOVE], nodes[a, MOVE]
    nodes[first + added, MOVE] = PASS
    added += 1
    weight = W.floats[PRIOR]
    if weight > 0:
        cfg_distances(B, W.cfg)
    for child in range(first, first + added):
        nodes[child, PARENT], nodes[child, FIRST], nodes[child, COUNT] = node, -1, 0
        nodes[child, VISITS], nodes[child, MOVER], nodes[child, OWNER] = 0, 1 - mover, mover
        nodes[child, WINNER] = UNDECIDED
        for word in range(VALUE_WORDS):
            values[child, word] = 0.0
        move = nodes[child, MOVE]
        if weight > 0:
            visits, wins = (
                (kernel.PRIOR_EVEN, 0.0)
                if move == PASS
                else prior(B, move, mover + 1, W.cfg, W.patterns)
            )
            values[child, PRIOR_VISITS] = weight * visits
            values[child, PRIOR_WINS] = weight * wins
    if B.state[PASSES] == 1:  # a second pass ends the game: its winner is known now
        score = area(B) - W.floats[KOMI]
        nodes[first + added - 1, WINNER] = _winner(score)
    nodes[node, FIRST], nodes[node, COUNT] = first, added
    info[USED] += added
    info[ADDED] += added


@compiled
def select(W: GoWork, node: int) -> int:
    """The child of ``node`` with the best UCT-RAVE value (see the module)."""
    nodes, values, floats = W.nodes, W.values, W.floats
    c, k = floats[C], floats[RAVE]
    log_visits = math.log(nodes[node, VISITS] + 1)
    best, best_value = -1, -math.inf
    first = nodes[node, FIRST]
    mover = nodes[node, MOVER]
    for child in range(first, first + nodes[node, COUNT]):
        winner = nodes[child, WINNER]
        if winner == mover:  # a won end: the node is proven a win for its mover
            nodes[node, WINNER] = mover
            return child
        if winner == BANNED:
            continue
        n = nodes[child, VISITS]
        seen = n + values[child, PRIOR_VISITS]
        value = 1.0  # an untried child without a prior
        if seen > 0:
            value = (values[child, TOTAL] + values[child, PRIOR_WINS]) / seen
        amaf = values[child, AMAF_VISITS]
        if k > 0 and amaf > 0:
            beta = amaf / (amaf + seen + seen * amaf / k)
            value = beta * values[child, AMAF_TOTAL] / amaf + (1 - beta) * value
        value += c * math.sqrt(log_visits / (n + 1))
        if winner != UNDECIDED:  # a lost or drawn end, or proven lost: chosen only if all are
            value = _won(winner, mover) - 2.0
        if value > best_value:
            best, best_value = child, value
    return best


@compiled
def _repeats(W: GoWork, depth: int, key: np.uint64) -> bool:
    """Whether the board of Zobrist key ``key`` was seen in the game or on the path above
    ``depth`` (positional superko)."""
    history, path_keys = W.history, W.path_keys
    low, high = 0, history.shape[0]
    while low < high:  # binary search in the sorted keys of the game
        middle = (low + high) // 2
        if history[middle] < key:
            low = middle + 1
        else:
            high = middle
    if low < history.shape[0] and history[low] == key:
        return True
    d = 0
    while d < depth and path_keys[d] != key:
        d += 1
    return d < depth


@compiled
def _descend(W: GoWork) -> int:
    """SELECT and EXPAND from the root on the work board; the depth of the leaf reached (the
    path in ``W``), or -1 when the tree has no room for another node's children. A child whose
    board repeats an earlier one is banned and the descent starts again."""
    nodes, info, B, path = W.nodes, W.info, W.board, W.path
    node, depth = info[ROOT], 0
    copy_board(W.root, B)
    path[0], W.path_keys[0] = node, B.key[0]
    while nodes[node, WINNER] == UNDECIDED and depth + 1 < path.shape[0]:
        if nodes[node, FIRST] < 0:
            if nodes[node, VISITS] < EXPAND_AFTER and B.state[PASSES] == 0:
                break
            if info[USED] + B.colour.shape[0] + 1 > nodes.shape[0]:
                return -1
            expand(W, node)
        learn = info[LEARN_AFTER] > 0 and nodes[node, VISITS] == info[LEARN_AFTER]
        if learn and info[WAITING] < W.waiting.shape[0]:
            W.waiting[info[WAITING]] = node  # its visits reach the threshold once
            info[WAITING] += 1
        child = select(W, node)
        move = nodes[child, MOVE]
        if move == PASS:
            pass_move(B)
        else:
            place(B, move, nodes[node, MOVER] + 1)
            if _repeats(W, depth + 1, B.key[0]):
                nodes[child, WINNER] = BANNED
                node, depth = info[ROOT], 0
                copy_board(W.root, B)
                continue
        depth += 1
        path[depth], W.path_keys[depth], node = child, B.key[0], child
    return depth


@compiled
def _back_propagate(W: GoWork, depth: int, winner: int, played: int) -> None:
    """Add the result to the path's nodes and, as AMAF samples, to the children of each whose
    point its mover played first from there on."""
    nodes, values, floats = W.nodes, W.values, W.floats
    path, record, first_colour = W.path, W.record, W.first_colour
    first_colour[:] = 0
    for i in range(played - 1, -1, -1):  # backwards: each point keeps its first colour
        first_colour[record[i] >> 2] = record[i] & 3
    rave = floats[RAVE] > 0
    for d in range(depth, -1, -1):
        node = path[d]
        visits = nodes[node, VISITS] + 1
        nodes[node, VISITS] = visits
        values[node, TOTAL] += _won(winner, nodes[node, OWNER])
        values[node, MEAN] = values[node, TOTAL] / visits
        if rave and nodes[node, FIRST] >= 0:
            mover = nodes[node, MOVER]
            result = _won(winner, mover)
            first = nodes[node, FIRST]
            for child in range(first, first + nodes[node, COUNT]):
                move = nodes[child, MOVE]
                if move != PASS and first_colour[move] == mover + 1:
                    values[child, AMAF_VISITS] += 1.0
                    values[child, AMAF_TOTAL] += result
        move = nodes[node, MOVE]
        if d > 0 and move != PASS:
            first_colour[move] = nodes[node, OWNER] + 1


@compiled
def run(W: GoWork, iterations: int) -> int:
    """Up to ``iterations`` iterations; fewer when stopped, out of time or out of room, or when
    the nodes waiting for a learned prior fill their queue. The number done."""
    nodes, info, floats = W.nodes, W.info, W.floats
    done = 0
    while done < iterations and info[STOP] == 0 and info[WAITING] < W.waiting.shape[0]:
        if done % CLOCK_EVERY == 0 and monotonic(info[CLOCK_ID]) >= floats[DEADLINE]:
            break
        depth = _descend(W)
        if depth < 0:
            break
        leaf = W.path[depth]
        winner, played = nodes[leaf, WINNER], 0
        if winner == UNDECIDED:
            mover = nodes[leaf, MOVER] + 1
            score, played = play_out(W.board, mover, W.rates, W.patterns, W.rng, W.record)
            winner = _winner(score - floats[KOMI])
            info[PLAYOUTS] += 1
        _back_propagate(W, depth, winner, played)
        info[DEEPEST] = max(info[DEEPEST], depth)
        done += 1
    return done


@compiled
def expand_root(W: GoWork) -> None:
    """Give the root its children from the root's board (no ko known: the caller bans the
    moves the game's rules forbid)."""
    copy_board(W.root, W.board)
    expand(W, W.info[ROOT])


class GoNode(RowNode):
    """A node of a :class:`GoTree`."""

    __slots__ = ()
    VISITS, MOVER, OWNER, FIRST, CHILDREN, RESULT = VISITS, MOVER, OWNER, FIRST, COUNT, WINNER

    @property
    def action(self) -> int:
        return int(self.tree.nodes[self.index, MOVE])

    @property
    def mean(self) -> float:
        """The mean utility of the player who chose the move."""
        win, loss, _ = self.tree.utilities
        return float(loss + (win - loss) * self.tree.values[self.index, MEAN])


class GoTree:
    """The compiled search's tree and work space for the states of one Go game, whose compiled
    rules are ``rules`` (:meth:`plies.games.go.Go.compiled_rules`: the neighbours of each point
    as ``params``, komi as ``floats``), kept between searches (a
    :class:`plies.capabilities.NativeTree`)."""

    def __init__(
        self,
        game: Game[Any, int],
        rules: CompiledRules,
        exploration: float,
        utilities: tuple[float, float, float],
        rave: float,
        knowledge: Mapping[str, float],
        capacity: int = 1 << 16,
    ) -> None:
        self.game, self.rules, self.utilities = game, rules, utilities
        neighbours = np.array(rules.params, np.int64).reshape(-1, 4)
        points = neighbours.shape[0]
        size = math.isqrt(points)
        (komi,) = rules.floats
        self.nodes = np.zeros((capacity, NODE_WORDS), np.int32)
        self.values = np.zeros((capacity, VALUE_WORDS), np.float32)
        self.info = np.zeros(INFO_WORDS, np.int64)
        self.info[CLOCK_ID] = CLOCK
        prior_weight = knowledge["prior"]
        self.floats = np.array([exploration, rave, komi, math.inf, prior_weight], np.float64)
        self.rng = np.ones(1, np.uint64)
        self.root_moves: tuple[int, ...] | None = None
        _, around = kernel.point_tables(size)
        zobrist = kernel.zobrist_words(points)
        rates = [knowledge[name] for name in PLAYOUT_RULES]
        self.work = GoWork(
            nodes=self.nodes,
            values=self.values,
            info=self.info,
            floats=self.floats,
            rng=self.rng,
            root=kernel.new_board(size, neighbours, around, zobrist),
            board=kernel.new_board(size, neighbours, around, zobrist),
            rates=np.array(rates, np.float64),
            patterns=kernel.pattern_table(),
            history=np.zeros(0, np.uint64),
            path=np.zeros(MAX_PATH, np.int64),
            path_keys=np.zeros(MAX_PATH, np.uint64),
            record=np.zeros(MOVES_PER_POINT * points, np.int64),
            first_colour=np.zeros(points, np.int64),
            cfg=np.zeros(points, np.int64),
            waiting=np.zeros(LEARNED_BATCH, np.int64),
        )
        self.learned: LearnedPrior | None = None
        self.learned_nodes: set[int] = set()
        """The nodes that have the learned prior."""
        self.root_state: Any = None

    def _arrays(self) -> GoWork:
        """The work arrays, with the tree's as they are now (:meth:`make_room` grows them)."""
        return self.work._replace(nodes=self.nodes, values=self.values)

    def root_for(self, state: Any, levels: int, mover: int) -> GoNode:
        """The kept tree's node for ``state`` within ``levels`` plies below the root (then the
        new root), else a fresh tree rooted at ``state``; its children the rules forbid are
        banned."""
        node = self._kept(state.moves, levels)
        if node is None:
            node = 0
            self.info[USED] = 1
            self.nodes[0] = (-1, PASS, -1, 0, 0, mover, 1 - mover, UNDECIDED)
            self.values[0] = 0.0
        words = self.rules.encode(state)  # the passes, then the points
        self.info[ROOT], self.info[ROOT_PASSES] = node, words[0]
        root = self.work.root
        kernel.load(root, np.array(words[1:], np.uint8), words[0])
        root.state[LAST] = state.moves[-1] if state.moves else PASS
        self.work = self.work._replace(history=self._history(state.seen))
        self.root_moves, self.root_state = state.moves, state
        if self.nodes[node, FIRST] < 0:
            self.make_room()
            expand_root(self._arrays())
        legal = set(self.game.actions(state))
        for child in GoNode(self, node).children:
            if child.action not in legal:
                self.nodes[child.index, WINNER] = BANNED
                self.nodes[child.index, VISITS] = 0
        if self.learned is not None:
            if node == 0:
                self.learned_nodes.clear()  # a fresh tree
            self._learn([node])
        return GoNode(self, node)

    def _history(self, boards: Iterable[bytes]) -> NDArray[np.uint64]:
        """The sorted Zobrist keys of ``boards`` (the boards the game has seen)."""
        zobrist = self.work.root.zobrist
        keys = []
        for board in boards:
            colours = np.frombuffer(board, np.uint8)
            stones = np.flatnonzero(colours)
            keys.append(np.bitwise_xor.reduce(zobrist[stones, colours[stones]], initial=0))
        return np.array(sorted(keys), np.uint64)

    def _kept(self, moves: tuple[int, ...], levels: int) -> int | None:
        """The kept node reached from the root by the moves that lead from its state to the
        state of ``moves``, if there are at most ``levels`` and the tree is not too big."""
        old = self.root_moves
        if old is None or not 0 < self.info[USED] <= KEPT_ROWS or moves[: len(old)] != old:
            return None
        if len(moves) - len(old) > levels:
            return None
        node = int(self.info[ROOT])
        for move in moves[len(old) :]:
            step = [c.index for c in GoNode(self, node).children if c.action == move]
            if not step:
                return None
            node = step[0]
        return node

    def forget(self) -> None:
        self.info[USED] = 0

    def load(self, state: Any, mover: int) -> None:
        """Load the compiled search now (iterations from ``state``, then forgotten), not on the
        clock of a search."""
        self.root_for(state, 0, mover)
        self.start()
        self.run(EXPAND_AFTER + 1)
        self.forget()

    def seed(self, rng: random.Random) -> None:
        """Draw the playouts' random state from ``rng``."""
        self.rng[0] = rng.getrandbits(63) | 1

    def start(self) -> None:
        """Counters for a new search (no deadline yet)."""
        self.info[ADDED] = self.info[PLAYOUTS] = self.info[DEEPEST] = self.info[STOP] = 0
        self.floats[DEADLINE] = math.inf
        self.make_room()

    def limit_time(self, seconds: float) -> None:
        """End the runs ``seconds`` from now (the kernel reads the clock itself)."""
        self.floats[DEADLINE] = clock_now() + seconds

    def make_room(self) -> None:
        """Double the arrays when they are over half full."""
        if 2 * self.info[USED] < self.nodes.shape[0]:
            return
        size = 2 * self.nodes.shape[0]
        self.nodes = np.resize(self.nodes, (size, NODE_WORDS))
        self.values = np.resize(self.values, (size, VALUE_WORDS))

    def run(self, iterations: int) -> int:
        """Up to ``iterations`` iterations without the GIL; fewer when stopped or out of time
        (or of room: the next run makes more). With a learned prior, the compiled runs stop
        whenever :data:`LEARNED_BATCH` nodes wait for it, and go on once the network has
        given it to them."""
        self.make_room()
        done = 0
        while True:
            done += int(run(self._arrays(), iterations - done))
            waiting = int(self.info[WAITING])
            if waiting:
                self.info[WAITING] = 0
                self._learn(self.work.waiting[:waiting].tolist())
            if not waiting or done >= iterations or self.info[STOP]:
                return done

    def attach(self, learned: LearnedPrior) -> None:
        """Give new nodes ``learned``'s prior once their visits reach its threshold."""
        self.learned = learned
        self.info[LEARN_AFTER] = learned.after

    def _learn(self, waiting: list[int]) -> None:
        """Add the learned prior to the children of the ``waiting`` nodes that lack it: each
        child :data:`LEARNED_VISITS` virtual visits (times the weight), won in proportion to
        its probability times the number of children, half for an average child, all from
        twice the average up."""
        learned, nodes, values = self.learned, self.nodes, self.values
        assert learned is not None
        fresh = [node for node in dict.fromkeys(waiting) if node not in self.learned_nodes]
        states, indices, children = [], [], []
        for node in fresh:
            first = int(nodes[node, FIRST])
            kids = [
                c
                for c in range(first, first + int(nodes[node, COUNT]))
                if nodes[c, WINNER] != BANNED
            ]
            state = self._state_of(node)
            states.append(state)
            indices.append(
                [learned.encoding.action_index(state, int(nodes[c, MOVE])) for c in kids]
            )
            children.append(kids)
            self.learned_nodes.add(node)
        if not states:
            return
        priors = learned.policy(states, indices)
        visits = learned.weight * LEARNED_VISITS
        for kids, probabilities in zip(children, priors, strict=True):
            for child, probability in zip(kids, probabilities, strict=True):
                values[child, PRIOR_VISITS] += visits
                values[child, PRIOR_WINS] += visits * min(1.0, 0.5 * probability * len(kids))

    def _state_of(self, node: int) -> Any:
        """The game's state at ``node``: the root's state and the moves down to it."""
        moves = []
        while node != self.info[ROOT]:
            moves.append(int(self.nodes[node, MOVE]))
            node = int(self.nodes[node, PARENT])
        state = self.root_state
        for move in reversed(moves):
            state = self.game.result(state, move)
        return state

    def stop(self) -> None:
        self.info[STOP] = 1

    def counts(self) -> tuple[int, int, int]:
        """(nodes added, playouts, deepest node) of this search."""
        return int(self.info[ADDED]), int(self.info[PLAYOUTS]), int(self.info[DEEPEST])


class GoMcts:
    """Go's compiled MCTS (a :class:`plies.capabilities.NativeMcts`) for ``game`` and its
    compiled ``rules``: trees with AMAF, and Go knowledge in the playouts and the priors."""

    amaf = True
    knowledge = KNOWLEDGE
    learns = True

    def __init__(self, game: Game[Any, int], rules: CompiledRules) -> None:
        self.game, self.rules = game, rules

    def tree(
        self,
        exploration: float,
        scale: float,
        utilities: tuple[float, float, float],
        bounds: tuple[float, float],
        solving: bool,
        rave: float = 0.0,
        knowledge: Mapping[str, float] | None = None,
        learned: LearnedPrior | None = None,
    ) -> GoTree:
        """An empty tree (values are wins normalised to 0..1, so ``scale`` and ``bounds`` are
        not needed; a finished game is always exact, whatever ``solving`` says) with
        ``knowledge`` (:data:`plies.games.go.knowledge.KNOWLEDGE`'s names; the defaults where
        missing) and the
        ``learned`` prior if any."""
        settings = {**KNOWLEDGE, **(knowledge or {})}
        tree = GoTree(self.game, self.rules, exploration, utilities, rave, settings)
        if learned is not None:
            tree.attach(learned)
        return tree
