"""Learning to move like a recorded player: supervised learning of a policy-value network from
the games of tournament files (AlphaGo's supervised policy network, Silver et al. 2016, which
learnt the moves of strong human players; here any player the arena recorded, GNU Go for Go).

Every move of the chosen players in the records is one example: the position's planes, the
move played (the policy target, a class over the game's action indices) and the game's result
for the mover (the value target, -1 to 1). Whole games are held out (a fixed share, drawn by
hashing their keys), so the held-out move agreement measures what the network learnt, not what
it remembers. The network is :class:`~plies.learn.network.PolicyValueNet` (kind
``policy-value``: ``az:model=`` searches with it, ``policy:model=`` plays its moves without
search), trained with cross-entropy on the moves and squared error on the results, each batch
turned by a random board symmetry.

The folder ``--out`` holds ``model.pt`` (the network after the last finished epoch, with its
optimiser) and ``metrics.jsonl`` (one line an epoch: losses, held-out move agreement); a
stopped run goes on from its last epoch.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np
import torch
from torch import nn

from plies.arena.records import Records, stored_game
from plies.arena.tournament import opening_state
from plies.capabilities import HasTensorEncoding, require
from plies.errors import RunFolderError, SpecError
from plies.game import Game
from plies.learn import trainer
from plies.learn.network import POLICY_VALUE, NetShape
from plies.learn.trainer import Checkpoints, Schedule, augment, train_model
from plies.learn.training import derived_seed
from plies.registry import game_identity, game_spec, make_game

PURPOSE = "imitation"
METRICS = "metrics.jsonl"
MAX_EPOCHS = 10_000


@dataclass(frozen=True)
class ImitationConfig:
    """The moves of the players whose specs contain ``player`` (all players when empty) in the
    games of ``records``; ``held_out`` of the games kept for measuring (drawn by ``seed``);
    the network's trunk (``blocks``, ``filters``: the game's default where None) and its
    training."""

    records: tuple[str, ...]
    player: str = ""
    held_out: float = 0.1
    seed: int = 0
    blocks: int | None = None
    filters: int | None = None
    epochs: int = 10
    batch_size: int = 256
    learning_rate: float = 1e-3
    weight_decay: float = 1e-4
    augment: bool = True

    def __post_init__(self) -> None:
        if not self.records:
            raise SpecError("imitation needs at least one tournament file of played games")
        if not 0 <= self.held_out < 1:
            raise SpecError(f"the held-out share must be in [0, 1), got {self.held_out}")
        if not 1 <= self.epochs <= MAX_EPOCHS:
            raise SpecError(f"epochs={self.epochs} must be 1 to {MAX_EPOCHS}")


class Examples(NamedTuple):
    """Positions (``planes``), the moves played there (action indices), the results for the
    mover (-1 to 1), and which are held out."""

    planes: np.ndarray
    moves: np.ndarray
    results: np.ndarray
    held: np.ndarray
    games: int

    def take(self, rows: np.ndarray) -> Examples:
        return Examples(
            self.planes[rows], self.moves[rows], self.results[rows], self.held[rows], self.games
        )


Progress = Callable[[str, int, int], None]
"""What a run reports: the stage (``reading games``, ``epoch``), done and total."""


def _held(seed: int, key: str, share: float) -> bool:
    """Whether the game of ``key`` is held out: a fixed share, drawn by hashing (BLAKE2: CRC32
    spreads keys that differ only in a game's number over a narrow band)."""
    digest = hashlib.blake2b(f"{seed}|{key}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") / 2**64 < share


def extract_examples(
    game: Game[Any, Any], config: ImitationConfig, progress: Progress | None = None
) -> Examples:
    """The examples of ``config``'s records (see the module): every move of a chosen player."""
    encoding = require(game, HasTensorEncoding, PURPOSE)
    played = []
    for path in config.records:
        if not Path(path).is_file():
            raise SpecError(f"no tournament file {path!r}")
        stored = stored_game(path)
        if game_identity(make_game(stored)) != game_identity(game):
            raise SpecError(
                f"tournament file {path!r} holds games of {stored}, not of {game_spec(game)}"
            )
        records = Records(path, stored, None)
        try:
            played.extend(records.games())
        finally:
            records.close()
    planes, moves, results, held = [], [], [], []
    for number, record in enumerate(played):
        state = opening_state(game, record.opening)
        first = game.to_move(state)
        hold = _held(config.seed, record.key, config.held_out)
        specs = {first: record.first}
        for text in record.moves:
            mover = game.to_move(state)
            action = game.parse_action(state, text)
            spec = specs.get(mover, record.second)
            if config.player in spec:
                score = record.result if mover == first else 1.0 - record.result
                planes.append(encoding.encode(state))
                moves.append(encoding.action_index(state, action))
                results.append(2.0 * score - 1.0)
                held.append(hold)
            state = game.result(state, action)
        if progress is not None:
            progress("reading games", number + 1, len(played))
    if not moves:
        raise SpecError(f"the records hold no move of a player matching {config.player!r}")
    return Examples(
        np.stack(planes).astype(np.float32),
        np.array(moves, np.int64),
        np.array(results, np.float32),
        np.array(held, np.bool_),
        len(played),
    )


def imitate(
    game: Game[Any, Any],
    config: ImitationConfig,
    out: Path,
    device: torch.device,
    progress: Progress | None = None,
) -> list[dict[str, Any]]:
    """Train (or go on training) the network of the folder ``out`` on ``config``'s examples
    by :func:`~plies.learn.trainer.train_model`, saving the model (with its optimiser) and a
    metrics line after every epoch; the metrics of every epoch so far."""
    encoding = require(game, HasTensorEncoding, PURPOSE)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise RunFolderError(f"cannot create the folder {str(out)!r}: {error}") from None
    examples = extract_examples(game, config, progress)
    train, held = examples.take(~examples.held), examples.take(examples.held)
    shape = NetShape.for_game(encoding, POLICY_VALUE, config.blocks, config.filters)
    symmetries = list(encoding.symmetries()) if config.augment else []

    def batch(rows: np.ndarray, rng: np.random.Generator) -> Examples:
        targets = np.zeros((len(rows), shape.actions), np.float32)
        targets[np.arange(len(rows)), train.moves[rows]] = 1.0
        planes = train.planes[rows]
        if symmetries:
            planes, targets = augment(planes, targets, symmetries, rng)
        moves = targets.argmax(axis=1)
        return Examples(planes, moves, train.results[rows], train.held[rows], train.games)

    def loss(network: nn.Module, batch: Examples) -> torch.Tensor:
        logits, values = network(torch.from_numpy(batch.planes).to(device))
        moves = torch.from_numpy(batch.moves).to(device)
        results = torch.from_numpy(batch.results).to(device)
        return nn.functional.cross_entropy(logits, moves) + torch.mean((values - results) ** 2)

    schedule = Schedule(config.epochs, config.batch_size, config.learning_rate, config.weight_decay)
    checkpoints = Checkpoints(out / "model.pt", out / METRICS, game, asdict(config), resume=True)
    return train_model(
        trainer.Examples(len(train.moves), batch),
        loss,
        shape,
        schedule,
        device,
        rng=np.random.default_rng(derived_seed(config.seed, 0)),
        seed=derived_seed(config.seed, 0, 2),
        checkpoints=checkpoints,
        evaluate=lambda network: evaluate(network, held, device),
        progress=_Epochs(progress) if progress is not None else None,
    ).lines


@dataclass(frozen=True)
class _Epochs(trainer.Progress):
    """A run's :data:`Progress` told of the epochs."""

    report: Progress

    def epoch(self, done: int, total: int) -> None:
        self.report("epoch", done, total)


def saved_metrics(out: Path) -> list[dict[str, Any]]:
    """The metrics lines of the folder ``out`` (none before its first epoch)."""
    return trainer.read_metrics(out / METRICS)


def evaluate(network: nn.Module, data: Examples, device: torch.device) -> dict[str, float]:
    """On held-out examples: the policy's cross-entropy, the share of moves it ranks first
    (``agreement``), and the value's squared error."""
    if not len(data.moves):
        return {}
    network.eval()
    policy_loss, value_loss, hits = 0.0, 0.0, 0
    with torch.inference_mode():
        for start in range(0, len(data.moves), 1024):
            part = data.take(np.arange(start, min(start + 1024, len(data.moves))))
            logits, values = network(torch.from_numpy(part.planes).to(device))
            moves = torch.from_numpy(part.moves).to(device)
            results = torch.from_numpy(part.results).to(device)
            count = len(part.moves)
            policy_loss += nn.functional.cross_entropy(logits, moves).item() * count
            value_loss += torch.mean((values - results) ** 2).item() * count
            hits += int((logits.argmax(dim=1) == moves).sum().item())
    count = len(data.moves)
    return {
        "val_policy_loss": round(policy_loss / count, 5),
        "val_value_loss": round(value_loss / count, 5),
        "agreement": round(hits / count, 4),
    }
