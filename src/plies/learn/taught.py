"""Learned play without search, taught by a strong agent: the recipe of "Grandmaster-level chess
without search" (Ruoss et al. 2024) with an engine as the teacher, for games no perfect solver
reaches (chess, with Stockfish through ``uci:stockfish,depth=8``).

Positions come from games the teacher plays against itself: each game opens with up to
:attr:`TaughtData.opening` random plies and then plays the teacher's move, or with probability
epsilon (drawn for each game up to :attr:`TaughtData.epsilon`) a random one, so the games range
from the teacher's own to weak ones. Every position from ply ``min_ply`` on is labelled by the
search that picks its move: the teacher's move (the behavioural-cloning target) and the mover's
expected share of the points from the teacher's score (:func:`plies.learn.tune.expected_share`,
the state-value target). A :class:`~plies.learn.network.PolicyValueNet` learns both; the
``policy`` agent plays its policy with no search, and ``az`` searches with it.

A taught distillation is a folder, written atomically as it goes, so a stopped run (Ctrl-C,
SIGTERM, or a teacher that fails) resumes with only the chunks in flight lost:

- ``config.json``: the game, the teacher, the data settings;
- ``data/chunk-CCCC.npz``: :attr:`TaughtData.chunk_size` positions of games drawn from (seed,
  C), labelled in worker processes, a teacher each: ``planes`` (float16), ``moves`` (the
  teacher's action index, int16) and ``values`` (the mover's value in [-1, 1], float32);
- the trained network (``model.pt``, kind ``policy-value``) and ``metrics.jsonl``.

Measured on this project's CPU: Stockfish 15.1 at depth 8 takes about 3 ms a position.
"""

from __future__ import annotations

import json
import math
import random
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch import nn

from plies.capabilities import HasTensorEncoding, require
from plies.errors import LabellingError, PliesError, RunFolderError, SpecError
from plies.game import Game, random_move
from plies.inputs import write_atomically
from plies.learn.checkpoint import save_checkpoint
from plies.learn.distill import (
    Chunked,
    ChunkFolder,
    Reporter,
    TrainConfig,
    check_settings,
    metrics_file,
    recorded_settings,
    settle_folder,
)
from plies.learn.network import POLICY_VALUE, NetShape, build_network
from plies.learn.training import derived_seed
from plies.learn.tune import expected_share
from plies.pool import Pool
from plies.registry import make_game

FORMAT = "plies-taught-1"
PURPOSE = "distilling a teacher"
MAX_POSITIONS = 100_000_000
MAX_GAME_PLIES = 400
"""A data game stops after this many plies (a game of random moves can last long)."""


@dataclass(frozen=True)
class TaughtData(Chunked):
    """``positions`` positions of ply ``min_ply`` or more from the self-play games of the agent
    ``teacher`` (a spec), each game opening with 0 to ``opening`` random plies and then playing
    a random move with a probability drawn for the game from 0 to ``epsilon``; ``chunk_size``
    positions a chunk, chunk C from the games of seed (``seed``, C), distinct within it."""

    positions: int
    teacher: str
    seed: int = 0
    min_ply: int = 0
    opening: int = 8
    epsilon: float = 0.3
    chunk_size: int = 256

    def __post_init__(self) -> None:
        checks = (
            (1 <= self.positions <= MAX_POSITIONS, f"positions must be 1 to {MAX_POSITIONS:,}"),
            (0 <= self.min_ply < MAX_GAME_PLIES, f"min ply={self.min_ply} must be 0 to 399"),
            (0 <= self.opening <= 100, f"opening={self.opening} must be 0 to 100"),
            (0 <= self.epsilon <= 1, f"epsilon={self.epsilon} must be 0 to 1"),
            (1 <= self.chunk_size <= 65536, f"chunk size={self.chunk_size} must be 1 to 65536"),
        )
        check_settings(checks)


@dataclass(frozen=True)
class TaughtPositions:
    """``planes`` (float16, the game's encoding), the teacher's ``moves`` (int16 action
    indices) and ``values`` (float32, the mover's expected share mapped to [-1, 1])."""

    planes: np.ndarray
    moves: np.ndarray
    values: np.ndarray

    def __len__(self) -> int:
        return len(self.moves)

    def arrays(self) -> dict[str, np.ndarray]:
        return {"planes": self.planes, "moves": self.moves, "values": self.values}

    def take(self, rows: np.ndarray) -> TaughtPositions:
        return TaughtPositions(self.planes[rows], self.moves[rows], self.values[rows])

    @classmethod
    def concatenate(cls, parts: Sequence[TaughtPositions]) -> TaughtPositions:
        return cls(*(np.concatenate([getattr(p, k) for p in parts]) for k in cls.__annotations__))


# Games and labels -----------------------------------------------------------------------------


def taught_chunk(
    game: Game[Any, Any], teacher: Any, data: TaughtData, chunk: int
) -> TaughtPositions:
    """Chunk ``chunk``: positions of the teacher's games (seeded by ``data.seed`` and the
    chunk), each labelled by the teacher's search of it, distinct within the chunk."""
    encoding = require(game, HasTensorEncoding, PURPOSE)
    rng = random.Random(derived_seed(data.seed, chunk))
    wanted = data.chunk_positions(chunk)
    seen: set[bytes] = set()
    planes: list[np.ndarray] = []
    moves: list[int] = []
    values: list[float] = []
    while len(moves) < wanted:
        state, epsilon = game.initial_state(), rng.uniform(0, data.epsilon)
        opening = rng.randint(0, data.opening)
        for ply in range(MAX_GAME_PLIES):
            if game.is_terminal(state) or len(moves) == wanted:
                break
            if ply < opening:
                state = game.result(state, random_move(game, state, rng))
                continue
            move = teacher(game, state)
            share = expected_share(game, getattr(teacher, "last", None))
            if share is None:
                raise SpecError(f"teacher {data.teacher}: its search reports no value")
            encoded = encoding.encode(state)
            key = encoded.astype(np.float16).tobytes()
            if ply >= data.min_ply and key not in seen:
                seen.add(key)
                planes.append(encoded)
                moves.append(encoding.action_index(state, move))
                values.append(2 * share - 1)
            if rng.random() < epsilon:
                move = random_move(game, state, rng)
            state = game.result(state, move)
    return TaughtPositions(
        np.array(planes, np.float16).reshape(len(moves), *encoding.tensor_shape()),
        np.array(moves, np.int16),
        np.array(values, np.float32),
    )


# The folder -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Taught(ChunkFolder):
    """A taught distillation's folder (:class:`~plies.learn.distill.ChunkFolder` with
    :class:`TaughtData`)."""

    data: TaughtData


def recorded_data(directory: Path) -> TaughtData | None:
    """The data settings the taught distillation in ``directory`` was started with; None
    where the folder holds none yet."""
    found: TaughtData | None = recorded_settings(directory, FORMAT, TaughtData)
    return found


def open_taught(directory: Path, game: Game[Any, Any], spec: str, data: TaughtData) -> Taught:
    """The taught distillation in ``directory``: a new one in an absent or empty folder, else
    the one there when it was started with the same game and data settings; a
    :class:`RunFolderError` for any other folder."""
    require(game, HasTensorEncoding, PURPOSE)
    wanted = Taught(directory, game, spec, data)
    settle_folder(wanted, FORMAT)
    return wanted


def open_source(directory: Path, game: Game[Any, Any], spec: str) -> Taught:
    """The taught distillation already in ``directory``, as a source of positions for
    training; a :class:`RunFolderError` where there is none or it is of another game."""
    data = recorded_data(directory)
    if data is None:
        raise RunFolderError(f"{str(directory)!r} holds no distillation")
    return open_taught(directory, game, spec, data)


def label_chunks(
    taught: Taught,
    reporter: Reporter | None = None,
    workers: int = 1,
    ray_address: str | None = None,
) -> int:
    """Play and label the chunks not yet on disk in ``workers`` workers (a teacher each: this
    process for one, else spawned processes or, with ``ray_address``, Ray actors of that
    cluster, whose nodes need the teacher's program; a :class:`~plies.pool.Pool`), at most two
    chunks a worker in flight, saving each as it finishes; returns the positions labelled now.
    An interruption, or a teacher that fails (its error is raised), loses only the chunks in
    flight."""
    reporter = reporter or Reporter()
    data = taught.data
    done = before = taught.labelled()
    reporter.labelled(done, data.positions)
    missing = [c for c in range(data.chunks) if not taught.chunk_file(c).is_file()]
    if not missing:
        return 0
    check_teacher(taught.game, data.teacher)
    teachers = Pool(
        max(1, min(workers, len(missing))),
        setup=_start_teacher,
        setup_args=(taught.spec, data.teacher),
        ray_address=ray_address,
    )
    with teachers:
        try:
            for _, (chunk, positions) in teachers.results(_label, ((data, c) for c in missing)):
                write_atomically(
                    taught.chunk_file(chunk),
                    lambda f, p=positions: np.savez_compressed(f, **p.arrays()),
                )
                done += len(positions)
                reporter.labelled(done, data.positions)
        except PliesError as error:
            raise LabellingError(
                f"labelling stopped ({error}); the {done:,} positions labelled are kept in "
                f"{str(taught.directory)!r}, and the same command goes on from there"
            ) from None
    return done - before


def check_teacher(game: Game[Any, Any], teacher: str) -> None:
    """Build ``teacher`` and let it choose one move, so that a bad spec, a missing engine or a
    teacher whose search reports no value is told before any work (its error, or a
    :class:`SpecError`)."""
    from plies.agents import make_agent

    agent = make_agent(teacher, game)
    try:
        agent(game, game.initial_state())
        if expected_share(game, getattr(agent, "last", None)) is None:
            raise SpecError(f"teacher {teacher}: its search reports no value")
    finally:
        close = getattr(agent, "close", None)
        if close is not None:
            close()


_TEACHER: tuple[Game[Any, Any], Any] | None = None
"""A labelling worker's game and teacher (:func:`_start_teacher`)."""


def _start_teacher(spec: str, teacher: str) -> None:
    """A labelling worker (of a :class:`~plies.pool.Pool`) with its own teacher."""
    from plies.agents import make_agent

    global _TEACHER
    game = make_game(spec)
    _TEACHER = (game, make_agent(teacher, game))


def _label(task: tuple[TaughtData, int]) -> tuple[int, TaughtPositions]:
    """A chunk played and labelled by this worker's teacher."""
    assert _TEACHER is not None, "a labelling worker starts its teacher first"
    game, teacher = _TEACHER
    data, chunk = task
    return chunk, taught_chunk(game, teacher, data, chunk)


def _load_chunk(path: Path) -> TaughtPositions:
    try:
        with np.load(path) as arrays:
            return TaughtPositions(arrays["planes"], arrays["moves"], arrays["values"])
    except (OSError, ValueError, KeyError) as error:
        raise RunFolderError(f"{str(path)!r} is not a readable chunk ({error})") from None


def load_data(taught: Taught) -> TaughtPositions:
    """Every labelled chunk on disk, in chunk order, each position once (a position met again
    in a later chunk, as the first positions of games are, is left out)."""
    parts = [
        _load_chunk(taught.chunk_file(c))
        for c in range(taught.data.chunks)
        if taught.chunk_file(c).is_file()
    ]
    if not parts:
        raise RunFolderError(f"{str(taught.directory)!r} holds no labelled positions")
    data = TaughtPositions.concatenate(parts)
    flat = np.ascontiguousarray(data.planes).reshape(len(data), -1)
    _, first = np.unique(flat.view(np.dtype((np.void, flat.shape[1] * 2))), return_index=True)
    return data.take(np.sort(first))


# Training -------------------------------------------------------------------------------------


def train_model(
    taught: Taught,
    training: TrainConfig,
    device: torch.device,
    reporter: Reporter | None = None,
    *,
    sources: Sequence[Taught] = (),
    model_file: Path | None = None,
) -> list[dict[str, Any]]:
    """Train a fresh policy-value network on the positions of ``taught`` and ``sources``
    (seeded by the data seed): cross-entropy to the teacher's move plus the squared error of
    the value, AdamW as :class:`TrainConfig` says (its ``bins`` unused); the model (to
    ``model_file``, by default the folder's ``model.pt``) and a metrics line are saved after
    every epoch. Returns the metrics."""
    check_training(training)
    reporter = reporter or Reporter()
    data = TaughtPositions.concatenate([load_data(t) for t in (taught, *sources)])
    model_file = model_file or taught.model_file
    encoding = require(taught.game, HasTensorEncoding, PURPOSE)
    rng = np.random.default_rng(derived_seed(taught.data.seed, 1))
    order = rng.permutation(len(data))
    held = int(len(data) * training.validation)
    validation, train = data.take(order[:held]), data.take(order[held:])
    torch.manual_seed(derived_seed(taught.data.seed, 2))
    shape = NetShape.for_game(encoding, POLICY_VALUE, training.blocks, training.filters)
    network = build_network(shape).to(device)
    optimiser = torch.optim.AdamW(
        network.parameters(), lr=training.learning_rate, weight_decay=training.weight_decay
    )
    steps = training.epochs * math.ceil(len(train) / training.batch_size)
    low = training.learning_rate / 20 if training.decay else training.learning_rate
    schedule = torch.optim.lr_scheduler.CosineAnnealingLR(optimiser, max(steps, 1), low)
    lines: list[dict[str, Any]] = []
    metrics_path = metrics_file(taught, model_file)
    reporter.epoch(0, training.epochs)
    for epoch in range(1, training.epochs + 1):
        began = time.perf_counter()
        network.train()
        total, batches = 0.0, 0
        order = rng.permutation(len(train))
        for start in range(0, len(order), training.batch_size):
            batch = train.take(order[start : start + training.batch_size])
            loss = _loss(network(_tensor(batch.planes, device)), batch, device)[0]
            optimiser.zero_grad()
            loss.backward()  # type: ignore[no-untyped-call]
            optimiser.step()
            schedule.step()
            total, batches = total + loss.item(), batches + 1
        metrics: dict[str, Any] = {
            "epoch": epoch,
            "positions": len(train),
            "loss": round(total / max(batches, 1), 5),
        }
        if len(validation):
            metrics |= evaluate_network(network, validation, device)
        metrics["seconds"] = round(time.perf_counter() - began, 3)
        lines.append(metrics)
        info = {
            "epoch": epoch,
            "teacher": taught.data.teacher,
            "data": [str(t.directory) for t in (taught, *sources)],
            **asdict(training),
        }
        save_checkpoint(model_file, network, shape, taught.game, **info)
        text = "".join(json.dumps(line) + "\n" for line in lines)
        write_atomically(metrics_path, lambda f, t=text: f.write(t.encode()))
        reporter.epoch(epoch, training.epochs)
        reporter.finished(metrics)
    return lines


def check_training(training: TrainConfig) -> None:
    """A :class:`SpecError` unless ``training`` asks for the network a teacher's labels
    train: policy-value (an action-value network needs every move's value)."""
    if training.kind != POLICY_VALUE:
        raise SpecError(f"a teacher's labels train a {POLICY_VALUE} network, not {training.kind}")


def _tensor(planes: np.ndarray, device: torch.device) -> torch.Tensor:
    return torch.from_numpy(planes.astype(np.float32)).to(device)


def _loss(
    output: tuple[torch.Tensor, torch.Tensor], batch: TaughtPositions, device: torch.device
) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """The loss (the policy's cross-entropy to the teacher's moves plus the value's squared
    error), and its two parts."""
    logits, value = output
    moves = torch.from_numpy(batch.moves.astype(np.int64)).to(device)
    policy = nn.functional.cross_entropy(logits, moves)
    squared = nn.functional.mse_loss(value, torch.from_numpy(batch.values).to(device))
    return policy + squared, policy, squared


def evaluate_network(
    network: nn.Module, data: TaughtPositions, device: torch.device
) -> dict[str, float]:
    """On labelled positions: the loss and its parts, and the share of positions where the
    policy's top index (over all indices, legal or not) is the teacher's move
    (``accuracy``)."""
    network.eval()
    sums, hits = np.zeros(3), 0
    with torch.inference_mode():
        for start in range(0, len(data), 1024):
            batch = data.take(np.arange(start, min(start + 1024, len(data))))
            output = network(_tensor(batch.planes, device))
            sums += [part.item() * len(batch) for part in _loss(output, batch, device)]
            chosen = output[0].argmax(dim=1).cpu().numpy()
            hits += int((chosen == batch.moves).sum())
    loss, policy, squared = sums / len(data)
    return {
        "val_loss": round(float(loss), 5),
        "val_policy_loss": round(float(policy), 5),
        "val_value_loss": round(float(squared), 5),
        "accuracy": round(hits / len(data), 4),
    }
