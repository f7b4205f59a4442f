"""The one worker pool of every long job (tournaments, self-play, labelling, book and endgame
builds): tasks handed to workers a few at a time, results collected as they finish or in
order, on three back ends behind one interface.

- ``Pool(1)``: in this process (the setup runs here);
- ``Pool(N)``: N spawned processes on this machine, each with a pipe of its own;
- ``Pool(N, ray_address=...)``: N Ray actors of a cluster (one CPU each).

The task iterator is read lazily, ``in_flight`` tasks a worker at most (a bounded queue: a
million tasks cost no memory, and a task built late can depend on results already in). A
worker that dies (killed, out of memory, a node lost) is replaced and its tasks in flight are
handed out again; :data:`MOST_DEATHS` deaths in a row with nothing finished stop the run with a
:class:`PliesError`. An exception raised by a task is raised again in the driver. Closing the
pool (leaving its ``with`` block, Ctrl-C, SIGTERM, an error) ends every worker at once; a
worker also ends on its own once its driver is gone (``kill -9``: see
:func:`plies.processes.start_worker`). Resuming is the caller's: it skips the tasks whose
results it already saved.

Tasks and setup are plain module-level functions and picklable values: a worker in another
process, or on another machine, imports them by name.
"""

from __future__ import annotations

import contextlib
import itertools
import multiprocessing
import os
import pickle
import queue
import signal
import threading
import traceback
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from multiprocessing.connection import Connection, wait
from multiprocessing.process import BaseProcess
from multiprocessing.reduction import ForkingPickler
from types import FrameType
from typing import Any, TypeVar

from plies.errors import PliesError, SpecError
from plies.processes import check_ray_address, start_worker

Task = TypeVar("Task")
Result = TypeVar("Result")

MOST_DEATHS = 5
"""Worker deaths in a row, with no task finished between them, that stop a run."""

MAX_WORKERS = 256
"""The most workers a pool takes."""

STOP_SECONDS = 2.0
"""How long a stopped worker may take to end before it is killed."""


class Pool:
    """``workers`` workers (1: this process) running tasks, on this machine or, with
    ``ray_address``, on the Ray cluster there (``HOST:PORT``; ``auto``: the running one, else
    one started here; ``local``: one started here); None: one a CPU (of the cluster with
    ``ray_address``, known once the pool has started). ``setup(*setup_args)`` runs once in each
    worker before its first task (it readies what the tasks share, a solver say, in globals of
    its module). ``asked_as`` is the option that set ``workers``, named in errors."""

    def __init__(
        self,
        workers: int | None = 1,
        *,
        setup: Callable[..., None] | None = None,
        setup_args: tuple[Any, ...] = (),
        ray_address: str | None = None,
        in_flight: int = 2,
        asked_as: str = "--workers",
    ) -> None:
        if workers is None and ray_address is None:
            workers = os.cpu_count() or 1
        if workers is not None and not 1 <= workers <= MAX_WORKERS:
            raise SpecError(f"{asked_as} {workers}: give 1 to {MAX_WORKERS}")
        if in_flight < 1:
            raise SpecError(f"in_flight={in_flight}: give 1 or more")
        self.workers, self.in_flight, self.asked_as = workers, in_flight, asked_as
        self.setup, self.setup_args = setup, setup_args
        self.ray_address = ray_address
        self._backend: _Backend | None = None
        self._stack = contextlib.ExitStack()

    def __enter__(self) -> Pool:
        return self

    def __exit__(self, *exception: object) -> None:
        self.close()

    @property
    def here(self) -> bool:
        """Whether tasks run in this process."""
        return self.workers == 1 and self.ray_address is None

    @property
    def size(self) -> int:
        """The number of workers (for a cluster's one a CPU, known once started; 1 before)."""
        return self.workers or 1

    def results(
        self, function: Callable[[Task], Result], tasks: Iterable[Task]
    ) -> Iterator[tuple[int, Result]]:
        """``(index, function(task))`` for each task, as they finish (the index counts the
        tasks from 0). Stopping the iteration early ends the workers (a later call starts new
        ones)."""
        backend = self._started()
        finished = False
        try:
            yield from backend.results(function, enumerate(tasks), self.in_flight)
            finished = True
        finally:
            if not finished:
                self._stop()

    def ordered(
        self, function: Callable[[Task], Result], tasks: Iterable[Task]
    ) -> Iterator[Result]:
        """``function(task)`` for each task, in the tasks' order (results that finish early
        wait for the ones before them)."""
        waiting: dict[int, Result] = {}
        following = 0
        for index, result in self.results(function, tasks):
            waiting[index] = result
            while following in waiting:
                yield waiting.pop(following)
                following += 1

    def close(self) -> None:
        """End the workers now (tasks in flight are lost) and let go of the cluster."""
        self._stop()
        self._stack.close()

    def _started(self) -> _Backend:
        if self._backend is None:
            if self.ray_address is not None:
                ray = self._stack.enter_context(ray_cluster(self.ray_address))
                self._backend = _RayActors(ray, self)
            elif self.here:
                self._backend = _ThisProcess(self)
            else:
                self._stack.enter_context(_sigterm_interrupts())
                self._backend = _Processes(self)
        return self._backend

    def _stop(self) -> None:
        if self._backend is not None:
            self._backend.stop()
            self._backend = None


class _Backend:
    def results(
        self, function: Callable[[Any], Any], tasks: Iterator[tuple[int, Any]], in_flight: int
    ) -> Iterator[tuple[int, Any]]:
        raise NotImplementedError

    def stop(self) -> None:
        raise NotImplementedError


class _Deaths:
    """Worker deaths in a row (:data:`MOST_DEATHS`)."""

    def __init__(self) -> None:
        self.count = 0

    def died(self, why: str) -> None:
        self.count += 1
        if self.count >= MOST_DEATHS:
            raise PliesError(
                f"the workers died {self.count} times in a row without finishing a task "
                f"(the last: {why}): stopping; the finished work is kept"
            )

    def finished(self) -> None:
        self.count = 0


class _ThisProcess(_Backend):
    def __init__(self, pool: Pool) -> None:
        if pool.setup is not None:
            pool.setup(*pool.setup_args)

    def results(
        self, function: Callable[[Any], Any], tasks: Iterator[tuple[int, Any]], in_flight: int
    ) -> Iterator[tuple[int, Any]]:
        for index, task in tasks:
            yield index, function(task)

    def stop(self) -> None:
        pass


# Local processes -----------------------------------------------------------------------------


@dataclass
class _Seat:
    """A worker process, its end of the pipe, its tasks in flight by index, and the thread
    that writes them to the pipe (so the driver never waits on a worker reading its tasks)."""

    process: BaseProcess
    connection: Connection
    outbox: queue.SimpleQueue[bytes | memoryview | None] = field(default_factory=queue.SimpleQueue)
    tasks: dict[int, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        threading.Thread(target=self._send, name="plies-pool-feed", daemon=True).start()

    def give(self, index: int, function: Callable[[Any], Any], task: Any) -> None:
        """Hand the task over (pickled here: a task that does not pickle fails here)."""
        self.outbox.put(ForkingPickler.dumps((index, function, task)))
        self.tasks[index] = task

    def close(self) -> None:
        self.outbox.put(None)
        self.connection.close()

    def _send(self) -> None:
        while (message := self.outbox.get()) is not None:
            try:
                self.connection.send_bytes(message)
            except (OSError, ValueError):  # the worker or the pipe is gone
                return


class _Processes(_Backend):
    """Spawned processes, each served through a pipe (:func:`_serve`)."""

    def __init__(self, pool: Pool) -> None:
        self.pool = pool
        self.context = multiprocessing.get_context("spawn")
        self.seats = [self._seat() for _ in range(pool.size)]

    def _seat(self) -> _Seat:
        mine, theirs = self.context.Pipe()
        process = self.context.Process(
            target=_serve,
            args=(theirs, self.pool.setup, self.pool.setup_args),
            name="plies-worker",
            daemon=True,
        )
        process.start()
        theirs.close()
        return _Seat(process, mine)

    def results(
        self, function: Callable[[Any], Any], tasks: Iterator[tuple[int, Any]], in_flight: int
    ) -> Iterator[tuple[int, Any]]:
        again: deque[tuple[int, Any]] = deque()  # the tasks of dead workers, first served
        deaths = _Deaths()

        def fill(seat: _Seat) -> None:
            while len(seat.tasks) < in_flight:
                following = again.popleft() if again else next(tasks, None)
                if following is None:
                    return
                index, task = following
                seat.give(index, function, task)

        for seat in self.seats:
            fill(seat)
        while any(seat.tasks for seat in self.seats):
            watched = [s.connection for s in self.seats] + [s.process.sentinel for s in self.seats]
            ready = set(wait(watched))
            for number, seat in enumerate(self.seats):
                if seat.connection not in ready and seat.process.sentinel not in ready:
                    continue
                answers, alive = _answers(seat)
                for index, ok, value in answers:
                    del seat.tasks[index]
                    if not ok:
                        raise value
                    deaths.finished()
                    yield index, value
                if not alive:
                    again.extend(sorted(seat.tasks.items()))
                    seat.close()
                    code = seat.process.exitcode
                    self.seats[number] = seat = self._seat()
                    deaths.died(f"exit code {code}")
                fill(seat)

    def stop(self) -> None:
        for seat in self.seats:
            seat.process.terminate()
        for seat in self.seats:
            seat.process.join(STOP_SECONDS)
            if seat.process.is_alive():
                seat.process.kill()
                seat.process.join()
            seat.close()
        self.seats = []


def _answers(seat: _Seat) -> tuple[list[tuple[int, bool, Any]], bool]:
    """What ``seat``'s worker has sent, and whether it is still alive."""
    answers = []
    try:
        while seat.connection.poll():
            answer = seat.connection.recv()
            if answer[0] is None:  # the setup failed: nothing will work
                raise answer[2]
            answers.append(answer)
    except (EOFError, OSError):
        return answers, False
    return answers, seat.process.is_alive()


def _serve(
    connection: Connection, setup: Callable[..., None] | None, args: tuple[Any, ...]
) -> None:
    """A worker process: ready (:func:`~plies.processes.start_worker`, then ``setup``), then
    each ``(index, function, task)`` received answered with ``(index, ok, value)``."""
    start_worker()
    try:
        if setup is not None:
            setup(*args)
    except Exception as error:
        connection.send((None, False, _portable(error)))
        return
    while True:
        try:
            index, function, task = connection.recv()
        except (EOFError, OSError):  # the driver closed the pipe or is gone
            return
        try:
            answer = ForkingPickler.dumps((index, True, function(task)))
        except Exception as error:
            answer = ForkingPickler.dumps((index, False, _portable(error)))
        try:
            connection.send_bytes(answer)
        except OSError:  # the driver is gone (killed): nobody to tell
            return


def _portable(error: Exception) -> Exception:
    """``error`` as it can travel back to the driver: itself with its traceback as a note,
    or a :class:`PliesError` saying what it was where it does not pickle."""
    where = "".join(traceback.format_exception(error)).rstrip()
    try:
        pickle.loads(pickle.dumps(error))
    except Exception:
        return PliesError(f"a worker failed: {type(error).__name__}: {error}\n{where}")
    error.add_note(f"in the worker:\n{where}")
    return error


@contextlib.contextmanager
def _sigterm_interrupts() -> Iterator[None]:
    """SIGTERM raises :class:`KeyboardInterrupt` in the main thread for the block, as Ctrl-C
    does, so the workers end and the finished work is kept (only where SIGTERM would kill the
    process at once: a handler someone installed stays)."""
    main = threading.current_thread() is threading.main_thread()
    if not main or signal.getsignal(signal.SIGTERM) is not signal.SIG_DFL:
        yield
        return

    def interrupt(signum: int, frame: FrameType | None) -> None:
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)


# Ray ------------------------------------------------------------------------------------------


class PoolWorker:
    """A Ray actor: ``setup`` once, then tasks."""

    def __init__(self, setup: Callable[..., None] | None, args: tuple[Any, ...]) -> None:
        if setup is not None:
            setup(*args)

    def run(self, function: Callable[[Any], Any], task: Any) -> Any:
        return function(task)


class _RayActors(_Backend):
    """Actors of one CPU each, spread over the cluster's nodes."""

    def __init__(self, ray: Any, pool: Pool) -> None:
        cpus = int(ray.cluster_resources().get("CPU", 0))
        pool.workers = pool.workers or max(1, cpus)
        if pool.workers > cpus:
            raise SpecError(
                f"the Ray cluster has {cpus} CPUs: give {pool.asked_as} {cpus} or fewer "
                "(an actor takes one)"
            )
        self.ray, self.pool = ray, pool
        self.remote = ray.remote(num_cpus=1)(PoolWorker)
        self.actors = [self._actor() for _ in range(pool.workers)]

    def _actor(self) -> Any:
        spread = self.remote.options(scheduling_strategy="SPREAD")
        return spread.remote(self.pool.setup, self.pool.setup_args)

    def results(
        self, function: Callable[[Any], Any], tasks: Iterator[tuple[int, Any]], in_flight: int
    ) -> Iterator[tuple[int, Any]]:
        ray = self.ray
        again: deque[tuple[int, Any]] = deque()
        running: dict[Any, tuple[int, Any, Any]] = {}  # reference: index, task, actor
        deaths = _Deaths()

        def send(actor: Any) -> None:
            following = again.popleft() if again else next(tasks, None)
            if following is not None:
                index, task = following
                running[actor.run.remote(function, task)] = (index, task, actor)

        for actor, _ in itertools.product(self.actors, range(in_flight)):
            send(actor)
        while running:
            [ready], _ = ray.wait(list(running), num_returns=1)
            index, task, actor = running.pop(ready)
            try:
                result = ray.get(ready)
            except ray.exceptions.RayTaskError as error:  # the task failed, not the worker
                cause = error.cause if isinstance(error.cause, BaseException) else error
                raise cause from None
            except ray.exceptions.RayError as error:  # the actor or its node died
                again.append((index, task))
                if actor in self.actors:  # the first word of its death
                    deaths.died(str(error).splitlines()[0])
                    replacement = self._actor()
                    self.actors[self.actors.index(actor)] = replacement
                    for _ in range(in_flight):
                        send(replacement)
                continue
            deaths.finished()
            send(actor)
            yield index, result

    def stop(self) -> None:
        for actor in self.actors:
            self.ray.kill(actor)
        self.actors = []


@contextlib.contextmanager
def ray_cluster(address: str) -> Iterator[Any]:
    """This process connected to the Ray cluster at ``address`` (``HOST:PORT``; ``auto``: the
    running one, else one started here; ``local``: one started here) for the block, unless it
    already is; a :class:`SpecError` saying why it cannot be. A front end enters it before any
    work, so a bad address is told first."""
    ray = _import_ray()
    if ray.is_initialized():
        yield ray
        return
    check_ray_address(address)
    try:
        if address == "local":
            _start_here(ray)
        else:
            try:
                here = address.startswith(("127.", "localhost:"))  # a cluster on loopback
                with ray_on_loopback() if here else contextlib.nullcontext():
                    ray.init(address=address, logging_level="ERROR", log_to_driver=False)
            except ConnectionError:
                if address != "auto":
                    raise
                _start_here(ray)  # none running
    except (ConnectionError, RuntimeError, ValueError) as error:
        why = str(error).split(". ")[0].rstrip(".")
        raise SpecError(
            f"cannot reach the Ray cluster at {address!r}: {why} (start one with "
            "'ray start --head', or use --ray local)"
        ) from None
    try:
        yield ray
    finally:
        ray.shutdown()


def _start_here(ray: Any) -> None:
    """A Ray cluster of this machine alone for this process (:func:`ray_on_loopback`)."""
    with ray_on_loopback():
        ray.init(address="local", logging_level="ERROR", log_to_driver=False)


@contextlib.contextmanager
def ray_on_loopback() -> Iterator[None]:
    """Ray clusters started in the block keep every service on 127.0.0.1, and drivers that
    connect in it join such a cluster there (outside it a driver takes the machine's address,
    which the cluster does not know, and waits forever). Nothing else needs to reach a
    cluster of this machine alone, and on machines whose own address does not answer (a
    container's) a cluster on that address never starts. Ray's switch for this is the
    environment variable ``RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER=0`` (the processes a cluster
    starts inherit it), which Ray reads into its constants when it is imported; both are set
    for the block and restored after it."""
    ray = _import_ray()
    switch, constants = "RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER", ray._private.ray_constants
    was = os.environ.get(switch), constants.ENABLE_RAY_CLUSTER
    os.environ[switch], constants.ENABLE_RAY_CLUSTER = "0", False
    try:
        yield
    finally:
        constants.ENABLE_RAY_CLUSTER = was[1]
        if was[0] is None:
            del os.environ[switch]
        else:
            os.environ[switch] = was[0]


def _import_ray() -> Any:
    try:
        import ray
    except ImportError:
        raise SpecError("--ray needs Ray: pip install 'plies[distributed]'") from None
    return ray
