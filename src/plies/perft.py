"""Perft: the number of move paths of exactly ``depth`` plies, the exactness check of rule sets.

A game that finishes before ``depth`` contributes nothing, unless the game's own published
convention says otherwise; such a game (and any game with a compiled counter) provides a
``perft(state, depth)`` method, which :func:`perft` prefers to the generic walk.

>>> from plies.games.tictactoe.rules import TicTacToe
>>> game = TicTacToe()
>>> [perft(game, game.initial_state(), d) for d in range(5)]
[1, 9, 72, 504, 3024]
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from plies.capabilities import HasPerft
from plies.errors import SpecError
from plies.game import Game


def generic_perft(game: Game[Any, Any], state: Any, depth: int) -> int:
    """Move paths of exactly ``depth`` plies through the formal interface; the last ply is
    counted in bulk (the number of legal actions), not played."""
    if depth == 0:
        return 1
    if game.is_terminal(state):
        return 0
    actions = game.actions(state)
    if depth == 1:
        return len(actions)
    return sum(generic_perft(game, game.result(state, a), depth - 1) for a in actions)


def perft(game: Game[Any, Any], state: Any, depth: int) -> int:
    """Perft of ``state`` to ``depth``, by the game's own counter when it has one."""
    if depth < 0:
        raise SpecError(f"perft depth must be at least 0, got {depth}")
    if isinstance(game, HasPerft):
        return game.perft(state, depth)
    return generic_perft(game, state, depth)


def divide(game: Game[Any, Any], state: Any, depth: int) -> Iterator[tuple[Any, int]]:
    """Perft split by first move: ``(action, count)`` for each legal action (depth >= 1),
    yielded one at a time so an interrupted count keeps the moves already done."""
    if depth < 1:
        raise SpecError(f"perft --divide needs a depth of at least 1, got {depth}")
    if game.is_terminal(state):
        return
    for action in game.actions(state):
        yield action, perft(game, game.result(state, action), depth - 1)
