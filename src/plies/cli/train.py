"""plies train: AlphaZero-style self-play training into a run folder, resumable."""

from __future__ import annotations

import os
import signal
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import click

from plies.cli.output import (
    Number,
    OutputPath,
    exit_interrupted,
    learning_module,
    progress_bar,
    until_interrupted,
)
from plies.errors import PliesError
from plies.learn import DEVICES
from plies.processes import check_ray_address
from plies.registry import make_game
from plies.spec import FRACTION, GAMES, LEARNING_RATE, RUN_SEED, SIMULATIONS, TRUNK, NumberRange

COUNT = NumberRange(1, 1_000_000, integer=True)
SMALL = NumberRange(0, 10_000, integer=True)


@click.command("train")
@click.argument("game_spec", metavar="GAME", required=False)
@click.option("--out", type=OutputPath(folder=True), help="The new run's folder.")
@click.option("--resume", type=OutputPath(folder=True), help="Continue the run in this folder.")
@click.option("--generations", type=Number(COUNT), default=10, show_default=True)
@click.option("--games", type=Number(GAMES), default=64, show_default=True, help="Per generation.")
@click.option("--simulations", type=Number(SIMULATIONS), default=100, show_default=True)
@click.option(
    "--workers",
    type=Number(NumberRange(1, 256, integer=True)),
    default=os.cpu_count() or 1,
    show_default="the number of cores",
    help="Self-play processes (1: in this process).",
)
@click.option("--device", type=click.Choice(DEVICES), default="auto", show_default=True)
@click.option("--ray", "ray_address", help="Self-play in Ray actors: ADDRESS or auto.")
@click.option("--init", "initial", help="Start from this model (a file or a shipped name).")
@click.option("--blocks", type=Number(TRUNK), help="Residual blocks [default: per board].")
@click.option("--filters", type=Number(TRUNK), help="Filters per block [default: per board].")
@click.option("--parallel", type=Number(NumberRange(1, 4096, integer=True)), default=32)
@click.option("--steps", type=Number(COUNT), help="Gradient steps a generation.")
@click.option("--batch-size", type=Number(NumberRange(1, 65536, integer=True)), default=256)
@click.option("--lr", type=Number(LEARNING_RATE), default=1e-3, show_default=True)
@click.option("--window", type=Number(NumberRange(1, 1000, integer=True)), default=4)
@click.option("--value-mix", type=Number(FRACTION), default=0.0, show_default=True)
@click.option("--augment/--no-augment", default=True, show_default=True)
@click.option("--eval-games", type=Number(SMALL), default=20, show_default=True)
@click.option("--eval-positions", type=Number(SMALL), default=50, show_default=True)
@click.option("--seed", type=Number(RUN_SEED), default=0, show_default=True)
def train_command(
    game_spec: str | None,
    out: Path | None,
    resume: Path | None,
    generations: int,
    workers: int,
    device: str,
    ray_address: str | None,
    **settings: Any,
) -> None:
    """Train GAME by self-play into the folder --out (or --resume one), a generation at a time.

    Each generation plays --games games with --simulations PUCT simulations a move (in
    --workers processes, or Ray actors with --ray), trains the network on the last --window
    generations, saves a checkpoint and a metrics line, and scores the network.
    Ctrl-C (or SIGTERM) stops; --resume DIR continues with nothing lost but the games in
    flight.
    """
    with _signals_held() as held:
        training = learning_module("training", "training")
        where = learning_module("checkpoint", "training").resolve_device(device)
    if held:
        exit_interrupted("nothing was trained; give the same command again")
    run = None
    with until_interrupted(terminate=True) as stop:  # SIGTERM stops as Ctrl-C does
        if ray_address is not None:
            check_ray_address(ray_address)  # before a run folder is made
        if (out is None) == (resume is None):
            raise PliesError("give either --out DIR (a new run) or --resume DIR")
        if resume is not None:
            if game_spec is not None:
                raise PliesError("--resume takes the game from the run's config.json; drop GAME")
            run = training.open_run(resume, make_game)
        else:
            if game_spec is None:
                raise PliesError("name the GAME to train (e.g. plies train tictactoe --out DIR)")
            assert out is not None
            run = _new_run(training, game_spec, out, settings)
        pool = _pool(where, workers, ray_address)
        try:
            _train(training, run, generations, pool, where)
        finally:
            pool.close()
    if run is None:
        exit_interrupted("nothing was trained; give the same command again")
    click.echo(f"run {run.directory}: generation {run.last_generation()} of {generations} saved")
    if stop.happened:
        exit_interrupted(f"resume with: plies train --resume {run.directory}")


@contextmanager
def _signals_held() -> Iterator[list[int]]:
    """Ctrl-C and SIGTERM noted inside the block, not raised: PyTorch's import, which an
    exception raised in its midst can abort or turn into another error. A signal this process
    ignores (Ctrl-C in a background job) stays ignored."""
    held: list[int] = []
    signals = [s for s in (signal.SIGINT, signal.SIGTERM) if signal.getsignal(s) != signal.SIG_IGN]
    previous = [signal.signal(s, lambda number, frame: held.append(number)) for s in signals]
    try:
        yield held
    finally:
        for number, handler in zip(signals, previous, strict=True):
            signal.signal(number, handler)


def _new_run(training: Any, spec: str, out: Path, settings: dict[str, Any]) -> Any:
    from plies.capabilities import HasTensorEncoding, require
    from plies.learn.network import POLICY_VALUE, NetShape
    from plies.learn.selfplay import SelfPlayConfig

    game = make_game(spec)
    initial = None
    if settings["initial"] is not None:
        if settings["blocks"] is not None or settings["filters"] is not None:
            raise PliesError(
                "--init takes the network's size from its model: drop --blocks/--filters"
            )
        players = learning_module("players", "training")
        initial = players.load_model(game, settings["initial"], (POLICY_VALUE,), "cpu")
    shape = (
        initial.shape
        if initial is not None
        else NetShape.for_game(
            require(game, HasTensorEncoding, "training"),
            blocks=settings["blocks"],
            filters=settings["filters"],
        )
    )
    config = training.TrainingConfig(
        games=settings["games"],
        parallel=settings["parallel"],
        steps=settings["steps"],
        batch_size=settings["batch_size"],
        learning_rate=settings["lr"],
        window=settings["window"],
        value_mix=settings["value_mix"],
        augment=settings["augment"],
        eval_games=settings["eval_games"],
        eval_positions=settings["eval_positions"],
    )
    selfplay = SelfPlayConfig(simulations=settings["simulations"])
    return training.create_run(out, game, spec, shape, selfplay, config, settings["seed"], initial)


def _pool(device: Any, workers: int, ray_address: str | None) -> Any:
    from plies.learn.workers import SelfPlayWorkers

    return SelfPlayWorkers(workers, device, ray_address)


def _train(training: Any, run: Any, generations: int, pool: Any, device: Any) -> None:
    from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeElapsedColumn

    from plies.learn.assess import assess_generation, sample_positions

    positions = sample_positions(run.game, run.training.eval_positions, run.seed)

    def evaluate(game: Any, checkpoint: Path, generation: int) -> dict[str, Any]:
        return assess_generation(
            game, checkpoint, run.training.eval_games, positions, run.selfplay.simulations, 0
        )

    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn())
    with progress_bar(*columns, TimeElapsedColumn()) as bar:
        training.train(run, generations, pool, device, evaluate, _RichReporter(bar))


class _RichReporter:
    """Progress bars for the games and the gradient steps, a line per generation."""

    def __init__(self, bar: Any) -> None:
        self.bar = bar
        self.games_task = bar.add_task("self-play games", total=1)
        self.steps_task = bar.add_task("training steps", total=1)
        self.label = ""

    def generation(self, generation: int, total: int) -> None:
        self.label = f"generation {generation}/{total}"

    def games(self, done: int, total: int) -> None:
        self.bar.update(self.games_task, completed=done, total=total, description=self.label)

    def steps(self, done: int, total: int) -> None:
        self.bar.update(self.steps_task, completed=done, total=total)

    def finished(self, metrics: dict[str, Any]) -> None:
        figures = ", ".join(f"{k} {v}" for k, v in (metrics.get("evaluation") or {}).items())
        self.bar.console.print(
            f"generation {metrics['generation']}: {metrics['games']} games, "
            f"{metrics['simulations_per_second']} simulations/s, policy loss "
            f"{metrics['policy_loss']}, value loss {metrics['value_loss']}"
            + (f"; {figures}" if figures else "")
        )
