"""Counterfactual regret minimisation over a game's whole tree, and exploitability.

The game's tree is walked once (:func:`game_tree`) into arrays, breadth first; the compiled
loops of :mod:`plies.solvers.cfr_kernel` then run on them. :class:`CfrSolver` runs

- ``cfr``: vanilla CFR (Zinkevich, Johanson, Bowling and Piccione 2007) with alternating
  updates and the average strategy weighted uniformly, as OpenSpiel's ``CFRSolver``;
- ``cfr+``: CFR+ (Tammelin 2014; Tammelin, Burch, Johanson and Bowling 2015): regret matching
  plus, alternating updates, the average weighted by the iteration number, as OpenSpiel's
  ``CFRPlusSolver``.

:func:`exploitability` computes a best response for each player exactly and reports
NashConv / 2, as OpenSpiel's ``exploitability`` does. The textbook version of all this, slow
and obviously right, is :mod:`plies.solvers.cfr_textbook`.

>>> from plies.registry import make_game
>>> solver = CfrSolver(make_game("kuhn"), "cfr")
>>> solver.run(10)
10
>>> round(exploitability(solver.tree, solver.average()).exploitability, 6)
0.068699
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from plies.capabilities import HasInformationSets, require
from plies.errors import GameTooLargeError, StrategyError, UnsupportedGameError
from plies.game import CHANCE, Game, checked_outcomes
from plies.registry import game_spec
from plies.solvers import cfr_kernel as kernel
from plies.solvers.strategy import Strategy, Table

MOST_NODES = 2_000_000
"""The largest tree walked whole (Leduc poker has 1,939 nodes, kept by rank)."""
SOLVERS = ("cfr", "cfr+")


@dataclass(frozen=True)
class GameTree:
    """A two-player zero-sum game's whole tree as arrays (:mod:`~plies.solvers.cfr_kernel`
    describes them), with each information set's player, key and actions."""

    game: Game[Any, Any]
    kind: NDArray[np.int8]
    mover: NDArray[np.int8]
    infoset: NDArray[np.int32]
    first: NDArray[np.int32]
    count: NDArray[np.int32]
    prob: NDArray[np.float64]
    payoff: NDArray[np.float64]
    owner: NDArray[np.int8]
    keys: tuple[str, ...]
    actions: tuple[tuple[str, ...], ...]

    @property
    def nodes(self) -> int:
        return int(self.kind.shape[0])

    @property
    def widest(self) -> int:
        """The most actions of an information set."""
        return max(len(actions) for actions in self.actions)

    @property
    def shape(
        self,
    ) -> tuple[
        kernel.Bytes,
        kernel.Bytes,
        kernel.Ints,
        kernel.Ints,
        kernel.Ints,
        kernel.Floats,
        kernel.Floats,
    ]:
        """The arrays the compiled loops take first: kind, mover, infoset, first, count, prob
        and payoff."""
        return (self.kind, self.mover, self.infoset, self.first, self.count, self.prob, self.payoff)

    def action_counts(self) -> NDArray[np.int32]:
        return np.array([len(actions) for actions in self.actions], dtype=np.int32)

    def index(self) -> dict[tuple[int, str], int]:
        """Each information set's number, by (player number, key)."""
        return {(int(self.owner[i]), key): i for i, key in enumerate(self.keys)}


def require_solvable(game: Game[Any, Any], purpose: str) -> HasInformationSets:
    """``game`` seen as a game with information sets that ``purpose`` can walk: two players,
    zero-sum, a tree small enough; else one error saying what is missing."""
    hidden = require(game, HasInformationSets, purpose)
    if len(game.players) != 2 or not game.zero_sum:
        raise UnsupportedGameError(
            f"{purpose} needs a two-player zero-sum game; '{game.name}' is not"
        )
    if not game.searchable_to_end:
        raise GameTooLargeError(
            f"'{game.name}' is too large for {purpose}, which walks the whole game tree; "
            "a sampling solver (mccfr-outcome) can learn a strategy for it"
        )
    return hidden


def game_tree(game: Game[Any, Any], most_nodes: int = MOST_NODES) -> GameTree:
    """Walk ``game``'s whole tree, breadth first, into a :class:`GameTree`; a
    :class:`GameTooLargeError` past ``most_nodes`` nodes."""
    hidden = require_solvable(game, "an exact solver")
    players = game.players
    states: list[Any] = [game.initial_state()]
    kind, mover, infoset, first, count = [], [], [], [], []
    prob, payoff = [1.0], []
    sets: dict[tuple[int, str], int] = {}
    owner: list[int] = []
    keys: list[str] = []
    actions: list[tuple[str, ...]] = []
    for state in states:  # grows as it goes: breadth first
        if len(states) > most_nodes:
            raise GameTooLargeError(
                f"'{game.name}' has more than {most_nodes:,} states; an exact solver walks them "
                "all (a sampling solver, mccfr-outcome, can learn a strategy for it)"
            )
        first.append(len(states))
        if game.is_terminal(state):
            kind.append(kernel.TERMINAL)
            mover.append(-1)
            infoset.append(-1)
            count.append(0)
            payoff.append(game.payoffs(state))
            continue
        payoff.append((0.0, 0.0))
        who = game.to_move(state)
        if who == CHANCE:
            outcomes = checked_outcomes(game, state)
            kind.append(kernel.CHANCE)
            mover.append(-1)
            infoset.append(-1)
            count.append(len(outcomes))
            for outcome, chance in outcomes:
                states.append(game.result(state, outcome))
                prob.append(chance)
            continue
        seat = players.index(who)
        moves = list(game.actions(state))
        key = hidden.information_key(state, who)
        number = sets.setdefault((seat, key), len(keys))
        if number == len(keys):
            owner.append(seat)
            keys.append(key)
            actions.append(tuple(game.format_action(state, move) for move in moves))
        kind.append(kernel.DECISION)
        mover.append(seat)
        infoset.append(number)
        count.append(len(moves))
        for move in moves:
            states.append(game.result(state, move))
            prob.append(1.0)
    return GameTree(
        game,
        np.array(kind, dtype=np.int8),
        np.array(mover, dtype=np.int8),
        np.array(infoset, dtype=np.int32),
        np.array(first, dtype=np.int32),
        np.array(count, dtype=np.int32),
        np.array(prob, dtype=np.float64),
        np.array(payoff, dtype=np.float64).reshape(-1, 2),
        np.array(owner, dtype=np.int8),
        tuple(keys),
        tuple(actions),
    )


class CfrSolver:
    """CFR or CFR+ (``variant``) on ``game``'s whole tree, from uniform strategies or from
    a saved strategy's tables (``resume``). :meth:`run` adds iterations; :meth:`average` is
    the average strategy, the one that converges to an equilibrium."""

    def __init__(self, game: Game[Any, Any], variant: str = "cfr+", resume: Strategy | None = None):
        if variant not in SOLVERS:
            known = ", ".join(SOLVERS)
            raise UnsupportedGameError(f"unknown solver {variant!r} (solvers: {known})")
        self.variant = variant
        self.tree = tree = game_tree(game)
        sets, widest = len(tree.keys), tree.widest
        self.regret = np.zeros((sets, widest))
        self.total = np.zeros((sets, widest))
        self.sigma = np.zeros((sets, widest))
        self.actions = tree.action_counts()
        self.iterations = 0
        self.seconds = 0.0
        self._reach = np.zeros((tree.nodes, 3))
        self._value = np.zeros(tree.nodes)
        if resume is not None:
            self._resume(resume)
        for player in (0, 1):
            kernel.match_regrets(self.regret, self.actions, tree.owner, player, False, self.sigma)

    def run(self, iterations: int, stop: Callable[[], bool] | None = None) -> int:
        """Run up to ``iterations`` more iterations, fewer where ``stop()`` says so between
        two; returns how many ran."""
        tree, plus = self.tree, self.variant == "cfr+"
        done = 0
        while done < iterations and not (stop and stop()):
            weight = float(self.iterations + 1) if plus else 1.0
            for player in (0, 1):
                kernel.cfr_pass(
                    *tree.shape,
                    self.sigma,
                    self.regret,
                    self.total,
                    self._reach,
                    self._value,
                    player,
                    weight,
                )
                kernel.match_regrets(
                    self.regret, self.actions, tree.owner, player, plus, self.sigma
                )
            self.iterations += 1
            done += 1
        return done

    def average(self) -> NDArray[np.float64]:
        """The average strategy, a row per information set (uniform where never reached)."""
        average = np.zeros_like(self.total)
        for info, width in enumerate(self.actions):
            weights = self.total[info, :width]
            mass = weights.sum()
            average[info, :width] = weights / mass if mass > 0 else 1.0 / width
        return average

    def strategy(self, exploitable: float | None = None, value: float | None = None) -> Strategy:
        """The average strategy as a :class:`Strategy`, with the tables to go on from."""
        tree = self.tree
        players = tree.game.players
        table = strategy_table(tree, self.average())
        regret: dict[str, dict[str, list[float]]] = {player: {} for player in players}
        total: dict[str, dict[str, list[float]]] = {player: {} for player in players}
        for info, key in enumerate(tree.keys):
            player, width = players[tree.owner[info]], self.actions[info]
            regret[player][key] = self.regret[info, :width].tolist()
            total[player][key] = self.total[info, :width].tolist()
        return Strategy(
            game_spec(tree.game),
            table,
            self.variant,
            self.iterations,
            self.seconds,
            exploitable,
            value,
            regret,
            total,
        )

    def _resume(self, saved: Strategy) -> None:
        """Take the regrets and totals of a strategy this solver saved."""
        if saved.solver != self.variant or not saved.regret:
            tables = "" if saved.regret else " without its tables"
            raise StrategyError(
                f"the strategy was made by {saved.solver or 'no solver'!r}{tables}; "
                f"{self.variant} cannot go on from it"
            )
        players = self.tree.game.players
        for info, key in enumerate(self.tree.keys):
            player, width = players[self.tree.owner[info]], self.actions[info]
            regret = saved.regret.get(player, {}).get(key)
            total = saved.total.get(player, {}).get(key)
            if regret is None or total is None or len(regret) != width or len(total) != width:
                raise StrategyError(f"the strategy's tables miss {player}'s set {key!r}")
            self.regret[info, :width] = regret
            self.total[info, :width] = total
        self.iterations, self.seconds = saved.iterations, saved.seconds


def strategy_table(tree: GameTree, rows: NDArray[np.float64]) -> Table:
    """The strategy whose information set ``i`` plays ``rows[i]``, by player, key and action."""
    players = tree.game.players
    table: Table = {player: {} for player in players}
    for info, key in enumerate(tree.keys):
        names = tree.actions[info]
        table[players[tree.owner[info]]][key] = {
            name: float(rows[info, k]) for k, name in enumerate(names)
        }
    return table


def strategy_rows(tree: GameTree, strategy: Strategy) -> NDArray[np.float64]:
    """The strategy as a row of probabilities per information set of ``tree``, uniform at a
    set it says nothing of (a sampling solver's unreached sets: :func:`missing_sets` counts
    them); a :class:`StrategyError` where it names an action a set does not have."""
    players = tree.game.players
    rows = np.zeros((len(tree.keys), tree.widest))
    for info, key in enumerate(tree.keys):
        player, names = players[tree.owner[info]], tree.actions[info]
        shares = strategy.probabilities(player, key)
        if shares is None:
            rows[info, : len(names)] = 1.0 / len(names)
            continue
        unknown = set(shares) - set(names)
        if unknown:
            raise StrategyError(
                f"the strategy plays {sorted(unknown)[0]!r} at {player}'s set {key!r}, where "
                f"the actions are {', '.join(names)}"
            )
        rows[info, : len(names)] = [shares.get(name, 0.0) for name in names]
    return rows


def missing_sets(tree: GameTree, strategy: Strategy) -> int:
    """How many of ``tree``'s information sets ``strategy`` says nothing of."""
    players = tree.game.players
    return sum(
        strategy.probabilities(players[tree.owner[info]], key) is None
        for info, key in enumerate(tree.keys)
    )


@dataclass(frozen=True)
class Exploitability:
    """How much best responses win against a strategy profile: each player's value when
    everyone plays it (``values``), each player's best response value against the others
    (``best``), NashConv (their differences summed) and exploitability (NashConv / 2)."""

    values: tuple[float, float]
    best: tuple[float, float]

    @property
    def nash_conv(self) -> float:
        return sum(self.best) - sum(self.values)

    @property
    def exploitability(self) -> float:
        return self.nash_conv / 2


def exploitability(tree: GameTree, rows: NDArray[np.float64]) -> Exploitability:
    """The exploitability of the profile playing ``rows[i]`` at information set ``i``
    (OpenSpiel's ``exploitability``: NashConv / the number of players)."""
    nodes, sets = tree.nodes, len(tree.keys)
    value = np.zeros(nodes)
    values = tuple(kernel.profile_values(*tree.shape, rows, value, p) for p in (0, 1))
    reach, level = np.zeros((nodes, 1)), np.zeros(nodes, dtype=np.int32)
    info_level, choice = np.zeros(sets, dtype=np.int32), np.zeros(sets, dtype=np.int32)
    gain = np.zeros((sets, tree.widest))
    counts = tree.action_counts()
    best = tuple(
        kernel.best_response(
            *tree.shape, rows, counts, p, reach, level, info_level, gain, choice, value
        )
        for p in (0, 1)
    )
    return Exploitability((values[0], values[1]), (best[0], best[1]))
