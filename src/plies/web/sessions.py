"""Games in progress on the server: each a :class:`GameSession` that a browser (or several,
or a reloaded page) follows, whose AI players think in threads off the server's event loop.

A session holds the game's record, seats a human or an agent in each player's chair, rolls
the dice of chance games, and lets the agent to move think in a thread of its own, followed
through :class:`~plies.agents.live.Watch` (its search reported live) and stopped on request,
on :meth:`GameSession.undo` or :meth:`GameSession.new_game`, or after :data:`THINK_SECONDS`.
Listeners (the WebSocket connections) receive every change. Nothing here imports FastAPI.
"""

from __future__ import annotations

import math
import random
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from plies.agents import Agent, SearchAgent, make_agent
from plies.agents.live import Watch, Watchable, choose_move
from plies.capabilities import HasEvaluation, HasPositionNotation
from plies.errors import (
    BudgetExhaustedError,
    GameOverError,
    IllegalMoveError,
    PliesError,
    SpecError,
)
from plies.game import CHANCE, Game, define_game, has_chance, sample_outcome
from plies.games import make_game
from plies.play import agent_seed, outcome_text
from plies.search import SearchResult
from plies.search.analysis import estimate_tree_size
from plies.web.boards import board_view, move_paths
from plies.web.reports import search_json, visit_tree_json

HUMAN = "human"
THINK_SECONDS = 60.0
"""The longest an agent thinks on the web: then it is stopped and plays its best move so far
(searches that cannot be stopped are bounded beforehand: :func:`check_affordable`)."""
TEXTBOOK_NODES = 800_000
"""The most positions a textbook search may visit from the start (a few seconds); minimax on
tic-tac-toe visits 549,946."""
TEXTBOOK_SECONDS = 4.0
"""The longest a textbook search may take from the start, when it has to be tried."""
PRUNING = ("alphabeta", "paranoid")
"""The textbook searches that prune: at best they visit about the square root of the tree
(Knuth and Moore's minimal tree), the others all of it."""
REPORTS_PER_SECOND = 10
"""Live search reports sent to the browsers at most this often (the last one always)."""
PACE = 0.4
"""Seconds between two agents' moves, so that people watching can follow."""
MAX_SESSIONS = 512
"""Sessions kept at once; the least recently used beyond that are dropped."""

Listener = Callable[[dict[str, Any]], None]
"""Receives every event of a session (called from any thread: it must only hand it over)."""


def _budgeted(game: Game[Any, Any], positions: int, seconds: float) -> Game[Any, Any]:
    """``game``'s rules (and EVAL) with RESULT counted and timed:
    :class:`BudgetExhaustedError` after ``positions`` calls or ``seconds``."""
    calls = 0
    deadline = time.perf_counter() + seconds

    def result(state: Any, action: Any) -> Any:
        nonlocal calls
        calls += 1
        if calls > positions or (not calls & 1023 and time.perf_counter() > deadline):
            raise BudgetExhaustedError(f"more than {positions:,} positions or {seconds:g} s")
        return game.result(state, action)

    return define_game(
        name=game.name,
        players=game.players,
        initial_state=game.initial_state,
        to_move=game.to_move,
        actions=game.actions,
        result=result,
        is_terminal=game.is_terminal,
        utility=game.utility,
        evaluate=game.evaluate if isinstance(game, HasEvaluation) else None,
    )


@lru_cache(maxsize=256)
def _affordable(game_spec: str, spec: str, position: str | None) -> str | None:
    """None when ``spec``, if a textbook search, visits at most :data:`TEXTBOOK_NODES` from
    the session's start, else why not. The game tree's size (to the search's depth) is
    estimated; a pruning search whose tree is too big to be sure of is tried under that budget
    (cached: the probe is the search itself)."""
    game = make_game(game_spec)
    agent = make_agent(spec, game)
    if not isinstance(agent, SearchAgent):
        return None
    state = _start(game, position)
    horizon = "to the end of the game" if agent.depth is None else f"to depth {agent.depth}"
    advice = (
        f"give it a depth ({agent.algorithm}:depth=3)"
        if agent.depth is None
        else "give it a smaller depth"
    )
    too_slow = (
        f"{spec!r} is too slow to play here: its search {horizon} in {game.name} takes more "
        f"than {TEXTBOOK_NODES:,} positions or {TEXTBOOK_SECONDS:g} s, and it cannot be "
        f"stopped once started; {advice}, or use engine:time=1 or mcts:time=1"
    )
    size = estimate_tree_size(game, state, agent.depth)
    least = math.sqrt(size) if agent.algorithm in PRUNING else size
    if least > TEXTBOOK_NODES:
        return too_slow
    if size <= TEXTBOOK_NODES or has_chance(game):
        return None
    try:  # it may prune enough: try it
        agent(_budgeted(game, TEXTBOOK_NODES, TEXTBOOK_SECONDS), state)
    except BudgetExhaustedError:
        return too_slow
    except RecursionError:
        return f"{spec!r}: {game.name} is too deep for a search to the end; give it a depth"
    return None


def check_affordable(game_spec: str, spec: str, position: str | None = None) -> None:
    """:class:`SpecError` when ``spec`` is a textbook search that would take too long for the
    web (it cannot be stopped once started)."""
    problem = _affordable(game_spec, spec, position)
    if problem is not None:
        raise SpecError(problem)


def _start(game: Game[Any, Any], position: str | None) -> Any:
    """The initial state, or ``position`` in the game's notation."""
    if position is None or not position.strip():
        return game.initial_state()
    if not isinstance(game, HasPositionNotation):
        raise SpecError(f"{game.name} has no position notation: start from the beginning")
    state = game.parse_position(position)
    if game.is_terminal(state):
        raise GameOverError("the game is already over in that position")
    return state


@dataclass
class Turn:
    """A move of the game: who played it, in what notation, how long it took, and the search
    behind it as JSON (with the tree of an MCTS search, when it kept one)."""

    player: str
    state: Any
    action: Any
    notation: str
    seconds: float
    search: dict[str, Any] | None = None
    tree: list[dict[str, Any]] | None = None
    lines: list[dict[str, Any]] = field(default_factory=list)
    """The engine's best line after each iteration (depth, score, pv)."""


@dataclass
class Thinking:
    """An agent choosing a move in its thread."""

    player: str
    spec: str
    watch: Watch
    began: float
    stoppable: bool
    report: dict[str, Any] | None = None
    lines: list[dict[str, Any]] = field(default_factory=list)
    last_sent: float = 0.0


class GameSession:
    """One game in progress (see the module docstring); every method is thread-safe."""

    def __init__(
        self,
        session_id: str,
        game_spec: str,
        players: Mapping[str, str],
        position: str | None = None,
        seed: int | None = None,
    ) -> None:
        self.id = session_id
        self.game_spec = game_spec.strip()
        self.game = make_game(self.game_spec)
        self.position = position
        self.start = _start(self.game, position)
        unknown = sorted(set(players) - set(self.game.players))
        if unknown:
            raise SpecError(
                f"{self.game.name} has no player {unknown[0]!r} "
                f"(players: {', '.join(self.game.players)})"
            )
        self.specs = {
            p: (players.get(p) or self.game.default_opponent).strip() for p in self.game.players
        }
        self.seed = secrets.randbits(32) if seed is None else seed
        self.pace = PACE
        self.agents = self._seat()
        self.lock = threading.RLock()
        self.listeners: list[Listener] = []
        self.turns: list[Turn] = []
        self.state = self.start
        self.version = 0
        self.games_played = 0
        self.thinking: Thinking | None = None
        self.error: str | None = None
        self.chance = random.Random(self.seed)
        self.touched = time.monotonic()

    def _seat(self) -> dict[str, Agent | None]:
        """An agent for every seat that is not a human's, its spec checked now."""
        agents: dict[str, Agent | None] = {}
        for index, player in enumerate(self.game.players):
            spec = self.specs[player]
            if spec == HUMAN:
                agents[player] = None
                continue
            check_affordable(self.game_spec, spec, self.position)
            agents[player] = make_agent(spec, self.game, seed=agent_seed(self.seed, 0, str(index)))
        return agents

    # What the browsers see --------------------------------------------------------------------

    def snapshot(self) -> dict[str, Any]:
        """The whole session as JSON: the board, the legal moves when a human is to move, the
        move list, who is thinking and what its search says so far."""
        with self.lock:
            game, state = self.game, self.state
            finished = game.is_terminal(state)
            to_move = None if finished else game.to_move(state)
            human_to_move = to_move is not None and self.agents.get(to_move, 1) is None
            thinking = self.thinking
            return {
                "id": self.id,
                "game": self.game_spec,
                "game_name": game.name,
                "players": [
                    {"player": p, "spec": self.specs[p], "human": self.agents[p] is None}
                    for p in game.players
                ],
                "position": (
                    game.format_position(state) if isinstance(game, HasPositionNotation) else None
                ),
                "board": board_view(game, state, last=self._last_action()),
                "text": game.display(state),
                "to_move": to_move,
                "legal": move_paths(game, state) if human_to_move and thinking is None else [],
                "finished": finished,
                "result": outcome_text(game, state) if finished else None,
                "moves": [self._turn_json(ply, turn) for ply, turn in enumerate(self.turns)],
                "can_undo": self._undo_target() is not None,
                "thinking": None
                if thinking is None
                else {
                    "player": thinking.player,
                    "spec": thinking.spec,
                    "stoppable": thinking.stoppable,
                    "seconds": time.perf_counter() - thinking.began,
                    "report": thinking.report,
                    "lines": thinking.lines,
                },
                "error": self.error,
                "version": self.version,
            }

    @staticmethod
    def _turn_json(ply: int, turn: Turn) -> dict[str, Any]:
        return {
            "ply": ply,
            "player": turn.player,
            "notation": turn.notation,
            "seconds": round(turn.seconds, 3),
            "search": turn.search,
            "lines": turn.lines,
            "has_tree": bool(turn.tree),
        }

    def turn_tree(self, ply: int) -> dict[str, Any]:
        """The search behind move ``ply``: MCTS's first levels (visits, values), the engine's
        line at each depth, or the search's summary alone."""
        with self.lock:
            if not 0 <= ply < len(self.turns):
                raise SpecError(f"there is no move {ply} in this game ({len(self.turns)} so far)")
            turn = self.turns[ply]
            return {
                "ply": ply,
                "player": turn.player,
                "notation": turn.notation,
                "search": turn.search,
                "tree": turn.tree,
                "lines": turn.lines,
            }

    def subscribe(self, listener: Listener) -> None:
        with self.lock:
            self.listeners.append(listener)

    def unsubscribe(self, listener: Listener) -> None:
        with self.lock:
            if listener in self.listeners:
                self.listeners.remove(listener)

    def _publish(self, event: dict[str, Any]) -> None:
        for listener in list(self.listeners):
            listener(event)

    def _changed(self) -> None:
        """A new version: every listener gets the whole session."""
        self.version += 1
        self._publish({"type": "state", "session": self.snapshot()})

    # What people do -----------------------------------------------------------------------------

    def play(self, notation: str) -> None:
        """A human's move, in the game's notation (checked: it must be a human's turn)."""
        with self.lock:
            self.touched = time.monotonic()
            game, state = self.game, self.state
            if game.is_terminal(state):
                raise GameOverError(f"the game is over: {outcome_text(game, state)}")
            player = game.to_move(state)
            if self.agents.get(player) is not None or self.thinking is not None:
                raise IllegalMoveError(
                    f"it is not your move: {player} ({self.specs[player]}) plays"
                )
            action = game.parse_action(state, notation)
            self._apply(player, action, 0.0, None)
            self._advance()

    def undo(self) -> None:
        """Take back moves to the last position where a human was to move before their last
        move (stopping an agent that is thinking)."""
        with self.lock:
            self.touched = time.monotonic()
            target = self._undo_target()
            if target is None:
                raise SpecError("nothing to undo: no human move has been played")
            self._cancel_thinking()
            self.state = self.turns[target].state
            del self.turns[target:]
            self.error = None
            self._changed()
            self._advance()

    def new_game(self) -> None:
        """Start again from the session's start (agents forget what they kept)."""
        with self.lock:
            self.touched = time.monotonic()
            self._cancel_thinking()
            self.turns.clear()
            self.state = self.start
            self.error = None
            self.games_played += 1
            for agent in self.agents.values():
                if agent is not None:
                    agent.reset()
            self._changed()
            self._advance()

    def stop(self) -> None:
        """Ask the agent that is thinking to play its best move so far."""
        with self.lock:
            self.touched = time.monotonic()
            thinking = self.thinking
            if thinking is None:
                raise SpecError("no agent is thinking")
            if not thinking.stoppable:
                raise SpecError(f"{thinking.spec} cannot be stopped: its search runs to its end")
            thinking.watch.stop.set()

    def close(self) -> None:
        """Stop any thinking for good (the session is dropped)."""
        with self.lock:
            self._cancel_thinking()

    def start_play(self) -> None:
        """Let the agents move if it is their turn (after creation)."""
        with self.lock:
            self._advance()

    # Inside ---------------------------------------------------------------------------------------

    def _undo_target(self) -> int | None:
        """The number of moves to keep on undo: the last human move is taken back, with the
        moves after it; None when no human has moved."""
        for ply in range(len(self.turns) - 1, -1, -1):
            if self.agents.get(self.turns[ply].player, 1) is None:
                return ply
        return None

    def _cancel_thinking(self) -> None:
        """Stop the thinking agent and forget its move when it comes."""
        if self.thinking is not None:
            self.thinking.watch.stop.set()
            self.thinking = None

    def _apply(
        self, player: str, action: Any, seconds: float, thinking: Thinking | None, **search: Any
    ) -> None:
        notation = self.game.format_action(self.state, action)
        turn = Turn(player, self.state, action, notation, seconds, **search)
        if thinking is not None:
            turn.lines = thinking.lines
        self.turns.append(turn)
        self.state = self.game.result(self.state, action)
        self._changed()

    def _advance(self) -> None:
        """Roll the dice while nature is to move; start the agent to move thinking."""
        game = self.game
        while not game.is_terminal(self.state) and game.to_move(self.state) == CHANCE:
            self._apply(CHANCE, sample_outcome(game, self.state, self.chance), 0.0, None)
        if game.is_terminal(self.state) or self.thinking is not None or self.error is not None:
            return
        player = game.to_move(self.state)
        agent = self.agents[player]
        if agent is None:
            return
        thinking = Thinking(
            player, self.specs[player], Watch(), time.perf_counter(), isinstance(agent, Watchable)
        )
        thinking.watch = Watch(report=lambda result: self._on_report(thinking, result))
        self.thinking = thinking
        threading.Thread(
            target=self._think,
            args=(agent, self.state, thinking, self.pace if self._agent_moved_last() else 0.0),
            name=f"plies-web-{self.id}",
            daemon=True,
        ).start()
        self._changed()

    def _last_action(self) -> Any:
        """The last move that was not nature's (a dice roll does not change the board)."""
        moves = [turn.action for turn in self.turns if turn.player != CHANCE]
        return moves[-1] if moves else None

    def _agent_moved_last(self) -> bool:
        """Whether the last move that was not nature's was an agent's."""
        players = [turn.player for turn in self.turns if turn.player != CHANCE]
        return bool(players) and self.agents[players[-1]] is not None

    def _think(self, agent: Agent, state: Any, thinking: Thinking, delay: float) -> None:
        """The agent's move, in this thread; applied only if nothing changed meanwhile."""
        if delay and thinking.watch.stop.wait(delay):
            return
        timer = threading.Timer(THINK_SECONDS, thinking.watch.stop.set)
        timer.daemon = True
        timer.start()
        try:
            action = choose_move(agent, self.game, state, thinking.watch)
            failure = None
        except (PliesError, RecursionError, ValueError) as error:
            action, failure = None, str(error) or type(error).__name__
        finally:
            timer.cancel()
        with self.lock:
            if self.thinking is not thinking:
                return  # undone, restarted or dropped while it thought
            self.thinking = None
            if failure is not None:
                self.error = f"{thinking.spec} ({thinking.player}) could not move: {failure}"
                self._changed()
                return
            seconds = time.perf_counter() - thinking.began
            result = agent.last
            search = None if result is None else search_json(self.game, state, result, agent)
            tree = None
            if result is not None and result.tree:
                tree = visit_tree_json(self.game, state, result.tree)
            self._apply(thinking.player, action, seconds, thinking, search=search, tree=tree)
            self._advance()

    def _on_report(self, thinking: Thinking, result: SearchResult[Any]) -> None:
        """A report of the thinking agent's search: kept, and sent on when it is time."""
        with self.lock:
            if self.thinking is not thinking:
                return
            report = search_json(self.game, self.state, result, self.agents[thinking.player])
            thinking.report = report
            if result.algorithm == "engine" and result.complete:
                thinking.lines.append(
                    {k: report[k] for k in ("depth", "score", "score_text", "pv", "nodes")}
                )
            now = time.perf_counter()
            if now - thinking.last_sent < 1 / REPORTS_PER_SECOND:
                return
            thinking.last_sent = now
            self._publish({"type": "search", "player": thinking.player, "report": report})


class Sessions:
    """Every session of the app, by id; the least recently used are dropped beyond
    :data:`MAX_SESSIONS`."""

    def __init__(self, limit: int = MAX_SESSIONS) -> None:
        self.limit = limit
        self.lock = threading.Lock()
        self.sessions: OrderedDict[str, GameSession] = OrderedDict()

    def create(
        self,
        game_spec: str,
        players: Mapping[str, str],
        position: str | None = None,
        seed: int | None = None,
    ) -> GameSession:
        """A new session, its agents seated (specs checked) and started if they move first."""
        session = GameSession(secrets.token_urlsafe(9), game_spec, players, position, seed)
        with self.lock:
            self.sessions[session.id] = session
            while len(self.sessions) > self.limit:
                _, dropped = self.sessions.popitem(last=False)
                dropped.close()
        session.start_play()
        return session

    def get(self, session_id: str) -> GameSession | None:
        with self.lock:
            session = self.sessions.get(session_id)
            if session is not None:
                self.sessions.move_to_end(session_id)
            return session
