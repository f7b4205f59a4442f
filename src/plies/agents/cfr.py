"""The ``cfr`` agent: plays a strategy of a game of imperfect information, drawing each move
from the probabilities the strategy gives the mover's information set (registered by
:mod:`plies.agents.builtin`). The strategy is a file (``strategy=FILE``, written by
``plies solve GAME --save FILE``), else the game's shipped one
(:class:`~plies.capabilities.HasShippedStrategy`), else one CFR+ solves when the agent is
made (``iterations=N``, for games small enough to walk)."""

from __future__ import annotations

import functools
import random
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from plies.agents.registry import Agent, AgentKind, Context, Option
from plies.capabilities import HasInformationSets, HasShippedStrategy, require
from plies.errors import GameTooLargeError, StrategyError
from plies.game import Game
from plies.registry import game_spec
from plies.search import SearchResult
from plies.solvers.cfr import CfrSolver, require_solvable
from plies.solvers.strategy import Strategy, read_strategy
from plies.spec import ITERATIONS

SOLVED_ITERATIONS = 1000
"""CFR+'s iterations for a game with neither a strategy file nor a shipped strategy."""


@dataclass
class CfrAgent:
    """Draws each move from ``strategy``'s probabilities at the mover's information set,
    uniformly where the strategy says nothing of it (a set a sampling solver never reached).
    It reads nothing of the state but the mover's information key and legal actions."""

    strategy: Strategy
    rng: random.Random
    name: str = "cfr"
    last: SearchResult[Any] | None = None

    def __call__(self, game: Game[Any, Any], state: Any) -> Any:
        hidden = require(game, HasInformationSets, "the cfr agent")
        mover = game.to_move(state)
        key = hidden.information_key(state, mover)
        moves = list(game.actions(state))
        shares = self.strategy.probabilities(mover, key)
        if shares is None:
            return self.rng.choice(moves)
        names = [game.format_action(state, move) for move in moves]
        unknown = set(shares) - set(names)
        if unknown:
            raise StrategyError(
                f"the strategy plays {sorted(unknown)[0]!r} at {mover}'s set {key!r}, where "
                f"the actions are {', '.join(names)}"
            )
        weights = [shares.get(name, 0.0) for name in names]
        return self.rng.choices(moves, weights=weights)[0]

    def reset(self, seed: int | None = None) -> None:
        """Nothing is kept between moves; a seed restarts the draws."""
        self.rng = random.Random(seed)


def strategy_for(game: Game[Any, Any], file: str | None, iterations: int | None) -> Strategy:
    """The strategy the agent plays: ``file``'s, CFR+'s after ``iterations``, the game's
    shipped one, or CFR+'s after :data:`SOLVED_ITERATIONS` where the game can be walked."""
    spec = game_spec(game)
    if file is not None:
        return _read(Path(file), spec)
    if iterations is None and isinstance(game, HasShippedStrategy):
        return _read(game.shipped_strategy(), spec)
    try:
        require_solvable(game, "the cfr agent's solver")
    except GameTooLargeError:
        raise GameTooLargeError(
            f"cfr: '{game.name}' has no shipped strategy and is too large to solve here; give "
            f"strategy=FILE (plies solve {game.name} --solver mccfr-outcome --save FILE)"
        ) from None
    return _solved(game, iterations or SOLVED_ITERATIONS)


@functools.lru_cache(maxsize=16)
def _read_cached(path: Path, spec: str, stamp: tuple[int, int]) -> Strategy:
    return read_strategy(path, spec)


def _read(path: Path, spec: str) -> Strategy:
    """The file's strategy, read once while the file stays the same."""
    try:
        stat = path.stat()
    except OSError as error:
        raise StrategyError(f"cannot read strategy file {str(path)!r}: {error.strerror}") from None
    return _read_cached(path.resolve(), spec, (stat.st_mtime_ns, stat.st_size))


_SOLVED: dict[tuple[str, int], Strategy] = {}
"""CFR+'s strategies solved so far, by game spec and iterations."""


def _solved(game: Game[Any, Any], iterations: int) -> Strategy:
    """CFR+'s average strategy after ``iterations``, solved once a game and count."""
    key = (game_spec(game), iterations)
    if key not in _SOLVED:
        solver = CfrSolver(game, "cfr+")
        solver.run(iterations)
        _SOLVED[key] = solver.strategy()
    return _SOLVED[key]


def _cfr(game: Game[Any, Any], values: Mapping[str, Any], context: Context) -> Agent:
    require(game, HasInformationSets, "the cfr agent")
    strategy = strategy_for(game, values["strategy"], values["iterations"])
    return CfrAgent(strategy, random.Random(context.seed))


CFR_KIND = AgentKind(
    "cfr",
    "plays a CFR strategy: a saved file, the game's shipped one, or CFR+ solved now",
    (
        Option("strategy", "text", "a strategy file (plies solve GAME --save FILE)"),
        Option("iterations", "int", "solve now with CFR+ for N iterations", None, ITERATIONS),
    ),
    _cfr,
    positional="strategy",
    hidden_information=True,
)
