"""Root-move analysis: the value of every legal move of a position, by any search.

>>> from plies.registry import make_game
>>> from plies.search import alphabeta
>>> game = make_game("tictactoe")
>>> state = game.parse_position("X../.O./...")
>>> moves = analyse_moves(game, state, alphabeta, max_player="X")
>>> len(moves), {m.value for m in moves}
(7, {0})
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from plies.game import CHANCE, Game
from plies.search.result import SearchResult


@dataclass(frozen=True)
class MoveValue:
    """A root move, the value of the position it leads to (from MAX's point of view) and the
    nodes its search visited."""

    action: Any
    value: float
    nodes: int


def analyse_moves(
    game: Game[Any, Any],
    state: Any,
    search: Callable[..., SearchResult[Any]],
    *,
    max_player: str,
    **options: Any,
) -> list[MoveValue]:
    """Search the position after each legal move of ``state`` with ``search`` (a textbook
    search taking ``max_player`` and ``options``), in the order of ACTIONS; none when the game
    is over."""
    if game.is_terminal(state):
        return []
    moves = []
    for action in game.actions(state):
        result = search(game, game.result(state, action), max_player=max_player, **options)
        moves.append(MoveValue(action, result.value, result.stats.nodes))
    return moves


def best_moves(
    moves: Sequence[MoveValue], max_player: str, game: Game[Any, Any], state: Any
) -> list[MoveValue]:
    """The moves best for the player to move in ``state``: the highest values when it is MAX
    (``max_player``), the lowest otherwise."""
    if not moves:
        return []
    pick = max if game.to_move(state) == max_player else min
    best = pick(move.value for move in moves)
    return [move for move in moves if move.value == best]


def estimate_tree_size(
    game: Game[Any, Any],
    state: Any,
    depth: int | None = None,
    samples: int = 256,
    seed: int = 0,
) -> float:
    """The number of nodes of the game tree below ``state`` (itself included), to ``depth``
    moves (chance nodes do not count, as in expectiminimax; None: to the end of the game),
    estimated as Knuth does for backtrack trees ("Estimating the efficiency of backtrack
    programs", Math. Comp. 29, 1975): along a random path, the running product of the
    branching factors is an unbiased estimate of the nodes at each depth; their sum, averaged
    over ``samples`` paths. Chance nodes branch like the others (all outcomes are searched).

    >>> from plies.registry import make_game
    >>> game = make_game("tictactoe")
    >>> 3e5 < estimate_tree_size(game, game.initial_state(), samples=2000) < 8e5  # 549,946
    True
    >>> estimate_tree_size(game, game.initial_state(), depth=2)  # 1 + 9 + 9 * 8
    82.0
    """
    rng = random.Random(seed)
    total = 0.0
    for _ in range(samples):
        node, width, size, moves = state, 1.0, 1.0, 0
        while not game.is_terminal(node) and width < 1e30 and (depth is None or moves < depth):
            moves += game.to_move(node) != CHANCE
            actions = game.actions(node)
            width *= len(actions)
            size += width
            node = game.result(node, rng.choice(actions))
        total += size
    return total / samples
