"""plies games: the registered games and their options."""

from __future__ import annotations

import click

from plies.registry import registered_games


@click.command()
def games() -> None:
    """List the games and their options."""
    for name, entry in registered_games().items():
        click.echo(f"{name:<10} {entry.summary}  (options: {entry.usage()})")
