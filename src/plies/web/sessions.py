"""Games in progress on the server: each a :class:`GameSession` that a browser (or several,
or a reloaded page) follows, whose AI players think in threads off the server's event loop.

A session holds the game's record, seats a human or an agent in each player's chair, rolls
the dice of chance games, and lets the agent to move think in a thread of its own, followed
through :class:`~plies.agents.live.Watch` (its search reported live) and stopped on request,
on :meth:`GameSession.undo` or :meth:`GameSession.new_game`, or after the server's
:attr:`~plies.web.workload.Budgets.think_seconds`. Listeners (the WebSocket connections)
receive every change. Nothing here imports FastAPI.

What a server's sessions cost is bounded (:mod:`plies.web.workload`):

- Agents think one move at a time in at most :attr:`~plies.web.workload.Budgets.thinkers`
  threads, taking turns; a game moves on only while someone watches it (a live page, or a
  request in the last :attr:`~plies.web.workload.Budgets.watch_seconds`), and resumes when
  someone looks again.
- Agents keep nothing between moves (tables and trees are dropped once a move is played); the
  perfect solvers and the networks are the server's, shared
  (:class:`~plies.agents.shared.SharedMemory`).
- Sessions nobody looks at for :attr:`~plies.web.workload.Budgets.idle_minutes` are dropped
  from memory; a server that keeps its games (:mod:`plies.web.store`) reads one back, its
  moves replayed, when it is asked for again.

Each game belongs to the browser that started it: it alone holds the token (its hash is kept)
that lets it move, undo, stop the agent or start again; everyone else given the game's id
(unguessable) watches.

In a game of imperfect information (:class:`~plies.capabilities.HasInformationSets`) where a
person plays, every browser (the owner's and the watchers') is shown what the person's seat
sees (:func:`plies.play.seat_view`; with two people at one screen, the seat of the one to
move): the board and the moves it can tell apart, as it sees them, and a new state only when
what it sees changes (neither counts the other's moves it does not see); nothing of the
agents' searches, no record to download, no review, hint, draw offer, undo or clock (each
would show or search the hidden part). A game of agents alone is shown whole.
"""

from __future__ import annotations

import gc
import hashlib
import hmac
import json
import random
import secrets
import threading
import time
import weakref
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from plies.agents import Agent, agent_kind
from plies.agents.live import Watch
from plies.agents.shared import SharedMemory
from plies.capabilities import HasDraws
from plies.errors import (
    BusyError,
    GameOverError,
    IllegalMoveError,
    PliesError,
    SpecError,
    UnsupportedGameError,
)
from plies.game import CHANCE, sample_outcome
from plies.game_texts import game_text
from plies.play import RESIGNS, GameRecord, Loss, SeatView, seat_view
from plies.registry import is_module_path, make_game
from plies.review import answer_draw_offer
from plies.search import SearchResult
from plies.spec import parse_spec, spec_name
from plies.web.clocks import GameClocks, web_time_control
from plies.web.reviews import ReviewJob, hint_for, judged_now
from plies.web.seating import seat_players, start_state
from plies.web.session_json import (
    board_after,
    position_json,
    thinking_json,
    turn_search_json,
    unseen_thinking_json,
)
from plies.web.store import GameStore, Keeper, KeptGame, Standing
from plies.web.thinking import Thinking, TurnNotes, think
from plies.web.workload import Budgets, NewGameLimit, Workload, give_memory_back

GAME_SPEC = (
    "a game spec: a game's name as /api/games lists it, its options after a colon "
    "(name:key=value,...)"
)
"""What a request's game spec is, as the routes' fields describe it."""
PACE = 0.4
"""Seconds between two agents' moves, so that people watching can follow."""
SWEEP_SECONDS = 10.0
"""How often the idle sessions are looked for (at most; more often with a short idle time)."""
ID_BYTES = 16
"""Random bytes of a game's id (128 bits: ids cannot be guessed)."""
TOKEN_BYTES = 24
"""Random bytes of the token that lets the browser that started a game play in it."""
FLAG_GRACE = 0.05
"""Seconds past a clock's end before its flag is called (the timer may fire a little early)."""

Listener = Callable[[dict[str, Any]], None]
"""Receives every event of a session (called from any thread: it must only hand it over)."""


@dataclass(frozen=True)
class Settings:
    """A game's settings beyond its seats: its time control (``BASE+INC`` in seconds, as
    :func:`plies.web.clocks.web_time_control` reads it; None: untimed) and whether its person
    may ask for hints."""

    clock: str | None = None
    hints: bool = False

    def __post_init__(self) -> None:
        web_time_control(self.clock)  # a SpecError naming a bad one, before any game

    def to_json(self) -> dict[str, Any]:
        return {"clock": self.clock, "hints": self.hints}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Settings:
        """Settings as :meth:`to_json` wrote them (a kept game's)."""
        clock, hints = data.get("clock"), data.get("hints", False)
        if not (clock is None or isinstance(clock, str)) or not isinstance(hints, bool):
            raise SpecError("the game's settings are damaged")
        return cls(clock, hints)


class GameSession:
    """One game in progress (see the module docstring); every method is thread-safe."""

    def __init__(
        self,
        session_id: str,
        game_spec: str,
        players: Mapping[str, str],
        position: str | None = None,
        seed: int | None = None,
        budgets: Budgets | None = None,
        workload: Workload | None = None,
        shared: SharedMemory | None = None,
        moves: Sequence[str] = (),
        settings: Settings | None = None,
    ) -> None:
        self.id = session_id
        self.settings = settings or Settings()
        self.budgets = budgets or Budgets()
        self.workload = workload or Workload(self.budgets.thinkers, self.budgets.think_seconds)
        self.shared = shared
        self.game_spec = game_spec.strip()
        self.game = make_game(self.game_spec)
        self.position = position
        self.start = start_state(self.game, position)
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
        self.agents = seat_players(
            self.game,
            self.game_spec,
            self.specs,
            self.start,
            self.position,
            self.seed,
            self.budgets,
            self.shared,
        )
        self.lock = threading.RLock()
        self.listeners: list[Listener] = []
        self.record = GameRecord(self.game, self.start, self.start)
        """The game so far, played move by move with :meth:`GameRecord.play` (the step of
        :func:`~plies.play.play_game`)."""
        self.notes: list[TurnNotes] = []
        """What the browsers are shown of each of the record's turns."""
        self.version = time.time_ns() // 1000
        """Grows by one with every change; it starts at the time the session is made, in
        microseconds, so that a game reopened after a restart of the server is at a later
        version than any its pages were shown before."""
        self.thinking: Thinking | None = None
        self.agents_busy = threading.Lock()
        """Held by the thread whose agent thinks: an agent thinks in one thread at a time
        (one told to stop may not have returned yet when the next move starts)."""
        self.forget_pending = False
        """The agents must forget what they kept (a new game) before they next move."""
        self.error: str | None = None
        self.chance = random.Random(self.seed)
        self.touched = time.monotonic()
        """When someone last looked at or acted on the session (:class:`Sessions` sets it)."""
        self.paused = False
        """An agent is to move but nobody watches: it starts when someone looks again."""
        self._drawn: tuple[int, dict[str, Any]] | None = None
        """The version last drawn and what :meth:`snapshot` shows of it that does not change."""
        self._seen = (self.version, "")
        """The version a seat that does not see everything is shown, and what it saw then:
        it grows only when what it sees changes (it counts no move the seat does not see)."""
        self.owner = ""
        """The hash of the token that lets its browser act in the game (:meth:`owned_by`)."""
        self.keeper: Keeper | None = None
        """Writes the game to the server's store, if it keeps its games (:meth:`keep_in`)."""
        self.clocks = self._new_clocks()
        self.flag_timer: threading.Timer | None = None
        self.review = ReviewJob(self.game, self.workload, self._publish)
        self._replay(moves)

    def _replay(self, moves: Sequence[str], seconds: Sequence[float] = ()) -> None:
        """Play ``moves`` (a record's, in the game's notation, chance's included, each taking
        ``seconds``, 0 where none are given) from the start, as if they had been played here;
        a :class:`SpecError` naming the first that cannot be."""
        times = [*seconds, *[0.0] * (len(moves) - len(seconds))]
        for number, (notation, took) in enumerate(zip(moves, times, strict=True), 1):
            state = self.record.state
            if self.record.finished:
                raise SpecError(f"record: the game is over before move {number}")
            try:
                action = self.game.parse_action(state, notation)
            except PliesError as error:
                raise SpecError(f"record: move {number} ({notation[:20]!r}): {error}") from None
            self.record.play(self.game.to_move(state), action, took, None)
            self.notes.append(TurnNotes())

    # Whose game, and where it is kept ---------------------------------------------------------

    def owned_by(self, token: str | None) -> bool:
        """Whether ``token`` is the one given to the browser that started the game."""
        return token is not None and hmac.compare_digest(token_hash(token), self.owner)

    def keep_in(self, store: GameStore) -> None:
        """Keep the game in ``store`` from now on, its moves so far written now (a failure
        is shown, and tried again at the next change)."""
        with self.lock:
            kept = KeptGame(
                self.id,
                self.owner,
                self.game_spec,
                dict(self.specs),
                self.position,
                self.seed,
                self.settings.to_json(),
            )
            self.keeper = Keeper(store, kept, added=False)
            self._keep()

    def reopen(self, kept: KeptGame, store: GameStore) -> None:
        """Go on with ``kept`` (this session made from its game, seats, start and seed): its
        moves replayed, its loss if it had one, written to ``store`` as it goes on."""
        with self.lock:
            self._replay([m.move for m in kept.moves], [m.seconds for m in kept.moves])
            kept.standing.end(self.record)
            if self.clocks is not None and kept.standing.clock is not None:
                saved = json.loads(kept.standing.clock)
                self.clocks = GameClocks.restored(saved, self.game.players)
                self.clocks.running = None  # its turn's clock starts again now
            self.owner = kept.owner
            self.keeper = Keeper(store, kept, added=True)

    def all_kept(self) -> bool:
        """Whether the whole game is in the server's store, written now if it was not (True
        when the server keeps no games: then nothing more can be done)."""
        with self.lock:
            return self._keep()

    def _keep(self) -> bool:
        """Write the game's changes to the store (:class:`~plies.web.store.Keeper`)."""
        return self.keeper is None or self.keeper.write(self.record.turns, self._standing())

    def _standing(self) -> Standing:
        clock = None if self.clocks is None else json.dumps(self.clocks.saved())
        return Standing.of(self.record, clock)

    def _moves_changed(self, ply: int) -> None:
        """The moves from ``ply`` on were played or taken back (or the game's end changed)."""
        if self.keeper is not None:
            self.keeper.changed(ply)

    # What the browsers see --------------------------------------------------------------------

    def snapshot(self) -> dict[str, Any]:
        """The whole session as JSON: the board, the legal moves when a human is to move, the
        move list, who is thinking and what its search says so far. What changes only with
        the version (the board, the moves) is made once a version."""
        with self.lock:
            view = self._view()
            if self._drawn is None or self._drawn[0] != self.version:
                position = position_json(
                    self.id,
                    self.game_spec,
                    self.record,
                    self.notes,
                    self.specs,
                    self._people(),
                    person_may_move=self.thinking is None,
                    can_undo=self._undo_target() is not None and not view.hides,
                    view=view,
                )
                self._drawn = (self.version, position)
            return {
                **self._drawn[1],
                "thinking": self._thinking_json(view),
                "error": self.error,
                "paused": self.paused,
                "clock": None if self.clocks is None else self.clocks.to_json(),
                "settings": self.settings.to_json(),
                "review": self.review.to_json(),
                "version": self._seen[0] if view.hides else self.version,
                "kept": self.keeper is not None and self.keeper.first is None,
                "keep_error": None if self.keeper is None else self.keeper.error,
            }

    def board_at(self, ply: int | None, flipped: bool) -> dict[str, Any]:
        """The board after ``ply`` moves (None: now), turned round if ``flipped``."""
        with self.lock:
            return board_after(self.record, ply, flipped, self._view())

    def record_text(self, kind: str) -> str:
        """The game so far as the text ``kind`` (:func:`plies.game_texts.game_text`), each
        player named by its spec (``human`` for a person); refused where a seat's view hides
        part of the game (the record holds all of it)."""
        with self.lock:
            self._refuse_hidden("no record of this game is given", "its record holds all of it")
            return game_text(self.record, kind, self.specs, f"plies serve ({self.game_spec})")

    def turn_tree(self, ply: int) -> dict[str, Any]:
        """The search behind move ``ply`` (:func:`~plies.web.session_json.turn_search_json`)."""
        with self.lock:
            self._refuse_hidden("no search is shown", "a search names what its own player sees")
            return turn_search_json(self.record, self.notes, ply)

    def _people(self) -> list[str]:
        """The seats a person takes."""
        return [p for p in self.game.players if self.agents[p] is None]

    def _view(self) -> SeatView:
        """The seat whose view every browser is shown (:func:`plies.play.seat_view`)."""
        return seat_view(self.game, self._people(), self.record)

    def _refuse_hidden(self, refused: str, why: str) -> None:
        """An :class:`UnsupportedGameError` saying ``refused`` and ``why``, where the view
        shown hides part of the game."""
        if self._view().hides:
            raise UnsupportedGameError(
                f"{refused}: in '{self.game.name}' each player sees only part of the game, "
                f"and {why}"
            )

    def subscribe(self, listener: Listener) -> None:
        """Send every change to ``listener`` (someone watches: a paused game moves on)."""
        with self.lock:
            self.listeners.append(listener)
            self.resume()

    def unsubscribe(self, listener: Listener) -> None:
        with self.lock:
            if listener in self.listeners:
                self.listeners.remove(listener)

    def _publish(self, event: dict[str, Any]) -> None:
        for listener in list(self.listeners):
            listener(event)

    def _thinking_json(self, view: SeatView) -> dict[str, Any] | None:
        """The thinking agent (:func:`~plies.web.session_json.thinking_json`); where the seat
        shown does not see everything, the agent to move (while nothing stops it), as
        :func:`~plies.web.session_json.unseen_thinking_json` shows it."""
        if not view.hides:
            return thinking_json(self.thinking)
        if self.record.finished or self.error is not None or self.paused:
            return None
        mover = self.game.to_move(self.record.state)
        if self.agents.get(mover) is None:
            return None
        return unseen_thinking_json(mover, self.specs[mover])

    def _changed(self) -> None:
        """A new version, written to the store: every listener gets the whole session (where
        the seat shown does not see everything, only when what it sees changed)."""
        self._keep()
        self.version += 1
        if self._view().hides and not self._seen_changed():
            return  # a move it does not see, as a try that bumped into a hidden mark
        if self.listeners:  # the snapshot (a chess board's picture) is made only for someone
            self._publish({"type": "state", "session": self.snapshot()})

    def _seen_changed(self) -> bool:
        """Whether what the seat shown sees changed since it was last seen; if so its version
        (:attr:`_seen`) grows by one."""
        seen = self.snapshot()
        del seen["version"]
        drawn = json.dumps(seen, sort_keys=True)
        if drawn == self._seen[1]:
            return False
        self._seen = (self._seen[0] + 1, drawn)
        return True

    # What people do -----------------------------------------------------------------------------

    def play(self, notation: str) -> None:
        """A human's move, in the game's notation (checked: it must be a human's turn)."""
        with self.lock:
            game, state = self.game, self.record.state
            if self.record.finished:
                raise GameOverError(f"the game is over: {self.record.outcome()}")
            player = game.to_move(state)
            if self.agents.get(player) is not None or self.thinking is not None:
                raise IllegalMoveError(
                    f"it is not your move: {player} ({self.specs[player]}) plays"
                )
            action = game.parse_action(state, notation)
            if self._clock_stopped(player):
                raise GameOverError(f"the game is over: {self.record.outcome()}")
            self._apply(player, action, 0.0, None)
            self._advance()

    def undo(self) -> None:
        """Take back moves to the last position where a human was to move before their last
        move (stopping an agent that is thinking)."""
        with self.lock:
            if self.clocks is not None:
                raise SpecError("a game on the clock has no undo: start an untimed game for that")
            self._refuse_hidden("no undo", "a move taken back could be played again knowing more")
            target = self._undo_target()
            if target is None:
                raise SpecError("nothing to undo: no human move has been played")
            self._cancel_thinking()
            self.record.take_back(target)
            self._moves_changed(target)
            del self.notes[target:]
            self.error = None
            self._changed()
            self._advance()

    def new_game(self) -> None:
        """Start again from the session's start (agents forget what they kept)."""
        with self.lock:
            self._cancel_thinking()
            self.record = GameRecord(self.game, self.start, self.start)
            self._moves_changed(0)
            self._cancel_flag()
            self.clocks = self._new_clocks()
            self.review = ReviewJob(self.game, self.workload, self._publish)
            self.notes = []
            self.error = None
            self.forget_pending = True
            self._changed()
            self._advance()

    def stop(self) -> None:
        """Ask the agent that is thinking to play its best move so far now (a textbook search,
        which has none before it ends, gives up: the session says so, and Undo or New game
        go on from there)."""
        with self.lock:
            if self.thinking is None:
                raise SpecError("no agent is thinking")
            self.workload.interrupt(self.thinking.watch.stop)

    def close(self) -> None:
        """Stop any thinking for good (the session is dropped)."""
        with self.lock:
            self._cancel_thinking()
            self._cancel_flag()
            self.review.stop()

    def resign(self) -> None:
        """The person resigns: the only person seated, or the one to move when two play."""
        with self.lock:
            if self.record.finished:
                raise GameOverError(f"the game is over: {self.record.outcome()}")
            people = self._people()
            to_move = self.game.to_move(self.record.state)
            player = people[0] if len(people) == 1 else to_move if to_move in people else None
            if player is None:
                raise SpecError("no person plays in this game: nobody can resign")
            self._cancel_thinking()
            self._cancel_flag()
            self.record.loss = Loss(player, RESIGNS)
            self._moves_changed(len(self.record.turns))
            self._changed()

    def offer_draw(self) -> dict[str, Any]:
        """The person offers a draw: the agent seated against it answers by the game's
        strongest analyser (:func:`plies.review.answer_draw_offer`), on the person's turn,
        and the game ends drawn if it accepts; two people at one browser agree at once. The
        answer as JSON."""
        with self.lock:
            if self.record.finished:
                raise GameOverError(f"the game is over: {self.record.outcome()}")
            if not (isinstance(self.game, HasDraws) and self.game.can_draw()):
                raise SpecError(f"{self.game_spec} cannot end drawn: there is no draw to offer")
            if all(self.agents[p] is not None for p in self.game.players):
                raise SpecError("no person plays in this game: nobody can offer a draw")
            if self.thinking is not None:
                raise SpecError("offer a draw on your own turn: the agent is thinking")
            self._refuse_hidden("no draw offers", "the answer would search all of it")
            seated = [p for p in self.game.players if self.agents[p] is not None]
            state, played = self.record.state, len(self.record.turns)
            if not seated:
                self._agree_draw()
                return {"accepted": True, "text": "both players agree"}
        answer = answer_draw_offer(
            self.game,
            state,
            seated[0],
            judged_now(self.game, state, self.workload, self.shared, self.budgets)[1],
        )
        with self.lock:
            if self.record.finished or len(self.record.turns) != played:
                return {"accepted": False, "text": "the game went on meanwhile: offer again"}
            if answer.accepted:
                self._agree_draw()
            return {"accepted": answer.accepted, "text": answer.text}

    def hint(self) -> dict[str, Any]:
        """The best move for the person to move, by the game's strongest analyser within the
        server's think budget (when the game was started with hints)."""
        with self.lock:
            if not self.settings.hints:
                raise SpecError("hints are off in this game: start one with hints to have them")
            if self.record.finished:
                raise GameOverError(f"the game is over: {self.record.outcome()}")
            state = self.record.state
            if self.agents.get(self.game.to_move(state), 1) is not None:
                raise SpecError("a hint is for a person to move")
            self._refuse_hidden("no hints", "a hint would search all of it")
        return hint_for(self.game, state, self.workload, self.shared, self.budgets)

    def start_review(self) -> None:
        """Review the finished game in the server's thinking queue (once a game)."""
        with self.lock:
            if not self.record.finished:
                raise SpecError("a review is for a finished game: finish or resign it first")
            self._refuse_hidden("no review", "a review would search all of it")
            actions = [turn.action for turn in self.record.turns]
            self.review.start(self.start, actions, self.shared, self.budgets)

    def start_play(self) -> None:
        """Let the agents move if it is their turn (after creation)."""
        with self.lock:
            self._advance()

    def watched(self, now: float | None = None) -> bool:
        """Whether someone follows the game: a live page, or a request in the last
        :attr:`~plies.web.workload.Budgets.watch_seconds`."""
        now = time.monotonic() if now is None else now
        return bool(self.listeners) or now - self.touched < self.budgets.watch_seconds

    def resume(self) -> None:
        """Someone looks again: a game paused for want of watchers moves on."""
        with self.lock:
            if self.paused:
                self.paused = False
                self._changed()
                self._advance()

    # Inside ---------------------------------------------------------------------------------------

    def _undo_target(self) -> int | None:
        """The number of moves to keep on undo: the last human move is taken back, with the
        moves after it; None when no human has moved."""
        for ply in range(len(self.record.turns) - 1, -1, -1):
            if self.agents.get(self.record.turns[ply].player, 1) is None:
                return ply
        return None

    def _cancel_thinking(self) -> None:
        """Stop the thinking agent and forget its move when it comes."""
        if self.thinking is not None:
            self.workload.interrupt(self.thinking.watch.stop)
            self.thinking = None

    def _new_clocks(self) -> GameClocks | None:
        """The clocks of a new game (none untimed), refused where the seat shown does not see
        everything."""
        control = web_time_control(self.settings.clock)
        if control is None:
            return None
        self._refuse_hidden("no clock", "its clocks would show when the other moves unseen")
        return GameClocks(control, self.game.players)

    def _start_clock(self, player: str, agent: Agent | None) -> None:
        """``player``'s turn begins on its clock (an agent is told its time), and the flag
        falls by itself if the turn outlasts it."""
        if self.clocks is None or self.clocks.running == player or self.record.finished:
            return
        self.clocks.begin(player, agent)
        self._cancel_flag()
        left = self.clocks.seconds_to_flag()
        assert left is not None
        self.flag_timer = threading.Timer(left + FLAG_GRACE, self._flag_fell)
        self.flag_timer.daemon = True
        self.flag_timer.start()

    def _clock_stopped(self, player: str) -> bool:
        """Stop ``player``'s clock after its move: True when it had run out (the game is then
        lost on time, and the move not played)."""
        if self.clocks is None:
            return False
        self._cancel_flag()
        loss = self.clocks.flag() or self.clocks.end(player)
        if loss is None:
            return False
        self._lost_on_time(loss)
        return True

    def _agree_draw(self) -> None:
        self._cancel_thinking()
        self._cancel_flag()
        self.record.agreed_draw = True
        self._moves_changed(len(self.record.turns))
        self._changed()

    def _flag_fell(self) -> None:
        with self.lock:
            if self.clocks is not None and not self.record.finished:
                loss = self.clocks.flag()
                if loss is not None:
                    self._lost_on_time(loss)

    def _lost_on_time(self, loss: Loss) -> None:
        self._cancel_thinking()
        self.record.loss = loss
        self._moves_changed(len(self.record.turns))
        self._changed()

    def _cancel_flag(self) -> None:
        if self.flag_timer is not None:
            self.flag_timer.cancel()
            self.flag_timer = None

    def _apply(
        self,
        player: str,
        action: Any,
        seconds: float,
        result: SearchResult[Any] | None,
        notes: TurnNotes | None = None,
    ) -> None:
        """The per-move step (:meth:`GameRecord.play`: checked legal), and what is shown of
        it."""
        self.record.play(player, action, seconds, result)
        self._moves_changed(len(self.record.turns) - 1)
        self.notes.append(notes or TurnNotes())
        self._changed()

    def _advance(self) -> None:
        """Roll the dice while nature is to move; start the agent to move thinking."""
        game = self.game
        state = self.record.state
        while not self.record.finished and game.to_move(state) == CHANCE:
            self._apply(CHANCE, sample_outcome(game, state, self.chance), 0.0, None)
            state = self.record.state
        if self.record.finished or self.thinking is not None or self.error is not None:
            return
        player = game.to_move(state)
        agent = self.agents[player]
        if agent is None:
            self._start_clock(player, None)
            return
        if not self.watched():
            self.paused = True
            return
        watch = Watch(lambda result: self._on_report(thinking, result))
        thinking = Thinking(player, self.specs[player], watch, time.perf_counter())
        self.thinking = thinking
        threading.Thread(
            target=self._think,
            args=(agent, state, thinking, self.pace if self._agent_moved_last() else 0.0),
            name=f"plies-web-{self.id}",
            daemon=True,
        ).start()
        self._changed()

    def _agent_moved_last(self) -> bool:
        """Whether the last move that was not nature's was an agent's."""
        players = [turn.player for turn in self.record.turns if turn.player != CHANCE]
        return bool(players) and self.agents[players[-1]] is not None

    def _think(self, agent: Agent, state: Any, thinking: Thinking, delay: float) -> None:
        """The agent's move, in this thread; applied only if nothing changed meanwhile. An
        agent that resigns loses the game (:class:`~plies.play.Loss`, undone by Undo);
        whatever goes wrong becomes the session's error: the game survives it."""
        stop = thinking.watch.stop
        if delay:
            stop.wait(delay)  # people watching two agents see each move; Stop cuts it short
        with self.workload.slot(stop), self.agents_busy:
            if self.thinking is not thinking:
                return  # undone, restarted or dropped before it began
            with self.lock:
                if not self.watched():  # everyone left while it waited its turn
                    self.thinking, self.paused = None, True
                    self._changed()
                    return
                thinking.waiting = False
                thinking.began = time.perf_counter()
                self._start_clock(thinking.player, agent)
                self._changed()
                forget = [seated for seated in self.agents.values() if seated is not None]
                forget = forget if self.forget_pending else []
                self.forget_pending = False
            thought = think(
                agent, self.game, state, thinking.watch, self.budgets.think_seconds, forget
            )
        with self.lock:
            if self.thinking is not thinking:
                return  # undone, restarted or dropped while it thought
            self.thinking = None
            if self._clock_stopped(thinking.player):
                return
            if thought.resigned:
                self.record.loss = Loss(thinking.player, RESIGNS)
                self._moves_changed(len(self.record.turns))
                self._changed()
                return
            failure = thought.failure
            if failure is None:
                try:
                    notes = thinking.notes(self.game, state, agent, thought.result)
                    seconds = time.perf_counter() - thinking.began
                    self._apply(thinking.player, thought.action, seconds, thought.result, notes)
                except Exception as error:
                    failure = str(error) or type(error).__name__
            if failure is not None:
                why = "" if self._view().hides else f": {failure}"  # it may name what it sees
                self.error = f"{thinking.spec} ({thinking.player}) could not move{why}"
                self._changed()
                return
            self._advance()

    def _on_report(self, thinking: Thinking, result: SearchResult[Any]) -> None:
        """A report of the thinking agent's search, sent on to the listeners
        (:meth:`Thinking.reported`)."""
        with self.lock:
            if self.thinking is not thinking:
                return
            if self._view().hides:
                return  # its search names what its seat sees
            agent = self.agents[thinking.player]
            now = time.perf_counter()
            event = thinking.reported(self.game, self.record.state, agent, result, now)
            if event is not None:
                self._publish(event)


class Sessions:
    """Every session of the app, by id, within the server's :class:`Budgets`: sessions nobody
    has looked at for :attr:`~Budgets.idle_minutes` are dropped from memory (looked for every
    few seconds, in a thread of their own), and the least recently used unwatched one when
    :attr:`~Budgets.max_sessions` are in memory. With a ``store``, every game is kept in it as
    it goes, and one asked for that is not in memory is read back from it."""

    def __init__(
        self,
        served: Sequence[str] = (),
        models: Path | None = None,
        budgets: Budgets | None = None,
        store: GameStore | None = None,
    ) -> None:
        self.budgets = budgets or Budgets()
        self.store = store
        """Where the games are kept (``plies serve --db``); None: in memory only."""
        self.served = tuple(spec.strip() for spec in served)
        """The games named by module path that the operator serves (``plies serve --game``);
        a browser may start these and the registered games, and no other module."""
        self.models = None if models is None else models.resolve()
        """The operator's folder of models (``plies serve --models``): with the shipped ones,
        the only models a browser may name."""
        self.workload = Workload(self.budgets.thinkers, self.budgets.think_seconds)
        """The thinkers that agents and analyses share."""
        self.shared = SharedMemory(solvers=self.budgets.thinkers)
        """The perfect solvers and networks of every session's agents and of the analyses."""
        self.new_games = NewGameLimit(self.budgets.new_games_per_minute)
        self.games: list[dict[str, Any]] | None = None
        """The games listed to browsers (made on first request: they do not change)."""
        self.agents: list[dict[str, Any]] | None = None
        """The agents listed to browsers (made on first request)."""
        self.lock = threading.Lock()
        self.sessions: OrderedDict[str, GameSession] = OrderedDict()
        self._sweeper: threading.Thread | None = None

    def create(
        self,
        game_spec: str,
        players: Mapping[str, str],
        position: str | None = None,
        seed: int | None = None,
        client: str = "",
        moves: Sequence[str] = (),
        settings: Settings | None = None,
    ) -> tuple[GameSession, str]:
        """A new session, its agents seated (specs checked) and started if they move first,
        and the token that lets its browser act in it (kept as a hash only);
        :class:`~plies.errors.RateLimitError` past ``client``'s new games a minute,
        :class:`~plies.errors.BusyError` when the server is full of watched games."""
        self.new_games.take(client)
        self.check_served(game_spec)
        players = {player: self.admit_model(spec) for player, spec in players.items()}
        self.sweep()
        with self.lock:
            self._check_room()
        session = GameSession(
            secrets.token_urlsafe(ID_BYTES),
            game_spec,
            players,
            position,
            seed,
            self.budgets,
            self.workload,
            self.shared,
            moves,
            settings,
        )
        token = secrets.token_urlsafe(TOKEN_BYTES)
        session.owner = token_hash(token)
        if self.store is not None:
            session.keep_in(self.store)
        with self.lock:
            self.sessions[session.id] = session
            self._start_sweeper()
        session.start_play()
        return session, token

    def _check_room(self) -> None:
        """Room for one more session in memory (the least recently used unwatched one
        dropped if need be), else :class:`~plies.errors.BusyError`."""
        if len(self.sessions) >= self.budgets.max_sessions and not self._make_room():
            raise BusyError(
                f"the server is full ({len(self.sessions)} games, every one watched): "
                "try again in a minute",
                60,
            )

    def _make_room(self) -> bool:
        """Drop the least recently used session nobody watches (and whose game is kept, if
        the server keeps games); False when there is none."""
        now = time.monotonic()
        for session in self.sessions.values():
            if not session.watched(now) and session.all_kept():
                self._drop(session)
                return True
        return False

    def sweep(self) -> int:
        """Drop the sessions idle for :attr:`~Budgets.idle_minutes` (and give the memory
        back); how many."""
        dropped = self._drop_idle()
        if dropped:  # a session's objects refer to each other: only a full collection frees them
            gc.collect()
            give_memory_back()
        return dropped

    def _drop_idle(self) -> int:
        idle = time.monotonic() - self.budgets.idle_minutes * 60
        with self.lock:
            old = [
                s
                for s in self.sessions.values()
                if s.touched < idle and not s.listeners and s.all_kept()
            ]
            for session in old:
                self._drop(session)
        return len(old)

    def _start_sweeper(self) -> None:
        """The thread that sweeps every few seconds while the app lives (it holds the store
        weakly, and ends with it)."""
        if self._sweeper is not None:
            return
        store = weakref.ref(self)
        every = min(SWEEP_SECONDS, self.budgets.idle_minutes * 60 / 4)

        def sweep_forever() -> None:
            while True:
                time.sleep(every)
                sessions = store()
                if sessions is None:
                    return
                sessions.sweep()
                del sessions

        self._sweeper = threading.Thread(target=sweep_forever, name="plies-web-sweep", daemon=True)
        self._sweeper.start()

    def check_served(self, game_spec: str) -> None:
        """A :class:`SpecError` unless ``game_spec`` names a registered game or one of the
        operator's (:attr:`served`): a browser never names a module for the server to import."""
        if not is_module_path(game_spec):
            return
        wanted = _module_target(game_spec)
        if wanted not in {_module_target(spec) for spec in self.served}:
            raise SpecError(
                f"{game_spec[:80]!r}: the web app plays the registered games and those its "
                "operator serves (plies serve --game SPEC)"
            )

    def admit_model(self, spec: str) -> str:
        """``spec`` with its ``model=`` a shipped model's name or, as a full path, a ``.pt``
        file of :attr:`models`; any other name gets one answer, whether a file of that name
        exists on the server or not."""
        kind = agent_kind(spec_name(spec))
        parsed = parse_spec(spec, kind.positional)
        model, shipped = parsed.options.values.get("model"), shipped_models()
        if model is None or model in shipped:
            return spec.strip()
        if self.models is not None:
            file = (self.models / model).resolve()
            if file.suffix == ".pt" and file.is_relative_to(self.models) and file.is_file():
                values = {**parsed.options.values, "model": str(file)}
                return f"{kind.name}:" + ",".join(f"{k}={v}" for k, v in values.items())
        served = [] if self.models is None else sorted(f.name for f in self.models.glob("*.pt"))
        names = ", ".join(shipped + served)
        raise SpecError(f"{kind.name}: no model {model[:40]!r} here (models: {names})")

    def _drop(self, session: GameSession) -> None:
        del self.sessions[session.id]
        session.close()

    def get(self, session_id: str) -> GameSession | None:
        """The session (looked at now: not idle, and its game resumed if it had paused for
        want of watchers), read back from the store if it is kept there and not in memory;
        None if there is no such game."""
        with self.lock:
            session = self.sessions.get(session_id)
            if session is not None:
                self.sessions.move_to_end(session_id)
                session.touched = time.monotonic()
        if session is None and self.store is not None:
            session = self._reopen(session_id)
        if session is not None:
            session.resume()
        return session

    def _reopen(self, session_id: str) -> GameSession | None:
        """The kept game ``session_id`` back in memory, its moves replayed and its agent
        thinking if it is to move; None if none is kept; a :class:`SpecError` if it cannot
        be played on here (its game no longer served, an agent that cannot be seated)."""
        assert self.store is not None
        kept = self.store.load(session_id)
        if kept is None:
            return None
        try:
            self.check_served(kept.game)
            session = GameSession(
                kept.id,
                kept.game,
                kept.players,
                kept.start,
                kept.seed,
                self.budgets,
                self.workload,
                self.shared,
                settings=Settings.from_json(kept.settings),
            )
            session.reopen(kept, self.store)
        except PliesError as error:
            raise SpecError(
                f"game {kept.id!r} is kept here but cannot be reopened: {error}"
            ) from None
        with self.lock:
            if session_id in self.sessions:  # reopened by another request meanwhile
                session.close()
                return self.sessions[session_id]
            self._check_room()
            self.sessions[session_id] = session
            self._start_sweeper()
        session.start_play()
        return session

    def close(self) -> None:
        """Stop every session's thinking and close the store (the app is done)."""
        with self.lock:
            for session in list(self.sessions.values()):
                self._drop(session)
        if self.store is not None:
            self.store.close()


def token_hash(token: str) -> str:
    """What is kept of an owner's token: its SHA-256, in hex."""
    return hashlib.sha256(token.encode()).hexdigest()


def sessions_of(request: Any) -> Sessions:
    """The sessions of the app serving ``request`` (one store per app, made by
    :func:`plies.web.app.create_app`)."""
    store: Sessions = request.app.state.sessions
    return store


def _module_target(spec: str) -> str:
    """``module:Attribute`` of a module-path game spec, without its options."""
    target, _, rest = spec.strip().partition(":")
    return f"{target.strip()}:{rest.partition(':')[0].strip()}"


def shipped_models() -> list[str]:
    """The names of the models that ship inside plies."""
    folder = resources.files("plies.learn.models")
    return sorted(entry.name[:-3] for entry in folder.iterdir() if entry.name.endswith(".pt"))
