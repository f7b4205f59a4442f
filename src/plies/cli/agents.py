"""plies agents: the registered agents and their options, from the agent registry."""

from __future__ import annotations

import click

from plies.agents import registered_agents
from plies.registry import make_game


@click.command("agents")
@click.option(
    "--game",
    "game_spec",
    metavar="GAME",
    default=None,
    help="also list the options this game adds (the settings of its own compiled tree)",
)
def agents_command(game_spec: str | None) -> None:
    """List the agents (for --first, --second, match specs) and their options."""
    game = None if game_spec is None else make_game(game_spec)
    for kind in registered_agents().values():
        click.echo(f"{kind.name:<15} {kind.summary}")
        for option in kind.options if game is None else kind.options_for(game):
            shown = (
                str(option.default).lower() if isinstance(option.default, bool) else option.default
            )
            default = "" if option.default is None else f" (default {shown})"
            click.echo(f"{'':<17}{option.text():<28} {option.help}{default}")
        if game is None and kind.game_options is not None:
            click.echo(f"{'':<17}{'...':<28} and the options a game adds: plies agents --game GAME")
