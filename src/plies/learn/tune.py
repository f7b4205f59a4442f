"""Texel's tuning method (Peter Österlund, 2014; Chess Programming Wiki, "Texel's Tuning
Method"): the weights of a linear evaluation, EVAL = w1 f1 + ... + wn fn, fitted to the results
of played games by minimising the mean squared error between each position's result and a
sigmoid of its evaluation, ``(result - 1 / (1 + exp(-K * EVAL)))**2``.

Positions come from tournament files (:mod:`plies.arena`, e.g. engine self-play with random
openings): every position of every game from ply ``min_ply`` on (or a sample of them), but
those whose mover is in check or whose move played or the move before was noisy (a capture:
an exchange under way), where EVAL is least reliable; each labelled with its game's result for
the first player (1, 1/2 or 0), or with a teacher's report of it (an agent such as
``uci:stockfish,depth=8``: Stockfish's evaluations as expected scores), or, where the game has
an endgame solver, with the game's result as if played out perfectly from the first position
the solver reaches (``solve_seconds``; each later position by its own perfect-play result): the
labels of Logistello's training positions were the results of games whose ends were played out
perfectly (M. Buro, "From Simple Features to Sophisticated Evaluation Functions", CG 1998). A
share of the games is held out to measure the fit on games it did not see. The game gives the
features and the weights (:class:`~plies.capabilities.HasLinearEvaluation`); NumPy does the
rest: the scale K is fitted first with the game's weights, then the weights by Adam (Kingma
and Ba 2015) on the full batch.

A tuning is a folder, written atomically as it goes, so Ctrl-C or a crash loses at most the
steps since the last save and the same command goes on:

- ``config.json``: the game, the data settings;
- ``data.npz``: the positions' features (sparse rows) and labels, extracted once;
- ``teacher.npy``: with a teacher, its labels as they come (NaN for those still to label);
- ``solved.npy``: with the solver, the perfect-play results of the games' ends as they come;
- ``state.npz``: the weights, Adam's moments, the step and K;
- ``metrics.jsonl``: a line per saved step (losses on the training and held-out positions);
- ``weights.json``: the weights with the lowest held-out loss so far, and how they were got
  (``engine:weights=FILE`` plays them).
"""

from __future__ import annotations

import fnmatch
import json
import math
import platform
import time
import zlib
from array import array
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np
from numpy.typing import NDArray

from plies import __version__
from plies.agents.engine import WEIGHTS_FORMAT, chosen_evaluation, load_weights
from plies.arena.records import Records, stored_game
from plies.arena.tournament import opening_state
from plies.capabilities import (
    HasCentipawns,
    HasCheck,
    HasEndgameSolver,
    HasLinearEvaluation,
    HasNoisyMoves,
    optional,
    require,
)
from plies.errors import RunFolderError, SpecError
from plies.game import Game
from plies.inputs import write_atomically
from plies.perfect import PerfectSolver
from plies.pool import Pool
from plies.registry import game_identity, game_spec, make_game

FORMAT = "plies-tune-1"
SAVE_EVERY = 10
"""Steps between saves."""
MAX_STEPS = 1_000_000


@dataclass(frozen=True)
class TuneConfig:
    """Where the positions come from: ``records`` (tournament files), positions from ply
    ``min_ply``, a ``sample`` of them (drawn by ``seed``); ``held_out`` of the games kept for
    measuring. Labels are the games' results, or with a ``teacher`` (an agent spec whose
    search reports a value, ``uci:stockfish,depth=8``) its value of each position, or with
    ``solve_seconds`` the games' results as if played out perfectly from the first position
    the game's endgame solver reaches within that many seconds (its own estimate)."""

    records: tuple[str, ...]
    min_ply: int = 8
    held_out: float = 0.1
    seed: int = 0
    sample: float = 1.0
    teacher: str | None = None
    solve_seconds: float | None = None

    def __post_init__(self) -> None:
        if not self.records:
            raise SpecError("tuning needs at least one tournament file of played games")
        if self.teacher is not None and self.solve_seconds is not None:
            raise SpecError("label by a teacher or by the solver, not both")
        if self.solve_seconds is not None and not 0 < self.solve_seconds < math.inf:
            raise SpecError(f"the solver's seconds must be a positive number, got "
                            f"{self.solve_seconds}")  # fmt: skip
        if not 0 <= self.held_out < 1:
            raise SpecError(f"the held-out share must be in [0, 1), got {self.held_out}")
        if not 0 < self.sample <= 1:
            raise SpecError(f"the sample must be a share in (0, 1], got {self.sample}")


class Positions(NamedTuple):
    """Labelled positions as sparse feature rows: row ``i`` has the entries
    ``starts[i]:starts[i + 1]`` of ``indices`` and ``values``; ``labels`` are the first
    player's results; ``held`` marks the held-out ones."""

    starts: NDArray[np.int64]
    indices: NDArray[np.int32]
    values: NDArray[np.float32]
    labels: NDArray[np.float32]
    held: NDArray[np.bool_]
    games: int

    @property
    def size(self) -> int:
        """The number of positions."""
        return len(self.labels)

    def part(self, held: bool) -> Positions:
        """The training (``held`` False) or held-out positions."""
        chosen = np.flatnonzero(self.held == held)
        lengths = np.diff(self.starts)
        entries = np.flatnonzero(np.repeat(self.held, lengths) == held)
        starts = np.concatenate([[0], np.cumsum(lengths[chosen])]).astype(np.int64)
        return Positions(
            starts,
            self.indices[entries],
            self.values[entries],
            self.labels[chosen],
            self.held[chosen],
            self.games,
        )


@dataclass
class Progress:
    """What a tuning reports as it goes: ``done`` of ``total`` games read or steps taken."""

    stage: str
    done: int
    total: int
    loss: float = math.nan
    held_loss: float = math.nan


Reporter = Callable[[Progress], None]


@dataclass
class SolvedEnds:
    """The games' ends for the solver to label: ``notations``, every position of each game
    from the first the solver reaches, game after game; ``index``, for each extracted
    position, the one of ``notations`` whose perfect-play result is its label (its own, or
    its game's first solved position for an earlier one), -1 where its game has none."""

    notations: list[str] = field(default_factory=list)
    index: list[int] = field(default_factory=list)


# Positions -------------------------------------------------------------------------------------


def _first_player_result(game: Game[Any, Any], start: Any, result: float) -> float:
    """A record's result (its first mover's score) as the game's first player's."""
    return result if game.to_move(start) == game.players[0] else 1.0 - result


def _held(seed: int, key: str, share: float) -> bool:
    """Whether the game of ``key`` is held out: a fixed share, drawn by hashing."""
    return zlib.crc32(f"{seed}|{key}".encode()) / 2**32 < share


def extract_positions(
    game: Game[Any, Any],
    config: TuneConfig,
    report: Reporter | None = None,
    notations: list[str] | None = None,
    ends: SolvedEnds | None = None,
) -> Positions:
    """The labelled positions of the games in ``config.records`` (see the module's doc); with
    ``notations``, each kept position is also written there in the game's notation; with
    ``ends``, the games' ends from the first position the solver reaches within
    ``config.solve_seconds`` are written there (the labels stay the games' results)."""
    linear = require(game, HasLinearEvaluation, "tuning")
    solver = None
    if ends is not None:
        assert config.solve_seconds is not None, "the solver's reach is needed for its labels"
        solver = require(game, HasEndgameSolver, "solver labels").endgame_solver()
    check = optional(game, HasCheck)
    noisy = optional(game, HasNoisyMoves)
    played = []
    for path in config.records:
        if not Path(path).is_file():
            raise SpecError(f"no tournament file {path!r}")
        records = Records(path, stored_game(path), None)
        try:
            played.extend(records.games())
        finally:
            records.close()
    starts, held = [0], []
    labels: list[float] = []
    indices = array("i")  # compact: millions of positions of some forty entries each
    values = array("f")
    for number, record in enumerate(played):
        state = opening_state(game, record.opening)
        label = _first_player_result(game, state, record.result)
        hold = _held(config.seed, record.key, config.held_out)
        ply = len(record.opening.split())
        settled = True  # the move before was not noisy: no exchange under way
        solved_from = -1  # the index in ends.notations of the game's first solved position
        kept = len(labels)
        for text in record.moves:
            if solver is not None and ends is not None:
                assert config.solve_seconds is not None
                if solved_from >= 0 or solver.reaches(state, config.solve_seconds, weak=True):
                    solved_from = len(ends.notations) if solved_from < 0 else solved_from
                    ends.notations.append(game.format_position(state))  # type: ignore[attr-defined]
            action = game.parse_action(state, text)
            calm = noisy is None or not noisy.is_capture(state, action)
            quiet = settled and calm and (check is None or not check.in_check(state))
            settled = calm
            chosen = ply >= config.min_ply and (
                config.sample == 1 or _held(config.seed + 1, f"{record.key}|{ply}", config.sample)
            )
            features = linear.evaluation_features(state) if chosen else None
            if quiet and features:
                if notations is not None:
                    notations.append(game.format_position(state))  # type: ignore[attr-defined]
                indices.extend(features.keys())
                values.extend(features.values())
                starts.append(len(indices))
                labels.append(label)
                held.append(hold)
                if ends is not None:
                    reached = solved_from >= 0
                    ends.index.append(len(ends.notations) - 1 if reached else -1)
            state = game.result(state, action)
            ply += 1
        if ends is not None and solved_from >= 0:  # earlier positions: the first solved one's
            ends.index[kept:] = [solved_from if i < 0 else i for i in ends.index[kept:]]
        if report is not None:
            report(Progress("reading games", number + 1, len(played)))
    return Positions(
        np.array(starts, np.int64),
        np.frombuffer(indices, np.int32).copy(),
        np.frombuffer(values, np.float32).copy(),
        np.array(labels, np.float32),
        np.array(held, np.bool_),
        len(played),
    )


# The fit ---------------------------------------------------------------------------------------


class Model:
    """The sparse rows of some positions, ready for the loss and its gradient."""

    def __init__(self, positions: Positions, size: int) -> None:
        self.positions = positions
        self.size = size
        self.rows = np.repeat(np.arange(positions.size, dtype=np.int32), np.diff(positions.starts))
        self.values = positions.values.astype(np.float64)

    def scores(self, weights: NDArray[np.float64]) -> NDArray[np.float64]:
        """Each position's EVAL: its features' weighted sum."""
        products = self.values * weights[self.positions.indices]
        found = np.bincount(self.rows, weights=products, minlength=self.positions.size)
        return np.asarray(found, np.float64)

    def loss(self, weights: NDArray[np.float64], scale: float) -> float:
        """The mean squared error of ``sigmoid(scale * EVAL)`` against the results."""
        if not self.positions.size:
            return math.nan
        predicted = _sigmoid(scale * self.scores(weights))
        return float(np.mean((predicted - self.positions.labels) ** 2))

    def gradient(self, weights: NDArray[np.float64], scale: float) -> NDArray[np.float64]:
        predicted = _sigmoid(scale * self.scores(weights))
        slope = 2 * (predicted - self.positions.labels) * predicted * (1 - predicted) * scale
        per_entry = self.values * (slope / self.positions.size)[self.rows]
        found = np.bincount(self.positions.indices, weights=per_entry, minlength=self.size)
        return np.asarray(found, np.float64)


def _sigmoid(x: NDArray[np.float64]) -> NDArray[np.float64]:
    return 1.0 / (1.0 + np.exp(-np.clip(x, -500, 500)))


def fit_scale(model: Model, weights: NDArray[np.float64]) -> float:
    """The K that makes the game's weights fit the results best (a golden-section search of
    log K over 1e-6 to 10)."""
    low, high = math.log(1e-6), math.log(10.0)
    ratio = (math.sqrt(5) - 1) / 2
    for _ in range(60):
        a, b = high - ratio * (high - low), low + ratio * (high - low)
        if model.loss(weights, math.exp(a)) < model.loss(weights, math.exp(b)):
            high = b
        else:
            low = a
    return math.exp((low + high) / 2)


@dataclass
class State:
    """Where the fit is: the weights, Adam's moments, the step, K and the best so far."""

    weights: NDArray[np.float64]
    first: NDArray[np.float64]
    second: NDArray[np.float64]
    step: int
    scale: float
    best: NDArray[np.float64]
    best_loss: float
    start_loss: float
    seconds: float

    @classmethod
    def fresh(cls, weights: NDArray[np.float64], scale: float, loss: float) -> State:
        start = np.array(weights, np.float64)
        zeros = np.zeros_like(start)
        return cls(start, zeros, zeros.copy(), 0, scale, start.copy(), loss, loss, 0.0)


def adam_step(state: State, gradient: NDArray[np.float64], rate: float) -> None:
    """One step of Adam (beta 0.9 and 0.999) of at most about ``rate`` per weight."""
    state.step += 1
    state.first = 0.9 * state.first + 0.1 * gradient
    state.second = 0.999 * state.second + 0.001 * gradient**2
    first = state.first / (1 - 0.9**state.step)
    second = state.second / (1 - 0.999**state.step)
    state.weights = state.weights - rate * first / (np.sqrt(second) + 1e-12)


# The folder ------------------------------------------------------------------------------------


class Tuning:
    """A tuning folder (see the module's doc)."""

    def __init__(
        self, folder: Path, game: Game[Any, Any], config: TuneConfig, start: str | None = None
    ) -> None:
        self.folder, self.game, self.config, self.start = folder, game, config, start
        self.linear = require(game, HasLinearEvaluation, "tuning")

    @property
    def start_description(self) -> str:
        """Where the fit started, for ``weights.json``'s ``how.start``."""
        if self.start is None:
            return f"the game's weights ({getattr(self.game, 'evaluation', 'its own')})"
        return "zero weights" if self.start == "zero" else f"the weights file {self.start}"

    @property
    def config_file(self) -> Path:
        return self.folder / "config.json"

    @property
    def data_file(self) -> Path:
        return self.folder / "data.npz"

    @property
    def state_file(self) -> Path:
        return self.folder / "state.npz"

    @property
    def metrics_file(self) -> Path:
        return self.folder / "metrics.jsonl"

    @property
    def weights_file(self) -> Path:
        return self.folder / "weights.json"


def open_tuning(
    folder: Path, game: Game[Any, Any], config: TuneConfig, start: str | None = None
) -> Tuning:
    """A new tuning folder, or the one already there for the same game and data settings
    (:class:`RunFolderError` for a folder of other work); ``start`` as
    :func:`starting_game` was given it."""
    if config.solve_seconds is not None:
        require(game, HasEndgameSolver, "solver labels")
    tuning = Tuning(folder, game, config, start)
    wanted = {"format": FORMAT, "game": game_identity(game), "data": asdict(config)}
    if folder.exists() and not folder.is_dir():
        raise RunFolderError(f"{str(folder)!r} is a file, not a tuning folder")
    if tuning.config_file.exists():
        try:
            found = json.loads(tuning.config_file.read_text(encoding="utf-8"))
        except (OSError, ValueError) as error:
            raise RunFolderError(f"{str(folder)!r}: unreadable config.json ({error})") from None
        found_data = found.get("data", {})
        if isinstance(found_data, dict) and "records" in found_data:
            found_data["records"] = tuple(found_data["records"])
            found_data.setdefault("solve_seconds", None)  # a folder from before the solver
        if found.get("format") != FORMAT or found.get("game") != wanted["game"]:
            raise RunFolderError(f"{str(folder)!r} holds other work than tuning {wanted['game']}")
        if found_data != wanted["data"]:
            raise RunFolderError(
                f"{str(folder)!r} tunes on other data ({found_data}): use another folder"
            )
    elif folder.exists() and any(folder.iterdir()):
        raise RunFolderError(f"{str(folder)!r} is not empty and holds no tuning")
    else:
        text = json.dumps(wanted, indent=1, default=list)
        write_atomically(tuning.config_file, lambda f: f.write(text.encode()))
    return tuning


def load_positions(
    tuning: Tuning,
    report: Reporter | None = None,
    workers: int = 1,
    ray_address: str | None = None,
) -> Positions:
    """The tuning's positions: read from ``data.npz``, or extracted once (and labelled by the
    teacher, if any, in ``workers`` workers: :func:`label_by_teacher`) and kept there."""
    if tuning.data_file.exists():
        try:
            with np.load(tuning.data_file) as data:
                return Positions(
                    data["starts"],
                    data["indices"],
                    data["values"],
                    data["labels"],
                    data["held"],
                    int(data["games"]),
                )
        except (OSError, ValueError, KeyError) as error:
            raise RunFolderError(f"{tuning.data_file}: unreadable ({error})") from None
    notations: list[str] | None = None if tuning.config.teacher is None else []
    ends = None if tuning.config.solve_seconds is None else SolvedEnds()
    positions = extract_positions(tuning.game, tuning.config, report, notations, ends)
    if not positions.size:
        raise SpecError("the tournament files hold no position to tune on")
    if notations is not None:
        labels = label_by_teacher(tuning, notations, report, workers, ray_address)
        positions = positions._replace(labels=labels)
    if ends is not None:
        solved = label_by_solver(tuning, ends.notations, report, workers, ray_address)
        index = np.array(ends.index, np.int64)
        reached = index >= 0
        labels = positions.labels.copy()
        labels[reached] = solved[index[reached]]
        positions = positions._replace(labels=labels)
    arrays = {name: getattr(positions, name) for name in Positions._fields}
    write_atomically(tuning.data_file, lambda f: np.savez_compressed(f, **arrays))
    return positions


LABEL_CHUNK = 2000
"""Positions labelled between saves of ``teacher.npy`` or ``solved.npy``."""
LABEL_BATCH = 250
"""Positions a labelling worker is handed at once."""


def label_by_teacher(
    tuning: Tuning,
    notations: Sequence[str],
    report: Reporter | None = None,
    workers: int = 1,
    ray_address: str | None = None,
) -> NDArray[np.float32]:
    """Each position's label from the teacher's report of it: the first player's expected
    share of the points (:func:`expected_share`), by ``workers`` teachers (this process for
    one, else worker processes or, with ``ray_address``, Ray actors of that cluster: a
    :class:`~plies.pool.Pool`). Kept in ``teacher.npy`` as it goes (NaN for those not labelled
    yet), so a stopped tuning goes on where it was."""
    assert tuning.config.teacher is not None
    setup = (game_spec(tuning.game), tuning.config.teacher)
    path = tuning.folder / "teacher.npy"
    labelling = Labelling(path, "labelling by the teacher", _teach, _start_teacher, setup)
    try:
        return _labelled(labelling, notations, report, workers, ray_address)
    finally:
        _stop_teacher()


def label_by_solver(
    tuning: Tuning,
    notations: Sequence[str],
    report: Reporter | None = None,
    workers: int = 1,
    ray_address: str | None = None,
) -> NDArray[np.float32]:
    """Each position's result with perfect play for the first player (1, 1/2 or 0), by the
    game's endgame solver (win, draw or loss only), in ``workers`` workers as
    :func:`label_by_teacher`'s; kept in ``solved.npy`` as it goes. A worker keeps its table
    from one position to the next: a game's later positions follow from its first, and come
    almost free."""
    path = tuning.folder / "solved.npy"
    setup = (game_spec(tuning.game),)
    labelling = Labelling(path, "solving the games' ends", _solve, _start_solver, setup)
    return _labelled(labelling, notations, report, workers, ray_address)


class Labelling(NamedTuple):
    """Labels made in workers: kept in ``path`` (NaN for those still to label), the work
    called ``stage`` in the progress; ``work`` labels a batch of ``(index, position)`` in a
    worker set up by ``setup(*setup_args)``."""

    path: Path
    stage: str
    work: Callable[[list[tuple[int, str]]], list[tuple[int, float]]]
    setup: Callable[..., None]
    setup_args: tuple[Any, ...]


def _labelled(
    labelling: Labelling,
    notations: Sequence[str],
    report: Reporter | None,
    workers: int,
    ray_address: str | None,
) -> NDArray[np.float32]:
    """The labels of ``notations`` by ``labelling``, resumed from its file."""
    path, stage, work, setup, setup_args = labelling
    labels = np.full(len(notations), np.nan, np.float32)
    if path.exists():
        try:
            saved = np.load(path)
        except (OSError, ValueError) as error:
            raise RunFolderError(f"{path}: unreadable ({error})") from None
        if saved.shape == labels.shape:
            labels = saved.astype(np.float32)
    todo = [int(i) for i in np.flatnonzero(np.isnan(labels))]
    batches = (
        [(i, notations[i]) for i in todo[start : start + LABEL_BATCH]]
        for start in range(0, len(todo), LABEL_BATCH)
    )
    pool = Pool(workers, setup=setup, setup_args=setup_args, ray_address=ray_address)
    unsaved = 0
    try:
        for _, shares in pool.results(work, batches):
            for index, share in shares:
                labels[index] = share
            unsaved += len(shares)
            if unsaved >= LABEL_CHUNK:
                unsaved = 0
                write_atomically(path, lambda f: np.save(f, labels))
                if report is not None:
                    done = int(np.count_nonzero(~np.isnan(labels)))
                    report(Progress(stage, done, len(labels)))
    finally:
        write_atomically(path, lambda f: np.save(f, labels))
        pool.close()
    return labels


_TEACHER: tuple[Game[Any, Any], Any, str] | None = None
"""A teaching worker's game, teacher and the teacher's spec (:func:`_start_teacher`)."""


def _start_teacher(spec: str, teacher: str) -> None:
    """A teaching worker (of a :class:`~plies.pool.Pool`) with its own teacher."""
    from plies.agents import make_agent

    global _TEACHER
    game = make_game(spec)
    _TEACHER = (game, make_agent(teacher, game), teacher)


def _teach(batch: list[tuple[int, str]]) -> list[tuple[int, float]]:
    """The first player's expected share in each ``(index, position)``, by this worker's
    teacher."""
    assert _TEACHER is not None, "a teaching worker starts its teacher first"
    game, teacher, spec = _TEACHER
    shares = []
    for index, notation in batch:
        state = game.parse_position(notation)  # type: ignore[attr-defined]
        teacher(game, state)
        share = expected_share(game, getattr(teacher, "last", None))
        if share is None:
            raise SpecError(f"teacher {spec}: its search reports no value")
        first = game.to_move(state) == game.players[0]
        shares.append((index, share if first else 1.0 - share))
    return shares


_SOLVER: tuple[Game[Any, Any], PerfectSolver] | None = None
"""A solving worker's game and its endgame solver (:func:`_start_solver`)."""


def _start_solver(spec: str) -> None:
    """A solving worker (of a :class:`~plies.pool.Pool`) with its own endgame solver."""
    global _SOLVER
    game = make_game(spec)
    _SOLVER = (game, require(game, HasEndgameSolver, "solver labels").endgame_solver())


def _solve(batch: list[tuple[int, str]]) -> list[tuple[int, float]]:
    """The first player's result with perfect play in each ``(index, position)``, by this
    worker's solver (its table kept from one position to the next)."""
    assert _SOLVER is not None, "a solving worker starts its solver first"
    game, solver = _SOLVER
    results = []
    for index, notation in batch:
        state = game.parse_position(notation)  # type: ignore[attr-defined]
        score = solver.solve(state, weak=True, keep_table=True).score
        share = 1.0 if score > 0 else 0.5 if score == 0 else 0.0
        first = game.to_move(state) == game.players[0]
        results.append((index, share if first else 1.0 - share))
    return results


def _stop_teacher() -> None:
    """Stop what the teacher runs (an outside engine's process), where it ran here (in a
    worker process the teacher ends with the process)."""
    global _TEACHER
    if _TEACHER is not None:
        close = getattr(_TEACHER[1], "close", None)
        if close is not None:
            close()
        _TEACHER = None


def expected_share(game: Game[Any, Any], reported: Any) -> float | None:
    """The mover's expected share of the points from a search's report: from its score in
    centipawns where the game reads scores so (the logistic of chess engines' Elo scale,
    ``1 / (1 + 10**(-cp / 400))``; a forced result is 1 or 0), else its value's place in the
    utility range. None without a finite value."""
    value = getattr(reported, "value", math.nan)
    score = getattr(reported, "score", None)
    centipawns = optional(game, HasCentipawns)
    if centipawns is not None and score is not None and math.isfinite(score):
        if abs(score) >= 1:
            return 1.0 if score > 0 else 0.0
        return float(1.0 / (1.0 + 10.0 ** (-centipawns.score_centipawns(score) / 400)))
    if not math.isfinite(value):
        return None
    scoring = getattr(game, "scoring", None)
    mover = getattr(reported, "max_player", game.players[0])
    other = game.players[1] if mover == game.players[0] else game.players[0]
    if scoring is None:
        return min(1.0, max(0.0, (value + 1) / 2))
    low, high = scoring.utility(other, mover), scoring.utility(mover, mover)
    return float(min(1.0, max(0.0, (value - low) / (high - low))))


def saved_state(tuning: Tuning) -> State | None:
    """The fit as last saved in the folder (None before the first save)."""
    if not tuning.state_file.exists():
        return None
    try:
        with np.load(tuning.state_file) as data:
            numbers = data["numbers"]
            return State(
                data["weights"], data["first"], data["second"], int(numbers[0]),
                float(numbers[1]), data["best"], float(numbers[2]), float(numbers[3]),
                float(numbers[4]),
            )  # fmt: skip
    except (OSError, ValueError, KeyError, IndexError) as error:
        raise RunFolderError(f"{tuning.state_file}: unreadable ({error})") from None


def _save(
    tuning: Tuning,
    state: State,
    positions: Positions,
    losses: tuple[float, float],
    fitting: dict[str, Any],
) -> None:
    """Write the state, a metrics line and the best weights so far (each atomically), with
    how they were got (``fitting``: the settings of the fit)."""
    numbers = np.array([state.step, state.scale, state.best_loss, state.start_loss,
                        state.seconds])  # fmt: skip
    write_atomically(
        tuning.state_file,
        lambda f: np.savez(
            f,
            weights=state.weights,
            first=state.first,
            second=state.second,
            best=state.best,
            numbers=numbers,
        ),
    )
    line = {"step": state.step, "loss": losses[0], "held_out_loss": losses[1],
            "seconds": round(state.seconds, 2)}  # fmt: skip
    previous = tuning.metrics_file.read_text() if tuning.metrics_file.exists() else ""
    text = previous + json.dumps(line) + "\n"
    write_atomically(tuning.metrics_file, lambda f: f.write(text.encode()))
    held = int(positions.held.sum())
    teacher, seconds = tuning.config.teacher, tuning.config.solve_seconds
    labels = (
        f"the teacher {teacher}'s values as expected scores"
        if teacher is not None
        else f"game results, played out perfectly from the first position the solver reaches "
        f"in {seconds} s"
        if seconds is not None
        else "game results"
    )
    how = {
        "method": "Texel's: mean squared error of sigmoid(K * EVAL) against the labels, Adam",
        "labels": labels,
        "start": tuning.start_description,
        **fitting,
        "records": list(tuning.config.records),
        "sample": tuning.config.sample,
        "games": positions.games,
        "positions": positions.size - held,
        "held_out_positions": held,
        "min_ply": tuning.config.min_ply,
        "scale": state.scale,
        "steps": state.step,
        "loss_at_start": state.start_loss,
        "held_out_loss": state.best_loss,
        "seconds": round(state.seconds, 1),
        "machine": f"{platform.machine()}, {platform.processor() or 'cpu'}",
        "plies": __version__,
    }
    record = {"format": WEIGHTS_FORMAT, "game": game_identity(tuning.game),
              "names": list(tuning.linear.evaluation_names()),
              "weights": [float(w) for w in state.best], "how": how}  # fmt: skip
    text = json.dumps(record, indent=1)
    write_atomically(tuning.weights_file, lambda f: f.write(text.encode()))


def tune(
    tuning: Tuning,
    positions: Positions,
    steps: int,
    rate: float,
    report: Reporter | None = None,
    l2: float = 0.0,
    only: Sequence[str] = (),
) -> State:
    """Fit the weights for up to ``steps`` steps in all (a resumed tuning counts its earlier
    ones), saving every :data:`SAVE_EVERY` and at the end (and when interrupted).
    ``l2`` adds ``l2 * sum((w - start)**2)`` to the loss: rarely seen features (a king on a7
    in the middlegame) then stay near the game's weights unless the data insist. With
    ``only`` (shell patterns of weight names, ``*mobility``), the other weights stay as they
    are."""
    if not 0 < rate < math.inf:
        raise SpecError(f"the learning rate must be a positive number, got {rate}")
    if not 0 <= l2 < math.inf:
        raise SpecError(f"the L2 penalty must be a number at least 0, got {l2}")
    free = chosen_weights(tuning.linear.evaluation_names(), only)
    fitting = {"fitted": list(only) or "all weights", "rate": rate, "l2": l2}
    size = len(tuning.linear.evaluation_weights())
    if len(positions.indices) and int(positions.indices.max()) >= size:
        raise RunFolderError(f"{tuning.data_file}: features beyond the game's {size} weights")
    train, held = Model(positions.part(False), size), Model(positions.part(True), size)
    measure = held if held.positions.size else train
    state = saved_state(tuning)
    start = np.array(tuning.linear.evaluation_weights(), np.float64)
    if state is None:
        fixed = getattr(tuning.linear, "evaluation_scale", None)  # a log-odds in fixed units
        scale = fit_scale(train, start) if fixed is None else float(fixed)
        state = State.fresh(start, scale, measure.loss(start, scale))
    started = time.perf_counter() - state.seconds
    saved = -1
    try:
        while state.step < steps:
            pull = 2 * l2 * (state.weights - start)
            gradient = train.gradient(state.weights, state.scale) + pull
            adam_step(state, np.where(free, gradient, 0.0), rate)
            if state.step % SAVE_EVERY == 0 or state.step == steps:
                losses = _checkpoint(tuning, state, positions, (train, measure), started, fitting)
                saved = state.step
                if report is not None:
                    report(Progress("fitting", state.step, steps, *losses))
    finally:  # a stop between saves (Ctrl-C) keeps the steps taken
        if saved != state.step:
            _checkpoint(tuning, state, positions, (train, measure), started, fitting)
    return state


def starting_game(
    game: Game[Any, Any], evaluation: str | None, start: str | None
) -> Game[Any, Any]:
    """``game`` with the evaluation to fit (``evaluation``: one of the game's several, None
    its own) starting from ``start``: ``zero`` (every weight 0), a weights file, or None (the
    game's weights)."""
    chosen = chosen_evaluation(game, evaluation)
    if start is None:
        return chosen
    if start == "zero":
        linear = require(chosen, HasLinearEvaluation, "tuning")
        zeros = [0.0] * len(linear.evaluation_weights())
        zeroed: Game[Any, Any] = linear.with_evaluation_weights(zeros, "zero")
        return zeroed
    return load_weights(chosen, start)


def chosen_weights(names: Sequence[str], patterns: Sequence[str]) -> NDArray[np.bool_]:
    """Which weights ``patterns`` choose (shell patterns of their names; none: all)."""
    if not patterns:
        return np.ones(len(names), np.bool_)
    chosen = np.array([any(fnmatch.fnmatchcase(n, p) for p in patterns) for n in names], bool)
    if not chosen.any():
        raise SpecError(f"no weight's name matches {', '.join(map(repr, patterns))}")
    return chosen


def _checkpoint(
    tuning: Tuning,
    state: State,
    positions: Positions,
    models: tuple[Model, Model],
    started: float,
    fitting: dict[str, Any],
) -> tuple[float, float]:
    """Measure the fit (training and held-out losses), keep the best weights, save all."""
    state.seconds = time.perf_counter() - started
    train, measure = models
    losses = (train.loss(state.weights, state.scale), measure.loss(state.weights, state.scale))
    if losses[1] < state.best_loss:
        state.best, state.best_loss = state.weights.copy(), losses[1]
    _save(tuning, state, positions, losses, fitting)
    return losses


def names_of_changes(
    names: Sequence[str], before: Iterable[float], after: Iterable[float], count: int
) -> list[tuple[str, float, float]]:
    """The ``count`` weights that moved most: (name, before, after)."""
    pairs = sorted(zip(names, before, after, strict=True), key=lambda p: -abs(p[2] - p[1]))
    return [(name, float(b), float(a)) for name, b, a in pairs[:count]]
