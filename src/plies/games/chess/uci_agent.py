"""The ``uci`` agent: a UCI chess engine (Stockfish, sunfish...) playing as a plies agent, so
that plies can be rated against real engines in the same tables.

``uci:COMMAND[,time=S][,depth=N][,nodes=N][,timeout=S][,NAME=VALUE...]`` (or ``cmd=COMMAND``)

- ``cmd``: the engine's command line, split into words as a shell would (no commas); the
  program is looked for on PATH, then in ``/usr/games`` (where Debian installs engines);
- ``time``, ``depth``, ``nodes``: the limits of each move's ``go`` (together when several are
  given; 0.1 s a move when none is);
- ``timeout``: seconds a move may run past its ``time`` before the engine counts as hung (1 by
  default; with no ``time``, the seconds a move may take in all, 60 by default);
- any other ``NAME=VALUE``: an option the engine declares (``UCI_Elo=1500``, ``Skill
  Level=5`` or ``skill_level=5``; case is ignored), checked against the engine's declarations
  when the agent is built.

The engine starts on the first move and is kept between moves and games (``reset`` makes it
start a new game: ``ucinewgame``). It is told the position, not the game's moves before it,
so it does not see repetitions coming. An engine that crashes, runs past its time and timeout, or
answers with an illegal move or none raises :class:`EngineFailure` and is killed; the next move
starts it afresh. Engines still running are quit by :meth:`UCIAgent.close`, when their agent
is collected, and when Python exits.
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import math
import os
import re
import shlex
import threading
import time
from collections.abc import Coroutine, Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Any, NoReturn, TypeVar

import chess
import chess.engine

from plies.agents.process import COMMAND, QUIT_SECONDS, START_SECONDS
from plies.agents.registry import Agent, AgentKind, Context, Option, register
from plies.errors import EngineFailure, SpecError, UnsupportedGameError
from plies.game import Game, WinLossDrawGame
from plies.games.chess.rules import CENTIPAWN_SCALE
from plies.processes import engine_command
from plies.search import SearchResult, SearchStats
from plies.search.result import MATE
from plies.spec import DEPTH, NODES, SECONDS, NumberRange, Options

T = TypeVar("T")

DEFAULT_TIME = 0.1
"""Seconds a move when the spec gives no limit."""
GRACE = 1.0
"""Seconds a move may run past its ``time`` by default."""
UNTIMED = 60.0
"""Seconds a move limited by depth or nodes alone may take by default."""
OWN_KEYS = ("cmd", "time", "depth", "nodes", "timeout")
"""The spec keys of the agent itself; all others name engine options."""


@dataclass(eq=False)
class _Process:
    """A running engine, started by process ``owner`` (a forked child must not use it)."""

    transport: asyncio.SubprocessTransport
    protocol: chess.engine.UciProtocol
    owner: int = field(default_factory=os.getpid)


class _Host:
    """The event loop that talks to this process's engines, on a daemon thread, and the
    engines running. (python-chess's ``SimpleEngine`` runs each engine on a thread that Python
    waits for before ``atexit``, so one engine left open would hang the exit.)"""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.loop: asyncio.AbstractEventLoop | None = None
        self.running: set[_Process] = set()

    def forget(self) -> None:
        """Drop the parent's loop and engines (in a forked child)."""
        self.lock = threading.Lock()
        self.loop, self.running = None, set()

    def run(self, coroutine: Coroutine[Any, Any, T]) -> T:
        """Run ``coroutine`` on the loop and wait for its result (cancelled if interrupted)."""
        with self.lock:
            if self.loop is None:
                self.loop = asyncio.new_event_loop()
                threading.Thread(
                    target=self.loop.run_forever, name="plies-uci-engines", daemon=True
                ).start()
            loop = self.loop
        future = asyncio.run_coroutine_threadsafe(coroutine, loop)
        try:
            return future.result()
        except BaseException:
            future.cancel()
            raise

    def start(self, argv: tuple[str, ...], settings: chess.engine.ConfigMapping) -> _Process:
        """A new engine, initialised (``uci``) and configured with ``settings``."""
        process = self.run(_open(list(argv), settings))
        with self.lock:
            self.running.add(process)
        return process

    def stop(self, process: _Process, *, kill: bool = False) -> None:
        """Quit ``process`` (``kill``: at once) and wait until it is gone."""
        with self.lock:
            self.running.discard(process)
        self.run(_kill(process) if kill else _quit(process))

    def stop_soon(self, process: _Process) -> None:
        """Quit ``process`` without waiting (it counts as running until it is gone)."""
        if self.loop is not None:
            asyncio.run_coroutine_threadsafe(self._quit_and_forget(process), self.loop)

    async def _quit_and_forget(self, process: _Process) -> None:
        await _quit(process)
        with self.lock:
            self.running.discard(process)

    def stop_all(self) -> None:
        """Quit every engine still running (at exit)."""
        with self.lock:
            running, self.running = self.running, set()
        if running:
            self.run(_quit_all(running))


async def _open(argv: list[str], settings: chess.engine.ConfigMapping) -> _Process:
    """Start an engine, wait for ``uciok`` and configure it; killed if any of it fails."""
    transport, protocol = await chess.engine.UciProtocol.popen(argv)
    process = _Process(transport, protocol)
    try:
        await asyncio.wait_for(protocol.initialize(), START_SECONDS)
        await protocol.configure(settings)
    except BaseException:
        await _kill(process)
        raise
    return process


async def _kill(process: _Process) -> None:
    """Kill the engine and wait until it is reaped."""
    process.transport.close()
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(asyncio.shield(process.protocol.returncode), QUIT_SECONDS)


async def _quit(process: _Process) -> None:
    """Ask the engine to quit; kill it if it does not."""
    with contextlib.suppress(Exception):
        await asyncio.wait_for(process.protocol.quit(), QUIT_SECONDS)
    await _kill(process)


async def _quit_all(processes: set[_Process]) -> None:
    await asyncio.gather(*(_quit(process) for process in processes))


HOST = _Host()
os.register_at_fork(after_in_child=HOST.forget)
atexit.register(HOST.stop_all)


def _reason(error: Exception, seconds: float) -> str:
    """Why an engine failed, from what python-chess raised (``seconds``: its allowance)."""
    if isinstance(error, TimeoutError):
        return f"timed out after {seconds:g} s"
    if isinstance(error, chess.engine.EngineTerminatedError):
        return "crashed"
    parsed = error.__context__  # python-chess's EngineError over push_uci's ValueError
    if isinstance(parsed, ValueError) and (quoted := re.search(r"'(.*?)'", str(parsed))):
        return f"illegal move {quoted[1]}"
    return f"failed: {error}"


def _chess(game: Game[Any, Any]) -> WinLossDrawGame[Any, Any]:
    """``game`` if it is chess, else an :class:`UnsupportedGameError`."""
    if game.name != "chess" or not isinstance(game, WinLossDrawGame):
        raise UnsupportedGameError(f"uci: UCI engines play chess, not {game.name!r}")
    return game


def _score(pov: chess.engine.PovScore | None) -> float | None:
    """The engine's score for the side to move in plies' engine units: a lead inside (-1, 1)
    as chess's evaluation has it, a win ``d`` plies away ``1000 - d``, a loss the opposite."""
    if pov is None:
        return None
    score = pov.relative
    moves = score.mate()
    if moves is None:
        cp = score.score()
        assert cp is not None
        return cp / (abs(cp) + CENTIPAWN_SCALE)
    if moves > 0:
        return MATE - (2 * moves - 1)
    return -(MATE + 2 * moves)


def _report(
    game: WinLossDrawGame[Any, Any], mover: str, played: chess.engine.PlayResult, seconds: float
) -> SearchResult[chess.Move]:
    """The engine's account of its move as a search result (value NaN without a score)."""
    assert played.move is not None
    info = played.info
    score = _score(info.get("score"))
    pv = tuple(info.get("pv", ()))
    if not pv or pv[0] != played.move:
        pv = (played.move,)
    return SearchResult(
        value=math.nan if score is None else game.estimate(max(-1.0, min(1.0, score)), mover),
        action=played.move,
        pv=pv,
        stats=SearchStats(
            nodes=info.get("nodes", 0), max_depth=info.get("seldepth", 0), time=seconds
        ),
        algorithm="uci",
        max_player=mover,
        depth=info.get("depth"),
        score=score,
    )


@dataclass(eq=False)
class UCIAgent:
    """Plays a UCI engine's moves (see the module docstring); ``last`` is the engine's account
    of its search (depth, score, line, nodes)."""

    argv: tuple[str, ...]
    settings: Mapping[str, chess.engine.ConfigValue]
    limit: chess.engine.Limit
    timeout: float
    name: str = "uci"
    last: SearchResult[Any] | None = field(default=None, repr=False)
    _process: _Process | None = field(default=None, init=False, repr=False)
    _game: object = field(default_factory=object, init=False, repr=False)
    clock: tuple[float, float] | None = field(default=None, init=False, repr=False)
    """The remaining time and increment :meth:`set_clock` gave for the next move."""

    def set_clock(self, remaining: float, increment: float) -> None:
        """The next move is played to this clock (``wtime``/``btime``, ``winc``/``binc``: the
        engine budgets it) instead of the spec's time a move."""
        self.clock = (remaining, increment)

    def __call__(self, game: Game[Any, Any], state: Any) -> chess.Move:
        chess_game = _chess(game)
        process = self._engine()
        limit, seconds = self.limit, (self.limit.time or 0.0) + self.timeout
        if self.clock is not None:
            remaining, increment = self.clock
            limit = chess.engine.Limit(
                white_clock=remaining,
                black_clock=remaining,
                white_inc=increment,
                black_inc=increment,
                depth=self.limit.depth,
                nodes=self.limit.nodes,
            )
            seconds = remaining + self.timeout
        began = time.perf_counter()
        try:
            played = HOST.run(
                asyncio.wait_for(
                    process.protocol.play(
                        state.board, limit, game=self._game, info=chess.engine.INFO_ALL
                    ),
                    seconds,
                )
            )
        except (TimeoutError, chess.engine.EngineError) as error:
            self._fail(_reason(error, seconds))
        if not played.move:  # None, or the null move 0000
            self._fail("no move")
        mover = game.to_move(state)
        self.last = _report(chess_game, mover, played, time.perf_counter() - began)
        return played.move

    def _engine(self) -> _Process:
        """The running engine, started if need be."""
        if self._process is not None and self._process.owner != os.getpid():
            self._process = None  # the parent's, in a forked child
        if self._process is None:
            try:
                self._process = HOST.start(self.argv, self.settings)
            except (OSError, TimeoutError, chess.engine.EngineError) as error:
                self._fail(_reason(error, START_SECONDS))
        return self._process

    def _fail(self, reason: str) -> NoReturn:
        """Kill the engine and raise :class:`EngineFailure`."""
        process, self._process = self._process, None
        if process is not None:
            HOST.stop(process, kill=True)
        self.last = None
        raise EngineFailure(self.name, reason)

    def reset(self, seed: int | None = None) -> None:
        """The next move starts a new game (``ucinewgame``); the engine keeps running (its
        randomness, if any, is its own: the seed is not passed on)."""
        self._game, self.last, self.clock = object(), None, None

    def close(self) -> None:
        """Quit the engine (the next move starts it again)."""
        process, self._process = self._process, None
        if process is not None and process.owner == os.getpid():
            HOST.stop(process)

    def __del__(self) -> None:
        process = getattr(self, "_process", None)
        if process is not None and process.owner == os.getpid():
            HOST.stop_soon(process)


@cache
def _declared(argv: tuple[str, ...]) -> Mapping[str, chess.engine.Option]:
    """The options the engine declares, by case-insensitive name (it is started, asked and
    quit once per command); a :class:`SpecError` if it does not answer as a UCI engine."""
    try:
        process = HOST.start(argv, {})
    except (OSError, TimeoutError, chess.engine.EngineError) as error:
        reason = _reason(error, START_SECONDS)
        raise SpecError(f"uci: {shlex.join(argv)!r} is no UCI engine ({reason})") from None
    try:
        return process.protocol.options
    finally:
        HOST.stop(process)


def _setting(
    declared: Mapping[str, chess.engine.Option], key: str, text: str
) -> tuple[str, chess.engine.ConfigValue]:
    """The engine option ``key`` (``_`` standing for a space if need be) set to ``text``: its
    declared name and its value, checked."""
    option = declared.get(key) or declared.get(key.replace("_", " "))
    if option is None:
        names = ", ".join(declared)
        raise SpecError(f"uci: the engine has no option {key!r} (its options: {names})")
    if option.is_managed():
        raise SpecError(f"uci: the engine's {option.name} is set by plies, not by the spec")
    if option.type == "check":
        return option.name, Options("uci", {option.name: text}).flag(option.name, False)
    if option.type == "spin":
        low = -math.inf if option.min is None else option.min
        high = math.inf if option.max is None else option.max
        value = NumberRange(low, high, integer=True).read(f"uci: {option.name}", text)
        return option.name, int(value)
    try:
        return option.name, option.parse(text)
    except chess.engine.EngineError as error:
        raise SpecError(f"uci: {error}") from None


class EngineSettings(Option):
    """The spec's keys the agent does not use itself: the engine's own options."""

    def read(self, options: Options) -> dict[str, str]:
        texts = {key: options.text(key) for key in list(options.values) if key not in OWN_KEYS}
        return {key: text for key, text in texts.items() if text is not None}

    def text(self) -> str:
        return "NAME=VALUE"


def _uci(game: Game[Any, Any], values: Mapping[str, Any], context: Context) -> Agent:
    _chess(game)
    argv = engine_command("uci", values["cmd"], "stockfish")
    declared = _declared(argv)
    settings = dict(_setting(declared, key, text) for key, text in values["NAME"].items())
    seconds, depth, nodes = values["time"], values["depth"], values["nodes"]
    if seconds is None and depth is None and nodes is None:
        seconds = DEFAULT_TIME
    timeout = values["timeout"]
    if timeout is None:
        timeout = UNTIMED if seconds is None else GRACE
    limit = chess.engine.Limit(time=seconds, depth=depth, nodes=nodes)
    return UCIAgent(argv, settings, limit, timeout, context.name)


register(
    AgentKind(
        "uci",
        "a UCI chess engine (Stockfish...), 0.1 s a move by default",
        (
            COMMAND,
            Option("time", "number", "seconds a move", None, SECONDS),
            Option("depth", "int", "the depth to search to", None, DEPTH),
            Option("nodes", "int", "nodes a move", None, NODES),
            Option(
                "timeout",
                "number",
                "seconds past time before a move counts as hung (1; without time: 60 in all)",
                None,
                SECONDS,
            ),
            EngineSettings("NAME", "text", "an option the engine declares (UCI_Elo=1500)"),
        ),
        _uci,
        positional="cmd",
        runs_program=True,
    )
)
