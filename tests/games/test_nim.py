"""Nim: solved values against Bouton's rule, the rules, notation and every bad-input path."""

from __future__ import annotations

import itertools
from functools import reduce
from operator import xor

import pytest
from hypothesis import given
from hypothesis import strategies as st

from plies.capabilities import HasEvaluation
from plies.errors import IllegalMoveError, InvalidPositionError, MissingCapabilityError, SpecError
from plies.games import make_game
from plies.games.nim.rules import Nim, NimState
from plies.search import alphabeta, minimax

SMALL = [h for k in (1, 2, 3) for h in itertools.product(range(5), repeat=k)]
"""Every position with one to three heaps of at most 4 objects (155 of them)."""

FOUR_HEAPS = [(1, 1, 1, 1), (1, 1, 1, 2), (1, 2, 3, 4), (2, 2, 3, 3), (1, 1, 2, 2), (0, 1, 4, 4)]


def bouton(heaps: tuple[int, ...], misere: bool) -> int:
    """The value for the player to move: +1 if it wins with best play, -1 if it loses."""
    if misere and all(size <= 1 for size in heaps):
        wins = heaps.count(1) % 2 == 0
    else:
        wins = reduce(xor, heaps, 0) != 0
    return 1 if wins else -1


@pytest.mark.parametrize("misere", [False, True])
def test_alphabeta_follows_bouton(misere: bool) -> None:
    game = Nim(misere=misere)
    for heaps in SMALL + FOUR_HEAPS:
        assert alphabeta(game, NimState(heaps, "A")).value == bouton(heaps, misere), heaps


@pytest.mark.parametrize("misere", [False, True])
def test_minimax_follows_bouton(misere: bool) -> None:
    # The ten positions with 10 or more objects take minimax 13 s; alpha-beta covers them above.
    game = Nim(misere=misere)
    for heaps in (h for h in SMALL if sum(h) <= 9):
        assert minimax(game, NimState(heaps, "A")).value == bouton(heaps, misere), heaps


@pytest.mark.parametrize("misere", [False, True])
def test_value_for_a_when_b_moves(misere: bool) -> None:
    game = Nim(misere=misere)
    for heaps in itertools.product(range(4), repeat=3):
        result = alphabeta(game, NimState(heaps, "B"), max_player="A")
        assert result.value == -bouton(heaps, misere), heaps


def test_three_four_five_is_a_first_player_win() -> None:
    game = Nim()
    result = alphabeta(game, game.initial_state())
    assert result.value == 1
    after = game.result(game.initial_state(), result.action)
    assert reduce(xor, after.heaps) == 0  # the winning move leaves a zero nim-sum


def test_depth_limited_search_reports_the_missing_evaluation() -> None:
    game = Nim()
    assert not isinstance(game, HasEvaluation)
    with pytest.raises(MissingCapabilityError, match="evaluation function"):
        alphabeta(game, game.initial_state(), depth=2)
    with pytest.raises(MissingCapabilityError, match="'nim'"):
        minimax(game, game.initial_state(), depth=2)


# Rules -----------------------------------------------------------------------------------


def test_actions_go_heap_by_heap_skipping_empty_heaps() -> None:
    game = Nim()
    state = NimState((2, 0, 1), "A")
    assert game.actions(state) == [(0, 1), (0, 2), (2, 1)]
    assert game.result(state, (0, 2)) == NimState((0, 0, 1), "B")


def test_winner_in_normal_and_misere_play() -> None:
    end = NimState((0, 0), "B")  # A took the last object
    assert Nim().winner(end) == "A"
    assert Nim(misere=True).winner(end) == "B"
    assert Nim().utility(end, "B") == -1
    assert Nim().winner(NimState((0, 1), "A")) is None
    assert not Nim().is_terminal(NimState((0, 1), "A"))


@pytest.mark.parametrize("action", [(3, 1), (0, 0), (1, 5), (-1, 1)])
def test_result_refuses_illegal_actions(action: tuple[int, int]) -> None:
    with pytest.raises(IllegalMoveError):
        Nim().result(NimState((3, 4, 5), "A"), action)


# Notation --------------------------------------------------------------------------------


@given(
    heaps=st.lists(st.integers(0, 30), min_size=1, max_size=6).map(tuple),
    mover=st.sampled_from(["A", "B"]),
)
def test_position_round_trip(heaps: tuple[int, ...], mover: str) -> None:
    game = Nim()
    state = NimState(heaps, mover)
    assert game.parse_position(game.format_position(state)) == state


def test_notation_examples() -> None:
    game = Nim()
    assert game.format_position(NimState((3, 4, 5), "B")) == "3,4,5 B"
    for text in ("3,4,5 b", "3 4 5 B", "3-4-5 B", " 3, 4 ,5\tB "):
        assert game.parse_position(text) == NimState((3, 4, 5), "B")
    assert game.parse_position("0") == NimState((0,), "A")
    state = game.initial_state()
    assert game.format_action(state, (1, 3)) == "2:3"
    assert game.parse_action(state, " 3 : 5 ") == (2, 5)


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("", "no heaps"),
        ("3,x,5", "'x' is not a heap size"),
        ("3,4.5", "'4.5' is not a heap size"),
        ("3,4,5 C", "'C' is not a heap size"),
        ("3,-4,5", "negative"),
        ("-1", "negative"),
        ("3,,4", "missing"),
        ("3,4,", "missing"),
    ],
)
def test_bad_positions(text: str, reason: str) -> None:
    with pytest.raises(InvalidPositionError, match=reason):
        Nim().parse_position(text)


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("x", "is not H:C"),
        ("2-3", "is not H:C"),
        ("2:", "is not H:C"),
        ("4:1", "no heap 4"),
        ("0:1", "no heap 0"),
        ("1:0", "at least one"),
        ("1:4", "heap 1 has 3 left"),
    ],
)
def test_bad_moves(text: str, reason: str) -> None:
    game = Nim()
    with pytest.raises(IllegalMoveError, match=reason) as caught:
        game.parse_action(game.initial_state(), text)
    assert repr(text) in str(caught.value)


def test_no_moves_after_the_game_is_over() -> None:
    with pytest.raises(IllegalMoveError, match="'1:1': the game is over"):
        Nim().parse_action(NimState((0, 0), "A"), "1:1")


def test_display() -> None:
    game = Nim()
    assert game.display(NimState((3, 0), "B")) == "heap 1: ||| (3)\nheap 2: (0)\nB to move"
    assert game.display(NimState((0,), "B")).endswith("game over: A wins")


# Options ---------------------------------------------------------------------------------


def test_options() -> None:
    game = make_game("nim:heaps=1-0-7,misere=yes")
    assert isinstance(game, Nim)
    assert game.initial_state() == NimState((1, 0, 7), "A")
    assert game.misere
    default = make_game("nim")
    assert isinstance(default, Nim)
    assert (default.heaps, default.misere) == ((3, 4, 5), False)


@pytest.mark.parametrize(
    ("spec", "reason"),
    [
        ("nim:heaps=3-x", "'x' is not a heap size"),
        ("nim:heaps=3-", "missing"),
        ("nim:heaps=3--4", "negative"),
        ("nim:heaps=-3", "negative"),
        ("nim:misere=maybe", "not true or false"),
        ("nim:heap=3", "unknown option 'heap'"),
    ],
)
def test_bad_options(spec: str, reason: str) -> None:
    with pytest.raises(SpecError, match=reason):
        make_game(spec)


@pytest.mark.parametrize("heaps", [(), (1, -1)])
def test_constructor_refuses_bad_heaps(heaps: tuple[int, ...]) -> None:
    with pytest.raises(SpecError):
        Nim(heaps)
