"""The tile-sliding race: solved values against a brute-force solver, playouts, notation."""

from __future__ import annotations

from functools import cache

import pytest

from plies.errors import IllegalMoveError, InvalidPositionError, SpecError
from plies.game import Scoring
from plies.games import make_game
from plies.games.tiles.rules import TileGame, TileState
from plies.search import alphabeta, minimax
from plies.testing import random_game

LENGTHS = range(3, 9)


def moves(row: str, mover: str) -> list[str]:
    """The rows a mover can leave, read off the row itself: stay, step, or jump the opponent."""
    here, step = row.index(mover), 1 if mover == "A" else -1
    target = here + step
    if 0 <= target < len(row) and row[target] != ".":
        target += step
    if not 0 <= target < len(row):
        return [row]
    cells = list(row)
    cells[here], cells[target] = ".", mover
    return [row, "".join(cells)]


@cache
def solve(row: str, mover: str, stays: int) -> int:
    """The value for A with best play: +1 A wins, -1 B wins, 0 a draw."""
    if row[-1] == "A":
        return 1
    if row[0] == "B":
        return -1
    if stays == 2:
        return 0
    other = "B" if mover == "A" else "A"
    values = [solve(new, other, stays + 1 if new == row else 0) for new in moves(row, mover)]
    return max(values) if mover == "A" else min(values)


def all_states(length: int, stays: tuple[int, ...] = (0,)) -> list[TileState]:
    """Every position the notation accepts (both movers), with the given stay counts."""
    return [
        TileState(a, b, mover, stay)
        for a in range(1, length + 1)
        for b in range(1, length + 1)
        if a != b and not (a == length and b == 1)
        for mover in ("A", "B")
        for stay in stays
    ]


def row_of(state: TileState, length: int) -> str:
    return "".join(
        "A" if i == state.a else "B" if i == state.b else "." for i in range(1, length + 1)
    )


# Solved values ---------------------------------------------------------------------------


@pytest.mark.parametrize("length", LENGTHS)
def test_alphabeta_matches_brute_force_everywhere(length: int) -> None:
    game = TileGame(length)
    for state in all_states(length, stays=(0, 1)):
        expected = solve(row_of(state, length), state.to_move, state.stays)
        assert alphabeta(game, state, max_player="A").value == expected, state


@pytest.mark.parametrize("length", LENGTHS)
def test_every_length_is_a_draw(length: int) -> None:
    # Staying is always legal and two stays draw, so neither side can force a win.
    game = TileGame(length)
    assert solve("A" + "." * (length - 2) + "B", "A", 0) == 0
    assert alphabeta(game, game.initial_state()).value == 0
    if length <= 6:
        assert minimax(game, game.initial_state()).value == 0


def test_a_jump_wins_when_the_opponent_steps_up() -> None:
    game = TileGame()
    state = game.parse_position(".AB.")
    result = alphabeta(game, state)
    assert (result.value, result.action) == (1, 4)


# Rules -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("position", "expected"),
    [
        ("A..B", [2, 1]),
        ("A..B B", [3, 4]),
        (".AB.", [4, 2]),
        (".AB. B", [1, 3]),
        ("..AB", [3]),
        ("..AB B", [2, 4]),
        ("AB.. B", [2]),
        (".BA.", [4, 3]),
        (".BA. B", [1, 2]),
    ],
)
def test_actions(position: str, expected: list[int]) -> None:
    game = TileGame()
    assert list(game.actions(game.parse_position(position))) == expected


def test_two_stays_in_a_row_draw_and_a_move_resets_the_count() -> None:
    game = TileGame()
    state = game.result(game.initial_state(), 1)
    assert state == TileState(1, 4, "B", 1)
    assert game.result(state, 3) == TileState(1, 3, "A", 0)
    end = game.result(state, 4)
    assert game.is_terminal(end)
    assert game.winner(end) is None
    assert game.utility(end, "A") == 0
    assert game.actions(end) == []


def test_result_refuses_illegal_actions() -> None:
    game = TileGame()
    for action in (3, 4, 0, 5):
        with pytest.raises(IllegalMoveError):
            game.result(game.initial_state(), action)


@pytest.mark.parametrize("length", [3, 4, 5, 8, 12])
def test_random_playouts_are_legal_and_short(length: int) -> None:
    game = TileGame(length)
    for seed in range(50):
        states = random_game(game, seed, max_plies=4 * length - 2)
        assert game.is_terminal(states[-1]), f"seed {seed}: no end after {len(states) - 1} turns"
        for state in states[:-1]:
            results = [row_of(game.result(state, a), length) for a in game.actions(state)]
            assert sorted(results) == sorted(moves(row_of(state, length), state.to_move)), state
        positions = [game.format_position(state) for state in states]
        for turn, state in enumerate(states[1:], 1):
            # A position repeats exactly when the game ends in a draw.
            repeated = positions[turn] in positions[:turn]
            assert repeated == (game.is_terminal(state) and game.winner(state) is None)
        final = states[-1]
        assert game.utility(final, "A") == solve(row_of(final, length), final.to_move, final.stays)


# Evaluation ------------------------------------------------------------------------------


@pytest.mark.parametrize("length", LENGTHS)
def test_evaluation_lies_strictly_between_loss_and_win(length: int) -> None:
    plus_minus, payoff = TileGame(length), TileGame(length, Scoring.PAYOFF)
    for state in all_states(length, stays=(0, 1)):
        if plus_minus.is_terminal(state):
            assert plus_minus.evaluate(state, "A") == plus_minus.utility(state, "A")
            continue
        value = plus_minus.evaluate(state, "A")
        assert -1 < value < 1
        assert plus_minus.evaluate(state, "B") == -value
        assert 0 < payoff.evaluate(state, "A") < 1
        assert payoff.evaluate(state, "A") + payoff.evaluate(state, "B") == pytest.approx(1)


def test_evaluation_rewards_progress() -> None:
    game = TileGame(6)
    assert game.evaluate(TileState(3, 6, "B", 0), "A") > game.evaluate(TileState(2, 6, "B", 0), "A")
    assert game.evaluate(TileState(1, 6, "A", 0), "A") == 0
    result = alphabeta(game, game.initial_state(), depth=3)
    assert -1 < result.value < 1


# Notation --------------------------------------------------------------------------------


@pytest.mark.parametrize("length", LENGTHS)
def test_position_and_action_round_trips(length: int) -> None:
    game = TileGame(length)
    for state in all_states(length):
        text = game.format_position(state)
        assert game.parse_position(text) == state
        assert game.parse_position(text.lower()) == state
        for action in game.actions(state):
            assert game.parse_action(state, game.format_action(state, action)) == action


def test_notation_examples() -> None:
    game = TileGame()
    state = game.parse_position(".A.B")
    assert state == TileState(2, 4, "A", 0)
    assert game.format_position(TileState(2, 4, "B", 0)) == ".A.B B"
    assert [game.format_action(state, a) for a in game.actions(state)] == ["3", "stay"]
    for stay in ("stay", "s", "S", " 2 "):
        assert game.parse_action(state, stay) == 2
    assert game.parse_action(state, "3") == 3


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("", "not a row"),
        (".A.B B x", "not a row"),
        (".A.B C", "mover 'C' is not A or B"),
        (".A.B.", "has 5 squares; the row has 4"),
        ("AB", "has 2 squares"),
        (".AxB", "has 'X'"),
        ("..A.", "0 B tokens"),
        ("AA.B", "2 A tokens"),
        ("B..A", "both reached"),
    ],
)
def test_bad_positions(text: str, reason: str) -> None:
    with pytest.raises(InvalidPositionError, match=reason):
        TileGame().parse_position(text)


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("x", "not a square number or 'stay'"),
        ("-1", "not a square number"),
        ("0", "no square 0"),
        ("5", "no square 5"),
        ("1", "A on square 2 cannot go there; legal moves: 3 stay"),
        ("4", "cannot go there"),
    ],
)
def test_bad_moves(text: str, reason: str) -> None:
    game = TileGame()
    with pytest.raises(IllegalMoveError, match=reason) as caught:
        game.parse_action(game.parse_position(".A.B"), text)
    assert repr(text) in str(caught.value)


def test_no_moves_after_the_game_is_over() -> None:
    game = TileGame()
    with pytest.raises(IllegalMoveError, match="'stay': the game is over"):
        game.parse_action(game.parse_position(".B.A B"), "stay")


def test_display() -> None:
    game = TileGame()
    assert game.display(game.initial_state()) == "1 2 3 4\nA . . B\nA to move"
    assert game.display(TileState(1, 4, "B", 1)).endswith("B to move; staying now draws")
    assert game.display(TileState(1, 4, "A", 2)).endswith("game over: a draw")
    assert game.display(TileState(4, 2, "B", 0)).endswith("game over: A wins")
    assert TileGame(10).display(TileState(1, 10, "A", 0)).splitlines()[:2] == [
        " 1  2  3  4  5  6  7  8  9 10",
        " A  .  .  .  .  .  .  .  .  B",
    ]


# Options ---------------------------------------------------------------------------------


def test_options() -> None:
    game = make_game("tiles:length=6,scoring=payoff")
    assert isinstance(game, TileGame)
    assert (game.length, game.scoring) == (6, Scoring.PAYOFF)
    assert game.initial_state() == TileState(1, 6, "A", 0)
    default = make_game("tiles")
    assert isinstance(default, TileGame)
    assert (default.length, default.scoring) == (4, Scoring.PLUS_MINUS)


@pytest.mark.parametrize(
    ("spec", "reason"),
    [
        ("tiles:length=2", "at least 3"),
        ("tiles:length=x", "not an integer"),
        ("tiles:scoring=x", "not one of plusminus, payoff"),
    ],
)
def test_bad_options(spec: str, reason: str) -> None:
    with pytest.raises(SpecError, match=reason):
        make_game(spec)


def test_constructor_refuses_short_rows() -> None:
    with pytest.raises(SpecError, match="length must be at least 3"):
        TileGame(2)


def test_hash_keys_are_distinct() -> None:
    from plies.games.tiles.rules import TileGame, TileState

    game = TileGame(6)
    states = {
        TileState(a, b, mover, stays)
        for a in range(1, 7)
        for b in range(1, 7)
        if a != b
        for mover in ("A", "B")
        for stays in range(3)
    }
    assert len({game.hash_key(s) for s in states}) == len(states)
