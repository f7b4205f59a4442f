"""HasTensorEncoding for tic-tac-toe, Connect Four, Othello and Go: planes from the mover's point of
view, the action map, and the board symmetries checked against states transformed by hand."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from plies.capabilities import HasTensorEncoding, Symmetry
from plies.errors import IllegalMoveError
from plies.games import make_game
from plies.games.connect4.rules import COLUMN_DIGITS, ConnectFour
from plies.games.go.rules import Go, GoState
from plies.games.othello.rules import PASS, Othello, OthelloState
from plies.games.tictactoe.rules import TicTacToe
from plies.testing import random_game, random_positions

SPECS = (
    "tictactoe",
    "tictactoe:m=3,n=4,k=3",
    "tictactoe:m=4,n=4,k=3",
    "connect4",
    "connect4:width=5,height=4,k=3",
    "othello",
    "go:size=5",
)

Map = Callable[[int, int, int, int], tuple[int, int]]
"""(row, column, rows, columns) of a cell to the (row, column) whose content lands on it."""

RECTANGLE: tuple[Map, ...] = (
    lambda r, c, rows, cols: (r, c),  # identity
    lambda r, c, rows, cols: (r, cols - 1 - c),  # left-right mirror
    lambda r, c, rows, cols: (rows - 1 - r, c),  # top-bottom mirror
    lambda r, c, rows, cols: (rows - 1 - r, cols - 1 - c),  # half turn
)
SQUARE: tuple[Map, ...] = (
    *RECTANGLE,
    lambda r, c, rows, cols: (c, r),  # main-diagonal mirror
    lambda r, c, rows, cols: (cols - 1 - c, r),  # quarter turn
    lambda r, c, rows, cols: (c, rows - 1 - r),  # quarter turn the other way
    lambda r, c, rows, cols: (cols - 1 - c, rows - 1 - r),  # anti-diagonal mirror
)
"""The symmetries in the order the games list them, written out independently of them."""


def _positions(game: Any) -> list[Any]:
    """Random states of ``game``, terminal ones included; for Othello whole random games, so
    that forced passes and the end of the game are among them."""
    if isinstance(game, Othello):
        return [s for seed in (0, 12) for s in random_game(game, seed)]
    return random_positions(game, 40, seed=1) + random_positions(game, 10, seed=2, terminal=True)


def _stone_counts(game: Any, state: Any) -> tuple[int, int]:
    """(the mover's stones, the opponent's), read straight from the state."""
    if isinstance(game, TicTacToe):
        mover = state.to_move
        return state.cells.count(mover), state.cells.count(game.opponent(mover))
    if isinstance(game, ConnectFour):
        return state.current.bit_count(), (state.current ^ state.mask).bit_count()
    if isinstance(game, Go):
        mine = 1 if state.to_move == "B" else 2
        return state.board.count(mine), state.board.count(3 - mine)
    mine, theirs = (
        (state.black, state.white) if state.to_move == "B" else (state.white, state.black)
    )
    return mine.bit_count(), theirs.bit_count()


def _legal_mask(game: Any, state: Any) -> np.ndarray:
    mask = np.zeros(game.action_count(), dtype=bool)
    mask[[game.action_index(state, a) for a in game.actions(state)]] = True
    return mask


def _apply(symmetry: Symmetry, planes: np.ndarray) -> np.ndarray:
    count, rows, columns = planes.shape
    return planes.reshape(count, -1)[:, list(symmetry.cells)].reshape(count, rows, columns)


def _maps(game: Any) -> tuple[Map, ...]:
    if isinstance(game, ConnectFour):
        return RECTANGLE[:2]
    _, rows, columns = game.tensor_shape()
    return SQUARE if rows == columns else RECTANGLE


def _transformed(game: Any, state: Any, where: Map) -> Any:
    """``state`` with the content of cell ``where(r, c)`` moved to (r, c), built by hand."""
    if isinstance(game, TicTacToe):
        m, n = game.m, game.n
        sources = (where(r, c, m, n) for r, c in itertools.product(range(m), range(n)))
        return game.parse_position("".join(state.cells[a * n + b] for a, b in sources))
    if isinstance(game, ConnectFour):  # replay the moves, mirrored if the map mirrors
        sequence = game.format_position(state)
        if where(0, 0, game.height, game.width) != (0, 0):
            sequence = "".join(COLUMN_DIGITS[game.width - int(c)] for c in sequence)
        return game.parse_position(sequence)
    if isinstance(game, Go):  # every board seen moves too: superko depends on them
        return _transformed_go(game, state, where)
    boards = []
    for board in (state.black, state.white):
        moved = 0
        for r, c in itertools.product(range(8), repeat=2):
            a, b = where(r, c, 8, 8)
            moved |= (board >> (8 * a + b) & 1) << (8 * r + c)
        boards.append(moved)
    return OthelloState(boards[0], boards[1], state.to_move)


def _transformed_go(game: Go, state: GoState, where: Map) -> GoState:
    size = game.size
    source = [
        a * size + b
        for a, b in (where(r, c, size, size) for r, c in itertools.product(range(size), repeat=2))
    ]
    target = {point: cell for cell, point in enumerate(source)}

    def moved(board: bytes) -> bytes:
        return bytes(board[point] for point in source)

    moves = tuple(move if move < 0 else target[move] for move in state.moves)
    seen = frozenset(moved(board) for board in state.seen)
    return GoState(moved(state.board), state.to_move, state.passes, moves, seen)


@pytest.mark.parametrize("spec", SPECS)
def test_planes_hold_the_movers_and_the_opponents_stones(spec: str) -> None:
    game = make_game(spec)
    shape = game.tensor_shape()
    assert shape[0] == (3 if isinstance(game, Go) else 2)  # Go: whether black moves (komi)
    for state in _positions(game):
        planes = game.encode(state)
        if isinstance(game, Go):
            assert (planes[2] == float(state.to_move == "B")).all()
        assert planes.shape == shape and planes.dtype == np.float32
        assert set(np.unique(planes)) <= {0.0, 1.0}
        assert (planes[0].sum(), planes[1].sum()) == _stone_counts(game, state)
        assert not (planes[0] * planes[1]).any()


def test_planes_are_in_display_order() -> None:
    tictactoe = make_game("tictactoe")
    planes = tictactoe.encode(tictactoe.parse_position("XO./.X./..."))  # O to move
    assert planes[0].nonzero() == ([0], [1])
    assert [list(x) for x in planes[1].nonzero()] == [[0, 1], [0, 1]]
    connect4 = make_game("connect4")
    planes = connect4.encode(connect4.parse_position("4453"))  # X (on 4 and 5) to move
    assert [list(x) for x in planes[0].nonzero()] == [[5, 5], [3, 4]]  # the bottom row is last
    assert [list(x) for x in planes[1].nonzero()] == [[4, 5], [3, 2]]
    othello = make_game("othello")
    planes = othello.encode(othello.initial_state())  # black on e4 and d5
    assert [list(x) for x in planes[0].nonzero()] == [[3, 4], [4, 3]]


@pytest.mark.parametrize("spec", ["tictactoe:m=3,n=4,k=3", "othello", "go:size=5"])
def test_a_placed_stone_shows_at_its_action_index(spec: str) -> None:
    game = make_game(spec)
    for state in _positions(game)[:30]:
        for action in game.actions(state):
            if action == PASS:
                continue
            after = game.encode(game.result(state, action))  # the mover's stone, now plane 1
            assert after[1].reshape(-1)[game.action_index(state, action)] == 1.0


@pytest.mark.parametrize("spec", SPECS)
def test_action_map_round_trips(spec: str) -> None:
    game = make_game(spec)
    count = game.action_count()
    for state in _positions(game):
        indices = [game.action_index(state, a) for a in game.actions(state)]
        assert len(set(indices)) == len(indices)
        assert all(0 <= i < count for i in indices)
        assert [game.index_action(state, i) for i in indices] == list(game.actions(state))
    state = game.initial_state()
    for index in (-1, count):
        with pytest.raises(IllegalMoveError):
            game.index_action(state, index)


def test_othello_passes_at_index_64() -> None:
    game = make_game("othello")
    assert game.action_count() == 65
    state = game.initial_state()
    assert game.action_index(state, PASS) == 64 and game.index_action(state, 64) == PASS


@pytest.mark.parametrize("spec", SPECS)
def test_symmetries_form_a_group_of_permutations(spec: str) -> None:
    game = make_game(spec)
    _, rows, columns = game.tensor_shape()
    symmetries = list(game.symmetries())
    assert len(symmetries) == len(_maps(game))
    assert symmetries[0] == Symmetry(
        tuple(range(rows * columns)), tuple(range(game.action_count()))
    )
    for symmetry in symmetries:
        assert sorted(symmetry.cells) == list(range(rows * columns))
        assert sorted(symmetry.actions) == list(range(game.action_count()))
    for first, second in itertools.product(symmetries, repeat=2):  # first applied, then second
        composed = Symmetry(
            tuple(first.cells[i] for i in second.cells),
            tuple(first.actions[j] for j in second.actions),
        )
        assert composed in symmetries


@pytest.mark.parametrize("spec", SPECS)
def test_symmetries_agree_with_transformed_states(spec: str) -> None:
    game = make_game(spec)
    for symmetry, where in zip(game.symmetries(), _maps(game), strict=True):
        for state in _positions(game):
            image = _transformed(game, state, where)
            assert np.array_equal(game.encode(image), _apply(symmetry, game.encode(state)))
            policy = _legal_mask(game, state)
            assert np.array_equal(_legal_mask(game, image), policy[list(symmetry.actions)])


@pytest.mark.parametrize(("spec", "index"), [("othello", 64), ("go:size=5", 25), ("go", 81)])
def test_a_pass_is_fixed_by_every_symmetry(spec: str, index: int) -> None:
    game = make_game(spec)
    assert game.action_count() == index + 1
    assert all(s.actions[index] == index for s in game.symmetries())


@pytest.mark.parametrize("name", ["tictactoe", "connect4", "othello", "go"])
def test_games_have_the_capability(name: str) -> None:
    assert isinstance(make_game(name), HasTensorEncoding)


def test_nim_lacks_the_capability() -> None:
    assert not isinstance(make_game("nim"), HasTensorEncoding)


def test_connect4_mirror_reverses_columns() -> None:
    game = make_game("connect4")
    mirror = game.symmetries()[1]
    assert mirror.actions == (6, 5, 4, 3, 2, 1, 0)
    state = game.parse_position("1")
    assert _apply(mirror, game.encode(state))[1, 5, 6] == 1.0
