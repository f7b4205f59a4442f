"""Checkers endgame positions numbered densely, material by material, as Chinook's databases
number them (Schaeffer et al., "Chinook: the world man-machine checkers champion", 1996; the
placements per number of pieces are those tabulated for the solving of checkers, 2007).

A *material* is how many men and kings each side has. Its placements are numbered in four
nested parts, each a combination ranked in the combinatorial number system (colex order):

1. the black men, on squares 1-28 (a black man on 29-32 would have been crowned);
2. the white men, on the squares of 5-32 that no black man holds;
3. the black kings, on the squares no man holds;
4. the white kings, on the squares left.

The count of part 2 depends on how many black men stand on 5-28, so the black men's ranks carry
offsets (a table as long as the black men's combinations, at most 98,280 for five men); the
numbering is dense, every number from 0 to ``size - 1`` a distinct placement. A position is a
placement and the side to move: number ``2 * placement + (White to move)``.

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

from plies.errors import InvalidPositionError
from plies.games.checkers.rules import CheckersState

SQUARES = tuple(range(1, 33))
BLACK_MEN_SQUARES = tuple(range(1, 29))
WHITE_MEN_SQUARES = tuple(range(5, 33))
BLACK_CROWN = 0xF0000000
WHITE_CROWN = 0x0000000F
"""Squares 29-32 and 1-4 as bitboards: where black and white men are crowned."""
MAX_PIECES = 8
"""The most pieces a material may have here (Chinook's databases went to eight)."""


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


def _bits(squares: Sequence[int]) -> int:
    return sum(1 << (s - 1) for s in squares)


def _squares(bits: int) -> list[int]:
    return [s for s in SQUARES if bits >> (s - 1) & 1]


class MaterialIndex:
    """The placements of one :class:`Material`, numbered densely (this module's docstring):
    :meth:`number` of four bitboards, :meth:`placement` of a number, :attr:`size`."""

    def __init__(self, material: Material) -> None:
        self.material = m = material
        men = m.black_men + m.white_men
        self.king_ways = comb(32 - men, m.black_kings) * comb(
            32 - men - m.black_kings, m.white_kings
        )
        counts = []
        for black_rank in range(comb(len(BLACK_MEN_SQUARES), m.black_men)):
            squares = [BLACK_MEN_SQUARES[p] for p in unrank(black_rank, m.black_men)]
            free = len(WHITE_MEN_SQUARES) - sum(s >= 5 for s in squares)
            counts.append(comb(free, m.white_men) * self.king_ways)
        self.offsets = [0, *accumulate(counts)]
        self.size = self.offsets[-1]

    def number(self, black_men: int, black_kings: int, white_men: int, white_kings: int) -> int:
        """The number of a placement given as bitboards (bit ``s - 1`` for square ``s``)."""
        m = self.material
        black = _squares(black_men)
        white_free = [s for s in WHITE_MEN_SQUARES if not black_men >> (s - 1) & 1]
        white = _squares(white_men)
        empty = [s for s in SQUARES if not (black_men | white_men) >> (s - 1) & 1]
        kings = _squares(black_kings)
        rest = [s for s in empty if not black_kings >> (s - 1) & 1]
        kings_rank = rank([empty.index(s) for s in kings]) * comb(len(rest), m.white_kings) + rank(
            [rest.index(s) for s in _squares(white_kings)]
        )
        white_rank = rank([white_free.index(s) for s in white])
        black_rank = rank([s - 1 for s in black])
        return self.offsets[black_rank] + white_rank * self.king_ways + kings_rank

    def placement(self, number: int) -> tuple[int, int, int, int]:
        """The bitboards of black men, black kings, white men and white kings numbered
        ``number``."""
        if not 0 <= number < self.size:
            raise InvalidPositionError(f"placement {number} of {self.material}: none such")
        m = self.material
        black_rank = bisect.bisect_right(self.offsets, number) - 1
        within = number - self.offsets[black_rank]
        white_rank, kings_rank = divmod(within, self.king_ways)
        black = [BLACK_MEN_SQUARES[p] for p in unrank(black_rank, m.black_men)]
        white_free = [s for s in WHITE_MEN_SQUARES if s not in black]
        white = [white_free[p] for p in unrank(white_rank, m.white_men)]
        empty = [s for s in SQUARES if s not in black and s not in white]
        rest_count = len(empty) - m.black_kings
        black_kings_rank, white_kings_rank = divmod(kings_rank, comb(rest_count, m.white_kings))
        black_kings = [empty[p] for p in unrank(black_kings_rank, m.black_kings)]
        rest = [s for s in empty if s not in black_kings]
        white_kings = [rest[p] for p in unrank(white_kings_rank, m.white_kings)]
        return _bits(black), _bits(black_kings), _bits(white), _bits(white_kings)

    def position(self, number: int) -> CheckersState:
        """The position numbered ``number``: placement ``number // 2``, White to move when odd
        (the draw count 0)."""
        placement = self.placement(number // 2)
        return CheckersState(*placement, "W" if number % 2 else "B", 0)

    def position_number(self, state: CheckersState) -> int:
        """The number of ``state`` (its draw count aside) among this material's positions."""
        if Material.of(state) != self.material:
            raise InvalidPositionError(f"the position's material is {Material.of(state)}")
        if state.black_men & BLACK_CROWN or state.white_men & WHITE_CROWN:
            raise InvalidPositionError("a man stands on its crowning row")
        placement = self.number(
            state.black_men, state.black_kings, state.white_men, state.white_kings
        )
        return 2 * placement + (state.to_move == "W")

    @cached_property
    def positions(self) -> int:
        """Positions: every placement with either side to move."""
        return 2 * self.size


@cache
def material_index(material: Material) -> MaterialIndex:
    """The numbering of ``material``'s placements, made once."""
    return MaterialIndex(material)


def placements(pieces: int) -> int:
    """The placements of exactly ``pieces`` pieces, every material together."""
    return sum(material_index(m).size for m in materials(pieces))
