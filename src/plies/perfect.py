"""What a perfect solver offers, whatever the game: the interface the ``perfect`` agent, the
``plies solve`` command and the web app use, reached through the game's
:class:`~plies.capabilities.HasPerfectSolver` capability."""

from __future__ import annotations

import threading
from collections.abc import Generator, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable


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
    """What to play: the position's ``score`` (as :class:`Solution`'s), every move that keeps
    it (``moves``, in the game's action order), the positions and seconds it took, and
    whether an opening book gave it."""

    score: int
    moves: list[Any]
    nodes: int
    time: float
    from_book: bool = False


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
    ) -> Decision:
        """The score of ``state`` and every move that keeps it."""
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

    def reset(self) -> None:
        """Empty the table."""
        ...


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
        self, path: str, plies: int, workers: int
    ) -> Generator[BookProgress, None, None]:
        """Solve the openings up to ``plies`` into ``path`` (resuming what it holds), yielding
        after each position; closing the iteration keeps what was solved."""
        ...
