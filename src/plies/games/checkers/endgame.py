"""Checkers endgame positions numbered densely, sub-database by sub-database, as Chinook's
databases number them (Lake, Schaeffer and Lu, "Solving large retrograde analysis problems
using a network of workstations", 1994; Schaeffer et al., "Chinook: the world man-machine
checkers champion", 1996; the placements per number of pieces are those tabulated for the
solving of checkers, 2007).

A *material* is how many men and kings each side has. A material's positions are split into
*slices* (Chinook's sub-databases) by the row of each side's leading man, counted from that
side's own back row: 1 to 7 (a man on row 8 would have been crowned), 0 for a side without
men. A man only moves forwards, so a move keeps its slice or leads to one with a leading man
further on, or to a smaller material: the slices of a material are solved most advanced
first, and a slice is solved, stored and loaded on its own.

A slice's placements are numbered in four nested parts, each a combination ranked in the
combinatorial number system (colex order, which orders combinations by their largest
element):

1. the black men, on squares 1-28 counted from square 1, the leading man on the slice's row:
   a contiguous range of ranks;
2. the white men, on the squares of 5-32 that no black man holds, counted from square 32 (the
   board turned round: white's rows are black's), the leading man on the slice's row: a
   contiguous range of ranks, whose bounds depend on the black men standing below it;
3. the black kings, on the squares no man holds;
4. the white kings, on the squares left.

The count of part 2 depends on the black men, so each black placement of the slice carries an
offset (a table as long as the slice's black placements); the numbering is dense, every number
from 0 to ``size - 1`` a distinct placement. A position is a placement and the side to move:
number ``2 * placement + (White to move)``.

The databases ignore the draw count of plies' rules (80 quiet plies), as Chinook's do: a
position's value is that of the pieces alone.
"""

from __future__ import annotations

import bisect
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache, cached_property
from itertools import accumulate
from math import comb
from typing import TYPE_CHECKING

from plies.errors import InvalidPositionError

if TYPE_CHECKING:
    from plies.games.checkers.rules import CheckersState

SQUARES = tuple(range(1, 33))
BLACK_MEN_SQUARES = tuple(range(1, 29))
WHITE_MEN_SQUARES = tuple(range(32, 4, -1))
"""The squares a man of each colour may stand on, in the order its men are numbered: from its
own back row forwards."""
BLACK_CROWN = 0xF0000000
WHITE_CROWN = 0x0000000F
"""Squares 29-32 and 1-4 as bitboards: where black and white men are crowned."""
MAX_PIECES = 8
"""The most pieces a material may have here (Chinook's databases went to eight)."""
ROWS = 7
"""The rows a man may stand on, counted from its own back row."""
_WHITE_ROW = {s: i // 4 + 1 for i, s in enumerate(WHITE_MEN_SQUARES)}
"""The row of each square a white man may stand on, counted from White's back row."""


@dataclass(frozen=True, order=True)
class Material:
    """How many men and kings each side has."""

    black_men: int
    black_kings: int
    white_men: int
    white_kings: int

    def __post_init__(self) -> None:
        counts = (self.black_men, self.black_kings, self.white_men, self.white_kings)
        if min(counts) < 0 or self.black_men > 12 or self.white_men > 12:
            raise InvalidPositionError(f"no checkers material has {counts} men and kings")
        if sum(counts) > MAX_PIECES:
            raise InvalidPositionError(
                f"{sum(counts)} pieces: endgame positions have at most {MAX_PIECES}"
            )

    @property
    def pieces(self) -> int:
        return self.black_men + self.black_kings + self.white_men + self.white_kings

    def __str__(self) -> str:
        """Men and kings of Black, then of White: ``2.1-1.0`` for two black men and a black
        king against a white man."""
        return f"{self.black_men}.{self.black_kings}-{self.white_men}.{self.white_kings}"

    @classmethod
    def of(cls, state: CheckersState) -> Material:
        return cls(
            state.black_men.bit_count(),
            state.black_kings.bit_count(),
            state.white_men.bit_count(),
            state.white_kings.bit_count(),
        )


@dataclass(frozen=True, order=True)
class Slice:
    """A material's positions whose leading black and white men stand on ``black_row`` and
    ``white_row``, each counted from its side's back row (0 for a side without men)."""

    material: Material
    black_row: int
    white_row: int

    def __str__(self) -> str:
        """The material and the two leading rows: ``2.1-1.0_5.3``."""
        return f"{self.material}_{self.black_row}.{self.white_row}"

    @classmethod
    def of(cls, state: CheckersState) -> Slice:
        """The slice of ``state``; :class:`InvalidPositionError` for a man on its crowning
        row."""
        if state.black_men & BLACK_CROWN or state.white_men & WHITE_CROWN:
            raise InvalidPositionError("a man stands on its crowning row")
        black, white = state.black_men, state.white_men
        return cls(
            Material.of(state),
            (black.bit_length() + 3) // 4,  # the highest square's row: 1 for squares 1-4
            0 if not white else (36 - (white & -white).bit_length()) // 4,  # the lowest's
        )


def materials(pieces: int) -> list[Material]:
    """Every material of exactly ``pieces`` pieces (one side may have none), fewest men first:
    a man's move to the crowning row leads to a material with one man fewer, listed earlier."""
    found = []
    for black_men in range(pieces + 1):
        for black_kings in range(pieces + 1 - black_men):
            for white_men in range(pieces + 1 - black_men - black_kings):
                white_kings = pieces - black_men - black_kings - white_men
                found.append(Material(black_men, black_kings, white_men, white_kings))
    return sorted(found, key=lambda m: (m.black_men + m.white_men, m))


def _rows(men: int) -> range:
    return range(ROWS, 0, -1) if men else range(0, -1, -1)


def slices(pieces: int) -> list[Slice]:
    """Every slice with positions of exactly ``pieces`` pieces, in the order they are solved:
    material by material (:func:`materials`), the most advanced leading men first."""
    return [
        chosen
        for material in materials(pieces)
        for black_row in _rows(material.black_men)
        for white_row in _rows(material.white_men)
        if slice_index(chosen := Slice(material, black_row, white_row)).size
    ]


def rank(positions: Sequence[int]) -> int:
    """The colex rank of a set of distinct 0-based positions, increasing:
    ``sum(C(p_i, i))`` for i from 1 (the combinatorial number system)."""
    return sum(comb(p, i) for i, p in enumerate(positions, 1))


def unrank(number: int, count: int) -> list[int]:
    """The ``count`` positions, increasing, whose :func:`rank` is ``number``."""
    positions = []
    for i in range(count, 0, -1):
        p = i - 1
        while comb(p + 1, i) <= number:
            p += 1
        positions.append(p)
        number -= comb(p, i)
    return positions[::-1]


def row_ranks(row: int, men: int, below: int, within: int) -> range:
    """The colex ranks of ``men`` men whose leading man stands on ``row``, the free squares
    numbered from the back row: ``below`` of them on the rows behind ``row``, ``within`` on
    ``row`` itself (every combination of one man, or of none, when ``men`` is 0)."""
    if men == 0:
        return range(1)
    return range(comb(below, men), comb(below + within, men))


def _bits(squares: Sequence[int]) -> int:
    return sum(1 << (s - 1) for s in squares)


def _squares(bits: int) -> list[int]:
    return [s for s in SQUARES if bits >> (s - 1) & 1]


class SliceIndex:
    """The placements of one :class:`Slice`, numbered densely (this module's docstring):
    :meth:`number` of four bitboards, :meth:`placement` of a number, :attr:`size`."""

    def __init__(self, chosen: Slice) -> None:
        self.slice = chosen
        m = chosen.material
        men = m.black_men + m.white_men
        self.king_ways = comb(32 - men, m.black_kings) * comb(
            32 - men - m.black_kings, m.white_kings
        )
        self.black_ranks = row_ranks(chosen.black_row, m.black_men, 4 * chosen.black_row - 4, 4)
        counts = [
            len(self._white_ranks(self._black(black_rank))) * self.king_ways
            for black_rank in self.black_ranks
        ]
        self.offsets = [0, *accumulate(counts)]
        self.size = self.offsets[-1]

    def _black(self, black_rank: int) -> list[int]:
        return [BLACK_MEN_SQUARES[p] for p in unrank(black_rank, self.slice.material.black_men)]

    def _white_free(self, black: Sequence[int]) -> list[int]:
        return [s for s in WHITE_MEN_SQUARES if s not in black]

    def _white_ranks(self, black: Sequence[int]) -> range:
        row = self.slice.white_row
        black_rows = [_WHITE_ROW[s] for s in black if s in _WHITE_ROW]
        below = 4 * (row - 1) - sum(r < row for r in black_rows)
        within = 4 - black_rows.count(row)
        return row_ranks(row, self.slice.material.white_men, below, within)

    def number(self, black_men: int, black_kings: int, white_men: int, white_kings: int) -> int:
        """The number of a placement of this slice given as bitboards (bit ``s - 1`` for
        square ``s``)."""
        m = self.slice.material
        black = _squares(black_men)
        white_free = self._white_free(black)
        white = [s for s in white_free if white_men >> (s - 1) & 1]
        empty = [s for s in SQUARES if not (black_men | white_men) >> (s - 1) & 1]
        kings = _squares(black_kings)
        rest = [s for s in empty if not black_kings >> (s - 1) & 1]
        kings_rank = rank([empty.index(s) for s in kings]) * comb(len(rest), m.white_kings) + rank(
            [rest.index(s) for s in _squares(white_kings)]
        )
        white_rank = rank(sorted(white_free.index(s) for s in white))
        black_rank = rank([s - 1 for s in black])
        white_within = white_rank - self._white_ranks(black).start
        offset = self.offsets[black_rank - self.black_ranks.start]
        return offset + white_within * self.king_ways + kings_rank

    def placement(self, number: int) -> tuple[int, int, int, int]:
        """The bitboards of black men, black kings, white men and white kings numbered
        ``number``."""
        if not 0 <= number < self.size:
            raise InvalidPositionError(f"placement {number} of {self.slice}: none such")
        m = self.slice.material
        black_within = bisect.bisect_right(self.offsets, number) - 1
        rest = number - self.offsets[black_within]
        white_within, kings_rank = divmod(rest, self.king_ways)
        black = self._black(self.black_ranks.start + black_within)
        white_free = self._white_free(black)
        white_rank = self._white_ranks(black).start + white_within
        white = [white_free[p] for p in unrank(white_rank, m.white_men)]
        empty = [s for s in SQUARES if s not in black and s not in white]
        rest_count = len(empty) - m.black_kings
        black_kings_rank, white_kings_rank = divmod(kings_rank, comb(rest_count, m.white_kings))
        black_kings = [empty[p] for p in unrank(black_kings_rank, m.black_kings)]
        rest_squares = [s for s in empty if s not in black_kings]
        white_kings = [rest_squares[p] for p in unrank(white_kings_rank, m.white_kings)]
        return _bits(black), _bits(black_kings), _bits(white), _bits(white_kings)

    def position(self, number: int) -> CheckersState:
        """The position numbered ``number``: placement ``number // 2``, White to move when odd
        (the draw count 0)."""
        from plies.games.checkers.rules import CheckersState  # the compiled probe loads no rules

        placement = self.placement(number // 2)
        return CheckersState(*placement, "W" if number % 2 else "B", 0)

    def position_number(self, state: CheckersState) -> int:
        """The number of ``state`` (its draw count aside) among this slice's positions."""
        if Slice.of(state) != self.slice:
            raise InvalidPositionError(f"the position's slice is {Slice.of(state)}")
        placement = self.number(
            state.black_men, state.black_kings, state.white_men, state.white_kings
        )
        return 2 * placement + (state.to_move == "W")

    @cached_property
    def positions(self) -> int:
        """Positions: every placement with either side to move."""
        return 2 * self.size


@cache
def slice_index(chosen: Slice) -> SliceIndex:
    """The numbering of ``chosen``'s placements, made once."""
    return SliceIndex(chosen)


def placements(pieces: int) -> int:
    """The placements of exactly ``pieces`` pieces, every slice together."""
    return sum(slice_index(s).size for s in slices(pieces))
