"""The agent registry: each kind of agent registers its name, its options and a factory, and
:func:`make_agent` builds agents from spec strings by reading the table.

>>> from plies.registry import make_game
>>> game = make_game("tictactoe")
>>> agent = make_agent("alphabeta:depth=2", game)
>>> game.format_action(game.initial_state(), agent(game, game.initial_state()))
'b2'
>>> make_agent("wizard", game)
Traceback (most recent call last):
...
plies.errors.UnknownNameError: unknown agent 'wizard' (agents: alphabeta, alphago, az, cfr, \
engine, expectiminimax, gnubg, gtp, human, ismcts, maxn, mcts, minimax, netengine, paranoid, \
perfect, policy, random, uci)
"""

from __future__ import annotations

import importlib.metadata
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from plies.capabilities import HasInformationSets
from plies.errors import SpecError, UnknownNameError, UnsupportedGameError
from plies.game import Game
from plies.search import SearchResult
from plies.spec import Option as Option  # agents built elsewhere import it from here
from plies.spec import parse_spec, spec_name

if TYPE_CHECKING:
    from plies.agents.shared import SharedMemory


class Agent(Protocol):
    """Chooses a move: ``agent(game, state) -> action``.

    ``last`` is the search behind the last move (None for agents that do not search);
    ``reset(seed)`` readies the agent for a new game: it forgets what it kept between the
    moves of a game (tables, trees) and, given a seed, draws its random choices afresh from it,
    so that it plays as a new agent built with that seed would (a tournament's worker reuses
    its agents this way, every game still a function of its seed).
    """

    name: str
    last: SearchResult[Any] | None

    def __call__(self, game: Game[Any, Any], state: Any) -> Any: ...

    def reset(self, seed: int | None = None) -> None: ...


AskMove = Callable[[Game[Any, Any], Any], Any]
"""How a front end asks a person for a move: ``ask(game, state) -> action`` (a legal one; it
raises :class:`~plies.errors.AbandonedError` when the person stops)."""


@dataclass(frozen=True)
class Context:
    """What the caller gives every factory: the seed of random choices, the spec as written
    (the agent's name), how to ask a person for a move (None: nobody to ask), and the memory
    a server's agents share (:class:`~plies.agents.shared.SharedMemory`; None: the agent keeps
    its own)."""

    seed: int | None
    name: str
    ask: AskMove | None
    shared: SharedMemory | None = None


Factory = Callable[[Game[Any, Any], Mapping[str, Any], Context], Agent]
"""Builds an agent for a game from its options' values, after checking what it needs."""


@dataclass(frozen=True)
class AgentKind:
    """A registered kind of agent."""

    name: str
    summary: str
    options: tuple[Option, ...]
    factory: Factory
    positional: str | None = None
    """The option a first value without ``key=`` gives (``uci:stockfish`` is ``cmd=``)."""
    person: bool = False
    """A person plays (the front end asks for each move): never in a match or tournament."""
    runs_program: bool = False
    """The agent runs a program named in its spec (a UCI or GTP engine): never from a
    browser."""
    hidden_information: bool = False
    """The agent plays games of imperfect information
    (:class:`~plies.capabilities.HasInformationSets`), using only what its seat sees; the
    others assume the whole state is known and are refused such games."""
    game_options: Callable[[Game[Any, Any]], tuple[Option, ...]] | None = None
    """The options a game adds to the kind's own (``mcts``: the settings of the game's own
    compiled tree, :class:`~plies.capabilities.HasOwnMcts`); other games refuse them as any
    unknown option."""

    def options_for(self, game: Game[Any, Any]) -> tuple[Option, ...]:
        """The kind's options for ``game``: its own, then those the game adds."""
        return self.options + (() if self.game_options is None else self.game_options(game))


AGENTS: dict[str, AgentKind] = {}
"""Every kind of agent, by name, in the order registered."""


PLUGINS = "plies.agents"
"""The entry-point group of modules that register more agent kinds when imported (the
learned agents of :mod:`plies.learn.agents`, and any other package's)."""


def load_plugins() -> None:
    """Import every module of the :data:`PLUGINS` entry-point group (once each): the agents
    that come with a game's room (``uci`` with chess, ``gtp`` with Go), the learned agents and
    any installed package's."""
    for entry_point in importlib.metadata.entry_points(group=PLUGINS):
        if entry_point.value not in sys.modules:
            entry_point.load()


def register(kind: AgentKind) -> AgentKind:
    """Add ``kind`` to :data:`AGENTS` (a name may be registered once)."""
    if kind.name in AGENTS:
        raise SpecError(f"agent {kind.name!r} is registered twice")
    AGENTS[kind.name] = kind
    return kind


def registered_agents() -> dict[str, AgentKind]:
    """Every kind of agent, the installed ones (:data:`PLUGINS`) included."""
    load_plugins()
    return AGENTS


def agent_kind(name: str) -> AgentKind:
    """The registered kind called ``name`` (an installed one is imported when first asked
    for), or an :class:`UnknownNameError` listing them."""
    kind = AGENTS.get(name) or registered_agents().get(name)
    if kind is None:
        raise UnknownNameError(f"unknown agent {name!r} (agents: {', '.join(sorted(AGENTS))})")
    return kind


def plays_in_person(spec: str) -> bool:
    """Whether ``spec`` seats a person (the front end asks for the moves)."""
    return agent_kind(spec_name(spec)).person


def make_agent(
    spec: str,
    game: Game[Any, Any],
    *,
    seed: int | None = None,
    ask: AskMove | None = None,
    shared: SharedMemory | None = None,
    most_seconds: float | None = None,
) -> Agent:
    """Build an agent from its spec for ``game``, checking its options and what it needs of
    the game now (unknown options, values out of range and missing capabilities raise);
    ``shared``: the solvers and networks it uses are the shared ones; ``most_seconds``: the
    longest a move may take where the caller has a budget (a server's), so that a ``time``
    longer than that is refused with the others."""
    kind = agent_kind(spec_name(spec))
    refuse_hidden_information(kind, game)
    parsed = parse_spec(spec, kind.positional)
    values = {option.key: option.read(parsed.options) for option in kind.options_for(game)}
    parsed.options.finish()
    seconds = values.get("time")
    if most_seconds is not None and isinstance(seconds, float | int) and seconds > most_seconds:
        raise SpecError(f"{spec.strip()}: a move may take {most_seconds:g} s at most here")
    return kind.factory(game, values, Context(seed, spec.strip(), ask, shared))


def refuse_hidden_information(kind: AgentKind, game: Game[Any, Any]) -> None:
    """Refuse an agent that needs the whole state in a game of imperfect information, with
    the kinds that can play it."""
    if kind.hidden_information or not isinstance(game, HasInformationSets):
        return
    able = sorted(name for name, other in registered_agents().items() if other.hidden_information)
    raise UnsupportedGameError(
        f"agent {kind.name!r} needs perfect information, and in '{game.name}' a player does not "
        f"see the whole state (agents for it: {', '.join(able)})"
    )
