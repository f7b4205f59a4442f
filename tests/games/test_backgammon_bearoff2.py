"""Backgammon's two-sided bear-off database: every pair of positions of up to 3 checkers a
side against an exact expectimax over the game's own rules, hand-derived chances, the ends,
the one-sided approximation, the compiled lookup, and the file it is kept in."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from functools import cache
from math import comb
from pathlib import Path

import numpy as np
import pytest

from plies.errors import EndgameError, InvalidPositionError
from plies.games.backgammon import bearoff
from plies.games.backgammon.bearoff import (
    SCALE,
    TWO_SIDED_CHECKERS,
    TWO_SIDED_POSITIONS,
    TwoSided,
    all_positions,
    build_two_sided,
    position_index,
    two_sided_arrays,
    two_sided_database,
    two_sided_lookup,
    two_sided_win,
)
from plies.games.backgammon.rules import CHECKERS, Backgammon
from plies.solvers import endgames

GAME = Backgammon()
Counts = tuple[int, ...]
ROUNDING = 0.5 / SCALE + 1e-12
"""How far a stored chance may be from the exact one."""
EMPTY: Counts = (0,) * 6


@pytest.fixture(scope="module", autouse=True)
def table(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TwoSided]:
    """The database (and the one-sided one), built once into a folder of the test's own."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(bearoff.ENDGAMES, str(tmp_path_factory.mktemp("endgames")))
        bearoff._default_database.cache_clear()
        bearoff._default_two_sided.cache_clear()
        yield two_sided_database()
    bearoff._default_database.cache_clear()
    bearoff._default_two_sided.cache_clear()


def up_to(checkers: int) -> list[Counts]:
    """Every position of at most ``checkers`` checkers on points 1..6."""
    return [tuple(int(c) for c in counts) for counts in all_positions()[: comb(checkers + 6, 6)]]


# The chances against the game's own rules. ---------------------------------------------------


def side_text(letter: str, counts: Counts) -> str:
    items = [f"{point}:{counts[point - 1]}" for point in range(6, 0, -1) if counts[point - 1]]
    return " ".join([letter, *items, f"off:{CHECKERS - sum(counts)}"])


@cache
def turns(mine: Counts, theirs: Counts) -> tuple[frozenset[Counts], ...]:
    """For each of the 21 rolls, the home boards White's turns leave it, White on roll with
    ``mine`` against Black's ``theirs``, by the rules (the empty board: all borne off)."""
    text = f"{side_text('W', mine)} / {side_text('B', theirs)} / W to roll"
    state = GAME.parse_position(text)
    found = []
    for roll, _ in GAME.chance_outcomes(state):
        rolled = GAME.result(state, roll)
        children = [GAME.result(rolled, turn) for turn in GAME.actions(rolled)]
        found.append(frozenset(tuple(child.points[:6]) for child in children))
    return tuple(found)


CHANCES = [
    chance
    for _, chance in GAME.chance_outcomes(
        GAME.parse_position("W 1:1 off:14 / B 1:1 off:14 / W to roll")
    )
]
"""The 21 rolls' chances, in the order of :func:`turns`."""


@cache
def wins(mine: Counts, theirs: Counts) -> float:
    """The side on roll's chance, both sides maximising theirs: expectimax over the rules
    (bearing off the last checker wins at once)."""
    total = 0.0
    for chance, after in zip(CHANCES, turns(mine, theirs), strict=True):
        total += chance * max(1.0 if not any(a) else 1 - wins(theirs, a) for a in after)
    return total


def test_every_pair_of_up_to_three_checkers_is_an_exact_expectimax() -> None:
    positions = up_to(3)[1:]
    for mine in positions:
        for theirs in positions:
            assert two_sided_win(mine, theirs) == pytest.approx(wins(mine, theirs), abs=ROUNDING)


@pytest.mark.parametrize(
    ("mine", "theirs"),
    [
        ((3, 0, 0, 1, 0, 1), (0, 1, 0, 2, 0, 0)),
        ((2, 0, 0, 0, 3, 0), (0, 0, 0, 1, 1, 0)),
        ((0, 0, 0, 0, 0, 4), (2, 0, 0, 0, 0, 0)),  # only 6-6 bears off four from the 6 point
    ],
)
def test_pairs_of_five_checkers_are_an_exact_expectimax(mine: Counts, theirs: Counts) -> None:
    assert two_sided_win(mine, theirs) == pytest.approx(wins(mine, theirs), abs=ROUNDING)


def test_a_smaller_database_is_the_corner_of_the_larger(table: TwoSided) -> None:
    """The numbering puts the positions of fewer checkers first."""
    small = build_two_sided(4)
    assert small.K == 4 and small.table.shape == (210, 210)
    assert np.array_equal(small.table, table.table[:210, :210])


def test_hand_derived_chances() -> None:
    """A checker on the 6 point is off in one roll but for 1-1, 2-1, 3-1, 4-1, 3-2 (9 of 36),
    which leave it on the 1, 2 or 3 point, always off next roll."""
    six, one = (0, 0, 0, 0, 0, 1), (1, 0, 0, 0, 0, 0)
    assert two_sided_win(six, one) == pytest.approx(27 / 36, abs=ROUNDING)
    assert two_sided_win(six, six) == pytest.approx(27 / 36 + 9 / 36 * 9 / 36, abs=ROUNDING)
    assert two_sided_win(one, six) == 1


# The ends. -----------------------------------------------------------------------------------


def test_a_side_on_roll_with_no_checkers_has_won(table: TwoSided) -> None:
    """It cannot be on roll in a game (the game ended as it bore off its last checker): the
    database says it has won, and that its opponent on roll against no checkers has lost."""
    assert (table.table[0] == SCALE).all()
    assert (table.table[1:, 0] == 0).all()
    board = (2, 2, 1, 1, 1, 1)
    assert two_sided_win(EMPTY, board) == two_sided_win(EMPTY, EMPTY) == 1
    assert two_sided_win(board, EMPTY) == 0


@pytest.mark.parametrize(
    "sure", [(1, 0, 0, 0, 0, 0), (0, 1, 0, 0, 0, 0), (0, 0, 1, 0, 0, 0), (2, 0, 0, 0, 0, 0)]
)
def test_what_every_roll_bears_off_wins_for_sure(table: TwoSided, sure: Counts) -> None:
    """The smallest roll, 2-1, moves 3 pips and two checkers (1-1 moves four)."""
    assert (table.table[position_index(sure), 1:] == SCALE).all()


def test_a_position_it_does_not_hold_is_none() -> None:
    nine = (9, 0, 0, 0, 0, 0)
    assert two_sided_win(nine, (1, 0, 0, 0, 0, 0)) is None
    assert two_sided_win((1, 0, 0, 0, 0, 0), nine) is None
    assert two_sided_win((0, 0, 0, 0, 0, 8), (8, 0, 0, 0, 0, 0)) is not None
    with pytest.raises(InvalidPositionError):
        two_sided_win((1, 2, 3), EMPTY)


# Against the one-sided approximation. --------------------------------------------------------


def approximation(count: int) -> np.ndarray:
    """``race_win_probability`` over every pair of the first ``count`` positions at once."""
    needs = bearoff.database().distributions[:count]
    at_least = 1 - np.concatenate([np.zeros((count, 1)), np.cumsum(needs[:, :-1], axis=1)], 1)
    chances: np.ndarray = needs @ at_least.T
    return chances


def forced(counts: Counts) -> bool:
    """Whether every roll leaves one board, down to the end, by the rules."""
    after = turns(counts, (0, 0, 0, 0, 0, 1))
    return all(len(boards) == 1 for boards in after) and all(
        forced(board) for boards in after for board in boards if any(board)
    )


def test_it_is_close_to_the_one_sided_approximation(table: TwoSided) -> None:
    """Over every pair of nonempty positions (as measured: mean |V - A| 0.0009, at most
    0.014, mean V - A -0.0001). Both sides play to win in V: that the side on roll does better
    on average than in the approximation A is not so, as the other side plays to win too."""
    exact = table.table.astype(np.float64) / SCALE
    approximate = approximation(TWO_SIDED_POSITIONS)
    assert bearoff.race_win_probability((1, 2, 0, 0, 3, 1), (0, 0, 4, 0, 0, 1)) == pytest.approx(
        approximate[position_index((1, 2, 0, 0, 3, 1)), position_index((0, 0, 4, 0, 0, 1))]
    )
    difference = (exact - approximate)[1:, 1:]
    assert abs(difference).mean() < 0.002
    assert abs(difference).max() < 0.02
    assert abs(difference.mean()) < 0.001


def test_a_side_without_choices_is_as_the_approximation_says_or_better_for_the_other(
    table: TwoSided,
) -> None:
    """Where a side's every roll leaves one board, its chances of bearing off in k rolls do not
    depend on play: against it, the side on roll does at least as well as by playing for its
    fewest expected rolls (V >= A); on roll itself, it does at most as well as against an
    opponent playing for its fewest expected rolls (V <= A)."""
    exact = table.table.astype(np.float64) / SCALE
    approximate = approximation(TWO_SIDED_POSITIONS)
    without = [position_index(counts) for counts in up_to(3)[1:] if forced(counts)]
    assert len(without) == 9  # one checker anywhere, two on the 1 or 2 point, three on the 1
    assert (exact[1:, without] >= approximate[1:, without] - ROUNDING).all()
    assert (exact[without, 1:] <= approximate[without, 1:] + ROUNDING).all()
    assert (exact[1:, without] > approximate[1:, without] + 0.001).any()


# The compiled lookup. ------------------------------------------------------------------------


def compiled_board(white: Counts, black: Counts) -> np.ndarray:
    """The compiled rules' layout: ``board[s, p]`` side s's checkers on its own point p."""
    board = np.zeros((2, 26), np.int8)
    for side, counts in enumerate((white, black)):
        board[side, 1:7] = counts
        board[side, 0] = CHECKERS - sum(counts)
    return board


def test_the_compiled_lookup_is_two_sided_win() -> None:
    table, binomial = two_sided_arrays()
    positions = up_to(TWO_SIDED_CHECKERS)
    rng = np.random.default_rng(7)
    pairs = rng.integers(0, TWO_SIDED_POSITIONS, (500, 2))
    for i, j in pairs:
        white, black = positions[i], positions[j]
        board = compiled_board(white, black)
        assert two_sided_lookup(table, binomial, board, 0) == two_sided_win(white, black)
        assert two_sided_lookup(table, binomial, board, 1) == two_sided_win(black, white)


def test_the_compiled_lookup_refuses_what_it_does_not_hold() -> None:
    table, binomial = two_sided_arrays()
    board = compiled_board((9, 0, 0, 0, 0, 0), (0, 0, 1, 0, 0, 0))
    assert two_sided_lookup(table, binomial, board, 0) == -1.0
    assert two_sided_lookup(table, binomial, board, 1) == -1.0
    for outside in (7, 24, 25):  # a point outside the home board, the bar
        board = compiled_board((1, 0, 0, 0, 0, 0), (0, 0, 1, 0, 0, 0))
        board[1, outside] = 1
        assert two_sided_lookup(table, binomial, board, 0) == -1.0
        board = compiled_board((15, 0, 0, 0, 0, 0), (0, 0, 1, 0, 0, 0))
        assert two_sided_lookup(table, binomial, board, 1) == -1.0


# The file it is kept in. ---------------------------------------------------------------------


def test_it_is_kept_beside_the_one_sided_database() -> None:
    assert (
        bearoff.default_two_sided_file() == endgames.default_folder(GAME) / "bearoff-two-sided.npz"
    )
    assert bearoff.default_two_sided_file().is_file()  # written on first use (by the fixture)


def test_it_reads_back_what_it_writes(table: TwoSided, tmp_path: Path) -> None:
    bearoff.save_two_sided(table, tmp_path / "kept.npz")
    again = bearoff.read_two_sided(tmp_path / "kept.npz")
    assert again.K == TWO_SIDED_CHECKERS and np.array_equal(again.table, table.table)
    assert again.table.dtype == np.uint16 and not again.table.flags.writeable


def _save_arrays(path: Path, table: np.ndarray, **meta: object) -> None:
    header = {"format": bearoff.TWO_SIDED_FORMAT, "checkers": TWO_SIDED_CHECKERS, **meta}
    np.savez(path, table=table, meta=np.array(json.dumps(header)))


@pytest.mark.parametrize(
    ("damage", "reason"),
    [
        ("junk", "not a readable bear-off database"),
        ("truncated", "not a readable bear-off database"),
        ("foreign", "not a plies-bearoff-two-sided-1 bear-off database"),
        ("one-sided", "not a plies-bearoff-two-sided-1 bear-off database"),
        ("smaller", "holds 4 checkers a side in a table of shape (210, 210), not 8"),
        ("float", "holds a float32 table, not uint16"),
        ("changed", "is damaged"),
    ],
)
def test_a_damaged_file_is_named_in_one_line(
    table: TwoSided, tmp_path: Path, damage: str, reason: str
) -> None:
    path = tmp_path / bearoff.TWO_SIDED_FILE
    if damage == "junk":
        path.write_bytes(b"not a zip file")
    elif damage == "truncated":
        bearoff.save_two_sided(table, path)
        path.write_bytes(path.read_bytes()[:100_000])
    elif damage == "foreign":
        _save_arrays(path, table.table, format="othello-patterns-1")
    elif damage == "one-sided":
        bearoff.save(bearoff.database(), path)
    elif damage == "smaller":
        bearoff.save_two_sided(TwoSided(table.table[:210, :210], 4), path)
    elif damage == "float":
        _save_arrays(path, table.table.astype(np.float32))
    else:
        changed = table.table.copy()
        changed[5, 7] ^= 1
        _save_arrays(path, changed, crc32=0)
    with pytest.raises(EndgameError, match=re.escape(reason)) as error:
        bearoff.read_two_sided(path)
    assert "\n" not in str(error.value)


def test_a_table_with_a_wrong_first_row_is_damaged(table: TwoSided, tmp_path: Path) -> None:
    """Written whole (its CRC-32 right), but not a database: a side on roll with none left
    has not won."""
    changed = table.table.copy()
    changed[0, 3] = 0
    bearoff.save_two_sided(TwoSided(changed, TWO_SIDED_CHECKERS), tmp_path / "wrong.npz")
    with pytest.raises(EndgameError, match="is damaged"):
        bearoff.read_two_sided(tmp_path / "wrong.npz")


def test_a_damaged_file_is_built_again(
    table: TwoSided,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    path = tmp_path / bearoff.TWO_SIDED_FILE
    bearoff.save_two_sided(table, path)
    path.write_bytes(path.read_bytes()[:100_000])
    monkeypatch.setattr(bearoff, "build_two_sided", lambda: table)
    assert two_sided_database(path) is table
    assert capsys.readouterr().err.count("\n") == 1
    assert np.array_equal(bearoff.read_two_sided(path).table, table.table)
    assert two_sided_database(path) is table  # read once a process


def test_a_folder_it_cannot_write_leaves_the_database_in_memory(
    table: TwoSided,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    (tmp_path / "file").write_text("in the way")
    monkeypatch.setattr(bearoff, "build_two_sided", lambda: table)
    assert two_sided_database(tmp_path / "file" / bearoff.TWO_SIDED_FILE) is table
    error = capsys.readouterr().err
    assert "cannot keep the two-sided bear-off database" in error and error.count("\n") == 1
