"""The one-sided bear-off database: for every position of up to 15 checkers on a side's home
board, the distribution of the number of rolls it needs to bear them all off.

This is the classic one-sided database (Tesauro's and Sconyers' tables, GNU Backgammon's
``bearoff.c``), computed here from the rules, not copied. Each side is taken alone, as if the
other were not there: a race's home boards do not interact. The side plays to minimise its
expected number of rolls, so the database gives both that mean and the whole distribution,
from which a pure race's winning chances follow (:func:`race_win_probability`).

Positions. A position is six counts, the checkers on points 1..6 (point 1 next to the edge
they leave by), at most :data:`CHECKERS` in all. Read as 15 stars and 6 bars (the stars before
the first bar on point 1, between the first and second on point 2, ..., after the sixth the
checkers off), a position is a choice of 6 bar places among 21, numbered densely by the
combinatorial number system: bar places ``b0 < ... < b5`` are position ``sum C(b_k, k + 1)``,
the empty board 0, :data:`POSITIONS` in all. The last bar stands after all ``n`` checkers on
the board, so the positions of ``n`` checkers are numbers ``C(n + 5, 6)`` to ``C(n + 6, 6) - 1``.

>>> position_index((0, 0, 0, 0, 0, 0)), position_index((0, 0, 0, 0, 0, 1))
(0, 1)
>>> position_counts(position_index((3, 2, 2, 3, 3, 2)))
(3, 2, 2, 3, 3, 2)
>>> POSITIONS
54264

Dynamic programming. Every move lowers the pips, so positions are solved in increasing order
of pips, every position a play can reach before it. For each of the 21 rolls the best play is
the one reaching the position of fewest expected rolls, under the rules of
:mod:`plies.games.backgammon.rules` for a side whose checkers are all home: a die bears off a
checker from its own point, or from the highest occupied point when it is higher than them
all; a double is played four times; every die is used while checkers are left (in a home board
each die can always be played, so the rule on using the larger die never decides). A
position's distribution is its best plays' distributions one roll later, weighted by the rolls'
chances (1/36 a double, 2/36 another roll). Where several plays are equally good their
distributions are the same too (checked over every position and roll when this was written),
so the first found is taken. A single die's moves are a table, built by NumPy over all
positions at once; the plays of a roll are walked through that table by a compiled loop
(:func:`_solve`).

The database takes about a second to build; it is kept in the endgame databases' folder
(``$PLIES_ENDGAMES/backgammon``, ``~/.local/share/plies/endgames/backgammon`` by default, as
:func:`plies.solvers.endgames.default_folder`), built there on first use.
"""

from __future__ import annotations

import json
import operator
import os
import sys
import zipfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from itertools import combinations
from math import comb
from pathlib import Path
from typing import Any, TypeVar

import numpy as np

from plies.compiled import compiled
from plies.errors import EndgameError, InvalidPositionError
from plies.inputs import write_atomically

POINTS = 6
"""The home board's points."""
CHECKERS = 15
"""The most checkers a position holds (a side's checkers, :data:`.rules.CHECKERS`)."""
POSITIONS = comb(CHECKERS + POINTS, POINTS)
"""Positions of 0..15 checkers on six points, the empty one included."""
MAX_ROLLS = 30
"""The most rolls a position can need (:func:`build` asserts that none needs more): those of 88
pips or more need 30 when they roll 2-1 again and again, 29 of which move only 87 pips."""
FORMAT = "plies-bearoff-1"
"""The format written in the file's ``meta``."""
FILE = "bearoff-one-sided.npz"
"""The file's name in backgammon's endgame folder."""
ENDGAMES = "PLIES_ENDGAMES"
"""The environment variable naming the endgame databases' folder
(:data:`plies.solvers.endgames.ENDGAMES`)."""
DEFAULT_ENDGAMES = "~/.local/share/plies/endgames"
"""That folder unless the variable is set (:data:`plies.solvers.endgames.DEFAULT_ENDGAMES`)."""
ROLLS = np.array([(high, low) for high in range(1, 7) for low in range(1, high + 1)], np.int64)
"""The 21 rolls, larger die first: 1-1, 2-1, 2-2, ... 6-6."""
CHANCES = np.array([(1 if high == low else 2) / 36 for high, low in ROLLS])
"""Each roll's chance."""
_CHOOSE = [[comb(n, k) for k in range(POINTS + 1)] for n in range(CHECKERS + POINTS + 1)]
_BINOMIAL = np.array(_CHOOSE)
_BARS = np.arange(POINTS)
_TOLERANCE = 1e-9
"""How far from 1 a stored distribution's sum may be."""
_T = TypeVar("_T")


@dataclass(frozen=True)
class Bearoff:
    """The database: ``distributions[i, k]`` the chance that position ``i`` needs exactly
    ``k`` rolls (0..:data:`MAX_ROLLS`), ``means[i]`` its expected rolls. Read-only arrays."""

    distributions: np.ndarray
    means: np.ndarray

    @classmethod
    def of(cls, distributions: np.ndarray) -> Bearoff:
        """The database of ``distributions``, its means computed from them."""
        means = distributions @ np.arange(distributions.shape[1], dtype=np.float64)
        distributions.flags.writeable = means.flags.writeable = False
        return cls(distributions, means)


def position_indices(counts: np.ndarray) -> np.ndarray:
    """The numbers of many positions at once (the last axis: counts on points 1..6, unchecked).

    >>> position_indices(np.array([[0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 1], [15, 0, 0, 0, 0, 0]]))
    array([    0,     1, 54263])
    """
    bars = np.cumsum(counts, axis=-1) + _BARS
    ranks: np.ndarray = _BINOMIAL[bars, _BARS + 1].sum(axis=-1)
    return ranks


@cache
def all_positions() -> np.ndarray:
    """Every position's counts, row ``i`` position ``i`` (read-only ``[POSITIONS, 6]``)."""
    bars = np.array(list(combinations(range(CHECKERS + POINTS), POINTS)), np.int64)
    counts = np.diff(bars, axis=1, prepend=-1) - 1
    table = np.empty_like(counts)
    table[position_indices(counts)] = counts
    table.flags.writeable = False
    return table


def position_index(counts: Sequence[int]) -> int:
    """The number of the position with ``counts[p - 1]`` checkers on point p."""
    try:
        found = [operator.index(count) for count in counts]
    except TypeError:
        found = []
    if len(found) != POINTS or min(found) < 0 or sum(found) > CHECKERS:
        raise InvalidPositionError(
            f"bear-off position {tuple(counts)!r}: not six counts of checkers on points 1..6, "
            f"at most {CHECKERS} in all"
        )
    index = checkers = 0
    for point, count in enumerate(found):
        checkers += count
        index += _CHOOSE[checkers + point][point + 1]
    return index


def position_counts(index: int) -> tuple[int, ...]:
    """The counts on points 1..6 of position ``index``."""
    if not 0 <= index < POSITIONS:
        raise InvalidPositionError(f"bear-off position {index}: not in 0..{POSITIONS - 1}")
    return tuple(int(count) for count in all_positions()[index])


def _single_steps() -> np.ndarray:
    """``steps[i, die - 1, point - 1]``: the position a die makes from position ``i`` moving
    (or bearing off) a checker from ``point``, or -1 where it cannot."""
    counts = all_positions()
    occupied = counts > 0
    highest = np.where(occupied.any(axis=1), POINTS - np.argmax(occupied[:, ::-1], axis=1), 0)
    steps = np.full((POSITIONS, 6, POINTS), -1, np.int32)
    for die in range(1, 7):
        for point in range(1, POINTS + 1):
            target = point - die
            legal = occupied[:, point - 1] & ((target >= 0) | (highest == point))
            moved = counts[legal].copy()
            moved[:, point - 1] -= 1
            if target > 0:
                moved[:, target - 1] += 1
            steps[legal, die - 1, point - 1] = position_indices(moved)
    return steps


@compiled
def _better(candidate: int, best: int, means: np.ndarray) -> int:
    return candidate if best < 0 or means[candidate] < means[best] else best


@compiled
def _best_play(
    position: int, first: int, second: int, steps: np.ndarray, means: np.ndarray, best: int
) -> int:
    """The best of ``best`` and the plays of ``first`` then ``second`` (two different dice)."""
    for a in range(POINTS):
        middle = steps[position, first - 1, a]
        if middle == 0:
            return 0
        if middle > 0:
            for b in range(POINTS):
                end = steps[middle, second - 1, b]
                if end >= 0:
                    best = _better(end, best, means)
    return best


@compiled
def _best_double(position: int, die: int, steps: np.ndarray, means: np.ndarray) -> int:
    """The best play of the double ``die``: four moves, or fewer bearing off the last checker."""
    best = -1
    row = die - 1
    for a in range(POINTS):
        one = steps[position, row, a]
        if one == 0:
            return 0
        if one < 0:
            continue
        for b in range(POINTS):
            two = steps[one, row, b]
            if two == 0:
                return 0
            if two < 0:
                continue
            for c in range(POINTS):
                three = steps[two, row, c]
                if three == 0:
                    return 0
                if three < 0:
                    continue
                for d in range(POINTS):
                    four = steps[three, row, d]
                    if four >= 0:
                        best = _better(four, best, means)
    return best


@compiled
def _solve(
    order: np.ndarray,
    steps: np.ndarray,
    rolls: np.ndarray,
    chances: np.ndarray,
    distributions: np.ndarray,
    means: np.ndarray,
) -> bool:
    """Fill ``distributions`` and ``means`` for the positions in ``order`` (the empty one first,
    then by increasing pips); whether a distribution ran past the table's last column."""
    last = distributions.shape[1] - 1
    distributions[0, 0] = 1.0
    means[0] = 0.0
    overflow = False
    for n in range(1, order.shape[0]):
        position = order[n]
        mean = 1.0
        for r in range(rolls.shape[0]):
            high, low = rolls[r, 0], rolls[r, 1]
            if high == low:
                best = _best_double(position, high, steps, means)
            else:
                best = _best_play(position, high, low, steps, means, -1)
                if best != 0:
                    best = _best_play(position, low, high, steps, means, best)
            chance = chances[r]
            mean += chance * means[best]
            overflow |= distributions[best, last] != 0.0
            for k in range(last):
                distributions[position, k + 1] += chance * distributions[best, k]
        means[position] = mean
    return overflow


def build() -> Bearoff:
    """Compute the database (about a second, once compiled)."""
    pips = all_positions() @ np.arange(1, POINTS + 1)
    order = np.argsort(pips, kind="stable")
    distributions = np.zeros((POSITIONS, MAX_ROLLS + 1))
    means = np.zeros(POSITIONS)
    overflow = _solve(order, _single_steps(), ROLLS, CHANCES, distributions, means)
    assert not overflow, f"a position needs more than {MAX_ROLLS} rolls"
    return Bearoff.of(distributions)


def default_file() -> Path:
    """Where the database is kept: ``bearoff-one-sided.npz`` in backgammon's endgame folder."""
    return Path(os.environ.get(ENDGAMES, DEFAULT_ENDGAMES)).expanduser() / "backgammon" / FILE


def save(bearoff: Bearoff, path: Path) -> None:
    """Write ``bearoff`` to ``path`` (atomically)."""
    meta = json.dumps({"format": FORMAT, "positions": POSITIONS, "max_rolls": MAX_ROLLS})

    def write(stream: Any) -> None:
        np.savez_compressed(stream, distributions=bearoff.distributions, meta=np.array(meta))

    write_atomically(path, write)


def read(path: Path) -> Bearoff:
    """The database in ``path``; :class:`EndgameError` naming what is wrong with a file that is
    unreadable, foreign, of another size or damaged."""
    name = repr(str(path))
    _, distributions = _load(path, "distributions", FORMAT)
    if distributions.shape != (POSITIONS, MAX_ROLLS + 1) or distributions.dtype != np.float64:
        raise EndgameError(
            f"{name} holds a {distributions.dtype} table of shape {distributions.shape}, "
            f"not float64 of {(POSITIONS, MAX_ROLLS + 1)}"
        )
    sums = distributions.sum(axis=1)
    if (
        not np.isfinite(sums).all()
        or (distributions < 0).any()
        or (abs(sums - 1) > _TOLERANCE).any()
    ):
        raise EndgameError(f"{name} is damaged: a distribution is not one of chances")
    return Bearoff.of(distributions)


def database(path: Path | None = None) -> Bearoff:
    """The database kept in ``path`` (by default :func:`default_file`), read once a process.
    A missing file is built and kept there; a file that cannot be used is named in one line on
    stderr and built again; a folder that cannot be written is named too, and the database
    built then stays in memory only. The default file is looked up once a process."""
    return _default_database() if path is None else _database(path)


@cache
def _default_database() -> Bearoff:
    return _database(default_file())


@cache
def _database(path: Path) -> Bearoff:
    return _kept(path, read, build, save, "bear-off database")


def _load(path: Path, name: str, form: str) -> tuple[dict[str, Any], np.ndarray]:
    """The ``meta`` and the array ``name`` of the ``.npz`` file ``path`` of format ``form``;
    :class:`EndgameError` naming a file that is unreadable or foreign."""
    try:
        with np.load(path, allow_pickle=False) as arrays:
            meta = json.loads(str(arrays["meta"]))
            if not isinstance(meta, dict) or meta.get("format") != form:
                raise EndgameError(f"{str(path)!r} is not a {form} bear-off database")
            array: np.ndarray = arrays[name]
    except (OSError, ValueError, KeyError, TypeError, EOFError, zipfile.BadZipFile) as error:
        raise EndgameError(f"{str(path)!r} is not a readable bear-off database ({error})") from None
    return meta, array


def _kept(
    path: Path,
    read_file: Callable[[Path], _T],
    build_table: Callable[[], _T],
    save_table: Callable[[_T, Path], None],
    what: str,
) -> _T:
    """The table read from ``path``; else built, kept there, and returned (a file that cannot
    be used, or a folder that cannot be written, named in one line on stderr)."""
    try:
        return read_file(path)
    except EndgameError as error:
        if path.exists():
            print(f"plies: {error}; building it again", file=sys.stderr)
    table = build_table()
    try:
        save_table(table, path)
    except OSError as error:
        print(f"plies: cannot keep the {what} in {str(path)!r} ({error})", file=sys.stderr)
    return table


def rolls_distribution(counts: Sequence[int]) -> np.ndarray:
    """The chances that the position with ``counts`` on points 1..6 needs exactly 0, 1, ...
    :data:`MAX_ROLLS` rolls to bear off (read-only)."""
    distribution: np.ndarray = database().distributions[position_index(counts)]
    return distribution


def expected_rolls(counts: Sequence[int]) -> float:
    """The expected number of rolls the position with ``counts`` needs to bear off."""
    return float(database().means[position_index(counts)])


def race_win_probability(mine: Sequence[int], theirs: Sequence[int]) -> float:
    """The chance that the side to move, bearing off ``mine``, is off before the other side,
    bearing off ``theirs``: ``sum_k P_mine(k) * P_theirs(>= k)`` (moving first, it wins when it
    needs no more rolls than the other). Both sides minimise their expected rolls, which is
    close to but not always the play maximising the winning chances."""
    distributions = database().distributions
    needs, their_needs = distributions[position_index(mine)], distributions[position_index(theirs)]
    at_least = 1 - np.concatenate(([0.0], np.cumsum(their_needs[:-1])))
    return float(needs @ at_least)
