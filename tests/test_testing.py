"""The shared test helpers: random positions, the tiny games, and conformance checks that catch
each kind of broken game by name."""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest

from plies.agents import RandomAgent
from plies.capabilities import HasValueBounds
from plies.errors import IllegalMoveError, MissingCapabilityError
from plies.game import CHANCE, FunctionGame, Game, define_game
from plies.games import make_game
from plies.search import alphabeta, maxn
from plies.testing import (
    DiceRace,
    check_action_notation,
    check_game,
    check_illegal_moves,
    check_information_sets,
    check_playout,
    check_position_notation,
    check_state,
    check_utilities,
    path_game,
    random_agent,
    random_game,
    random_move,
    random_position,
    random_positions,
    take_away,
)

TICTACTOE = make_game("tictactoe")


def marks(state: Any) -> int:
    return 9 - int(state.cells.count("."))


# Random positions ---------------------------------------------------------------------------


def test_random_positions_are_reproducible() -> None:
    assert random_position(TICTACTOE, 3, 5) == random_position(TICTACTOE, random.Random(3), 5)
    assert random_positions(TICTACTOE, 10, 4) == random_positions(TICTACTOE, 10, 4)
    assert len(set(random_positions(TICTACTOE, 10, 4, 3))) > 1


def test_plies_exactly_from_a_range_or_along_a_whole_game() -> None:
    assert {marks(s) for s in random_positions(TICTACTOE, 100, 1, 5)} == {5}
    assert {marks(s) for s in random_positions(TICTACTOE, 100, 1, range(2, 5))} == {2, 3, 4}
    anywhere = random_positions(TICTACTOE, 300, 1)
    assert {marks(s) for s in anywhere} == set(range(9))
    assert not any(TICTACTOE.is_terminal(s) for s in anywhere)


def test_terminal_states_only_when_asked() -> None:
    for plies in (None, 7, range(5, 10)):
        ends = random_positions(TICTACTOE, 300, 2, plies, terminal=True)
        assert any(TICTACTOE.is_terminal(s) for s in ends), plies
        assert not any(TICTACTOE.is_terminal(s) for s in random_positions(TICTACTOE, 300, 2, plies))
    # Every walk of 9 plies ends the game on its last move, if not before.
    assert all(
        TICTACTOE.is_terminal(s) for s in random_positions(TICTACTOE, 20, 2, 9, terminal=True)
    )
    with pytest.raises(ValueError, match="no random walk of 9 plies in 'tictactoe'"):
        random_position(TICTACTOE, 2, 9)
    with pytest.raises(ValueError, match="of 10 plies"):
        random_position(TICTACTOE, 2, 10, terminal=True)


def test_random_games_run_to_the_end_or_the_cap() -> None:
    states = random_game(TICTACTOE, 5)
    assert states[0] == TICTACTOE.initial_state() and TICTACTOE.is_terminal(states[-1])
    assert [marks(s) for s in states] == list(range(len(states)))
    assert len(random_game(TICTACTOE, 5, max_plies=3)) == 4
    assert random_game(TICTACTOE, 5, max_plies=3) == states[:4]


def test_nature_moves_with_its_probabilities() -> None:
    loaded = DiceRace(goal=20, die=((0, 0.0), (5, 1.0)))  # nature always adds 5
    states = random_game(loaded, 6)
    rolls = [(b, a) for b, a in itertools.pairwise(states) if loaded.to_move(b) == CHANCE]
    assert rolls and all(sum(a[:2]) - sum(b[:2]) == 5 for b, a in rolls)
    chance = loaded.result(loaded.initial_state(), 1)
    assert {random_move(loaded, chance, random.Random(6)) for _ in range(20)} == {5}


def test_random_agent_is_the_librarys() -> None:
    agent = random_agent(8)
    assert isinstance(agent, RandomAgent)
    state = TICTACTOE.initial_state()
    again = random_agent(8)
    moves = [agent(TICTACTOE, state) for _ in range(20)]
    assert moves == [again(TICTACTOE, state) for _ in range(20)]
    assert len(set(moves)) > 1


# Tiny games ---------------------------------------------------------------------------------


def test_take_away_is_lost_on_multiples_of_one_more_than_the_most() -> None:
    for pile in range(1, 10):
        for most in (2, 3):
            value = alphabeta(take_away(pile, most), (pile, "A")).value
            assert value == (-1 if pile % (most + 1) == 0 else 1), (pile, most)
        assert alphabeta(take_away(pile, win=5), (pile, "A")).value in (-5, 5)


def test_path_game() -> None:
    leaves = {"LL": (1, 2, 3), "LR": (4, 0, 5), "RL": (6, 3, 0), "RR": (0, 1, 5)}
    game = path_game(leaves, ("A", "B", "C"))
    assert [game.to_move(s) for s in ("", "L", "LR")] == ["A", "B", "C"]
    assert maxn(game, "").values == (6, 3, 0)
    assert not game.zero_sum
    assert path_game({"L": (1, -1), "R": (-1, 1)}, ("A", "B")).zero_sum


def test_dice_race_declares_bounds_only_when_given() -> None:
    assert not isinstance(DiceRace(), HasValueBounds)
    bounded = DiceRace(bounds=(-1, 1))
    assert isinstance(bounded, HasValueBounds) and bounded.value_bounds == (-1, 1)
    state = DiceRace().result(DiceRace().initial_state(), 2)
    assert DiceRace().to_move(state) == CHANCE and DiceRace().chance_outcomes(state) == (
        (0, 0.5),
        (1, 0.5),
    )


@pytest.mark.parametrize(
    "game", [take_away(7), take_away(9, most=3, win=5), DiceRace(goal=9), DiceRace(bounds=(-1, 1))]
)
def test_the_tiny_games_conform(game: Game[Any, Any]) -> None:
    check_game(game, seed=3)


# Broken games are caught by name -------------------------------------------------------------


def broken(**changes: Any) -> FunctionGame:
    """Take-away from 4 (take 1 or 2) with some of its six functions replaced."""
    rules: dict[str, Any] = {
        "name": "broken",
        "players": ("A", "B"),
        "initial_state": lambda: (4, "A"),
        "to_move": lambda s: s[1],
        "actions": lambda s: [n for n in (1, 2) if n <= s[0]],
        "result": lambda s, a: (s[0] - a, "B" if s[1] == "A" else "A"),
        "is_terminal": lambda s: s[0] == 0,
        "utility": lambda s, p: -1 if s[1] == p else 1,
    }
    return define_game(**(rules | changes))


@pytest.mark.parametrize(
    ("game", "message"),
    [
        (broken(to_move=lambda s: "Z"), r"'Z' is to move, not one of \('A', 'B'\)"),
        (broken(to_move=lambda s: CHANCE), "'chance' is to move"),  # no chance_outcomes
        (
            broken(actions=lambda s: [1] if s[0] == 0 else [1, 2][: s[0]]),
            "terminal but has actions",
        ),
        (
            broken(actions=lambda s: [n for n in (1, 2) if n < s[0]]),
            "not terminal but has no actions",
        ),
        (broken(actions=lambda s: [1, 1] if s[0] else []), "lists an action twice"),
        (broken(result=lambda s, a: (s[0] + 1, s[1])), "a random game lasted 1000 moves"),
        (broken(utility=lambda s, p: float("nan")), r"pays \(nan, nan\)"),
        (broken(utility=lambda s, p: -1 if s[1] == p == "A" else 1), "zero-sum but .* sum to"),
    ],
)
def test_broken_rules_are_named(game: Game[Any, Any], message: str) -> None:
    with pytest.raises(AssertionError, match=message):
        check_game(game, seed=1)


def test_each_check_alone() -> None:
    bad_die = DiceRace(die=((0, 0.5), (1, 0.6)))
    chance = bad_die.result(bad_die.initial_state(), 1)
    with pytest.raises(AssertionError, match=r"chance probabilities sum to 1\.1"):
        check_state(bad_die, chance)
    assert check_state(TICTACTOE, TICTACTOE.initial_state()) == list(range(9))
    assert len(check_playout(TICTACTOE, 1, max_plies=9)) <= 10
    with pytest.raises(AssertionError, match="lasted 3 moves"):
        check_playout(TICTACTOE, 1, max_plies=3)
    check_utilities(broken(utility=lambda s, p: 1, zero_sum=False), [(0, "A"), (0, "B")])


class Sloppy(FunctionGame):
    """Take-away from 4 that reads any text as a move, writes every move the same, and writes
    positions without the mover."""

    def __init__(self) -> None:
        take = take_away(4)
        super().__init__("sloppy", take.players, take.functions)

    def parse_action(self, state: Any, text: str) -> Any:
        if text == "?!":
            raise IllegalMoveError("no such move")
        if text == "99-99 z":
            raise IllegalMoveError(f"move {text!r}\nis not legal")
        return self.actions(state)[-1]

    def format_action(self, state: Any, action: Any) -> str:
        return "take"

    def format_position(self, state: Any) -> str:
        return str(state[0])

    def parse_position(self, text: str) -> Any:
        return (int(text), "A")


def test_sloppy_notation_is_named() -> None:
    game, state = Sloppy(), (4, "B")
    with pytest.raises(AssertionError, match="'xyzzy' read as the move 2 in '4'"):
        check_illegal_moves(game, state)
    with pytest.raises(AssertionError, match="'no such move' does not name the move '\\?!'"):
        check_illegal_moves(game, state, ["?!"])
    with pytest.raises(AssertionError, match="is more than one line"):
        check_illegal_moves(game, state, ["99-99 z"])
    with pytest.raises(AssertionError, match="1 is written 'take', which reads back as 2"):
        check_action_notation(game, state)
    with pytest.raises(AssertionError, match="mover of '4' changes"):
        check_position_notation(game, state)
    check_position_notation(game, (4, "A"))
    check_position_notation(game, (0, "B"))  # over: only the text must read back
    with pytest.raises(MissingCapabilityError, match="'take-away' has no position notation"):
        check_position_notation(take_away(), (4, "A"))


def test_check_game_catches_information_sets_that_break_the_contract() -> None:
    """A key that forgets the bets puts states with other movers into one set; a
    determinisation that deals the player another card changes the player's key."""
    from plies.games.kuhn.rules import KuhnPoker, KuhnState

    class Forgetful(KuhnPoker):
        def information_key(self, state: KuhnState, player: str) -> str:
            return super().information_key(state, player)[:1]

    class Peeking(KuhnPoker):
        def sample_state(self, state: KuhnState, player: str, rng: random.Random) -> KuhnState:
            return KuhnState(tuple(reversed(state.cards)), state.bets)

    with pytest.raises(AssertionError, match="with other movers"):
        check_game(Forgetful(), playouts=50)
    with pytest.raises(AssertionError, match="a determinisation of"):
        check_information_sets(
            Peeking(),
            [KuhnState(("J", "Q"), ""), KuhnState(("K", "Q"), "p")],
            random.Random(1),
        )
    check_game(KuhnPoker(), playouts=50)
