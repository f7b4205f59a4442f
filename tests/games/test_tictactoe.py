"""Tic-tac-toe against the published counts and an independent brute-force solver."""

from __future__ import annotations

import re
from collections import Counter
from functools import cache
from itertools import product

import pytest

from plies.errors import IllegalMoveError, InvalidPositionError, SpecError
from plies.game import Scoring
from plies.games.tictactoe.rules import Board, TicTacToe
from plies.search import alphabeta, minimax


def test_game_tree_counts() -> None:
    """Nodes per depth and finished games by result, as published for 3x3."""
    game = TicTacToe()
    per_depth: Counter[int] = Counter()
    results: Counter[str | None] = Counter()

    def walk(state: Board, depth: int) -> None:
        per_depth[depth] += 1
        if game.is_terminal(state):
            results[game.winner(state)] += 1
            return
        for action in game.actions(state):
            walk(game.result(state, action), depth + 1)

    walk(game.initial_state(), 0)
    assert [per_depth[d] for d in range(10)] == [
        1,
        9,
        72,
        504,
        3024,
        15120,
        54720,
        148176,
        200448,
        127872,
    ]
    assert sum(results.values()) == 255_168
    assert (results["X"], results["O"], results[None]) == (131_184, 77_904, 46_080)


def _reachable(game: TicTacToe) -> set[Board]:
    """Every state reachable from the empty board."""
    seen = {game.initial_state()}
    frontier = list(seen)
    while frontier:
        state = frontier.pop()
        for action in game.actions(state):
            child = game.result(state, action)
            if child not in seen:
                seen.add(child)
                frontier.append(child)
    return seen


def test_reachable_positions() -> None:
    assert len(_reachable(TicTacToe())) == 5478


def _brute_force_value(m: int, n: int, k: int) -> int:
    """Value for X of the empty m x n board, k in a row, written from the rules alone."""
    cells = [(r, c) for r in range(m) for c in range(n)]

    def won(board: tuple[str, ...], mark: str) -> bool:
        for (r, c), (dr, dc) in product(cells, ((0, 1), (1, 0), (1, 1), (1, -1))):
            run = [(r + dr * i, c + dc * i) for i in range(k)]
            if all(0 <= rr < m and 0 <= cc < n and board[rr * n + cc] == mark for rr, cc in run):
                return True
        return False

    @cache
    def value(board: tuple[str, ...], mover: str) -> int:
        other = "O" if mover == "X" else "X"
        if won(board, other):
            return 1 if other == "X" else -1
        if " " not in board:
            return 0
        children = [
            value((*board[:i], mover, *board[i + 1 :]), other)
            for i, cell in enumerate(board)
            if cell == " "
        ]
        return max(children) if mover == "X" else min(children)

    return value((" ",) * (m * n), "X")


@pytest.mark.parametrize(
    ("m", "n", "k"), [(3, 3, 3), (2, 2, 2), (3, 3, 2), (2, 4, 3), (3, 2, 3), (1, 5, 3), (2, 3, 3)]
)
def test_values_match_brute_force(m: int, n: int, k: int) -> None:
    game = TicTacToe(m, n, k)
    expected = _brute_force_value(m, n, k)
    assert alphabeta(game, game.initial_state()).value == expected
    if m * n <= 9:
        assert minimax(game, game.initial_state()).value == expected


def test_payoff_scoring() -> None:
    game = TicTacToe(scoring=Scoring.PAYOFF)
    won = game.parse_position("XXX/OO./...")
    assert game.payoffs(won) == (1, 0)
    drawn = game.parse_position("XOX/XOO/OXX")
    assert game.payoffs(drawn) == (0.5, 0.5)
    assert alphabeta(game, game.initial_state()).value == 0.5
    assert 0 < game.evaluate(game.parse_position("XO./.../..."), "O") < 1


def test_notation() -> None:
    game = TicTacToe(4, 5, 3)
    state = game.initial_state()
    for action in game.actions(state):
        assert game.parse_action(state, str(action + 1)) == action  # cell numbers too
    state = game.result(state, 7)
    assert game.parse_position(game.format_position(state)) == state
    assert game.format_action(state, 7) == "c2"


def test_display_has_coordinates() -> None:
    game = TicTacToe()
    text = game.display(game.parse_position("X../.O./..."))
    assert text.splitlines() == ["   a b c", " 1 X . .", " 2 . O .", " 3 . . ."]


@pytest.mark.parametrize(
    ("position", "move", "message"),
    [
        ("X../.../...", "a1", "taken"),
        ("X../.../...", "d1", "not a square"),
        ("X../.../...", "10", "not a square"),
        ("X../.../...", "", "not a square"),
        ("XXX/OO./...", "c2", "game is over"),
    ],
)
def test_illegal_moves(position: str, move: str, message: str) -> None:
    game = TicTacToe()
    with pytest.raises(IllegalMoveError, match=re.escape(message)):
        game.parse_action(game.parse_position(position), move)


@pytest.mark.parametrize(
    ("position", "message"),
    [
        ("XX", "has 2 squares"),
        ("XXX/.../...", "X moves first"),
        ("OO./.../...", "X moves first"),
        ("XXX/OOO/X..", "both X and O"),
        ("XXX/OO./O..", "after the win"),
        ("OOO/XX./XX.", "after the win"),
        ("X?./.../...", "'?'"),
    ],
)
def test_invalid_positions(position: str, message: str) -> None:
    with pytest.raises(InvalidPositionError, match=re.escape(message)):
        TicTacToe().parse_position(position)


def test_bad_sizes() -> None:
    with pytest.raises(SpecError):
        TicTacToe(3, 3, 4)
    with pytest.raises(SpecError):
        TicTacToe(0, 3, 1)


def test_evaluation_is_inside_the_utilities() -> None:
    game = TicTacToe()
    state = game.parse_position("X../.O./..X")
    assert -1 < game.evaluate(state, "X") < 1
    assert game.evaluate(state, "X") == pytest.approx(-game.evaluate(state, "O"))


def test_hash_keys_are_distinct_over_every_position() -> None:
    game = TicTacToe()
    seen = _reachable(game)
    assert len({game.hash_key(state) for state in seen}) == len(seen) == 5478
