"""plies serve: the web app (trees, games in the browser, analysis) with uvicorn."""

from __future__ import annotations

import errno
import socket
from pathlib import Path

import click

from plies.errors import PliesError

PORTS = click.IntRange(1, 65535)


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
def serve(host: str, port: int, games: tuple[str, ...], models: Path | None) -> None:
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
    app = create_app(games, models)
    _check_free(host, port)
    shown = f"[{host}]" if ":" in host else host
    click.echo(f"plies web app: open http://{shown}:{port}/ in a browser (Ctrl-C stops it)")
    uvicorn.run(app, host=host, port=port, log_level="warning")
