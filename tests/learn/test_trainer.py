"""The one training loop (plies.learn.trainer): it learns a tiny separable problem, a run
stopped after an epoch and resumed ends with the weights of a run never stopped, and bad
settings are a SpecError (a mismatched checkpoint a CheckpointError)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest
import torch
from torch import nn

from plies.errors import CheckpointError, SpecError
from plies.games import make_game
from plies.learn.evaluator import one_thread
from plies.learn.network import NetShape
from plies.learn.trainer import Checkpoints, Examples, Progress, Schedule, augment, train_model

GAME = make_game("tictactoe")
CPU = torch.device("cpu")
SHAPE = NetShape.for_game(GAME, blocks=1, filters=8)
CELLS = np.eye(9, dtype=np.float32)


def _examples() -> Examples[tuple[np.ndarray, np.ndarray]]:
    """Nine positions, one stone each; the move to learn is the stone's cell, turned with the
    position by random board symmetries."""
    planes = np.zeros((9, 2, 3, 3), np.float32)
    planes[:, 0] = CELLS.reshape(9, 3, 3)
    symmetries = list(GAME.symmetries())

    def batch(rows: np.ndarray, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
        return augment(planes[rows], CELLS[rows], symmetries, rng)

    return Examples(9, batch)


def _loss(network: nn.Module, batch: tuple[np.ndarray, np.ndarray]) -> torch.Tensor:
    logits, _ = network(torch.from_numpy(batch[0]))
    return nn.functional.cross_entropy(logits, torch.from_numpy(batch[1].argmax(axis=1)))


def _accuracy(network: nn.Module) -> dict[str, Any]:
    network.eval()
    planes = np.zeros((9, 2, 3, 3), np.float32)
    planes[:, 0] = CELLS.reshape(9, 3, 3)
    with torch.inference_mode():
        logits, _ = network(torch.from_numpy(planes))
    return {"accuracy": float((logits.argmax(dim=1).numpy() == np.arange(9)).mean())}


def _train(schedule: Schedule, **options: Any) -> Any:
    return train_model(
        _examples(),
        _loss,
        SHAPE,
        schedule,
        CPU,
        rng=np.random.default_rng(5),
        seed=3,
        evaluate=_accuracy,
        **options,
    )


def test_the_trainer_learns_a_separable_problem() -> None:
    with one_thread():
        trained = _train(Schedule(epochs=40, batch_size=3, learning_rate=1e-2, weight_decay=0))
    lines = trained.lines
    assert [line["epoch"] for line in lines] == list(range(1, 41))
    assert lines[-1]["accuracy"] == 1.0 and lines[0]["accuracy"] < 0.5
    assert lines[-1]["loss"] < lines[0]["loss"] / 4 and lines[0]["positions"] == 9
    assert trained.optimiser["state"]  # the optimiser's moments, for a caller's checkpoint


def test_drawn_batches_report_each_part_of_the_loss() -> None:
    def parts(network: nn.Module, batch: tuple[np.ndarray, np.ndarray]) -> dict[str, Any]:
        return {"policy": _loss(network, batch), "twice": 2 * _loss(network, batch)}

    schedule = Schedule(epochs=1, batch_size=4, learning_rate=1e-3, weight_decay=0, steps=7)
    steps: list[tuple[int, int]] = []

    class Steps(Progress):
        def steps(self, done: int, total: int) -> None:
            steps.append((done, total))

    with one_thread():
        [line] = train_model(
            _examples(), parts, SHAPE, schedule, CPU, rng=np.random.default_rng(1), seed=1,
            progress=Steps(),
        ).lines  # fmt: skip
    assert steps == [(i, 7) for i in range(1, 8)]
    assert line["twice"] == pytest.approx(2 * line["policy"], abs=1e-4) and "loss" not in line


class _StopAfter(Progress):
    def __init__(self, epochs: int) -> None:
        self.epochs = epochs

    def finished(self, metrics: dict[str, Any]) -> None:
        if metrics["epoch"] == self.epochs:
            raise KeyboardInterrupt


def _weights(path: Path) -> dict[str, torch.Tensor]:
    weights: dict[str, torch.Tensor] = torch.load(path, weights_only=True)["weights"]
    return weights


def _timeless(line: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in line.items() if k != "seconds"}


def test_a_resumed_run_ends_with_the_weights_of_a_run_never_stopped(tmp_path: Path) -> None:
    schedule = Schedule(
        epochs=5, batch_size=2, learning_rate=1e-2, weight_decay=1e-4, final_rate=1e-3
    )

    def saved(folder: str) -> Checkpoints:
        where = tmp_path / folder
        where.mkdir()
        return Checkpoints(where / "model.pt", where / "metrics.jsonl", GAME, {"a": 1}, True)

    whole, stopped = saved("whole"), saved("stopped")
    with one_thread():
        lines = _train(schedule, checkpoints=whole).lines
        with pytest.raises(KeyboardInterrupt):
            _train(schedule, checkpoints=stopped, progress=_StopAfter(2))
        assert len(stopped.metrics.read_text().splitlines()) == 2
        resumed = _train(schedule, checkpoints=stopped).lines
    one, two = _weights(whole.model), _weights(stopped.model)
    assert one.keys() == two.keys() and all(torch.equal(one[k], two[k]) for k in one)
    assert [_timeless(line) for line in resumed] == [_timeless(line) for line in lines]
    info = torch.load(stopped.model, weights_only=True)["info"]
    assert info["epoch"] == 5 and info["a"] == 1 and {"optimiser", "schedule", "rng"} <= set(info)


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ({"batch_size": 0}, "batch size=0"),
        ({"epochs": 0}, "epochs=0"),
        ({"learning_rate": 0.0}, "learning rate=0.0"),
        ({"weight_decay": -1.0}, "weight decay"),
        ({"steps": 0}, "steps=0"),
        ({"final_rate": 1.0}, "final rate"),
    ],
)
def test_bad_settings_are_a_spec_error(settings: dict[str, Any], message: str) -> None:
    with pytest.raises(SpecError, match=message):
        Schedule(
            **({"epochs": 1, "batch_size": 8, "learning_rate": 1e-3, "weight_decay": 0} | settings)
        )


def test_no_examples_is_a_spec_error() -> None:
    schedule = Schedule(epochs=1, batch_size=9, learning_rate=1e-3, weight_decay=0)
    empty = Examples(0, _examples().batch)
    with pytest.raises(SpecError, match="no examples"):
        train_model(empty, _loss, SHAPE, schedule, CPU, rng=np.random.default_rng(0), seed=0)


def test_a_checkpoint_of_another_shape_is_refused(tmp_path: Path) -> None:
    checkpoints = Checkpoints(tmp_path / "model.pt", tmp_path / "m.jsonl", GAME, resume=True)
    schedule = Schedule(epochs=1, batch_size=9, learning_rate=1e-3, weight_decay=0)
    with one_thread():
        _train(schedule, checkpoints=checkpoints)
        with pytest.raises(CheckpointError, match="use another --out"):
            train_model(
                _examples(), _loss, NetShape.for_game(GAME, blocks=1, filters=4), schedule,
                CPU, rng=np.random.default_rng(0), seed=0, checkpoints=checkpoints,
            )  # fmt: skip
