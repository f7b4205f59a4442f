"""Phantom tic-tac-toe: hand-checked games, tic-tac-toe's board and outcome on the marks placed,
the information contract over random games, determinisations that are reachable, draw the
unseen marks uniformly among the boards a brute force allows, and read nothing hidden; the
board view of seen states."""

from __future__ import annotations

import itertools
import json
import random
from collections import Counter

import pytest

from plies.capabilities import HasInformationSets
from plies.errors import IllegalMoveError
from plies.game import random_move
from plies.games import make_game
from plies.games.phantom.rules import LINES, PhantomState, PhantomTicTacToe
from plies.testing import check_information_sets
from plies.web.boards import board_view

GAME = PhantomTicTacToe()


def play(moves: str, game: PhantomTicTacToe = GAME) -> PhantomState:
    """The state after ``moves`` (cells, space-separated, bumps included) from the start."""
    state = game.initial_state()
    for move in moves.split():
        state = game.result(state, game.parse_action(state, move))
    return state


def random_games(count: int, seed: int) -> list[list[PhantomState]]:
    """The states of ``count`` games of random tries."""
    rng = random.Random(seed)
    games = []
    for _ in range(count):
        state = GAME.initial_state()
        states = [state]
        while not GAME.is_terminal(state):
            state = GAME.result(state, random_move(GAME, state, rng))
            states.append(state)
        games.append(states)
    return games


def replay(state: PhantomState) -> PhantomState:
    """The state reached by playing ``state``'s tries in turn (each player's tries cut into
    turns at their placements, X's first): equal to ``state`` when it is reachable."""
    turns = []
    for seat, player in enumerate(GAME.players):
        cut: list[list[int]] = [[]]
        for cell in state.tries[seat]:
            cut[-1].append(cell)
            if state.cells[cell] == player:
                cut.append([])
        turns.append(cut)
    again = GAME.initial_state()
    for x_turn, o_turn in itertools.zip_longest(*turns, fillvalue=[]):
        for cell in [*x_turn, *o_turn]:
            again = GAME.result(again, cell)
    return again


def test_a_bump_reveals_the_mark_and_the_player_moves_again() -> None:
    state = play("b2 b2")
    assert state.to_move == "O" and state.cells == "....X...."
    assert GAME.information_key(state, "O") == "O:b2*"
    assert GAME.information_key(state, "X") == "X:b2"
    assert 4 not in GAME.actions(state) and len(GAME.actions(state)) == 8
    assert GAME.seen_state(state, "O").cells == "....X...."
    state = GAME.result(state, GAME.parse_action(state, "a1"))
    assert state.to_move == "X" and state.cells == "O...X...."
    assert GAME.seen_state(state, "X").cells == "....X...."
    assert GAME.information_key(state, "X") == "X:b2"  # X learns nothing of O's tries
    state = GAME.result(state, GAME.parse_action(state, "a1"))
    assert state.to_move == "X" and GAME.information_key(state, "X") == "X:b2 a1*"
    assert GAME.seen_state(state, "X").cells == "O...X...."
    assert [GAME.format_action(state, a) for a in GAME.actions(state)] == [
        "b1", "c1", "a2", "c2", "a3", "b3", "c3"
    ]  # fmt: skip


def test_three_in_a_row_wins_and_a_full_board_draws() -> None:
    won = play("a1 a2 a2 b1 b2 c1")  # X bumps into O's a2 once, then takes row 1
    assert won.winner == "X" and GAME.is_terminal(won)
    assert GAME.payoffs(won) == (1, -1)
    assert make_game("phantom:scoring=payoff").payoffs(won) == (1, 0)
    drawn = play("a1 b2 c3 b1 b3 a3 c1 c2 a2")
    assert GAME.is_terminal(drawn) and drawn.winner is None and GAME.payoffs(drawn) == (0, 0)
    assert make_game("phantom:scoring=payoff").payoffs(drawn) == (0.5, 0.5)
    assert GAME.seen_state(drawn, "X") == drawn  # the whole board is shown at the end


def test_the_board_is_tic_tac_toes_of_the_marks_placed() -> None:
    """Over random games (bumps and all), tic-tac-toe playing the placements alone reaches
    the same board, end and outcome; without bumps it is tic-tac-toe move for move."""
    tictactoe = make_game("tictactoe")
    for states in random_games(300, seed=5):
        board = tictactoe.initial_state()
        for before, after in itertools.pairwise(states):
            if after.cells != before.cells:
                (cell,) = (i for i in range(9) if after.cells[i] != before.cells[i])
                board = tictactoe.result(board, cell)
            assert board.cells == after.cells
            assert tictactoe.is_terminal(board) == GAME.is_terminal(after)
        assert tictactoe.payoffs(board) == GAME.payoffs(states[-1])
    rng = random.Random(8)
    for _ in range(300):  # nobody bumps: each tries a cell empty on the board
        state, board = GAME.initial_state(), tictactoe.initial_state()
        while not GAME.is_terminal(state):
            cell = rng.choice([i for i in range(9) if state.cells[i] == "."])
            state, board = GAME.result(state, cell), tictactoe.result(board, cell)
            assert (state.cells, state.to_move) == (board.cells, board.to_move)
        assert tictactoe.is_terminal(board) and GAME.payoffs(state) == tictactoe.payoffs(board)


def test_the_information_contract_over_random_games() -> None:
    assert isinstance(GAME, HasInformationSets)
    states = [state for game in random_games(300, seed=1) for state in game]
    check_information_sets(GAME, states, random.Random(2), samples=2)


def test_seen_actions_hide_the_other_players_tries() -> None:
    state = play("b2 b2")
    assert GAME.seen_action(state, 0, "X") == "O moves"
    assert GAME.seen_action(state, 0, "O") == "O: a1"
    state = play("b2 a1")
    assert GAME.seen_action(state, 0, "X") == "X: a1 is taken by O, try again"
    assert GAME.seen_action(state, 0, "O") == "X moves"


def test_determinisations_are_reachable_and_keep_the_key() -> None:
    rng = random.Random(3)
    for states in random_games(200, seed=4):
        for state in states[:-1]:
            for player in GAME.players:
                drawn = GAME.sample_state(state, player, rng)
                assert GAME.information_key(drawn, player) == GAME.information_key(state, player)
                assert replay(drawn) == drawn
                assert drawn.to_move == state.to_move
                assert drawn.cells.count("O") == state.cells.count("O")


def test_determinisations_read_only_the_key() -> None:
    """States that X cannot tell apart (O's mark elsewhere, O's bump or none) give X the same
    samples from the same seed."""
    alike = [play("b2 a1"), play("b2 c3"), play("b2 b2 c3"), play("b2 b2 a3")]
    assert len({GAME.information_key(state, "X") for state in alike}) == 1
    for seed in range(20):
        drawn = {GAME.sample_state(state, "X", random.Random(seed)) for state in alike}
        assert len(drawn) == 1


def test_the_unseen_mark_is_uniform_among_the_cells_not_tried() -> None:
    state = play("b2 a1")
    rng = random.Random(6)
    counts = Counter(GAME.sample_state(state, "X", rng).cells.index("O") for _ in range(8000))
    assert set(counts) == {0, 1, 2, 3, 5, 6, 7, 8}
    assert all(abs(count - 1000) < 150 for count in counts.values()), counts


def test_unseen_marks_are_drawn_among_the_boards_a_brute_force_allows() -> None:
    """For the mover of random positions: every sample's unseen marks are among the sets of
    cells not tried that make no line with the marks seen, and where there are few such sets
    every one is drawn."""
    rng = random.Random(7)
    states = [s for game in random_games(60, seed=9) for s in game[:-1] if s.cells.count(".") < 6]
    assert len(states) > 20
    for state in states:
        player, other = state.to_move, GAME.opponent(state.to_move)
        tried = state.tries[GAME.players.index(player)]
        seen = {cell for cell in tried if state.cells[cell] == other}
        unseen = [cell for cell in range(9) if cell not in tried]
        count = state.cells.count(other) - len(seen)
        allowed = {
            frozenset(cells)
            for cells in itertools.combinations(unseen, count)
            if not any(set(line) <= seen | set(cells) for line in LINES)
        }
        drawn = Counter(
            frozenset(
                i
                for i, mark in enumerate(GAME.sample_state(state, player, rng).cells)
                if mark == other and i not in seen
            )
            for _ in range(200)
        )
        assert set(drawn) <= allowed
        if len(allowed) <= 6:
            assert set(drawn) == allowed


def test_notation_and_bad_moves() -> None:
    state = play("b2")
    assert GAME.parse_action(state, " B2 ") == 4 and GAME.parse_action(state, "9") == 8
    for text, words in (("d1", "not a cell"), ("0", "not a cell"), ("a", "not a cell")):
        with pytest.raises(IllegalMoveError, match=words):
            GAME.parse_action(state, text)
    bumped = play("b2 b2")
    with pytest.raises(IllegalMoveError, match="'b2': O knows it is taken"):
        GAME.parse_action(bumped, "b2")
    with pytest.raises(IllegalMoveError, match="game is over"):
        GAME.parse_action(play("a1 a2 b1 b2 c1"), "c3")
    with pytest.raises(IllegalMoveError):
        GAME.result(bumped, 4)


def test_display_shows_the_board_and_each_players_view() -> None:
    text = GAME.display(play("b2 b2 a1"))
    assert text.splitlines() == [
        "board       X sees      O sees",
        "   a b c       a b c       a b c",
        "1  O . .    1  . . .    1  O . .",
        "2  . X .    2  . X .    2  . X .",
        "3  . . .    3  . . .    3  . . .",
        "X to move",
    ]


def test_the_view_draws_a_seen_state_with_nothing_hidden() -> None:
    state = play("b2 b2 a1 c3")  # X b2; O bumps into b2, takes a1; X c3
    assert state.to_move == "O"
    seen = GAME.seen_state(state, "X")
    view = board_view(GAME, seen, last=0)
    assert json.loads(json.dumps(view)) == view
    marks = {cell["id"]: cell["piece"] for row in view["cells"] for cell in row if cell["piece"]}
    assert marks == {"b2": "X", "c3": "X"}  # O's a1 unseen by X: X has not tried it
    assert view["last"] == ["c3"]  # X's own last try, not the move handed in
    assert view["facts"] == [["O's marks unseen", "1"]]
    o_view = board_view(GAME, GAME.seen_state(state, "O"), last=0)
    o_marks = {
        cell["id"]: cell["piece"] for row in o_view["cells"] for cell in row if cell["piece"]
    }
    assert o_marks == {"b2": "X", "a1": "O"} and o_view["last"] == ["a1"]
    assert o_view["facts"] == [["X's marks unseen", "1"]]
    whole = board_view(GAME, state, last=8)
    assert whole["last"] == ["c3"] and whole["facts"] == []
