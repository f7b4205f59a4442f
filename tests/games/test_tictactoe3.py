"""Three-player tic-tac-toe against an independent enumeration of its rules."""

from __future__ import annotations

import re
from collections import Counter
from functools import cache
from itertools import product

import pytest

from plies.capabilities import HasValueBounds
from plies.errors import IllegalMoveError, InvalidPositionError, SpecError
from plies.games import make_game
from plies.games.tictactoe.rules import Board
from plies.games.tictactoe.three import TicTacToe3

Outcomes = Counter[str | None]


def _game_outcomes(game: TicTacToe3) -> tuple[Outcomes, int]:
    """Finished games by winner (None: a draw) and distinct reachable states, walking plies."""
    reachable: set[Board] = set()

    @cache
    def outcomes(state: Board) -> Outcomes:
        reachable.add(state)
        if game.is_terminal(state):
            return Counter([state.winner])
        total: Outcomes = Counter()
        for action in game.actions(state):
            total += outcomes(game.result(state, action))
        return total

    return outcomes(game.initial_state()), len(reachable)


def _brute_force_outcomes(m: int, n: int, k: int) -> tuple[Outcomes, int]:
    """The same counts written from the rules alone: X, O, Y mark empty squares in turn; k in
    a row in any direction wins, a full board draws."""
    cells = [(r, c) for r in range(m) for c in range(n)]
    reachable: set[tuple[str, ...]] = set()

    def won(board: tuple[str, ...], mark: str) -> bool:
        for (r, c), (dr, dc) in product(cells, ((0, 1), (1, 0), (1, 1), (1, -1))):
            run = [(r + dr * i, c + dc * i) for i in range(k)]
            if all(0 <= rr < m and 0 <= cc < n and board[rr * n + cc] == mark for rr, cc in run):
                return True
        return False

    @cache
    def outcomes(board: tuple[str, ...], turn: int) -> Outcomes:
        reachable.add(board)
        last = "XOY"[(turn - 1) % 3]
        if turn > 0 and won(board, last):
            return Counter([last])
        if " " not in board:
            return Counter([None])
        total: Outcomes = Counter()
        for i, cell in enumerate(board):
            if cell == " ":
                total += outcomes((*board[:i], "XOY"[turn % 3], *board[i + 1 :]), turn + 1)
        return total

    return outcomes((" ",) * (m * n), 0), len(reachable)


@pytest.mark.parametrize(
    ("m", "n", "k"), [(3, 3, 3), (3, 3, 2), (2, 3, 2), (2, 4, 3), (1, 6, 2), (3, 2, 3)]
)
def test_game_counts_match_brute_force(m: int, n: int, k: int) -> None:
    assert _game_outcomes(TicTacToe3(m, n, k)) == _brute_force_outcomes(m, n, k)


def test_turn_order_and_utilities() -> None:
    game = TicTacToe3(3, 3, 3)
    state = game.initial_state()
    movers = []
    for action in (0, 1, 2, 3, 4, 5, 6):
        movers.append(game.to_move(state))
        state = game.result(state, action)
    assert movers == ["X", "O", "Y", "X", "O", "Y", "X"]
    assert game.format_position(state) == "XOY/XOY/X.."
    assert game.is_terminal(state) and state.winner == "X"
    assert game.payoffs(state) == (1, 0, 0)
    assert game.parse_position("XOY/XOY/OXY").winner == "Y"
    drawn = game.parse_position("XOY/OYX/XYO")
    assert game.is_terminal(drawn) and drawn.winner is None
    assert game.payoffs(drawn) == (1 / 3, 1 / 3, 1 / 3)
    assert sum(game.payoffs(drawn)) == 1
    assert game.zero_sum


def test_registry_defaults_and_options() -> None:
    game = make_game("tictactoe3")
    assert isinstance(game, TicTacToe3)
    assert (game.m, game.n, game.k, game.players) == (4, 4, 3, ("X", "O", "Y"))
    game = make_game("tictactoe3:m=5,n=6,k=4")
    assert isinstance(game, TicTacToe3)
    assert (game.m, game.n, game.k) == (5, 6, 4)
    with pytest.raises(SpecError, match="unknown option 'scoring'"):
        make_game("tictactoe3:scoring=payoff")


def test_bad_sizes() -> None:
    with pytest.raises(SpecError, match=re.escape("tictactoe3: k=4 must be between 1 and 3")):
        TicTacToe3(3, 3, 4)
    with pytest.raises(SpecError, match="tictactoe3: board 0x3"):
        TicTacToe3(0, 3, 1)


def test_notation() -> None:
    game = TicTacToe3(4, 5, 3)
    state = game.initial_state()
    for action in game.actions(state):
        assert game.parse_action(state, str(action + 1)) == action  # cell numbers too
    for action in (7, 8, 0):
        state = game.result(state, action)
    assert game.format_position(state) == "Y..../..XO./...../....."
    assert game.parse_position(game.format_position(state)) == state
    assert game.display(state).splitlines() == [
        "   a b c d e",
        " 1 Y . . . .",
        " 2 . . X O .",
        " 3 . . . . .",
        " 4 . . . . .",
    ]


def test_every_reachable_position_reads_back() -> None:
    """parse_position recovers mover and winner of all 3x3 positions from the board alone."""
    game = TicTacToe3(3, 3, 3)
    seen = {game.initial_state()}
    frontier = list(seen)
    while frontier:
        state = frontier.pop()
        assert game.parse_position(game.format_position(state)) == state
        for action in game.actions(state):
            child = game.result(state, action)
            if child not in seen:
                seen.add(child)
                frontier.append(child)
    assert len(seen) == _brute_force_outcomes(3, 3, 3)[1]


@pytest.mark.parametrize(
    ("position", "move", "message"),
    [
        ("X../.../...", "a1", "taken"),
        ("X../.../...", "d1", "not a square"),
        ("X../.../...", "0", "not a square"),
        ("X../.../...", "b", "not a square"),
        ("XOY/XOY/X..", "c3", "game is over"),
    ],
)
def test_illegal_moves(position: str, move: str, message: str) -> None:
    game = TicTacToe3(3, 3, 3)
    with pytest.raises(IllegalMoveError, match=re.escape(message)):
        game.parse_action(game.parse_position(position), move)


def test_result_refuses_illegal_actions() -> None:
    game = TicTacToe3(3, 3, 3)
    for position, action in (("X../.../...", 0), ("X../.../...", 9), ("XOY/XOY/X..", 8)):
        with pytest.raises(IllegalMoveError, match=f"move {action} is not legal"):
            game.result(game.parse_position(position), action)


@pytest.mark.parametrize(
    ("position", "message"),
    [
        ("XX", "has 2 squares"),
        ("XX./.../...", "they move in turn X, O, Y"),
        ("O../.../...", "they move in turn X, O, Y"),
        ("XY./.../...", "they move in turn X, O, Y"),
        ("XOY/XOY/XOY", "X and O and Y each have 3 in a row"),
        ("XXX/OOY/YO.", "a move was played after the win"),
        ("OOO/XXY/XYY", "a move was played after the win"),
        ("XXX/OOY/XXX/OOY/YOY/...", "has 18 squares"),
        ("X?./.../...", "'?'"),
    ],
)
def test_invalid_positions(position: str, message: str) -> None:
    with pytest.raises(InvalidPositionError, match=re.escape(message)):
        TicTacToe3(3, 3, 3).parse_position(position)


def test_two_separate_lines_mean_a_move_after_the_win() -> None:
    game = TicTacToe3(4, 4, 3)
    with pytest.raises(InvalidPositionError, match="after the win"):
        game.parse_position("XXXO/OYOY/XXXO/YOYY")
    state = game.initial_state()
    for action in (1, 5, 6, 2, 7, 11, 4, 13, 12, 8, 15, 14, 0):  # X's a1 makes a row and a column
        state = game.result(state, action)
    assert state.winner == "X"
    assert game.parse_position("XXX./XOYO/X..Y/YOYO") == state


def test_evaluation() -> None:
    game = TicTacToe3(4, 4, 3)
    assert isinstance(game, HasValueBounds) and game.value_bounds == (0, 1)
    empty = game.initial_state()
    assert [game.evaluate(empty, p) for p in game.players] == [1 / 3] * 3
    threat = game.parse_position("XX../OY../..../....")
    shares = [game.evaluate(threat, p) for p in game.players]
    assert shares[0] > max(shares[1:]) and all(0 < share < 1 for share in shares)
    assert sum(shares) == pytest.approx(1)
    won = game.parse_position("XXX./OO../YY../....")
    assert [game.evaluate(won, p) for p in game.players] == [1, 0, 0]


@pytest.mark.parametrize(
    ("position", "shares"),
    [
        # abc holds X's mark (worth 4), bcd O's: (1 + 4) / (3 + 8) each, Y 1 / 11
        ("X..O", (5 / 11, 5 / 11, 1 / 11)),
        # no line is open to anyone: a certain draw
        ("XO.Y", (1 / 3, 1 / 3, 1 / 3)),
    ],
)
def test_evaluation_by_hand_on_1x4(position: str, shares: tuple[float, ...]) -> None:
    game = TicTacToe3(1, 4, 3)
    state = game.parse_position(position)
    assert tuple(game.evaluate(state, p) for p in game.players) == pytest.approx(shares)


def test_a_threat_outweighs_the_rest() -> None:
    game = TicTacToe3(1, 5, 3)
    state = game.parse_position("XX.OY")  # abc is X's threat (4**2); bcd and cde are dead
    assert game.evaluate(state, "X") == pytest.approx(17 / 19)
