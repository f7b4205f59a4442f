"""The exact Othello endgame solver: the final disc difference with perfect play from a
position near the end, and the moves that keep it (the compiled search of
:mod:`plies.games.othello.solver_kernel`).

Scores are the side to move's final disc difference, the empty squares of a game over before
the board is full going to the winner (the FFO suite's and every Othello program's count; the
game's own result, a win, a loss or a draw, is its sign). The search runs in a thread of its
own with the GIL released, so a :attr:`OthelloSolver.stop` event or Ctrl-C ends it within a few
thousand positions; its budget is ``nodes`` positions or ``seconds``.

A position whose estimated cost (:func:`estimated_seconds`, from the measured growth of the
FFO positions' searches) is far above its time budget is refused at once: the ``perfect``
agent and the analysers then play or judge with the engine instead of waiting in vain.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence
from typing import Any

import numpy as np

from plies.compiled import CLOCK
from plies.errors import BudgetExhaustedError, GameOverError, IllegalMoveError
from plies.games.othello.rules import PASS, Othello, OthelloState
from plies.games.othello.squares import RANK
from plies.perfect import Decision, Solution

NODES_AT_20 = 2.5e7
"""Positions a typical search of 20 empties enters (FFO #40: 25 M)."""
GROWTH = 2.0
"""How many times more positions each further empty square costs (FFO #40 to #49)."""
NODES_PER_SECOND = 8e6
"""The kernel's speed on one core of the development machine: 8.5 to 11 M positions a second
on FFO #40 to #49 (``benchmarks/othello_endgame.py``), 8 M on positions of GRhino games."""
REACH = 4.0
"""A search estimated to take more than this many times its time budget is refused at once."""
HARD_EMPTIES = 24
"""From this many empties a solve can take many minutes (:meth:`OthelloSolver.difficulty_note`)."""
GENERATIONS = 100
"""Searches are numbered 1 to this, round (a table entry keeps its number in a byte)."""
YEAR = 365.25 * 24 * 3600
WAIT = 0.05
"""Seconds between two looks at the stop event and Ctrl-C while the kernel searches."""


def estimated_seconds(empties: int, weak: bool = False) -> float:
    """A rough time to solve a position of ``empties`` empty squares (a third for win, loss
    or draw only); positions vary tenfold either way."""
    nodes = NODES_AT_20 * GROWTH ** (empties - 20) / (3 if weak else 1)
    return nodes / NODES_PER_SECOND


class OthelloSolver:
    """Solves Othello positions exactly (see the module docstring). The transposition table
    (``2 ** TABLE_BITS`` slots, 44 MB) is emptied before each search unless told to keep it.
    Not thread-safe: give each thread its own solver."""

    def __init__(self, game: Othello | None = None) -> None:
        from plies.games.othello import solver_kernel as kernel

        self.game = game or Othello()
        self._kernel = kernel
        size = 1 << kernel.TABLE_BITS
        # a slot's key and bounds side by side, 16 bytes: a bucket's two slots in one cache line
        entries = np.zeros((size, 16), np.uint8)
        self._keys = entries[:, :8].view(np.uint64).reshape(size)
        self._bounds = entries[:, 8:13].view(np.int8)
        self._moves = np.zeros((65, 32), np.int64)
        self._order = np.zeros((65, 32), np.int64)
        self._params = _ordering_words(self.game)
        self._generation = 0
        """Numbers the searches (:meth:`_begin`), so that the table keeps the current one's
        entries of many empties first."""
        self.stop: threading.Event | None = None
        """Set from another thread to end the search in progress as if its budget had run out."""
        self.known: tuple[int, int] | None = None
        """The lowest and highest score :meth:`solve` has proved so far (win, loss or draw is
        proved first; None: nothing yet): what an interrupted solve leaves."""

    def reset(self) -> None:
        """Empty the transposition table."""
        self._keys.fill(0)

    # The PerfectSolver interface --------------------------------------------------------------

    def solve(
        self,
        state: OthelloState,
        weak: bool = False,
        keep_table: bool = False,
        nodes: int | None = None,
        seconds: float | None = None,
    ) -> Solution:
        """The final disc difference of ``state`` for the side to move with perfect play
        (``weak``: only its sign), within ``nodes`` positions or ``seconds``
        (:class:`BudgetExhaustedError` past them, or at once when the position is estimated
        far out of reach)."""
        self._begin(state, weak, seconds)
        if not keep_table:
            self.reset()
        began = time.perf_counter()
        deadline = None if seconds is None else began + seconds
        score, searched = self._score(state, weak, nodes, deadline)
        return Solution(score, searched, time.perf_counter() - began, weak)

    def decide(
        self,
        state: OthelloState,
        keep_table: bool = False,
        nodes: int | None = None,
        seconds: float | None = None,
        weak: bool = False,
    ) -> Decision:
        """The score of ``state`` and every move that keeps it (a null-window test per move
        after the exact solve), the budget shared by the whole decision; ``weak``: the
        score's sign and every move that keeps the win, draw or loss (a draw is exact, and
        its decision is not marked weak)."""
        self._begin(state, weak, seconds)
        if not keep_table:
            self.reset()
        began = time.perf_counter()
        deadline = None if seconds is None else began + seconds
        score, spent = self._score(state, weak, nodes, deadline)
        if weak and score < 0:  # every move keeps a loss
            moves = list(self.game.actions(state))
            return Decision(score, moves, spent, time.perf_counter() - began, weak=True)
        best = []
        for action in self.game.actions(state):
            child = self.game.result(state, action)
            left = None if nodes is None else max(nodes - spent, 1)
            bound, searched = self._search(child, -score, 1 - score, left, deadline)
            spent += searched
            if bound <= -score:  # the child's score is at most -score: the move keeps it
                best.append(action)
        # a draw proved is the exact score
        return Decision(score, best, spent, time.perf_counter() - began, weak=weak and score != 0)

    def _score(
        self,
        state: OthelloState,
        weak: bool,
        nodes: int | None,
        deadline: float | None,
        root: bool = True,
    ) -> tuple[int, int]:
        """The score of ``state`` (``weak``: its sign) and the positions entered: win, loss
        or draw first, then the exact score by null-window tests (MTD, Plaat et al., "Best-first
        fixed-depth minimax algorithms", 1996), each reusing the table the ones before filled:
        two past the bound proved, away from zero, until a test fails, then halving what is
        left. Tests of bounds below the score are cheap, the one proof at the score dear; a
        search of the whole window was dearer still (FFO #44 to #46 and #48: 1,061 M positions
        against 1,740 M). At the ``root``, :attr:`known` follows what is proved."""
        if root:
            self.known = None
        sign, searched = self._search(state, -1, 1, nodes, deadline)
        sign = (sign > 0) - (sign < 0)
        if root:
            self.known = (0, 0) if sign == 0 else (1, 64) if sign > 0 else (-64, -1)
        if weak or sign == 0:
            return sign, searched
        low, high = (1, 64) if sign > 0 else (-64, -1)
        stepping = True
        while low < high:
            if stepping:
                test = min(low + 2, high) if sign > 0 else max(high - 1, low + 1)
            else:
                test = (low + high + 1) // 2
            left = None if nodes is None else max(nodes - searched, 1)
            value, more = self._search(state, test - 1, test, left, deadline)
            searched += more
            if value >= test:  # fail-soft: the score is at least value
                low = min(value, high)
                stepping = stepping and sign > 0
            else:
                high = max(value, low)
                stepping = stepping and sign < 0
            if root:
                self.known = (low, high)
        return low, searched

    def analyze(self, state: OthelloState, weak: bool = False) -> list[int | None]:
        """The exact score of playing on each square (a1 to h8, then a pass), None where the
        side to move cannot play."""
        self._begin(state, weak, None)
        self.reset()
        scores: list[int | None] = [None] * 65
        for action in self.game.actions(state):
            child = self.game.result(state, action)
            score = -self._score(child, weak, None, None, root=False)[0]
            scores[64 if action == PASS else action] = score
        return scores

    def move_score(
        self,
        state: OthelloState,
        action: int,
        nodes: int | None = None,
        seconds: float | None = None,
    ) -> int:
        """The exact score of playing ``action`` in ``state``, the table kept."""
        self._begin(state, False, seconds)
        if action not in self.game.actions(state):
            raise IllegalMoveError(f"move {self.game.format_action(state, action)!r} is not legal")
        deadline = None if seconds is None else time.perf_counter() + seconds
        child = self.game.result(state, action)
        return -self._score(child, False, nodes, deadline, root=False)[0]

    def slot_labels(self) -> list[str]:
        """The squares :meth:`analyze` scores, a1 to h8, then ``pass``."""
        return [f"{'abcdefgh'[s % 8]}{s // 8 + 1}" for s in range(64)] + ["pass"]

    def preferred(self, moves: Sequence[int]) -> int:
        """The first of ``moves`` in the game's own order (corners first, X-squares last)."""
        return min(moves, key=lambda move: RANK[move] if move != PASS else -1)

    def meaning(self, score: int, weak: bool = False) -> str:
        """What ``score`` says for the side to move, in words.

        >>> OthelloSolver.meaning(None, 38)  # type: ignore[arg-type]
        'the side to move wins by 38 discs'
        """
        if score == 0:
            return "a draw with perfect play"
        verdict = "wins" if score > 0 else "loses"
        if weak:
            return f"the side to move {verdict} with perfect play"
        return f"the side to move {verdict} by {abs(score)} discs"

    def reaches(self, state: OthelloState, seconds: float, weak: bool = False) -> bool:
        """Whether :func:`estimated_seconds` is within :data:`REACH` times ``seconds``."""
        return estimated_seconds(_empties(state), weak) <= REACH * seconds

    def difficulty_note(self, state: OthelloState) -> str | None:
        """A warning for positions with many empties, with the rough time."""
        empties = _empties(state)
        if empties < HARD_EMPTIES:
            return None
        return (
            f"{empties} empty squares: an exact solve may take about "
            f"{_duration(estimated_seconds(empties))}"
        )

    # Inside ---------------------------------------------------------------------------------

    def _begin(self, state: OthelloState, weak: bool, seconds: float | None) -> None:
        """Check that ``state`` can be solved within ``seconds``, and number a new search."""
        self._generation = self._generation % GENERATIONS + 1
        if self.game.is_terminal(state):
            raise GameOverError("othello solver: the game is over in this position")
        if seconds is None:
            return
        estimate = estimated_seconds(_empties(state), weak)
        if estimate > REACH * seconds:  # as reaches(), for a weak solve too
            raise BudgetExhaustedError(
                f"othello solver: {_empties(state)} empty squares would take about "
                f"{_duration(estimate)}, more than the {seconds:g} s budget"
            )

    def _search(
        self,
        state: OthelloState,
        low: int,
        high: int,
        nodes: int | None,
        deadline: float | None,
    ) -> tuple[int, int]:
        """The kernel's fail-soft score of ``state`` within ``low..high`` and the positions
        it entered, searched in a thread (the stop event and Ctrl-C looked at meanwhile)."""
        mover, other = (
            (state.black, state.white) if state.to_move == "B" else (state.white, state.black)
        )
        limit = (1 << 62) if nodes is None else nodes
        clock_deadline = 1e300 if deadline is None else _kernel_time(deadline)
        control = np.array([0, limit, 0, 0, CLOCK, self._generation], np.int64)
        found: list[int] = []
        arguments: tuple[Any, ...] = (
            np.uint64(mover),
            np.uint64(other),
            low,
            high,
            0,
            self._keys,
            self._bounds,
            self._moves,
            self._order,
            self._params,
            control,
            clock_deadline,
        )
        worker = threading.Thread(
            target=lambda: found.append(int(self._kernel.solve_node(*arguments))),
            name="plies-othello-solver",
            daemon=True,
        )
        worker.start()
        try:
            while worker.is_alive():
                worker.join(WAIT)
                if self.stop is not None and self.stop.is_set():
                    control[self._kernel.STOP] = 1
        except KeyboardInterrupt:
            control[self._kernel.STOP] = 1
            worker.join()
            raise
        searched = int(control[self._kernel.NODES])
        if control[self._kernel.ABORT]:
            if self.stop is not None and self.stop.is_set():
                raise BudgetExhaustedError(f"othello solver: stopped ({searched:,} positions)")
            if nodes is not None and searched >= nodes:
                raise BudgetExhaustedError(f"othello solver: not solved in {nodes:,} positions")
            raise BudgetExhaustedError(
                f"othello solver: not solved in time ({searched:,} positions)"
            )
        return found[0], searched


def _ordering_words(game: Othello) -> np.ndarray:
    """The words the kernel orders deep nodes by: the game's pattern tables as its compiled
    evaluation reads them, or only a zero flag when it plays with the hand-written one."""
    from plies.games.othello.kernel import PATTERNS_ON, TABLES

    words = np.zeros(TABLES, np.int64)
    if game.patterns is None:
        return words
    words[PATTERNS_ON] = 1
    return np.concatenate([words, game.patterns.rows.ravel()])


def _empties(state: OthelloState) -> int:
    return 64 - (state.black | state.white).bit_count()


def _kernel_time(deadline: float) -> float:
    """A :func:`time.perf_counter` deadline on the kernel's clock (:data:`CLOCK`)."""
    return time.clock_gettime(CLOCK) + (deadline - time.perf_counter()) if CLOCK >= 0 else 1e300


def _duration(seconds: float) -> str:
    if seconds < 120:
        return f"{seconds:.0f} s"
    if seconds < 7200:
        return f"{seconds / 60:.0f} minutes"
    if seconds < 2 * YEAR:
        return f"{seconds / 3600:,.0f} hours"
    if seconds < 1e6 * YEAR:
        return f"{seconds / YEAR:,.0f} years"
    return "more than a million years"
