"""Self-play: many games at once, each move chosen by PUCT search with root noise and a
temperature schedule, the tree kept between moves, and every position recorded with its search
policy and, once the game ends, its result (AlphaZero's self-play, Silver et al. 2018).

All games of a batch search together, so each network call evaluates one leaf of every game.
Each game draws its randomness from its own seed, so a game's moves do not depend on which
other games share its batch or worker: the same seeds always give the same data.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

from plies.capabilities import HasTensorEncoding, require
from plies.errors import SpecError
from plies.game import Game
from plies.search.puct import (
    DEFAULT_C_PUCT,
    MAX_SIMULATIONS,
    PolicyValueEvaluator,
    PUCTConfig,
    Tree,
    run_simulations,
)


@dataclass(frozen=True)
class SelfPlayConfig:
    """``simulations`` per move; moves drawn in proportion to visits for the first
    ``temperature_plies`` plies, the most visited after; Dirichlet ``noise_alpha`` at the root
    (None: 10 / the number of action indices, AlphaZero's rule of thumb)."""

    simulations: int = 100
    temperature_plies: int | None = None
    noise_alpha: float | None = None
    noise_fraction: float = 0.25
    c_puct: float = DEFAULT_C_PUCT
    leaves_per_tree: int = 1

    def __post_init__(self) -> None:
        if not 1 <= self.simulations <= MAX_SIMULATIONS:
            raise SpecError(f"simulations={self.simulations} must be 1 to {MAX_SIMULATIONS}")
        if self.temperature_plies is not None and not 0 <= self.temperature_plies <= 10_000:
            raise SpecError(f"temperature plies={self.temperature_plies} must be 0 to 10000")

    def puct(self, game: HasTensorEncoding) -> PUCTConfig:
        alpha = self.noise_alpha if self.noise_alpha is not None else 10 / game.action_count()
        return PUCTConfig(
            c_puct=self.c_puct,
            noise_alpha=min(alpha, 100.0),
            noise_fraction=self.noise_fraction,
            leaves_per_tree=self.leaves_per_tree,
        )

    def plies_at_temperature(self, game: HasTensorEncoding) -> int:
        """Explicit, or a third of the board's cells."""
        if self.temperature_plies is not None:
            return self.temperature_plies
        _, rows, columns = game.tensor_shape()
        return max(1, rows * columns // 3)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class SelfPlayData:
    """Training positions: ``planes`` (uint8), the search ``policies``, the game result
    ``outcomes`` and the root's search ``values`` (both for the mover), and counts."""

    planes: np.ndarray
    policies: np.ndarray
    outcomes: np.ndarray
    values: np.ndarray
    games: int
    simulations: int
    seconds: float
    first_wins: int = 0
    second_wins: int = 0
    draws: int = 0

    @classmethod
    def concatenate(cls, parts: Sequence[SelfPlayData]) -> SelfPlayData:
        return cls(
            np.concatenate([p.planes for p in parts]),
            np.concatenate([p.policies for p in parts]),
            np.concatenate([p.outcomes for p in parts]),
            np.concatenate([p.values for p in parts]),
            sum(p.games for p in parts),
            sum(p.simulations for p in parts),
            sum(p.seconds for p in parts),
            sum(p.first_wins for p in parts),
            sum(p.second_wins for p in parts),
            sum(p.draws for p in parts),
        )

    def arrays(self) -> dict[str, np.ndarray]:
        counts = [self.games, self.simulations, self.first_wins, self.second_wins, self.draws]
        return {
            "planes": self.planes,
            "policies": self.policies,
            "outcomes": self.outcomes,
            "values": self.values,
            "counts": np.array(counts, dtype=np.int64),
            "seconds": np.array([self.seconds]),
        }

    @classmethod
    def from_arrays(cls, arrays: Any) -> SelfPlayData:
        games, simulations, first, second, draws = (int(x) for x in arrays["counts"])
        return cls(
            arrays["planes"],
            arrays["policies"],
            arrays["outcomes"],
            arrays["values"],
            games,
            simulations,
            float(arrays["seconds"][0]),
            first,
            second,
            draws,
        )


def play_games(
    game: Game[Any, Any],
    evaluator: PolicyValueEvaluator,
    seeds: Sequence[int],
    config: SelfPlayConfig,
    on_move: Callable[[int], None] | None = None,
) -> SelfPlayData:
    """Play one game per seed, all at once, and return their positions. ``on_move(n)`` is
    told how many games are still running after each move."""
    encoding = require(game, HasTensorEncoding, "self-play")
    puct, hot = config.puct(encoding), config.plies_at_temperature(encoding)
    started = time.perf_counter()
    trees = [Tree(game, game.initial_state(), puct, np.random.default_rng(s)) for s in seeds]
    records: list[list[tuple[np.ndarray, np.ndarray, str, float]]] = [[] for _ in seeds]
    active = [i for i, tree in enumerate(trees) if tree.root.terminal is None]
    simulations = 0
    while active:
        run_simulations([trees[i] for i in active], evaluator, config.simulations)
        simulations += config.simulations * len(active)
        for i in active:
            tree = trees[i]
            root = tree.root
            planes = encoding.encode(root.state).astype(np.uint8)
            records[i].append((planes, tree.policy(), root.player, tree.value()))
            tree.advance(tree.choose(1.0 if len(records[i]) <= hot else 0.0))
        active = [i for i in active if trees[i].root.terminal is None]
        if on_move is not None:
            on_move(len(active))
    return _collect(game, trees, records, simulations, time.perf_counter() - started)


def _collect(
    game: Game[Any, Any],
    trees: Sequence[Tree],
    records: Sequence[Sequence[tuple[np.ndarray, np.ndarray, str, float]]],
    simulations: int,
    seconds: float,
) -> SelfPlayData:
    planes, policies, outcomes, values = [], [], [], []
    first = second = draws = 0
    for tree, record in zip(trees, records, strict=True):
        end = tree.root
        assert end.terminal is not None
        for plane, policy, player, value in record:
            planes.append(plane)
            policies.append(policy)
            outcomes.append(end.terminal if player == end.player else -end.terminal)
            values.append(value)
        if end.terminal == 0:
            draws += 1
        elif (end.terminal > 0) == (end.player == game.players[0]):
            first += 1
        else:
            second += 1
    encoding = require(game, HasTensorEncoding, "self-play")
    shape = encoding.tensor_shape()
    return SelfPlayData(
        np.array(planes, dtype=np.uint8).reshape(-1, *shape),
        np.array(policies, dtype=np.float32).reshape(-1, encoding.action_count()),
        np.array(outcomes, dtype=np.float32),
        np.array(values, dtype=np.float32),
        len(trees),
        simulations,
        seconds,
        first,
        second,
        draws,
    )
