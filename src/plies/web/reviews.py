"""A web game's review after its end, and hints and answers to draw offers during it: the
game's strongest analyser
(:func:`plies.review.best_analyser`: the perfect solver, a game's own MCTS, else the engine)
run in the server's thinking queue (:class:`~plies.web.workload.Workload`), so the budgets
that bound agents bound these too. Nothing here imports FastAPI."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import asdict
from typing import Any

from plies.agents.shared import SharedMemory
from plies.errors import BusyError, PliesError, SpecError
from plies.game import Game
from plies.review import (
    Analyser,
    Judgement,
    Review,
    best_analyser,
    check_reviewable,
    review_game,
)
from plies.web.workload import Budgets, Workload

REVIEW_SECONDS = 0.5
"""The analyser's time a position in a review (at most the server's think budget)."""


@contextmanager
def lent_analyser(
    game: Game[Any, Any], seconds: float, shared: SharedMemory | None
) -> Iterator[tuple[str, Analyser]]:
    """The game's best analyser and its name for the ``with`` block: the perfect solver
    borrowed from the server's pool where it has one (given back after), else what
    :func:`plies.review.best_analyser` finds."""
    pool = None if shared is None else shared.solver_pool(game)
    if pool is None:
        yield best_analyser(game, seconds)
        return
    with pool.lend(seconds) as solver:
        yield best_analyser(game, seconds, solver)


class ReviewJob:
    """The review of one game: not asked, running (``done`` of ``total`` positions) or
    finished; its progress and end are published to the game's listeners (``publish``)."""

    def __init__(
        self,
        game: Game[Any, Any],
        workload: Workload,
        publish: Callable[[dict[str, Any]], None],
    ) -> None:
        self.game, self.workload, self.publish = game, workload, publish
        self.done = self.total = 0
        self.running = False
        self.result: Review | None = None
        self.error: str | None = None
        self.halt = threading.Event()

    def start(
        self,
        start: Any,
        actions: Sequence[Any],
        shared: SharedMemory | None,
        budgets: Budgets,
    ) -> None:
        """Review the game of ``actions`` from ``start`` in a thread (a :class:`SpecError`
        when it was asked already, or the game cannot be reviewed)."""
        if self.running or self.result is not None:
            raise SpecError("this game's review was asked for already: it shows on the page")
        check_reviewable(self.game)
        self.workload.check_room(budgets.waiting_analyses)
        seconds = min(REVIEW_SECONDS, budgets.think_seconds)
        self.running, self.total, self.error = True, len(actions) + 1, None
        threading.Thread(
            target=self._run,
            args=(start, list(actions), shared, seconds),
            name="plies-web-review",
            daemon=True,
        ).start()
        self.publish({"type": "review", "review": self.to_json()})

    def _run(
        self, start: Any, actions: list[Any], shared: SharedMemory | None, seconds: float
    ) -> None:
        try:
            with self.workload.slot(self.halt) as slotted:
                if not slotted:
                    return
                with lent_analyser(self.game, seconds, shared) as (name, analyse):
                    self.result = self._review(start, actions, analyse, name, seconds)
        except PliesError as error:
            self.error = str(error)
        finally:
            self.running = False
            self.publish({"type": "review", "review": self.to_json()})

    def _review(
        self, start: Any, actions: list[Any], analyse: Analyser, name: str, seconds: float
    ) -> Review:
        def progress(done: int, total: int) -> None:
            self.done = done
            self.publish({"type": "review", "review": self.to_json()})

        return review_game(
            self.game,
            start,
            actions,
            analyse,
            analyser=name,
            seconds=seconds,
            progress=progress,
            stop=self.halt,
        )

    def stop(self) -> None:
        """End a running review now (the game is dropped or started again)."""
        self.halt.set()

    def to_json(self) -> dict[str, Any] | None:
        """None when no review was asked; else its progress, and the review once done."""
        if not self.running and self.result is None and self.error is None:
            return None
        return {
            "running": self.running,
            "done": self.done,
            "total": self.total,
            "error": self.error,
            "result": None if self.result is None else asdict(self.result),
        }


def judged_now(
    game: Game[Any, Any],
    state: Any,
    workload: Workload,
    shared: SharedMemory | None,
    budgets: Budgets,
) -> tuple[str, Judgement]:
    """``state`` judged by the game's best analyser (and its name) within the think budget,
    in a thinker's slot (:class:`BusyError` when too many wait)."""
    check_reviewable(game)
    seconds = budgets.think_seconds
    with workload.slot(most_waiting=budgets.waiting_analyses) as slotted:
        if not slotted:
            raise BusyError("the server is busy: ask again in a moment", 5)
        with lent_analyser(game, seconds, shared) as (name, analyse):
            return name, analyse(state)


def hint_for(
    game: Game[Any, Any],
    state: Any,
    workload: Workload,
    shared: SharedMemory | None,
    budgets: Budgets,
) -> dict[str, Any]:
    """The analyser's best move in ``state`` and its score in words (:func:`judged_now`)."""
    name, judgement = judged_now(game, state, workload, shared, budgets)
    move = None if judgement.best is None else game.format_action(state, judgement.best)
    return {"move": move, "text": judgement.text, "analyser": name}
