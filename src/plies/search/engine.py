"""The engine tier: negamax alpha-beta with iterative deepening, for any game with an EVAL.

What it adds to the textbook tier, each switchable for measurement (:class:`EngineOptions`):

* negamax (Knuth and Moore 1975): scores from the side to move's point of view, negated on the
  way up; fail-soft alpha-beta with principal variation search (null windows after the first
  move, re-searched when they fail high) and optional aspiration windows at the root;
* iterative deepening under limits of depth, nodes and wall-clock time, as a generator of
  per-iteration :class:`~plies.search.result.SearchResult` objects (the caller owns the clock
  display and the printing);
  when the clock runs out mid-iteration the best move is the last completed iteration's, or a
  move the partial iteration proved better; optionally over some root moves only (UCI's
  ``go searchmoves``), the root then kept out of the table;
* a bounded transposition table (:class:`TranspositionTable`) keyed by the game's ``hash_key``
  (or the state itself), storing depth, bound type, score, best move and whether the subtree
  was solved to the end of the game;
* move ordering: the table's move, then captures in the game's order, killer moves (two per
  ply), the history heuristic, and the game's own order (``ordered_actions`` if it has one,
  else ``actions``) as the tie-break;
* wins scored by distance: a win ``d`` plies from the root scores ``1000 - d``, a loss
  ``-(1000 - d)``, evaluations lie strictly inside (-1, 1), so the engine takes the fastest win
  and delays a loss, correctly through the table (stored scores are relative to their node);
* quiescence search over the moves a game marks noisy (``is_capture(state, action)``), with
  the game's captures-only generator (``captures(state)``) when it has one;
* for games that offer the capabilities (chess): check extension (``in_check(state)``),
  null-move pruning (``null_move(state)``), late-move reductions (quiet moves need
  ``is_capture`` and ``in_check``), reverse futility pruning (needs ``in_check``), static
  exchange evaluation in quiescence and ordering (``wins_exchange(state, action)``) and
  repetitions scored as draws (``is_repetition(state)``). These prune or extend by
  heuristics, so they give up the exactness below; each is a no-op for a game without its
  capability. BENCHMARKS.md gives the arena runs that keep each.

**Exactness.** With ``deeper_cutoffs`` off, a table entry cuts off a search only when it was
searched to the same remaining depth (or was solved to the end of the game at no greater
depth); deeper entries still order moves. So, with quiescence and deeper cutoffs off (and for a
game without the chess capabilities above, or with their switches off), the engine's value at
a fixed depth is exactly textbook alpha-beta's with the same EVAL, table and ordering on or off:
the property tests check this. By default deeper entries cut off too, as in every strong
engine: faster, and no longer exact (``engine:deeper=false`` restores it).
EVAL must be zero-sum (EVAL(s, p) and EVAL(s, opponent) equally far either side of a draw).

**Native search.** Where the game has a compiled engine (:func:`plies.native.native_search`:
Connect Four, tic-tac-toe, Othello, checkers, chess) and ``EngineOptions.native`` is on, each
iteration's root call runs it instead of :meth:`_Engine.negamax`: the same search node for node
(same scores, lines and counts; its table has as many slots), tens of times faster. The
iteration loop, the limits and the reports stay here.
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable, Collection, Hashable, Iterator
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

import numpy as np

from plies import native
from plies.capabilities import (
    DRAW,
    WIN,
    HasCaptures,
    HasCheck,
    HasEvaluation,
    HasExchange,
    HasHashKey,
    HasMoveOrdering,
    HasNoisyMoves,
    HasNullMove,
    HasProbCut,
    HasRepetition,
    NativeRun,
    NativeSearch,
    optional,
    require,
)
from plies.errors import GameOverError, IllegalMoveError, SpecError
from plies.game import Game, WinLossDrawGame, require_two_player_zero_sum
from plies.search.result import MATE, Bound, SearchResult, SearchStats
from plies.search.worker import run_stoppable

S = TypeVar("S", bound=Hashable)
A = TypeVar("A", bound=Hashable)
Evaluation = Callable[[Any, str], float]
"""EVAL(s, p) as a function: a heuristic estimate of s for player p, on the game's scale."""
EndgameProbe = Callable[[Any], "tuple[int, int] | None"]
"""An endgame database's answer for a state: its outcome for the side to move (``WIN``,
``LOSS`` or ``DRAW`` of :mod:`plies.capabilities`) and the plies to the end, or None where
the databases do not hold it (or it cannot be trusted there)."""

MAX_DEPTH = 500
"""The deepest iteration the engine runs."""
FULL_DEPTH_MOVES = 3
"""Late-move reductions spare the first moves searched at a node (ordering puts the best
candidates first)."""


@dataclass(frozen=True)
class Limits:
    """When to stop deepening: any limit reached ends the search (None: no such limit)."""

    depth: int | None = None
    nodes: int | None = None
    seconds: float | None = None
    """Wall-clock time."""
    stop: threading.Event | None = field(default=None, compare=False)
    """Set from another thread to end the search as if its time had run out."""

    def __post_init__(self) -> None:
        for name, value in (("depth", self.depth), ("nodes", self.nodes), ("time", self.seconds)):
            if value is not None and not 0 < value < math.inf:
                raise SpecError(f"the {name} limit must be a positive number, got {value}")


@dataclass(frozen=True)
class EngineOptions:
    """Switches for the engine's refinements (all on but aspiration: see BENCHMARKS.md, its
    arena runs and ``benchmarks/chess_engine_ladder.py``)."""

    tt_mb: float = 16.0
    """Transposition table size in MB; 0 turns the table off."""
    pvs: bool = True
    aspiration: bool = False
    ordering: bool = True
    """Table move, captures, killers and history first (off: the game's order only)."""
    quiescence: bool = True
    """Search noisy moves past the horizon where the game marks them (``is_capture``)."""
    captures: bool = True
    """Quiescence generates only the noisy moves where the game can (``captures``)."""
    check_extension: bool = True
    """Search one ply deeper where the side to move is in check (``in_check``)."""
    null_move: bool = True
    """Null-move pruning (Heinz 1999, adaptive R = 2 or 3) at null-window nodes where the
    mover is not in check and may pass (``null_move`` returns None where it may not)."""
    reductions: bool = True
    """Late-move reductions: quiet moves after the first three, at depth 3 or more, not in or
    into check, searched one ply shallower and re-searched when they beat alpha."""
    repetition: bool = True
    """A position repeated in the history the state carries (``is_repetition``) is a draw."""
    deeper_cutoffs: bool = True
    """A table entry searched deeper than needed also ends a search (engines' practice; off,
    only one searched to the same depth does, which keeps the value exact)."""
    futility: bool = True
    """Reverse futility pruning ("static null-move pruning"): at a null-window node of
    depth 1 to :data:`~plies.native.FUTILITY_DEPTH`, not in check, EVAL at least
    :data:`~plies.native.FUTILITY_MARGIN` a ply above beta is taken as the node's value
    (games with ``in_check``)."""
    exchange: bool = True
    """Static exchange evaluation (``wins_exchange``): quiescence skips noisy moves that lose
    material, and the ordering puts them after the quiet moves."""
    probcut: bool = True
    """ProbCut (Buro 1995) where the game has a margin (``probcut_margin``): a null-window
    node of depth :data:`~plies.native.PROBCUT_DEPTH` or more whose search of half the depth
    lies the margin beyond the window is cut off."""
    native: bool = True
    """Run the game's compiled engine where it has one (:mod:`plies.native`): the same search,
    node for node, at native speed."""


class TranspositionTable:
    """A fixed number of slots, a slot per key (``hash(key) % size``).

    Replacement: a new entry takes the slot when it is empty, holds the same key, was written
    by an earlier search (``new_search`` ages the table), or was searched no deeper than the
    new one ("depth-preferred, always replace stale").
    """

    ENTRY_BYTES = 160
    """Estimated Python memory per entry (slot pointer, tuple, key and score objects)."""

    def __init__(self, megabytes: float) -> None:
        if megabytes <= 0:
            raise SpecError(f"the table size must be positive, got {megabytes} MB")
        self.megabytes = megabytes
        self.size = max(1024, int(megabytes * 2**20 / self.ENTRY_BYTES))
        self._slots: list[tuple[Any, ...] | None] | None = None
        self.generation = 0
        self.used = 0
        self.native: Any = None
        """The compiled engine's table for the same searches, made on its first use with as
        many slots (its entries take 32 bytes, a fifth of these)."""

    @property
    def slots(self) -> list[tuple[Any, ...] | None]:
        """The entries, made on the first use (a compiled engine keeps its own, ``native``)."""
        if self._slots is None:
            self._slots = [None] * self.size
        return self._slots

    def permille_full(self) -> int:
        """Slots in use per thousand (UCI's ``hashfull``): of the compiled engine's table where
        it has one, sampled over its first thousand slots as engines do."""
        if self.native is not None:
            sample = self.native.entries[:1000, 3]
            return int(np.count_nonzero(sample)) * 1000 // len(sample)
        return self.used * 1000 // self.size

    def new_search(self) -> None:
        """Age every entry: the next search overwrites them first."""
        self.generation += 1

    def probe(self, key: Hashable) -> tuple[Any, ...] | None:
        """(key, depth, flag, score, move, solved, generation) stored for ``key``, or None."""
        entry = self.slots[hash(key) % self.size]
        return entry if entry is not None and entry[0] == key else None

    def store(
        self, key: Hashable, depth: int, flag: Bound, score: float, move: Any, solved: bool
    ) -> None:
        index = hash(key) % self.size
        old = self.slots[index]
        if old is None:
            self.used += 1
        elif old[0] != key and old[6] == self.generation and old[1] > depth:
            return
        self.slots[index] = (key, depth, flag, score, move, solved, self.generation)


class _Stop(Exception):
    """A limit was reached inside the search."""


def _to_table(score: float, ply: int) -> float:
    """A win/loss score made relative to the node (distance from here, not from the root)."""
    return score + ply if score >= 1 else score - ply if score <= -1 else score


def _from_table(score: float, ply: int) -> float:
    return score - ply if score >= 1 else score + ply if score <= -1 else score


@dataclass
class _Engine(Generic[S, A]):
    game: Game[S, A]
    limits: Limits
    options: EngineOptions
    table: TranspositionTable | None
    started: float = field(default_factory=time.perf_counter)
    nodes: int = 0
    leaves: int = 0
    cutoffs: int = 0
    seldepth: int = 0
    horizon_hits: int = 0
    pv: dict[int, tuple[A, ...]] = field(default_factory=dict)
    killers: dict[int, list[A]] = field(default_factory=dict)
    history: dict[tuple[str, A], int] = field(default_factory=dict)
    root_hint: A | None = None
    """The last iteration's best move, searched first."""
    root_mover: str = ""
    """The player to move at the root, whose view the reports take."""
    root_best: A | None = None
    root_score: float = math.nan
    """The best root move of the running iteration and its score, once one is proven."""
    only: frozenset[A] | None = None
    """The root moves to search (None: all); the root is then kept out of the table, whose
    entries hold positions' values, not the value of some of their moves."""
    evaluation: Evaluation | None = None
    """EVAL in place of the game's own (None: the game's)."""
    endgame: EndgameProbe | None = None
    """Endgame databases: a position they hold below the root ends its line with its exact
    value."""

    def __post_init__(self) -> None:
        game, options = self.game, self.options
        require_two_player_zero_sum(game, "the engine")
        self.evaluate = self.evaluation or require(game, HasEvaluation, "the engine").evaluate
        hashed = optional(game, HasHashKey)
        self.key: Callable[[S], Hashable] = (
            (lambda state: state) if hashed is None else hashed.hash_key
        )
        ordering = optional(game, HasMoveOrdering)
        self.moves: Callable[[S], Any] = (
            game.actions if ordering is None else ordering.ordered_actions
        )
        noisy = optional(game, HasNoisyMoves)
        self.noisy: Callable[[S, A], bool] | None = None if noisy is None else noisy.is_capture
        check = optional(game, HasCheck)
        self.in_check: Callable[[S], bool] | None = None if check is None else check.in_check
        self.extend_checks = options.check_extension and self.in_check is not None
        self.reduce = options.reductions and self.in_check is not None and self.noisy is not None
        passing = optional(game, HasNullMove, options.null_move)
        self.pass_turn: Callable[[S], S | None] | None = (
            None if passing is None else passing.null_move
        )
        repeats = optional(game, HasRepetition, options.repetition)
        self.repeated: Callable[[S], bool] | None = (
            None if repeats is None else repeats.is_repetition
        )
        exchange = optional(game, HasExchange, options.exchange)
        self.wins_exchange: Callable[[S, A], bool] | None = (
            None if exchange is None else exchange.wins_exchange
        )
        self.futile = options.futility and self.in_check is not None
        probcut = optional(game, HasProbCut, options.probcut)
        self.probcut_margin = 0.0 if probcut is None else probcut.probcut_margin
        captures = optional(game, HasCaptures, options.captures)
        self.captures: Callable[[S], Any] | None = None if captures is None else captures.captures
        self.iteration_depth = 0
        # Utilities centred on a draw and scaled so a win is 1: the negamax view of UTILITY.
        if isinstance(game, WinLossDrawGame):
            self.center = game.scoring.utility(None, game.players[0])
            self.unit = game.scoring.utility(game.players[0], game.players[0]) - self.center
        else:
            self.center, self.unit = 0.0, 1.0
        # The limits are armed after the first iteration, so that every search scores a move.
        self.deadline = math.inf
        self.node_limit = math.inf
        self.stop: threading.Event | None = None

    def arm_limits(self) -> None:
        """Check the limits from now on."""
        limits = self.limits
        if limits.seconds is not None:
            self.deadline = self.started + limits.seconds
        if limits.nodes is not None:
            self.node_limit = limits.nodes
        self.stop = limits.stop

    # Scores -----------------------------------------------------------------------------------

    def terminal_score(self, state: S, ply: int) -> float:
        """UTILITY for the mover, normalised to [-1, 1], as a win/loss ``ply`` plies away."""
        n = (self.game.utility(state, self.game.to_move(state)) - self.center) / self.unit
        if n == 0:
            return 0.0
        sign = 1.0 if n > 0 else -1.0
        return sign * (MATE - ply) + (n - sign)

    def eval_score(self, state: S) -> float:
        return (self.evaluate(state, self.game.to_move(state)) - self.center) / self.unit

    def value(self, score: float) -> float:
        """An engine score back on the game's utility scale."""
        if abs(score) < 1:
            return self.center + self.unit * score + 0.0  # no -0.0
        top = math.ceil(abs(score))
        return self.center + self.unit * math.copysign(abs(score) - top + 1, score)

    # Search ------------------------------------------------------------------------------------

    def count_node(self, ply: int) -> None:
        self.nodes += 1
        if ply > self.seldepth:
            self.seldepth = ply
        if self.nodes >= self.node_limit:
            raise _Stop
        if not self.nodes & 15 and (
            time.perf_counter() >= self.deadline or (self.stop is not None and self.stop.is_set())
        ):
            raise _Stop

    def ordered(self, state: S, ply: int, first: A | None) -> list[A]:
        actions = list(self.moves(state))
        if ply == 0 and self.only is not None:
            actions = [action for action in actions if action in self.only]
        if not self.options.ordering:
            return actions
        killers = self.killers.get(ply, ())
        mover = self.game.to_move(state)
        noisy = self.noisy

        exchange = self.wins_exchange

        def rank(action: A) -> tuple[int, int]:
            if action == first:
                return (0, 0)
            if noisy is not None and noisy(state, action):
                return (1, 0) if exchange is None or exchange(state, action) else (4, 0)
            if action in killers:
                return (2, 0)
            return (3, -self.history.get((mover, action), 0))

        return sorted(actions, key=rank)

    def negamax(
        self, state: S, depth: int, alpha: float, beta: float, ply: int, may_pass: bool = True
    ) -> float:
        """Fail-soft negamax alpha-beta (Knuth and Moore 1975) with the table, null-move
        pruning and PVS; the score is the mover's."""
        self.count_node(ply)
        self.pv[ply] = ()
        if self.game.is_terminal(state):
            self.leaves += 1
            return self.terminal_score(state, ply)
        if ply > 0 and self.endgame is not None:
            known = self.endgame(state)
            if known is not None:
                self.leaves += 1
                return endgame_score(*known, ply)
        if ply > 0 and self.repeated is not None and self.repeated(state):
            self.horizon_hits += 1  # a draw by the engine's rule, not the game's
            self.leaves += 1
            return 0.0
        in_check = self.in_check is not None and self.in_check(state)
        if in_check and self.extend_checks and ply < 2 * self.iteration_depth:
            depth += 1
        if depth <= 0:
            return self.horizon(state, alpha, beta, ply)
        restricted = ply == 0 and self.only is not None
        key = None if self.table is None or restricted else self.key(state)
        cut, table_move = self.probe(key, depth, alpha, beta, ply)
        if cut is not None:
            return cut
        if ply == 0 and self.root_hint is not None:
            table_move = self.root_hint
        if self.futile and self.is_futile(state, depth, alpha, beta, ply, in_check):
            self.horizon_hits += 1  # a heuristic cut: the subtree is not solved
            return self.eval_score(state)
        if may_pass and self.may_pass(state, depth, alpha, beta, ply, in_check):
            cutoff = self.null_move_cutoff(state, depth, beta, ply)
            if cutoff is not None:
                return cutoff
        if self.probcut_margin and ply > 0 and depth >= native.PROBCUT_DEPTH and not in_check:
            cutoff = self.probcut(state, depth, alpha, beta, ply)
            if cutoff is not None:
                return cutoff
        hits = self.horizon_hits
        best, best_move = self.search_moves(state, depth, alpha, beta, ply, table_move, in_check)
        if self.table is not None and key is not None:
            flag = Bound.UPPER if best <= alpha else Bound.LOWER if best >= beta else Bound.EXACT
            solved = self.horizon_hits == hits
            self.table.store(key, depth, flag, _to_table(best, ply), best_move, solved)
        return best

    def probe(
        self, key: Hashable | None, depth: int, alpha: float, beta: float, ply: int
    ) -> tuple[float | None, A | None]:
        """The table's entry for ``key`` (None: the node is not tabled): a score that ends the
        search here (when the entry was searched to this depth, or solved at no greater depth,
        and its bound decides the window), and the move it stored, to search first."""
        if self.table is None or key is None:
            return None, None
        entry = self.table.probe(key)
        if entry is None:
            return None, None
        _, stored_depth, flag, stored, table_move, solved, _ = entry
        deeper = self.options.deeper_cutoffs and stored_depth > depth
        if stored_depth == depth or deeper or (solved and stored_depth <= depth):
            score = _from_table(stored, ply)
            if (
                flag == Bound.EXACT
                or (flag == Bound.LOWER and score >= beta)
                or (flag == Bound.UPPER and score <= alpha)
            ):
                if not solved:
                    self.horizon_hits += 1
                if flag == Bound.EXACT and table_move is not None:
                    self.pv[ply] = (table_move,)
                return score, table_move
        return None, table_move

    def search_moves(
        self,
        state: S,
        depth: int,
        alpha: float,
        beta: float,
        ply: int,
        first: A | None,
        in_check: bool,
    ) -> tuple[float, A | None]:
        """The children in order, with principal variation search (null windows after the
        first move, re-searched when they fail high) and late-move reductions: the best score
        and move (fail-soft)."""
        game = self.game
        mover = game.to_move(state)
        best, best_move = -math.inf, None
        reduce = self.reduce and depth >= 3 and not in_check
        for index, action in enumerate(self.ordered(state, ply, first)):
            child = game.result(state, action)
            bound = math.nextafter(alpha, math.inf)
            if game.to_move(child) == mover:  # a player moving twice: no negation
                score = self.negamax(child, depth - 1, alpha, beta, ply + 1)
                full = False
            elif reduce and index >= FULL_DEPTH_MOVES and self.is_quiet(state, action, child, ply):
                score = -self.negamax(child, depth - 2, -bound, -alpha, ply + 1)
                full = score > alpha  # beat alpha one ply shallower: search it in full
            else:
                full = True
            if full and (index == 0 or not self.options.pvs):
                score = -self.negamax(child, depth - 1, -beta, -alpha, ply + 1)
            elif full:
                score = -self.negamax(child, depth - 1, -bound, -alpha, ply + 1)
                if alpha < score < beta:
                    score = -self.negamax(child, depth - 1, -beta, -alpha, ply + 1)
            if score > best:
                best, best_move = score, action
                if score > alpha:
                    alpha = score
                    self.pv[ply] = (action, *self.pv.get(ply + 1, ()))
                    if ply == 0:
                        self.root_best, self.root_score = action, score
            if best >= beta:
                self.cutoffs += 1
                if self.noisy is None or not self.noisy(state, action):
                    self.remember_quiet(mover, action, ply, depth)
                break
        return best, best_move

    def is_futile(
        self, state: S, depth: int, alpha: float, beta: float, ply: int, in_check: bool
    ) -> bool:
        """Reverse futility pruning (Heinz's "futility pruning" turned on beta, as Stockfish and
        the small engines do): a null-window node below the root, shallow, not in check, whose
        EVAL stands :data:`~plies.native.FUTILITY_MARGIN` a ply above beta fails high."""
        return (
            ply > 0
            and depth <= native.FUTILITY_DEPTH
            and not in_check
            and beta == math.nextafter(alpha, math.inf)
            and abs(beta) < 1
            and self.eval_score(state) - native.FUTILITY_MARGIN * depth >= beta
        )

    def may_pass(
        self, state: S, depth: int, alpha: float, beta: float, ply: int, in_check: bool
    ) -> bool:
        """Whether null-move pruning may try a pass here: a null-window node below the root,
        deep enough, not in check, not near a forced result, with EVAL already at beta."""
        return (
            self.pass_turn is not None
            and ply > 0
            and depth >= 3
            and not in_check
            and beta == math.nextafter(alpha, math.inf)
            and abs(beta) < 1
            and self.eval_score(state) >= beta
        )

    def null_move_cutoff(self, state: S, depth: int, beta: float, ply: int) -> float | None:
        """Null-move pruning (Heinz, "Adaptive Null-Move Pruning", ICCA Journal 1999): pass the
        turn and search R + 1 plies shallower (R = 3 from depth 7, else 2) with a null window
        at beta; a score still at least beta cuts the node off (never as a proven win)."""
        passed = self.pass_turn(state) if self.pass_turn is not None else None
        if passed is None:
            return None
        reduction = 3 if depth >= 7 else 2
        above = math.nextafter(-beta, math.inf)
        score = -self.negamax(passed, depth - 1 - reduction, -beta, above, ply + 1, False)
        if score < beta:
            return None
        self.horizon_hits += 1  # a heuristic cut: the subtree is not solved
        return min(score, math.nextafter(1.0, 0.0))

    def probcut(self, state: S, depth: int, alpha: float, beta: float, ply: int) -> float | None:
        """ProbCut (Buro, "ProbCut: An Effective Selective Extension of the Alpha-Beta
        Algorithm", ICCA Journal 1995), at a null-window node: a search of about half the depth
        (:func:`~plies.native.probcut_depth`) with a null window at beta plus the margin, then
        at alpha less it; beta (alpha) when the
        first fails high (the second fails low), else None. A heuristic cut: not solved."""
        if beta != math.nextafter(alpha, math.inf):
            return None
        shallow, margin = native.probcut_depth(depth), self.probcut_margin
        high = beta + margin
        if high < 1:
            below = math.nextafter(high, -math.inf)
            if self.negamax(state, shallow, below, high, ply) >= high:
                self.horizon_hits += 1
                return beta
        low = alpha - margin
        if low > -1:
            above = math.nextafter(low, math.inf)
            if self.negamax(state, shallow, low, above, ply) <= low:
                self.horizon_hits += 1
                return alpha
        return None

    def is_quiet(self, state: S, action: A, child: S, ply: int) -> bool:
        """A move late-move reductions (Romstad, "An Introduction to Late Move Reductions",
        2007) may reduce: no capture, no killer, no check given."""
        assert self.noisy is not None and self.in_check is not None
        return (
            not self.noisy(state, action)
            and action not in self.killers.get(ply, ())
            and not self.in_check(child)
        )

    def remember_quiet(self, mover: str, action: A, ply: int, depth: int) -> None:
        """Killer moves and the history heuristic learn from quiet moves that cut off."""
        killers = self.killers.setdefault(ply, [])
        if action not in killers:
            killers.insert(0, action)
            del killers[2:]
        self.history[(mover, action)] = self.history.get((mover, action), 0) + depth * depth

    def horizon(self, state: S, alpha: float, beta: float, ply: int) -> float:
        """EVAL at the depth limit, or a quiescence search where the game has noisy moves."""
        self.horizon_hits += 1
        if self.noisy is None or not self.options.quiescence:
            self.leaves += 1
            return self.eval_score(state)
        return self.quiesce(state, alpha, beta, ply)

    def quiesce(self, state: S, alpha: float, beta: float, ply: int) -> float:
        """Stand pat on EVAL or play on through noisy moves until the position is quiet."""
        game = self.game
        if game.is_terminal(state):
            self.leaves += 1
            return self.terminal_score(state, ply)
        assert self.noisy is not None
        stand = self.eval_score(state)
        if stand >= beta:
            self.leaves += 1
            return stand
        if self.captures is not None:
            noisy = list(self.captures(state))
        else:
            noisy = [a for a in self.moves(state) if self.noisy(state, a)]
        if self.wins_exchange is not None:
            noisy = [a for a in noisy if self.wins_exchange(state, a)]
        if not noisy:
            self.leaves += 1
            return stand
        best, alpha = stand, max(alpha, stand)
        mover = game.to_move(state)
        for action in noisy:
            child = game.result(state, action)
            self.count_node(ply + 1)
            if game.to_move(child) == mover:
                score = self.quiesce(child, alpha, beta, ply + 1)
            else:
                score = -self.quiesce(child, -beta, -alpha, ply + 1)
            if score > best:
                best = score
                alpha = max(alpha, score)
                if score >= beta:
                    self.cutoffs += 1
                    break
        return best

    def root(self, state: S, depth: int, previous: float | None) -> float:
        """One iteration: aspiration windows around the last score when asked for."""
        self.iteration_depth = depth
        if not self.options.aspiration or previous is None or abs(previous) >= 1:
            return self.negamax(state, depth, -math.inf, math.inf, 0)
        delta = 0.05
        low, high = previous - delta, previous + delta
        while True:
            score = self.negamax(state, depth, low, high, 0)
            if low < score < high:
                return score
            delta *= 4
            if score <= low:
                low = -math.inf if delta > 1 else score - delta
            else:
                high = math.inf if delta > 1 else score + delta

    def report(
        self, depth: int, score: float, pv: tuple[A, ...], complete: bool, solved: bool
    ) -> SearchResult[A]:
        """The search so far as a result: ``depth`` completed, the root mover's ``score``."""
        return SearchResult(
            value=self.value(score),
            action=pv[0],
            pv=pv,
            stats=SearchStats(
                nodes=self.nodes,
                leaves=self.leaves,
                cutoffs=self.cutoffs,
                max_depth=self.seldepth,
                time=time.perf_counter() - self.started,
            ),
            algorithm="engine",
            max_player=self.root_mover,
            depth=depth,
            score=score,
            complete=complete,
            solved=solved,
        )


@dataclass
class _NativeEngine(_Engine[S, A]):
    """The engine with its search compiled (:mod:`plies.native`): each root call runs
    in a worker thread without the GIL while this thread keeps the clock, the stop event and
    Ctrl-C (:func:`~plies.search.worker.run_stoppable`); the iteration loop, aspiration windows
    and reports are :class:`_Engine`'s."""

    kernel: NativeSearch | None = None
    tables: tuple[Any, ...] | None = None
    """Endgame tables the compiled search probes below the root (None: none)."""
    run: NativeRun | None = None
    last_root: float = 0.0
    """Seconds the last root call took: the next, a ply deeper, is expected to take ten
    times as long (small ones then run without a worker thread)."""

    def begin(self, state: S) -> None:
        """Encode the root and the switches for the kernel."""
        assert self.kernel is not None
        native_table = None
        if self.table is not None:
            if self.table.native is None:  # as many slots as the Python table: the same search
                self.table.native = self.kernel.table(self.table.size)
            native_table = self.table.native
        game = self.game
        assert isinstance(game, WinLossDrawGame)
        mover, other = game.players[0], game.players[1]
        win, loss, draw = (
            (game.scoring.utility(winner, mover) - self.center) / self.unit
            for winner in (mover, other, None)
        )
        options = self.options
        self.run = self.kernel.start(
            state,
            native_table,
            0 if self.table is None else self.table.generation,
            tuple(getattr(options, name) for name in native.SWITCHES),
            (win, loss, draw, self.center, self.unit, MATE),
            self.only,
            self.tables,
        )

    def arm_limits(self) -> None:
        super().arm_limits()
        assert self.run is not None
        if self.limits.nodes is not None:
            self.run.limit_nodes(self.limits.nodes)
        if self.deadline < math.inf:
            self.run.limit_time(self.deadline - time.perf_counter())

    def negamax(
        self, state: S, depth: int, alpha: float, beta: float, ply: int, may_pass: bool = True
    ) -> float:
        """The root call, compiled; raises :class:`_Stop` when a limit ended it."""
        run = self.run
        assert run is not None and ply == 0
        started = time.perf_counter()
        try:
            score = run_stoppable(
                lambda: run.search(depth, alpha, beta, self.root_hint),
                run.stop,
                self.deadline,
                self.stop,
                expected=10 * self.last_root,
            )
        finally:
            self.last_root = time.perf_counter() - started
            self.sync(run)
        if run.aborted:
            raise _Stop
        return score

    def sync(self, run: NativeRun) -> None:
        """Take the kernel's counts, line and best root move (also of a stopped search)."""
        self.nodes, self.leaves, self.cutoffs, self.seldepth, self.horizon_hits = run.counts()
        best, score = run.root_best()
        if best is not None:
            self.root_best, self.root_score = best, score
        self.pv[0] = run.line()


def compiled_engine(game: Game[Any, Any], options: EngineOptions) -> NativeSearch | None:
    """The compiled engine :func:`iterate` runs for ``game`` with ``options``, or None when it
    runs the Python engine (``native`` off, or no kernel for the game or its options)."""
    return native.native_search(game) if options.native else None


def prepare(game: Game[Any, Any], options: EngineOptions = EngineOptions()) -> None:
    """Load the compiled engine of ``game`` now (where :func:`iterate` will run one), so that
    no clock pays for it: a second from Numba's cache, more on the first run of an
    installation."""
    kernel = compiled_engine(game, options)
    if kernel is not None:
        kernel.load(game.initial_state())


def iterate(
    game: Game[S, A],
    state: S,
    limits: Limits = Limits(),
    options: EngineOptions = EngineOptions(),
    table: TranspositionTable | None = None,
    root_moves: Collection[A] | None = None,
    evaluation: Evaluation | None = None,
    endgame: EndgameProbe | None = None,
    endgame_tables: tuple[Any, ...] | None = None,
) -> Iterator[SearchResult[A]]:
    """Iterative deepening (AIMA 4th ed., section 5.3.3, with the refinements above).

    Yields a :class:`SearchResult` after each completed iteration (``depth`` is the iteration's
    depth); when a limit cuts an iteration short, a last result (``complete=False``, ``depth``
    the last completed one) carries the move the partial iteration proved best, or the previous
    best. The first iteration always completes, so every search scores a move. Stops at the
    depth limit, when the game is solved, or when a forced win or loss is proved. A table
    passed in is reused (and aged) across searches.

    ``root_moves`` (legal moves, at least one) restricts the search to those moves at the root
    (UCI's ``go searchmoves``): the score, line and move are the best of them, as if the others
    were not legal there (the rest of the tree is searched as usual).

    ``evaluation`` replaces the game's EVAL (a network's value: ``netengine``); the
    Python engine then searches, as compiled code calls only the game's own EVAL.
    ``endgame`` probes endgame databases below the root in the Python engine, ``endgame_tables``
    (the same tables packed, :meth:`plies.solvers.endgames.Endgames.compiled`) in the compiled
    one.
    """
    if game.is_terminal(state):
        raise GameOverError("the game is over in this position: there is nothing to search")
    only = _only(game, state, root_moves)
    if table is None and options.tt_mb > 0:
        table = TranspositionTable(options.tt_mb)
    if table is not None:
        table.new_search()
    kernel = None if evaluation is not None else compiled_engine(game, options)
    engine: _Engine[S, A]
    if kernel is None:
        engine = _Engine(
            game, limits, options, table, only=only, evaluation=evaluation, endgame=endgame
        )
    else:
        engine = _NativeEngine(
            game, limits, options, table, only=only, kernel=kernel, tables=endgame_tables
        )
        engine.begin(state)
        engine.started = time.perf_counter()  # loading the compiled code is not searching
    engine.root_mover = game.to_move(state)
    max_depth = min(limits.depth or MAX_DEPTH, MAX_DEPTH)
    last: SearchResult[A] | None = None
    for depth in range(1, max_depth + 1):
        hits = engine.horizon_hits
        engine.root_hint = None if last is None else last.action
        engine.root_best, engine.root_score = None, math.nan
        try:
            score = engine.root(state, depth, None if last is None else last.score)
        except _Stop:
            assert last is not None, "the first iteration is never stopped"
            yield engine.report(depth - 1, *_cut_short(engine, last), False, False)
            return
        pv = engine.pv.get(0, ())
        if not pv:  # every move failed low against an aspiration window: keep the last best
            pv = (engine.root_best,) if engine.root_best is not None else last.pv  # type: ignore[union-attr]
        solved = engine.horizon_hits == hits
        last = engine.report(depth, score, pv, complete=True, solved=solved)
        yield last
        if solved or abs(score) >= 1:
            return
        engine.arm_limits()


def endgame_score(outcome: int, distance: int, ply: int) -> float:
    """An endgame database's outcome as the engine's score, ``ply`` plies from the root: a
    win or loss ``distance`` plies further on scores as the end of the game there."""
    if outcome == DRAW:
        return 0.0
    end = MATE - ply - max(distance, 0)
    return end if outcome == WIN else -end


def _only(game: Game[S, A], state: S, root_moves: Collection[A] | None) -> frozenset[A] | None:
    """The root moves :func:`iterate` searches (None: all); raises for an empty list and for a
    move not legal in ``state``."""
    if root_moves is None:
        return None
    legal = list(game.actions(state))
    for move in root_moves:
        if move not in legal:
            raise IllegalMoveError(f"root move {move!r} is not legal in this position")
    if not root_moves:
        raise SpecError("the root moves to search must name at least one move")
    return frozenset(root_moves)


def _cut_short(engine: _Engine[S, A], last: SearchResult[A]) -> tuple[float, tuple[A, ...]]:
    """Score and line of an interrupted iteration: a move it proved best (its score is exact
    at the new depth), else the last iteration's."""
    if engine.root_best is not None:
        pv = engine.pv.get(0, ())
        return engine.root_score, pv if pv[:1] == (engine.root_best,) else (engine.root_best,)
    assert last.score is not None
    return last.score, last.pv


def search(
    game: Game[S, A],
    state: S,
    limits: Limits = Limits(),
    options: EngineOptions = EngineOptions(),
    table: TranspositionTable | None = None,
    root_moves: Collection[A] | None = None,
) -> SearchResult[A]:
    """Run :func:`iterate` to its end and return its last result."""
    *_, final = iterate(game, state, limits, options, table, root_moves)
    return final
