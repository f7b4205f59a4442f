"""The one supervised training loop of plies: distillation, taught positions, imitation and
self-play's network step all train through :func:`train_model`, and no other module steps an
optimiser.

A caller gives what is its own, its examples (:class:`Examples`: how many, and a batch of
given rows) and its loss (a callable of the network and a batch); the loop owns the rest:
the network (a fresh one of a shape, or a checkpoint's to go on with), AdamW (Loshchilov and
Hutter 2019) with an optional cosine fall of the learning rate (:class:`Schedule`), the
device, the checkpoints (:class:`Checkpoints`: written atomically after every epoch, resumed
from) and the progress (:class:`Progress`).

Every random choice (the batches, the symmetries they are turned by) comes from the caller's
``rng`` and the new network's weights from ``seed``, so the same seeds train the same weights
(on the same PyTorch and kind of CPU); a resumable checkpoint keeps the optimiser, the
learning rate schedule and ``rng`` where they were, so a stopped run resumed ends with the
weights of a run never stopped.
"""

from __future__ import annotations

import functools
import json
import math
import operator
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Generic, TypeVar

import numpy as np
import torch
from torch import nn

from plies.capabilities import Symmetry
from plies.errors import CheckpointError, SpecError
from plies.game import Game
from plies.inputs import write_atomically
from plies.learn.checkpoint import Checkpoint, load_checkpoint, save_checkpoint
from plies.learn.network import NetShape, build_network

MAX_EPOCHS = 10_000
MAX_BATCH = 65_536
MAX_STEPS = 10**7

B = TypeVar("B")

Loss = Callable[[nn.Module, B], torch.Tensor | dict[str, torch.Tensor]]
"""``loss(network, batch)``: the loss to lower (its mean is reported as ``loss``), or named
parts whose sum is lowered (each part's mean reported under its name)."""

Evaluate = Callable[[nn.Module], dict[str, Any]]
"""``evaluate(network)``: figures added to an epoch's metrics (held-out losses, accuracy)."""


@dataclass(frozen=True)
class Examples(Generic[B]):
    """``size`` examples; ``batch(rows, rng)`` is those of the indices ``rows`` as a batch for
    the loss, turned by board symmetries drawn from ``rng`` where the caller augments."""

    size: int
    batch: Callable[[np.ndarray, np.random.Generator], B]


@dataclass(frozen=True)
class Schedule:
    """``epochs`` epochs of batches of ``batch_size``: each a pass over the examples in a
    shuffled order, or with ``steps`` that many batches drawn with replacement; AdamW at
    ``learning_rate`` with ``weight_decay``, the rate falling along a cosine to
    ``final_rate`` by the last step where one is given (Loshchilov and Hutter 2017)."""

    epochs: int
    batch_size: int
    learning_rate: float
    weight_decay: float
    steps: int | None = None
    final_rate: float | None = None

    def __post_init__(self) -> None:
        checks = (
            (1 <= self.epochs <= MAX_EPOCHS, f"epochs={self.epochs} must be 1 to {MAX_EPOCHS}"),
            (
                1 <= self.batch_size <= MAX_BATCH,
                f"batch size={self.batch_size} must be 1 to {MAX_BATCH}",
            ),
            (0 < self.learning_rate <= 1, f"learning rate={self.learning_rate} must be in (0, 1]"),
            (0 <= self.weight_decay <= 1, f"weight decay={self.weight_decay} must be 0 to 1"),
            (
                self.steps is None or 1 <= self.steps <= MAX_STEPS,
                f"steps={self.steps} must be 1 to {MAX_STEPS:,}",
            ),
            (
                self.final_rate is None or 0 <= self.final_rate <= self.learning_rate,
                f"final rate={self.final_rate} must be 0 to the learning rate",
            ),
        )
        for ok, message in checks:
            if not ok:
                raise SpecError(message)

    def batches(self, examples: int) -> int:
        """The batches of an epoch over ``examples`` examples."""
        return self.steps or math.ceil(examples / self.batch_size)


@dataclass(frozen=True)
class Checkpoints:
    """After every epoch the metrics of every epoch so far go to ``metrics`` (a JSON line
    each), then the network to ``model`` (a checkpoint for ``game``, its info ``info`` and the
    epoch), so a checkpoint always has its metrics line. With ``resume`` the checkpoint also
    keeps the optimiser, the learning rate schedule and the random state, and a run that finds
    one at ``model`` goes on after its epoch."""

    model: Path
    metrics: Path
    game: Game[Any, Any]
    info: dict[str, Any] = field(default_factory=dict)
    resume: bool = False


class Progress:
    """What training tells its front end; every method does nothing here."""

    def epoch(self, done: int, total: int) -> None: ...

    def steps(self, done: int, total: int) -> None: ...

    def finished(self, metrics: dict[str, Any]) -> None: ...


@dataclass(frozen=True)
class Trained:
    """The trained network, the metrics of every epoch (resumed ones included) and the
    optimiser's state (for a caller that saves its own checkpoints)."""

    network: nn.Module
    lines: list[dict[str, Any]]
    optimiser: dict[str, Any]


def train_model(
    examples: Examples[B],
    loss: Loss[B],
    shape: NetShape,
    schedule: Schedule,
    device: torch.device,
    *,
    rng: np.random.Generator,
    seed: int,
    start: Checkpoint | None = None,
    checkpoints: Checkpoints | None = None,
    evaluate: Evaluate | None = None,
    progress: Progress | None = None,
) -> Trained:
    """Train on ``examples`` by lowering ``loss`` as ``schedule`` says, on ``device``: the
    network (of ``shape``) and optimiser of ``start``, of a resumable checkpoint at
    ``checkpoints.model``, or fresh ones (the weights drawn after ``torch.manual_seed(seed)``).
    Each epoch's metrics line holds its number, the examples, the mean loss (or its parts),
    ``evaluate``'s figures and the seconds it took. A :class:`SpecError` where there is no
    example."""
    if examples.size < 1:
        raise SpecError("no examples to train on (every one held out?)")
    progress = progress or Progress()
    torch.manual_seed(seed)
    resumed = _resumed(checkpoints, shape, device)
    begun = resumed or start
    network = begun.network if begun is not None else build_network(shape).to(device)
    optimiser = torch.optim.AdamW(
        network.parameters(), lr=schedule.learning_rate, weight_decay=schedule.weight_decay
    )
    if begun is not None and "optimiser" in begun.info:
        optimiser.load_state_dict(begun.info["optimiser"])
    per_epoch = schedule.batches(examples.size)
    rate = None
    if schedule.final_rate is not None:
        rate = torch.optim.lr_scheduler.CosineAnnealingLR(
            optimiser, max(schedule.epochs * per_epoch, 1), schedule.final_rate
        )
    lines: list[dict[str, Any]] = []
    if resumed is not None and checkpoints is not None:
        lines = read_metrics(checkpoints.metrics)[: int(resumed.info.get("epoch", 0))]
        if rate is not None and "schedule" in resumed.info:
            rate.load_state_dict(resumed.info["schedule"])
        if "rng" in resumed.info:
            rng.bit_generator.state = resumed.info["rng"]
    steps = _Steps(optimiser, rate, loss, examples, schedule, rng, progress)
    progress.epoch(len(lines), schedule.epochs)
    for epoch in range(len(lines) + 1, schedule.epochs + 1):
        began = time.perf_counter()
        network.train()
        line = {"epoch": epoch, "positions": examples.size, **steps.epoch(network)}
        if evaluate is not None:
            line |= evaluate(network)
        line["seconds"] = round(time.perf_counter() - began, 3)
        lines.append(line)
        if checkpoints is not None:
            text = "".join(json.dumps(each) + "\n" for each in lines)
            write_atomically(checkpoints.metrics, lambda f, t=text: f.write(t.encode()))
            state = _state(optimiser, rate, rng) if checkpoints.resume else {}
            info = {"epoch": epoch, **state, **checkpoints.info}
            save_checkpoint(checkpoints.model, network, shape, checkpoints.game, **info)
        progress.epoch(epoch, schedule.epochs)
        progress.finished(line)
    return Trained(network, lines, optimiser.state_dict())


@dataclass
class _Steps(Generic[B]):
    """The optimiser's steps of one epoch, on batches drawn from ``rng``."""

    optimiser: torch.optim.Optimizer
    rate: torch.optim.lr_scheduler.LRScheduler | None
    loss: Loss[B]
    examples: Examples[B]
    schedule: Schedule
    rng: np.random.Generator
    progress: Progress

    def epoch(self, network: nn.Module) -> dict[str, float]:
        """One epoch's steps; the mean of the loss (or of each of its parts), rounded."""
        size, batch_size = self.examples.size, self.schedule.batch_size
        total = self.schedule.batches(size)
        order = None if self.schedule.steps else self.rng.permutation(size)
        sums: dict[str, float] = {}
        for step in range(total):
            if order is None:
                rows = self.rng.integers(0, size, batch_size)
            else:
                rows = order[step * batch_size : (step + 1) * batch_size]
            found = self.loss(network, self.examples.batch(rows, self.rng))
            parts = {"loss": found} if isinstance(found, torch.Tensor) else found
            lowered = functools.reduce(operator.add, parts.values())
            self.optimiser.zero_grad()
            lowered.backward()  # type: ignore[no-untyped-call]
            self.optimiser.step()
            if self.rate is not None:
                self.rate.step()
            for name, part in parts.items():
                sums[name] = sums.get(name, 0.0) + part.item()
            self.progress.steps(step + 1, total)
        return {name: round(value / max(total, 1), 5) for name, value in sums.items()}


def _resumed(
    checkpoints: Checkpoints | None, shape: NetShape, device: torch.device
) -> Checkpoint | None:
    """The resumable checkpoint at ``checkpoints.model``, or None where there is none; a
    :class:`CheckpointError` where its network is not of ``shape``."""
    if checkpoints is None or not checkpoints.resume or not checkpoints.model.is_file():
        return None
    saved = load_checkpoint(checkpoints.model, checkpoints.game, shape.kind, device)
    if saved.shape != shape:
        raise CheckpointError(
            f"checkpoint {str(checkpoints.model)!r} has {saved.shape.blocks} x "
            f"{saved.shape.filters} blocks, not {shape.blocks} x {shape.filters}: "
            "use another --out"
        )
    return saved


def _state(
    optimiser: torch.optim.Optimizer,
    rate: torch.optim.lr_scheduler.LRScheduler | None,
    rng: np.random.Generator,
) -> dict[str, Any]:
    """What a resumable checkpoint keeps beside the weights."""
    state: dict[str, Any] = {"optimiser": optimiser.state_dict()}
    if rate is not None:
        state["schedule"] = rate.state_dict()
    return state | {"rng": rng.bit_generator.state}


def read_metrics(path: Path) -> list[dict[str, Any]]:
    """The metrics lines at ``path`` (none before the first epoch)."""
    if not path.is_file():
        return []
    return [json.loads(line) for line in path.read_text().splitlines() if line]


def augment(
    planes: np.ndarray,
    policies: np.ndarray,
    symmetries: list[Symmetry] | Any,
    rng: np.random.Generator,
) -> tuple[np.ndarray, np.ndarray]:
    """Each position and its policy (any array over the action indices) turned by a symmetry
    drawn at random."""
    count, channels = planes.shape[:2]
    flat = planes.reshape(count, channels, -1)
    drawn = rng.integers(0, len(symmetries), count)
    out_planes, out_policies = np.empty_like(flat), np.empty_like(policies)
    for s, symmetry in enumerate(symmetries):
        rows = drawn == s
        out_planes[rows] = flat[rows][:, :, list(symmetry.cells)]
        out_policies[rows] = policies[rows][:, list(symmetry.actions)]
    return out_planes.reshape(planes.shape), out_policies
