"""plies learn: a network distilled from a perfect solver, played without search ("Grandmaster-
level chess without search", Ruoss et al. 2024), and the curves of a training run."""

from __future__ import annotations

import dataclasses
import json
import math
import os
import time
from pathlib import Path
from typing import Any

import click

from plies.cli.output import (
    Number,
    OutputPath,
    exit_interrupted,
    learning_module,
    progress_bar,
    ray_option,
    until_interrupted,
)
from plies.errors import SpecError
from plies.learn import DEVICES
from plies.processes import check_ray_address
from plies.registry import make_game
from plies.spec import FRACTION, LEARNING_RATE, RUN_SEED, TRUNK, NumberRange

POSITIONS = NumberRange(1, 10_000_000, integer=True)
EPOCHS = NumberRange(1, 10_000, integer=True)
BINS = NumberRange(2, 256, integer=True)
PLY = NumberRange(0, 1000, integer=True)
WORKERS = NumberRange(1, 256, integer=True)
STEPS = NumberRange(1, 1_000_000, integer=True)
TUNE_RATE = NumberRange(0, 1e6, above_minimum=True)
HELD_OUT = NumberRange(0, 0.9)
L2 = NumberRange(0, 1e6)
SAMPLE = NumberRange(0, 1, above_minimum=True)
SOLVE_SECONDS = NumberRange(0, 3600, above_minimum=True)
NETWORK_KINDS = ("action-value", "policy-value")
STAGES = ("label", "train")
CHUNK = NumberRange(1, 65536, integer=True)
SHARE = NumberRange(0, 1)
TD_GAMES = NumberRange(0, 10**9, integer=True)
HIDDEN = NumberRange(1, 1024, integer=True)
TD_ALPHA = NumberRange(0, 10, above_minimum=True)
TD_BLOCK = NumberRange(1, 10**6, integer=True)
TD_PAIRS = NumberRange(1, 10**5, integer=True)


RECORDS = click.option(
    "--records",
    multiple=True,
    required=True,
    type=click.Path(path_type=Path),
    help="A tournament file of played games (again for more).",
)


@click.group("learn")
def learn() -> None:
    """Learned evaluation without search, and training curves."""


@learn.command("distill")
@click.argument("game_spec", metavar="GAME")
@click.option("--out", required=True, type=OutputPath(folder=True), help="The folder.")
@click.option("--positions", type=Number(POSITIONS),
              help="Positions to label (needed to start a folder).")  # fmt: skip
@click.option("--epochs", type=Number(EPOCHS), default=10, show_default=True)
@click.option("--kind", type=click.Choice(NETWORK_KINDS),
              help="action-value: each move's value (policy agent); policy-value: best moves "
              "and value (policy and az agents) [default: action-value; policy-value with "
              "--teacher].")  # fmt: skip
@click.option("--teacher", metavar="SPEC",
              help="Label by this agent's searches of its own games (uci:stockfish,depth=8), "
              "not by the perfect solver.")  # fmt: skip
@click.option("--bins", type=Number(BINS), default=32, show_default=True, help="Value classes.")
@click.option("--blocks", type=Number(TRUNK), help="Residual blocks [default: per board].")
@click.option("--filters", type=Number(TRUNK), help="Filters per block [default: per board].")
@click.option("--min-ply", type=Number(PLY),
              help="First ply of the positions [default: 12; 0 with --teacher].")  # fmt: skip
@click.option("--max-ply", type=Number(PLY), help="Last ply of the positions [default: any].")
@click.option("--chunk-size", type=Number(CHUNK), help="Positions a chunk [default: 256].")
@click.option("--batch-size", type=Number(CHUNK), default=256)
@click.option("--lr", type=Number(LEARNING_RATE), default=1e-3, show_default=True)
@click.option("--lr-decay", is_flag=True,
              help="Lower the learning rate to a twentieth along a cosine.")  # fmt: skip
@click.option("--seed", type=Number(RUN_SEED), help="Seed of the positions [default: 0].")
@click.option(
    "--workers",
    type=Number(WORKERS),
    default=os.cpu_count() or 1,
    show_default="the number of cores",
    help="Labelling processes, a solver each (1: in this process).",
)
@click.option("--player", metavar="SPEC",
              help="Guide the data games with this agent's moves, not the solver's (self-play "
              "of a network: policy:model=FILE).")  # fmt: skip
@click.option("--guided", type=Number(SHARE), help="Share of guided games [default: 0.5].")
@click.option("--guide-from", type=Number(PLY),
              help="First ply the guide plays [default: 16].")  # fmt: skip
@click.option("--ray", "ray_address", metavar="ADDRESS",
              help="Label in --workers Ray actors of this cluster (HOST:PORT, auto, "
              "local); a --teacher's program must be on every node.")  # fmt: skip
@click.option("--only", type=click.Choice(STAGES), help="Only label, or only train.")
@click.option("--with", "sources", multiple=True, type=click.Path(path_type=Path),
              metavar="DIR", help="Train on this distillation's positions too (again for "
              "more).")  # fmt: skip
@click.option("--model", type=OutputPath(make_parents=True),
              help="Where the network goes [default: OUT/model.pt].")  # fmt: skip
@click.option("--device", type=click.Choice(DEVICES), default="auto", show_default=True)
def distill_command(
    game_spec: str,
    out: Path,
    workers: int,
    ray_address: str | None,
    only: str | None,
    sources: tuple[Path, ...],
    model: Path | None,
    device: str,
    **settings: Any,
) -> None:
    """Distil GAME's perfect solver (or a --teacher) into a network that needs no search.

    Labels --positions positions with the solver's score of every move, then trains a network
    on them (and on the positions of each --with folder), into the folder --out. Positions
    come from random and noisy-solver games, from ply --min-ply to --max-ply (earlier ones take
    the solver long), mirror images counted once; --workers processes label side by side.
    With --teacher, positions come from the teacher's own games (random openings, some random
    moves) and each is labelled with the teacher's move and value.
    Ctrl-C (or SIGTERM) stops; the same command on the same folder keeps the labelled chunks
    and goes on (the folder's data settings are kept where none are given).
    """
    taught = settings["teacher"] is not None or _folder_format(out) == "plies-taught-1"
    distill = learning_module("taught" if taught else "distill", "distillation")
    where = learning_module("checkpoint", "distillation").resolve_device(device)
    game = make_game(game_spec)
    data = _data_settings(distill, out, settings, taught)
    training = distill.TrainConfig(
        epochs=settings["epochs"],
        kind=settings["kind"] or ("policy-value" if taught else "action-value"),
        bins=settings["bins"],
        blocks=settings["blocks"],
        filters=settings["filters"],
        batch_size=settings["batch_size"],
        learning_rate=settings["lr"],
        decay=settings["lr_decay"],
    )
    if taught:
        distill.check_training(training)
    if ray_address is not None:
        check_ray_address(ray_address)  # before the folder is made
    opened = distill.open_taught if taught else distill.open_distillation
    folder = opened(out, game, game_spec, data)
    extra = [distill.open_source(source, game, game_spec) for source in sources]
    model = model or folder.model_file
    labelling = {"workers": workers} | ({} if ray_address is None else {"ray_address": ray_address})
    _run(distill, folder, training, where, labelling, only, extra, model, taught)
    if only != "label":
        click.echo(
            f"model saved to {model}; play it with: "
            f"plies play {game_spec} --second policy:model={model}"
        )


def _folder_format(out: Path) -> str | None:
    """The format a folder's ``config.json`` names, None where it names none."""
    try:
        found = json.loads((out / "config.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return found.get("format") if isinstance(found, dict) else None


def _data_settings(distill: Any, out: Path, settings: dict[str, Any], taught: bool) -> Any:
    """The data settings: those given, the rest from the folder's record (or the defaults for
    a new folder, which needs --positions)."""
    keys = ["positions", "seed", "min_ply", "chunk_size"]
    keys += ["teacher"] if taught else ["max_ply", "player", "solver_share", "solver_from"]
    settings = settings | {
        "solver_share": settings["guided"],
        "solver_from": settings["guide_from"],
    }
    for option in ("max_ply", "player", "guided", "guide_from"):
        if taught and settings[option] is not None:
            name = "--" + option.replace("_", "-")
            raise SpecError(f"{name} is for the perfect solver's labels, not a teacher's")
    given = {key: settings[key] for key in keys if settings[key] is not None}
    recorded = distill.recorded_data(out)
    if recorded is not None:
        return dataclasses.replace(recorded, **given)
    if "positions" not in given:
        raise SpecError(f"--positions is needed to start the folder {str(out)!r}")
    data_class = distill.TaughtData if taught else distill.DataConfig
    return data_class(**given)


def _run(
    distill: Any,
    folder: Any,
    training: Any,
    device: Any,
    labelling: dict[str, Any],
    only: str | None,
    sources: list[Any],
    model: Path,
    taught: bool,
) -> None:
    """Label, then train (or only one of them), with progress bars; Ctrl-C keeps the labelled
    chunks."""
    from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeElapsedColumn

    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn())
    with progress_bar(*columns, TimeElapsedColumn()) as bar, until_interrupted(True) as stop:
        reporter = _RichReporter(bar)
        if only != "train":
            began = time.perf_counter()
            new = distill.label_chunks(folder, reporter, **labelling)
            seconds = time.perf_counter() - began
            rate = f" ({new / seconds:,.0f} positions/s)" if new and seconds > 0 else ""
            bar.console.print(
                f"labelled {new:,} new positions in {seconds:.1f} s{rate}", soft_wrap=True
            )
        if only != "label":
            train = distill.train_taught if taught else distill.train_distillation
            train(folder, training, device, reporter, sources=sources, model_file=model)
    if stop.happened and only == "train":
        exit_interrupted(f"training stopped; {model} holds the last finished epoch, if any")
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
        self.epochs_done = 0

    def labelled(self, done: int, total: int) -> None:
        self.bar.update(self.labels, completed=done, total=total)

    def epoch(self, done: int, total: int) -> None:
        self.epochs_done = done
        self.bar.update(self.epochs, completed=done, total=total, visible=True)

    def steps(self, done: int, total: int) -> None:
        """The epoch bar moves on within an epoch too."""
        self.bar.update(self.epochs, completed=self.epochs_done + done / total)

    def finished(self, metrics: dict[str, Any]) -> None:
        figures = ", ".join(f"{k} {v}" for k, v in metrics.items() if k != "epoch")
        self.bar.console.print(f"epoch {metrics['epoch']}: {figures}", soft_wrap=True)


@learn.command("tune")
@click.argument("game_spec", metavar="GAME")
@click.option("--out", required=True, type=OutputPath(folder=True), help="The folder.")
@RECORDS
@click.option("--steps", type=Number(STEPS), default=500, show_default=True, help="Adam steps.")
@click.option("--lr", type=Number(TUNE_RATE), default=1.0, show_default=True,
              help="Adam's step, in the weights' units.")  # fmt: skip
@click.option("--l2", type=Number(L2), default=0.0, show_default=True,
              help="Penalty on the squared distance from the game's weights.")  # fmt: skip
@click.option("--min-ply", type=Number(PLY), default=8, show_default=True)
@click.option("--held-out", type=Number(HELD_OUT), default=0.1, show_default=True,
              help="The share of games kept to measure the fit.")  # fmt: skip
@click.option("--sample", type=Number(SAMPLE), default=1.0, show_default=True,
              help="The share of the quiet positions kept.")  # fmt: skip
@click.option("--teacher", metavar="SPEC",
              help="Label positions with this agent's value (uci:stockfish,depth=8), not with "
              "the games' results.")  # fmt: skip
@click.option("--solve-within", "solve_seconds", type=Number(SOLVE_SECONDS), metavar="SECONDS",
              help="Label each game's positions with its result as if played out perfectly "
              "from the first position the game's endgame solver reaches in SECONDS (othello); "
              "the later ones with their own.")  # fmt: skip
@click.option("--only", "only", multiple=True, metavar="PATTERN",
              help="Fit only the weights whose names match (shell pattern, '*mobility'; "
              "again for more); the others stay.")  # fmt: skip
@click.option("--evaluation", metavar="NAME",
              help="The evaluation to fit, where the game has several (othello: patterns, "
              "hand) [default: the game's].")  # fmt: skip
@click.option("--start", metavar="zero|FILE",
              help="Start from zero weights or a weights file (give it again to go on) "
              "[default: the game's weights].")  # fmt: skip
@click.option("--seed", type=Number(RUN_SEED), default=0, show_default=True)
@click.option("--workers", type=Number(WORKERS), default=1, show_default=True,
              help="Teachers labelling side by side (1: in this process).")  # fmt: skip
@ray_option("Label with the --teacher")
def tune_command(
    game_spec: str,
    out: Path,
    records: tuple[Path, ...],
    steps: int,
    lr: float,
    l2: float,
    min_ply: int,
    held_out: float,
    sample: float,
    teacher: str | None,
    solve_seconds: float | None,
    only: tuple[str, ...],
    evaluation: str | None,
    start: str | None,
    seed: int,
    workers: int,
    ray_address: str | None,
) -> None:
    """Fit the weights of GAME's linear evaluation to the results of played games.

    Texel's method: the positions of the games in the tournament files --records (from ply
    --min-ply, quiet ones), each labelled with its game's result (or its result played out
    perfectly from where the solver reaches, --solve-within; or a --teacher's value), fitted
    by the mean squared error of a sigmoid of EVAL. Writes the folder --out as it goes:
    Ctrl-C stops, and the same command goes on (a larger --steps fits further). The best
    weights are in OUT/weights.json: agents play them with engine:weights=OUT/weights.json.
    """
    from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeElapsedColumn

    from plies.learn import tune

    if ray_address is not None:
        check_ray_address(ray_address)  # before the folder is made
    game = tune.starting_game(make_game(game_spec), evaluation, start)
    config = tune.TuneConfig(
        tuple(str(path) for path in records),
        min_ply,
        held_out,
        seed,
        sample,
        teacher,
        solve_seconds,
    )
    tuning = tune.open_tuning(out, game, config, start)
    tune.chosen_weights(tuning.linear.evaluation_names(), only)  # a pattern matching none fails now
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn())
    with progress_bar(*columns, TimeElapsedColumn()) as bar, until_interrupted() as stop:
        task = bar.add_task("reading games", total=None)

        def report(progress: tune.Progress) -> None:
            losses = "" if math.isnan(progress.loss) else (
                f" (loss {progress.loss:.5f}, held out {progress.held_loss:.5f})"
            )  # fmt: skip
            bar.update(task, description=progress.stage + losses, completed=progress.done,
                       total=progress.total)  # fmt: skip

        positions = tune.load_positions(tuning, report, workers, ray_address)
        held = int(positions.held.sum())
        bar.console.print(
            f"{positions.size - held:,} positions to fit, {held:,} held out, from "
            f"{positions.games:,} games",
            soft_wrap=True,
        )
        tune.tune(tuning, positions, steps, lr, report, l2=l2, only=only)
    state = tune.saved_state(tuning)
    if state is None:  # stopped before the first step
        exit_interrupted(f"nothing fitted yet in {out}; the same command starts again")
    started = tuning.linear.evaluation_weights()
    click.echo(
        f"step {state.step}: scale K {state.scale:.6f}; held-out loss {state.start_loss:.5f} "
        f"with the game's weights, {state.best_loss:.5f} with the best"
    )
    changes = tune.names_of_changes(tuning.linear.evaluation_names(), started, state.best, 5)
    for name, before, after in changes:
        click.echo(f"  {name}: {before:g} -> {after:.1f}")
    click.echo(f"weights written to {tuning.weights_file}; play them with "
               f"engine:weights={tuning.weights_file}")  # fmt: skip
    if stop.happened:
        exit_interrupted(f"{state.step} steps saved in {out}; the same command goes on")


@learn.command("imitate")
@click.argument("game_spec", metavar="GAME")
@click.option("--out", required=True, type=OutputPath(folder=True), help="The folder.")
@RECORDS
@click.option("--player", default="", metavar="TEXT",
              help="Learn only the players whose specs contain this [default: all].")  # fmt: skip
@click.option("--epochs", type=Number(EPOCHS), default=10, show_default=True)
@click.option("--blocks", type=Number(TRUNK), help="Residual blocks [default: per board].")
@click.option("--filters", type=Number(TRUNK), help="Filters per block [default: per board].")
@click.option("--batch-size", type=Number(NumberRange(1, 65536, integer=True)), default=256)
@click.option("--lr", type=Number(LEARNING_RATE), default=1e-3, show_default=True)
@click.option("--held-out", type=Number(HELD_OUT), default=0.1, show_default=True,
              help="The share of games kept to measure the move agreement.")  # fmt: skip
@click.option("--augment/--no-augment", default=True, show_default=True,
              help="Turn each batch by random board symmetries (not for players that break "
              "ties by move order).")  # fmt: skip
@click.option("--seed", type=Number(RUN_SEED), default=0, show_default=True)
@click.option("--device", type=click.Choice(DEVICES), default="auto", show_default=True)
def imitate_command(
    game_spec: str, out: Path, records: tuple[Path, ...], device: str, **settings: Any
) -> None:
    """Train a policy-value network on the moves of recorded games.

    Supervised learning as AlphaGo's first network learnt strong players' moves: every move
    of the chosen players (--player) in the tournament files --records, the move as the policy's
    target and the game's result as the value's, whole games held out to measure the move
    agreement. The folder --out keeps the network after every epoch: Ctrl-C stops, and the
    same command goes on (a larger --epochs trains further). Agents play it with
    az:model=OUT/model.pt (with search) or policy:model=OUT/model.pt (without).
    """
    from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeElapsedColumn

    imitation = learning_module("imitate", "imitation")
    where = learning_module("checkpoint", "imitation").resolve_device(device)
    game = make_game(game_spec)
    config = imitation.ImitationConfig(
        records=tuple(str(path) for path in records),
        player=settings["player"],
        held_out=settings["held_out"],
        seed=settings["seed"],
        blocks=settings["blocks"],
        filters=settings["filters"],
        epochs=settings["epochs"],
        batch_size=settings["batch_size"],
        learning_rate=settings["lr"],
        augment=settings["augment"],
    )
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn())
    with progress_bar(*columns, TimeElapsedColumn()) as bar, until_interrupted() as stop:
        task = bar.add_task("reading games", total=None)

        def report(stage: str, done: int, total: int) -> None:
            bar.update(task, description=stage, completed=done, total=total)

        imitation.imitate(game, config, out, where, report)
    lines = imitation.saved_metrics(out)
    for line in lines[-3:]:
        click.echo(json.dumps(line))
    if stop.happened:
        exit_interrupted(f"{len(lines)} epochs saved in {out}; the same command goes on")
    click.echo(f"model saved to {out / 'model.pt'}; play it with az:model={out / 'model.pt'}")


@learn.command("td")
@click.argument("game_spec", metavar="GAME")
@click.option("--out", required=True, type=OutputPath(folder=True), help="The run folder.")
@click.option("--games", type=Number(TD_GAMES), required=True,
              help="Self-play games to have trained in all (a larger number goes on).")  # fmt: skip
@click.option("--hidden", type=Number(HIDDEN), help="Hidden units [new run: 80].")
@click.option("--alpha", type=Number(TD_ALPHA), help="TD's step size [new run: 0.1].")
@click.option("--lambda", "lam", type=Number(FRACTION), help="Trace decay [new run: 0.7].")
@click.option("--seed", type=Number(RUN_SEED), help="First weights and dice [new run: 1].")
@click.option("--block", type=Number(TD_BLOCK),
              help="Games between checkpoints [new run: 5000].")  # fmt: skip
@click.option("--pairs", type=Number(TD_PAIRS),
              help="Duplicate pairs of games against the hand-written evaluation after each "
              "block [new run: 1000].")  # fmt: skip
def td_command(
    game_spec: str,
    out: Path,
    games: int,
    hidden: int | None,
    alpha: float | None,
    lam: float | None,
    seed: int | None,
    block: int | None,
    pairs: int | None,
) -> None:
    """Train GAME's evaluation network by self-play with TD(lambda), as TD-Gammon did.

    The network plays both sides without search, learning after every move (backgammon).
    After each --block of games it is saved in OUT/network.npz and plays duplicate pairs of
    games against the hand-written evaluation: OUT/metrics.jsonl is the learning curve
    (plies learn plot OUT draws it). Ctrl-C stops; the same command goes on, with the
    settings recorded unless given again.
    """
    from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeElapsedColumn

    from plies.learn.td import TdRun, TdSettings, recorded_settings

    given = {"hidden": hidden, "alpha": alpha, "lam": lam, "seed": seed, "block": block,
             "pairs": pairs}  # fmt: skip
    start = recorded_settings(out) or TdSettings()
    changes: dict[str, Any] = {key: value for key, value in given.items() if value is not None}
    settings = dataclasses.replace(start, **changes)
    run = TdRun(out, make_game(game_spec), settings)
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn())
    with (
        progress_bar(*columns, TimeElapsedColumn()) as bar,
        until_interrupted(terminate=True) as stop,
    ):
        task = bar.add_task("self-play", total=games, completed=min(run.network.games, games))

        def report(done: Any) -> None:
            line = (f"{done.games:,} games: {done.games_per_second:,.0f} games/s, equity "
                    f"against the hand-written evaluation {done.equity_vs_hand:+.3f} "
                    f"+-{done.margin:.3f}")  # fmt: skip
            bar.console.print(line, soft_wrap=True)
            bar.update(task, completed=done.games)

        run.run(games, report)
    click.echo(f"{run.network.games:,} games trained; the network is {run.network_file}")
    if stop.happened:
        exit_interrupted(f"{run.network.games:,} games saved in {out}; the same command goes on")


@learn.command("plot")
@click.argument("directory", type=click.Path(path_type=Path))
@click.option("--out", type=OutputPath(), help="PNG file [default: DIR/curves.png].")
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
@click.option("--out", required=True, type=OutputPath(make_parents=True), help="The model file.")
@click.option("--note", default="", help="A line saying how the model was made.")
def export_command(checkpoint: Path, out: Path, note: str) -> None:
    """Copy a checkpoint without its optimiser state: the model file to share or ship.

    CHECKPOINT is a run's checkpoints/gen-NNNN.pt or a distillation's model.pt; agents load
    the copy with model=FILE."""
    checkpoints = learning_module("checkpoint", "exporting a model")
    checkpoints.export_checkpoint(checkpoint, out, **({"note": note} if note else {}))
    click.echo(f"model written to {out} ({out.stat().st_size:,} bytes)")


@learn.command("models")
@click.option("--json", "as_json", is_flag=True, help="One JSON object, by model name.")
def models_command(as_json: bool) -> None:
    """List the networks shipped with plies: how each was made and its measured figures.

    The agents az and policy load the game's strongest (marked "default") where model= is not
    given; model=NAME loads another."""
    from plies.learn.models import catalogue, strongest

    models = catalogue()
    for name, entry in models.items():
        best = strongest(make_game(entry["game"]), (entry["kind"],))
        entry["default"] = best == name
    if as_json:
        click.echo(json.dumps(models, indent=2))
        return
    for name, entry in models.items():
        default = ", default" if entry["default"] else ""
        click.echo(f"{name} ({entry['game']}, {entry['made']}{default})")
        click.echo(f"  made: {entry['how']}")
        click.echo(f"  data: {entry['data']}; {entry['hardware']}; {entry['hours']} h")
        for figure, value in entry["figures"].items():
            shown = f"{value:.1%}" if isinstance(value, float) else value
            click.echo(f"  {figure}: {shown}")
