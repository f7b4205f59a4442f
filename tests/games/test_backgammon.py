"""Backgammon: rules case by case, the turn generator against a naive brute force on random
positions, chance, notation round trips, bad input, payoffs and the evaluation."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from plies.agents import make_agent
from plies.errors import IllegalMoveError, InvalidPositionError
from plies.game import CHANCE, checked_outcomes
from plies.games import make_game
from plies.games.backgammon.rules import Backgammon, BackgammonState, Roll
from plies.play import play_game
from plies.testing import random_agent, random_game

GAME = Backgammon()
Position = tuple[tuple[int, ...], tuple[int, int], tuple[int, int]]


def state(text: str) -> BackgammonState:
    return GAME.parse_position(text)


def legal(text: str) -> set[str]:
    position = state(text)
    return {GAME.format_action(position, action) for action in GAME.actions(position)}


# A naive turn generator: White's numbering throughout, every die order, every checker. -------


def naive_results(position: BackgammonState) -> set[Position]:
    """The positions of the legal turns: all plays of the dice in every order, moving any
    checker each time, then the rules on how many dice and which die must be played."""
    high, low = position.dice
    orders = [(high,) * 4] if high == low else [(high, low), (low, high)]
    start = (position.points, position.bar, position.off)
    reached: list[list[set[Position]]] = []  # per order, the positions after 0, 1, ... dice
    for order in orders:
        layers = [{start}]
        for die in order:
            after = {nxt for pos in layers[-1] for nxt in naive_moves(pos, position.mover, die)}
            if not after:
                break
            layers.append(after)
        reached.append(layers)
    most = max(len(layers) - 1 for layers in reached)
    if high != low and most == 1 and len(reached[0]) > 1:
        return reached[0][1]  # only one die can be played: the larger if it can be
    return set().union(*(layers[most] for layers in reached if len(layers) > most))


def naive_moves(pos: Position, side: int, die: int) -> Iterator[Position]:
    """Every position one checker of ``side`` can reach with ``die``."""
    points, bar, off = pos
    sign, step = (1, -1) if side == 0 else (-1, 1)  # White moves 24 -> 1, Black 1 -> 24
    home = range(1, 7) if side == 0 else range(19, 25)

    def pips(point: int) -> int:  # distance from bearing off
        return point if side == 0 else 25 - point

    def mine(point: int) -> int:
        return max(points[point - 1] * sign, 0)

    def land(board: list[int], point: int) -> tuple[list[int], int]:
        hit = 0
        if board[point - 1] * sign == -1:
            board[point - 1] = 0
            hit = 1
        if board[point - 1] * sign <= -2:
            raise ValueError("blocked")
        board[point - 1] += sign
        return board, hit

    def moved(board: list[int], bar_change: int, hit: int, off_change: int) -> Position:
        new_bar, new_off = list(bar), list(off)
        new_bar[side] += bar_change
        new_bar[1 - side] += hit
        new_off[side] += off_change
        return tuple(board), (new_bar[0], new_bar[1]), (new_off[0], new_off[1])

    if bar[side]:
        entry = 25 - die if side == 0 else die
        try:
            board, hit = land(list(points), entry)
        except ValueError:
            return
        yield moved(board, -1, hit, 0)
        return
    everything_home = all(mine(p) == 0 for p in range(1, 25) if p not in home)
    for point in range(1, 25):
        if not mine(point):
            continue
        target = point + step * die
        board = list(points)
        board[point - 1] -= sign
        if 1 <= target <= 24:
            try:
                board, hit = land(board, target)
            except ValueError:
                continue
            yield moved(board, 0, hit, 0)
        elif everything_home:
            farther = any(mine(p) for p in home if pips(p) > pips(point))
            if die == pips(point) or (die > pips(point) and not farther):
                yield moved(board, 0, 0, 1)


def generated_results(position: BackgammonState) -> list[Position]:
    results = []
    for action in GAME.actions(position):
        after = GAME.result(position, action)
        assert after.mover == 1 - position.mover and after.dice == ()
        results.append((after.points, after.bar, after.off))
    return results


def random_position(rng: random.Random) -> BackgammonState:
    """A random legal, unfinished position with dice: each side's checkers spread over a zone
    of its points, singly or in pairs (made points), some on the bar and some borne off."""
    while True:
        points = [0] * 24
        bar, off = [0, 0], [0, 0]
        for side in (0, 1):
            sign = 1 if side == 0 else -1
            lowest, highest = rng.choice([(1, 24), (1, 6), (1, 6), (1, 9), (13, 24), (17, 24)])
            on_bar, borne_off = rng.choice([0, 0, 0.05, 0.2]), rng.choice([0, 0, 0.2, 0.5])
            blocks = rng.random() < 0.3  # checkers in pairs: made points that block a lot
            placed = 0
            while placed < 15:
                draw = rng.random()
                if draw < on_bar:
                    bar[side] += 1
                    placed += 1
                    continue
                if draw < on_bar + borne_off:
                    off[side] += 1
                    placed += 1
                    continue
                size = min(2 if blocks else 1, 15 - placed)
                for _try in range(100):
                    own = rng.randint(lowest, highest)
                    index = own - 1 if side == 0 else 24 - own
                    if points[index] * sign >= 0:
                        points[index] += sign * size
                        break
                else:
                    bar[side] += size
                placed += size
        if 15 not in off:
            dice = tuple(sorted((rng.randint(1, 6), rng.randint(1, 6)), reverse=True))
            return BackgammonState(
                tuple(points), (bar[0], bar[1]), (off[0], off[1]), rng.randrange(2), dice
            )


def runner_position(rng: random.Random) -> BackgammonState:
    """A random position where often only one die, or none, can be played: the mover has one
    checker out on a point 9..24 and 14 on its 1 point (stuck there until all are home), the
    opponent made points scattered between; White or Black moves, mirrored."""
    points = [0] * 24
    points[0] = 14
    runner = rng.randint(9, 24)
    points[runner - 1] += 1
    black_off = 15
    for index, point in enumerate(rng.sample([p for p in range(2, 24) if p != runner], 7)):
        if index == 0 or rng.random() < 0.7:  # at least one made point: Black has not won
            points[point - 1] -= 2
            black_off -= 2
    high, low = sorted((rng.randint(1, 6), rng.randint(1, 6)), reverse=True)
    white = BackgammonState(tuple(points), (0, 0), (0, black_off), 0, (high, low))
    if rng.random() < 0.5:
        return white
    mirrored = tuple(-count for count in reversed(white.points))
    return BackgammonState(mirrored, (0, 0), (black_off, 0), 1, (high, low))


def playout_positions(games: int, seed: int) -> Iterator[BackgammonState]:
    """The positions with dice of random games."""
    rng = random.Random(seed)
    for _ in range(games):
        for position in random_game(GAME, rng):
            if not GAME.is_terminal(position) and GAME.to_move(position) != CHANCE:
                yield position


def check_against_naive(position: BackgammonState) -> None:
    results = generated_results(position)
    assert len(set(results)) == len(results), "two actions reach the same position"
    assert set(results) == naive_results(position), GAME.format_position(position)


def test_turns_match_the_brute_force_on_random_positions() -> None:
    rng = random.Random(7)
    for _ in range(500):
        check_against_naive(random_position(rng))


def test_turns_match_the_brute_force_when_few_dice_can_be_played() -> None:
    rng = random.Random(13)
    for _ in range(500):
        check_against_naive(runner_position(rng))


def test_turns_match_the_brute_force_in_random_games() -> None:
    for position in playout_positions(8, seed=11):
        check_against_naive(position)


def test_turns_match_the_brute_force_for_every_roll_of_the_start() -> None:
    start = GAME.initial_state()
    for roll in GAME.actions(start._replace(mover=0)):  # the 21 rolls of a later turn
        assert isinstance(roll, Roll)
        check_against_naive(start._replace(mover=0, dice=(roll.high, roll.low)))


# Rules, case by case ------------------------------------------------------------------------

OPENING_PLAYS = {
    "2-1": 15, "3-1": 16, "3-2": 17, "4-1": 14, "4-2": 18, "4-3": 17, "5-1": 8, "5-2": 8,
    "5-3": 9, "5-4": 9, "6-1": 10, "6-2": 14, "6-3": 14, "6-4": 14, "6-5": 7,
}  # fmt: skip
"""Distinct plays of each opening roll, as OpenSpiel's backgammon also counts them (its full
turns, doubles' two halves joined, grouped by the position reached)."""


def test_distinct_plays_of_the_opening_rolls() -> None:
    start = GAME.initial_state()
    for roll in GAME.actions(start):
        assert isinstance(roll, Roll)
        position = GAME.result(start, roll)
        assert len(GAME.actions(position)) == OPENING_PLAYS[f"{roll.high}-{roll.low}"]


def test_entering_comes_first() -> None:
    text = "W bar:1 13:5 8:3 6:6 / B 24:2 13:5 8:3 6:5 / W 6-3"
    turns = GAME.actions(state(text))
    assert turns
    assert all(turn[0] == (25, 22) for turn in turns)  # the 6 would land on Black's 6 point
    assert {"bar/22 13/7", "bar/16"} <= legal(text)


def test_blocked_entry_passes_or_enters_what_it_can() -> None:
    closed = "B 6:3 5:2 4:2 3:2 2:2 1:2 off:2"
    assert legal(f"W bar:1 13:14 / {closed} / W 5-2") == {"pass"}
    one_open = "B 6:3 5:2 4:2 3:2 1:4 off:2"  # Black's 2 point, White's 23, is open
    assert legal(f"W bar:2 13:13 / {one_open} / W 5-2") == {"bar/23"}
    assert legal(f"W bar:1 13:14 / {one_open} / W 5-2") == {"bar/23 13/8", "bar/18"}


def test_hitting_sends_a_blot_to_the_bar() -> None:
    position = state("W 13:15 / B 18:1 off:14 / W 6-1")  # Black's 18 is White's 7
    after = GAME.result(position, GAME.parse_action(position, "13/7* 13/12"))
    assert after.bar == (0, 1)
    assert GAME.format_position(after) == "W 13:13 12:1 7:1 / B bar:1 off:14 / B to roll"


def test_no_landing_on_two_or_more_opposing_checkers() -> None:
    # Black's 18 point (White's 7) is made: White's 6 from 13 is blocked, the 5 is not.
    assert legal("W 13:15 / B 18:2 24:13 / W 6-5") == {"13/2"}
    assert legal("W 13:15 / B 24:15 / W 6-5") == {"13/8 13/7", "13/2"}


def test_bear_off_with_the_exact_and_a_higher_die() -> None:
    black = "B 1:15"  # on White's 24 point, out of the way
    assert legal(f"W 4:1 3:1 off:13 / {black} / W 6-5") == {"4/off 3/off"}
    # The 5 cannot bear off from 2 while a checker is on 6: 6/1 first, or 6/3 and the 5 off.
    assert legal(f"W 6:1 2:1 off:13 / {black} / W 5-3") == {"6/1 2/off", "6/off"}
    assert legal(f"W 5:1 off:14 / {black} / W 6-2") == {"5/off"}


def test_no_bearing_off_with_a_checker_outside() -> None:
    assert legal("W 10:1 2:14 / B 1:15 / W 2-1") == {"10/7", "10/8 2/1"}
    assert "7/6 2/off" in legal("W 7:1 2:14 / B 1:15 / W 2-1")  # once home, 2/off is legal


def test_both_dice_must_be_played_when_possible() -> None:
    # 13/12 alone leaves the 6 unplayable (12/6 and 24/18 are blocked): not legal, as 13/7
    # then 24/23, or 24/23/17, plays both.
    text = "W 24:1 13:1 1:13 / B 19:2 7:2 off:11 / W 6-1"
    assert legal(text) == {"24/23 13/7", "24/17"}
    with pytest.raises(IllegalMoveError, match="plays 1 of the dice of 6-1, and 2 can be"):
        GAME.parse_action(state(text), "13/12")


def test_the_larger_die_when_only_one_can_be_played() -> None:
    text = "W 24:1 1:14 / B 8:2 off:13 / W 6-1"  # Black's 8 is White's 17: 24/18/17 and 24/23/17
    assert legal(text) == {"24/18"}
    with pytest.raises(IllegalMoveError, match=r"must be the larger \(6\)"):
        GAME.parse_action(state(text), "24/23")


def test_doubles_play_four_times_or_as_many_as_can() -> None:
    start = GAME.initial_state()._replace(mover=0, dice=(3, 3))
    assert all(len(turn) == 4 for turn in GAME.actions(start))
    assert GAME.parse_action(start, "8/5(2) 6/3(2)") == GAME.parse_action(start, "6/3 8/5 6/3 8/5")
    assert legal("W 24:2 1:13 / B 7:2 off:13 / W 3-3") == {"24/21(2)"}  # 21/18 is blocked


def test_pass_only_when_nothing_can_move() -> None:
    text = "W bar:1 13:14 / B 6:3 5:2 4:2 3:2 2:2 1:2 off:2 / W 6-6"
    position = state(text)
    assert GAME.actions(position) == [()]
    assert GAME.format_action(position, ()) == "pass"
    assert GAME.parse_action(position, "pass") == ()
    after = GAME.result(position, ())
    assert (after.points, after.bar, after.mover) == (position.points, position.bar, 1)


def test_results_of_turns_are_checked() -> None:
    position = state("W 24:1 13:1 1:13 / B 19:2 7:2 off:11 / W 6-1")
    assert GAME.result(position, ((13, 7), (24, 23))) == GAME.result(position, ((24, 23), (13, 7)))
    for illegal in (((13, 12),), ((24, 18), (18, 17)), ((13, 9),), ((24, 17),), ((1, 0), (13, 7))):
        with pytest.raises(IllegalMoveError):
            GAME.result(position, illegal)
    with pytest.raises(IllegalMoveError):
        GAME.result(position, Roll(6, 1))


# Chance -------------------------------------------------------------------------------------


def test_the_opening_roll_has_30_outcomes_and_the_winner_moves() -> None:
    start = GAME.initial_state()
    assert GAME.to_move(start) == CHANCE
    outcomes = checked_outcomes(GAME, start)
    assert [roll for roll, _ in outcomes] == list(GAME.actions(start))
    assert len(outcomes) == 30 and all(p == pytest.approx(1 / 30) for _, p in outcomes)
    assert all(isinstance(r, Roll) and r.high > r.low for r, _ in outcomes)
    after = GAME.result(start, Roll(6, 2, 1))
    assert GAME.to_move(after) == "Black" and after.dice == (6, 2)


def test_later_rolls_have_21_outcomes_with_exact_probabilities() -> None:
    position = GAME.result(GAME.result(GAME.initial_state(), Roll(3, 1, 0)), ((8, 5), (6, 5)))
    assert GAME.to_move(position) == CHANCE
    outcomes = checked_outcomes(GAME, position)
    assert [roll for roll, _ in outcomes] == list(GAME.actions(position))
    assert len(outcomes) == 21
    assert sum(p for _, p in outcomes) == pytest.approx(1, abs=1e-12)
    for roll, probability in outcomes:
        assert isinstance(roll, Roll)
        assert probability == pytest.approx((1 if roll.high == roll.low else 2) / 36)
    assert GAME.format_action(position, Roll(6, 6)) == "6-6"
    assert GAME.parse_action(position, "1-3") == Roll(3, 1)


def test_results_of_rolls_are_checked() -> None:
    start = GAME.initial_state()
    with pytest.raises(IllegalMoveError):
        GAME.result(start, Roll(3, 3, 0))  # no doubles in the opening roll
    with pytest.raises(IllegalMoveError):
        GAME.result(start, Roll(3, 1))  # the opening roll names its winner
    with pytest.raises(IllegalMoveError):
        GAME.result(start, ((24, 21),))


# Notation -----------------------------------------------------------------------------------


def test_positions_and_moves_round_trip() -> None:
    rng = random.Random(3)
    for _ in range(200):
        position = random_position(rng)
        assert GAME.parse_position(GAME.format_position(position)) == position
        for action in GAME.actions(position):
            assert GAME.parse_action(position, GAME.format_action(position, action)) == action
        chance = position._replace(dice=())
        assert GAME.parse_position(GAME.format_position(chance)) == chance


def test_lenient_move_reading() -> None:
    opening = state("W 24:2 13:5 8:3 6:5 / B 24:2 13:5 8:3 6:5 / W 6-5")
    run = GAME.parse_action(opening, "24/13")
    for text in ("24/18/13", "24/18 18/13", "18/13 24/18", " 24/18,  18/13 "):
        assert GAME.parse_action(opening, text) == run
    # A Black blot on White's 18: 24/13 may hit it on the way (through 18) or not (through 19).
    position = state("W 24:2 13:5 8:3 6:5 / B 24:2 13:5 8:3 7:1 5:4 / W 6-5")
    through = GAME.parse_action(position, "24/13")
    hitting = GAME.parse_action(position, "24/18*/13")
    assert GAME.result(position, hitting).bar == (0, 1)
    assert GAME.result(position, through).bar == (0, 0)
    assert GAME.format_action(position, hitting) == "24/18*/13"
    assert GAME.format_action(position, through) == "24/13"
    assert GAME.parse_action(position, "24/18 13/8") == GAME.parse_action(position, "13/8 24/18*")


def test_bar_and_off_notation() -> None:
    position = state("W bar:1 6:2 5:12 / B 24:15 / W 3-1")
    assert GAME.parse_action(position, "BAR/22 6/5") == ((25, 22), (6, 5))
    text = "W 6:2 3:1 off:12 / B 1:15 / W 6-3"
    assert legal(text) == {"6/3 6/off", "6/off 3/off"}
    position = state(text)
    assert GAME.parse_action(position, "3/off 6/off") == GAME.parse_action(position, "6/off 3/off")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("24-18", "is not written like"),
        ("xyz", "is not written like"),
        ("25/20", "there is no point 25"),
        ("24/18(5)", "repeats a move 5 times"),
        ("6/off/3", "goes on after 'off'"),
        ("24/18 13/11 8/6", "it has 3 moves and 6-5 plays at most 2"),
        ("13/9", "wrong die: it needs 4 and the roll is 6-5"),
        ("19/13", "there is no checker of yours on point 19"),
        ("13/18", "checkers move down"),
        ("6/off", "bearing off with checkers outside home"),
        ("bar/20", "there is no checker of yours on the bar"),
        ("pass", "'pass' is not legal: 6-5 can be played"),
        ("24/18 24/13", "wrong die: it needs 11 and the roll is 6-5 \\(5 left\\)"),
        ("24/13 13/8", "all the dice of 6-5 are used by the other moves"),
    ],
)
def test_bad_moves_name_the_problem(text: str, message: str) -> None:
    position = state("W 24:2 13:5 8:3 6:5 / B 24:2 13:5 8:3 6:5 / W 6-5")
    with pytest.raises(IllegalMoveError, match=message):
        GAME.parse_action(position, text)


def test_blocked_points_and_bar_first_are_named() -> None:
    blocked = state("W 24:2 13:5 8:3 6:5 / B 24:2 13:5 8:3 6:5 / W 5-4")
    with pytest.raises(IllegalMoveError, match=r"^'24/19' is not legal: point 19 is blocked$"):
        GAME.parse_action(blocked, "13/9 24/19")
    on_bar = state("W bar:1 24:1 13:5 8:3 6:5 / B 24:2 13:5 8:3 6:5 / W 6-4")
    with pytest.raises(IllegalMoveError, match="a checker on the bar must enter first"):
        GAME.parse_action(on_bar, "13/7 13/9")
    with pytest.raises(IllegalMoveError, match="the only legal move is 'pass'"):
        GAME.parse_action(
            state("W bar:1 13:14 / B 6:3 5:2 4:2 3:2 2:2 1:2 off:2 / W 6-5"), "bar/20"
        )


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("3-1", "names its winner"),
        ("White 3-3", "two different dice"),
        ("7-1", "is not written like 3-1"),
    ],
)
def test_bad_rolls(text: str, message: str) -> None:
    with pytest.raises(IllegalMoveError, match=message):
        GAME.parse_action(GAME.initial_state(), text)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("W 24:2 13:5 8:3 6:5 / B 24:2 13:5 8:3 6:5", "is not three parts"),
        ("W 24:2 13:5 8:3 6:4 / B 24:2 13:5 8:3 6:5 / W 3-1", "White has 14 checkers"),
        ("W 24:2 13:5 8:3 6:5 / B 24:2 13:5 8:3 6:6 / W 3-1", "Black has 16 checkers"),
        ("W 1:15 / B 24:15 / W 3-1", "has checkers of both colours"),
        ("W 24:2 13:5 8:3 6:5 / W 24:2 13:5 8:3 6:5 / W 3-1", "gives White twice"),
        ("X 24:2 13:5 8:3 6:5 / B 24:2 13:5 8:3 6:5 / W 3-1", "does not start with W or B"),
        ("W 24:2 13:5 8:3 6=5 / B 24:2 13:5 8:3 6:5 / W 3-1", "is not point:count"),
        ("W 26:2 13:5 8:3 6:5 / B 24:2 13:5 8:3 6:5 / W 3-1", "there is no point 26"),
        ("W 24:2 24:5 8:3 6:5 / B 24:2 13:5 8:3 6:5 / W 3-1", "White's 24 is given twice"),
        ("W 24:2 13:5 8:3 6:5 / B 24:2 13:5 8:3 6:5 / W 7-1", "is not 'opening'"),
        ("W 24:2 13:5 8:3 5:5 / B 24:2 13:5 8:3 6:5 / opening", "only in the starting position"),
        ("W off:15 / B 24:15 / W to roll", "the game is over with B to roll"),
        ("W off:15 / B 24:15 / B 3-1", "the game is over with B to roll"),
        ("W off:15 / B off:15 / B to roll", "both sides have borne off all 15"),
    ],
)
def test_bad_positions_name_the_problem(text: str, message: str) -> None:
    with pytest.raises(InvalidPositionError, match=message):
        GAME.parse_position(text)


def test_display_shows_numbers_bar_off_dice_and_mover() -> None:
    position = state("W bar:1 13:5 8:3 6:5 off:1 / B 24:2 13:5 8:3 6:5 / B 6-6")
    picture = GAME.display(position)
    lines = picture.splitlines()
    assert lines[0].split() == [str(p) for p in range(13, 25)]  # numbered from Black's side
    assert "BAR" in picture and "O White: 1 on the bar, 1 off" in picture
    assert lines[-1] == "Black (X) to move with 6-6"
    assert GAME.display(GAME.initial_state()).splitlines()[-1].startswith("opening roll")


# Playing whole games ------------------------------------------------------------------------


def naive_payoff(final: BackgammonState) -> tuple[int, int]:
    """(White's, Black's) utility of a finished game, from the board."""
    winner = 0 if final.off[0] == 15 else 1
    loser = 1 - winner
    if final.off[loser]:
        points = 1
    else:
        in_winner_home = (
            any(n < 0 for n in final.points[:6])
            if winner == 0
            else any(n > 0 for n in final.points[18:])
        )
        points = 3 if final.bar[loser] or in_winner_home else 2
    return (points, -points) if winner == 0 else (-points, points)


def test_random_games_end_with_legal_payoffs() -> None:
    rng = random.Random(5)
    sizes = set()
    for _ in range(60):
        position = random_game(GAME, rng)[-1]
        assert GAME.payoffs(position) == naive_payoff(position)
        sizes.add(abs(GAME.payoffs(position)[0]))
    assert sizes == {1, 2, 3}


def test_evaluation_is_zero_sum_and_strictly_inside_the_bounds() -> None:
    low, high = GAME.value_bounds
    rng = random.Random(9)
    for _ in range(300):
        position = random_position(rng)
        for each in (position, position._replace(dice=())):
            white, black = GAME.evaluate(each, "White"), GAME.evaluate(each, "Black")
            assert low < white < high and white == pytest.approx(-black)
    assert GAME.evaluate(GAME.initial_state(), "White") == 0
    final = state("W off:15 / B 24:15 / B to roll")  # Black's 24 is in White's home
    assert GAME.evaluate(final, "White") == GAME.utility(final, "White") == 3


def test_evaluation_prefers_the_race_leader_and_made_points() -> None:
    ahead = state("W 6:5 5:5 4:5 / B 6:5 5:5 3:5 / B to roll")  # White 75 pips, Black 70
    assert GAME.evaluate(ahead, "Black") > 0
    made = state("W 24:2 13:5 8:2 6:4 5:2 / B 24:2 13:5 8:3 6:5 / B to roll")
    blots = state("W 24:2 13:5 8:2 6:4 4:1 3:1 / B 24:2 13:5 8:3 6:5 / B to roll")
    assert GAME.evaluate(made, "White") > GAME.evaluate(blots, "White")


def test_greedy_evaluation_beats_random_play() -> None:
    greedy = make_agent("expectiminimax:depth=1", GAME)  # the turn EVAL likes best
    wins = 0
    for index in range(20):
        side = GAME.players[index % 2]
        agents = {side: greedy, GAME.opponent(side): random_agent(index)}
        record = play_game(GAME, agents, chance=random.Random(1000 + index))
        wins += GAME.utility(record.state, side) > 0
    assert wins >= 18


def test_registered() -> None:
    game = make_game("backgammon")
    assert isinstance(game, Backgammon) and game.players == ("White", "Black")
