"""Routes of the Play page: the games and agents there are, game sessions (create, move,
undo, new game, stop the thinking agent, the search behind a move) and the live WebSocket
that sends every change and the thinking agent's search as it goes.

Creating a game answers the token of its owner; moving, Undo, New game and Stop need it, in
the :data:`TOKEN_HEADER` header (403 without it). Looking at a game, its records, the search
behind its moves and its live socket need only its id: anyone given the link watches."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

from fastapi import APIRouter, HTTPException, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, Field

from plies.agents import SearchAgent, make_agent, registered_agents
from plies.capabilities import HasInformationSets, HasPerfectSolver
from plies.errors import PliesError, SpecError, one_line
from plies.game import CHANCE, Game, has_chance
from plies.game_texts import MEDIA_TYPES, MOST_RECORD_CHARACTERS, read_record
from plies.ladder import HasLadder, measured_levels
from plies.play import GameRecord, seat_view
from plies.registry import GameOption, game_spec, make_game, registered_games, spec_entry
from plies.search.analysis import estimate_tree_size
from plies.spec import spec_name
from plies.web.analyse import listed_analyser
from plies.web.boards import board_view, move_paths
from plies.web.clocks import PRESETS
from plies.web.seating import TEXTBOOK_NODES
from plies.web.sessions import (
    GAME_SPEC,
    GameSession,
    Sessions,
    Settings,
    sessions_of,
    shipped_models,
)

router = APIRouter(tags=["play"])

TOKEN_HEADER = "X-Plies-Token"
"""The header that carries a game's owner token (answered by ``POST /api/sessions``)."""

PACES = (1.0, 5.0)
"""Seconds a move of the clocked agents the Play page suggests (those within the server's think
time)."""
CLOCKED = ("engine", "mcts")
"""The agent kinds whose moves take the seconds they are given (``time=``)."""
TEXTBOOK = {
    "two players": ("alphabeta", "minimax", "alphabeta:depth=4"),
    "more players": ("maxn:depth=3", "paranoid:depth=3"),
    "chance": ("expectiminimax:depth=2",),
}
"""The textbook searches the Play page suggests by kind of game, where they can search it (an
evaluation for a depth) and their tree from the start is within the server's budget."""


class NewSession(BaseModel):
    """A game to start: its spec, who plays each side, and optionally where it starts."""

    game: str = Field(description=GAME_SPEC)
    players: dict[str, str] = Field(
        default_factory=dict,
        description="an agent spec (or 'human') per player, such as {'X': 'human', "
        "'O': 'engine:time=0.5'}; a player left out gets the game's default opponent",
    )
    position: str | None = Field(None, description="a start position in the game's notation")
    record: str | None = Field(
        None,
        max_length=MOST_RECORD_CHARACTERS,
        description="a game to continue, or a position to start from: plies' JSON record (a "
        "session's record.json), a PGN or SGF game where the game reads them, or a position "
        "in the game's notation; a record's moves are replayed from its start, and its game "
        "must be the one asked for",
    )
    seed: int | None = Field(None, ge=0, lt=2**63, description="seeds the agents and the dice")
    clock: str | None = Field(
        None,
        max_length=40,
        description="a time control, BASE+INC in seconds (300+3: five minutes, three seconds "
        "added a move); none: untimed",
    )
    hints: bool = Field(False, description="the person may ask for hints")


class Move(BaseModel):
    move: str = Field(description="a move in the game's notation, such as b2, 4, e2e4 or 11x18")


def _session(request: Request, session_id: str) -> GameSession:
    store = sessions_of(request)
    session = store.get(session_id)
    if session is None:
        raise HTTPException(404, _unknown(session_id, store.store is not None))
    return session


def _unknown(session_id: str, kept: bool) -> str:
    """The answer for a game that is not here."""
    name = one_line(repr(session_id), 100)
    if kept:
        return f"no game session {name} on this server"
    return f"no game session {name} (this server keeps no games: it may have ended)"


def _owned(request: Request, session_id: str) -> GameSession:
    """The session, if the request carries its owner's token; else 403."""
    session = _session(request, session_id)
    token = request.headers.get(TOKEN_HEADER)
    if not session.owned_by(token):
        which = "without its token" if token is None else "with another game's token"
        raise HTTPException(
            403,
            f"only the browser that started this game plays in it ({TOKEN_HEADER} header); "
            f"this request came {which}: it may watch the game",
        )
    return session


@router.get("/games", summary="The games, their options and players")
def list_games(request: Request) -> list[dict[str, Any]]:
    """The registered games, then those the operator serves by module path."""
    store = sessions_of(request)
    if store.games is None:
        store.games = _games(store)
    return store.games


def _games(store: Sessions) -> list[dict[str, Any]]:
    named = [(name, entry) for name, entry in registered_games().items()]
    named += [(spec, spec_entry(spec)[0]) for spec in store.served]
    games = []
    for name, entry in named:
        game = make_game(name)
        games.append(
            {
                "name": name,
                "summary": entry.summary,
                "options": entry.usage(),
                "fields": option_fields(entry.options),
                "players": list(game.players),
                "hidden_information": isinstance(game, HasInformationSets),
                "default_opponent": game.default_opponent,
                "agents": suggested_agents(game, store.budgets.think_seconds),
                "analyser": listed_analyser(game),
                "levels": ladder_json(game),
                "start": _start_json(game),
            }
        )
    return games


def option_fields(options: Sequence[GameOption]) -> list[dict[str, Any]]:
    """The options a player sets, as form fields (name, help, kind, default, choices, range):
    those that change the game's positions and moves (not its scoring)."""
    return [
        {
            "key": option.key,
            "help": option.help,
            "kind": option.kind,
            "default": option.default,
            "choices": list(option.choices),
            "minimum": None if option.allowed is None else option.allowed.minimum,
            "maximum": None if option.allowed is None else option.allowed.maximum,
        }
        for option in options
        if option.identity
    ]


def _start_json(game: Game[Any, Any]) -> dict[str, Any]:
    """The game's start as the Play page shows it before a game begins: its board (as the
    player to move sees it, or the first player before chance deals, in a game of imperfect
    information), and the moves a person playing first may make there."""
    state = game.initial_state()
    mover = game.to_move(state)
    legal = [] if mover == CHANCE else move_paths(game, state)
    seat = mover if mover in game.players else game.players[0]
    view = seat_view(game, [seat], GameRecord(game, state, state))
    board = {**board_view(game, state, view=view), "seat": None}  # nobody is seated yet
    return {"board": board, "to_move": mover, "legal": legal}


@router.get("/time-controls", summary="The time controls the Play page offers")
def time_controls() -> list[dict[str, str]]:
    """Each preset as players name it (minutes + seconds a move) and as a time control in
    seconds (what ``clock`` takes when a game is started)."""
    return [{"name": name, "clock": clock} for name, clock in PRESETS.items()]


def ladder_json(game: Game[Any, Any]) -> list[dict[str, Any]]:
    """``game``'s strength levels for the Play page, weakest first: name, agent spec, how it
    plays, its measured figure and the figure's source (None where not measured), and which
    one a newcomer meets first (``default``)."""
    levels = measured_levels(game)
    default = game.ladder.default if isinstance(game, HasLadder) else 0
    return [
        {
            "name": row.level.name,
            "spec": row.level.spec,
            "summary": row.level.summary,
            "figure": row.figure,
            "source": row.source,
            "default": number == default,
        }
        for number, row in enumerate(levels, 1)
    ]


def suggested_agents(game: Game[Any, Any], think_seconds: float) -> list[str]:
    """The agent specs the Play page suggests for ``game``: a person, the game's default
    opponent, it (a clocked engine or MCTS) and MCTS at :data:`PACES` within ``think_seconds``,
    the :data:`TEXTBOOK` searches that fit, the perfect solver and the learned agents where
    the game has them, and random moves; in a game of imperfect information, a person, the
    default opponent and the kinds that play such games
    (:attr:`~plies.agents.AgentKind.hidden_information`) alone, those made for it."""
    if isinstance(game, HasInformationSets):
        kinds = registered_agents().items()
        able = (name for name, kind in kinds if kind.hidden_information and not kind.person)
        playing = dict.fromkeys((game.default_opponent, *able))
        return ["human", *(s for s in playing if s != "random" and _plays(game, s)), "random"]
    default = game.default_opponent
    clocked = [kind for kind in dict.fromkeys((spec_name(default), "mcts")) if kind in CLOCKED]
    paced = [f"{kind}:time={s:g}" for kind in clocked for s in PACES if s <= think_seconds]
    players = "two players" if len(game.players) == 2 else "more players"
    family = TEXTBOOK["chance" if has_chance(game) else players]
    textbook = [spec for spec in family if _search_fits(game, spec)]
    solver = ["perfect"] if isinstance(game, HasPerfectSolver) else []
    learned = ["az", "policy"] if game.name in shipped_models() else []
    specs = ["human", default, *paced, *textbook, *solver, *learned, "random"]
    return list(dict.fromkeys(specs))


def _plays(game: Game[Any, Any], spec: str) -> bool:
    """Whether the agent ``spec`` is made for ``game`` (a strategy's agent is refused a game it
    has no strategy for and cannot solve)."""
    try:
        make_agent(spec, game)
    except PliesError:
        return False
    return True


def _search_fits(game: Game[Any, Any], spec: str) -> bool:
    """Whether the textbook search ``spec`` can search ``game`` and its tree from the start
    (estimated on a few random paths) is within the server's budget, without trying it."""
    try:
        agent = make_agent(spec, game)
    except PliesError:
        return False
    assert isinstance(agent, SearchAgent), spec
    size = estimate_tree_size(game, game.initial_state(), agent.depth, samples=16)
    return size <= TEXTBOOK_NODES


@router.get("/agents", summary="The agents and their options")
def list_agents(request: Request) -> list[dict[str, Any]]:
    store = sessions_of(request)
    if store.agents is None:
        store.agents = _agents()
    return store.agents


def _agents() -> list[dict[str, Any]]:
    return [
        {
            "name": kind.name,
            "summary": kind.summary,
            "hidden_information": kind.hidden_information,
            "options": [
                {
                    "key": option.key,
                    "kind": option.kind,
                    "help": option.help,
                    "usage": option.text(),
                    "default": option.default,
                    "choices": list(option.choices),
                }
                for option in kind.options
            ],
        }
        for kind in registered_agents().values()
    ]


@router.post("/sessions", status_code=201, summary="Start a game")
def create_session(body: NewSession, request: Request) -> dict[str, Any]:
    """Seat the players (every spec checked, including that a textbook search to the end of
    the game is quick enough for the web) and start; an agent that moves first starts
    thinking at once. The answer is the session with its ``token``: sent back in the
    ``X-Plies-Token`` header, it lets this browser alone move, undo, stop the agent and start
    again (nobody else can; the server keeps only its hash)."""
    client = "" if request.client is None else request.client.host
    position, moves = body.position, []
    if body.record is not None:
        read = read_record(make_game(body.game), body.record)
        if game_spec(make_game(read.game)) != game_spec(make_game(body.game)):
            raise SpecError(f"the record is a game of {read.game[:80]!r}, not {body.game[:80]!r}")
        if position is not None:
            raise SpecError("give a start position or a record, not both")
        position, moves = read.start, read.moves
    store = sessions_of(request)
    settings = Settings(body.clock, body.hints)
    session, token = store.create(
        body.game, body.players, position, body.seed, client, moves, settings
    )
    return {**session.snapshot(), "token": token}


@router.get("/sessions/{session_id}", summary="A game: board, legal moves, moves, thinking")
def get_session(session_id: str, request: Request) -> JSONResponse:
    """The session as the live page receives it (answered without FastAPI's encoding pass:
    pages look at their game often)."""
    return JSONResponse(_session(request, session_id).snapshot())


@router.post("/sessions/{session_id}/move", summary="Play a human's move")
def play_move(session_id: str, body: Move, request: Request) -> dict[str, Any]:
    session = _owned(request, session_id)
    session.play(body.move)
    return session.snapshot()


@router.post("/sessions/{session_id}/undo", summary="Take back the last human move")
def undo(session_id: str, request: Request) -> dict[str, Any]:
    session = _owned(request, session_id)
    session.undo()
    return session.snapshot()


@router.post("/sessions/{session_id}/new", summary="Start the game again")
def new_game(session_id: str, request: Request) -> dict[str, Any]:
    session = _owned(request, session_id)
    session.new_game()
    return session.snapshot()


@router.post("/sessions/{session_id}/stop", summary="Make the thinking agent move now")
def stop(session_id: str, request: Request) -> dict[str, Any]:
    session = _owned(request, session_id)
    session.stop()
    return session.snapshot()


@router.post("/sessions/{session_id}/resign", summary="The person resigns")
def resign(session_id: str, request: Request) -> dict[str, Any]:
    session = _owned(request, session_id)
    session.resign()
    return session.snapshot()


@router.post("/sessions/{session_id}/draw", summary="The person offers a draw")
def offer_draw(session_id: str, request: Request) -> dict[str, Any]:
    """The agent seated against the person answers (``accepted``, and why in ``text``) by the
    game's strongest analyser within the server's think budget; it accepts when it expects no
    more than a draw, and the game then ends drawn by agreement."""
    return _owned(request, session_id).offer_draw()


@router.post("/sessions/{session_id}/hint", summary="The best move for the person to move")
def hint(session_id: str, request: Request) -> dict[str, Any]:
    """The game's strongest analyser's move (a game started with ``hints``), found within the
    server's think time in its thinking queue: ``{"move", "text", "analyser"}``."""
    return _owned(request, session_id).hint()


@router.post("/sessions/{session_id}/review", summary="Review the finished game")
def review(session_id: str, request: Request) -> dict[str, Any]:
    """Start the review of a finished game (once: asked again, a 400): every move judged by
    the game's strongest analyser in the server's thinking queue. Its progress and result come
    in the session's ``review`` (and over the live socket as ``review`` events). Anyone who
    can see the game may ask."""
    session = _session(request, session_id)
    session.start_review()
    return session.snapshot()


@router.get("/sessions/{session_id}/record.{kind}", summary="Download the game as text")
def download(session_id: str, kind: str, request: Request) -> Response:
    """The game so far as ``json`` (plies' record, every game), ``pgn`` (chess), ``sgf``
    (Go) or ``mat`` (a backgammon match file): the session's ``records`` list which; the
    players named by their specs."""
    session = _session(request, session_id)
    text = session.record_text(kind)
    name = f"plies-{session.game.name}-{session.id[:8]}.{kind}"
    return Response(
        text,
        media_type=MEDIA_TYPES[kind],
        headers={"Content-Disposition": f'attachment; filename="{name}"'},
    )


@router.get("/sessions/{session_id}/board", summary="The board after a move, or turned round")
def board(
    session_id: str, request: Request, ply: int | None = None, flipped: bool = False
) -> dict[str, Any]:
    """The board after ``ply`` moves (now when none is given), seen from the other side when
    ``flipped``: for flipping the board, and for stepping through a finished game."""
    return _session(request, session_id).board_at(ply, flipped)


@router.get("/sessions/{session_id}/moves/{ply}/search", summary="The search behind a move")
def move_search(session_id: str, ply: int, request: Request) -> dict[str, Any]:
    """MCTS's first levels (visits and values per move), the engine's line at each depth,
    and the search's summary."""
    return _session(request, session_id).turn_tree(ply)


class Latest:
    """The events of a session not sent to a page yet, the newest of each type only: a page
    that reads slowly gets the latest, and nothing queues up behind it (a state replaces the
    search reports before it). Used from the event loop's thread only."""

    def __init__(self) -> None:
        self.events: dict[str, dict[str, Any]] = {}
        self.ready = asyncio.Event()

    def keep(self, event: dict[str, Any]) -> None:
        if event["type"] == "state":
            self.events.clear()
        self.events[event["type"]] = event
        self.ready.set()

    def take(self) -> list[dict[str, Any]]:
        """The events to send, in order (a state, then the search after it)."""
        events = list(self.events.values())
        self.events.clear()
        self.ready.clear()
        return events


SEND_SECONDS = 30.0
"""The longest one message may take to reach a page: a client that does not read is dropped."""


@router.websocket("/sessions/{session_id}/live")
async def live(websocket: WebSocket, session_id: str) -> None:
    """Every change of the session (``{"type": "state", "session": ...}``, the first sent at
    once) and the thinking agent's search (``{"type": "search", "player", "report"}``).

    A page that reads slowly gets the latest of each kind, not every one (nothing queues up
    behind it); one that does not read for :data:`SEND_SECONDS` is closed. What a page sends is
    read and ignored."""
    store: Sessions = websocket.app.state.sessions
    await websocket.accept()
    try:  # a kept game is read back and replayed: off the event loop
        session = await asyncio.to_thread(store.get, session_id)
        problem = None if session is not None else _unknown(session_id, store.store is not None)
    except PliesError as error:
        session, problem = None, one_line(str(error))
    if session is None:
        await websocket.send_json({"type": "error", "error": problem})
        await websocket.close(code=4404)
        return
    loop = asyncio.get_running_loop()
    latest = Latest()

    def listener(event: dict[str, Any]) -> None:
        loop.call_soon_threadsafe(latest.keep, event)

    session.subscribe(listener)
    closed = asyncio.ensure_future(_until_closed(websocket))
    try:
        first = await asyncio.to_thread(session.snapshot)  # the chess SVG takes a while
        await asyncio.wait_for(
            websocket.send_json({"type": "state", "session": first}), SEND_SECONDS
        )
        while True:
            waiting = asyncio.ensure_future(latest.ready.wait())
            done, _ = await asyncio.wait({closed, waiting}, return_when=asyncio.FIRST_COMPLETED)
            if closed in done:
                waiting.cancel()
                break
            for event in latest.take():
                await asyncio.wait_for(websocket.send_json(event), SEND_SECONDS)
    except (WebSocketDisconnect, OSError, RuntimeError):  # OSError: timeouts too
        pass  # the page went away, or stopped reading
    finally:
        session.unsubscribe(listener)
        closed.cancel()


async def _until_closed(websocket: WebSocket) -> None:
    """Read, and ignore, whatever the page sends (text or binary) until it goes away."""
    try:
        while (await websocket.receive())["type"] != "websocket.disconnect":
            pass
    except (WebSocketDisconnect, RuntimeError):
        pass
