"""Battleship: the fleets against a brute force, a hand-checked game, bad options in one line,
the information contract over random games, determinisations uniform over the fleets that
answer the shots (and reading nothing hidden), and the board view of seen states."""

from __future__ import annotations

import itertools
import json
import random
from collections import Counter

import pytest

from plies.errors import IllegalMoveError, SpecError
from plies.game import checked_outcomes, random_move
from plies.games import make_game
from plies.games.battleship.rules import Battleship, BattleshipState, Fleet, Shot
from plies.registry import game_spec
from plies.testing import check_information_sets
from plies.web.boards import board_view, move_paths

GAME = Battleship()


def play(game: Battleship, moves: list[str]) -> BattleshipState:
    state = game.initial_state()
    for move in moves:
        state = game.result(state, game.parse_action(state, move))
    return state


def brute_force_fleets(size: int, ships: tuple[int, ...]) -> set[frozenset[frozenset[int]]]:
    """Every fleet as a set of ships (sets of cells): each ship any straight run of cells on
    the board, across or down, the ships pairwise apart."""
    cells = [(row, column) for row in range(size) for column in range(size)]
    placements = {}
    for length in set(ships):
        found = set()
        for (row, column), (dr, dc) in itertools.product(cells, ((0, 1), (1, 0))):
            run = [(row + dr * i, column + dc * i) for i in range(length)]
            if all(r < size and c < size for r, c in run):
                found.add(frozenset(r * size + c for r, c in run))
        placements[length] = found
    fleets = set()
    for choice in itertools.product(*(placements[length] for length in ships)):
        if sum(map(len, choice)) == len(frozenset().union(*choice)):
            fleets.add(frozenset(choice))
    return fleets


@pytest.mark.parametrize(
    ("size", "ships", "count"),
    [(3, (2,), 12), (3, (3, 3, 3), 2), (3, (1, 1), 36), (4, (2, 2), None), (5, (3, 2), 956)],
)
def test_the_fleets_are_every_fleet_once(
    size: int, ships: tuple[int, ...], count: int | None
) -> None:
    game = Battleship(size, ships)
    fleets = game.fleets()
    expected = brute_force_fleets(size, ships)
    assert len(fleets) == len(expected) == (count or len(expected))
    assert {frozenset(frozenset(ship) for ship in fleet) for fleet in fleets} == expected
    outcomes = checked_outcomes(game, game.initial_state())
    assert {probability for _, probability in outcomes} == {1 / len(fleets)}


def test_a_hand_checked_game() -> None:
    game = Battleship(size=4, ships="3-2")
    state = play(game, ["a1-c1 d3-d4", "b2-b4 c4-d4"])
    assert state.fleets == (((0, 1, 2), (11, 15)), ((5, 9, 13), (14, 15)))
    assert game.to_move(state) == "P1"
    for move in ("d4", "a1", "c4", "b1", "a1"):  # P1 hits, P2 hits, P1 sinks, P2 hits, P1 misses
        state = game.result(state, game.parse_action(state, move))
    assert state.shots[0] == (Shot(15, True, 0), Shot(14, True, 2), Shot(0, False, 0))
    assert state.shots[1] == (Shot(0, True, 0), Shot(1, True, 0))
    assert game.to_move(state) == "P2" and not game.is_terminal(state)
    sinks = game.parse_action(state, "c1")
    assert game.seen_action(state, sinks, "P1") == "P2: c1 sinks a ship of 3"
    assert game.information_key(state, "P1") == "P1|a1-c1 d3-d4;?|d4* a1* c4*2 b1* a1"
    for move in ("c1", "b2", "d1", "b3", "c2", "b4"):
        state = game.result(state, game.parse_action(state, move))
    assert game.winner(state) == "P1" and game.payoffs(state) == (1, -1)
    assert state.shots[0][-1] == Shot(13, True, 3)
    assert game.display(state).splitlines() == [
        "P1's waters   P2's waters",
        "   a b c d       a b c d",
        "1  X X X o    1  o . . .",
        "2  . . o .    2  . X . .",
        "3  . . . #    3  . X . .",
        "4  . . . #    4  . X X X",
        "game over: P1 wins (P1 hit 5 of 5, P2 hit 3 of 5)",
    ]


def test_keys_seen_states_and_actions() -> None:
    state = play(GAME, ["a1-c1 e4-e5"])
    assert GAME.information_key(state, "P1") == "P1|a1-c1 e4-e5|"
    assert GAME.information_key(state, "P2") == "P2|?|"
    assert GAME.seen_action(state, GAME.fleets()[0], "P2") == "places your fleet a1-c1 d1-e1"
    state = play(GAME, ["a1-c1 e4-e5", "c3-e3 a5-b5", "c3", "b1"])
    assert GAME.information_key(state, "P2") == "P2|?;c3-e3 a5-b5|c3* b1*"
    seen = GAME.seen_state(state, "P2")
    assert seen.fleets == (None, state.fleets[1]) and seen.shots == state.shots
    assert GAME.seen_action(state, 0, "P2") == "P1: a1 miss"


def test_bad_options_and_moves_are_one_line() -> None:
    for spec, words in (
        ("battleship:size=2", "size must be at least 3"),
        ("battleship:size=9", "size must be at most 8"),
        ("battleship:ships=6", "each ship is 1 to 5 cells long"),
        ("battleship:ships=3-x", "write the ships' lengths like 3-2"),
        ("battleship:ships=-", "write the ships' lengths like 3-2"),
        ("battleship:size=3,ships=3-3-3-1", "do not fit a 3x3 board"),
        ("battleship:size=8,ships=5-4-3-3-2", "up to 2,642,411,520 fleets"),
    ):
        with pytest.raises(SpecError, match=words) as raised:
            make_game(spec)
        assert "\n" not in str(raised.value)
    state = play(GAME, ["a1-c1 e4-e5", "c3-e3 a5-b5", "c3"])
    for text, words in (("f1", "not a cell of the 5x5 board"), ("c3 d3", "not a cell")):
        with pytest.raises(IllegalMoveError, match=words):
            GAME.parse_action(state, text)
    with pytest.raises(IllegalMoveError, match="'c3': P1 shot there"):
        GAME.parse_action(GAME.result(state, 0), "c3")
    for fleet in ("a1-c1", "a1-c1 a1-a2", "a1-c2 e4-e5", "a1-b2 e4-e5", "a1-c1 e4-e5 a3"):
        with pytest.raises(IllegalMoveError, match="not a fleet here: ships of 3-2"):
            GAME.parse_action(GAME.initial_state(), fleet)
    assert GAME.parse_action(GAME.initial_state(), "E5-E4, C1-A1") == ((0, 1, 2), (19, 24))


def test_game_spec_round_trip() -> None:
    game = make_game("battleship:size=4,ships=2-3")
    assert (game.size, game.ships) == (4, (3, 2))
    assert make_game(game_spec(game)).ships == (3, 2)
    assert "ships=3-2" in game_spec(game)


def random_states(game: Battleship, count: int, seed: int) -> list[BattleshipState]:
    rng = random.Random(seed)
    states = []
    for _ in range(count):
        state = game.initial_state()
        states.append(state)
        while not game.is_terminal(state):
            state = game.result(state, random_move(game, state, rng))
            states.append(state)
    return states


@pytest.mark.parametrize(
    "spec", ["battleship", "battleship:size=3,ships=2-1", "battleship:size=4,ships=2-2"]
)
def test_the_information_contract_over_random_games(spec: str) -> None:
    game = make_game(spec)
    check_information_sets(game, random_states(game, 40, seed=1), random.Random(2), samples=2)


@pytest.mark.parametrize("spec", ["battleship", "battleship:size=4,ships=2-2-1"])
def test_determinisations_answer_every_shot_as_it_was_answered(spec: str) -> None:
    """Over random games, each player's shots played again at a sample's fleet for the other
    get the answers they got (misses, hits, the ships sunk)."""
    game = make_game(spec)
    rng = random.Random(5)
    for state in random_states(game, 30, seed=6):
        for seat, player in enumerate(game.players):
            fleet = game.sample_state(state, player, rng).fleets[1 - seat : 2 - seat]
            if fleet and fleet[0] is not None:
                assert replayed(game, fleet[0], state.shots[seat]) == state.shots[seat]


def replayed(game: Battleship, fleet: Fleet, shots: tuple[Shot, ...]) -> tuple[Shot, ...] | None:
    """``shots`` fired again at ``fleet`` (by P2, P1 passing its turns): the answers they get
    (None if the fleet is sunk before the last)."""
    answers: tuple[Shot, ...] = ()
    for shot in shots:
        passes = (Shot(-1, False, 0),) * (len(answers) + 1)
        state = BattleshipState((fleet, fleet), (passes, answers))
        if game.is_terminal(state):
            return None
        answers = game.result(state, shot.cell).shots[1]
    return answers


def test_determinisations_are_uniform_over_the_fleets_that_answer_the_shots() -> None:
    """P1's samples of P2's fleet, over the positions of random games: only fleets that answer
    P1's shots as they were answered (found by firing them again at every fleet), and where
    there are at most 20 such fleets, each about as often as the others."""
    game = Battleship(size=4, ships=(2, 2))
    rng = random.Random(3)
    playing = [s for s in random_states(game, 6, seed=4) if len(s.fleets) == 2]
    few = 0
    for state in playing[::4]:
        wanted = [
            i
            for i, fleet in enumerate(game.fleets())
            if replayed(game, fleet, state.shots[0]) == state.shots[0]
        ]
        assert game.fleets().index(state.fleets[1] or ()) in wanted
        draws = 300 * len(wanted) if len(wanted) <= 20 else 2000
        counts = Counter(
            game.fleets().index(game.sample_state(state, "P1", rng).fleets[1] or ())
            for _ in range(draws)
        )
        assert set(counts) <= set(wanted)
        if len(wanted) <= 20:
            few += 1
            assert set(counts) == set(wanted)
            assert all(abs(count - 300) < 90 for count in counts.values()), counts
    assert few >= 5


def test_determinisations_read_only_the_key() -> None:
    """Two states P1 cannot tell apart (P2's fleets differ where P1 has not shot) give P1 the
    same samples from the same seed; and every sample keeps P1's fleet and every shot."""
    moves = ["a1-c1 e4-e5", "c3-e3 a5-b5", "a1", "b1"]
    alike = [play(GAME, moves), play(GAME, [*moves[:1], "c4-e4 a5-b5", *moves[2:]])]
    assert len({GAME.information_key(state, "P1") for state in alike}) == 1
    for seed in range(20):
        drawn = {GAME.sample_state(state, "P1", random.Random(seed)) for state in alike}
        assert len(drawn) == 1
        (sample,) = drawn
        assert sample.fleets[0] == alike[0].fleets[0] and sample.shots == alike[0].shots


def test_the_view_draws_both_waters_of_a_seen_state() -> None:
    state = play(GAME, ["a1-c1 e4-e5", "c3-e3 a5-b5", "d3", "a1", "a3"])
    assert GAME.to_move(state) == "P2"
    seen = GAME.seen_state(state, "P2")
    view = board_view(GAME, seen, last=10)
    assert json.loads(json.dumps(view)) == view
    assert (view["rows"], view["columns"]) == (5, 11)
    left = [[cell["piece"] for cell in row[:5]] for row in view["cells"]]
    right = [[cell["piece"] for cell in row[6:]] for row in view["cells"]]
    assert left[0] == ["X", None, None, None, None]  # P2 sees P1's ships only where hit
    assert sum(piece is not None for row in left for piece in row) == 1
    assert right[2] == ["O", None, "\u25a0", "X", "\u25a0"] and right[4][:2] == ["\u25a0"] * 2
    assert all(row[5].get("gap") and row[5]["id"] is None for row in view["cells"])
    assert view["last"] == ["P2:a3"]
    drawn = {cell["piece"] for row in view["cells"] for cell in row if cell["piece"]}
    assert drawn <= set(view["look"]["colours"])
    targets = {cell["id"] for row in view["cells"] for cell in row[:5]}
    assert {move["path"][0] for move in move_paths(GAME, state)} <= targets
    flipped = GAME.board_view().drawing(seen, 10, True)
    assert flipped["cells"][2][2]["piece"] == "\u25a0" and flipped["facts"][0][1] == "P2's waters"
