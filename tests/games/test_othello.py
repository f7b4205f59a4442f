"""Othello: Aart Bik's perft, the compiled kernel against pure Python, passes, the end of the game,
notation and every bad-input path."""

from __future__ import annotations

import random
import re

import numpy as np
import pytest

from plies.errors import IllegalMoveError, InvalidPositionError, SpecError
from plies.game import Scoring
from plies.games import make_game
from plies.games.othello import kernel
from plies.games.othello.rules import (
    FULL,
    PASS,
    Othello,
    OthelloState,
    flips,
    legal_moves,
)
from plies.games.othello.squares import square_class
from plies.perft import generic_perft, perft
from plies.search import alphabeta
from plies.testing import random_game

BIK = [1, 4, 12, 56, 244, 1396, 8200, 55092, 390216, 3005288, 24571284]
"""Perft from the start, depth 0..10 (Aart Bik; REFERENCES.md)."""

SHORTEST = "d3c3b3d2e1d6d7e3f4"
"""A game that ends at ply 9, the earliest possible: white has no disc left."""

MUST_PASS = (
    "".join(
        [
            "--------",
            "--------",
            "--X-----",
            "---OO---",
            "---OO---",
            "-----O--",
            "------O-",
            "-------O",
        ]
    )
    + " X"
)
"""Black's only disc, c3, flanks nothing; white can take it with b2, which ends the game."""


def bik_perft(game: Othello, state: OthelloState, depth: int) -> int:
    """Bik's convention through the formal interface: a finished game is one leaf."""
    if depth == 0 or game.is_terminal(state):
        return 1
    return sum(bik_perft(game, game.result(state, a), depth - 1) for a in game.actions(state))


def random_states(count: int, seed: int) -> list[OthelloState]:
    """The states of seeded random games, one game after another (ends included)."""
    rng, states = random.Random(seed), list[OthelloState]()
    while len(states) < count:
        states += random_game(Othello(), rng)
    return states[:count]


def random_record(seed: int) -> tuple[list[str], OthelloState]:
    """The moves of a seeded random game that contains a pass, and its final state."""
    game, rng = Othello(), random.Random(seed)
    while True:
        state, moves = game.initial_state(), []
        while not game.is_terminal(state):
            action = rng.choice(game.actions(state))
            moves.append(game.format_action(state, action))
            state = game.result(state, action)
        if "pass" in moves:
            return moves, state


# Perft -------------------------------------------------------------------------------------


def test_perft_compiled_matches_bik() -> None:
    game = Othello()
    start = game.initial_state()
    assert [game.perft(start, depth) for depth in range(11)] == BIK
    assert perft(game, start, 7) == 55092  # plies.perft prefers the game's own counter


def test_perft_pure_python_matches_bik() -> None:
    game = Othello()
    start = game.initial_state()
    assert [generic_perft(game, start, depth) for depth in range(6)] == BIK[:6]
    assert [bik_perft(game, start, depth) for depth in range(6)] == BIK[:6]


def test_a_finished_game_is_a_leaf() -> None:
    """A game that ends before the depth counts once (the 228 games that end at ply 9 are in
    perft 10); the generic walk counts only paths of exactly ``depth`` plies."""
    game = Othello()
    finished = game.parse_position(SHORTEST)
    assert [game.perft(finished, depth) for depth in range(4)] == [1, 1, 1, 1]
    assert generic_perft(game, finished, 1) == 0
    before = game.parse_position(SHORTEST[:-2])
    ending = sum(game.is_terminal(game.result(before, a)) for a in game.actions(before))
    assert ending >= 1
    assert game.perft(before, 2) == bik_perft(game, before, 2)
    assert game.perft(before, 2) == generic_perft(game, before, 2) + ending


def test_perft_refuses_negative_depth() -> None:
    with pytest.raises(SpecError, match="at least 0"):
        Othello().perft(Othello().initial_state(), -1)


# The kernel against pure Python --------------------------------------------------------------


def test_kernel_move_generation_matches_python_on_random_boards() -> None:
    rng = random.Random(7)
    for _ in range(500):
        occupied, black = rng.getrandbits(64), rng.getrandbits(64)
        p, o = occupied & black, occupied & ~black & FULL
        moves = legal_moves(p, o)
        assert int(kernel.legal_moves(np.uint64(p), np.uint64(o))) == moves
        for square in range(64):
            if moves >> square & 1:
                compiled = kernel.flips(np.uint64(p), np.uint64(o), np.uint64(1 << square))
                assert int(compiled) == flips(p, o, square)


def test_kernel_perft_matches_python_on_random_boards() -> None:
    game, rng = Othello(), random.Random(8)
    for _ in range(50):
        occupied, black = rng.getrandbits(64) & rng.getrandbits(64), rng.getrandbits(64)
        state = OthelloState(occupied & black, occupied & ~black & FULL, rng.choice("BW"))
        assert game.perft(state, 2) == bik_perft(game, state, 2), state


def test_kernel_perft_matches_python_on_random_positions() -> None:
    """Every late position of ten random games (passes and endings among them) to depth 3, and
    every fifth earlier one to depth 2."""
    game = Othello()
    late = [s for s in random_states(620, seed=11) if (s.black | s.white).bit_count() > 48]
    early = [s for s in random_states(620, seed=11) if (s.black | s.white).bit_count() <= 48]
    assert any(game.is_terminal(s) for s in late)
    assert any(list(game.actions(s)) == [PASS] for s in late)
    for state in late:
        assert game.perft(state, 3) == bik_perft(game, state, 3), state
    for state in early[::5]:
        assert game.perft(state, 2) == bik_perft(game, state, 2), state


# Rules: passes, the end, the winner ----------------------------------------------------------


def test_start() -> None:
    game = Othello()
    state = game.initial_state()
    assert game.format_position(state) == "-" * 27 + "OX------XO" + "-" * 27 + " X"
    assert [game.format_action(state, a) for a in game.actions(state)] == ["d3", "c4", "f5", "e6"]
    assert game.to_move(state) == "B" and game.players == ("B", "W")


def test_a_player_without_a_move_must_pass() -> None:
    game = Othello()
    state = game.parse_position(MUST_PASS)
    assert not game.is_terminal(state)
    assert list(game.actions(state)) == [PASS]
    assert game.parse_action(state, "PASS") == PASS == game.parse_action(state, "ps")
    passed = game.result(state, PASS)
    assert passed == state._replace(to_move="W")
    assert [game.format_action(passed, a) for a in game.actions(passed)] == ["b2"]
    with pytest.raises(IllegalMoveError):
        game.result(passed, PASS)
    end = game.result(passed, game.parse_action(passed, "b2"))
    assert game.is_terminal(end) and list(game.actions(end)) == []
    assert (game.winner(end), game.utility(end, "W"), game.utility(end, "B")) == ("W", 1, -1)
    assert game.perft(state, 5) == bik_perft(game, state, 5) == 1


def test_shortest_game_ends_with_empty_squares() -> None:
    game = Othello()
    state = game.parse_position(SHORTEST)
    assert game.is_terminal(state) and list(game.actions(state)) == []
    assert (state.black.bit_count(), state.white) == (13, 0)
    assert game.winner(state) == "B"


def test_equal_discs_draw() -> None:
    game = Othello(Scoring.PAYOFF)
    state = game.parse_position("X" * 32 + "O" * 32 + " O")
    assert game.is_terminal(state) and game.winner(state) is None
    assert game.payoffs(state) == (0.5, 0.5)
    assert "game over, a draw" in game.display(state)


def test_the_game_ends_when_neither_side_can_move() -> None:
    game = Othello()
    state = game.parse_position("X-" + "X" * 61 + "O O")  # white cannot flank from b1
    assert game.is_terminal(state) and game.winner(state) == "B"
    assert game.perft(state, 3) == 1


def test_result_refuses_illegal_actions() -> None:
    game = Othello()
    state = game.initial_state()
    for action in (PASS, 0, 27, 64, -2):
        with pytest.raises(IllegalMoveError, match="not legal"):
            game.result(state, action)


def test_random_games_keep_the_boards_consistent() -> None:
    for state in random_states(400, seed=5):
        assert state.black & state.white == 0
        assert (state.black | state.white) & 0x0000001818000000 == 0x0000001818000000


def test_moves_are_ordered_corners_first_x_squares_last() -> None:
    assert [square_class(s) for s in (0, 2, 18, 1, 9)] == [0, 1, 2, 3, 4]
    game = Othello()
    for state in random_states(300, seed=9):
        classes = [square_class(a) for a in game.actions(state) if a != PASS]
        assert classes == sorted(classes)


# Evaluation and hash keys ------------------------------------------------------------------


def test_evaluation_is_symmetric_and_inside_the_utilities() -> None:
    game = Othello()
    payoff = Othello(Scoring.PAYOFF)
    for state in random_states(300, seed=13):
        black, white = game.evaluate(state, "B"), game.evaluate(state, "W")
        assert black == pytest.approx(-white)
        if game.is_terminal(state):
            assert black == game.utility(state, "B")
        else:
            assert -1 < black < 1
            assert 0 < payoff.evaluate(state, "B") < 1


def test_evaluation_likes_corners() -> None:
    """A corner given to Black after ten moves raises Black's value, one given to White
    lowers it, with the fitted patterns and the hand-written terms."""
    for game in (Othello(), Othello(evaluation="hand")):
        state = game.parse_position("f5d6c3d3c4f4f6f3e6e7")
        before = game.evaluate(state, "B")
        for corner in (0, 7, 56, 63):
            assert (
                game.evaluate(state._replace(black=state.black | 1 << corner), "B") > before + 0.1
            )
            assert (
                game.evaluate(state._replace(white=state.white | 1 << corner), "B") < before - 0.1
            )


def test_alphabeta_searches_the_start() -> None:
    game = Othello()
    result = alphabeta(game, game.initial_state(), depth=2)
    assert result.action in game.actions(game.initial_state())
    assert -1 < result.value < 1


def test_hash_keys() -> None:
    game = Othello()
    states = set(random_states(1000, seed=17))
    keys = {game.hash_key(s) for s in states}
    assert len(keys) == len(states)
    assert all(0 <= key < 2**64 for key in keys)
    state = game.parse_position("f5d6c3")
    assert game.hash_key(state) == game.hash_key(OthelloState(state.black, state.white, "W"))
    assert game.hash_key(state) != game.hash_key(state._replace(to_move="B"))


# Notation ----------------------------------------------------------------------------------


def test_notation_round_trips() -> None:
    game = Othello()
    for state in random_states(300, seed=19):
        assert game.parse_position(game.format_position(state)) == state
        for action in game.actions(state):
            text = game.format_action(state, action)
            assert game.parse_action(state, f" {text.upper()} ") == action


def test_records_insert_forced_passes() -> None:
    game = Othello()
    moves, final = random_record(seed=23)
    assert game.parse_position("".join(moves)) == final
    assert game.parse_position("".join(m for m in moves if m != "pass")) == final
    assert game.parse_position(" ".join(m.upper() for m in moves)) == final


def test_record_and_board_forms() -> None:
    game = Othello()
    assert game.parse_position("") == game.parse_position("  ") == game.initial_state()
    state = game.parse_position("F5d6C3")
    board = game.format_position(state)
    assert game.parse_position(board) == state
    assert game.parse_position(board.replace("-", ".").replace("X", "*")) == state
    assert game.parse_position(board.replace("X", "B").replace("O", "W")[:-1] + "w;") == state


def test_display() -> None:
    game = Othello()
    assert game.display(game.initial_state()).splitlines() == [
        "   a b c d e f g h",
        " 1 . . . . . . . .",
        " 2 . . . . . . . .",
        " 3 . . . . . . . .",
        " 4 . . . O X . . .",
        " 5 . . . X O . . .",
        " 6 . . . . . . . .",
        " 7 . . . . . . . .",
        " 8 . . . . . . . .",
        "black (X) 2, white (O) 2: black to move",
    ]
    assert game.display(game.parse_position(MUST_PASS)).endswith("black must pass")
    assert game.display(game.parse_position(SHORTEST)).endswith("game over, black wins")


@pytest.mark.parametrize(
    ("position", "move", "message"),
    [
        ("", "i1", "'i1' is not a square of the 8x8 board"),
        ("", "a9", "'a9' is not a square of the 8x8 board"),
        ("", "a0", "'a0' is not a square of the 8x8 board"),
        ("", "dd", "'dd' is not a square like d3"),
        ("", "", "'' is not a square like d3"),
        ("", "d4", "'d4': that square is taken"),
        ("", "a1", "'a1': it turns over no disc (legal: d3 c4 f5 e6)"),
        ("", "pass", "'pass': black cannot pass with a legal move (d3 c4 f5 e6)"),
        (MUST_PASS, "b2", "'b2': black has no legal move and must pass"),
        (SHORTEST, "a1", "'a1': the game is over"),
        (SHORTEST, "pass", "'pass': the game is over"),
    ],
)
def test_illegal_moves(position: str, move: str, message: str) -> None:
    game = Othello()
    with pytest.raises(IllegalMoveError, match=re.escape(message)):
        game.parse_action(game.parse_position(position), move)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("f5d6f5", "move 3 'f5': that square is taken"),
        ("f5d6c3a1", "move 4 'a1': it turns over no disc"),
        ("f5 e9", "move 2 'e9' is not a square of the 8x8 board"),
        ("f5x5", "move 2 'x5' is not a square of the 8x8 board"),
        ("f5 d6 ?c3", "move 3 '?c3' is not a square like d3"),
        ("f5pass", "move 2 'pass': white cannot pass with a legal move"),
        (SHORTEST + "a1", "move 10 'a1' comes after the end of the game"),
        ("X" * 63 + " X", "has 63 squares, not 64"),
        ("X" * 64, "neither a game record"),
        ("X" * 64 + " X extra", "neither a game record"),
        ("Q" + "X" * 63 + " X", "has 'Q'; use - or ."),
        ("X" * 64 + " Z", "the mover 'Z' is not X or B"),
        ("-" * 64 + " X", "the centre squares d4, e4, d5 and e5 are never empty"),
    ],
)
def test_invalid_positions(text: str, message: str) -> None:
    with pytest.raises(InvalidPositionError, match=re.escape(message)):
        Othello().parse_position(text)


def test_options() -> None:
    game = make_game("othello:scoring=payoff")
    assert isinstance(game, Othello) and game.scoring is Scoring.PAYOFF
    with pytest.raises(SpecError, match="scoring='x'"):
        make_game("othello:scoring=x")


def test_the_hand_written_evaluation_is_a_weighted_sum() -> None:
    """The hand-written EVAL's lead before the last 12 empty squares is the features'
    weighted sum over the weights' total plus one, for the default weights and others; the
    compiled engine uses the same weights, node for node."""
    from plies.search.engine import EngineOptions, Limits, search
    from plies.testing import random_positions

    game = Othello(evaluation="hand")
    other = game.with_evaluation_weights([5.2, 40, -3, 12], "a test")
    assert other.evaluation_weights() == (5, 40, -3, 12)
    checked = 0
    for candidate in (game, other):
        weights = candidate.evaluation_weights()
        total = sum(abs(weight) for weight in weights) + 1
        for state in random_positions(candidate, 30, seed=5, plies=range(50)):
            features = candidate.evaluation_features(state)
            if features is None:
                continue
            lead = sum(weights[i] * value for i, value in features.items()) / total
            assert candidate.evaluate(state, "B") == pytest.approx(candidate.estimate(lead, "B"))
            checked += 1
        for state in random_positions(candidate, 3, seed=8, plies=range(10, 30)):
            native = search(candidate, state, Limits(depth=4))
            python = search(candidate, state, Limits(depth=4), EngineOptions(native=False))
            assert (native.value, native.pv, native.stats.nodes) == (
                python.value,
                python.pv,
                python.stats.nodes,
            )
    assert checked > 40
    with pytest.raises(SpecError, match="expected 4"):
        game.with_evaluation_weights([1.0], "a test")
