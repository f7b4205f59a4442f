"""plies tournament: agents play game pairs in worker processes, every game kept in SQLite;
a rerun on the same file resumes; ``plies tournament report FILE`` prints the standings."""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

import click

from plies.cli.output import (
    Number,
    echo_json,
    exit_interrupted,
    progress_bar,
    until_interrupted,
)
from plies.errors import PliesError
from plies.games import make_game
from plies.spec import GAMES, NumberRange, parse_spec

CONCURRENCY = NumberRange(1, 256, integer=True)


class _RunByDefault(click.Group):
    """``plies tournament GAME SPEC...`` runs one; ``plies tournament report FILE`` reports."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if (args and args[0] not in self.commands and not args[0].startswith("-")) or (
            args and args[0].startswith("-") and args[0] not in ("-h", "--help")
        ):
            args = ["run", *args]
        return super().parse_args(ctx, args)


@click.group("tournament", cls=_RunByDefault)
def tournament_command() -> None:
    """Tournaments between agents: plies tournament GAME SPEC SPEC [SPEC...] --db FILE runs
    (or resumes) one; plies tournament report FILE prints its standings again."""


def _openings(game: Any, text: str | None, pairs: int, seed: int) -> list[str]:
    from plies.arena.tournament import random_openings, read_openings

    if text is None or text.startswith("random"):
        plies = game.opening_plies
        if text is not None and text != "random":
            word = text.removeprefix("random:")
            if not word.isdigit():
                raise PliesError(f"--openings {text!r}: give random:K (K random moves) or a file")
            plies = int(word)
        return random_openings(game, pairs, plies, seed) if plies else [""]
    return read_openings(game, text)


@tournament_command.command("run")
@click.argument("game_spec", metavar="GAME")
@click.argument("specs", metavar="SPEC SPEC [SPEC...]", nargs=-1, required=True)
@click.option("--db", "path", required=True, type=click.Path(dir_okay=False), help="The record.")
@click.option(
    "--format",
    "form",
    type=click.Choice(["round-robin", "gauntlet"]),
    default="round-robin",
    show_default=True,
    help="Everyone against everyone, or the first against each other.",
)
@click.option(
    "--games",
    type=Number(GAMES),
    default=10,
    show_default=True,
    help="Games per pairing, an even number: pairs on one opening, colours swapped.",
)
@click.option(
    "--openings",
    metavar="random:K|FILE",
    help="K random moves before each pair (default: per game), or a file of openings, one a "
    "line (moves or a position in the game's notation).",
)
@click.option("--concurrency", type=Number(CONCURRENCY), help="Worker processes [default: cores].")
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of openings and agents.")
@click.option("--json", "as_json", is_flag=True, help="Print the standings as one JSON object.")
def run_command(
    game_spec: str,
    specs: Sequence[str],
    path: str,
    form: str,
    games: int,
    openings: str | None,
    concurrency: int | None,
    seed: int,
    as_json: bool,
) -> None:
    """Run (or resume) a tournament of GAME between the agent SPECs, kept in --db FILE."""
    from rich.progress import BarColumn, MofNCompleteColumn, TextColumn

    from plies.arena.records import Records
    from plies.arena.tournament import check_players, pairings, run, schedule

    game = make_game(game_spec)
    for spec in specs:
        if parse_spec(spec).name == "human":
            raise PliesError("a tournament is played by programs: use 'plies play' yourself")
    pairings(specs, form)
    if games % 2:
        raise PliesError(f"--games must be even (game pairs), got {games}")
    check_players(game_spec, specs)
    planned = schedule(
        game_spec,
        specs,
        form=form,
        games=games,
        openings=_openings(game, openings, games // 2, seed),
        seed=seed,
    )
    records = Records(path, game_spec)
    already = len(records.finished_keys() & {task.key for task in planned})
    workers = concurrency or os.cpu_count() or 1
    columns = (
        TextColumn("games"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.description}"),
    )
    with until_interrupted() as interruption, progress_bar(*columns) as bar:
        task = bar.add_task("", total=len(planned), completed=already)
        for record in run(records, planned, workers):
            bar.update(task, advance=1, description=f"last: {record.first} - {record.second}")
    report(records, as_json)
    records.close()
    if interruption.happened:
        exit_interrupted(f"the finished games are kept in {path}: run the same command to resume")


@tournament_command.command("report")
@click.argument("path", type=click.Path(exists=True, dir_okay=False), metavar="FILE")
@click.option("--json", "as_json", is_flag=True, help="Print the standings as one JSON object.")
def report_command(path: str, as_json: bool) -> None:
    """Print the standings of a tournament file."""
    from plies.arena.records import Records, stored_game

    records = Records(path, stored_game(path))
    report(records, as_json)
    records.close()


def report(records: Any, as_json: bool) -> None:
    """The standings: games, points and score per player, best first."""
    table: dict[str, list[float]] = {}
    for game in records.games():
        for name, points in ((game.first, game.result), (game.second, 1 - game.result)):
            row = table.setdefault(name, [0, 0.0])
            row[0] += 1
            row[1] += points
    rows = sorted(table.items(), key=lambda item: -item[1][1] / item[1][0])
    if as_json:
        echo_json(
            {
                "game": records.game_spec,
                "games": sum(row[0] for _, row in rows) // 2,
                "players": [
                    {"spec": name, "games": int(n), "points": p, "score": round(p / n, 4)}
                    for name, (n, p) in rows
                ],
            }
        )
        return
    click.echo(f"{records.game_spec}: {sum(row[0] for _, row in rows) // 2:.0f} games")
    width = max((len(name) for name in table), default=6)
    click.echo(f"{'player':<{width}}  games  points  score")
    for name, (count, points) in rows:
        click.echo(f"{name:<{width}}  {count:5.0f}  {points:6.1f}  {100 * points / count:4.1f}%")
