"""The ``ismcts`` agent: information set Monte Carlo tree search (MO-ISMCTS,
:mod:`plies.search.ismcts`) for games of imperfect information (registered by
:mod:`plies.agents.builtin`).

It sees only its seat's information: the search reads the state it is given through the
game's :class:`~plies.capabilities.HasInformationSets` alone (its information key, and the
determinisations drawn from what it has observed).
"""

from __future__ import annotations

import threading
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from plies.agents.live import Deepening
from plies.agents.options import TIME_OPTION
from plies.agents.registry import Agent, AgentKind, Context, Option
from plies.game import Game
from plies.search import SearchResult
from plies.search.ismcts import DEFAULT_C, ISMCTS
from plies.spec import EXPLORATION, ITERATIONS, RUN_SEED

WATCH_EVERY = 200
"""Iterations between two reports of a watched search, and two looks at its stop flag."""


@dataclass
class ISMCTSAgent(Deepening):
    """Plays the root action MO-ISMCTS visits most; nothing is kept between moves."""

    search: ISMCTS[Any, Any]
    iterations: int | None
    seconds: float | None
    name: str = "ismcts"
    seed: int | None = None
    """The spec's seed: it replaces the one :meth:`reset` is given."""
    last: SearchResult[Any] | None = field(default=None, repr=False)
    move_seconds: float | None = field(default=None, repr=False)
    """The next move's time from a clock (:meth:`set_clock`), instead of the spec's."""

    def iterate(
        self, game: Game[Any, Any], state: Any, stop: threading.Event | None = None
    ) -> Iterator[SearchResult[Any]]:
        """The search of ``state``, a result every :data:`WATCH_EVERY` iterations (the last
        is kept as :attr:`last`); ``stop`` ends it with the action chosen so far."""
        seconds = self.seconds if self.move_seconds is None else self.move_seconds
        searches = self.search.iterate(
            state, iterations=self.iterations, seconds=seconds, every=WATCH_EVERY
        )
        for result in searches:
            self.last = result
            yield result
            if stop is not None and stop.is_set():
                searches.close()
                return

    def reset(self, seed: int | None = None) -> None:
        """Nothing is kept between moves; a seed (the spec's if it has one) restarts the
        random draws."""
        if seed is not None or self.seed is not None:
            self.search.restart(seed if self.seed is None else self.seed)
        self.last, self.move_seconds = None, None


def _ismcts(game: Game[Any, Any], values: Mapping[str, Any], context: Context) -> Agent:
    iterations, seconds, seed = values["iterations"], values["time"], values["seed"]
    if iterations is None and seconds is None:
        seconds = 1.0
    search = ISMCTS(game, c=values["c"], seed=context.seed if seed is None else seed)
    return ISMCTSAgent(search, iterations, seconds, name=context.name, seed=seed)


ISMCTS_OPTIONS = (
    Option("iterations", "int", "iterations a move", None, ITERATIONS),
    TIME_OPTION,
    Option("c", "number", f"UCB1's exploration constant ({DEFAULT_C:g})", None, EXPLORATION),
    Option("seed", "int", "a fixed seed of its draws [default: the caller's]", None, RUN_SEED),
)
"""The ``ismcts`` agent's options."""


ISMCTS_KIND = AgentKind(
    "ismcts",
    "information set MCTS (MO-ISMCTS) for games of imperfect information (1 s a move by default)",
    ISMCTS_OPTIONS,
    _ismcts,
    hidden_information=True,
)
