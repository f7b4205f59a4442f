"""Checkers endgame positions: the numbering against the published placement counts, the
retrograde values against King v King's published figures and against a plain depth-limited
search."""

from __future__ import annotations

import functools
import random
from pathlib import Path

import numpy as np
import pytest

from plies.errors import InvalidPositionError
from plies.games import make_game
from plies.games.checkers import CheckersState
from plies.games.checkers.endgame import (
    BLACK_MEN_SQUARES,
    WHITE_MEN_SQUARES,
    Material,
    Slice,
    SliceIndex,
    placements,
    rank,
    slice_index,
    slices,
    unrank,
)
from plies.games.checkers.endgame_pack import pack_endgames, pack_file
from plies.solvers.endgames import Endgames
from plies.solvers.retrograde import DRAW, LOSS, WIN, Tables, end_outcome, solve_classes

GAME = make_game("checkers")
PUBLISHED = {1: 120, 2: 6_972, 3: 261_224, 4: 7_092_774, 5: 148_688_232}
"""Placements by number of pieces (shared/REFERENCES.md, "Checkers endgame databases")."""


@pytest.mark.parametrize(("pieces", "count"), PUBLISHED.items())
def test_placements_per_number_of_pieces_are_the_published_ones(pieces: int, count: int) -> None:
    assert placements(pieces) == count


@pytest.mark.parametrize("pieces", [1, 2])
def test_placements_equal_a_brute_force_count(pieces: int) -> None:
    """Every way to put ``pieces`` pieces of the four kinds on the 32 squares, men off their
    crowning rows, counted one by one."""
    kinds = ("black man", "black king", "white man", "white king")
    allowed = {
        "black man": range(1, 29),
        "white man": range(5, 33),
        "black king": range(1, 33),
        "white king": range(1, 33),
    }
    seen = set()

    def place(left: int, taken: frozenset[tuple[int, str]]) -> None:
        if left == 0:
            seen.add(taken)
            return
        used = {square for square, _ in taken}
        for kind in kinds:
            for square in allowed[kind]:
                if square not in used:
                    place(left - 1, taken | {(square, kind)})

    place(pieces, frozenset())
    assert len(seen) == PUBLISHED[pieces]


def test_numbers_and_placements_are_inverse() -> None:
    """In Python and compiled alike (the rules' ``position_number`` runs the kernel)."""
    rng = random.Random(7)
    for chosen in slices(4)[::3] + slices(5)[::29]:
        index = slice_index(chosen)
        for number in [0, index.size - 1, *(rng.randrange(index.size) for _ in range(20))]:
            assert index.number(*index.placement(number)) == number
        for number in [0, index.positions - 1, *(rng.randrange(index.positions) for _ in range(9))]:
            state = index.position(number)
            assert GAME.position_class(state) == chosen
            assert GAME.position_number(chosen, state) == number


def test_slices_partition_each_material_by_its_leading_men() -> None:
    """Every placement of two three-piece materials lies in exactly one slice, the one of
    its leading men's rows; the slices' sizes add up to the material's placements."""
    for material in (Material(2, 0, 1, 0), Material(1, 1, 1, 0)):
        seen = set()
        for chosen in (s for s in slices(3) if s.material == material):
            index = slice_index(chosen)
            for number in range(index.size):
                black_men, black_kings, white_men, white_kings = index.placement(number)
                assert leading_row(black_men, BLACK_MEN_SQUARES) == chosen.black_row
                assert leading_row(white_men, WHITE_MEN_SQUARES) == chosen.white_row
                seen.add((black_men, black_kings, white_men, white_kings))
        assert len(seen) == _brute_force_placements(material)


def leading_row(men: int, squares: tuple[int, ...]) -> int:
    """The row of the most advanced of ``men`` (a bitboard), counted from the back row of the
    side whose men stand on ``squares`` in that order; 0 for none."""
    found = [i for i, s in enumerate(squares) if men >> (s - 1) & 1]
    return found[-1] // 4 + 1 if found else 0


def _brute_force_placements(material: Material) -> int:
    """The placements of ``material`` counted one by one."""
    import itertools

    found = 0
    for black in itertools.combinations(BLACK_MEN_SQUARES, material.black_men):
        for white in itertools.combinations(WHITE_MEN_SQUARES, material.white_men):
            if set(black) & set(white):
                continue
            free = 32 - len(black) - len(white)
            found += _ways(free, material.black_kings, material.white_kings)
    return found


def _ways(free: int, black_kings: int, white_kings: int) -> int:
    from math import comb

    return comb(free, black_kings) * comb(free - black_kings, white_kings)


def test_a_move_never_leads_to_a_slice_solved_later() -> None:
    """Within a material, every move leads to its own slice or to one listed before it (a
    man moves forwards): the order in which the slices are solved."""
    order = {s: i for i, s in enumerate(slices(1) + slices(2) + slices(3))}
    for chosen in slices(3)[::5]:
        moves = GAME.class_moves(chosen)
        children = {moves.classes[int(c)] for c in set(moves.child_classes.tolist())}
        assert all(order[child] <= order[chosen] for child in children)


def test_colex_ranks_count_every_combination_once() -> None:
    numbers = [rank(c) for c in _combinations(7, 3)]
    assert sorted(numbers) == list(range(35))
    assert all(unrank(rank(c), 3) == c for c in _combinations(7, 3))


def _combinations(n: int, k: int) -> list[list[int]]:
    import itertools

    return [list(c) for c in itertools.combinations(range(n), k)]


@functools.cache
def _tables(pieces: int) -> Tables:
    tables: Tables = {}
    for size in range(1, pieces + 1):
        tables.update(solve_classes(GAME, size, tables))
    return tables


def test_king_against_king_as_published() -> None:
    """992 positions with White to move: 230 wins, 654 draws, 108 losses; the longest win
    takes 11 plies."""
    table = _tables(2)[Slice(Material(0, 1, 0, 1), 0, 0)]
    white = table.outcomes[1::2]
    assert len(white) == 992
    assert [(white == o).sum() for o in (WIN, DRAW, LOSS)] == [230, 654, 108]
    assert table.distances[1::2][white == WIN].max() == 11


def test_two_piece_values_equal_a_depth_limited_search() -> None:
    """A position won or lost in d plies is proven by a plain negamax to depth d (positions
    not finished at the horizon count as draws) and not to depth d - 1; a draw is never
    proven a win or a loss within 12 plies."""

    @functools.cache
    def proven(state: CheckersState, depth: int) -> int:
        if GAME.is_terminal(state):
            return {WIN: 1, LOSS: -1, DRAW: 0}[end_outcome(GAME, state)]
        if depth == 0:
            return 0
        return max(-proven(_quiet(GAME.result(state, a)), depth - 1) for a in GAME.actions(state))

    tables = _tables(2)
    rng = random.Random(3)
    checked = {WIN: 0, LOSS: 0, DRAW: 0}
    for chosen in slices(2):
        index = slice_index(chosen)
        for number in rng.sample(range(index.positions), min(5, index.positions)):
            outcome = int(tables[chosen].outcomes[number])
            distance = int(tables[chosen].distances[number])
            state = index.position(number)
            if outcome == DRAW:
                assert proven(state, 12) == 0
            else:
                sign = 1 if outcome == WIN else -1
                assert proven(state, distance) == sign
                assert distance == 0 or proven(state, distance - 1) == 0
            checked[outcome] += 1
    assert min(checked.values()) > 20


def _quiet(state: CheckersState) -> CheckersState:
    """The position without its draw count: the databases value the pieces alone."""
    return state._replace(quiet=0)


@pytest.mark.parametrize(
    ("counts", "message"),
    [((3, 3, 3, 0), "at most 8"), ((13, 0, 0, 0), "no checkers material"), ((0, -1, 1, 0), "no")],
)
def test_impossible_materials_are_refused(counts: tuple[int, int, int, int], message: str) -> None:
    with pytest.raises(InvalidPositionError, match=message):
        Material(*counts)


def test_numbers_out_of_range_and_foreign_positions_are_refused() -> None:
    index = SliceIndex(Slice(Material(1, 0, 0, 1), 3, 0))
    with pytest.raises(InvalidPositionError, match="none such"):
        index.placement(index.size)
    with pytest.raises(InvalidPositionError, match="slice is"):
        index.position_number(GAME.parse_position("W:W30:B18,19"))
    crowned_row = CheckersState(1 << 29, 0, 0, 1, "B", 0)
    with pytest.raises(InvalidPositionError, match="crowning row"):
        index.position_number(crowned_row)


def _unpacked(folder: Path, pieces: range) -> Path:
    """The shipped tables of ``pieces`` pieces as a build writes them: a file a slice."""
    folder.mkdir()
    for count in pieces:
        for chosen in slices(count):
            packed = GAME.packed_endgame(GAME.shipped_endgames(), chosen)
            assert packed is not None, chosen
            np.savez_compressed(folder / f"{chosen}.npz", **packed[1])
    return folder


def test_packs_probe_as_the_slice_files_they_were_made_of(tmp_path: Path) -> None:
    """The shipped packs, unpacked a file a slice and packed again: the same bytes (packing is
    reproducible), and 3,000 random probes of one to three pieces answer alike from the slice
    files and from the packs."""
    pieces = range(1, 4)
    files = _unpacked(tmp_path / "slices", pieces)
    written = pack_endgames(files, tmp_path / "packed", pieces)
    shipped = GAME.shipped_endgames()
    assert [p.read_bytes() for p in written] == [pack_file(shipped, n).read_bytes() for n in pieces]
    by_file, by_pack = Endgames(GAME, [files]), Endgames(GAME, [tmp_path / "packed"])
    rng = random.Random(5)
    for count in pieces:
        chosen = slices(count)
        weights = [slice_index(s).positions for s in chosen]
        for piece in rng.choices(chosen, weights, k=1000):
            index = slice_index(piece)
            state = index.position(rng.randrange(index.positions))
            assert by_file.probe(state) == by_pack.probe(state) is not None
    assert not by_file.problems and not by_pack.problems


def test_a_slice_file_comes_before_a_pack_and_a_bad_pack_is_one_problem(tmp_path: Path) -> None:
    """A folder's own slice file is read before a pack there; a truncated pack is named once
    in the problems and its slices are read from the next folder."""
    chosen = slices(2)[0]
    bad = tmp_path / "bad"
    bad.mkdir()
    pack_file(bad, 2).write_bytes(pack_file(GAME.shipped_endgames(), 2).read_bytes()[:1000])
    endgames = Endgames(GAME, [bad, GAME.shipped_endgames()])
    assert all(endgames.table(s) is not None for s in slices(2))
    assert len(endgames.problems) == 1 and "is not a readable endgame pack" in endgames.problems[0]
    assert "\n" not in endgames.problems[0]
    files = _unpacked(tmp_path / "slices", range(2, 3))
    with np.load(files / f"{chosen}.npz") as arrays:
        flipped = {name: arrays[name] for name in arrays.files}
    flipped["outcomes"] = np.full_like(flipped["outcomes"], 0xFF)  # every position a draw
    np.savez_compressed(files / f"{chosen}.npz", **flipped)
    pack_endgames(_unpacked(tmp_path / "more", range(2, 3)), files, range(2, 3))
    table = Endgames(GAME, [files]).table(chosen)
    assert table is not None and (table.outcomes == DRAW).all()
