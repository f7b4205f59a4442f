"""Who sits where in a web game: the agents seated from their specs as every front end seats
them (:func:`plies.play.seat_agents`), each checked for the web first: a known kind, no program
started on the server, a table within a player's share, and a textbook search quick enough
(it has no move to play if it is cut short). Nothing here imports FastAPI."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from plies.agents import Agent, EngineAgent, agent_kind
from plies.agents.shared import SharedMemory
from plies.agents.textbook import search_cost_problem
from plies.capabilities import HasPositionNotation
from plies.errors import GameOverError, SpecError
from plies.game import Game
from plies.play import seat_agents
from plies.spec import spec_name
from plies.web.workload import Budgets

TEXTBOOK_NODES = 800_000
"""The most positions a textbook search may visit from the start (a few seconds); minimax on
tic-tac-toe visits 549,946."""
TEXTBOOK_SECONDS = 4.0
"""The longest a textbook search may take from the start, when it has to be tried (each move
is also held to the server's think time: past it, the search is abandoned)."""
TABLE_MB = 64
"""The largest transposition table an engine may have here (made for a move, dropped after)."""


_COST_CHECKS: dict[tuple[str, str, str | None], str | None] = {}
"""The verdicts of :func:`search_cost_problem` by (game spec, agent spec, start position):
its probe can take seconds."""


def check_affordable(agent: Agent, game: Game[Any, Any], state: Any, key: tuple[Any, ...]) -> None:
    """:class:`SpecError` when ``agent`` is a textbook search too slow for the web from
    ``state`` (it has no move to play if it is cut short); verdicts are kept under ``key``."""
    if key not in _COST_CHECKS:
        if len(_COST_CHECKS) > 256:
            _COST_CHECKS.clear()
        _COST_CHECKS[key] = search_cost_problem(
            agent, game, state, TEXTBOOK_NODES, TEXTBOOK_SECONDS
        )
    problem = _COST_CHECKS[key]
    if problem is not None:
        raise SpecError(problem)


def start_state(game: Game[Any, Any], position: str | None) -> Any:
    """The initial state, or ``position`` in the game's notation."""
    if position is None or not position.strip():
        return game.initial_state()
    if not isinstance(game, HasPositionNotation):
        raise SpecError(f"{game.name} has no position notation: start from the beginning")
    state = game.parse_position(position)
    if game.is_terminal(state):
        raise GameOverError("the game is already over in that position")
    return state


def seat_players(
    game: Game[Any, Any],
    game_spec: str,
    specs: Mapping[str, str],
    start: Any,
    position: str | None,
    seed: int,
    budgets: Budgets,
    shared: SharedMemory | None,
) -> dict[str, Agent | None]:
    """An agent for every seat that is not a human's (None), seated as every front end
    seats them (:func:`plies.play.seat_agents`), its spec checked: known, no program to
    start, its options in range, and quick enough for the web."""
    kinds = {player: agent_kind(spec_name(spec)) for player, spec in specs.items()}
    for player, kind in kinds.items():
        if kind.runs_program:
            raise SpecError(f"{specs[player]}: the web app does not run programs on the server")
    roles = {player: str(index) for index, player in enumerate(game.players)}
    seated = seat_agents(
        game,
        specs,
        seed=seed,
        roles=roles,
        ask=_from_the_page,
        shared=shared,
        most_seconds=budgets.think_seconds,
    )
    agents: dict[str, Agent | None] = {}
    for player, agent in seated.items():
        spec = specs[player]
        if kinds[player].person:
            agents[player] = None
            continue
        if isinstance(agent, EngineAgent) and agent.options.tt_mb > TABLE_MB:
            raise SpecError(
                f"{spec}: a table of {agent.options.tt_mb:g} MB is more than one player "
                f"gets here; give tt={TABLE_MB:g} or less"
            )
        check_affordable(agent, game, start, (game_spec, spec, position))
        agents[player] = agent
    return agents


def _from_the_page(game: Game[Any, Any], state: Any) -> Any:
    """A person's seat: their moves come from the page (:meth:`GameSession.play`), never
    from a question."""
    raise AssertionError("the web app asks no one for a move: a person plays from the page")
