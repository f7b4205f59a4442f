"""The agent registry: each kind of agent registers its name, its options and a factory, and
:func:`make_agent` builds agents from spec strings by reading the table.

>>> from plies.games import make_game
>>> game = make_game("tictactoe")
>>> agent = make_agent("alphabeta:depth=2", game)
>>> game.format_action(game.initial_state(), agent(game, game.initial_state()))
'b2'
>>> make_agent("wizard", game)
Traceback (most recent call last):
...
plies.errors.UnknownNameError: unknown agent 'wizard' (agents: random, minimax, alphabeta, \
expectiminimax, mcts, maxn, paranoid, engine, perfect, human, gtp, uci, az, policy)
"""

from __future__ import annotations

import importlib.metadata
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from plies.errors import SpecError, UnknownNameError
from plies.game import Game
from plies.search import SearchResult
from plies.spec import NumberRange, Options, parse_spec, spec_name


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
class Option:
    """One option of an agent kind: its type (``int``, ``number``, ``flag``, ``choice`` or
    ``text``), its default, its allowed values (a range or choices) and what it does."""

    key: str
    kind: str
    help: str
    default: Any = None
    allowed: NumberRange | None = None
    choices: tuple[str, ...] = ()

    def read(self, options: Options) -> Any:
        """This option's value in a spec's options (the default when absent), checked."""
        if self.kind == "flag":
            return options.flag(self.key, bool(self.default))
        if self.kind == "choice":
            return options.choice(self.key, self.default, self.choices)
        if self.kind == "text":
            text = options.text(self.key)
            return self.default if text is None else text
        assert self.allowed is not None
        value = options.number(self.key, self.default, self.allowed)
        return None if value is None else int(value) if self.kind == "int" else value

    def text(self) -> str:
        """``depth=N`` style usage: ``key=`` and what it takes."""
        if self.kind == "flag":
            return f"{self.key}=true|false"
        if self.kind == "choice":
            return f"{self.key}={'|'.join(self.choices)}"
        if self.kind == "text":
            return f"{self.key}=TEXT"
        return f"{self.key}={'N' if self.kind == 'int' else 'X'}"


@dataclass(frozen=True)
class Context:
    """What the caller gives every factory: the seed of random choices, the spec as written
    (the agent's name), and how to ask a person for a move (None: nobody to ask)."""

    seed: int | None
    name: str
    ask: AskMove | None


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


AGENTS: dict[str, AgentKind] = {}
"""Every kind of agent, by name, in the order registered."""


PLUGINS = "plies.agents"
"""The entry-point group of modules that register more agent kinds when imported (the
learned agents of :mod:`plies.learn.agents`, and any other package's)."""


def load_plugins() -> None:
    """Import every module of the :data:`PLUGINS` entry-point group (once each)."""
    for entry_point in importlib.metadata.entry_points(group=PLUGINS):
        if entry_point.value not in sys.modules:
            entry_point.load()


def register(kind: AgentKind) -> AgentKind:
    """Add ``kind`` to :data:`AGENTS` (a name may be registered once)."""
    if kind.name in AGENTS:
        raise SpecError(f"agent {kind.name!r} is registered twice")
    AGENTS[kind.name] = kind
    return kind


def agent_kind(name: str) -> AgentKind:
    """The registered kind called ``name``, or an :class:`UnknownNameError` listing them."""
    kind = AGENTS.get(name)
    if kind is None:
        raise UnknownNameError(f"unknown agent {name!r} (agents: {', '.join(AGENTS)})")
    return kind


def make_agent(
    spec: str, game: Game[Any, Any], *, seed: int | None = None, ask: AskMove | None = None
) -> Agent:
    """Build an agent from its spec for ``game``, checking its options and what it needs of
    the game now (unknown options, values out of range and missing capabilities raise)."""
    kind = agent_kind(spec_name(spec))
    parsed = parse_spec(spec, kind.positional)
    values = {option.key: option.read(parsed.options) for option in kind.options}
    parsed.options.finish()
    return kind.factory(game, values, Context(seed, spec.strip(), ask))
