"""plies serve: the web app (trees, games in the browser, analysis) with uvicorn."""

from __future__ import annotations

import errno
import socket
from pathlib import Path

import click

from plies.cli.output import Number
from plies.errors import PliesError
from plies.spec import NumberRange
from plies.web.store import StoreError, default_games_file
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
    "--db",
    type=click.Path(path_type=Path),
    help="The SQLite file that keeps every game, in progress and finished, so that a reload "
    "or a restart loses no move and a game's link reopens it [default: "
    "$XDG_DATA_HOME/plies/web-games.sqlite, else ~/.local/share/plies/web-games.sqlite]. "
    "A file that is not plies' games file, or cannot be written, stops the server.",
)
@click.option(
    "--no-db",
    is_flag=True,
    help="Keep games in memory only: a restart, or a game idle for --idle-minutes, loses them.",
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
    help="Games nobody has looked at for this long leave the server's memory (a kept game "
    "comes back when asked for; with --no-db it is lost).",
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
    db: Path | None,
    no_db: bool,
    think_seconds: float,
    analysis_seconds: float,
    thinkers: int,
    idle_minutes: float,
    new_games_per_minute: int,
) -> None:
    """Serve the web app: alpha-beta exercises with step-by-step traces and quizzes, every
    game against any agent with its search shown live, and Connect Four and chess analysis.
    Every game is kept in a SQLite file (--db), so a restart loses none and a game's link
    reopens it. Open the address it prints in a browser; the JSON API is documented at /docs.
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
    _check_free(host, port)
    db = _games_file(db, no_db)
    try:
        app = create_app(games, models, budgets, db)
    except StoreError as error:
        raise PliesError(f"--db: {error}; give another file, or --no-db to keep no games") from None
    prepare_server_process()
    shown = f"[{host}]" if ":" in host else host
    click.echo(f"plies web app: open http://{shown}:{port}/ in a browser (Ctrl-C stops it)")
    sessions = app.state.sessions
    if sessions.store is None:
        click.echo("games are kept in memory only (--no-db): a restart loses them")
    else:
        click.echo(f"games are kept in {db} ({sessions.store.count()} so far)")
    uvicorn.run(
        app,
        host=host,
        port=port,
        log_level="warning",
        ws_max_size=WS_MAX_BYTES,
        ws_ping_interval=20,
    )
    sessions.close()


def _games_file(db: Path | None, no_db: bool) -> Path | None:
    """The games file to open (the default one's folder made if need be), or None."""
    if no_db:
        if db is not None:
            raise PliesError("give --db FILE or --no-db, not both")
        return None
    if db is not None:
        return db
    path = default_games_file()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise PliesError(
            f"cannot make the folder of the games file {str(path.parent)!r} "
            f"({error.strerror}): give --db FILE, or --no-db to keep no games"
        ) from None
    return path
