"""plies match: two agents play a series of games; W/D/L and an Elo difference."""

from __future__ import annotations

import click

from plies.agents import plays_in_person
from plies.cli.output import (
    Number,
    echo_json,
    exit_interrupted,
    progress_bar,
    until_interrupted,
)
from plies.errors import PliesError
from plies.registry import make_game
from plies.spec import GAMES, PLIES


@click.command("match")
@click.argument("game_spec", metavar="GAME")
@click.argument("spec_a", metavar="SPEC_A")
@click.argument("spec_b", metavar="SPEC_B")
@click.option("--games", "count", type=Number(GAMES), default=10, show_default=True)
@click.option(
    "--openings",
    "opening_plies",
    type=Number(PLIES),
    help="Random plies before each pair of games [default: per game].",
)
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the openings.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def match_command(
    game_spec: str,
    spec_a: str,
    spec_b: str,
    count: int,
    opening_plies: int | None,
    seed: int,
    as_json: bool,
) -> None:
    """Play SPEC_A against SPEC_B at GAME: colours alternate on shared openings; W/D/L and Elo.

    Agents: random, alphabeta:depth=N, engine:time=S (or depth=, nodes=), minimax,
    perfect:time=S (connect4; othello near the end).
    """
    from rich.progress import BarColumn, MofNCompleteColumn, TextColumn

    from plies.arena.match import run_match, summarise, to_json

    game = make_game(game_spec)
    for spec in (spec_a, spec_b):
        if plays_in_person(spec):
            raise PliesError("a match is played by programs: use 'plies play' to play yourself")
    outcomes = []
    games = run_match(game, spec_a, spec_b, count, opening_plies=opening_plies, seed=seed)
    columns = (
        TextColumn("games"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.description}"),
    )
    with progress_bar(*columns) as bar, until_interrupted() as interruption:
        task = bar.add_task("", total=count)
        for outcome in games:
            outcomes.append(outcome)
            so_far = summarise(outcomes)
            score = f"+{so_far.wins} ={so_far.draws} -{so_far.losses}"
            bar.update(task, advance=1, description=score)
    result = summarise(outcomes)
    if as_json:
        echo_json(to_json(result, complete=not interruption.happened))
    else:
        click.echo(
            f"{spec_a} vs {spec_b} at {game_spec}: {result.games} games, +{result.wins} "
            f"={result.draws} -{result.losses} (score {result.score:.3f} for {spec_a})"
        )
        click.echo(
            f"Elo difference {result.elo:+.1f} (95% interval {result.elo_low:+.1f} to "
            f"{result.elo_high:+.1f})"
        )
        if result.clamped:
            side = "won" if result.losses == 0 else "lost"
            click.echo(
                f"every game {side}: the estimate rests on the one virtual draw the fit adds, "
                "and the true difference may lie further out"
            )
    if interruption.happened:
        exit_interrupted(f"{len(outcomes)} of {count} games played")
