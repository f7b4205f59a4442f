"""The compiled loops of counterfactual regret minimisation over a walked game tree
(:class:`plies.solvers.cfr.GameTree`): one player's CFR pass, regret matching, the value of a
strategy profile and a best response. They import no game.

The tree is stored breadth first: a node's children are consecutive (``first[n]`` to
``first[n] + count[n] - 1``) and come after it, so one forward sweep carries reach
probabilities down and one backward sweep carries values up. ``kind`` is :data:`TERMINAL`,
:data:`CHANCE` or :data:`DECISION`; ``prob`` is the chance probability of the edge into a
node (1 elsewhere); ``payoff[n, p]`` is player p's utility at a terminal node; a decision
node's ``k``-th child follows its information set's ``k``-th action.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from plies.compiled import compiled

TERMINAL, CHANCE, DECISION = 0, 1, 2

Ints = NDArray[np.int32]
Bytes = NDArray[np.int8]
Floats = NDArray[np.float64]


@compiled
def expected(
    node: int,
    kind: Bytes,
    infoset: Ints,
    first: Ints,
    count: Ints,
    prob: Floats,
    sigma: Floats,
    value: Floats,
) -> float:
    """A chance or decision node's value: its children's, weighted by chance's probabilities
    or the mover's strategy in ``sigma``."""
    start, here = first[node], 0.0
    for k in range(count[node]):
        share = prob[start + k] if kind[node] == CHANCE else sigma[infoset[node], k]
        here += share * value[start + k]
    return here


@compiled
def carry_reach(
    kind: Bytes,
    mover: Bytes,
    infoset: Ints,
    first: Ints,
    count: Ints,
    prob: Floats,
    sigma: Floats,
    reach: Floats,
) -> None:
    """``reach[n]``: the probability that each player's (columns 0 and 1) and chance's
    (column 2) moves lead to node ``n`` under the profile ``sigma``."""
    reach[0, 0] = reach[0, 1] = reach[0, 2] = 1.0
    for node in range(kind.shape[0]):
        if kind[node] == TERMINAL:
            continue
        for k in range(count[node]):
            child = first[node] + k
            reach[child, 0] = reach[node, 0]
            reach[child, 1] = reach[node, 1]
            reach[child, 2] = reach[node, 2]
            if kind[node] == CHANCE:
                reach[child, 2] *= prob[child]
            else:
                reach[child, mover[node]] *= sigma[infoset[node], k]


@compiled
def cfr_pass(
    kind: Bytes,
    mover: Bytes,
    infoset: Ints,
    first: Ints,
    count: Ints,
    prob: Floats,
    payoff: Floats,
    sigma: Floats,
    regret: Floats,
    total: Floats,
    reach: Floats,
    value: Floats,
    player: int,
    weight: float,
) -> float:
    """One CFR pass for ``player`` (Zinkevich et al. 2007; OpenSpiel's
    ``_compute_counterfactual_regret_for_player`` with alternating updates): at each of the
    player's decision nodes, add the counterfactual regret of every action (the others' and
    chance's reach times the action's value less the node's) to ``regret``, and ``weight``
    times the player's own reach times the current strategy to ``total``. Returns the value
    of ``sigma`` for ``player``."""
    carry_reach(kind, mover, infoset, first, count, prob, sigma, reach)
    other = 1 - player
    for node in range(kind.shape[0] - 1, -1, -1):
        if kind[node] == TERMINAL:
            value[node] = payoff[node, player]
            continue
        start, info = first[node], infoset[node]
        here = expected(node, kind, infoset, first, count, prob, sigma, value)
        value[node] = here
        if kind[node] == DECISION and mover[node] == player:
            counterfactual = reach[node, other] * reach[node, 2]
            own = reach[node, player] * weight
            for k in range(count[node]):
                regret[info, k] += counterfactual * (value[start + k] - here)
                total[info, k] += own * sigma[info, k]
    return float(value[0])


@compiled
def match_regrets(
    regret: Floats, actions: Ints, owner: Bytes, player: int, plus: bool, sigma: Floats
) -> None:
    """Regret matching (Hart and Mas-Colell 2000) at ``player``'s information sets: each
    action in proportion to its positive regret, uniform when none is positive. With
    ``plus`` (CFR+, Tammelin 2014) negative regrets are first reset to zero."""
    for info in range(regret.shape[0]):
        if owner[info] != player:
            continue
        positive = 0.0
        for k in range(actions[info]):
            if plus and regret[info, k] < 0.0:
                regret[info, k] = 0.0
            if regret[info, k] > 0.0:
                positive += regret[info, k]
        for k in range(actions[info]):
            if positive > 0.0:
                sigma[info, k] = max(regret[info, k], 0.0) / positive
            else:
                sigma[info, k] = 1.0 / actions[info]


@compiled
def profile_values(
    kind: Bytes,
    mover: Bytes,
    infoset: Ints,
    first: Ints,
    count: Ints,
    prob: Floats,
    payoff: Floats,
    sigma: Floats,
    value: Floats,
    player: int,
) -> float:
    """The expected utility of ``player`` when everyone plays ``sigma``."""
    for node in range(kind.shape[0] - 1, -1, -1):
        if kind[node] == TERMINAL:
            value[node] = payoff[node, player]
            continue
        value[node] = expected(node, kind, infoset, first, count, prob, sigma, value)
    return float(value[0])


@compiled
def best_response(
    kind: Bytes,
    mover: Bytes,
    infoset: Ints,
    first: Ints,
    count: Ints,
    prob: Floats,
    payoff: Floats,
    sigma: Floats,
    actions: Ints,
    player: int,
    reach: Floats,
    level: Ints,
    info_level: Ints,
    gain: Floats,
    choice: Ints,
    value: Floats,
) -> float:
    """The value for ``player`` of a best response to the others' strategies in ``sigma``,
    its action at each of the player's information sets left in ``choice``.

    At an information set I the best response takes the action a that maximises
    sum over h in I of pi_-i(h) v(h a), where pi_-i is the others' and chance's reach and v
    the value below with the best response played (Johanson et al. 2011, "Accelerating best
    response calculation in large extensive games"). With perfect recall every state of I
    follows the same number of the player's own moves (its ``level``), so the sets are
    decided deepest level first, one backward sweep a level."""
    reach[0, 0] = 1.0
    level[0] = 0
    for info in range(choice.shape[0]):
        choice[info] = -1
        info_level[info] = -1
    for node in range(kind.shape[0]):
        if kind[node] == TERMINAL:
            continue
        own = kind[node] == DECISION and mover[node] == player
        for k in range(count[node]):
            child = first[node] + k
            level[child] = level[node] + (1 if own else 0)
            reach[child, 0] = reach[node, 0]
            if kind[node] == CHANCE:
                reach[child, 0] *= prob[child]
            elif not own:
                reach[child, 0] *= sigma[infoset[node], k]
            if own:
                info_level[infoset[node]] = level[node]
    deepest = 0
    for node in range(kind.shape[0]):
        deepest = max(deepest, level[node])
    for depth in range(deepest, -2, -1):
        for info in range(gain.shape[0]):
            for k in range(gain.shape[1]):
                gain[info, k] = 0.0
        for node in range(kind.shape[0] - 1, -1, -1):
            if kind[node] == TERMINAL:
                value[node] = payoff[node, player]
                continue
            start, info = first[node], infoset[node]
            if kind[node] == DECISION and mover[node] == player:
                if choice[info] >= 0:
                    value[node] = value[start + choice[info]]
                    continue
                if level[node] == depth:
                    for k in range(count[node]):
                        gain[info, k] += reach[node, 0] * value[start + k]
                value[node] = 0.0  # not needed until its set is decided
                continue
            value[node] = expected(node, kind, infoset, first, count, prob, sigma, value)
        for info in range(choice.shape[0]):
            if choice[info] < 0 and info_level[info] == depth:
                best = 0
                for k in range(1, actions[info]):
                    if gain[info, k] > gain[info, best]:
                        best = k
                choice[info] = best
    return float(value[0])
