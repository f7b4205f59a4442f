"""Training by self-play, generation after generation (AlphaZero's loop, Silver et al. 2018):
the latest network plays games against itself, the network trains on a window of the latest
generations' positions (policy cross-entropy against the search's visit counts plus squared
error of the value against the game result), and the new network is saved.

A run is a folder, written atomically as it goes, so a run stopped at any point (Ctrl-C,
SIGTERM, kill -9, a crash, a new machine) resumes with nothing lost but the games in flight:

- ``config.json``: the game, network shape, settings (training's PyTorch threads among them)
  and seed, written last when a run is made (a folder without it is no run);
- ``checkpoints/gen-NNNN.pt``: the network after generation N (0: untrained), with its
  optimiser from generation 1 on;
- ``replay/gen-NNNN/chunk-CCCC.npz``: generation N's self-play positions, a chunk of games at
  a time, each chunk with its own fixed seeds;
- ``metrics.jsonl``: one line per generation (losses, speed, evaluation).

Every random choice comes from the run's seed, the generation and the chunk (never from the
worker that plays a chunk or the order chunks finish in), and each generation starts from the
files of the one before, so a run stopped and resumed ends with what a run never stopped
writes: the same checkpoints byte for byte, the same arrays in every replay chunk but
``seconds`` (the wall time it took), the same metrics but ``selfplay_seconds`` and
``simulations_per_second``. That holds where the arithmetic is the same: the same PyTorch and
NumPy on the same kind of CPU, training on the CPU (on the run's recorded number of threads,
whatever the machine's). Resumed with another PyTorch, on another kind of CPU, or training on
a GPU (PyTorch does not promise repeatable CUDA results), nothing is lost, but the networks
trained after the stop may differ in their last bits, and the games they play accordingly.
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Callable
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np
import torch
import torch._dynamo  # loaded with PyTorch (plies train holds Ctrl-C then), not by an optimiser
from torch import nn

from plies import __version__
from plies.capabilities import HasTensorEncoding, require
from plies.errors import RunFolderError, SpecError
from plies.game import Game
from plies.inputs import write_atomically
from plies.learn.checkpoint import Checkpoint, load_checkpoint, save_checkpoint
from plies.learn.evaluator import torch_threads
from plies.learn.network import POLICY_VALUE, NetShape, build_network
from plies.learn.selfplay import SelfPlayConfig, SelfPlayData
from plies.learn.trainer import Examples, Progress, Schedule, Trained, augment, train_model
from plies.learn.workers import Chunk, Network, SelfPlayPool
from plies.registry import game_identity, game_spec

FORMAT = "plies-run-1"
MAX_GAMES = 1_000_000
MAX_GENERATIONS = 100_000
REUSE = 8
"""Default gradient steps: enough for each new position to be drawn about this many times."""


@dataclass(frozen=True)
class TrainingConfig:
    """Per generation: ``games`` of self-play, ``parallel`` of them at once in a chunk, then
    ``steps`` gradient steps (None: enough to draw each new position :data:`REUSE` times) on
    batches drawn from the last ``window`` generations, each position turned by a random board
    symmetry when ``augment``; the value target mixes the game result with the root's search
    value by ``value_mix``. The network alone is then scored over ``eval_games`` against random
    moves and, for games with a perfect solver, on ``eval_positions`` fixed positions. Training
    runs on ``threads`` PyTorch CPU threads (None: this machine's count, recorded when the run
    is made), as a different count sums in another order and trains another network."""

    games: int = 64
    parallel: int = 32
    steps: int | None = None
    batch_size: int = 256
    learning_rate: float = 1e-3
    weight_decay: float = 1e-4
    window: int = 4
    value_mix: float = 0.0
    augment: bool = True
    eval_games: int = 20
    eval_positions: int = 0
    threads: int | None = None

    def __post_init__(self) -> None:
        checks = (
            (1 <= self.games <= MAX_GAMES, f"games={self.games} must be 1 to {MAX_GAMES}"),
            (1 <= self.parallel <= 4096, f"parallel={self.parallel} must be 1 to 4096"),
            (self.steps is None or 1 <= self.steps <= 10**7, f"steps={self.steps} out of range"),
            (1 <= self.batch_size <= 65536, f"batch size={self.batch_size} must be 1 to 65536"),
            (0 < self.learning_rate <= 1, f"learning rate={self.learning_rate} must be in (0, 1]"),
            (0 <= self.weight_decay <= 1, f"weight decay={self.weight_decay} must be 0 to 1"),
            (1 <= self.window <= 1000, f"window={self.window} must be 1 to 1000 generations"),
            (0 <= self.value_mix <= 1, f"value mix={self.value_mix} must be 0 to 1"),
            (0 <= self.eval_games <= 10_000, f"eval games={self.eval_games} must be 0 to 10000"),
            (0 <= self.eval_positions <= 10_000, "eval positions must be 0 to 10000"),
            (self.threads is None or 1 <= self.threads <= 1024, "threads must be 1 to 1024"),
        )
        for ok, message in checks:
            if not ok:
                raise SpecError(message)


class Reporter:
    """What a run tells its front end; every method does nothing here."""

    def generation(self, generation: int, total: int) -> None: ...

    def games(self, done: int, total: int) -> None: ...

    def steps(self, done: int, total: int) -> None: ...

    def finished(self, metrics: dict[str, Any]) -> None: ...


Evaluate = Callable[[Game[Any, Any], Path, int], dict[str, Any]]
"""``evaluate(game, checkpoint, generation)``: the evaluation figures of a generation."""


@dataclass
class Run:
    """A run folder and its settings."""

    directory: Path
    game: Game[Any, Any]
    spec: str
    shape: NetShape
    selfplay: SelfPlayConfig
    training: TrainingConfig
    seed: int

    @property
    def encoding(self) -> HasTensorEncoding:
        return require(self.game, HasTensorEncoding, "training")

    @property
    def threads(self) -> int:
        """PyTorch's CPU threads for training: those recorded when the run was made (this
        process's for a run made before they were recorded)."""
        return self.training.threads or torch.get_num_threads()

    def checkpoint(self, generation: int) -> Path:
        return self.directory / "checkpoints" / f"gen-{generation:04d}.pt"

    def chunk_file(self, generation: int, chunk: int) -> Path:
        return self.directory / "replay" / f"gen-{generation:04d}" / f"chunk-{chunk:04d}.npz"

    @property
    def metrics_file(self) -> Path:
        return self.directory / "metrics.jsonl"

    def chunks(self, generation: int) -> list[Chunk]:
        """Generation ``generation``'s chunks; game i's seed depends on (seed, generation, i)."""
        games, size = self.training.games, self.training.parallel
        seeds = [derived_seed(self.seed, generation, i) for i in range(games)]
        return [
            Chunk(c, generation, tuple(seeds[c * size : (c + 1) * size]))
            for c in range(math.ceil(games / size))
        ]

    def last_generation(self) -> int:
        """The newest generation with a checkpoint (-1: none yet)."""
        found = [int(p.stem[4:]) for p in (self.directory / "checkpoints").glob("gen-*.pt")]
        return max(found, default=-1)

    def metrics(self) -> list[dict[str, Any]]:
        if not self.metrics_file.is_file():
            return []
        lines = self.metrics_file.read_text(encoding="utf-8").splitlines()
        return [json.loads(line) for line in lines if line.strip()]

    def config_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "game": self.spec,
            "game_identity": game_identity(self.game),
            "network": self.shape.to_json(),
            "selfplay": self.selfplay.to_json(),
            "training": asdict(self.training),
            "seed": self.seed,
            "plies": __version__,
        }


def derived_seed(*parts: int) -> int:
    """A seed drawn from ``parts`` (run seed, generation, index...) by NumPy's SeedSequence:
    the same parts give the same seed in every process."""
    return int(np.random.SeedSequence(list(parts)).generate_state(1)[0])


def create_run(
    directory: Path,
    game: Game[Any, Any],
    spec: str,
    shape: NetShape,
    selfplay: SelfPlayConfig,
    training: TrainingConfig,
    seed: int,
    initial: Checkpoint | None = None,
) -> Run:
    """A new run folder, its generation 0 a fresh network of ``shape`` or, given ``initial``, a
    copy of that network (whose shape must be ``shape``). ``config.json`` is written last, so a
    folder without one is no run: ``directory`` must be empty or hold only what a creation
    stopped before that left (:func:`_left_by_a_stopped_creation`)."""
    require(game, HasTensorEncoding, "training")
    if initial is not None and initial.shape != shape:
        raise SpecError(f"the initial network's shape {initial.shape} is not {shape}")
    if directory.exists() and not directory.is_dir():
        raise RunFolderError(f"{str(directory)!r} is a file: name a new folder for the run")
    if directory.exists() and not _left_by_a_stopped_creation(directory):
        raise RunFolderError(
            f"{str(directory)!r} already exists and is not empty; "
            "resume a run with --resume, or choose a new folder"
        )
    training = replace(training, threads=training.threads or torch.get_num_threads())
    run = Run(directory, game, spec, shape, selfplay, training, seed)
    config = run.config_json()
    if initial is not None:
        config["initial"] = {"game": initial.game, **initial.info}
    torch.manual_seed(seed)
    network = build_network(shape)
    if initial is not None:
        network.load_state_dict(initial.network.state_dict())
    save_checkpoint(run.checkpoint(0), network, shape, game, generation=0)
    text = json.dumps(config, indent=2) + "\n"
    write_atomically(directory / "config.json", lambda f: f.write(text.encode()))
    return run


def _left_by_a_stopped_creation(directory: Path) -> bool:
    """Whether the folder ``directory`` holds nothing but what :func:`create_run` leaves when
    stopped before ``config.json``: a ``checkpoints`` folder with generation 0's checkpoint or
    its temporary file, or nothing at all."""
    entries = list(directory.iterdir())
    if not entries:
        return True
    checkpoints = directory / "checkpoints"
    if entries != [checkpoints] or not checkpoints.is_dir():
        return False
    zero = "gen-0000.pt"
    return all(
        path.is_file()
        and (path.name == zero or (path.name.startswith(f".{zero}.") and path.suffix == ".tmp"))
        for path in checkpoints.iterdir()
    )


def open_run(directory: Path, make_game: Callable[[str], Game[Any, Any]]) -> Run:
    """The run in ``directory``, its game rebuilt from the spec it was started with."""
    config_file = directory / "config.json"
    if not config_file.is_file():
        raise RunFolderError(f"{str(directory)!r} is not a training run (no config.json)")
    try:
        config = json.loads(config_file.read_text(encoding="utf-8"))
        if config.get("format") != FORMAT:
            raise ValueError(f"format is not {FORMAT}")
        game = make_game(config["game"])
        run = Run(
            directory,
            game,
            config["game"],
            NetShape(**config["network"]),
            SelfPlayConfig(**config["selfplay"]),
            TrainingConfig(**config["training"]),
            int(config["seed"]),
        )
    except (ValueError, KeyError, TypeError) as error:
        raise RunFolderError(
            f"{str(config_file)!r} is not a readable run configuration ({error})"
        ) from None
    if run.last_generation() < 0:
        raise RunFolderError(f"{str(directory)!r} has no checkpoint: start a new run instead")
    return run


def train(
    run: Run,
    generations: int,
    pool: SelfPlayPool,
    device: torch.device,
    evaluate: Evaluate | None = None,
    reporter: Reporter | None = None,
) -> list[dict[str, Any]]:
    """Run generations up to ``generations`` (resuming after the last checkpoint) on the run's
    PyTorch threads and return the metrics of those it ran. Stopping it at any point loses only
    the games in flight."""
    if not 1 <= generations <= MAX_GENERATIONS:
        raise SpecError(f"generations={generations} must be 1 to {MAX_GENERATIONS}")
    reporter = reporter or Reporter()
    done: list[dict[str, Any]] = []
    for generation in range(run.last_generation() + 1, generations + 1):
        reporter.generation(generation, generations)
        with torch_threads(run.threads):
            metrics = run_generation(run, generation, pool, device, evaluate, reporter)
        reporter.finished(metrics)
        done.append(metrics)
    return done


def run_generation(
    run: Run,
    generation: int,
    pool: SelfPlayPool,
    device: torch.device,
    evaluate: Evaluate | None,
    reporter: Reporter,
) -> dict[str, Any]:
    """Self-play with the previous network, training, evaluation, metrics, checkpoint. The
    checkpoint is written beside its final name first and moved there last, so a generation
    with a checkpoint always has its metrics line (a stop before that redoes the generation,
    which gives the same network)."""
    previous = load_checkpoint(run.checkpoint(generation - 1), run.game, POLICY_VALUE, device)
    data = _self_play(run, generation, previous.network, pool, reporter)
    first = max(1, generation - run.training.window + 1)
    window = [_generation_data(run, g) for g in range(first, generation)] + [data]
    trained, losses = train_network(run, generation, previous, window, device, reporter)
    final = run.checkpoint(generation)
    candidate = final.with_name(f".{final.stem}-candidate.pt")
    save_checkpoint(
        candidate,
        trained.network,
        run.shape,
        run.game,
        generation=generation,
        optimiser=trained.optimiser,
    )
    trained.network.eval()
    metrics: dict[str, Any] = {
        "generation": generation,
        "games": data.games,
        "positions": len(data.outcomes),
        "window_positions": sum(len(d.outcomes) for d in window),
        "selfplay_seconds": round(data.seconds, 3),
        "simulations_per_second": round(data.simulations / max(data.seconds, 1e-9)),
        "first_wins": data.first_wins,
        "second_wins": data.second_wins,
        "draws": data.draws,
        **losses,
    }
    if evaluate is not None:
        metrics["evaluation"] = evaluate(run.game, candidate, generation)
    _append_metrics(run, metrics)
    os.replace(candidate, final)
    return metrics


def _self_play(
    run: Run, generation: int, network: nn.Module, pool: SelfPlayPool, reporter: Reporter
) -> SelfPlayData:
    """The generation's data: chunks already on disk are kept, the others played and saved
    one by one as they finish."""
    chunks = run.chunks(generation)
    missing = [c for c in chunks if not run.chunk_file(generation, c.index).is_file()]
    total = run.training.games
    played = total - sum(len(c.seeds) for c in missing)
    reporter.games(played, total)
    if missing:
        weights = {k: v.detach().cpu().numpy().copy() for k, v in network.state_dict().items()}
        shared = Network(game_spec(run.game), run.shape, weights, generation - 1)
        for chunk, data in pool.play(shared, missing, run.selfplay):
            path = run.chunk_file(generation, chunk.index)
            write_atomically(path, lambda f, d=data: np.savez_compressed(f, **d.arrays()))
            played += len(chunk.seeds)
            reporter.games(played, total)
    return _generation_data(run, generation)


def _generation_data(run: Run, generation: int) -> SelfPlayData:
    parts = []
    for chunk in run.chunks(generation):
        with np.load(run.chunk_file(generation, chunk.index)) as arrays:
            parts.append(SelfPlayData.from_arrays(arrays))
    return SelfPlayData.concatenate(parts)


def train_network(
    run: Run,
    generation: int,
    start: Checkpoint,
    window: list[SelfPlayData],
    device: torch.device,
    reporter: Reporter,
) -> tuple[Trained, dict[str, float]]:
    """Gradient steps (:func:`~plies.learn.trainer.train_model`) on random batches of the
    window, from ``start``'s network and optimiser; the trained network and optimiser, and the
    mean losses."""
    training = run.training
    data = SelfPlayData.concatenate(window)
    new = len(window[-1].outcomes)
    steps = training.steps or max(1, math.ceil(REUSE * new / training.batch_size))
    symmetries = run.encoding.symmetries() if training.augment else []

    def batch(
        chosen: np.ndarray, rng: np.random.Generator
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        planes, policies = data.planes[chosen].astype(np.float32), data.policies[chosen]
        if symmetries:
            planes, policies = augment(planes, policies, symmetries, rng)
        mix = training.value_mix
        return planes, policies, (1 - mix) * data.outcomes[chosen] + mix * data.values[chosen]

    def loss(
        network: nn.Module, batch: tuple[np.ndarray, np.ndarray, np.ndarray]
    ) -> dict[str, torch.Tensor]:
        planes, policies, target = (torch.from_numpy(array).to(device) for array in batch)
        logits, values = network(planes)
        return {
            "policy_loss": -(policies * torch.log_softmax(logits, dim=1)).sum(1).mean(),
            "value_loss": torch.mean((values - target) ** 2),
        }

    trained = train_model(
        Examples(len(data.outcomes), batch),
        loss,
        run.shape,
        Schedule(1, training.batch_size, training.learning_rate, training.weight_decay, steps),
        device,
        rng=np.random.default_rng(derived_seed(run.seed, generation, 1)),
        seed=derived_seed(run.seed, generation, 2),
        start=start,
        progress=_Steps(reporter),
    )
    [line] = trained.lines
    losses = {"steps": steps, "policy_loss": line["policy_loss"], "value_loss": line["value_loss"]}
    return trained, losses


@dataclass(frozen=True)
class _Steps(Progress):
    """A run's :class:`Reporter` told of the training steps."""

    reporter: Reporter

    def steps(self, done: int, total: int) -> None:
        self.reporter.steps(done, total)


def _append_metrics(run: Run, metrics: dict[str, Any]) -> None:
    """Rewrite ``metrics.jsonl`` with this generation's line (dropping any stale line of the
    same or a later generation), atomically."""
    lines = [m for m in run.metrics() if m.get("generation", 0) < metrics["generation"]]
    lines.append(metrics)
    text = "".join(json.dumps(line) + "\n" for line in lines)
    write_atomically(run.metrics_file, lambda f: f.write(text.encode()))
