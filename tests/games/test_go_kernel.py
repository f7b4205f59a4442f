"""The compiled Go rules behind playouts and the compiled tree (plies.games.go.kernel), checked
against the game's Python rules on random positions."""

from __future__ import annotations

import numpy as np

from plies.games.go import kernel
from plies.games.go.rules import COLOURS, PASS, Go, GoState
from plies.testing import random_positions

GAME = Go(size=7)


def _work() -> tuple[np.ndarray, np.ndarray]:
    points = GAME.size * GAME.size
    return np.zeros(points + 1, np.int64), np.zeros(points, np.int64)


def _board(state: GoState) -> np.ndarray:
    return np.frombuffer(state.board, np.uint8).copy()


def _positions() -> list[GoState]:
    return random_positions(GAME, 60, seed=3)


def test_liberties_agree_with_the_rules() -> None:
    marks, stack = _work()
    for state in _positions():
        board = _board(state)
        for point in np.flatnonzero(board):
            liberties = GAME._group(state.board, int(point))[1]
            counted = kernel.liberties(board, GAME.neighbour_table, point, marks, stack, 99)
            assert counted == len(liberties)


def test_playable_points_are_the_legal_moves_but_own_eyes() -> None:
    """Where the compiled rules let the mover play: the game's legal points (superko aside,
    which these random positions rarely reach) less the mover's single-point eyes."""
    marks, stack = _work()
    for state in _positions():
        board, mover = _board(state), COLOURS[state.to_move]
        legal = set(GAME.actions(state)) - {PASS}
        for point in np.flatnonzero(board == 0):
            around = [board[q] for q in GAME.neighbours[point]]
            eye = all(stone == mover for stone in around)
            got = kernel.playable(board, GAME.neighbour_table, point, mover, -1, marks, stack)
            if got != (point in legal and not eye):  # only a superko the kernel cannot see
                reason = GAME._play(state, int(point))[0]
                assert got and reason is not None and reason.startswith("positional superko")


def test_placing_a_stone_captures_as_the_rules_do() -> None:
    marks, stack = _work()
    empties, where = np.zeros(49, np.int64), np.zeros(49, np.int64)
    for state in _positions()[:30]:
        for point in [a for a in GAME.actions(state) if a != PASS][:10]:
            board = _board(state)
            count = kernel.setup(board, empties, where)
            args = (marks, stack, empties, where, count)
            count, _ = kernel.place(
                board, GAME.neighbour_table, point, COLOURS[state.to_move], *args
            )
            assert bytes(board) == GAME.result(state, point).board
            assert sorted(empties[:count]) == list(np.flatnonzero(board == 0))
