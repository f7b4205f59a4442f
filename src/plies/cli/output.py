"""What every command shares: formatting, JSON, progress bars and the Ctrl-C rule.

Ctrl-C during long work is caught where the work runs (:func:`until_interrupted`); the command
then prints what was done and ends with :func:`exit_interrupted` (a line on stderr, status 130).
"""

from __future__ import annotations

import importlib
import json
import math
import signal
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NoReturn, TypeVar

import click
from rich.console import Console
from rich.progress import Progress, ProgressColumn, TaskID

from plies.capabilities import HasPositionNotation, require
from plies.errors import OutputError, PliesError, SpecError
from plies.game import Game
from plies.inputs import check_output
from plies.registry import make_game
from plies.search import SearchResult
from plies.spec import NumberRange

F = TypeVar("F", bound=Callable[..., Any])


class Number(click.ParamType[float, Any]):
    """A command-line number checked as every number a user gives is (:mod:`plies.spec`)."""

    def __init__(self, allowed: NumberRange) -> None:
        self.allowed = allowed
        self.name = "integer" if allowed.integer else "number"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if isinstance(value, int | float):
            return value
        what = param.opts[0] if param is not None and param.opts else "the value"
        try:
            number: float = int(value) if self.allowed.integer else float(value)
        except ValueError:
            self.fail(f"{value!r} is not a valid {self.name}", param, ctx)
        try:
            return self.allowed.check(what, number)
        except SpecError as error:
            self.fail(str(error), param, ctx)


class OutputPath(click.ParamType[Path, Any]):
    """Where a command writes a file (or a ``folder``), checked as the command line is read,
    before any work (:func:`plies.inputs.check_output`, the one check every output option
    shares); ``make_parents`` where the writer makes the folders missing above the file."""

    def __init__(self, folder: bool = False, make_parents: bool = False) -> None:
        self.folder = folder
        self.make_parents = make_parents
        self.name = "folder" if folder else "file"

    def get_metavar(self, param: click.Parameter, ctx: click.Context) -> str:
        return "DIR" if self.folder else "FILE"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Path:
        try:
            return check_output(value, folder=self.folder, make_parents=self.make_parents)
        except OutputError as error:
            self.fail(str(error), param, ctx)


def ray_option(work: str, note: str = "") -> Callable[[F], F]:
    """The ``--ray ADDRESS`` option of a long command: ``work`` done in Ray actors of a
    cluster (:class:`plies.pool.Pool`); the command checks the address before any work
    (:func:`plies.processes.check_ray_address`)."""
    return click.option(
        "--ray",
        "ray_address",
        metavar="ADDRESS",
        help=f"{work} in --workers Ray actors of the cluster at ADDRESS (HOST:PORT; auto: the "
        f"running one, else one started here; local: one started here).{note}",
    )


def console() -> Console:
    """Standard output as Rich sees it: no highlighting, lines never wrapped."""
    return Console(highlight=False, soft_wrap=True)


def plural(count: int, word: str, words: str | None = None) -> str:
    """``1 node``, ``2,048 nodes``."""
    return f"{count:,} {word if count == 1 else words or word + 's'}"


def echo_json(data: dict[str, Any]) -> None:
    """One JSON object on standard output."""
    click.echo(json.dumps(data))


def json_number(value: float) -> float | None:
    """A float for JSON: NaN (no score yet) becomes null."""
    return None if math.isnan(value) else round(value, 6)


LOG_EVERY = 60.0
"""Seconds between two progress lines of a task when stderr is not a terminal."""


class _Progress(Progress):
    """Rich's progress bar; where stderr is not a terminal (a log file, a ``nohup`` run), a
    plain line per task at most every :data:`LOG_EVERY` seconds instead."""

    def __init__(self, *columns: str | ProgressColumn) -> None:
        self.logging = not sys.stderr.isatty()
        super().__init__(*columns, console=Console(stderr=True), transient=True,
                         disable=self.logging)  # fmt: skip
        self.logged: dict[TaskID, float] = {}

    def update(self, task_id: TaskID, **fields: Any) -> None:
        super().update(task_id, **fields)
        self._log(task_id)

    def advance(self, task_id: TaskID, advance: float = 1) -> None:
        super().advance(task_id, advance)
        self._log(task_id)

    def _log(self, task_id: TaskID) -> None:
        now = time.monotonic()
        if not self.logging or now - self.logged.setdefault(task_id, now) < LOG_EVERY:
            return
        self.logged[task_id] = now
        task = self._tasks[task_id]
        total = "" if task.total is None else f" of {task.total:,.0f}"
        elapsed = task.elapsed or 0.0
        print(f"{task.description}: {task.completed:,.0f}{total}, {elapsed:,.0f} s",
              file=sys.stderr, flush=True)  # fmt: skip


def progress_bar(*columns: str | ProgressColumn) -> Progress:
    """A transient progress bar on stderr where stderr is a terminal, else a line a minute
    (:class:`_Progress`)."""
    return _Progress(*columns)


@dataclass
class Interruption:
    """Whether Ctrl-C ended the work inside :func:`until_interrupted`."""

    happened: bool = False


def _interrupt(signum: int, frame: Any) -> None:
    raise KeyboardInterrupt


@contextmanager
def until_interrupted(terminate: bool = False) -> Iterator[Interruption]:
    """Run the block until it ends or Ctrl-C stops it; what it did so far stays usable. With
    ``terminate``, SIGTERM (``kill``, a job scheduler, a background job, which ignores Ctrl-C)
    stops it the same way."""
    interruption = Interruption()
    previous = signal.signal(signal.SIGTERM, _interrupt) if terminate else None
    try:
        yield interruption
    except KeyboardInterrupt:
        interruption.happened = True
    finally:
        if terminate:
            signal.signal(signal.SIGTERM, previous)


def exit_interrupted(message: str) -> NoReturn:
    """Say what an interruption left (``plies: interrupted; ...``) and exit with status 130."""
    click.echo(f"plies: interrupted; {message}", err=True)
    sys.exit(130)


def game_and_state(spec: str, position: str | None) -> tuple[Game[Any, Any], Any]:
    """The game a spec names and its initial state, or ``position`` read in its notation."""
    game = make_game(spec)
    return game, game.initial_state() if position is None else read_position(game, position)


def read_position(game: Game[Any, Any], position: str) -> Any:
    """``position`` read in the game's notation."""
    return require(game, HasPositionNotation, "reading a position").parse_position(position)


def position_text(game: Game[Any, Any], state: Any) -> str:
    """The state in the game's position notation, else its repr."""
    return game.format_position(state) if isinstance(game, HasPositionNotation) else repr(state)


def search_summary(result: SearchResult[Any]) -> str:
    """``N nodes, N leaves, N cutoffs, T s (R nodes/s)``; for searches that count iterations
    (MCTS, az) ``N iterations, N nodes, N evaluations, T s (R iterations/s)``; ``no search,
    T s`` for an answer that searched nothing (an endgame database's)."""
    stats = result.stats
    if stats.iterations:
        per_second = stats.iterations / stats.time if stats.time > 0 else 0.0
        return (
            f"{plural(stats.iterations, 'iteration')}, {plural(stats.nodes, 'node')}, "
            f"{plural(stats.leaves, 'evaluation')}, "
            f"{stats.time:.3f} s ({per_second:,.0f} iterations/s)"
        )
    if stats.nodes == 0:  # answered without a search (an endgame database)
        return f"no search, {stats.time:.3f} s"
    rate = stats.nodes / stats.time if stats.time > 0 else 0.0
    return (
        f"{plural(stats.nodes, 'node')}, {plural(stats.leaves, 'leaf', 'leaves')}, "
        f"{plural(stats.cutoffs, 'cutoff')}, "
        f"{stats.time:.3f} s ({rate:,.0f} nodes/s)"
    )


def learning_module(name: str, purpose: str) -> Any:
    """The module ``plies.learn.NAME``, or a one-line error saying that ``purpose`` needs
    PyTorch (the extra ``learn``) when it is not installed."""
    try:
        return importlib.import_module(f"plies.learn.{name}")
    except ImportError as error:
        if error.name is not None and not error.name.startswith("torch"):
            raise
        raise PliesError(f"{purpose} needs PyTorch: pip install 'plies[learn]'") from None
