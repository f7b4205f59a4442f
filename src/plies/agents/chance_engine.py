"""The ``engine`` agent in a game with chance nodes: the game's own compiled search
(:class:`~plies.capabilities.HasChanceEngine`; backgammon's expectimax over the dice with move
filters), deepening while the move's time lasts, as the engine does (1 s a move by default)."""

from __future__ import annotations

import importlib
import threading
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from plies.agents.live import Deepening
from plies.capabilities import ChanceEngine, HasChanceEngine
from plies.errors import SpecError
from plies.game import Game
from plies.search import SearchResult

IGNORED = ("nodes", "weights")
"""Engine options a chance engine cannot honour: given, they are refused."""


@dataclass
class ChanceEngineAgent(Deepening):
    """Plays the game's chance engine's move within ``depth`` moves and ``seconds``."""

    search: ChanceEngine
    depth: int | None
    seconds: float | None
    name: str = "engine"
    last: SearchResult[Any] | None = field(default=None, repr=False)
    move_seconds: float | None = field(default=None, repr=False)
    """The next move's time from a clock (:meth:`set_clock`), instead of the spec's."""

    def iterate(
        self, game: Game[Any, Any], state: Any, stop: threading.Event | None = None
    ) -> Iterator[SearchResult[Any]]:
        """A result per depth completed; the last is kept as :attr:`last`."""
        seconds = self.seconds if self.move_seconds is None else self.move_seconds
        for result in self.search.iterate(state, self.depth, seconds, stop):
            self.last = result
            yield result

    def reset(self, seed: int | None = None) -> None:
        """Forget the last search and the clock (nothing is random)."""
        self.last, self.move_seconds = None, None


def chance_engine_agent(
    game: Game[Any, Any], values: Mapping[str, Any], name: str
) -> ChanceEngineAgent:
    """The engine of ``game`` (its evaluation chosen) for the spec's ``values``: ``depth`` and
    ``time`` (1 s a move when neither is given); options it cannot honour are refused."""
    assert isinstance(game, HasChanceEngine)
    for option in IGNORED:
        if values.get(option) is not None:
            raise SpecError(
                f"engine: {option}= is not for {game.name}'s engine (it has chance nodes)"
            )
    module, _, maker = game.chance_engine().partition(":")
    search: ChanceEngine = getattr(importlib.import_module(module), maker)(game)
    depth, seconds = values["depth"], values["time"]
    if depth is not None and not 1 <= depth <= search.max_depth:
        raise SpecError(
            f"engine: {game.name}'s engine searches 1 to {search.max_depth} moves deep, not {depth}"
        )
    if depth is None and seconds is None:
        seconds = 1.0
    return ChanceEngineAgent(search, depth, seconds, name)
