"""plies gtp: the Go Text Protocol on stdin/stdout."""

from __future__ import annotations

import click

from plies.cli.output import Number
from plies.gtp import DEFAULT_AGENT
from plies.spec import NumberRange

RESIGN = NumberRange(0, 1)


@click.command("gtp")
@click.option(
    "--agent",
    "agent",
    default=DEFAULT_AGENT,
    show_default=True,
    help="The agent that plays the moves (any spec that plays Go).",
)
@click.option(
    "--resign",
    type=Number(RESIGN),
    default=0.0,
    show_default=True,
    help="Resign when the agent's chance of winning is below this (0: never).",
)
def gtp_command(agent: str, resign: float) -> None:
    """Play Go over GTP version 2 on stdin/stdout, for Sabaki, GoGui, GNU Go referees and
    tournament runners (the board: area scoring, positional superko; boardsize 5 to 19)."""
    from plies.agents import make_agent
    from plies.games.go.rules import Go
    from plies.gtp import run

    make_agent(agent, Go())  # a bad spec is one line and exit 2, before the protocol starts
    run(agent, resign=resign)
