"""plies uci: the UCI chess protocol on stdin/stdout."""

from __future__ import annotations

import click


@click.command("uci")
def uci_command() -> None:
    """Play chess over UCI on stdin/stdout, for chess GUIs, lichess-bot and cutechess-cli.

    Options: Hash (MB, 16 by default) and Move Overhead (ms, 30 by default).
    """
    from plies.uci import run

    run()
