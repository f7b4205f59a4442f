"""English draughts against Aart Bik's perft, the rules' corner cases, and the compiled kernel."""

from __future__ import annotations

import random
import re

import numpy as np
import pytest

from plies.errors import IllegalMoveError, InvalidPositionError, SpecError
from plies.game import Scoring
from plies.games import make_game
from plies.games.checkers import kernel
from plies.games.checkers.rules import DRAW_PLIES, Checkers, CheckersState
from plies.perft import generic_perft, perft
from plies.search import alphabeta

PERFT = [7, 49, 302, 1469, 7361, 36768, 179740, 845931, 3963680, 18391564]
"""Perft of the start position, depths 1..10 (Aart Bik; OEIS A133046)."""

GAME = Checkers()


def _random_state(rng: random.Random) -> CheckersState:
    """A random position: up to 12 pieces a side, some kings, no man on its crowning row."""
    squares = rng.sample(range(1, 33), rng.randint(2, 24))
    split = rng.randint(max(1, len(squares) - 12), min(12, len(squares) - 1))
    boards = [0, 0, 0, 0]  # black men, black kings, white men, white kings
    for index, square in enumerate(squares):
        white = index >= split
        crowning = square >= 29 if not white else square <= 4
        king = crowning or rng.random() < 0.3
        boards[2 * white + king] |= 1 << (square - 1)
    quiet = rng.choice([0, rng.randrange(DRAW_PLIES), DRAW_PLIES - 2, DRAW_PLIES - 1])
    return CheckersState(*boards, rng.choice("BW"), quiet)


def _flipped(state: CheckersState) -> CheckersState:
    """The board turned round with the colours swapped (square s becomes 33 - s)."""

    def turn(bits: int) -> int:
        return int(f"{bits:032b}"[::-1], 2)

    return CheckersState(
        turn(state.white_men),
        turn(state.white_kings),
        turn(state.black_men),
        turn(state.black_kings),
        "W" if state.to_move == "B" else "B",
        state.quiet,
    )


# Published counts ---------------------------------------------------------------------------


@pytest.mark.parametrize("depth", range(1, 9))
def test_perft_compiled(depth: int) -> None:
    state = GAME.initial_state()
    assert GAME.perft(state, depth) == PERFT[depth - 1]
    assert perft(GAME, state, depth) == PERFT[depth - 1]


@pytest.mark.parametrize("depth", range(1, 6))
def test_perft_pure_python(depth: int) -> None:
    assert generic_perft(GAME, GAME.initial_state(), depth) == PERFT[depth - 1]


def test_first_moves() -> None:
    state = GAME.initial_state()
    assert [GAME.format_action(state, a) for a in GAME.actions(state)] == [
        "9-13",
        "9-14",
        "10-14",
        "10-15",
        "11-15",
        "11-16",
        "12-16",
    ]


# The kernel against the pure-Python reference -----------------------------------------------


def test_the_kernel_draws_after_as_many_quiet_plies_as_the_rules() -> None:
    """The kernel keeps its own copy of the draw count, so that loading it loads no rules."""
    assert kernel.DRAW_PLIES == DRAW_PLIES == 80


def _python_successors(state: CheckersState) -> list[tuple[int, ...]]:
    """The position after each legal move, from the next mover's side as the kernel writes it."""
    rows = []
    for action in GAME.actions(state):
        child = GAME.result(state, action)
        black = (child.black_men, child.black_kings)
        white = (child.white_men, child.white_kings)
        rows.append((*white, *black) if state.to_move == "B" else (*black, *white))
    return sorted(rows)


def _kernel_successors(state: CheckersState) -> list[tuple[int, ...]]:
    black = (state.black_men, state.black_kings)
    white = (state.white_men, state.white_kings)
    mover = state.to_move == "B"
    board = np.array([*black, *white] if mover else [*white, *black], np.int64)
    out = np.empty((kernel.MAX_MOVES, 4), np.int64)
    n = kernel.generate(board, mover, out, np.empty((kernel.STACK_DEPTH, 5), np.int64))
    return sorted(tuple(int(x) for x in row) for row in out[:n])


def test_kernel_matches_python_on_random_positions() -> None:
    rng = random.Random(7)
    seen = {"capture": 0, "multi-jump": 0, "king capture": 0}
    for _ in range(1000):
        state = _random_state(rng)
        python = _python_successors(state)
        assert _kernel_successors(state) == python, GAME.format_position(state)
        actions = GAME.actions(state)
        if actions and GAME.is_capture(state, actions[0]):
            kings = state.black_kings | state.white_kings
            seen["capture"] += 1
            seen["multi-jump"] += len(actions[0]) > 2
            seen["king capture"] += any(kings & 1 << (a[0] - 1) for a in actions)
        for depth in (1, 2, 3):
            assert GAME.perft(state, depth) == generic_perft(GAME, state, depth), (
                GAME.format_position(state),
                depth,
            )
    assert min(seen.values()) > 100, seen  # the sample exercises every kind of capture


# Rules ---------------------------------------------------------------------------------------


def test_capture_is_compulsory() -> None:
    state = GAME.parse_position("B:W18,30:B14,1")
    assert [GAME.format_action(state, a) for a in GAME.actions(state)] == ["14x23"]
    with pytest.raises(IllegalMoveError, match=re.escape("a capture is compulsory: 14x23")):
        GAME.parse_action(state, "1-5")


def test_any_capture_may_be_chosen_not_only_the_longest() -> None:
    state = GAME.parse_position("W:W30,31:B18,26,27")
    moves = [GAME.format_action(state, a) for a in GAME.actions(state)]
    assert moves == ["30x23x14", "31x22x15", "31x24"]  # longest first, then by squares


def test_multi_jump_is_one_move() -> None:
    state = GAME.parse_position("W:W30:B18,19,26")
    assert GAME.actions(state) == [(30, 23, 14), (30, 23, 16)]
    child = GAME.result(state, GAME.parse_action(state, "30x23x14"))
    assert GAME.format_position(child) == "B:W14:B19"
    with pytest.raises(IllegalMoveError, match=re.escape("must go on while it can: 30x23x14")):
        GAME.parse_action(state, "30x23")


def test_crowning_ends_the_move() -> None:
    # The white man on 10 jumps 7 and is crowned on 3; as a king it could jump 8 at once, but
    # the move ends there.
    state = GAME.parse_position("W:W10:B7,8")
    assert GAME.actions(state) == [(10, 3)]
    child = GAME.result(state, (10, 3))
    assert GAME.format_position(child) == "B:WK3:B8"
    # A man crowned by a step, and the new king moving backwards next turn.
    state = GAME.parse_position("B:WK1:B25")
    child = GAME.result(state, GAME.parse_action(state, "25-29"))
    assert child.black_kings == 1 << 28 and child.black_men == 0
    child = GAME.result(child, (1, 5))
    assert [GAME.format_action(child, a) for a in GAME.actions(child)] == ["29-25"]


def test_king_captures_round_a_ring_both_ways() -> None:
    state = GAME.parse_position("B:W14,15,22,23:BK10")
    assert GAME.actions(state) == [(10, 17, 26, 19, 10), (10, 19, 26, 17, 10)]
    results = {GAME.result(state, action) for action in GAME.actions(state)}
    assert [GAME.format_position(s) for s in results] == ["W:W:BK10"]
    assert GAME.winner(results.pop()) == "B"
    with pytest.raises(IllegalMoveError, match=re.escape("ambiguous: 10x17x26x19x10, 10x19")):
        GAME.parse_action(state, "10x10")


def test_draw_rule() -> None:
    state = GAME.parse_position(f"W:WK32:BK1:H{DRAW_PLIES - 1}")
    assert not GAME.is_terminal(state)
    child = GAME.result(state, (32, 28))
    assert child.quiet == DRAW_PLIES
    assert GAME.is_terminal(child) and GAME.winner(child) is None
    assert GAME.actions(child) == [] and GAME.utility(child, "B") == 0
    assert GAME.perft(state, 2) == generic_perft(GAME, state, 2) == 0
    assert "a draw" in GAME.display(child)
    # Man moves and captures reset the count; king steps add to it.
    state = GAME.parse_position("B:W32,K20:B9,K1:H40")
    assert GAME.result(state, (9, 13)).quiet == 0
    assert GAME.result(state, (1, 5)).quiet == 41
    state = GAME.parse_position("W:WK10:B14,K1:H40")
    assert GAME.result(state, (10, 17)).quiet == 0
    # A player left without a move loses, even on the ply that reaches the count.
    state = GAME.parse_position(f"W:WK2,K5,K10:B1:H{DRAW_PLIES - 1}")
    blocked = GAME.result(state, (2, 6))
    assert blocked.quiet == DRAW_PLIES
    assert GAME.is_terminal(blocked) and GAME.winner(blocked) == "W"


def test_a_player_without_moves_loses() -> None:
    state = GAME.parse_position("W:W:B1")
    assert GAME.is_terminal(state) and GAME.winner(state) == "B"
    assert GAME.winner(GAME.initial_state()) is None
    blocked = GAME.parse_position("W:W29:B25,22")
    assert GAME.actions(blocked) == [] and GAME.winner(blocked) == "B"
    assert GAME.utility(blocked, "W") == -1 and GAME.payoffs(blocked) == (1, -1)


# Search, evaluation and hashing ----------------------------------------------------------------


def test_alphabeta_runs_from_the_start() -> None:
    result = alphabeta(GAME, GAME.initial_state(), depth=2)
    assert result.action in GAME.actions(GAME.initial_state())
    assert -1 < result.value < 1


def test_evaluation_in_range_and_symmetric() -> None:
    rng = random.Random(11)
    payoff = Checkers(Scoring.PAYOFF)
    for _ in range(300):
        state = _random_state(rng)
        black, white = GAME.evaluate(state, "B"), GAME.evaluate(state, "W")
        assert black == -white
        assert GAME.evaluate(_flipped(state), "W") == black
        if not GAME.is_terminal(state):
            assert -1 < black < 1
            assert 0 < payoff.evaluate(state, "B") < 1
    assert GAME.evaluate(GAME.initial_state(), "B") == 0
    ahead = GAME.parse_position("B:W21,22:B1,2,3")
    assert GAME.evaluate(ahead, "B") > 0 > GAME.evaluate(ahead, "W")


def test_hash_keys() -> None:
    rng = random.Random(5)
    states = {_random_state(rng) for _ in range(2000)}
    keys = {GAME.hash_key(state) for state in states}
    assert len(keys) == len(states)
    assert all(0 <= key < 2**64 for key in keys)
    for state in list(states)[:50]:
        copy = GAME.parse_position(GAME.format_position(state))
        assert GAME.hash_key(copy) == GAME.hash_key(state)
    start = GAME.initial_state()
    assert GAME.hash_key(start) != GAME.hash_key(start._replace(to_move="W"))
    assert GAME.hash_key(start) != GAME.hash_key(start._replace(quiet=1))


def test_is_capture() -> None:
    state = GAME.parse_position("W:W30:B18,19,26")
    assert GAME.is_capture(state, (30, 23, 14))
    assert not GAME.is_capture(GAME.initial_state(), (9, 13))


# Notation --------------------------------------------------------------------------------------


def test_notation_round_trips_on_random_positions() -> None:
    rng = random.Random(3)
    for _ in range(300):
        state = _random_state(rng)
        assert GAME.parse_position(GAME.format_position(state)) == state
        if GAME.is_terminal(state):
            continue
        for action in GAME.actions(state):
            assert GAME.parse_action(state, GAME.format_action(state, action)) == action


def test_position_reading_is_lenient() -> None:
    start = GAME.initial_state()
    assert GAME.parse_position("B:B1-12:W21-32") == start
    assert GAME.parse_position(" b:w21-32:b1-12. ") == start
    state = GAME.parse_position("W:W18,24,27,28,K10,K15:B12,16,20,K22,K25,K29:H7")
    assert GAME.format_position(state) == "W:W18,24,27,28,K10,K15:B12,16,20,K22,K25,K29:H7"


def test_moves_in_coordinates_and_shorthand() -> None:
    start = GAME.initial_state()
    assert GAME.parse_action(start, "b6-a5") == (9, 13)
    assert GAME.parse_action(start, " 9 - 13 ") == (9, 13)
    state = GAME.parse_position("W:W30:B18,19,26")
    assert GAME.parse_action(state, "30x14") == (30, 23, 14)
    assert GAME.parse_action(state, "c1xe3xg5") == (30, 23, 16)


def test_display() -> None:
    text = GAME.display(GAME.parse_position("W:W30,K6:B18,19,26:H3"))
    assert text.splitlines() == [
        "    a  b  c  d  e  f  g  h",
        "8      1     2     3     4",
        "7   5     W     7     8",
        "6      9    10    11    12",
        "5  13    14    15    16",
        "4     17     b     b    20",
        "3  21    22    23    24",
        "2     25     b    27    28",
        "1  29     w    31    32",
        "White (W) to move; 3 of 80 plies without a capture or man move",
    ]
    assert GAME.display(GAME.parse_position("W:W:B1")).endswith("game over: Black wins")


@pytest.mark.parametrize(
    ("position", "move", "message"),
    [
        ("B:W21-32:B1-12", "9", "is not written like 11-15"),
        ("B:W21-32:B1-12", "9_13", "is not written like 11-15"),
        ("B:W21-32:B1-12", "", "is not written like 11-15"),
        ("B:W21-32:B1-12", "9-33", "33 is off the board"),
        ("B:W21-32:B1-12", "0-5", "0 is off the board"),
        ("B:W21-32:B1-12", "b9-a8", "b9 is off the board"),
        ("B:W21-32:B1-12", "a6-b5", "a6 is a light square"),
        ("W:W:B1", "1-5", "the game is over"),
        ("B:W21-32:B1-12", "13-17", "Black has no piece on 13"),
        ("B:W21-32:B1-12", "21-17", "Black has no piece on 21"),
        ("B:W21-32:B1-12", "5-9", "square 9 is occupied"),
        ("W:W21-32:B1-12", "22-26", "square 26 is occupied"),
        ("B:W21:B9", "9-5", "a man moves only forward"),
        ("B:W21:B9", "9-17", "17 is neither diagonally next to 9 nor a jump away"),
        ("B:W21:B9", "9-13-17", "9 to 13 is not a jump, and only captures visit three squares"),
        ("B:W21:B9", "9-18", "there is nothing to capture"),
        ("B:W21:B9", "9x18", "there is nothing to capture"),
        ("B:W18,30:B14,1", "1-5", "a capture is compulsory: 14x23"),
        ("B:W18,30:B14,1", "14x21", "is not a legal capture; captures: 14x23"),
        ("W:W30:B18,19,26", "30x23", "the capture must go on while it can: 30x23x14, 30x23x16"),
        ("B:W14,15,22,23:BK10", "10x10", "is ambiguous"),
    ],
)
def test_illegal_moves(position: str, move: str, message: str) -> None:
    state = GAME.parse_position(position)
    with pytest.raises(IllegalMoveError, match=re.escape(message)) as error:
        GAME.parse_action(state, move)
    assert "\n" not in str(error.value)


@pytest.mark.parametrize(
    ("position", "message"),
    [
        ("", "is not FEN like"),
        ("B:W21:B1:H3:X", "is not FEN like"),
        ("X:W21:B1", "is not FEN like"),
        ("B:W21:W1", "is not FEN like"),
        ("B:W21", "is not FEN like"),
        ("B:W21,x:B1", "'X' is not a square"),
        ("B:W21:B0", "square 0 is off the board"),
        ("B:W21:B33", "square 33 is off the board"),
        ("B:W21,K21:B1", "square 21 is given twice"),
        ("B:W21:B1,21", "square 21 is given twice"),
        ("B:W21,2:B5", "a white man on 2 would have been crowned"),
        ("B:W21:B30", "a black man on 30 would have been crowned"),
        ("B:W1-13:B30", "White has more than 12 pieces"),
        ("B:W21:B1:H81", "is not a draw count H0 to H80"),
        ("B:W21:B1:X1", "is not a draw count"),
    ],
)
def test_invalid_positions(position: str, message: str) -> None:
    with pytest.raises(InvalidPositionError, match=re.escape(message)) as error:
        GAME.parse_position(position)
    assert "\n" not in str(error.value)


def test_result_refuses_malformed_actions() -> None:
    start = GAME.initial_state()
    for action in [(9,), (9, 18), (21, 17), (5, 9), (9, 40), (9, 13, 17)]:
        with pytest.raises(IllegalMoveError, match="not legal"):
            GAME.result(start, action)


def test_spec_options() -> None:
    game = make_game("checkers:scoring=payoff")
    assert isinstance(game, Checkers) and game.scoring is Scoring.PAYOFF
    with pytest.raises(SpecError, match="scoring"):
        make_game("checkers:scoring=odd")
