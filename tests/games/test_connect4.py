"""Connect Four against the published position counts, a naive grid checker, the pure-Python
perft (the kernel's reference), Pons's benchmark positions, and every bad-input path."""

from __future__ import annotations

import os
import random
import re
from itertools import islice
from pathlib import Path

import pytest

from plies.errors import IllegalMoveError, InvalidPositionError, SpecError
from plies.game import Scoring
from plies.games import make_game
from plies.games.connect4.rules import ConnectFour, ConnectFourState, count_positions
from plies.perft import generic_perft, perft
from plies.search import alphabeta
from plies.testing import random_positions

PERFT = [1, 7, 49, 343, 2401, 16807, 117649, 823536]
"""Move paths of exactly n plies from the empty 7 x 6 grid (n = 0..7), by the pure-Python walk;
at 7 plies the 7 paths that fill one column leave only 6 moves."""

POSITIONS = [1, 7, 49, 238, 1120, 4263, 16422, 54859]
"""Distinct positions after n plies, n = 0..7 (OEIS A212693)."""

SIZES = [(7, 6, 4), (6, 7, 4), (5, 4, 3), (4, 4, 4), (9, 5, 5), (3, 3, 2), (1, 5, 2), (8, 6, 1)]

REPO = Path(__file__).resolve().parents[2]
SHARED = Path(os.environ.get("PLIES_SHARED", REPO.parent / "shared"))
END_EASY = SHARED / "data" / "connect4" / "Test_L3_R1"


def naive_winner(columns: list[list[str]], height: int, k: int) -> str | None:
    """Who has k in a row on a grid of columns (stones listed from the bottom), from the rules."""
    width = len(columns)

    def at(column: int, row: int) -> str | None:
        if 0 <= column < width and 0 <= row < len(columns[column]):
            return columns[column][row]
        return None

    for column in range(width):
        for row in range(height):
            mark = at(column, row)
            for dc, dr in ((0, 1), (1, 0), (1, 1), (1, -1)):
                if mark and all(at(column + dc * i, row + dr * i) == mark for i in range(k)):
                    return mark
    return None


def random_games(
    game: ConnectFour, count: int, seed: int
) -> list[list[tuple[ConnectFourState, list[list[str]]]]]:
    """``count`` random games, each the list of its states with the naive grid beside each."""
    rng = random.Random(seed)
    games = []
    for _ in range(count):
        columns: list[list[str]] = [[] for _ in range(game.width)]
        state = game.initial_state()
        history = [(state, [list(c) for c in columns])]
        while not game.is_terminal(state):
            action = rng.choice(game.actions(state))
            columns[action].append(game.to_move(state))
            state = game.result(state, action)
            history.append((state, [list(c) for c in columns]))
        games.append(history)
    return games


def test_perft_from_the_start() -> None:
    game = ConnectFour()
    start = game.initial_state()
    assert [perft(game, start, d) for d in range(8)] == PERFT
    assert [generic_perft(game, start, d) for d in range(8)] == PERFT
    with pytest.raises(SpecError, match="at least 0"):
        game.perft(start, -1)


def test_positions_after_n_plies() -> None:
    assert [count_positions(ConnectFour(), n) for n in range(8)] == POSITIONS


@pytest.mark.parametrize(("width", "height", "k"), SIZES)
def test_kernel_matches_python_on_random_positions(width: int, height: int, k: int) -> None:
    game = ConnectFour(width, height, k)
    for state in random_positions(game, 25, seed=width * 100 + height * 10 + k, terminal=True):
        for depth in range(4):
            assert game.perft(state, depth) == generic_perft(game, state, depth), (
                game.format_position(state),
                depth,
            )


@pytest.mark.parametrize(("width", "height", "k"), SIZES)
def test_rules_match_a_naive_grid(width: int, height: int, k: int) -> None:
    game = ConnectFour(width, height, k)
    for history in random_games(game, 40, seed=width + height + k):
        for state, columns in history:
            winner = naive_winner(columns, height, k)
            assert game.winner(state) == winner
            full = all(len(c) == height for c in columns)
            assert game.is_terminal(state) == (winner is not None or full)
            assert game.to_move(state) == "XO"[sum(map(len, columns)) % 2]
            shown = game.display(state).splitlines()
            for row, line in enumerate(reversed(shown[:height])):
                expected = [c[row] if row < len(c) else "." for c in columns]
                assert line.split() == expected


@pytest.mark.parametrize(("height", "position"), [(4, "2131313"), (6, "21313113141")])
def test_no_line_runs_from_one_column_into_the_next(height: int, position: str) -> None:
    # X holds the top three cells of column 1 and the bottom cell of column 2, consecutive bits
    # but for the empty sentinel bit above each column.
    game = ConnectFour(3 if height == 4 else 7, height)
    state = game.parse_position(position)
    assert (game.to_move(state), game.is_terminal(state)) == ("O", False)


def test_column_order_is_centre_first() -> None:
    game = ConnectFour()
    assert list(game.actions(game.initial_state())) == [3, 2, 4, 1, 5, 0, 6]
    assert list(ConnectFour(6, 5).actions(ConnectFour(6, 5).initial_state())) == [3, 2, 4, 1, 5, 0]


@pytest.mark.parametrize(
    ("position", "winner"),
    [
        ("1212121", "X"),  # vertical
        ("1122334", "X"),  # horizontal
        ("25143424433", "X"),  # diagonal up to the right
        ("63745464455", "X"),  # diagonal up to the left
        ("1712737371", None),
        ("41212121", "O"),
    ],
)
def test_winners(position: str, winner: str | None) -> None:
    game = ConnectFour()
    state = game.parse_position(position)
    assert game.winner(state) == winner
    assert game.is_terminal(state) == (winner is not None)
    if winner is not None:
        assert game.utility(state, winner) == 1
        assert game.utility(state, game.opponent(winner)) == -1
        assert game.actions(state) == []


def test_draw_on_a_full_grid() -> None:
    game = ConnectFour(3, 2, 3)
    state = game.parse_position("123312")
    assert game.is_terminal(state) and game.winner(state) is None
    assert game.payoffs(state) == (0, 0)
    assert ConnectFour(3, 2, 3, Scoring.PAYOFF).payoffs(state) == (0.5, 0.5)
    assert game.display(state).splitlines()[-1] == "game over: a draw"


@pytest.mark.parametrize(("width", "height", "k"), SIZES)
def test_positions_read_back(width: int, height: int, k: int) -> None:
    game = ConnectFour(width, height, k)
    for state in random_positions(game, 30, seed=k, terminal=True):
        text = game.format_position(state)
        assert game.parse_position(text) == state
        assert len(text) == state.moves


def test_format_position_is_canonical() -> None:
    game = ConnectFour()
    cases = [("", ""), ("4453", "4453"), ("4455", "5544"), ("3214", "3412"), ("1234", "3412")]
    for text, canonical in cases:
        assert game.format_position(game.parse_position(text)) == canonical
    # Taking X's stone in column 1 back before column 2's would strand column 2's O under an X
    # with O to take back next: a dead end, so the search backtracks.
    assert game.format_position(game.parse_position(" 1222 ")) == "1222"


def test_format_position_ends_a_won_game_with_the_win() -> None:
    game = ConnectFour()
    state = game.parse_position("4455667")  # X wins on the bottom row with the 7
    text = game.format_position(state)
    assert game.parse_position(text) == state
    assert not game.is_terminal(game.parse_position(text[:-1]))


def test_display() -> None:
    game = ConnectFour(5, 3)
    assert game.display(game.parse_position("3432")).splitlines() == [
        ". . . . .",
        ". . X . .",
        ". O X O .",
        "1 2 3 4 5",
        "X to move",
    ]
    assert game.display(game.parse_position("1122334")).endswith("game over: X wins")


@pytest.mark.parametrize(
    ("position", "move", "message"),
    [
        ("", "x", "'x' is not a column number 1 to 7"),
        ("", "", "'' is not a column number 1 to 7"),
        ("", "-1", "is not a column number"),
        ("", "²", "is not a column number"),
        ("", "8", "'8': there is no column 8 (columns 1 to 7)"),
        ("", "0", "there is no column 0"),
        ("", "44", "there is no column 44"),
        ("444444", "4", "'4': column 4 is full"),
        ("1212121", "3", "'3': the game is over"),
    ],
)
def test_illegal_moves(position: str, move: str, message: str) -> None:
    game = ConnectFour()
    with pytest.raises(IllegalMoveError, match=re.escape(message)) as error:
        game.parse_action(game.parse_position(position), move)
    assert "\n" not in str(error.value)


def test_result_refuses_illegal_actions() -> None:
    game = ConnectFour()
    for position, action in (("", 7), ("", -1), ("444444", 3), ("1212121", 2)):
        with pytest.raises(IllegalMoveError, match="not legal"):
            game.result(game.parse_position(position), action)


@pytest.mark.parametrize(
    ("position", "message"),
    [
        ("4444444", "move 7 (4) overflows column 4, which is full"),
        ("12121213", "move 8 (3) comes after the game ended (X won)"),
        ("44a", "move 3 'a' is not a column 1 to 7"),
        ("48", "move 2 '8' is not a column 1 to 7"),
        ("4 4", "move 2 ' ' is not a column 1 to 7"),
        ("40", "move 2 '0' is not a column 1 to 7"),
    ],
)
def test_invalid_positions(position: str, message: str) -> None:
    with pytest.raises(InvalidPositionError, match=re.escape(message)) as error:
        ConnectFour().parse_position(position)
    assert "\n" not in str(error.value)


def test_move_after_a_draw_is_refused() -> None:
    with pytest.raises(InvalidPositionError, match=re.escape("move 7 (1) comes after the game")):
        ConnectFour(3, 2, 3).parse_position("1233121")


def test_unreachable_state_cannot_be_formatted() -> None:
    with pytest.raises(InvalidPositionError, match="cannot be reached"):
        ConnectFour().format_position(ConnectFourState(1, 1, 1, False))  # X's stone, X to move


@pytest.mark.parametrize(
    ("width", "height", "k", "message"),
    [
        (10, 6, 4, "width=10 must be 1 to 9"),
        (0, 6, 4, "width=0 must be 1 to 9"),
        (7, 0, 4, "height=0 must be at least 1"),
        (9, 7, 4, "needs width * (height + 1) = 72 bits; at most 63 fit"),
        (7, 6, 8, "k=8 must be between 1 and 7"),
        (7, 6, 0, "k=0 must be between 1 and 7"),
    ],
)
def test_bad_sizes(width: int, height: int, k: int, message: str) -> None:
    with pytest.raises(SpecError, match=re.escape(message)):
        ConnectFour(width, height, k)


def test_spec_options() -> None:
    game = make_game("connect4:width=9,height=6,k=5,scoring=payoff")
    assert isinstance(game, ConnectFour)
    assert (game.width, game.height, game.k, game.scoring) == (9, 6, 5, Scoring.PAYOFF)
    assert repr(make_game("connect4")) == "ConnectFour(width=7, height=6, k=4)"
    with pytest.raises(SpecError, match="width"):
        make_game("connect4:width=wide")


def test_alphabeta_runs_and_takes_a_win() -> None:
    game = ConnectFour()
    result = alphabeta(game, game.initial_state(), depth=2)
    assert result.action in game.actions(game.initial_state())
    assert -1 < result.value < 1
    won = alphabeta(game, game.parse_position("121212"), depth=2)
    assert (won.action, won.value) == (0, 1)
    blocked = alphabeta(game, game.parse_position("12121"), depth=2)
    assert blocked.action == 0


def test_evaluation() -> None:
    game = ConnectFour()
    payoff = ConnectFour(scoring=Scoring.PAYOFF)
    for state in random_positions(game, 60, seed=3, terminal=True):
        x, o = game.evaluate(state, "X"), game.evaluate(state, "O")
        assert x == pytest.approx(-o)
        assert payoff.evaluate(state, "X") + payoff.evaluate(state, "O") == pytest.approx(1)
        if game.is_terminal(state):
            assert x == game.utility(state, "X")
        else:
            assert -1 < x < 1
            assert 0 < payoff.evaluate(state, "X") < 1
    assert game.evaluate(game.initial_state(), "X") == 0
    # A win on the next move, a double threat against the mover, the centre beats the edge.
    assert game.evaluate(game.parse_position("121212"), "X") > 0.8
    assert game.evaluate(game.parse_position("44556"), "O") < -0.8
    assert game.evaluate(game.parse_position("4"), "X") > game.evaluate(
        game.parse_position("1"), "X"
    )


def test_hash_keys() -> None:
    game = ConnectFour()
    one, other = game.parse_position("1234"), game.parse_position("3214")
    assert one == other and game.hash_key(one) == game.hash_key(other)
    layer = {game.initial_state()}
    states = set(layer)
    for _ in range(6):
        layer = {game.result(s, a) for s in layer for a in game.actions(s)}
        states |= layer
    keys = {game.hash_key(s) for s in states}
    assert len(keys) == len(states) == sum(POSITIONS[:7])
    big = ConnectFour(9, 6)
    assert all(
        0 <= big.hash_key(s) < 2**63 for s in random_positions(big, 30, seed=9, terminal=True)
    )


def test_end_easy_benchmark_positions() -> None:
    """Pons's end-easy set promises the side to move cannot win at once."""
    if not END_EASY.is_file():
        pytest.skip(f"{END_EASY} not found (set PLIES_SHARED to the shared folder)")
    game = ConnectFour()
    with END_EASY.open() as lines:
        for line in islice(lines, 50):
            moves, score = line.split()
            state = game.parse_position(moves)
            assert state.moves == len(moves) and int(score) in range(-21, 22)
            assert not game.is_terminal(state), moves
            for action in game.actions(state):
                assert game.winner(game.result(state, action)) is None, (moves, action)
