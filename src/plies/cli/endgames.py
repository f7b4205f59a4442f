"""plies endgames build: endgame databases by retrograde analysis (checkers)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import click

from plies.capabilities import HasPositionClasses
from plies.cli.book import WORKERS
from plies.cli.output import (
    Number,
    OutputPath,
    exit_interrupted,
    progress_bar,
    ray_option,
    until_interrupted,
)
from plies.errors import PliesError
from plies.game import Game
from plies.inputs import check_output
from plies.processes import check_ray_address
from plies.registry import make_game
from plies.solvers.endgames import build, check_target, default_folder, plan_build
from plies.spec import NumberRange

PIECES = NumberRange(1, 5, integer=True)
"""The pieces an endgame build may reach (five: 297 million positions, held in memory)."""


@click.group("endgames")
def endgames_command() -> None:
    """Endgame databases: every position of a few pieces solved, for the engine and solve."""


@endgames_command.command("build")
@click.argument("game_spec", metavar="GAME")
@click.option(
    "--pieces", required=True, type=Number(PIECES), help="Every position of up to N pieces."
)
@click.option(
    "--out",
    type=OutputPath(folder=True),
    help="The databases' folder (a rerun goes on) [default: $PLIES_ENDGAMES/GAME or the "
    "user's data folder].",
)
@click.option(
    "--workers",
    type=Number(WORKERS),
    default=1,
    show_default=True,
    help="Processes solving side by side.",
)
@ray_option("Solve", " Every node must see --out at the same path.")
def build_command(
    game_spec: str, pieces: int, out: Path | None, workers: int, ray_address: str | None
) -> None:
    """Build GAME's endgame databases by retrograde analysis (checkers): every position of up
    to --pieces pieces, into --out. The plan and a time estimate first, progress on a
    terminal; Ctrl-C keeps every class finished, and the same command goes on."""
    folder = None if out is None else str(out)
    build_endgames(make_game(game_spec), None, pieces, folder, workers, ray_address=ray_address)


def build_endgames(
    game: Game[Any, Any],
    position: str | None,
    pieces: int | None,
    out: str | None,
    workers: int,
    moved_from: str | None = None,
    ray_address: str | None = None,
) -> None:
    """Build the databases (``plies endgames build``, or the older ``plies solve --build-db``,
    whose ``moved_from`` note is printed once the checks pass, before the work)."""
    if not isinstance(game, HasPositionClasses):
        raise PliesError(f"an endgame build needs endgame databases; {game.name!r} has none")
    if position is not None:
        raise PliesError("--build-db solves every position of its sizes: give no POSITION")
    if pieces is None:
        raise PliesError("--build-db needs --pieces N")
    if ray_address is not None:
        check_ray_address(ray_address)
    folder = Path(out).expanduser() if out is not None else default_folder(game)
    check_output(folder, folder=True)
    plan = plan_build(game, pieces, folder, workers)
    check_target(folder, plan)
    if moved_from is not None:
        click.echo(moved_from, err=True)
    click.echo(
        f"{len(plan.classes)} classes, {plan.positions:,} positions; {plan.to_build:,} to solve "
        f"into {folder} (about {_duration(plan.seconds)}, at most "
        f"{plan.disk_bytes / 1e6:,.1f} MB on disk, about {plan.memory_bytes / 1e6:,.0f} MB of "
        "memory)",
        err=True,
    )
    built, began = 0, time.perf_counter()
    with progress_bar() as bar, until_interrupted(terminate=True) as interruption:
        task = bar.add_task("tables", total=plan.positions)
        steps = build(game, plan, folder, workers, ray_address)
        try:
            for step in steps:
                built += not step.reused
                bar.update(task, completed=step.done, description=str(step.position_class))
                if interruption.happened:
                    break
        finally:
            steps.close()
    minutes = (time.perf_counter() - began) / 60
    click.echo(f"{built} classes solved into {folder} ({minutes:.1f} min)")
    if interruption.happened:
        exit_interrupted(f"the classes finished are kept in {folder}: run it again to go on")


def _duration(seconds: float) -> str:
    """A time estimate in words: seconds under two minutes, then minutes, then hours."""
    if seconds < 120:
        return f"{seconds:.0f} s"
    return f"{seconds / 60:.0f} min" if seconds < 7200 else f"{seconds / 3600:.1f} h"
