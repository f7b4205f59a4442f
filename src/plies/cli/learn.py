"""plies learn: a network distilled from a perfect solver, played without search ("Grandmaster-
level chess without search", Ruoss et al. 2024), and the curves of a training run."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import click

from plies.cli.output import (
    Number,
    exit_interrupted,
    learning_module,
    progress_bar,
    until_interrupted,
)
from plies.games import make_game
from plies.learn import DEVICES
from plies.spec import LEARNING_RATE, RUN_SEED, TRUNK, NumberRange

POSITIONS = NumberRange(1, 10_000_000, integer=True)
EPOCHS = NumberRange(1, 10_000, integer=True)
BINS = NumberRange(2, 256, integer=True)
PLY = NumberRange(0, 1000, integer=True)


@click.group("learn")
def learn() -> None:
    """Learned evaluation without search, and training curves."""


@learn.command("distill")
@click.argument("game_spec", metavar="GAME")
@click.option("--out", required=True, type=click.Path(path_type=Path), help="The folder.")
@click.option("--positions", required=True, type=Number(POSITIONS), help="Positions to label.")
@click.option("--epochs", type=Number(EPOCHS), default=10, show_default=True)
@click.option("--bins", type=Number(BINS), default=32, show_default=True, help="Value classes.")
@click.option("--blocks", type=Number(TRUNK), help="Residual blocks [default: per board].")
@click.option("--filters", type=Number(TRUNK), help="Filters per block [default: per board].")
@click.option("--min-ply", type=Number(PLY), default=12, show_default=True)
@click.option("--batch-size", type=Number(NumberRange(1, 65536, integer=True)), default=256)
@click.option("--lr", type=Number(LEARNING_RATE), default=1e-3, show_default=True)
@click.option("--seed", type=Number(RUN_SEED), default=0, show_default=True)
@click.option("--device", type=click.Choice(DEVICES), default="auto", show_default=True)
def distill_command(
    game_spec: str,
    out: Path,
    positions: int,
    min_ply: int,
    seed: int,
    device: str,
    **settings: Any,
) -> None:
    """Distil GAME's perfect solver into a network that needs no search.

    Labels --positions positions with the solver's score of every move, then trains an
    action-value network on them, into the folder --out. Positions come from random and
    noisy-solver games, from ply --min-ply on (earlier ones take the solver long), mirror
    images counted once. Ctrl-C stops; the same command on the same folder keeps the labelled
    chunks and goes on.
    """
    distill = learning_module("distill", "distillation")
    where = learning_module("checkpoint", "distillation").resolve_device(device)
    game = make_game(game_spec)
    data = distill.DataConfig(positions=positions, seed=seed, min_ply=min_ply)
    training = distill.TrainConfig(
        epochs=settings["epochs"],
        bins=settings["bins"],
        blocks=settings["blocks"],
        filters=settings["filters"],
        batch_size=settings["batch_size"],
        learning_rate=settings["lr"],
    )
    folder = distill.open_distillation(out, game, game_spec, data)
    _run(distill, folder, training, where)
    click.echo(
        f"model saved to {folder.model_file}; play it with: "
        f"plies play {game_spec} --second policy:model={folder.model_file}"
    )


def _run(distill: Any, folder: Any, training: Any, device: Any) -> None:
    """Label, then train, with progress bars; Ctrl-C keeps the labelled chunks."""
    from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeElapsedColumn

    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn())
    with progress_bar(*columns, TimeElapsedColumn()) as bar, until_interrupted() as stop:
        reporter = _RichReporter(bar)
        began = time.perf_counter()
        new = distill.label_chunks(folder, reporter)
        seconds = time.perf_counter() - began
        rate = f" ({new / seconds:,.0f} positions/s)" if new and seconds > 0 else ""
        bar.console.print(
            f"labelled {new:,} new positions in {seconds:.1f} s{rate}", soft_wrap=True
        )
        distill.train_model(folder, training, device, reporter)
    if stop.happened:
        exit_interrupted(
            f"{folder.labelled():,} of {folder.data.positions:,} positions labelled in "
            f"{folder.directory}; the same command goes on from there"
        )


class _RichReporter:
    """Progress bars for the labelling and the epochs, a line per epoch."""

    def __init__(self, bar: Any) -> None:
        self.bar = bar
        self.labels = bar.add_task("labelling positions", total=None)
        self.epochs = bar.add_task("training epochs", total=None, visible=False)

    def labelled(self, done: int, total: int) -> None:
        self.bar.update(self.labels, completed=done, total=total)

    def epoch(self, done: int, total: int) -> None:
        self.bar.update(self.epochs, completed=done, total=total, visible=True)

    def finished(self, metrics: dict[str, Any]) -> None:
        figures = ", ".join(f"{k} {v}" for k, v in metrics.items() if k != "epoch")
        self.bar.console.print(f"epoch {metrics['epoch']}: {figures}", soft_wrap=True)


@learn.command("plot")
@click.argument("directory", type=click.Path(path_type=Path))
@click.option("--out", type=click.Path(path_type=Path), help="PNG file [default: DIR/curves.png].")
def plot_command(directory: Path, out: Path | None) -> None:
    """Draw the curves of a run folder to a PNG.

    Reads DIR/metrics.jsonl (a training run's or a distillation's) and draws the losses, the
    strength (against random moves; move accuracy) and the mistake rates."""
    from plies.learn.plots import plot_metrics, read_metrics

    metrics = read_metrics(directory)
    target = out or directory / "curves.png"
    plot_metrics(metrics, target)
    click.echo(f"curves of {len(metrics)} lines written to {target}")


@learn.command("export")
@click.argument("checkpoint", type=click.Path(path_type=Path))
@click.option("--out", required=True, type=click.Path(path_type=Path), help="The model file.")
@click.option("--note", default="", help="A line saying how the model was made.")
def export_command(checkpoint: Path, out: Path, note: str) -> None:
    """Copy a checkpoint without its optimiser state: the model file to share or ship.

    CHECKPOINT is a run's checkpoints/gen-NNNN.pt or a distillation's model.pt; agents load
    the copy with model=FILE."""
    checkpoints = learning_module("checkpoint", "exporting a model")
    checkpoints.export_checkpoint(checkpoint, out, **({"note": note} if note else {}))
    click.echo(f"model written to {out} ({out.stat().st_size:,} bytes)")
