"""What a perfect solver offers, whatever the game: the interface the ``perfect`` agent, the
``plies solve`` command and the web app use, reached through the game's
:class:`~plies.capabilities.HasPerfectSolver` capability."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Generator, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from plies.errors import BudgetExhaustedError, BusyError

UNTIMED_REACH = 24 * 3600.0
"""A solve with no time budget is refused up front where the solver says it cannot finish
within this many seconds (:meth:`PerfectSolver.reaches`: Othello far from its end)."""


@dataclass(frozen=True)
class Solution:
    """A solved position: ``score`` (the solver's convention, side to move's view; with
    ``weak`` only its sign: -1, 0 or 1), ``nodes`` (positions explored) and ``time`` (seconds in
    the search)."""

    score: int
    nodes: int
    time: float
    weak: bool = False


@dataclass(frozen=True)
class Decision:
    """What to play: the position's ``score`` (as :class:`Solution`'s; ``weak``: only its
    sign), every move that keeps it (``moves``, in the game's action order), the positions and
    seconds it took, and whether an opening book gave it."""

    score: int
    moves: list[Any]
    nodes: int
    time: float
    from_book: bool = False
    weak: bool = False


class PerfectSolver(Protocol):
    """An exact solver of one game's positions.

    Budgets: ``nodes`` (positions) and ``seconds`` raise
    :class:`~plies.errors.BudgetExhaustedError` when exhausted; ``keep_table`` keeps what
    earlier searches proved.
    """

    def solve(
        self,
        state: Any,
        weak: bool = False,
        keep_table: bool = False,
        nodes: int | None = None,
        seconds: float | None = None,
    ) -> Solution:
        """The score of ``state`` for the side to move (``weak``: only its sign)."""
        ...

    def decide(
        self,
        state: Any,
        keep_table: bool = False,
        nodes: int | None = None,
        seconds: float | None = None,
        weak: bool = False,
    ) -> Decision:
        """The score of ``state`` and every move that keeps it (``weak``: the score's sign,
        -1, 0 or 1, and every move that keeps the win, draw or loss; a draw is exact and its
        decision not marked weak)."""
        ...

    def analyze(self, state: Any, weak: bool = False) -> list[int | None]:
        """The score of every move slot (:meth:`slot_labels`) for the side to move, None for
        a slot with no legal move."""
        ...

    stop: threading.Event | None
    """Set from another thread to end the search in progress as if its budget had run out."""

    def move_score(
        self, state: Any, action: Any, nodes: int | None = None, seconds: float | None = None
    ) -> int:
        """The score of playing ``action`` in ``state`` for the side to move, within a budget
        and with the table kept."""
        ...

    def slot_labels(self) -> list[str]:
        """The notation of each slot :meth:`analyze` scores (Connect Four: columns 1 to 7)."""
        ...

    def preferred(self, moves: Sequence[Any]) -> Any:
        """The move to play among ``moves``, all equally good."""
        ...

    def meaning(self, score: int, weak: bool = False) -> str:
        """What ``score`` says for the side to move, in words."""
        ...

    def difficulty_note(self, state: Any) -> str | None:
        """A warning when solving ``state`` may take long, else None."""
        ...

    def reaches(self, state: Any, seconds: float, weak: bool = False) -> bool:
        """Whether solving ``state`` (``weak``: only the score's sign) may finish within
        ``seconds`` (a cheap estimate: False only where the solver is sure to run out, so that
        its callers turn to the engine at once; Othello's far from the end)."""
        ...

    def reset(self) -> None:
        """Empty the table."""
        ...


@runtime_checkable
class ProvesBounds(Protocol):
    """A solver that proves the score's sign before the score (Othello's): ``known`` is the
    lowest and highest score proved so far (None: nothing yet), what an interrupted solve
    leaves."""

    known: tuple[int, int] | None


class SolverPool:
    """Perfect solvers of one game, each lent to one thread at a time and kept with its table,
    so that a search after a related one (a move further on) reuses what the earlier proved.

    At most ``size`` solvers exist (each made on first need, by ``make``). A pool ``shared`` by
    many agents (a server's, :class:`plies.agents.shared.SharedMemory`) keeps its tables when an
    agent resets: what a solver's table holds is proven of positions, whoever asked.
    """

    def __init__(
        self,
        make: Callable[[], PerfectSolver],
        size: int = 1,
        shared: bool = False,
        first: PerfectSolver | None = None,
    ) -> None:
        if size < 1:
            raise ValueError(f"a pool of {size} solvers")
        self.make, self.size, self.shared = make, size, shared
        self.made: list[PerfectSolver] = [] if first is None else [first]
        """The solvers made so far (``first``, when given, is one)."""
        self._idle = list(self.made)
        self._free = threading.Condition()

    @classmethod
    def of(cls, solver: PerfectSolver) -> SolverPool:
        """A private pool of the one ``solver``."""
        return cls(lambda: solver, first=solver)

    @contextmanager
    def lend(
        self, wait: float | None = None, stop: threading.Event | None = None
    ) -> Iterator[PerfectSolver]:
        """A solver for the ``with`` block, the most recently used idle one; waits up to
        ``wait`` seconds (None: as long as it takes) for one to free up, then raises
        :class:`~plies.errors.BusyError`; ``stop`` set while waiting raises
        :class:`~plies.errors.BudgetExhaustedError`."""
        deadline = None if wait is None else time.monotonic() + wait
        with self._free:
            while not self._idle and len(self.made) >= self.size:
                if stop is not None and stop.is_set():
                    raise BudgetExhaustedError("stopped while waiting for a free solver")
                left = None if deadline is None else deadline - time.monotonic()
                if left is not None and left <= 0:
                    raise BusyError(
                        f"all {self.size} solvers are busy: try again in a moment", wait or 1.0
                    )
                self._free.wait(0.05 if stop is not None else left)
            if self._idle:
                solver = self._idle.pop()
            else:
                self.made.append(solver := self.make())
        try:
            yield solver
        finally:
            with self._free:
                self._idle.append(solver)
                self._free.notify()

    def meaning(self, score: int, weak: bool = False) -> str:
        """What ``score`` says for the side to move, in words (the solvers' convention)."""
        if not self.made:
            with self.lend():
                pass
        return self.made[0].meaning(score, weak)

    def reset(self) -> None:
        """Empty the tables of the idle solvers (a private pool's agent starts a new game)."""
        with self._free:
            for solver in self._idle:
                solver.reset()


@dataclass(frozen=True)
class BookProgress:
    """Where an opening book's build stands: ``done`` of the ``total`` positions of ``ply``
    that the book lacked are solved, the last in ``seconds``; the book holds ``size``
    positions."""

    ply: int
    done: int
    total: int
    size: int
    seconds: float


@runtime_checkable
class HasOpeningBook(Protocol):
    """A perfect solver that consults a book of solved openings and can build one."""

    def use_book(self, path: str | None) -> None:
        """Consult the book at ``path`` from now on (None: no book)."""
        ...

    def check_book_target(self, path: str) -> None:
        """Raise :class:`~plies.errors.BookError` unless a book can be built at ``path``."""
        ...

    def build_book(
        self, path: str, plies: int, workers: int, ray_address: str | None = None
    ) -> Generator[BookProgress, None, None]:
        """Solve the openings up to ``plies`` into ``path`` (resuming what it holds) in
        ``workers`` workers (of the Ray cluster at ``ray_address``, if given: a
        :class:`~plies.pool.Pool`), yielding after each position; closing the iteration keeps
        what was solved."""
        ...
