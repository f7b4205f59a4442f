"""plies book build: an opening book for the perfect agent, solved position by position."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import click

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
from plies.perfect import HasOpeningBook
from plies.processes import check_ray_address
from plies.registry import make_game
from plies.solvers import perfect_solver
from plies.spec import NumberRange

BOOK_PLIES = NumberRange(1, 24, integer=True)
"""The plies an opening book may cover (beyond 24 it would hold millions of positions)."""
WORKERS = NumberRange(1, 256, integer=True)


@click.group("book")
def book_command() -> None:
    """Opening books for the perfect agent (the solver answers their positions at once)."""


@book_command.command("build")
@click.argument("game_spec", metavar="GAME")
@click.option(
    "--plies", required=True, type=Number(BOOK_PLIES), help="Every position before ply N."
)
@click.option(
    "--out", required=True, type=OutputPath(), help="The book's file (a rerun goes on from it)."
)
@click.option(
    "--workers",
    type=Number(WORKERS),
    default=1,
    show_default=True,
    help="Processes solving side by side.",
)
@ray_option("Solve")
def build_command(
    game_spec: str, plies: int, out: Path, workers: int, ray_address: str | None
) -> None:
    """Build (or extend) GAME's opening book for the perfect agent (connect4): every position
    before ply --plies, solved into the file --out. Progress on a terminal; Ctrl-C keeps what
    was solved, and the same command goes on."""
    build_book(make_game(game_spec), None, plies, str(out), workers, ray_address=ray_address)


def build_book(
    game: Game[Any, Any],
    position: str | None,
    plies: int | None,
    out: str | None,
    workers: int,
    moved_from: str | None = None,
    ray_address: str | None = None,
) -> None:
    """Build the book (``plies book build``, or the older ``plies solve --build-book``, whose
    ``moved_from`` note is printed once the checks pass, before the work)."""
    solver = perfect_solver(game)
    if not isinstance(solver, HasOpeningBook):
        raise PliesError(
            f"a book build needs a perfect solver's opening book; {game.name!r} has none"
        )
    if position is not None:
        raise PliesError("a book build starts from the empty board: give no POSITION")
    if plies is None or out is None:
        raise PliesError("--build-book needs --plies N and --out FILE")
    if ray_address is not None:
        check_ray_address(ray_address)
    check_output(out)  # what every output option checks, then the book's own checks
    solver.check_book_target(out)  # before the solver's start-up
    if moved_from is not None:
        click.echo(moved_from, err=True)
    size, began = 0, time.perf_counter()
    with progress_bar() as bar, until_interrupted() as interruption:
        task = bar.add_task("book", total=None)
        steps = solver.build_book(out, plies, workers, ray_address)
        try:
            for step in steps:
                size = step.size
                bar.update(
                    task,
                    description=f"ply {step.ply}: {step.done}/{step.total}, {size:,} positions",
                )
        finally:
            steps.close()  # stops the workers now, wherever Ctrl-C struck
    minutes = (time.perf_counter() - began) / 60
    click.echo(f"{size:,} positions in {out} ({minutes:.1f} min)")
    if interruption.happened:
        exit_interrupted(f"the positions solved are kept in {out}: run it again to go on")
