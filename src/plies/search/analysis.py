"""Root-move analysis: the value of every legal move of a position, by any search.

>>> from plies.games import make_game
>>> from plies.search import alphabeta
>>> game = make_game("tictactoe")
>>> state = game.parse_position("X../.O./...")
>>> moves = analyse_moves(game, state, alphabeta, max_player="X")
>>> len(moves), {m.value for m in moves}
(7, {0})
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from plies.game import Game
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
