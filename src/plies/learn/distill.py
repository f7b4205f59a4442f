"""Learned evaluation without search, distilled from a perfect solver: the recipe of
"Grandmaster-level chess without search" (Ruoss et al. 2024) at Connect Four's scale.

Positions of random and noisy-solver games are labelled with the exact score of every legal
move (the solver's ``analyze``, where the paper used Stockfish's action values); an
:class:`~plies.learn.network.ActionValueNet` learns each move's value as a class over equal
value bins (the paper's cross-entropy over bins, its best target), and plays the move of
highest expected value (``policy:model=DIR/model.pt``).

A distillation is a folder, written atomically as it goes, so a stopped run resumes with only
the chunk in flight lost:

- ``config.json``: the game, the data settings, the seed;
- ``data/chunk-CCCC.npz``: labelled positions, :attr:`DataConfig.chunk_size` at a time, chunk
  C drawn from its own seed and distinct (mirror images included) from every earlier chunk;
- ``model.pt``: the network after the last finished epoch (kind ``action-value``);
- ``metrics.jsonl``: one line per epoch (losses, held-out move accuracy and mistake rate).

Labelling cost on this project's CPU (one core, standard board): ``analyze`` takes about
12 s at ply 4, 3 s at ply 6, 0.8 s at ply 8, 0.2 to 0.4 s at ply 10, 60 to 110 ms at ply 12,
25 to 60 ms at ply 14, 4 to 10 ms at ply 16, 1 ms at ply 20 and well under 1 ms from ply 24,
so positions start at ply :data:`MIN_PLY` by default. Generating and labelling together run at
about 45 positions/s from ply 12, 160/s from ply 16 and 135/s from ply 20 (where generating,
games that end too soon included, costs the most).
"""

from __future__ import annotations

import itertools
import json
import math
import random
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Generic, TypeVar

import numpy as np
import torch
from torch import nn

from plies import __version__
from plies.agents import Agent, make_agent
from plies.capabilities import HasPerfectSolver, HasTensorEncoding, require
from plies.errors import RunFolderError, SpecError, UnsupportedGameError
from plies.game import Game, random_move
from plies.inputs import write_atomically
from plies.learn.checkpoint import made_for
from plies.learn.network import (
    ACTION_VALUE,
    KINDS,
    MAX_BINS,
    MAX_BLOCKS,
    MAX_FILTERS,
    NetShape,
    bin_centres,
)
from plies.learn.trainer import (
    Checkpoints,
    Examples,
    Loss,
    Progress,
    Schedule,
    augment,
    train_model,
)
from plies.learn.training import derived_seed
from plies.perfect import UNTIMED_REACH, PerfectSolver
from plies.play import play_game
from plies.pool import Pool
from plies.registry import game_identity, make_game
from plies.search import SearchResult

FORMAT = "plies-distill-1"
PURPOSE = "distilling a perfect solver"
MIN_PLY = 12
"""Default first ply of the positions: ``analyze`` costs about 0.1 s there, 0.8 s at ply 8."""
SOLVER_FROM = 16
"""Default first ply where noisy-solver games ask the solver (``decide``, about 1 ms there)."""
DEFAULT_BINS = 32
MAX_POSITIONS = 10_000_000
MAX_EPOCHS = 10_000
ILLEGAL = np.iinfo(np.int16).min
"""The score stored for an action index with no legal move."""
P = TypeVar("P")
B = TypeVar("B")


class Chunked:
    """Data settings of ``positions`` labelled ``chunk_size`` at a time: the chunks."""

    positions: int
    chunk_size: int

    @property
    def chunks(self) -> int:
        return math.ceil(self.positions / self.chunk_size)

    def chunk_positions(self, chunk: int) -> int:
        """How many positions chunk ``chunk`` holds (the last may hold fewer)."""
        return min(self.chunk_size, self.positions - chunk * self.chunk_size)


def check_settings(checks: Iterable[tuple[bool, str]]) -> None:
    """A :class:`SpecError` with the message of the first check that fails."""
    for ok, message in checks:
        if not ok:
            raise SpecError(message)


@dataclass(frozen=True)
class DataConfig(Chunked):
    """``positions`` distinct positions (mirror images count once) of ply ``min_ply`` to
    ``max_ply`` (None: to the board's cell count), from games whose moves are random or, in a
    ``solver_share`` of the games, from ply ``solver_from`` on, the guide's move with
    probability ``solver_moves``: the solver's best, or the agent ``player``'s (a spec:
    self-play games of a network with ``policy:model=FILE``); labelled ``chunk_size`` at a
    time, chunk C drawn from (``seed``, C)."""

    positions: int
    seed: int = 0
    min_ply: int = MIN_PLY
    max_ply: int | None = None
    solver_share: float = 0.5
    solver_moves: float = 0.75
    solver_from: int = SOLVER_FROM
    chunk_size: int = 256
    player: str | None = None

    def __post_init__(self) -> None:
        checks = (
            (1 <= self.positions <= MAX_POSITIONS, f"positions must be 1 to {MAX_POSITIONS:,}"),
            (0 <= self.min_ply <= 1000, f"min ply={self.min_ply} must be 0 to 1000"),
            (
                self.max_ply is None or self.min_ply <= self.max_ply <= 1000,
                f"max ply={self.max_ply} must be min ply ({self.min_ply}) to 1000",
            ),
            (0 <= self.solver_share <= 1, f"solver share={self.solver_share} must be 0 to 1"),
            (0 <= self.solver_moves <= 1, f"solver moves={self.solver_moves} must be 0 to 1"),
            (0 <= self.solver_from <= 1000, f"solver from={self.solver_from} must be 0 to 1000"),
            (1 <= self.chunk_size <= 65536, f"chunk size={self.chunk_size} must be 1 to 65536"),
        )
        check_settings(checks)


@dataclass(frozen=True)
class TrainConfig:
    """``epochs`` passes over the positions but a held-out ``validation`` share, in batches of
    ``batch_size`` each turned by a random board symmetry when ``augment``, with AdamW at the
    learning rate ``learning_rate`` (with ``decay``, falling to a twentieth of it along a
    cosine, Loshchilov and Hutter 2017); the network has a trunk of ``blocks`` x ``filters`` (None:
    the board's default) and the head ``kind``: action values over ``bins`` value classes (the
    paper's), or a policy over the best moves and the best move's value (what PUCT search
    needs)."""

    epochs: int = 10
    kind: str = ACTION_VALUE
    bins: int = DEFAULT_BINS
    blocks: int | None = None
    filters: int | None = None
    batch_size: int = 256
    learning_rate: float = 1e-3
    weight_decay: float = 1e-4
    validation: float = 0.05
    augment: bool = True
    decay: bool = False

    def __post_init__(self) -> None:
        checks = (
            (1 <= self.epochs <= MAX_EPOCHS, f"epochs={self.epochs} must be 1 to {MAX_EPOCHS}"),
            (self.kind in KINDS, f"network kind {self.kind!r} is not one of {', '.join(KINDS)}"),
            (2 <= self.bins <= MAX_BINS, f"bins={self.bins} must be 2 to {MAX_BINS}"),
            (
                1 <= (self.blocks or 1) <= MAX_BLOCKS,
                f"blocks={self.blocks} must be 1 to {MAX_BLOCKS}",
            ),
            (
                1 <= (self.filters or 1) <= MAX_FILTERS,
                f"filters={self.filters} must be 1 to {MAX_FILTERS}",
            ),
            (1 <= self.batch_size <= 65536, f"batch size={self.batch_size} must be 1 to 65536"),
            (0 < self.learning_rate <= 1, f"learning rate={self.learning_rate} must be in (0, 1]"),
            (0 <= self.weight_decay <= 1, f"weight decay={self.weight_decay} must be 0 to 1"),
            (0 <= self.validation < 1, f"validation={self.validation} must be in [0, 1)"),
        )
        check_settings(checks)


class Reporter(Progress):
    """What a distillation tells its front end (its labelling, and its training as
    :class:`~plies.learn.trainer.Progress`); every method does nothing here."""

    def labelled(self, done: int, total: int) -> None: ...


# Positions ------------------------------------------------------------------------------------


def position_key(encoding: HasTensorEncoding, planes: np.ndarray) -> bytes:
    """The same bytes for a position and its symmetric images: the least of the encoded planes
    turned by each board symmetry."""
    flat = np.ascontiguousarray(planes, dtype=np.uint8).reshape(planes.shape[0], -1)
    return min(flat[:, list(s.cells)].tobytes() for s in encoding.symmetries())


def perfect_solver(game: Game[Any, Any]) -> PerfectSolver:
    """The game's perfect solver, or the error naming why there is none."""
    solver = require(game, HasPerfectSolver, PURPOSE).perfect_solver()
    if solver is None:
        raise UnsupportedGameError(f"game '{game.name}' is out of its perfect solver's reach")
    if not solver.reaches(game.initial_state(), UNTIMED_REACH):
        raise UnsupportedGameError(
            f"game '{game.name}': its perfect solver reaches only the end of the game; "
            "distilling needs one that labels any position"
        )
    return solver


def generate_positions(
    game: Game[Any, Any],
    count: int,
    seed: int,
    config: DataConfig | None = None,
    *,
    solver: PerfectSolver | None = None,
    player: Agent | None = None,
    seen: set[bytes] | None = None,
) -> list[Any]:
    """``count`` non-terminal positions, distinct up to the board's symmetries and from the
    keys (:func:`position_key`) in ``seen``, to which theirs are added; each is one game's
    state at a ply drawn from ``config.min_ply`` to ``config.max_ply`` (or, when the game
    ends first, among its states from ``min_ply`` on). ``config`` gives the plies and the
    guided games (not the count or the seed); the guide is ``player`` (built from
    ``config.player`` when not given) or ``solver`` (the game's when not given). Raises
    :class:`SpecError` when the game has too few such positions."""
    config = config or DataConfig(positions=count, seed=seed)
    encoding = require(game, HasTensorEncoding, PURPOSE)
    guide = _guide(game, config, solver, player)
    _, rows, columns = encoding.tensor_shape()
    seen = set() if seen is None else seen
    rng = random.Random(seed)
    found: list[Any] = []
    games = 0
    while len(found) < count:
        games += 1
        if games > 1000 + 50 * count:
            raise SpecError(
                f"only {len(found)} new distinct positions of ply >= {config.min_ply} found "
                f"in {games - 1:,} games of '{game.name}'"
            )
        noisy = guide if rng.random() < config.solver_share else None
        last = rows * columns if config.max_ply is None else config.max_ply
        stop = rng.randint(config.min_ply, max(config.min_ply, last))
        states = _play(game, rng, stop, config, noisy)[config.min_ply :]
        if not states:
            continue
        state = states[-1] if len(states) == stop - config.min_ply + 1 else rng.choice(states)
        key = position_key(encoding, encoding.encode(state))
        if key not in seen:
            seen.add(key)
            found.append(state)
    return found


Guide = Callable[[Any, random.Random], Any]
"""A data game's guide: the move it plays in a state."""


def _guide(
    game: Game[Any, Any],
    config: DataConfig,
    solver: PerfectSolver | None,
    player: Agent | None,
) -> Guide | None:
    """The guide of the guided games (None when there are none): the agent ``player`` (or
    ``config.player``'s), else one of the solver's best moves, drawn at random."""
    if config.solver_share == 0:
        return None
    if player is None and config.player is not None:
        player = make_agent(config.player, game)
    if player is not None:
        agent = player
        return lambda state, rng: agent(game, state)
    chosen = solver or perfect_solver(game)
    return lambda state, rng: rng.choice(chosen.decide(state).moves)


@dataclass
class _DataMover:
    """Both players of a data game: a random move each ply, or with a ``guide`` from
    ``config.solver_from`` on its move with probability ``config.solver_moves``."""

    rng: random.Random
    config: DataConfig
    guide: Guide | None
    name: str = "distill-data"
    last: SearchResult[Any] | None = None
    ply: int = 0

    def __call__(self, game: Game[Any, Any], state: Any) -> Any:
        self.ply += 1
        config, rng, guide = self.config, self.rng, self.guide
        if (
            guide is not None
            and self.ply > config.solver_from
            and rng.random() < config.solver_moves
        ):
            return guide(state, rng)
        return random_move(game, state, rng)

    def reset(self, seed: int | None = None) -> None:
        self.ply = 0


def _play(
    game: Game[Any, Any],
    rng: random.Random,
    plies: int,
    config: DataConfig,
    guide: Guide | None,
) -> list[Any]:
    """The non-terminal states of a game of ``plies`` moves at most, the initial one first,
    played by :class:`_DataMover` in :func:`~plies.play.play_game`."""
    mover = _DataMover(rng, config, guide)
    record = play_game(game, dict.fromkeys(game.players, mover), max_plies=plies)
    states = [turn.state for turn in record.turns]
    return states if record.finished else [*states, record.state]


# Labels ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class LabelledPositions:
    """``planes`` (uint8, the game's encoding) and ``scores`` (int16 [positions, actions]:
    the solver's exact score of each action index for the mover, :data:`ILLEGAL` where no
    legal move)."""

    planes: np.ndarray
    scores: np.ndarray

    def __len__(self) -> int:
        return len(self.scores)

    def arrays(self) -> dict[str, np.ndarray]:
        return {"planes": self.planes, "scores": self.scores}

    def take(self, rows: np.ndarray) -> LabelledPositions:
        return LabelledPositions(self.planes[rows], self.scores[rows])

    @classmethod
    def concatenate(cls, parts: Sequence[LabelledPositions]) -> LabelledPositions:
        return cls(
            np.concatenate([p.planes for p in parts]), np.concatenate([p.scores for p in parts])
        )


def label_positions(
    game: Game[Any, Any],
    states: Iterable[Any],
    solver: PerfectSolver,
    progress: Callable[[], None] | None = None,
) -> LabelledPositions:
    """Every state encoded, with each legal move's exact score from ``solver.analyze``;
    ``progress()`` is called after each state."""
    encoding = require(game, HasTensorEncoding, PURPOSE)
    slots = {label: slot for slot, label in enumerate(solver.slot_labels())}
    planes, scores = [], []
    for state in states:
        analysis = solver.analyze(state)
        row = np.full(encoding.action_count(), ILLEGAL, np.int16)
        for action in game.actions(state):
            score = analysis[slots[game.format_action(state, action)]]
            if score is None:
                raise UnsupportedGameError(f"the solver scores no legal move {action!r}")
            row[encoding.action_index(state, action)] = score
        planes.append(encoding.encode(state).astype(np.uint8))
        scores.append(row)
        if progress is not None:
            progress()
    return LabelledPositions(
        np.array(planes, np.uint8).reshape(len(scores), *encoding.tensor_shape()),
        np.array(scores, np.int16).reshape(len(scores), encoding.action_count()),
    )


def score_values(scores: np.ndarray, scale: int) -> np.ndarray:
    """Each score as a value for the mover that keeps the outcome apart from the margin: 0 for
    a draw, ``±(1 + |score| / scale) / 2`` (clipped to ±1) for a win or a loss, so a win never
    shares a bin with a draw however slow it is (a plain ``score / scale`` puts a win by the
    last stone in the draw's bin)."""
    magnitude = np.minimum(np.abs(scores.astype(np.float64)), scale) / scale
    values: np.ndarray = np.sign(scores) * (1 + magnitude) / 2
    return values


def value_classes(scores: np.ndarray, scale: int, bins: int) -> np.ndarray:
    """The class (int64, -1 where illegal) of each score's value (:func:`score_values`) among
    ``bins`` equal bins of [-1, 1]."""
    values = score_values(scores, scale)
    classes = np.minimum(np.floor((values + 1) / 2 * bins), bins - 1).astype(np.int64)
    masked: np.ndarray = np.where(scores == ILLEGAL, -1, classes)
    return masked


def best_scores(scores: np.ndarray) -> np.ndarray:
    """Each position's best score (its legal moves' highest)."""
    best: np.ndarray = np.where(scores == ILLEGAL, np.iinfo(np.int16).min, scores).max(axis=1)
    return best


def policy_targets(scores: np.ndarray) -> np.ndarray:
    """The supervised policy view of the labels (the paper's behavioural-cloning target): a
    distribution [positions, actions] spread evenly over each position's best moves."""
    chosen = ((scores != ILLEGAL) & (scores == best_scores(scores)[:, None])).astype(np.float32)
    spread: np.ndarray = chosen / chosen.sum(axis=1, keepdims=True)
    return spread


# The folder -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class ChunkFolder:
    """A folder of labelled chunks (``data/chunk-CCCC.npz``) and the network trained on them:
    its game (and the spec that named it) and its data settings (anything with ``chunks`` and
    ``chunk_positions``)."""

    directory: Path
    game: Game[Any, Any]
    spec: str
    data: Any

    def chunk_file(self, chunk: int) -> Path:
        return self.directory / "data" / f"chunk-{chunk:04d}.npz"

    @property
    def model_file(self) -> Path:
        return self.directory / "model.pt"

    @property
    def metrics_file(self) -> Path:
        return self.directory / "metrics.jsonl"

    def labelled(self) -> int:
        """Positions already labelled on disk."""
        return sum(
            self.data.chunk_positions(c)
            for c in range(self.data.chunks)
            if self.chunk_file(c).is_file()
        )

    def config_json(self, form: str) -> dict[str, Any]:
        return {
            "format": form,
            "game": self.spec,
            "game_identity": game_identity(self.game),
            "data": asdict(self.data),
            "plies": __version__,
        }


@dataclass(frozen=True)
class Distillation(ChunkFolder):
    """A distillation folder (:class:`ChunkFolder` with :class:`DataConfig`) and the score
    that maps to a value of ±1 (``score_scale``)."""

    data: DataConfig
    score_scale: int

    def config_json(self, form: str = FORMAT) -> dict[str, Any]:
        return super().config_json(form) | {"score_scale": self.score_scale}


def open_distillation(
    directory: Path, game: Game[Any, Any], spec: str, data: DataConfig
) -> Distillation:
    """The distillation in ``directory``: a new one in an absent or empty folder, else the one
    there when it was started with the same game and data settings (then its chunks are
    kept); a :class:`RunFolderError` for any other folder."""
    encoding = require(game, HasTensorEncoding, PURPOSE)
    perfect_solver(game)
    _, rows, columns = encoding.tensor_shape()
    wanted = Distillation(directory, game, spec, data, (rows * columns + 1) // 2)
    settle_folder(wanted, FORMAT)
    return wanted


def settle_folder(wanted: ChunkFolder, form: str) -> None:
    """Check that ``wanted.directory`` holds a folder of ``form`` started with ``wanted``'s
    game and data settings (its chunks are then kept), or start one there when it is absent
    or empty; a :class:`RunFolderError` for any other folder."""
    directory, game = wanted.directory, wanted.game
    found = recorded_config(directory, form)
    if found is not None:
        mine = {"game": game_identity(game), **asdict(wanted.data)}
        theirs = {"game": found.get("game_identity"), **(found.get("data") or {})}
        if made_for(theirs["game"], game):  # the identity, or the repr of older folders
            theirs["game"] = mine["game"]
        changed = [f"{k} {theirs.get(k)}, not {v}" for k, v in mine.items() if theirs.get(k) != v]
        if changed:
            raise RunFolderError(
                f"{str(directory)!r} was started with other settings ({'; '.join(changed)}); "
                "choose a new folder"
            )
        return
    if directory.exists() and any(directory.iterdir()):
        raise RunFolderError(f"{str(directory)!r} is not empty and holds no distillation")
    text = json.dumps(wanted.config_json(form), indent=2) + "\n"
    write_atomically(directory / "config.json", lambda f: f.write(text.encode()))


def recorded_config(directory: Path, form: str) -> dict[str, Any] | None:
    """The ``config.json`` of the folder of ``form`` in ``directory``; None where there is
    none, a :class:`RunFolderError` where it is not of that form."""
    config_file = directory / "config.json"
    if directory.exists() and not directory.is_dir():
        raise RunFolderError(f"{str(directory)!r} is not a folder")
    if not config_file.is_file():
        return None
    try:
        found = json.loads(config_file.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise RunFolderError(f"{str(config_file)!r} is unreadable ({error})") from None
    if not isinstance(found, dict) or found.get("format") != form:
        raise RunFolderError(f"{str(directory)!r} holds another kind of run, not {form}")
    return found


def recorded_settings(directory: Path, form: str, settings: type[Any]) -> Any:
    """The data settings (a ``settings`` instance) the folder of ``form`` in ``directory``
    was started with; None where the folder holds none yet."""
    found = recorded_config(directory, form)
    if found is None:
        return None
    try:
        return settings(**(found.get("data") or {}))
    except (TypeError, SpecError) as error:
        raise RunFolderError(
            f"{str(directory)!r} records unreadable data settings ({error})"
        ) from None


def recorded_data(directory: Path) -> DataConfig | None:
    """The data settings the distillation in ``directory`` was started with; None where the
    folder holds no distillation yet."""
    found: DataConfig | None = recorded_settings(directory, FORMAT, DataConfig)
    return found


def open_source(directory: Path, game: Game[Any, Any], spec: str) -> Distillation:
    """The distillation already in ``directory``, as a source of positions for training; a
    :class:`RunFolderError` where there is none or it is of another game."""
    data = recorded_data(directory)
    if data is None:
        raise RunFolderError(f"{str(directory)!r} holds no distillation")
    return open_distillation(directory, game, spec, data)


def label_chunks(
    distillation: Distillation,
    reporter: Reporter | None = None,
    workers: int = 1,
    ray_address: str | None = None,
) -> int:
    """Generate and label the chunks not yet on disk, saving each as it is done; returns the
    number of positions labelled now (0 when every chunk was there).

    Chunks are drawn here, in order, each distinct from the chunks before it (so a missing
    chunk is drawn again the same); with ``workers`` > 1 they are labelled in that many
    spawned processes with a solver each (with ``ray_address``, in that many Ray actors of the
    cluster there: a :class:`~plies.pool.Pool`), at most two chunks a worker in flight, and
    saved as they finish. An interruption loses only the chunks in flight."""
    reporter = reporter or Reporter()
    data, game = distillation.data, distillation.game
    encoding = require(game, HasTensorEncoding, PURPOSE)
    solver = perfect_solver(game)
    player = None if data.player is None else make_agent(data.player, game)
    seen: set[bytes] = set()
    done = before = distillation.labelled()
    reporter.labelled(done, data.positions)
    missing = sum(not distillation.chunk_file(c).is_file() for c in range(data.chunks))
    workers = min(workers, missing)

    def drawn() -> Iterator[tuple[int, list[Any]]]:
        for chunk in range(data.chunks):
            path = distillation.chunk_file(chunk)
            if path.is_file():
                seen.update(position_key(encoding, planes) for planes in _load_chunk(path).planes)
                continue
            count, seed = data.chunk_positions(chunk), derived_seed(data.seed, chunk)
            yield (
                chunk,
                generate_positions(
                    game, count, seed, data, solver=solver, player=player, seen=seen
                ),
            )

    def save(chunk: int, labelled: LabelledPositions) -> None:
        nonlocal done
        path = distillation.chunk_file(chunk)
        write_atomically(path, lambda f, d=labelled: np.savez_compressed(f, **d.arrays()))
        done += len(labelled)
        reporter.labelled(done, data.positions)

    if (workers <= 1 and ray_address is None) or missing == 0:
        for chunk, states in drawn():
            counted = itertools.count(done + 1)
            ticked = lambda c=counted: reporter.labelled(next(c), data.positions)  # noqa: E731
            save(chunk, label_positions(game, states, solver, ticked))
        return done - before
    labellers = Pool(
        max(1, workers),
        setup=_start_labeller,
        setup_args=(distillation.spec,),
        ray_address=ray_address,
    )
    with labellers:
        for _, (chunk, labelled) in labellers.results(_label, drawn()):
            save(chunk, labelled)
    return done - before


_LABELLER: tuple[Game[Any, Any], PerfectSolver] | None = None
"""A labelling worker's game and solver (:func:`_start_labeller`)."""


def _start_labeller(spec: str) -> None:
    """A labelling worker (of a :class:`~plies.pool.Pool`) with its own game and solver."""
    global _LABELLER
    game = make_game(spec)
    _LABELLER = (game, perfect_solver(game))


def _label(task: tuple[int, list[Any]]) -> tuple[int, LabelledPositions]:
    """A chunk's positions labelled by this worker's solver."""
    assert _LABELLER is not None, "a labelling worker starts its solver first"
    game, solver = _LABELLER
    chunk, states = task
    return chunk, label_positions(game, states, solver)


def _load_chunk(path: Path, kind: Any = LabelledPositions) -> Any:
    """The positions saved at ``path``: a ``kind``, a dataclass of arrays saved by their
    names (:class:`LabelledPositions`, a taught distillation's ``TaughtPositions``)."""
    try:
        with np.load(path) as arrays:
            return kind(**{name: arrays[name] for name in kind.__annotations__})
    except (OSError, ValueError, KeyError) as error:
        raise RunFolderError(f"{str(path)!r} is not a readable chunk ({error})") from None


def load_data(folder: ChunkFolder, kind: Any = LabelledPositions) -> Any:
    """Every labelled chunk of ``folder`` on disk, in chunk order, as one ``kind``
    (:func:`_load_chunk`)."""
    parts = [
        _load_chunk(folder.chunk_file(c), kind)
        for c in range(folder.data.chunks)
        if folder.chunk_file(c).is_file()
    ]
    if not parts:
        raise RunFolderError(f"{str(folder.directory)!r} holds no labelled positions")
    return kind.concatenate(parts)


# Training -------------------------------------------------------------------------------------


def train_distillation(
    distillation: Distillation,
    training: TrainConfig,
    device: torch.device,
    reporter: Progress | None = None,
    *,
    sources: Sequence[Distillation] = (),
    model_file: Path | None = None,
) -> list[dict[str, Any]]:
    """Train a fresh network on the positions of ``distillation`` and of the other folders
    ``sources`` (:func:`train_on_chunks`), each batch turned by random board symmetries when
    ``training.augment``; returns the metrics."""
    for source in sources:
        if source.score_scale != distillation.score_scale:
            raise RunFolderError(f"{str(source.directory)!r} labels another board's scores")
    data = LabelledPositions.concatenate([load_data(d) for d in (distillation, *sources)])
    encoding = require(distillation.game, HasTensorEncoding, PURPOSE)
    bins = training.bins if training.kind == ACTION_VALUE else 0
    shape = NetShape.for_game(encoding, training.kind, training.blocks, training.filters, bins)
    symmetries = list(encoding.symmetries()) if training.augment else []
    scale = distillation.score_scale

    def batch(
        positions: LabelledPositions, rows: np.ndarray, rng: np.random.Generator
    ) -> tuple[np.ndarray, np.ndarray]:
        planes, scores = positions.planes[rows], positions.scores[rows]
        return augment(planes, scores, symmetries, rng) if symmetries else (planes, scores)

    def loss(network: nn.Module, batch: tuple[np.ndarray, np.ndarray]) -> torch.Tensor:
        output = network(torch.from_numpy(batch[0].astype(np.float32)).to(device))
        return _loss(output, batch[1], scale, training.bins, device)

    def evaluate(network: nn.Module, positions: LabelledPositions) -> dict[str, float]:
        return evaluate_network(network, positions, scale, bins, device)

    folders = (distillation, *sources)
    info = {"score_scale": scale, "data": [str(d.directory) for d in folders]}
    supervised = Supervised(data, batch, loss, evaluate)
    return train_on_chunks(
        distillation, supervised, shape, training, device, reporter, model_file, info
    )


@dataclass(frozen=True)
class Supervised(Generic[P, B]):
    """What a kind of labelled chunks trains on: the ``positions`` (with ``take(rows)`` and a
    length), a ``batch`` of some of them for the ``loss``, and the figures ``evaluate`` gives
    on held-out positions."""

    positions: P
    batch: Callable[[P, np.ndarray, np.random.Generator], B]
    loss: Loss[B]
    evaluate: Callable[[nn.Module, P], dict[str, Any]]


def train_on_chunks(
    folder: ChunkFolder,
    supervised: Supervised[Any, Any],
    shape: NetShape,
    training: TrainConfig,
    device: torch.device,
    reporter: Progress | None,
    model_file: Path | None,
    info: dict[str, Any],
) -> list[dict[str, Any]]:
    """Train a fresh network of ``shape`` on ``supervised``'s positions, but a held-out
    ``training.validation`` share, by :func:`~plies.learn.trainer.train_model` (seeded by the
    folder's data seed), saving it (to ``model_file``, by default the folder's ``model.pt``,
    with ``info`` and ``training``'s settings) and a metrics line (:func:`metrics_file`)
    after every epoch; returns the metrics."""
    positions = supervised.positions
    seed = folder.data.seed
    rng = np.random.default_rng(derived_seed(seed, 1))
    order = rng.permutation(len(positions))
    held = int(len(positions) * training.validation)
    validation, train = positions.take(order[:held]), positions.take(order[held:])
    model_file = model_file or folder.model_file
    schedule = Schedule(
        training.epochs,
        training.batch_size,
        training.learning_rate,
        training.weight_decay,
        final_rate=training.learning_rate / 20 if training.decay else None,
    )
    checkpoints = Checkpoints(
        model_file, metrics_file(folder, model_file), folder.game, info | asdict(training)
    )
    return train_model(
        Examples(len(train), lambda rows, rng: supervised.batch(train, rows, rng)),
        supervised.loss,
        shape,
        schedule,
        device,
        rng=rng,
        seed=derived_seed(seed, 2),
        checkpoints=checkpoints,
        evaluate=(lambda net: supervised.evaluate(net, validation)) if len(validation) else None,
        progress=reporter,
    ).lines


def metrics_file(distillation: ChunkFolder, model_file: Path) -> Path:
    """Where the metrics of the network trained into ``model_file`` go: the folder's
    ``metrics.jsonl`` for its own ``model.pt``, else beside the model (``NAME.jsonl``)."""
    if model_file == distillation.model_file:
        return distillation.metrics_file
    return model_file.with_suffix(".jsonl")


def _loss(
    output: Any, scores: np.ndarray, scale: int, bins: int, device: torch.device
) -> torch.Tensor:
    """For an action-value network (a logits tensor), the cross-entropy over the value bins of
    every legal move (the paper's action-value loss); for a policy-value network (policy
    logits and value), the cross-entropy to the best moves (:func:`policy_targets`) plus the
    squared error of the value against the best move's (:func:`score_values`)."""
    if isinstance(output, torch.Tensor):
        classes = torch.from_numpy(value_classes(scores, scale, bins)).to(device)
        return nn.functional.cross_entropy(
            output.reshape(-1, bins), classes.reshape(-1), ignore_index=-1
        )
    logits, value = output
    targets = torch.from_numpy(policy_targets(scores)).to(device)
    best = torch.from_numpy(score_values(best_scores(scores), scale).astype(np.float32))
    policy_loss = -(targets * torch.log_softmax(logits, dim=1)).sum(dim=1).mean()
    return policy_loss + nn.functional.mse_loss(value, best.to(device))


def _choices(output: Any, scores: np.ndarray, bins: int, device: torch.device) -> np.ndarray:
    """The legal action index each position's network output prefers: the highest expected
    value (action values) or the highest policy logit."""
    legal = torch.from_numpy(scores != ILLEGAL).to(device)
    if isinstance(output, torch.Tensor):
        preference = torch.softmax(output.float(), dim=-1) @ bin_centres(bins).to(device)
    else:
        preference = output[0].float()
    chosen: np.ndarray = preference.masked_fill(~legal, -math.inf).argmax(dim=1).cpu().numpy()
    return chosen


def evaluate_network(
    network: nn.Module, data: LabelledPositions, scale: int, bins: int, device: torch.device
) -> dict[str, float]:
    """On labelled positions: the loss, the share of positions where the network's move
    (:func:`_choices`) is a best move (``accuracy``, the paper's action accuracy), and the
    share where its outcome is worse than the best move's (``mistake_rate``, as
    :mod:`plies.mistakes` counts it)."""
    network.eval()
    losses, hits, mistakes = [], 0.0, 0
    with torch.inference_mode():
        for start in range(0, len(data), 1024):
            planes = data.planes[start : start + 1024].astype(np.float32)
            scores = data.scores[start : start + 1024]
            output = network(torch.from_numpy(planes).to(device))
            losses.append(_loss(output, scores, scale, bins, device).item() * len(scores))
            chosen = _choices(output, scores, bins, device)
            rows = np.arange(len(scores))
            hits += float((policy_targets(scores)[rows, chosen] > 0).sum())
            best = best_scores(scores)
            mistakes += int((np.sign(scores[rows, chosen]) < np.sign(best)).sum())
    return {
        "val_loss": round(sum(losses) / len(data), 5),
        "accuracy": round(hits / len(data), 4),
        "mistake_rate": round(mistakes / len(data), 4),
    }
