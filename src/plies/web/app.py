"""The FastAPI application: the pages, the JSON API under ``/api`` (documented at ``/docs``),
and errors as 4xx JSON answers ``{"error": "one line naming the problem"}``."""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel
from starlette.exceptions import HTTPException

from plies import __version__
from plies.errors import BusyError, PliesError, RateLimitError, SpecError, one_line
from plies.registry import is_module_path, make_game
from plies.web.workload import Budgets

STATIC = Path(__file__).parent / "static"
PAGES = {
    "/": "index.html",
    "/trees": "trees.html",
    "/play": "play.html",
    "/analyse": "analyse.html",
}
"""The pages, each one HTML file of ``static/`` that loads its own script."""


class Problem(BaseModel):
    """Every error answer: one line naming the problem."""

    error: str


ERRORS: dict[int | str, dict[str, Any]] = {
    400: {
        "model": Problem,
        "description": "bad input: an unknown game or agent, an illegal "
        "move, a malformed tree, position or FEN, a number out of range",
    },
    403: {
        "model": Problem,
        "description": "a move, Undo, New game or Stop without the game's owner token "
        "(X-Plies-Token: only the browser that started the game plays in it)",
    },
    404: {"model": Problem, "description": "no such game session"},
    413: {"model": Problem, "description": "a request body over 1 MiB"},
    422: {"model": Problem, "description": "a request body of the wrong shape or type"},
    429: {
        "model": Problem,
        "description": "too many new games from one address (Retry-After says when to retry)",
    },
    503: {
        "model": Problem,
        "description": "the server is busy: every thinker taken and too many waiting, or every "
        "game watched (Retry-After says when to retry)",
    },
}
"""The error answers of every route, for the OpenAPI description."""


def error_answer(status: int, message: str) -> JSONResponse:
    """The one shape of every error answer."""
    return JSONResponse(status_code=status, content={"error": one_line(message)})


def _validation_message(error: RequestValidationError) -> str:
    """The first problem of a request body in a line: where it is and what is wrong."""
    problems = []
    for item in error.errors():
        where = ".".join(str(part) for part in item.get("loc", ()) if part != "body")
        problems.append(f"{where or 'body'}: {item.get('msg', 'invalid')}")
    return "bad request: " + "; ".join(problems[:3])


MAX_BODY = 1 << 20
"""The largest request body the app reads (1 MiB: a tree, a position or a move is far less)."""


class BodyLimit:
    """ASGI middleware: a request whose body is over ``limit`` bytes is answered 413 before
    it is read (by its Content-Length), or as soon as the bytes received pass the limit."""

    def __init__(self, app: Any, limit: int = MAX_BODY) -> None:
        self.app, self.limit = app, limit

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        length = dict(scope["headers"]).get(b"content-length", b"0")
        if not length.isdigit() or int(length) > self.limit:
            await self._too_large()(scope, receive, send)
            return
        received = 0

        async def counted() -> Any:
            nonlocal received
            message = await receive()
            received += len(message.get("body", b""))
            if received > self.limit:
                raise HTTPException(413, self._too_large_text())
            return message

        await self.app(scope, counted, send)

    def _too_large_text(self) -> str:
        return f"the request body is over {self.limit:,} bytes, the most the app reads"

    def _too_large(self) -> JSONResponse:
        return error_answer(413, self._too_large_text())


async def no_socket_here(websocket: WebSocket, path: str) -> None:
    """A WebSocket opened where none is served (a mistyped or outdated address): an error
    frame naming the address, then the close, as the live socket of an unknown session gets
    (a page learns why, instead of a bare refusal before any frame)."""
    await websocket.accept()
    address = one_line("/" + path, 120)
    await websocket.send_json({"type": "error", "error": f"no WebSocket at {address!r}"})
    await websocket.close(code=4404)


def create_app(
    games: Sequence[str] = (),
    models: Path | None = None,
    budgets: Budgets | None = None,
    db: Path | None = None,
) -> FastAPI:
    """The application with every router, the static files and the error handlers; ``games``
    are the specs of games named by module path (a developer's own) that it serves besides
    the registered ones, each built once now so that a bad one fails at the start; ``models``
    is a folder whose ``.pt`` files browsers may name as models besides the shipped ones;
    ``budgets`` are the server's limits (:class:`~plies.web.workload.Budgets`); ``db`` is the
    SQLite file that keeps every game (:class:`~plies.web.store.GameStore`, checked now: a
    :class:`~plies.web.store.StoreError` if it cannot be used), None to keep them in memory
    only."""
    from plies.web import analyse, play, trees
    from plies.web.sessions import Sessions
    from plies.web.store import GameStore

    app = FastAPI(
        title="plies",
        version=__version__,
        description="Adversarial search in the browser: alpha-beta exercises, games against "
        "any agent with the search shown live, positions solved or evaluated.",
    )

    for spec in games:
        if not is_module_path(spec):
            raise SpecError(f"{spec!r}: serve a game named by module path (kalah.py:Kalah)")
        make_game(spec)
    if models is not None and not models.is_dir():
        raise SpecError(f"--models {str(models)[:80]!r} is not a folder")
    store = None if db is None else GameStore(db)
    app.state.sessions = Sessions(served=games, models=models, budgets=budgets, store=store)

    @app.exception_handler(BusyError)
    async def busy(request: Request, error: BusyError) -> JSONResponse:
        answer = error_answer(429 if isinstance(error, RateLimitError) else 503, str(error))
        answer.headers["Retry-After"] = f"{math.ceil(error.retry_after)}"
        return answer

    @app.exception_handler(PliesError)
    async def library_error(request: Request, error: PliesError) -> JSONResponse:
        return error_answer(400, str(error))

    @app.exception_handler(RequestValidationError)
    async def invalid_request(request: Request, error: RequestValidationError) -> JSONResponse:
        return error_answer(422, _validation_message(error))

    @app.exception_handler(Exception)
    async def unexpected(request: Request, error: Exception) -> JSONResponse:
        """A defect of plies, still answered in the API's shape (and logged by the server)."""
        return error_answer(500, f"internal error ({type(error).__name__}): {error}")

    @app.exception_handler(HTTPException)
    async def http_error(request: Request, error: HTTPException) -> JSONResponse:
        return error_answer(error.status_code, str(error.detail))

    for router in (trees.router, play.router, analyse.router, analyse.named_router()):
        app.include_router(router, prefix="/api", responses=ERRORS)
    app.add_api_websocket_route("/{path:path}", no_socket_here)  # after every real socket

    def page(name: str) -> FileResponse:
        return FileResponse(STATIC / name, headers={"Cache-Control": "no-cache"})

    for route, name in PAGES.items():
        app.add_api_route(route, lambda name=name: page(name), include_in_schema=False)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    app.add_middleware(BodyLimit)
    return app
