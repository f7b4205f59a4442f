"""Monte Carlo CFR for games whose tree is too large to walk (Lanctot, Waugh, Zinkevich and
Bowling 2009, "Monte Carlo Sampling for Regret Minimization in Extensive Games"), through the
game's six functions and :class:`~plies.capabilities.HasInformationSets`; only the sets the
samples reach are kept, each with its actions' notation as first met.

- :class:`ExternalSampling` (``mccfr``): each iteration, for each player in turn, walks every
  action of that player's own decisions and one sampled action of the others' and of chance;
  the average strategy sums the others' current strategies where they are sampled (OpenSpiel's
  ``ExternalSamplingSolver``, simple averaging). Low variance, but an iteration grows with the
  player's branching to the end of the game.
- :class:`OutcomeSampling` (``mccfr-outcome``): each iteration samples one game a player,
  the updated player's moves with exploration ``epsilon`` (0.6), and corrects the regrets by
  importance weights (OpenSpiel's ``OutcomeSamplingSolver`` without baselines): an iteration
  costs one game, whatever the game's size.

>>> from plies.registry import make_game
>>> solver = ExternalSampling(make_game("kuhn"), seed=1)
>>> solver.run(2000)
2000
>>> shares = solver.strategy().probabilities("P2", "K:b")  # K facing a bet always calls
>>> round(shares["bet"], 2)
1.0
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from plies.capabilities import HasInformationSets, require
from plies.errors import StrategyError, UnsupportedGameError
from plies.game import CHANCE, Game, sample_outcome
from plies.registry import game_spec
from plies.solvers.strategy import Strategy, Table, Tables

EXPLORATION = 0.6
"""Outcome sampling's share of uniform exploration at the updated player's moves."""
MOST_SETS = 1_000_000
"""The information sets a solver keeps at most (a gigabyte of memory, a strategy file of about
300 MB); :meth:`run` stops there."""


class SampledCfr:
    """What both samplers share: the tables, by player and key, of regrets, strategy sums and
    the actions' notation; the runs; the average strategy; going on from a saved one."""

    name = "mccfr"

    def __init__(self, game: Game[Any, Any], seed: int = 0, resume: Strategy | None = None):
        self.hidden = require(game, HasInformationSets, "Monte Carlo CFR")
        if len(game.players) != 2 or not game.zero_sum:
            raise UnsupportedGameError(
                f"Monte Carlo CFR needs a two-player zero-sum game; '{game.name}' is not"
            )
        self.game = game
        self.rng = random.Random(seed)
        self.regret: Tables = {player: {} for player in game.players}
        self.total: Tables = {player: {} for player in game.players}
        self.names: dict[str, dict[str, list[str]]] = {player: {} for player in game.players}
        self.iterations = 0
        self.seconds = 0.0
        if resume is not None:
            self._resume(resume)

    def _resume(self, saved: Strategy) -> None:
        if saved.solver != self.name or not saved.regret:
            raise StrategyError(
                f"the strategy was made by {saved.solver or 'no solver'!r}; "
                f"{self.name} goes on only from its own tables"
            )
        for player in self.game.players:
            for key, shares in saved.table.get(player, {}).items():
                regret = saved.regret.get(player, {}).get(key)
                total = saved.total.get(player, {}).get(key)
                if regret is None or total is None or not len(regret) == len(total) == len(shares):
                    raise StrategyError(f"the strategy's tables miss {player}'s set {key!r}")
                self.names[player][key] = list(shares)
                self.regret[player][key], self.total[player][key] = list(regret), list(total)
        self.iterations, self.seconds = saved.iterations, saved.seconds

    def sets(self) -> int:
        """How many information sets the tables hold."""
        return sum(len(keys) for keys in self.names.values())

    def run(self, iterations: int, stop: Callable[[], bool] | None = None) -> int:
        """Run up to ``iterations`` more iterations, fewer where ``stop()`` says so between
        two or the tables reach :data:`MOST_SETS`; returns how many ran."""
        done = 0
        while done < iterations and not (stop and stop()) and self.sets() < MOST_SETS:
            for player in self.game.players:
                self._iterate(player)
            self.iterations += 1
            done += 1
        return done

    def full(self) -> bool:
        """Whether the tables hold as many sets as they may (:data:`MOST_SETS`)."""
        return self.sets() >= MOST_SETS

    def _iterate(self, player: str) -> None:
        raise NotImplementedError

    def _set(self, state: Any, mover: str) -> tuple[str, list[Any], list[float], list[float]]:
        """The mover's key, legal moves, regrets and strategy sums at ``state`` (new sets
        start at zero, their actions' notation kept)."""
        key = self.hidden.information_key(state, mover)
        moves = list(self.game.actions(state))
        regret = self.regret[mover].get(key)
        if regret is None or len(regret) != len(moves):
            regret = self.regret[mover][key] = [0.0] * len(moves)
            self.total[mover][key] = [0.0] * len(moves)
            self.names[mover][key] = [self.game.format_action(state, move) for move in moves]
        return key, moves, regret, self.total[mover][key]

    @staticmethod
    def _matched(regret: list[float]) -> list[float]:
        """Regret matching: each action in proportion to its positive regret, else uniform."""
        positive = [max(value, 0.0) for value in regret]
        mass = sum(positive)
        return [value / mass for value in positive] if mass > 0 else [1 / len(regret)] * len(regret)

    def strategy(self, exploitable: float | None = None, value: float | None = None) -> Strategy:
        """The average strategy over the sets reached (uniform where a set has no weight yet),
        with the tables to go on from."""
        table: Table = {player: {} for player in self.game.players}
        for player, sets in self.names.items():
            for key, names in sets.items():
                weights = self.total[player][key]
                mass = sum(weights)
                shares = [w / mass if mass > 0 else 1 / len(weights) for w in weights]
                table[player][key] = dict(zip(names, shares, strict=True))
        return Strategy(
            game_spec(self.game),
            table,
            self.name,
            self.iterations,
            self.seconds,
            exploitable,
            value,
            {p: dict(sets) for p, sets in self.regret.items()},
            {p: dict(sets) for p, sets in self.total.items()},
        )


class ExternalSampling(SampledCfr):
    """External-sampling MCCFR (Lanctot et al. 2009, algorithm 1) on a two-player zero-sum
    game, seeded by ``seed``, from empty tables or a saved strategy's (``resume``)."""

    name = "mccfr"

    def _iterate(self, player: str) -> None:
        self._walk(self.game.initial_state(), player)

    def _walk(self, state: Any, player: str) -> float:
        """The sampled utility of ``state`` for ``player``, updating ``player``'s regrets at
        its own decisions and the others' strategy sums where they are sampled."""
        game = self.game
        if game.is_terminal(state):
            return game.utility(state, player)
        mover = game.to_move(state)
        if mover == CHANCE:
            return self._walk(game.result(state, sample_outcome(game, state, self.rng)), player)
        _, moves, regret, total = self._set(state, mover)
        sigma = self._matched(regret)
        if mover != player:
            for k, share in enumerate(sigma):
                total[k] += share
            pick = self.rng.choices(range(len(moves)), weights=sigma)[0]
            return self._walk(game.result(state, moves[pick]), player)
        values = [self._walk(game.result(state, move), player) for move in moves]
        here = sum(share * value for share, value in zip(sigma, values, strict=True))
        for k, value in enumerate(values):
            regret[k] += value - here
        return here


class OutcomeSampling(SampledCfr):
    """Outcome-sampling MCCFR (Lanctot et al. 2009, section 3; OpenSpiel's
    ``OutcomeSamplingSolver`` without baselines) on a two-player zero-sum game, seeded by
    ``seed``, from empty tables or a saved strategy's (``resume``)."""

    name = "mccfr-outcome"

    def _iterate(self, player: str) -> None:
        self._episode(self.game.initial_state(), player, 1.0, 1.0, 1.0)

    def _episode(
        self, state: Any, player: str, mine: float, others: float, sampled: float
    ) -> float:
        """One sampled game from ``state``: its importance-weighted value for ``player``,
        given the reach of ``player``'s own moves (``mine``), of the others' (``others``) and
        of the sampling (``sampled``); ``player``'s regrets and strategy sums updated on the
        way back."""
        game = self.game
        if game.is_terminal(state):
            return game.utility(state, player)
        mover = game.to_move(state)
        if mover == CHANCE:  # chance's probability cancels from both reaches
            after = game.result(state, sample_outcome(game, state, self.rng))
            return self._episode(after, player, mine, others, sampled)
        _, moves, regret, total = self._set(state, mover)
        sigma = self._matched(regret)
        width = len(moves)
        explore = [EXPLORATION / width + (1 - EXPLORATION) * s for s in sigma]
        sample = explore if mover == player else sigma
        pick = self.rng.choices(range(width), weights=sample)[0]
        if mover == player:
            mine_after, others_after = mine * sigma[pick], others
        else:
            mine_after, others_after = mine, others * sigma[pick]
        below = self._episode(game.result(state, moves[pick]), player, mine_after, others_after,
                              sampled * sample[pick])  # fmt: skip
        child = below / sample[pick]  # the sampled child's value, importance-weighted
        value = sigma[pick] * child
        if mover == player:
            weight = others / sampled
            for k in range(width):
                regret[k] += ((child if k == pick else 0.0) - value) * weight
                total[k] += mine * sigma[k] / sampled
        return value
