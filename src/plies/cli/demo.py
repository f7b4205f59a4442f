"""plies demo: the terminal tour."""

from __future__ import annotations

import click

from plies.cli.output import (
    search_summary,
)
from plies.cli.play import turn_printer
from plies.cli.tree import print_tree_report
from plies.errors import PliesError
from plies.lectures import TOUR_GAME, parse_tree
from plies.lectures.tree_report import (
    analyse_tree,
    number,
)
from plies.play import outcome_text, play_game, seat_agents
from plies.registry import make_game
from plies.search import ALGORITHMS

LECTURE_TREE = "[[3,12,8],[2,4,6],[14,5,2]]"


@click.command()
@click.option(
    "--game",
    "game_spec",
    default=TOUR_GAME,
    show_default=True,
    metavar="GAME",
    help="The game solved and played after the tree (two players, small enough to solve).",
)
def demo(game_spec: str) -> None:
    """A short tour: the lecture's tree with its pruning trace, then a game (tic-tac-toe)
    solved by minimax and alpha-beta and played by alpha-beta against a shallow search."""
    game = make_game(game_spec)
    if not game.searchable_to_end or len(game.players) != 2:
        raise PliesError(
            f"--game: the tour solves a two-player game from its start; {game.name!r} is not one"
        )
    first, second = game.players
    agents = seat_agents(game, {first: "alphabeta", second: "alphabeta:depth=2"})  # checked now
    click.echo(f"== The lecture's two-ply tree: {LECTURE_TREE}\n")
    print_tree_report(analyse_tree(parse_tree(LECTURE_TREE)), show_trace=True)
    start = game.initial_state()
    click.echo(f"\n== {game.name} solved from the start")
    for name in ("minimax", "alphabeta"):
        result = ALGORITHMS[name](game, start)
        click.echo(f"{name:>9}: value {number(result.value)}, {search_summary(result)}")
    click.echo(f"\n== alphabeta (perfect play) as {first} against alphabeta:depth=2 as {second}")
    record = play_game(game, agents, start, turn_printer(quiet=False))
    click.echo(f"game over: {outcome_text(game, record.state)}")
