"""plies agents: the registered agents and their options, from the agent registry."""

from __future__ import annotations

import click

from plies.agents import registered_agents


@click.command("agents")
def agents_command() -> None:
    """List the agents (for --first, --second, match specs) and their options."""
    for kind in registered_agents().values():
        click.echo(f"{kind.name:<15} {kind.summary}")
        for option in kind.options:
            shown = (
                str(option.default).lower() if isinstance(option.default, bool) else option.default
            )
            default = "" if option.default is None else f" (default {shown})"
            click.echo(f"{'':<17}{option.text():<28} {option.help}{default}")
