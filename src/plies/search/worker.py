"""Compiled searches run in a worker thread while the caller's thread keeps the clock, the stop
event and Ctrl-C (a compiled loop releases the GIL but never looks at Python's signals)."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")

POLL_SECONDS = 0.005
"""How often the caller looks at a stop event while a compiled search runs."""


INLINE_SECONDS = 0.002
"""Work expected to take less than this runs in the caller's thread: a thread's start and
hand-over would cost more, and Ctrl-C or a stop waits at most that long."""


def run_stoppable(
    work: Callable[[], T],
    stop: Callable[[], None],
    deadline: float = float("inf"),
    event: threading.Event | None = None,
    expected: float = float("inf"),
) -> T:
    """``work()``'s result, computed in a worker thread; ``stop()`` (which must make the work
    end soon, from another thread) is called once ``time.perf_counter()`` reaches ``deadline``
    or ``event`` is set, and on any exception here (Ctrl-C) before it is raised again. Work
    ``expected`` to take under :data:`INLINE_SECONDS` runs here instead (it must keep to the
    deadline itself)."""
    results: list[T] = []
    failures: list[BaseException] = []

    def target() -> None:
        try:
            results.append(work())
        except BaseException as error:
            failures.append(error)

    def due() -> bool:
        return time.perf_counter() >= deadline or (event is not None and event.is_set())

    if due():
        stop()
    if expected < INLINE_SECONDS:
        return work()
    worker = threading.Thread(target=target, name="plies-native-search", daemon=True)
    worker.start()
    try:
        while worker.is_alive():
            if due():
                stop()
                worker.join()  # at once: never spin, which would keep the GIL from the worker
                break
            wait = POLL_SECONDS if event is not None else 0.1
            worker.join(max(0.0, min(wait, deadline - time.perf_counter())))
    except BaseException:
        stop()
        worker.join()
        raise
    if failures:
        raise failures[0]
    return results[0]
