"""Endgame databases on disk: the classes solved by retrograde analysis
(:mod:`plies.solvers.retrograde`), a file each, probed by position.

A database is a folder of one NumPy ``.npz`` file per class (``1.0-0.1_3.0.npz`` for checkers'
black man on its third row against a white king: a sub-database), each holding:

- ``outcomes``: the outcome of every position for its side to move in 2 bits (four positions a
  byte, the first in the low bits: 1 win, 2 loss, 3 draw);
- ``distances``: the plies to the end of each win or loss with perfect play (``uint8``, or
  ``uint16`` where a distance exceeds 254; the largest value for a draw); optional;
- ``meta``: a JSON text with the format, the game's identity, the class and the positions.

Files are written whole and renamed into place, so a build stopped by Ctrl-C or kill -9 keeps
every class it finished, and a rerun goes on from them. A probe reads a class's file when it
first needs it; a file that is missing, truncated or foreign is reported once (``problems``)
and the class treated as absent, so an engine plays on without it.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
import time
import zipfile
from collections.abc import Generator, Hashable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from plies.capabilities import (
    DRAW,
    LOSS,
    OPEN,
    WIN,
    HasCompiledEndgames,
    HasDrawCount,
    HasPackedEndgames,
    HasPositionClasses,
    HasShippedEndgames,
    optional,
    require,
)
from plies.errors import EndgameError
from plies.game import Game
from plies.inputs import write_atomically
from plies.pool import Pool
from plies.registry import game_identity, game_spec, make_game
from plies.solvers.retrograde import NO_DISTANCE, Solved, Tables, end_outcome, solve_class

FORMAT = "plies-endgame-1"
BYTES_A_POSITION = 1.25
"""Disk a position may take before compression: 2 bits of outcome and a byte of distance."""
POSITIONS_A_SECOND = 175_000
"""Positions a second one process solves (checkers' five pieces by slices, compiled moves, on
a 2-core machine): the time estimate's rate, whatever the workers (two made about 205,000 a
second there, not twice as many: the estimate errs long)."""
BYTES_A_SOLVED_POSITION = 300
"""Memory a class's solve takes a position at its peak (the graph of its moves and the rounds'
arrays; checkers' largest five-piece slice, 4.0 million positions, peaked at 1.18 GB)."""
MAX_COMPILED_SIZE = 4
"""The largest size whose tables the compiled engine holds in memory (four checkers pieces:
about 30 MB; five would take about 600 MB in every process, so a five-piece position is
answered at the root, or by the Python engine's probes, which read classes as needed)."""
ENDGAMES = "PLIES_ENDGAMES"
"""The environment variable naming where databases are built and found (a folder per game)."""
DEFAULT_ENDGAMES = "~/.local/share/plies/endgames"


def default_folder(game: Game[Any, Any]) -> Path:
    """Where ``game``'s databases are built and found unless told otherwise:
    ``$PLIES_ENDGAMES/<game>`` (``~/.local/share/plies/endgames/<game>`` by default)."""
    return Path(os.environ.get(ENDGAMES, DEFAULT_ENDGAMES)).expanduser() / game.name


def endgames_for(game: Game[Any, Any], folders: Sequence[Path] = ()) -> Endgames:
    """``game``'s databases in ``folders``, then where builds go (:func:`default_folder`),
    then those shipped with the game: one :class:`Endgames` a process for the same game and
    folders, so every agent shares the tables it has read."""
    shipped = optional(game, HasShippedEndgames)
    found = [*folders, default_folder(game)]
    if shipped is not None:
        found.append(shipped.shipped_endgames())
    return _shared_endgames(game_identity(game), type(game), tuple(found), game)


_SHARED: dict[tuple[str, type, tuple[Path, ...]], Endgames] = {}


def _shared_endgames(
    identity: str, kind: type, folders: tuple[Path, ...], game: Game[Any, Any]
) -> Endgames:
    key = (identity, kind, folders)
    if key not in _SHARED:
        _SHARED[key] = Endgames(game, folders)
    return _SHARED[key]


def class_file(folder: Path, position_class: Hashable) -> Path:
    return folder / f"{position_class}.npz"


def pack(outcomes: np.ndarray) -> np.ndarray:
    """Outcomes (0..3) four to a byte, the first in the low bits."""
    padded = np.zeros(-(-len(outcomes) // 4) * 4, np.uint8)
    padded[: len(outcomes)] = outcomes
    quads = padded.reshape(-1, 4)
    packed: np.ndarray = quads[:, 0] | quads[:, 1] << 2 | quads[:, 2] << 4 | quads[:, 3] << 6
    return packed


def unpack(packed: np.ndarray, count: int) -> np.ndarray:
    """The outcomes :func:`pack` packed."""
    shifts = np.array([0, 2, 4, 6], np.uint8)
    outcomes: np.ndarray = ((packed[:, None] >> shifts) & 3).reshape(-1)[:count]
    return outcomes


def save_class(
    game: Game[Any, Any],
    folder: Path,
    position_class: Hashable,
    solved: Solved,
    distances: bool = True,
) -> Path:
    """Write ``position_class``'s solved table into ``folder`` (atomically)."""
    arrays: dict[str, Any] = {"outcomes": pack(solved.outcomes)}
    if distances:
        top = int(solved.distances.max(initial=0))
        kind = np.uint8 if top < np.iinfo(np.uint8).max else np.uint16
        none = np.iinfo(kind).max
        arrays["distances"] = np.where(solved.outcomes == DRAW, none, solved.distances).astype(kind)
    meta = {
        "format": FORMAT,
        "game": game_identity(game),
        "class": str(position_class),
        "positions": len(solved.outcomes),
    }
    arrays["meta"] = np.frombuffer(json.dumps(meta).encode(), np.uint8)
    path = class_file(folder, position_class)

    def write(stream: Any) -> None:
        np.savez_compressed(stream, **arrays)

    write_atomically(path, write)
    return path


def load_class(game: Game[Any, Any], path: Path, position_class: Hashable) -> Solved:
    """The table of ``position_class`` in ``path``; :class:`EndgameError` naming what is wrong
    with a file that is unreadable, truncated, foreign or of another class."""
    try:
        with np.load(path) as arrays:
            found = {name: arrays[name] for name in arrays.files}
    except (OSError, ValueError, zipfile.BadZipFile, EOFError) as error:
        raise EndgameError(f"{str(path)!r} is not a readable endgame table ({error})") from None
    return class_table(game, str(path), position_class, found)


def class_table(
    game: Game[Any, Any], name: str, position_class: Hashable, arrays: Mapping[str, Any]
) -> Solved:
    """The table of ``position_class`` from the arrays of its file (or of its part of a pack,
    :class:`~plies.capabilities.HasPackedEndgames`) named ``name``; :class:`EndgameError` as
    :func:`load_class`."""
    classes = require(game, HasPositionClasses, "an endgame database")
    try:
        meta = json.loads(bytes(arrays["meta"]).decode())
        packed = arrays["outcomes"]
        stored = arrays.get("distances")
    except (ValueError, KeyError) as error:
        raise EndgameError(f"{name!r} is not a readable endgame table ({error})") from None
    if meta.get("format") != FORMAT or meta.get("game") != game_identity(game):
        raise EndgameError(f"{name!r} is not a {game_identity(game)} endgame table")
    positions = classes.class_positions(position_class)
    if meta.get("class") != str(position_class) or meta.get("positions") != positions:
        raise EndgameError(
            f"{name!r} holds {meta.get('class')} ({meta.get('positions')} positions), "
            f"not {position_class} ({positions})"
        )
    if len(packed) * 4 < positions or (stored is not None and len(stored) != positions):
        raise EndgameError(f"{name!r} is truncated")
    outcomes = unpack(packed, positions)
    if stored is None:
        found = np.full(positions, NO_DISTANCE, np.int32)
    else:
        found = np.where(outcomes == DRAW, NO_DISTANCE, stored.astype(np.int32))
    if (outcomes == OPEN).any():
        raise EndgameError(f"{name!r} leaves positions undecided")
    return Solved(outcomes, found, 0)


class Endgames:
    """The endgame databases of ``game`` in ``folders`` (the first holding a class wins: its
    own file, else a pack holding it, :class:`~plies.capabilities.HasPackedEndgames`), probed
    by position: :meth:`probe`. Classes load when first probed; a file that cannot be used is
    named once in :attr:`problems` and left out."""

    def __init__(self, game: Game[Any, Any], folders: Iterable[Path]) -> None:
        self.game = game
        self.classes = require(game, HasPositionClasses, "an endgame database")
        self.folders = [Path(f) for f in folders]
        self.tables: dict[Hashable, Solved | None] = {}
        self.problems: list[str] = []
        self.probes = 0
        self.packed: tuple[Any, ...] | None = None

    def table(self, position_class: Hashable) -> Solved | None:
        """The solved table of ``position_class``, or None where no usable file holds it."""
        if position_class not in self.tables:
            found = None
            for folder in self.folders:
                try:
                    found = self._load(folder, position_class)
                except EndgameError as error:
                    self.problems.append(str(error))
                    continue
                if found is not None:
                    break
            self.tables[position_class] = found
        return self.tables[position_class]

    def _load(self, folder: Path, position_class: Hashable) -> Solved | None:
        """``position_class``'s table from its file in ``folder``, else from a pack there."""
        path = class_file(folder, position_class)
        if path.is_file():
            return load_class(self.game, path, position_class)
        packs = optional(self.game, HasPackedEndgames)
        packed = None if packs is None else packs.packed_endgame(folder, position_class)
        if packed is None:
            return None
        pack, arrays = packed
        return class_table(self.game, f"{pack}:{position_class}", position_class, arrays)

    def probe(self, state: Any) -> tuple[int, int] | None:
        """The outcome of ``state`` for its side to move (``WIN``, ``LOSS``, ``DRAW``) and its
        distance (:data:`~plies.solvers.retrograde.NO_DISTANCE` for a draw or where none is
        stored), or None where the databases do not hold it."""
        try:
            position_class = self.classes.position_class(state)
        except ValueError:
            return None
        table = self.table(position_class)
        if table is None:
            return None
        number = self.classes.position_number(position_class, state)
        self.probes += 1
        return int(table.outcomes[number]), int(table.distances[number])

    def trusted(self, state: Any) -> tuple[int, int] | None:
        """:meth:`probe`'s answer where it holds under the game's rules as they are played: a
        win or loss whose distance is known and shorter than the plies its draw count leaves
        (:class:`~plies.capabilities.HasDrawCount`), or a draw; else None."""
        probed = self.probe(state)
        if probed is None or probed[0] == DRAW:
            return probed
        counted = optional(self.game, HasDrawCount)
        if probed[1] == NO_DISTANCE or (
            counted is not None and probed[1] >= counted.plies_to_draw(state)
        ):
            return None
        return probed

    def compiled(self) -> tuple[Any, ...] | None:
        """The tables as the compiled engine probes them (every class of the sizes held whole,
        from one piece up), made once; None where the game has no compiled probe or no size is
        held whole."""
        packer = optional(self.game, HasCompiledEndgames)
        if packer is None:
            return None
        if self.packed is None:
            size = 0
            while size < MAX_COMPILED_SIZE and all(
                self.table(c) is not None for c in self.classes.position_classes(size + 1)
            ):
                size += 1
            self.packed = () if size == 0 else packer.compiled_endgames(self.table, size)
        return self.packed or None

    def best_moves(self, state: Any) -> list[Any]:
        """The moves that keep ``state``'s outcome (at its distance where one is stored): the
        quickest wins, the longest defences, every drawing move; empty where the databases do
        not hold ``state`` or a child."""
        probed = self.probe(state)
        if probed is None:
            return []
        outcome, distance = probed
        wanted = {WIN: LOSS, LOSS: WIN, DRAW: DRAW}[outcome]
        game, chosen = self.game, []
        for action in game.actions(state):
            child = game.result(state, action)
            found = (end_outcome(game, child), 0) if game.is_terminal(child) else self.probe(child)
            if found is None:
                return []
            if found[0] == wanted and (
                distance == NO_DISTANCE or outcome == DRAW or found[1] == distance - 1
            ):
                chosen.append(action)
        return chosen


@dataclass(frozen=True)
class BuildStep:
    """A build's progress: the class just finished (and whether it was on disk already), the
    positions done of all, and the seconds so far."""

    position_class: Hashable
    reused: bool
    done: int
    total: int
    seconds: float


@dataclass(frozen=True)
class BuildPlan:
    """What a build of every class up to ``size`` takes: the classes, positions, disk (an
    upper bound, before compression), an estimate of the time for those not built yet and of
    the memory at the peak (the largest classes being solved at once)."""

    classes: list[Hashable]
    positions: int
    to_build: int
    disk_bytes: int
    seconds: float
    memory_bytes: int = 0


def plan_build(game: Game[Any, Any], size: int, folder: Path, workers: int = 1) -> BuildPlan:
    """The classes of sizes 1 to ``size``, and what building those missing from ``folder`` in
    ``workers`` processes takes."""
    classes = require(game, HasPositionClasses, "an endgame database")
    chosen = [c for s in range(1, size + 1) for c in classes.position_classes(s)]
    counts = {c: classes.class_positions(c) for c in chosen}
    missing = [n for c, n in counts.items() if not class_file(folder, c).is_file()]
    largest = sorted(missing, reverse=True)[:workers]
    return BuildPlan(
        chosen,
        sum(counts.values()),
        sum(missing),
        int(sum(missing) * BYTES_A_POSITION),
        sum(missing) / POSITIONS_A_SECOND,
        sum(largest) * BYTES_A_SOLVED_POSITION,
    )


def check_target(folder: Path, plan: BuildPlan) -> None:
    """Raise :class:`EndgameError` unless ``folder`` can be written and its disk has room
    for the plan, before any work."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=folder):
            pass
    except OSError as error:
        raise EndgameError(
            f"cannot write endgame tables in {str(folder)!r}: {error.strerror or error}"
        ) from None
    free = shutil.disk_usage(folder).free
    if free < plan.disk_bytes:
        raise EndgameError(
            f"{str(folder)!r} has {free / 1e6:,.0f} MB free; the tables may need "
            f"{plan.disk_bytes / 1e6:,.0f} MB"
        )


def build(
    game: Game[Any, Any],
    plan: BuildPlan,
    folder: Path,
    workers: int = 1,
    ray_address: str | None = None,
) -> Generator[BuildStep, None, None]:
    """Solve and save every class of ``plan`` missing from ``folder``, in order, reading back
    those already there (a build stopped at any point goes on from its files); a step after
    each class. With ``workers`` above 1 the classes are solved side by side in worker
    processes, or with ``ray_address`` in Ray actors of that cluster, whose nodes must all
    see ``folder`` at the same path (a shared file system): :func:`_build_in_workers`."""
    if workers > 1 or ray_address is not None:
        pool = Pool(workers, in_flight=1, ray_address=ray_address)
        with pool:
            yield from _build_in_workers(game, plan, folder, pool)
        return
    classes = require(game, HasPositionClasses, "an endgame database")
    known: Tables = {}
    began, done = time.perf_counter(), 0
    for position_class in plan.classes:
        path = class_file(folder, position_class)
        reused = path.is_file()
        if reused:
            known[position_class] = load_class(game, path, position_class)
        else:
            known[position_class] = solve_class(game, position_class, known)
            save_class(game, folder, position_class, known[position_class])
        done += classes.class_positions(position_class)
        yield BuildStep(position_class, reused, done, plan.positions, time.perf_counter() - began)


WAIT_SECONDS = 0.2
"""How often a worker looks for the file of a class another worker is solving."""


class _FolderTables(Mapping[Hashable, Solved]):
    """The classes before one being solved, read from the build's folder as a worker needs
    them, each waited for until its file appears (another worker may still be solving it: the
    classes are handed out in order, so the earliest one being solved never waits)."""

    def __init__(self, game: Game[Any, Any], folder: Path, earlier: Sequence[Hashable]) -> None:
        self.game, self.folder, self.earlier = game, folder, set(earlier)
        self.loaded: dict[Hashable, Solved] = {}

    def __getitem__(self, position_class: Hashable) -> Solved:
        if position_class not in self.earlier:
            raise KeyError(position_class)
        if position_class not in self.loaded:
            path = class_file(self.folder, position_class)
            while not path.is_file():
                time.sleep(WAIT_SECONDS)
            self.loaded[position_class] = load_class(self.game, path, position_class)
        return self.loaded[position_class]

    def __iter__(self) -> Iterator[Hashable]:
        return iter(self.earlier)

    def __len__(self) -> int:
        return len(self.earlier)


def _solve_into(task: tuple[str, Hashable, Path, Sequence[Hashable]]) -> Hashable:
    """A worker's task: solve one class into ``folder``, the classes before it read from
    there (``spec, position_class, folder, earlier``)."""
    spec, position_class, folder, earlier = task
    game = make_game(spec)
    tables = _FolderTables(game, folder, earlier)
    save_class(game, folder, position_class, solve_class(game, position_class, tables))
    return position_class


def _build_in_workers(
    game: Game[Any, Any], plan: BuildPlan, folder: Path, pool: Pool
) -> Generator[BuildStep, None, None]:
    """:func:`build` in ``pool``'s workers, each class a task handed out in the plan's order,
    one a worker at a time (so the earliest class being solved never waits for a file);
    stopping (Ctrl-C, an error) ends the workers at once, the finished classes kept."""
    classes = require(game, HasPositionClasses, "an endgame database")
    began, done = time.perf_counter(), 0
    missing = []
    for number, position_class in enumerate(plan.classes):
        if class_file(folder, position_class).is_file():
            done += classes.class_positions(position_class)
            yield BuildStep(position_class, True, done, plan.positions, 0.0)
        else:
            missing.append(number)
    spec = game_spec(game)
    tasks = ((spec, plan.classes[n], folder, plan.classes[:n]) for n in missing)
    for _, position_class in pool.results(_solve_into, tasks):
        done += classes.class_positions(position_class)
        elapsed = time.perf_counter() - began
        yield BuildStep(position_class, False, done, plan.positions, elapsed)
