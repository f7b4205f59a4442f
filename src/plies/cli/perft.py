"""plies perft: count the move paths of a given depth."""

from __future__ import annotations

from typing import Any

import click

from plies.cli.output import (
    Number,
    echo_json,
    exit_interrupted,
    game_and_state,
    progress_bar,
    until_interrupted,
)
from plies.spec import PERFT_DEPTH


@click.command("perft")
@click.argument("game_spec", metavar="GAME")
@click.argument("depth", type=Number(PERFT_DEPTH))
@click.option("--position", help="Count from this position instead of the initial one.")
@click.option("--divide", "split", is_flag=True, help="List the count under each first move.")
@click.option("--json", "as_json", is_flag=True, help='Print {"nodes": N, "time": s}.')
def perft_command(
    game_spec: str, depth: int, position: str | None, split: bool, as_json: bool
) -> None:
    """Count the move paths of exactly DEPTH plies from the start (or POSITION) of GAME."""
    import time

    from plies.perft import divide, perft

    game, state = game_and_state(game_spec, position)
    started = time.perf_counter()
    counts: list[tuple[Any, int]] = []
    whole = depth == 0 or game.is_terminal(state)  # nothing to split by first move
    with progress_bar() as bar, until_interrupted() as interruption:
        if not whole:
            task = bar.add_task(f"perft {depth}", total=len(game.actions(state)))
            for action, count in divide(game, state, depth):
                counts.append((action, count))
                bar.advance(task)
    nodes = perft(game, state, depth) if whole else sum(count for _, count in counts)
    seconds = time.perf_counter() - started
    moves = [(game.format_action(state, action), count) for action, count in counts]
    if as_json:
        data: dict[str, Any] = {"nodes": nodes, "time": round(seconds, 6)}
        if split:
            data["divide"] = dict(moves)
        if interruption.happened:
            data["complete"] = False
        echo_json(data)
    else:
        if split:
            for move, count in moves:
                click.echo(f"{move}: {count:,}")
        rate = nodes / seconds if seconds > 0 else 0.0
        click.echo(f"perft {depth}: {nodes:,} nodes in {seconds:.3f} s ({rate:,.0f} nodes/s)")
    if interruption.happened:
        exit_interrupted(
            f"{len(counts)} of {len(game.actions(state))} first moves counted; the count "
            "covers those moves only"
        )
