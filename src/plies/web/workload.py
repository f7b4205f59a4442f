"""The server's budgets: how much heavy work runs at once, how long a move or an analysis may
think, how long an unwatched game lives, how many games a client may start a minute.

Heavy work (agents thinking, analyses) runs in at most :attr:`Budgets.thinkers` threads at
once, first come first served (:class:`Workload`); light requests (pages, game lists, a
person's move) never wait for it. Analyses are refused with a "busy, try again in N s" answer
when too many wait; agents queue, and a session's game only moves on while someone watches it
(:mod:`plies.web.sessions`). Nothing here imports FastAPI.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import gc
import math
import os
import sys
import threading
import time
from collections import deque
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass

from plies.errors import BusyError, PliesError, RateLimitError


def _cores() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


@dataclass(frozen=True)
class Budgets:
    """The server's limits (``plies serve`` options of the same names)."""

    think_seconds: float = 5.0
    """The longest a web agent thinks on a move: an agent spec that asks for more is refused;
    an agent limited otherwise (depth, nodes, simulations) is stopped then and plays its best
    move so far."""
    analysis_seconds: float = 60.0
    """The longest an analysis may be given (the Analyse page offers up to 60 s)."""
    thinkers: int = max(2, _cores())
    """Agents' moves and analyses computed at once; the rest wait their turn."""
    waiting_analyses: int = 8
    """Analyses that may wait for a thinker; past them, an analysis is answered 503 busy."""
    idle_minutes: float = 30.0
    """A session nobody has looked at for this long (no request, no live page) is dropped."""
    watch_seconds: float = 20.0
    """A game between agents moves on while a page follows it live, or for this long after a
    request about it; then it pauses (nobody is watching) until the next."""
    new_games_per_minute: int = 60
    """Games one client address may start a minute (as many at once); past it, 429."""
    max_sessions: int = 512
    """Sessions kept at once: past it, the least recently used that nobody watches is
    dropped, and when everyone is watching, a new game is refused (503)."""


class _Ticket:
    """A job's place in the queue: woken when it is given a slot (``granted``) or told to
    stop."""

    def __init__(self, stop: threading.Event | None) -> None:
        self.stop = stop
        self.granted = False
        self.wake = threading.Event()


class Workload:
    """At most ``slots`` heavy jobs run at once; the others wait in one queue, first come
    first served (an agent that has moved goes to the back: sessions take turns). A freed slot
    is handed to the first in the queue, which alone is woken: hundreds of waiting jobs cost
    nothing while they wait."""

    STOP_LOOK_SECONDS = 1.0
    """How often a waiting job looks at its stop flag, should it be set without
    :meth:`interrupt` (which wakes it at once)."""

    def __init__(self, slots: int, think_seconds: float) -> None:
        self.slots, self.think_seconds = slots, think_seconds
        self.running = 0
        self._queue: deque[_Ticket] = deque()
        self._lock = threading.Lock()

    def waiting(self) -> int:
        """Jobs waiting for a slot."""
        with self._lock:
            return len(self._queue)

    def retry_after(self, ahead: int) -> float:
        """A guess of the seconds until a job behind ``ahead`` others starts (each job counted
        at half the longest a move may take)."""
        return max(1.0, math.ceil((ahead + 1) / self.slots * self.think_seconds / 2))

    def check_room(self, most_waiting: int) -> None:
        """:class:`BusyError` when every slot is taken and ``most_waiting`` jobs wait."""
        with self._lock:
            self._check_room(most_waiting)

    def _check_room(self, most_waiting: int) -> None:
        ahead = len(self._queue)
        if self.running >= self.slots and ahead >= most_waiting:
            seconds = self.retry_after(ahead)
            raise BusyError(
                f"the server is busy ({self.running} searches running, {ahead} waiting): "
                f"try again in {seconds:g} s",
                seconds,
            )

    def interrupt(self, stop: threading.Event) -> None:
        """Set ``stop`` and wake the job waiting with it, if one is (it leaves the queue)."""
        stop.set()
        with self._lock:
            for ticket in self._queue:
                if ticket.stop is stop:
                    ticket.wake.set()

    @contextmanager
    def slot(
        self, stop: threading.Event | None = None, most_waiting: int | None = None
    ) -> Iterator[bool]:
        """Wait for a slot and hold it for the ``with`` block (which gets True); ``stop`` set
        while waiting gives up the wait (the block gets False and holds no slot: the job is
        to end at once); ``most_waiting``: refuse (:class:`BusyError`) rather than queue
        behind that many."""
        ticket = _Ticket(stop)
        with self._lock:
            if most_waiting is not None:
                self._check_room(most_waiting)
            self._queue.append(ticket)
            self._hand_over()
        while True:
            with self._lock:
                if ticket.granted:
                    break
                if stop is not None and stop.is_set():
                    self._queue.remove(ticket)
                    break
                ticket.wake.clear()
            ticket.wake.wait(None if stop is None else self.STOP_LOOK_SECONDS)
        try:
            yield ticket.granted
        finally:
            if ticket.granted:
                with self._lock:
                    self.running -= 1
                    self._hand_over()

    def _hand_over(self) -> None:
        """Give the free slots to the first in the queue (under the lock)."""
        while self.running < self.slots and self._queue:
            first = self._queue.popleft()
            first.granted = True
            self.running += 1
            first.wake.set()


class NewGameLimit:
    """Each client address starts at most ``per_minute`` games a minute, as many at once (a
    token bucket that refills at ``per_minute / 60`` a second)."""

    KEPT = 10_000
    """Addresses remembered at most (full buckets are forgotten first)."""

    def __init__(self, per_minute: int) -> None:
        self.per_minute = per_minute
        self._buckets: dict[str, tuple[float, float]] = {}
        self._lock = threading.Lock()

    def take(self, client: str) -> None:
        """Count a new game of ``client``, or :class:`RateLimitError` when it has none left."""
        now, rate = time.monotonic(), self.per_minute / 60
        with self._lock:
            tokens, then = self._buckets.get(client, (float(self.per_minute), now))
            tokens = min(float(self.per_minute), tokens + (now - then) * rate)
            if tokens < 1:
                wait = math.ceil((1 - tokens) / rate)
                raise RateLimitError(
                    f"too many new games from {client}: at most {self.per_minute} a minute "
                    f"here; try again in {wait} s",
                    wait,
                )
            self._buckets[client] = (tokens - 1, now)
            if len(self._buckets) > self.KEPT:
                self._forget_full(now, rate)

    def _forget_full(self, now: float, rate: float) -> None:
        self._buckets = {
            client: (tokens, then)
            for client, (tokens, then) in self._buckets.items()
            if tokens + (now - then) * rate < self.per_minute
        }


def _libc() -> ctypes.CDLL | None:
    name = ctypes.util.find_library("c")
    return None if name is None else ctypes.CDLL(name)


def give_memory_back() -> None:
    """Return freed heap memory to the system where the C library can (glibc's
    ``malloc_trim``), so that the process's size falls once dropped sessions are freed."""
    trim = getattr(_libc(), "malloc_trim", None)
    if trim is not None:
        trim(0)


SWITCH_SECONDS = 0.001
"""How long a thread runs Python before the interpreter offers the others their turn (Python's
default is 5 ms): a thinking agent then holds up a request a fifth as long (measured under
load: the light requests' mean time fell by a third)."""


def prepare_server_process() -> None:
    """Settings of a server's process: few C heaps (:func:`few_heaps`), quick turns between
    threads (:data:`SWITCH_SECONDS`), the libraries frozen out of garbage collection
    (:func:`freeze_libraries`)."""
    few_heaps()
    sys.setswitchinterval(SWITCH_SECONDS)
    freeze_libraries()


def freeze_libraries() -> None:
    """Build every registered game and a learned agent now (importing their libraries: chess,
    PyTorch, the compiled kernels), then move every object alive into the garbage collector's
    permanent generation (:func:`gc.freeze`): its full collections then walk only what the
    sessions make, not the libraries' few hundred thousand objects (measured at 400 sessions:
    the longest pause went from 377 ms to 32 ms)."""
    from plies.agents import make_agent
    from plies.capabilities import HasTensorEncoding
    from plies.registry import make_game, registered_games

    games = [make_game(name) for name in registered_games()]
    learnable = [game for game in games if isinstance(game, HasTensorEncoding)]
    for game in learnable[:1]:  # the first game a network plays loads PyTorch
        with suppress(PliesError):  # no PyTorch: no learned agents
            make_agent("az:simulations=1", game)
    gc.collect()
    gc.freeze()


M_ARENA_MAX = -8
"""glibc's ``mallopt`` parameter for the most heaps (arenas) its allocator keeps."""


def few_heaps(arenas: int = 2) -> None:
    """Have the C library (glibc) keep at most ``arenas`` heaps: a server whose threads come
    and go otherwise spreads its memory over a heap per thread, where freed memory stays."""
    mallopt = getattr(_libc(), "mallopt", None)
    if mallopt is not None:
        mallopt(M_ARENA_MAX, arenas)
