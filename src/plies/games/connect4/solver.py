"""Perfect-play Connect Four: Pascal Pons's solver (blog "Solving Connect 4: how to build a
perfect AI", final version) compiled by Numba.

:class:`Connect4Solver` scores a position as Pons does, from the side to move's view: a win
scores ``(width * height + 1 - moves) // 2`` when the winning stone is the ``moves + 1``-th
(22 minus the winner's stones on the 7 x 6 board), a loss the negative, a draw 0. A weak solve
finds only the sign. The search (bitboards, negamax alpha-beta with a transposition table of
lower and upper bounds, null-window iterative deepening, anticipated losing moves, ordering by
threats) lives in :mod:`plies.games.connect4.solver_kernel`.

>>> from plies.games.connect4.rules import ConnectFour
>>> game = ConnectFour()
>>> solver = Connect4Solver(game)
>>> [solver.solve(game.parse_position(p)).score for p in ("4455", "44455554221")]
[18, -15]
>>> solver.solve(game.parse_position("44455554221"), weak=True).score
-1
>>> solver.analyze(game.parse_position("52753311433677442422121"))
[2, 3, 7, 7, 8, 7, 2]
>>> solver.best_moves(game.parse_position("52753311433677442422121"))
[4]
>>> solver.decide(game.parse_position("4455"))
Decision(score=18, moves=[2, 5], nodes=..., time=...)
"""

from __future__ import annotations

import threading
import time
from collections.abc import Generator, Sequence

import numpy as np

from plies.errors import (
    BudgetExhaustedError,
    GameOverError,
    IllegalMoveError,
    SpecError,
    UnsupportedGameError,
)
from plies.games.connect4.book import (
    OpeningBook,
    build_book,
    check_book_target,
    load_book,
    shipped_book,
)
from plies.games.connect4.rules import ConnectFour, ConnectFourState
from plies.perfect import BookProgress, Decision, Solution

DEFAULT_ENTRIES = 1 << 23
"""Table slots asked for by default: Pons's 8M-entry table (64 MiB here)."""

MAX_HEIGHT = 19
"""Tallest board supported: the kernel shifts boards by up to ``3 * (height + 2) <= 63``."""


CHUNK = 1 << 18
"""Positions the kernel searches between two returns to Python (about 20 ms), where the clock
is read and Ctrl-C is noticed."""


def _next_prime(n: int) -> int:
    """The smallest prime ``>= n`` (``n >= 2``), by trial division."""
    while any(n % d == 0 for d in range(2, int(n**0.5) + 1)):
        n += 1
    return n


class Connect4Solver:
    """Solves positions of ``game`` (default: the standard 7 x 6 board).

    Any board size the game allows is supported up to ``MAX_HEIGHT`` rows, but only four in a
    row. The transposition table has about ``entries`` slots of 8 bytes (a prime number of
    two-slot buckets). :meth:`solve` empties it before each search unless told to keep it, so
    that node counts compare with Pons's (who resets it per position); emptying is O(1), as
    each search gets a new generation number and entries of older ones never match (a real
    clear happens once every :attr:`generations` searches). Not thread-safe: give each thread
    its own solver. Importing this module is cheap; the constructor loads Numba and the kernel
    (compiling it, about 2 s, on the first run with an empty Numba cache).
    """

    def __init__(
        self,
        game: ConnectFour | None = None,
        entries: int = DEFAULT_ENTRIES,
        book: OpeningBook | bool | None = True,
    ) -> None:
        from plies.games.connect4 import solver_kernel as kernel

        game = ConnectFour() if game is None else game
        if game.k != 4:
            raise UnsupportedGameError(f"connect4 solver: only four in a row, not k={game.k}")
        if game.height > MAX_HEIGHT:
            raise UnsupportedGameError(
                f"connect4 solver: at most {MAX_HEIGHT} rows, not height={game.height}"
            )
        width, height = game.width, game.height
        stride = height + 1
        # A tag (generation above the key's quotient by the buckets) needs at least one bit of
        # generation within 63 - DATA_BITS bits.
        smallest = max(1024, 1 << max(0, width * stride - 61 + kernel.DATA_BITS))
        if entries < smallest:
            raise SpecError(
                f"connect4 solver: entries={entries} is too small for a {width}x{height} "
                f"board (at least {smallest})"
            )
        self.game = game
        if book is True:
            book = shipped_book() if (game.width, game.height) == (7, 6) else None
        if book and (book.game.width, book.game.height) != (width, height):
            raise SpecError(
                f"connect4 solver: the book is for a {book.game.width}x{book.game.height} "
                f"board, not {width}x{height}"
            )
        self.book: OpeningBook | None = book or None
        """The opening book consulted before any search (True, the default: the shipped one
        on the 7 x 6 board; False or None: none)."""
        self._kernel = kernel
        self._cells = width * height
        self._height = height
        self._bottom = sum(1 << (c * stride) for c in range(width))
        self._board = self._bottom * ((1 << height) - 1)
        order = [width // 2 + (1 - 2 * (i % 2)) * (i + 1) // 2 for i in range(width)]
        if not kernel.CENTRE_FIRST:
            order.sort()
        self._columns = np.array([((1 << height) - 1) << (c * stride) for c in order], np.int64)
        buckets = _next_prime(entries // 2)
        self._table = np.empty(2 * buckets, np.int64)
        self._table.fill(0)  # touch every page now, not during the first timed searches
        self._generation_shift = ((1 << (width * stride)) // buckets).bit_length()
        self._generations = 1 << (63 - kernel.DATA_BITS - self._generation_shift)
        self._generation = 0
        self._frames = np.zeros((self._cells + 1, kernel.POSSIBLE + 1), np.int64)
        self._sorter = np.zeros((self._cells + 1, width), np.int64)
        self._pause = np.zeros(kernel.MED + 1, np.int64)
        self.stop: threading.Event | None = None
        """Set from another thread to end the search in progress as if its budget had run out
        (looked at every :data:`CHUNK` positions)."""
        self.reset()
        self._run(0, self._board, self._cells, 0, 0, None, None)  # compile or load the kernel

    @property
    def entries(self) -> int:
        """The number of table slots."""
        return len(self._table)

    @property
    def generations(self) -> int:
        """How many searches share one real clear of the table."""
        return self._generations - 1

    def use_book(self, path: str | None) -> None:
        """Consult the book at ``path`` (one of this board's) from now on; None: no book."""
        self.book = None if path is None else load_book(path, self.game)

    def check_book_target(self, path: str) -> None:
        """Raise :class:`~plies.errors.BookError` unless a book can be built at ``path``."""
        check_book_target(path, self.game)

    def build_book(
        self, path: str, plies: int, workers: int, ray_address: str | None = None
    ) -> Generator[BookProgress, None, None]:
        """Solve the openings up to ``plies`` into ``path`` (:func:`.book.build_book`), with a
        solver of this board that consults no book."""
        solver = Connect4Solver(self.game, book=False)
        return build_book(path, plies, solver, workers, ray_address)

    def reset(self) -> None:
        """Empty the transposition table: O(1), but a real clear once every
        :attr:`generations` calls."""
        self._generation += 1
        if self._generation == self._generations:
            self._table.fill(0)
            self._generation = 1

    def solve(
        self,
        state: ConnectFourState,
        weak: bool = False,
        keep_table: bool = False,
        nodes: int | None = None,
        seconds: float | None = None,
    ) -> Solution:
        """The score of ``state`` for the side to move (``weak``: only its sign). The table is
        emptied first unless ``keep_table``: its bounds stay true, so keeping it is safe and
        saves work between related positions (the moves of a game).

        With a budget of about ``nodes`` positions or ``seconds`` (looked at every
        :data:`CHUNK` positions), raises :class:`BudgetExhaustedError` when it runs out; what
        the search proved stays in the table. Raises :class:`GameOverError` if the game is
        over."""
        self._check(state)
        known = None if self.book is None else self.book.lookup(state)
        if known is not None:
            score = (known.score > 0) - (known.score < 0) if weak else known.score
            return Solution(score, 0, 0.0, weak)
        if not keep_table:
            self.reset()
        deadline = None if seconds is None else time.perf_counter() + seconds
        return self._solve(state, weak, nodes, deadline)

    def analyze(self, state: ConnectFourState, weak: bool = False) -> list[int | None]:
        """The score of each column (0-based) for the side to move, ``None`` for a full column,
        as Pons's ``analyze``: a winning move scores ``(cells + 1 - moves) // 2`` (1 if
        ``weak``), any other ``-solve(child)``. The table is emptied once and shared by the
        children."""
        self._check(state)
        self.reset()
        scores: list[int | None] = [None] * self.game.width
        for column in self.game.actions(state):
            scores[column] = self._move_score(state, column, weak, None, None)
        return scores

    def move_score(
        self,
        state: ConnectFourState,
        column: int,
        nodes: int | None = None,
        seconds: float | None = None,
    ) -> int:
        """:meth:`analyze`'s score of one column, with the table kept and a budget as in
        :meth:`solve` (:class:`~plies.errors.BudgetExhaustedError` when it runs out)."""
        self._check(state)
        if column not in self.game.actions(state):
            raise IllegalMoveError(f"column {column + 1} is full")
        deadline = None if seconds is None else time.perf_counter() + seconds
        return self._move_score(state, column, False, nodes, deadline)

    def _move_score(
        self,
        state: ConnectFourState,
        column: int,
        weak: bool,
        nodes: int | None,
        deadline: float | None,
    ) -> int:
        child = self.game.result(state, column)
        if child.won:
            return 1 if weak else (self._cells + 1 - state.moves) // 2
        return -self._solve(child, weak, nodes, deadline).score

    def decide(
        self,
        state: ConnectFourState,
        keep_table: bool = False,
        nodes: int | None = None,
        seconds: float | None = None,
        weak: bool = False,
    ) -> Decision:
        """The score of ``state`` and every move that keeps it: one solve (strong, or weak
        when ``weak`` asks only for the sign), then a null-window test per move (is the
        child's score at most minus the position's?), far cheaper than :meth:`analyze`'s exact
        score per move. The table and the budget are as in :meth:`solve`, the budget shared
        by the whole decision. A position of the opening book is decided by the book, at once,
        unless ``weak`` asks for the score's sign and every move that keeps it (the book knows
        only the moves that keep the exact score; a draw is exact, and its decision is not
        marked weak)."""
        self._check(state)
        known = None if self.book is None or weak else self.book.lookup(state)
        if known is not None:
            return known
        if not keep_table:
            self.reset()
        began = time.perf_counter()
        deadline = None if seconds is None else began + seconds
        root = self._solve(state, weak, nodes, deadline)
        spent = root.nodes
        game = self.game
        if weak and root.score < 0:  # every move keeps a loss
            moves = sorted(game.actions(state))
            return Decision(root.score, moves, spent, time.perf_counter() - began, weak=True)
        best = []
        for column in game.actions(state):
            child = game.result(state, column)
            if child.won:
                keeps = root.score == (1 if weak else (self._cells + 1 - state.moves) // 2)
            else:
                left = None if nodes is None else max(nodes - spent, 0)
                # the move keeps the score iff the child's score is at most -score
                bound, searched = self._run(
                    child.current,
                    child.mask,
                    child.moves,
                    -root.score,
                    1 - root.score,
                    left,
                    deadline,
                )
                spent += searched
                keeps = bound <= -root.score
            if keeps:
                best.append(column)
        seconds = time.perf_counter() - began
        return Decision(root.score, sorted(best), spent, seconds, weak=weak and root.score != 0)

    def best_moves(self, state: ConnectFourState) -> list[int]:
        """The columns (0-based, left to right) that keep the position's score."""
        return self.decide(state).moves

    def slot_labels(self) -> list[str]:
        """The columns :meth:`analyze` scores, as the game writes them: ``1`` to ``width``."""
        return [str(column + 1) for column in range(self.game.width)]

    def preferred(self, moves: Sequence[int]) -> int:
        """The most central of ``moves`` (the left one of two equally central)."""
        centre = (self.game.width - 1) / 2
        return min(moves, key=lambda column: (abs(column - centre), column))

    def difficulty_note(self, state: ConnectFourState) -> str | None:
        """A warning for early positions, which take the solver a long time.

        >>> solver = Connect4Solver()
        >>> solver.difficulty_note(solver.game.parse_position("4"))
        'early positions (1 stone) can take minutes'
        """
        if state.moves == 0:
            return (
                "the empty board is the hardest position of all (the first player wins); "
                "solving it takes a long time (Ctrl-C stops)"
            )
        if state.moves < 8:
            stones = f"{state.moves} stone{'s' if state.moves > 1 else ''}"
            return f"early positions ({stones}) can take minutes"
        return None

    def reaches(self, state: ConnectFourState, seconds: float, weak: bool = False) -> bool:
        """Always: the book and the table answer in time, or the budget says it did not."""
        return True

    def meaning(self, score: int, weak: bool = False) -> str:
        """What ``score`` says for the side to move, in words.

        >>> Connect4Solver().meaning(18)
        'the side to move wins with its stone number 4'
        """
        if score == 0:
            return "a draw with perfect play"
        side = "the side to move"
        if weak:
            return f"{side} {'wins' if score > 0 else 'loses'} with perfect play"
        stones = (self._cells + 1) // 2 + 1 - abs(score)
        if score > 0:
            return f"{side} wins with its stone number {stones}"
        return f"{side} loses: the opponent wins with its stone number {stones}"

    def _check(self, state: ConnectFourState) -> None:
        if self.game.is_terminal(state):
            raise GameOverError("connect4 solver: the game is over in this position")

    def _solve(
        self, state: ConnectFourState, weak: bool, nodes: int | None, deadline: float | None
    ) -> Solution:
        began = time.perf_counter()
        low, high = -((self._cells - state.moves) // 2), (self._cells + 1 - state.moves) // 2
        if weak:
            low, high = -1, 1
        score, searched = self._run(
            state.current, state.mask, state.moves, low, high, nodes, deadline
        )
        seconds = time.perf_counter() - began
        if weak:
            score = (score > 0) - (score < 0)
        return Solution(score, searched, seconds, weak)

    def _run(
        self,
        current: int,
        mask: int,
        moves: int,
        low: int,
        high: int,
        nodes: int | None,
        deadline: float | None,
    ) -> tuple[int, int]:
        """The kernel's ``solve`` of ``[low, high]``, :data:`CHUNK` positions at a time: (score,
        positions explored). Raises :class:`BudgetExhaustedError` past ``nodes`` positions
        or the ``deadline`` (a :func:`time.perf_counter` reading)."""
        kernel = self._kernel
        self._pause[kernel.RESUMING] = 0
        spent = 0
        while True:
            limit = CHUNK if nodes is None else min(CHUNK, nodes - spent)
            score, searched = kernel.solve(
                current,
                mask,
                moves,
                low,
                high,
                self._cells,
                self._height,
                self._bottom,
                self._board,
                self._columns,
                self._table,
                self._generation << self._generation_shift,
                self._frames,
                self._sorter,
                limit,
                self._pause,
            )
            spent += searched
            if score != kernel.PAUSED:
                return int(score), spent
            if nodes is not None and spent >= nodes:
                raise BudgetExhaustedError(f"connect4 solver: not solved in {nodes:,} positions")
            if deadline is not None and time.perf_counter() >= deadline:
                raise BudgetExhaustedError(
                    f"connect4 solver: not solved in time ({spent:,} positions)"
                )
            if self.stop is not None and self.stop.is_set():
                raise BudgetExhaustedError(f"connect4 solver: stopped ({spent:,} positions)")
