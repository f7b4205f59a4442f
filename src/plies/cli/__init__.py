"""The ``plies`` command line: it parses, calls the library, and formats. No search lives here.

One module per command; :mod:`plies.cli.output` holds what they share. Every error a user can
cause ends as one line on stderr (``plies: error: ...``) and exit status 2; Ctrl-C ends with
status 130 after printing what was done so far.
"""

from __future__ import annotations

import sys

import click

from plies import __version__
from plies.cli.agents import agents_command
from plies.cli.book import book_command
from plies.cli.demo import demo
from plies.cli.effort import effort
from plies.cli.endgames import endgames_command
from plies.cli.evaluate import evaluate_command
from plies.cli.games import games
from plies.cli.gtp import gtp_command
from plies.cli.ladder import ladder_command
from plies.cli.learn import learn
from plies.cli.match import match_command
from plies.cli.perft import perft_command
from plies.cli.play import play
from plies.cli.search import search_command
from plies.cli.serve import serve
from plies.cli.solve import solve
from plies.cli.tournament import tournament_command
from plies.cli.train import train_command
from plies.cli.tree import tree
from plies.cli.uci import uci_command
from plies.errors import AbandonedError, PliesError, one_line


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="plies")
def cli() -> None:
    """plies: adversarial search, from the lecture's trees to strong game players."""


for command in (
    tree,
    solve,
    book_command,
    endgames_command,
    play,
    search_command,
    match_command,
    tournament_command,
    ladder_command,
    evaluate_command,
    train_command,
    learn,
    perft_command,
    effort,
    games,
    agents_command,
    demo,
    serve,
    uci_command,
    gtp_command,
):
    cli.add_command(command)


def main(argv: list[str] | None = None) -> None:
    """Run the CLI; user errors become one line on stderr and exit status 2."""
    try:
        code = cli.main(args=argv, prog_name="plies", standalone_mode=False)
    except click.exceptions.NoArgsIsHelpError as error:
        click.echo(error.ctx.get_help() if error.ctx else "", err=False)
        code = 0
    except click.ClickException as error:
        message = one_line(error.format_message())
        if isinstance(error, click.NoSuchOption) and len(error.option_name) > 20:
            message += (
                " (a position that starts with '-' goes after '--': plies solve GAME -- POSITION)"
            )
        click.echo(f"plies: error: {message}", err=True)
        code = 2
    except AbandonedError:
        code = 1
    except PliesError as error:
        click.echo(f"plies: error: {one_line(str(error))}", err=True)
        code = 2
    except RecursionError:
        click.echo(
            "plies: error: the game is too deep for a search to the end (the textbook tier "
            "recurses once per ply): give 'plies solve' a --depth, or use 'plies search' "
            "with a limit",
            err=True,
        )
        code = 2
    except (KeyboardInterrupt, click.exceptions.Abort):
        click.echo("plies: interrupted", err=True)
        code = 130
    sys.exit(code if isinstance(code, int) else 0)
