"""Playing a game between agents, move by move, keeping the record; seating the agents.

:func:`play_game` is the one game loop of plies (``plies play``, ``plies match``, the
arena's workers, distillation's games); :meth:`GameRecord.play` is its per-move step, which
the web sessions, whose agents think in threads, take too. Under a time control each player
has a clock (:class:`Clocks`); an agent that resigns (:class:`~plies.errors.Resigns`) loses the
game; with ``forfeits`` an agent that fails loses it too instead of stopping it, as tournaments
score it.

Seating is written once for every front end and the match code: :func:`seat_agents` builds
each player's agent from its spec (the game's ``default_opponent`` where none is given), each
seeded by :func:`agent_seed` from one seed, the game's number and the seat's role.

In a game of imperfect information a front end shows a person what their seat sees
(:func:`seat_view`): the states and moves as :class:`SeatView` masks them.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from plies.agents import Agent, AskMove, make_agent
from plies.capabilities import HasInformationSets
from plies.clock import Clocked, TimeControl
from plies.errors import GameOverError, IllegalMoveError, PliesError, Resigns
from plies.game import CHANCE, Game, WinLossDrawGame, sample_outcome
from plies.search import SearchResult

if TYPE_CHECKING:
    from plies.agents.shared import SharedMemory


@dataclass(frozen=True)
class Turn:
    """One move: who played what from which state, and the search behind it if any."""

    player: str
    state: Any
    action: Any
    notation: str
    seconds: float
    search: SearchResult[Any] | None = None


RESIGNS = "resigns"
"""Why a game ended when its player resigned (:attr:`Loss.why`)."""
AGREED = "draw by agreement"
"""How a game ended that its players agreed to draw (:attr:`GameRecord.agreed_draw`)."""


@dataclass(frozen=True)
class Loss:
    """A game lost by ``player`` before its end, and why (:data:`RESIGNS`, ``forfeits: ...``,
    ``loses on time (...)``)."""

    player: str
    why: str


@dataclass
class GameRecord:
    """A game so far: the start, the turns, the current state, and the loss that ended it
    early if one did, or whether its players agreed a draw."""

    game: Game[Any, Any]
    start: Any
    state: Any
    turns: list[Turn] = field(default_factory=list)
    loss: Loss | None = None
    agreed_draw: bool = False

    @property
    def finished(self) -> bool:
        return self.loss is not None or self.agreed_draw or self.game.is_terminal(self.state)

    def play(
        self,
        player: str,
        action: Any,
        seconds: float = 0.0,
        search: SearchResult[Any] | None = None,
    ) -> Turn:
        """The per-move step: ``player``'s ``action`` (checked legal: :class:`IllegalMoveError`)
        played in the current state, recorded with its time and search."""
        game, state = self.game, self.state
        if player != CHANCE and action not in game.actions(state):
            raise IllegalMoveError(f"illegal move {action!r}")
        turn = Turn(player, state, action, game.format_action(state, action), seconds, search)
        self.state = game.result(state, action)
        self.turns.append(turn)
        return turn

    def take_back(self, ply: int) -> None:
        """Undo the moves from ``ply`` on: the game as it was before move ``ply``."""
        self.state = self.turns[ply].state if ply < len(self.turns) else self.state
        del self.turns[ply:]
        self.loss = None
        self.agreed_draw = False

    def outcome(self) -> str:
        """How the game ended: :func:`outcome_text` of its last state, or the loss that ended
        it early and who won (``B resigns: W wins``), or :data:`AGREED`."""
        if self.agreed_draw:
            return AGREED
        if self.loss is None:
            return outcome_text(self.game, self.state)
        others = [player for player in self.game.players if player != self.loss.player]
        won = f": {others[0]} wins" if len(others) == 1 else ""
        return f"{self.loss.player} {self.loss.why}{won}"

    def score(self, player: str) -> float:
        """``player``'s result in the finished game on a 0 to 1 scale: 0 for a loss by
        resignation, forfeit or on time and 1 for the others, 0.5 for an agreed draw, else its
        utility between the lowest (0) and the highest (1), 0.5 when all are equal."""
        if self.agreed_draw:
            return 0.5
        if self.loss is not None:
            return 0.0 if self.loss.player == player else 1.0
        payoffs = self.game.payoffs(self.state)
        low, high = min(payoffs), max(payoffs)
        mine = payoffs[self.game.players.index(player)]
        return 0.5 if high == low else (mine - low) / (high - low)


class Clocks:
    """Each player's clock under a time control (Fischer): an agent that keeps a clock
    (:class:`~plies.clock.Clocked`) is told its time before each move; the move's time comes
    off the clock and the increment goes on after it; a clock below zero loses."""

    def __init__(self, control: TimeControl, players: Sequence[str]) -> None:
        self.control = control
        self.left = {player: control.base for player in players}

    def start(self, player: str, agent: Agent) -> None:
        """Tell ``player``'s agent its clock before its move, if it keeps one."""
        if isinstance(agent, Clocked):
            agent.set_clock(self.left[player], self.control.increment)

    def stop(self, player: str, seconds: float) -> Loss | None:
        """Charge ``seconds`` to ``player``'s clock: the loss if it ran out, else None."""
        self.left[player] -= seconds
        if self.left[player] < 0:
            return Loss(player, f"loses on time ({self.control} s)")
        self.left[player] += self.control.increment
        return None


def outcome_text(game: Game[Any, Any], state: Any) -> str:
    """``X wins`` or ``draw``; for other games the players' utilities too, after who won
    (the one player with the highest utility) or ``draw`` (all equal).

    >>> from plies.registry import make_game
    >>> game = make_game("tictactoe3:m=3,n=3")
    >>> outcome_text(game, game.parse_position("OOO/XX./YYX"))
    'O wins (X: 0, O: 1, Y: 0)'
    """
    if isinstance(game, WinLossDrawGame):
        winner = game.winner(state)
        return "draw" if winner is None else f"{winner} wins"
    payoffs = game.payoffs(state)
    detail = ", ".join(f"{p}: {u:g}" for p, u in zip(game.players, payoffs, strict=True))
    best = [p for p, u in zip(game.players, payoffs, strict=True) if u == max(payoffs)]
    if len(best) == len(payoffs):
        return f"draw ({detail})"
    if len(best) == 1:
        return f"{best[0]} wins ({detail})"
    return detail


def play_game(
    game: Game[Any, Any],
    agents: Mapping[str, Agent],
    state: Any = None,
    on_turn: Callable[[GameRecord, Turn], None] | None = None,
    chance: random.Random | None = None,
    *,
    time_control: TimeControl | None = None,
    forfeits: bool = False,
    max_plies: int | None = None,
) -> GameRecord:
    """Let each player's agent move until the game ends (or ``max_plies`` moves are played);
    ``on_turn`` sees every move. In a chance state nature moves (player
    :data:`~plies.game.CHANCE`): an outcome drawn with its probability from ``chance`` (a
    fresh unseeded generator by default).

    Under ``time_control`` each player plays to a clock (:class:`Clocks`); one that runs out
    loses the game (the move that overran it is not played: :attr:`GameRecord.loss`). An agent
    that raises :class:`~plies.errors.Resigns` loses the game (:data:`RESIGNS`), with or
    without ``forfeits``. With ``forfeits`` an agent that raises another
    :class:`~plies.errors.PliesError` (an outside engine's
    :class:`~plies.agents.EngineFailure` among them) or plays an illegal move loses the game
    too, the reason recorded; without, the error propagates.

    An interruption (Ctrl-C, or a human ending input) propagates, and the record passed to
    ``on_turn`` so far holds the game up to it.
    """
    start = game.initial_state() if state is None else state
    if game.is_terminal(start):
        raise GameOverError("the game is already over in that position")
    chance = random.Random() if chance is None else chance
    clocks = None if time_control is None else Clocks(time_control, game.players)
    record = GameRecord(game, start, start)
    while not record.finished and (max_plies is None or len(record.turns) < max_plies):
        player = game.to_move(record.state)
        try:
            turn = _take_turn(record, player, agents, chance, clocks)
        except Resigns:
            record.loss, turn = Loss(player, RESIGNS), None
        except PliesError as error:
            if not forfeits or player == CHANCE:
                raise
            record.loss, turn = Loss(player, f"forfeits: {error}"), None
        if turn is not None and on_turn is not None:
            on_turn(record, turn)
    return record


def _take_turn(
    record: GameRecord,
    player: str,
    agents: Mapping[str, Agent],
    chance: random.Random,
    clocks: Clocks | None,
) -> Turn | None:
    """``player``'s move, timed on its clock if any, played on ``record``; None when the clock
    ran out (the loss recorded)."""
    game, state = record.game, record.state
    if player == CHANCE:
        return record.play(player, sample_outcome(game, state, chance))
    agent = agents[player]
    if clocks is not None:
        clocks.start(player, agent)
    began = time.perf_counter()
    action = agent(game, state)
    seconds = time.perf_counter() - began
    if clocks is not None:
        record.loss = clocks.stop(player, seconds)
        if record.loss is not None:
            return None
    return record.play(player, action, seconds, agent.last)


@dataclass(frozen=True)
class SeatView:
    """The game as ``seat`` sees it, in a game of imperfect information
    (:class:`~plies.capabilities.HasInformationSets`): its states masked
    (:meth:`~plies.capabilities.HasInformationSets.seen_state`) and its moves as the seat sees
    them (:meth:`~plies.capabilities.HasInformationSets.seen_action`, ``deals P2 a card``);
    with no seat, the whole game, as a spectator of agents sees it."""

    game: Game[Any, Any]
    seat: str | None = None

    @property
    def hides(self) -> bool:
        """Whether something is hidden from the seat (what the agents' searches know among
        it: their notes name their own information)."""
        return self.seat is not None

    def state(self, state: Any) -> Any:
        """``state`` as the seat sees it."""
        if self.seat is None:
            return state
        assert isinstance(self.game, HasInformationSets)
        return self.game.seen_state(state, self.seat)

    def notation(self, turn: Turn) -> str:
        """``turn``'s move as the seat sees it."""
        if self.seat is None:
            return turn.notation
        assert isinstance(self.game, HasInformationSets)
        return self.game.seen_action(turn.state, turn.action, self.seat)

    def shows(self, turn: Turn) -> bool:
        """Whether the seat sees ``turn``'s move as it was played (its notation)."""
        return self.notation(turn) == turn.notation

    def moves(self, record: GameRecord) -> list[range]:
        """The record's moves as the seat can tell them apart, each the range of plies it
        spans: every turn alone for a spectator; for a seat, consecutive turns of another
        player that it sees alike are one move (it cannot tell how many there were: phantom
        tic-tac-toe's tries that bump into its marks), and the last turns of another player
        still to move are left out until that player is done (it cannot see them end).

        >>> from plies.registry import make_game
        >>> game = make_game("phantom")
        >>> record = GameRecord(game, game.initial_state(), game.initial_state())
        >>> for move in ("a1", "a1", "b2"):  # O bumps into X's mark, then plays b2
        ...     _ = record.play(game.to_move(record.state), game.parse_action(record.state, move))
        >>> [list(move) for move in SeatView(game, "X").moves(record)]
        [[0], [1, 2]]
        >>> [list(move) for move in SeatView(game, "O").moves(record)]
        [[0], [1], [2]]
        """
        turns = record.turns
        if self.seat is None:
            return [range(ply, ply + 1) for ply in range(len(turns))]
        moves: list[range] = []
        for ply, turn in enumerate(turns):
            if moves and self._alike(turns[moves[-1].start], turn):
                moves[-1] = range(moves[-1].start, ply + 1)
            else:
                moves.append(range(ply, ply + 1))
        mover = None if record.finished else self.game.to_move(record.state)
        if moves and mover != self.seat and turns[moves[-1].start].player == mover:
            moves.pop()
        return moves

    def _alike(self, before: Turn, turn: Turn) -> bool:
        """Whether the seat cannot tell ``before`` and ``turn`` apart as two moves: another
        player's, seen alike."""
        same = turn.player == before.player != self.seat
        return same and self.notation(turn) == self.notation(before)


def seat_view(game: Game[Any, Any], people: Collection[str], record: GameRecord) -> SeatView:
    """What a front end shows of ``record`` where ``people`` are the seats a person takes: in
    a game of imperfect information, the one person's seat; with two people at one screen,
    the seat of the person to move, else of the person who moved last (the screen stays with
    them while chance deals and after the end); with no person, everything.

    >>> from plies.registry import make_game
    >>> game = make_game("kuhn")
    >>> record = GameRecord(game, game.initial_state(), game.initial_state())
    >>> for card in ("K", "J"):
    ...     _ = record.play("chance", card)
    >>> view = seat_view(game, ["P2"], record)
    >>> view.state(record.state).cards, [view.notation(turn) for turn in record.turns]
    ((None, 'J'), ['deals P1 a card', 'deals you J'])
    >>> seat_view(game, [], record).state(record.state).cards
    ('K', 'J')
    """
    seated = [player for player in game.players if player in people]
    if not isinstance(game, HasInformationSets) or not seated:
        return SeatView(game)
    mover = None if record.finished else game.to_move(record.state)
    if len(seated) == 1 or mover in seated:
        return SeatView(game, seated[0] if len(seated) == 1 else mover)
    moved = [turn.player for turn in record.turns if turn.player in seated]
    return SeatView(game, moved[-1] if moved else seated[0])


def line_notation(game: Game[Any, Any], state: Any, line: Sequence[Any]) -> list[str]:
    """The moves of ``line`` from ``state`` in the game's notation, up to the end of the game
    or the first move that is not legal there (a table's line can go stale)."""
    notations = []
    for action in line:
        if game.is_terminal(state) or action not in game.actions(state):
            break
        notations.append(game.format_action(state, action))
        state = game.result(state, action)
    return notations


def agent_seed(seed: int | None, game_index: int, role: str) -> int | None:
    """A 64-bit seed for the agent in seat ``role`` of game ``game_index``, derived from
    ``seed`` (None: unseeded); string seeding of :class:`random.Random` is deterministic across
    runs and platforms."""
    if seed is None:
        return None
    return random.Random(f"plies-match:{seed}:{game_index}:{role}").getrandbits(64)


def seat_agents(
    game: Game[Any, Any],
    specs: Mapping[str, str | None],
    *,
    seed: int | None = None,
    game_index: int = 0,
    roles: Mapping[str, str] | None = None,
    ask: AskMove | None = None,
    shared: SharedMemory | None = None,
    most_seconds: float | None = None,
) -> dict[str, Agent]:
    """An agent for every player of ``game``: ``specs[player]``, or the game's
    ``default_opponent`` where it is None or missing; seeded by :func:`agent_seed` with the
    player's role (``roles[player]``, else the player's name); ``ask`` asks people their moves;
    ``shared``: the memory a server's agents share; ``most_seconds``: the longest a move may
    take (:func:`~plies.agents.make_agent`).
    """
    agents: dict[str, Agent] = {}
    for player in game.players:
        spec = specs.get(player) or game.default_opponent
        role = player if roles is None else roles[player]
        agents[player] = make_agent(
            spec,
            game,
            seed=agent_seed(seed, game_index, role),
            ask=ask,
            shared=shared,
            most_seconds=most_seconds,
        )
    return agents
