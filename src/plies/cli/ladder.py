"""plies ladder: a game's strength levels (show) and their measured figures (calibrate)."""

from __future__ import annotations

import shlex
from pathlib import Path

import click

from plies.cli.output import (
    Number,
    OutputPath,
    echo_json,
    exit_interrupted,
    progress_bar,
    until_interrupted,
)
from plies.cli.tournament import CONCURRENCY, GAMES_OPTION
from plies.processes import check_ray_address


@click.group("ladder")
def ladder_command() -> None:
    """Strength ladders: each game's named levels, from beginner to the strongest, with the
    figures ``plies ladder calibrate`` measured for them."""


@ladder_command.command("show")
@click.argument("game_spec", metavar="GAME")
@click.option("--json", "as_json", is_flag=True, help="One JSON object.")
def show_command(game_spec: str, as_json: bool) -> None:
    """GAME's levels: name, agent spec, how it plays and its measured figure."""
    from plies.ladder import measured_levels
    from plies.registry import make_game

    levels = measured_levels(make_game(game_spec))
    if as_json:
        echo_json(
            {
                "game": game_spec,
                "levels": [
                    {
                        "name": row.level.name,
                        "spec": row.level.spec,
                        "summary": row.level.summary,
                        "figure": row.figure,
                        "source": row.source,
                    }
                    for row in levels
                ],
            }
        )
        return
    if not levels:
        click.echo(f"{game_spec} has no strength ladder")
    for number, row in enumerate(levels, 1):
        click.echo(f"{number}. {row.level.name}: {row.level.spec} ({row.level.summary})")
        click.echo(f"   {row.figure or 'not measured'}")
    if levels and levels[0].source:
        click.echo(f"measured by {levels[0].source}")


@ladder_command.command("calibrate")
@click.argument("game_spec", metavar="GAME")
@click.option("--db", "path", required=True, type=OutputPath(), help="The games' record.")
@GAMES_OPTION
@click.option(
    "--concurrency",
    type=Number(CONCURRENCY),
    help="Games at once: worker processes [default: 1, this process], or Ray actors [default: "
    "the cluster's CPUs].",
)
@click.option(
    "--ray",
    "ray_address",
    metavar="ADDRESS|auto|local",
    help="Play the games on a Ray cluster (its address, auto: the one this machine belongs to, "
    "local: one started here for the run); only this process writes to --db.",
)
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of openings and dice.")
@click.option(
    "--out",
    type=OutputPath(),
    help="Write the ladder file here [default: beside GAME's rules, where the web app reads it].",
)
def calibrate_command(
    game_spec: str,
    path: Path,
    games: int,
    concurrency: int | None,
    ray_address: str | None,
    seed: int,
    out: Path | None,
) -> None:
    """Play GAME's calibration games (kept in --db FILE: Ctrl-C loses nothing and the same
    command resumes), then measure every level and write the ladder file.

    Elo ladders: each level meets its neighbours one and two rungs away and the game's anchor
    (an outside engine where one exists); ratings with 95% intervals on the anchor's scale.
    Ladders judged by perfect play: each level against the perfect solver, its mistakes
    counted."""
    from plies.arena.ladder import calibration
    from plies.arena.records import Records
    from plies.ladder import write_ladder_file

    run = calibration(game_spec, games, seed)
    if ray_address is not None:
        check_ray_address(ray_address)
    workers = concurrency if ray_address is not None else concurrency or 1
    records = Records(path, game_spec, "")
    try:
        done = len(records.finished_keys() & {task.key for task in run.planned})
        with progress_bar() as bar, until_interrupted(terminate=True) as interruption:
            task = bar.add_task("games", total=len(run.planned), completed=done)
            played = run.run(records, workers, ray_address)
            try:
                for record in played:
                    bar.update(task, advance=1, description=f"{record.first} - {record.second}")
            finally:
                played.close()
        if interruption.happened:  # the figures wait for every game: the shipped file stays
            exit_interrupted(f"the games played are kept in {path}: run the same command to go on")
        words = [game_spec, "--games", str(games), "--seed", str(seed), "--db", path.name]
        command = shlex.join(["plies", "ladder", "calibrate", *words])
        ladder_file = run.ladder_file(records, command)
    finally:
        records.close()
    target = write_ladder_file(run.game, ladder_file, out)
    for figure in ladder_file.figures:
        nominal = "" if figure.nominal is None else f" (nominal {figure.nominal:g})"
        click.echo(f"{figure.spec}: {figure.text(ladder_file.measure, ladder_file.scale)}{nominal}")
    click.echo(f"{ladder_file.games} games, {ladder_file.hours} hours of play; written to {target}")
