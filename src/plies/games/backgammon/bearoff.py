"""The bear-off databases. The one-sided one: for every position of up to 15 checkers on a
side's home board, the distribution of the number of rolls it needs to bear them all off. The
two-sided one: for every pair of positions of up to :data:`TWO_SIDED_CHECKERS` checkers a side,
the exact chance that the side on roll bears off first, both sides playing to win.

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

The two-sided database. The one-sided chances are an approximation: each side minimises its
expected rolls, not its chance of being off first (they differ by 0.0009 on average over the
pairs of up to 8 checkers, by 0.014 at most). The two-sided database (the classic tables of
Hugh Sconyers and GNU Backgammon's ``bearoff.c``, computed here from the rules) holds the
chance V(i, j) that the side on roll with position i bears off before the other with j, both
playing to maximise their chances (cubeless; gammons ignored). Every roll's plays are the
distinct positions they reach, walked through the one-sided single-die table
(:func:`two_sided_results`); V(i, j) = sum over the rolls r of P(r) * max over the plays p of
r of [1 if p bears off the last checker, else 1 - V(j, p)], solved in increasing order of the
pairs' total pips by a compiled loop (:mod:`plies.games.backgammon.bearoff_kernel`): about 2 s
for :data:`TWO_SIDED_CHECKERS` = 8, 3003 positions a side. It is kept beside the one-sided
file as ``uint16`` (:data:`SCALE`: 1 / 131070 the worst rounding), 17 MB compressed, and read
by :func:`two_sided_win`, or from compiled code by :func:`two_sided_lookup` over
:func:`two_sided_arrays`.
"""

from __future__ import annotations

import json
import operator
import os
import sys
import zipfile
import zlib
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
from plies.games.backgammon import bearoff_kernel
from plies.games.backgammon.bearoff_kernel import two_sided_lookup as two_sided_lookup
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


# The two-sided database. ---------------------------------------------------------------------

TWO_SIDED_CHECKERS = 8
"""K: the most checkers a side has in the two-sided database. Its table is quadratic in the
positions of up to K checkers, C(K + 6, 6): K = 8 is 3003 positions a side, 9,018,009 pairs,
about 2 s to build and 17 MB kept; K = 9 would be 5005 positions, 5 s and 47 MB, which every
process using it would hold in memory."""
TWO_SIDED_POSITIONS = comb(TWO_SIDED_CHECKERS + POINTS, POINTS)
"""The positions a side of the two-sided database: numbers 0..3002, the one-sided numbering's
first (positions are numbered by their checkers first)."""
TWO_SIDED_FORMAT = "plies-bearoff-two-sided-1"
"""The format written in the two-sided file's ``meta``."""
TWO_SIDED_FILE = "bearoff-two-sided.npz"
"""The two-sided file's name in backgammon's endgame folder."""
SCALE = bearoff_kernel.SCALE
"""A stored chance ``v`` is the ``uint16`` ``round(v * SCALE)``: 0 and 1 exactly, any other
chance to 1 / (2 * SCALE), less than 8e-6."""


@dataclass(frozen=True)
class TwoSided:
    """The two-sided database: ``table[i, j]`` the chance, times :data:`SCALE`, that the side
    on roll with position ``i`` bears off all its checkers before the other side with
    position ``j``, both playing to win (cubeless, gammons ignored); ``K`` the most checkers a
    side has (``table`` is read-only, ``uint16``, of C(K + 6, 6) rows and columns).
    ``table[0, j]`` is :data:`SCALE`, a side on roll with no checkers having won already, and
    ``table[i, 0]`` is 0 for ``i > 0``."""

    table: np.ndarray
    K: int

    def win(self, mine: int, theirs: int) -> float:
        """The chance of the side on roll with position ``mine`` against ``theirs``."""
        return float(self.table[mine, theirs]) / SCALE


def two_sided_results(checkers: int) -> tuple[np.ndarray, np.ndarray]:
    """The distinct positions each roll's plays reach from each position of up to
    ``checkers`` checkers, ``results[starts[21 * i + r]:starts[21 * i + r + 1]]`` for roll
    ``r`` (:data:`ROLLS`) from position ``i``; only 0 where a play bears off the last checker.
    Walked through :func:`_single_steps` by :func:`.bearoff_kernel.all_roll_results`."""
    steps = _single_steps()
    limit = comb(checkers + POINTS, POINTS)
    starts = np.zeros(limit * len(ROLLS) + 1, np.int64)
    out, scratch = np.zeros(POSITIONS, np.int32), np.zeros(POSITIONS, np.int32)
    results = np.zeros(0, np.int32)
    for _ in range(2):  # count, then fill
        seen = np.zeros(POSITIONS, np.int64)
        total = bearoff_kernel.all_roll_results(
            limit, steps, ROLLS, starts, results, out, scratch, seen
        )
        results = np.zeros(total, np.int32) if results.shape[0] < total else results
    return starts, results


def build_two_sided(checkers: int = TWO_SIDED_CHECKERS) -> TwoSided:
    """Compute the two-sided database of up to ``checkers`` checkers a side (about 2 s for 8):
    V(i, j) = sum over the rolls r of P(r) * max over i's plays p of r of [1 if p bears off
    i's last checker, else 1 - V(j, p)], pair by pair in increasing order of total pips (a
    play lowers its side's pips), by :func:`.bearoff_kernel.solve_two_sided`; then rounded to
    ``uint16`` (:data:`SCALE`). The classic two-sided databases (Hugh Sconyers' tables, GNU
    Backgammon's ``bearoff.c``) hold the same chances; these are computed from the rules."""
    if not 0 <= checkers <= CHECKERS:
        raise EndgameError(f"a two-sided bear-off database of {checkers} checkers a side")
    starts, results = two_sided_results(checkers)
    limit = comb(checkers + POINTS, POINTS)
    pips = all_positions()[:limit] @ np.arange(1, POINTS + 1)
    order = np.argsort(pips, kind="stable")
    firsts = np.searchsorted(pips[order], np.arange(int(pips.max()) + 2))
    values = np.zeros((limit, limit))
    bearoff_kernel.solve_two_sided(order, firsts, starts, results, CHANCES, values)
    values *= SCALE
    table = np.rint(values, out=values).astype(np.uint16)
    table.flags.writeable = False
    return TwoSided(table, checkers)


def default_two_sided_file() -> Path:
    """Where the two-sided database is kept: beside :func:`default_file`."""
    return default_file().with_name(TWO_SIDED_FILE)


def save_two_sided(two_sided: TwoSided, path: Path) -> None:
    """Write ``two_sided`` to ``path`` (atomically), its ``meta`` naming the format, K and the
    table's CRC-32."""
    table = np.ascontiguousarray(two_sided.table)
    meta = json.dumps(
        {"format": TWO_SIDED_FORMAT, "checkers": two_sided.K, "crc32": zlib.crc32(table.data)}
    )

    def write(stream: Any) -> None:
        np.savez_compressed(stream, table=table, meta=np.array(meta))

    write_atomically(path, write)


def read_two_sided(path: Path) -> TwoSided:
    """The two-sided database in ``path``, of :data:`TWO_SIDED_CHECKERS` checkers a side;
    :class:`EndgameError` naming what is wrong with a file that is unreadable, foreign, of
    another size or damaged (its CRC-32 or its first row and column not what they must be)."""
    name = repr(str(path))
    meta, table = _load(path, "table", TWO_SIDED_FORMAT)
    shape = (TWO_SIDED_POSITIONS, TWO_SIDED_POSITIONS)
    if meta.get("checkers") != TWO_SIDED_CHECKERS or table.shape != shape:
        raise EndgameError(
            f"{name} holds {meta.get('checkers')!r} checkers a side in a table of shape "
            f"{table.shape}, not {TWO_SIDED_CHECKERS} in {shape}"
        )
    if table.dtype != np.uint16:
        raise EndgameError(f"{name} holds a {table.dtype} table, not uint16")
    table = np.ascontiguousarray(table)
    if (
        meta.get("crc32") != zlib.crc32(table.data)
        or (table[0] != SCALE).any()
        or (table[1:, 0] != 0).any()
    ):
        raise EndgameError(f"{name} is damaged: its table is not the one written")
    table.flags.writeable = False
    return TwoSided(table, TWO_SIDED_CHECKERS)


def two_sided_database(path: Path | None = None) -> TwoSided:
    """The two-sided database kept in ``path`` (by default :func:`default_two_sided_file`),
    read once a process; built and kept as :func:`database` is (a file that cannot be used is
    named in one line on stderr and built again)."""
    return _default_two_sided() if path is None else _two_sided(path)


@cache
def _default_two_sided() -> TwoSided:
    return _two_sided(default_two_sided_file())


@cache
def _two_sided(path: Path) -> TwoSided:
    return _kept(
        path, read_two_sided, build_two_sided, save_two_sided, "two-sided bear-off database"
    )


def two_sided_win(mine: Sequence[int], theirs: Sequence[int]) -> float | None:
    """The exact chance that the side on roll with ``mine`` on points 1..6 bears off first
    against ``theirs``, both playing to win (to :data:`SCALE`'s precision); None when a side
    has more than :data:`TWO_SIDED_CHECKERS` checkers. A side on roll with none has won (1),
    a side on roll against none has lost (0). A checker on the 6 point against one on the 1
    point wins 0.75: 27 rolls of 36 bear it off (all but 1-1, 2-1, 3-1, 4-1 and 3-2).
    """
    i, j = position_index(mine), position_index(theirs)
    if max(i, j) >= TWO_SIDED_POSITIONS:
        return None
    return two_sided_database().win(i, j)


def two_sided_arrays() -> tuple[np.ndarray, np.ndarray]:
    """What compiled code needs to look the two-sided database up itself:
    ``(table, binomial)``, the read-only :attr:`TwoSided.table` (``uint16``) and the numbering's
    binomials (``int64``, ``binomial[n, k]`` = C(n, k)). Hand both to
    :func:`two_sided_lookup` (compiled with :func:`plies.compiled.compiled`, callable from
    compiled code) with a board of the compiled rules' layout: ``int8[2, 26]``,
    ``board[s, p]`` side ``s``'s checkers on its own point ``p`` (1..24), ``board[s, 0]``
    borne off, ``board[s, 25]`` on the bar. It returns the chance of the side on roll, or -1.0
    when a side has a checker outside its home board or more than K on it. In a compiled
    evaluation, with ``table, binomial = two_sided_arrays()`` handed to it::

        chance = two_sided_lookup(table, binomial, board, side_on_roll)
        if chance >= 0.0:
            ...  # both sides are home with at most K checkers each: the exact chance
    """
    binomial = _BINOMIAL.view()
    binomial.flags.writeable = False
    return two_sided_database().table, binomial
