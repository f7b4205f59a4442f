"""plies serve: the web app (trees, games in the browser, analysis) with uvicorn."""

from __future__ import annotations

import errno
import socket
from pathlib import Path

import click

from plies.cli.output import Number
from plies.errors import PliesError
from plies.spec import NumberRange
from plies.web.workload import Budgets, prepare_server_process

PORTS = click.IntRange(1, 65535)
DEFAULTS = Budgets()
WS_MAX_BYTES = 64 * 1024
"""The largest WebSocket message the server reads (the page sends none; its answers are
sent, not read)."""
THINK_SECONDS = NumberRange(0, 3600, above_minimum=True)
ANALYSIS_SECONDS = NumberRange(0, 60, above_minimum=True)
THINKERS = NumberRange(1, 256, integer=True)
IDLE_MINUTES = NumberRange(0, 10**5, above_minimum=True)
NEW_GAMES = NumberRange(1, 10**6, integer=True)


def _check_free(host: str, port: int) -> None:
    """A one-line error when the address cannot be served (taken, or not this machine's)."""
    try:
        with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind((host, port))
    except socket.gaierror:
        raise PliesError(f"cannot serve on {host!r}: no such host") from None
    except OSError as error:
        if error.errno == errno.EADDRINUSE:
            raise PliesError(
                f"port {port} on {host} is taken (another plies serve?): choose another with --port"
            ) from None
        raise PliesError(f"cannot serve on {host}:{port}: {error.strerror}") from None


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="The address to listen on.")
@click.option("--port", type=PORTS, default=8000, show_default=True, help="The port.")
@click.option(
    "--game",
    "games",
    multiple=True,
    metavar="SPEC",
    help="Also serve this game named by module path (mypkg.kalah:Kalah, kalah.py:Kalah); "
    "repeatable. Browsers may start only the registered games and these.",
)
@click.option(
    "--models",
    type=click.Path(file_okay=False, path_type=Path),
    help="A folder of models (.pt) that browsers may name, by file name, besides the shipped "
    "ones; no other file on the server is ever opened as a model.",
)
@click.option(
    "--think-seconds",
    type=Number(THINK_SECONDS),
    default=DEFAULTS.think_seconds,
    show_default=True,
    help="The longest an agent thinks on a move (specs asking more are refused; others are "
    "stopped then and play their best move so far).",
)
@click.option(
    "--analysis-seconds",
    type=Number(ANALYSIS_SECONDS),
    default=DEFAULTS.analysis_seconds,
    show_default=True,
    help="The longest an analysis may be given.",
)
@click.option(
    "--thinkers",
    type=Number(THINKERS),
    default=DEFAULTS.thinkers,
    show_default=True,
    help="Agents' moves and analyses computed at once (the others wait their turn; the "
    "default is the number of cores, 2 at least).",
)
@click.option(
    "--idle-minutes",
    type=Number(IDLE_MINUTES),
    default=DEFAULTS.idle_minutes,
    show_default=True,
    help="Games nobody has looked at for this long are dropped.",
)
@click.option(
    "--new-games-per-minute",
    type=Number(NEW_GAMES),
    default=DEFAULTS.new_games_per_minute,
    show_default=True,
    help="Games one address may start a minute (past it: 429 with Retry-After).",
)
def serve(
    host: str,
    port: int,
    games: tuple[str, ...],
    models: Path | None,
    think_seconds: float,
    analysis_seconds: float,
    thinkers: int,
    idle_minutes: float,
    new_games_per_minute: int,
) -> None:
    """Serve the web app: alpha-beta exercises with step-by-step traces and quizzes, every
    game against any agent with its search shown live, and Connect Four and chess analysis.
    Open the address it prints in a browser; the JSON API is documented at /docs.
    Ctrl-C stops it."""
    try:
        import uvicorn

        from plies.web.app import create_app
    except ImportError as error:
        if error.name is not None and error.name.split(".")[0] in ("fastapi", "uvicorn"):
            raise PliesError(
                "the web app needs FastAPI and uvicorn: pip install 'plies[web]'"
            ) from None
        raise
    budgets = Budgets(
        think_seconds=think_seconds,
        analysis_seconds=analysis_seconds,
        thinkers=int(thinkers),
        idle_minutes=idle_minutes,
        new_games_per_minute=int(new_games_per_minute),
    )
    app = create_app(games, models, budgets)
    prepare_server_process()
    _check_free(host, port)
    shown = f"[{host}]" if ":" in host else host
    click.echo(f"plies web app: open http://{shown}:{port}/ in a browser (Ctrl-C stops it)")
    uvicorn.run(
        app,
        host=host,
        port=port,
        log_level="warning",
        ws_max_size=WS_MAX_BYTES,
        ws_ping_interval=20,
    )
