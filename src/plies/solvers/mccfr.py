"""Monte Carlo CFR with external sampling (Lanctot, Waugh, Zinkevich and Bowling 2009,
"Monte Carlo Sampling for Regret Minimization in Extensive Games", algorithm 1), for games
whose tree is too large to walk: each iteration, for each player in turn, walks every action
of that player's own decisions but one sampled action of the others' and of chance, through
the game's six functions and :class:`~plies.capabilities.HasInformationSets`. The average
strategy is the others' current strategies summed where they are sampled (OpenSpiel's
``ExternalSamplingSolver`` with simple averaging). Only the sets the samples reach are kept.

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

NAME = "mccfr"


class ExternalSampling:
    """External-sampling MCCFR on ``game`` (two players, zero-sum), seeded by ``seed``, from
    empty tables or a saved strategy's (``resume``)."""

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
        self.iterations = 0
        self.seconds = 0.0
        if resume is not None:
            if resume.solver != NAME or not resume.regret:
                raise StrategyError(
                    f"the strategy was made by {resume.solver or 'no solver'!r}; "
                    f"{NAME} goes on only from its own tables"
                )
            self.regret = {p: dict(resume.regret.get(p, {})) for p in game.players}
            self.total = {p: dict(resume.total.get(p, {})) for p in game.players}
            self.iterations, self.seconds = resume.iterations, resume.seconds

    def run(self, iterations: int, stop: Callable[[], bool] | None = None) -> int:
        """Run up to ``iterations`` more iterations, fewer where ``stop()`` says so between
        two; returns how many ran."""
        done = 0
        while done < iterations and not (stop and stop()):
            for player in self.game.players:
                self._walk(self.game.initial_state(), player)
            self.iterations += 1
            done += 1
        return done

    def _walk(self, state: Any, player: str) -> float:
        """The sampled utility of ``state`` for ``player``, updating ``player``'s regrets at
        its own decisions and the others' strategy sums where they are sampled."""
        game = self.game
        if game.is_terminal(state):
            return game.utility(state, player)
        mover = game.to_move(state)
        if mover == CHANCE:
            return self._walk(game.result(state, sample_outcome(game, state, self.rng)), player)
        key = self.hidden.information_key(state, mover)
        moves = list(game.actions(state))
        sigma = self._current(mover, key, len(moves))
        if mover != player:
            total = self.total[mover].setdefault(key, [0.0] * len(moves))
            for k, share in enumerate(sigma):
                total[k] += share
            pick = self.rng.choices(range(len(moves)), weights=sigma)[0]
            return self._walk(game.result(state, moves[pick]), player)
        values = [self._walk(game.result(state, move), player) for move in moves]
        here = sum(share * value for share, value in zip(sigma, values, strict=True))
        regret = self.regret[mover].setdefault(key, [0.0] * len(moves))
        for k, value in enumerate(values):
            regret[k] += value - here
        return here

    def _current(self, player: str, key: str, width: int) -> list[float]:
        """Regret matching on ``player``'s set ``key`` (uniform where no regret is positive)."""
        regret = self.regret[player].get(key)
        if regret is None or len(regret) != width:
            return [1.0 / width] * width
        positive = [max(value, 0.0) for value in regret]
        mass = sum(positive)
        return [value / mass for value in positive] if mass > 0 else [1.0 / width] * width

    def strategy(self, exploitable: float | None = None, value: float | None = None) -> Strategy:
        """The average strategy over the sets reached (uniform where a set was walked only
        as its player's own and never sampled), with the tables to go on from; each set's
        actions are named as the game writes them in a state of the set."""
        names = self._action_names()
        table: Table = {player: {} for player in self.game.players}
        for player, key in sorted(names):
            weights = self.total[player].get(key) or [0.0] * len(names[player, key])
            mass = sum(weights)
            shares = [w / mass if mass > 0 else 1 / len(weights) for w in weights]
            table[player][key] = dict(zip(names[player, key], shares, strict=True))
        return Strategy(
            game_spec(self.game),
            table,
            NAME,
            self.iterations,
            self.seconds,
            exploitable,
            value,
            {p: dict(sets) for p, sets in self.regret.items()},
            {p: dict(sets) for p, sets in self.total.items()},
        )

    def _action_names(self) -> dict[tuple[str, str], list[str]]:
        """The notation of each kept set's actions, found by sampling games until every set
        has been met (the sets were met by sampling, so the same walks meet them again)."""
        wanted = {
            (p, key) for tables in (self.regret, self.total) for p in tables for key in tables[p]
        }
        names: dict[tuple[str, str], list[str]] = {}
        rng = random.Random(0)
        for _ in range(100 * len(wanted) + 100):
            if len(names) == len(wanted):
                break
            self._sample_names(rng, wanted, names)
        missing = wanted - set(names)
        if missing:
            player, key = sorted(missing)[0]
            raise StrategyError(f"cannot name the actions of {player}'s set {key!r}")
        return names

    def _sample_names(
        self,
        rng: random.Random,
        wanted: set[tuple[str, str]],
        names: dict[tuple[str, str], list[str]],
    ) -> None:
        """Play one game choosing, where possible, actions leading to sets not named yet."""
        game, state = self.game, self.game.initial_state()
        while not game.is_terminal(state):
            mover = game.to_move(state)
            if mover == CHANCE:
                state = game.result(state, sample_outcome(game, state, rng))
                continue
            moves = list(game.actions(state))
            key = (mover, self.hidden.information_key(state, mover))
            if key in wanted and key not in names:
                names[key] = [game.format_action(state, move) for move in moves]
            state = game.result(state, rng.choice(moves))
