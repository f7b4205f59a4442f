"""CFR and best responses as the papers write them: recursive walks of the game through its
six functions and :class:`~plies.capabilities.HasInformationSets`, tables in dictionaries.
Slow and obviously right, they are the oracle the compiled solver
(:mod:`plies.solvers.cfr`) is checked against, as the textbook searches are for the engine.

:func:`cfr_iteration` is OpenSpiel's ``_compute_counterfactual_regret_for_player`` (Lanctot
et al., "OpenSpiel", 2019; the algorithm of Zinkevich et al. 2007, alternating updates):

>>> from plies.registry import make_game
>>> game = make_game("kuhn")
>>> tables = Tables()
>>> for iteration in range(1, 11):
...     cfr_iteration(game, tables, iteration)
>>> round(exploitability(game, tables.average()), 6)
0.068699
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from plies.capabilities import HasInformationSets, require
from plies.game import CHANCE, Game

Policy = Callable[[str, str, Sequence[str]], dict[str, float]]
"""A strategy as a function: (player, information key, actions) -> probability per action."""


@dataclass
class Tables:
    """Cumulative regrets and strategy weights per (player, key), by action notation."""

    regret: dict[tuple[str, str], dict[str, float]] = field(default_factory=dict)
    total: dict[tuple[str, str], dict[str, float]] = field(default_factory=dict)

    def current(self, player: str, key: str, actions: Sequence[str]) -> dict[str, float]:
        """Regret matching: each action in proportion to its positive regret, else uniform."""
        regret = self.regret.get((player, key), {})
        positive = {a: max(regret.get(a, 0.0), 0.0) for a in actions}
        mass = sum(positive.values())
        if mass <= 0:
            return {a: 1 / len(actions) for a in actions}
        return {a: share / mass for a, share in positive.items()}

    def average(self) -> Policy:
        """The average strategy (uniform where a set has no weight)."""

        def policy(player: str, key: str, actions: Sequence[str]) -> dict[str, float]:
            total = self.total.get((player, key), {})
            mass = sum(total.get(a, 0.0) for a in actions)
            if mass <= 0:
                return {a: 1 / len(actions) for a in actions}
            return {a: total.get(a, 0.0) / mass for a in actions}

        return policy


def cfr_iteration(game: Game[Any, Any], tables: Tables, iteration: int, plus: bool = False) -> None:
    """One iteration of CFR (or CFR+ with ``plus``: negative regrets reset to zero after each
    player's update, the average weighted by ``iteration``), updating each player in turn."""
    for player in game.players:
        frozen = Tables({k: dict(v) for k, v in tables.regret.items()}, tables.total)
        _regrets(game, game.initial_state(), player, {p: 1.0 for p in game.players}, 1.0,
                 frozen, tables, iteration if plus else 1)  # fmt: skip
        if plus:
            for regret in tables.regret.values():
                for action, value in regret.items():
                    regret[action] = max(value, 0.0)


def _regrets(
    game: Game[Any, Any],
    state: Any,
    player: str,
    reach: dict[str, float],
    chance: float,
    policy: Tables,
    tables: Tables,
    weight: int,
) -> dict[str, float]:
    """The utilities of ``state`` under ``policy``'s current strategies; at ``player``'s
    decisions, the counterfactual regrets and weighted strategies added to ``tables``."""
    if game.is_terminal(state):
        return dict(zip(game.players, game.payoffs(state), strict=True))
    mover = game.to_move(state)
    value: dict[str, float] = defaultdict(float)
    if mover == CHANCE:
        for outcome, probability in game.chance_outcomes(state):  # type: ignore[attr-defined]
            below = _regrets(game, game.result(state, outcome), player, reach,
                             chance * probability, policy, tables, weight)  # fmt: skip
            for p in game.players:
                value[p] += probability * below[p]
        return value
    hidden = require(game, HasInformationSets, "CFR")
    key = hidden.information_key(state, mover)
    moves = list(game.actions(state))
    names = [game.format_action(state, move) for move in moves]
    sigma = policy.current(mover, key, names)
    children = {}
    for move, name in zip(moves, names, strict=True):
        after = dict(reach, **{mover: reach[mover] * sigma[name]})
        children[name] = _regrets(game, game.result(state, move), player, after, chance,
                                  policy, tables, weight)  # fmt: skip
        for p in game.players:
            value[p] += sigma[name] * children[name][p]
    if mover == player:
        others = chance
        for p in game.players:
            others *= reach[p] if p != mover else 1.0
        regret = tables.regret.setdefault((mover, key), dict.fromkeys(names, 0.0))
        total = tables.total.setdefault((mover, key), dict.fromkeys(names, 0.0))
        for name in names:
            regret[name] += others * (children[name][mover] - value[mover])
            total[name] += weight * reach[mover] * sigma[name]
    return value


def exploitability(game: Game[Any, Any], policy: Policy) -> float:
    """NashConv / 2 of ``policy`` played by both players of a two-player game, each best
    response found as OpenSpiel's ``BestResponsePolicy`` finds it."""
    values = [_expected(game, game.initial_state(), policy, None, {}, {})[p] for p in game.players]
    best = [best_response_value(game, policy, p) for p in game.players]
    return (sum(best) - sum(values)) / 2


def best_response_value(game: Game[Any, Any], policy: Policy, player: str) -> float:
    """The value for ``player`` of a best response to the others playing ``policy``: at each
    information set the action maximising the others' and chance's reach times its value,
    summed over the set's states (decided lazily, each set once)."""
    sets: dict[str, list[tuple[Any, float]]] = defaultdict(list)
    _collect(game, game.initial_state(), policy, player, 1.0, sets)
    choices: dict[str, str] = {}
    return _expected(game, game.initial_state(), policy, player, sets, choices)[player]


def _collect(
    game: Game[Any, Any],
    state: Any,
    policy: Policy,
    player: str,
    reach: float,
    sets: dict[str, list[tuple[Any, float]]],
) -> None:
    """Every state of ``player``'s information sets with the others' and chance's reach."""
    if game.is_terminal(state):
        return
    mover = game.to_move(state)
    for move, share in _shares(game, state, policy).items():
        if mover == player:
            share = 1.0
        _collect(game, game.result(state, move), policy, player, reach * share, sets)
    if mover == player:
        key = require(game, HasInformationSets, "a best response").information_key(state, mover)
        sets[key].append((state, reach))


def _expected(
    game: Game[Any, Any],
    state: Any,
    policy: Policy,
    player: str | None,
    sets: dict[str, list[tuple[Any, float]]],
    choices: dict[str, str],
) -> dict[str, float]:
    """Each player's expected utility of ``state``, everyone playing ``policy`` except
    ``player`` (if any), who plays the best response."""
    if game.is_terminal(state):
        return dict(zip(game.players, game.payoffs(state), strict=True))
    value: dict[str, float] = defaultdict(float)
    for move, share in _shares(game, state, policy).items():
        if game.to_move(state) == player:
            share = 1.0 if move == _choice(game, state, policy, player, sets, choices) else 0.0
        if share:
            below = _expected(game, game.result(state, move), policy, player, sets, choices)
            for p in game.players:
                value[p] += share * below[p]
    return value


def _choice(
    game: Game[Any, Any],
    state: Any,
    policy: Policy,
    player: str,
    sets: dict[str, list[tuple[Any, float]]],
    choices: dict[str, str],
) -> Any:
    """The best response's action at ``state``'s information set (the first best)."""
    key = require(game, HasInformationSets, "a best response").information_key(state, player)
    if key not in choices:
        moves = list(game.actions(state))
        gains = [
            sum(
                reach * _expected(game, game.result(h, move), policy, player, sets, choices)[player]
                for h, reach in sets[key]
            )
            for move in moves
        ]
        choices[key] = game.format_action(state, moves[gains.index(max(gains))])
    wanted = choices[key]
    return next(m for m in game.actions(state) if game.format_action(state, m) == wanted)


def _shares(game: Game[Any, Any], state: Any, policy: Policy) -> dict[Any, float]:
    """Each action's probability at ``state``: chance's, or the mover's under ``policy``."""
    mover = game.to_move(state)
    if mover == CHANCE:
        return dict(game.chance_outcomes(state))  # type: ignore[attr-defined]
    moves = list(game.actions(state))
    names = [game.format_action(state, move) for move in moves]
    key = require(game, HasInformationSets, "a strategy").information_key(state, mover)
    sigma = policy(mover, key, names)
    return {move: sigma[name] for move, name in zip(moves, names, strict=True)}
