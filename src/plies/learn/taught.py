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

import random
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch import nn

from plies.capabilities import HasTensorEncoding, require
from plies.errors import LabellingError, PliesError, RunFolderError, SpecError
from plies.game import Game, random_move
from plies.inputs import write_atomically
from plies.learn.distill import (
    Chunked,
    ChunkFolder,
    Reporter,
    Supervised,
    TrainConfig,
    check_settings,
    load_data,
    recorded_settings,
    settle_folder,
    train_on_chunks,
)
from plies.learn.network import POLICY_VALUE, NetShape
from plies.learn.trainer import Progress
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


def load_positions(taught: Taught) -> TaughtPositions:
    """Every labelled chunk on disk (:func:`~plies.learn.distill.load_data`), in chunk order,
    each position once (a position met again in a later chunk, as the first positions of
    games are, is left out)."""
    data: TaughtPositions = load_data(taught, TaughtPositions)
    flat = np.ascontiguousarray(data.planes).reshape(len(data), -1)
    _, first = np.unique(flat.view(np.dtype((np.void, flat.shape[1] * 2))), return_index=True)
    return data.take(np.sort(first))


# Training -------------------------------------------------------------------------------------


def train_taught(
    taught: Taught,
    training: TrainConfig,
    device: torch.device,
    reporter: Progress | None = None,
    *,
    sources: Sequence[Taught] = (),
    model_file: Path | None = None,
) -> list[dict[str, Any]]:
    """Train a fresh policy-value network on the positions of ``taught`` and ``sources``
    (:func:`~plies.learn.distill.train_on_chunks`): cross-entropy to the teacher's move plus
    the squared error of the value, as :class:`TrainConfig` says (its ``bins`` and
    ``augment`` unused). Returns the metrics."""
    check_training(training)
    data = TaughtPositions.concatenate([load_positions(t) for t in (taught, *sources)])
    encoding = require(taught.game, HasTensorEncoding, PURPOSE)
    shape = NetShape.for_game(encoding, POLICY_VALUE, training.blocks, training.filters)

    def loss(network: nn.Module, batch: TaughtPositions) -> torch.Tensor:
        return _loss(network(_tensor(batch.planes, device)), batch, device)[0]

    supervised = Supervised(
        data,
        lambda positions, rows, rng: positions.take(rows),
        loss,
        lambda network, positions: evaluate_network(network, positions, device),
    )
    info = {"teacher": taught.data.teacher, "data": [str(t.directory) for t in (taught, *sources)]}
    return train_on_chunks(taught, supervised, shape, training, device, reporter, model_file, info)


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
