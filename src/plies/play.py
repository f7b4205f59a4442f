"""Playing a game between agents, move by move, keeping the record; seating the agents.

Seating is written once for every front end and the match code: :func:`seat_agents` builds
each player's agent from its spec (the game's ``default_opponent`` where none is given), each
seeded by :func:`agent_seed` from one seed, the game's number and the seat's role.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from plies.agents import Agent, AskMove, make_agent
from plies.errors import GameOverError
from plies.game import CHANCE, Game, WinLossDrawGame, sample_outcome
from plies.search import SearchResult


@dataclass(frozen=True)
class Turn:
    """One move: who played what from which state, and the search behind it if any."""

    player: str
    state: Any
    action: Any
    notation: str
    seconds: float
    search: SearchResult[Any] | None


@dataclass
class GameRecord:
    """A game so far: the start, the turns and the current state."""

    game: Game[Any, Any]
    start: Any
    state: Any
    turns: list[Turn] = field(default_factory=list)

    @property
    def finished(self) -> bool:
        return self.game.is_terminal(self.state)


def outcome_text(game: Game[Any, Any], state: Any) -> str:
    """``X wins`` or ``draw``; for other games the players' utilities too, after who won
    (the one player with the highest utility) or ``draw`` (all equal).

    >>> from plies.games import make_game
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
) -> GameRecord:
    """Let each player's agent move until the game ends; ``on_turn`` sees every move. In a
    chance state nature moves (player :data:`~plies.game.CHANCE`): an outcome drawn with its
    probability from ``chance`` (a fresh unseeded generator by default).

    An interruption (Ctrl-C, or a human ending input) propagates, and the record passed to
    ``on_turn`` so far holds the game up to it.
    """
    start = game.initial_state() if state is None else state
    if game.is_terminal(start):
        raise GameOverError("the game is already over in that position")
    chance = random.Random() if chance is None else chance
    record = GameRecord(game, start, start)
    while not game.is_terminal(record.state):
        player = game.to_move(record.state)
        began = time.perf_counter()
        search: SearchResult[Any] | None = None
        if player == CHANCE:
            action = sample_outcome(game, record.state, chance)
        else:
            agent = agents[player]
            action = agent(game, record.state)
            search = agent.last
        seconds = time.perf_counter() - began
        notation = game.format_action(record.state, action)
        turn = Turn(player, record.state, action, notation, seconds, search)
        record.state = game.result(record.state, action)
        record.turns.append(turn)
        if on_turn is not None:
            on_turn(record, turn)
    return record


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
) -> dict[str, Agent]:
    """An agent for every player of ``game``: ``specs[player]``, or the game's
    ``default_opponent`` where it is None or missing; seeded by :func:`agent_seed` with the
    player's role (``roles[player]``, else the player's name); ``ask`` asks people their moves.
    """
    agents: dict[str, Agent] = {}
    for player in game.players:
        spec = specs.get(player) or game.default_opponent
        role = player if roles is None else roles[player]
        agents[player] = make_agent(spec, game, seed=agent_seed(seed, game_index, role), ask=ask)
    return agents
