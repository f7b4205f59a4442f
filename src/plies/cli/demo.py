"""plies demo: the terminal tour."""

from __future__ import annotations

import click

from plies.cli.output import (
    search_summary,
)
from plies.cli.play import turn_printer
from plies.cli.tree import print_tree_report
from plies.lectures import parse_tree
from plies.lectures.tree_report import (
    analyse_tree,
    number,
)
from plies.play import outcome_text, play_game, seat_agents
from plies.registry import make_game
from plies.search import ALGORITHMS

LECTURE_TREE = "[[3,12,8],[2,4,6],[14,5,2]]"


@click.command()
def demo() -> None:
    """A short tour: the lecture's tree with its pruning trace, then AI-vs-AI tic-tac-toe."""
    click.echo(f"== The lecture's two-ply tree: {LECTURE_TREE}\n")
    print_tree_report(analyse_tree(parse_tree(LECTURE_TREE)), show_trace=True)
    game = make_game("tictactoe")
    start = game.initial_state()
    click.echo("\n== Tic-tac-toe solved from the empty board")
    for name in ("minimax", "alphabeta"):
        result = ALGORITHMS[name](game, start)
        click.echo(f"{name:>9}: value {number(result.value)}, {search_summary(result)}")
    click.echo("\n== alphabeta (perfect play) as X against alphabeta:depth=2 as O")
    agents = seat_agents(game, {"X": "alphabeta", "O": "alphabeta:depth=2"})
    record = play_game(game, agents, start, turn_printer(quiet=False))
    click.echo(f"game over: {outcome_text(game, record.state)}")
