"""Go: move counts against an independent brute force, area scoring on hand-made positions,
superko, suicide and the notation's errors."""

from __future__ import annotations

import math
import random

import pytest

from plies.errors import IllegalMoveError, InvalidPositionError, SpecError
from plies.games import make_game
from plies.games.go.rules import PASS, Go, GoState
from plies.perft import perft

Board = frozenset[tuple[int, int, str]]
"""The brute force's board: (row, column, colour) triples."""


def _neighbours(size: int, row: int, column: int) -> list[tuple[int, int]]:
    steps = ((row - 1, column), (row + 1, column), (row, column - 1), (row, column + 1))
    return [(r, c) for r, c in steps if 0 <= r < size and 0 <= c < size]


def _chain(stones: dict[tuple[int, int], str], size: int, start: tuple[int, int]) -> set:
    """The stones connected to ``start`` and whether any has an empty neighbour, recursively."""
    colour, seen = stones[start], set()

    def visit(point: tuple[int, int]) -> bool:
        seen.add(point)
        free = False
        for neighbour in _neighbours(size, *point):
            if neighbour not in stones:
                free = True
            elif stones[neighbour] == colour and neighbour not in seen:
                free = visit(neighbour) or free
        return free

    return {"stones": seen, "free": visit(start)}  # type: ignore[return-value]


def _brute_moves(size: int, board: Board, colour: str, history: set[Board]) -> list[Board]:
    """Every board a stone of ``colour`` can make (captures first, then no suicide, then no
    earlier board), written from scratch with dictionaries instead of the game's bytes."""
    stones = {(r, c): s for r, c, s in board}
    other = "W" if colour == "B" else "B"
    boards = []
    for row in range(size):
        for column in range(size):
            if (row, column) in stones:
                continue
            after = dict(stones)
            after[(row, column)] = colour
            for neighbour in _neighbours(size, row, column):
                if after.get(neighbour) == other:
                    chain = _chain(after, size, neighbour)
                    if not chain["free"]:
                        for stone in chain["stones"]:
                            del after[stone]
            if not _chain(after, size, (row, column))["free"]:
                continue
            made = frozenset((r, c, s) for (r, c), s in after.items())
            if made not in history:
                boards.append(made)
    return boards


def _brute_perft(size: int, depth: int) -> int:
    """Move paths of ``depth`` plies from the empty board (passes included; a game ends after
    two passes in a row and contributes nothing)."""

    def walk(board: Board, colour: str, passes: int, history: set[Board], left: int) -> int:
        if left == 0:
            return 1
        if passes >= 2:
            return 0
        other = "W" if colour == "B" else "B"
        total = walk(board, other, passes + 1, history, left - 1)  # the pass
        for made in _brute_moves(size, board, colour, history):
            total += walk(made, other, 0, history | {made}, left - 1)
        return total

    empty: Board = frozenset()
    return walk(empty, "B", 0, {empty}, depth)


@pytest.mark.parametrize(("size", "depth"), [(2, 6), (2, 8), (3, 4), (3, 5), (4, 3)])
def test_move_counts_agree_with_a_brute_force(size: int, depth: int) -> None:
    game = Go(size=size, komi=0.5)
    assert perft(game, game.initial_state(), depth) == _brute_perft(size, depth)


def test_two_by_two_counts_known_by_hand() -> None:
    game = Go(size=2, komi=0.5)
    # 4 points and a pass; after a stone, 3 points and a pass for white; ...
    assert [perft(game, game.initial_state(), depth) for depth in range(3)] == [1, 5, 21]


def _final(game: Go, record: str) -> object:
    return game.parse_position(record + " pass pass")


def test_area_scoring_counts_stones_and_surrounded_empty_points() -> None:
    game = Go(size=5, komi=0.5)
    # black wall on column C, white on column D: A-B are black's, E is white's
    wall = "C1 D1 C2 D2 C3 D3 C4 D4 C5 D5"
    state = _final(game, wall)
    assert game.area(state.board) == (15, 10)  # type: ignore[attr-defined]
    assert game.winner(state) == "B"  # type: ignore[arg-type]
    assert game.score(state) == 15 - 10 - 0.5  # type: ignore[arg-type]


def test_dame_and_seki_count_for_nobody() -> None:
    game = Go(size=5, komi=0)
    # black on column B, white on column D, the empty column C touches both: dame
    state = _final(game, "B1 D1 B2 D2 B3 D3 B4 D4 B5 D5")
    assert game.area(state.board) == (10, 10)  # type: ignore[attr-defined]
    assert game.winner(state) is None  # type: ignore[arg-type]
    assert game.utility(state, "B") == 0  # type: ignore[arg-type]
    # empty regions touching both colours (A1-B1, and the rest of the board) are nobody's
    record = "A2 C1 B2 C2 B3 C3 A3 pass pass"
    seki = game.parse_position(record)
    black, white = game.area(seki.board)
    assert game.is_terminal(seki) and (black, white) == (4, 3)


def test_suicide_and_occupied_points_are_refused_by_name() -> None:
    game = Go(size=5)
    # white surrounds A1 with A2 and B1: black A1 is suicide
    state = game.parse_position("E5 A2 E4 B1")
    with pytest.raises(IllegalMoveError, match=r"'A1'.*suicide"):
        game.parse_action(state, "A1")
    assert game.parse_action(state, "pass") == PASS
    with pytest.raises(IllegalMoveError, match=r"'e5'.*taken"):
        game.parse_action(state, "e5")
    assert 0 not in game.actions(state)


def test_a_capture_is_not_suicide() -> None:
    game = Go(size=5)
    # white A2 and B1 have one liberty, A1; black A1 has no empty neighbour but takes both
    state = game.parse_position("A3 A2 B2 B1 C1 pass")
    after = game.result(state, game.parse_action(state, "A1"))
    assert after.board[0] == 1 and after.board[5] == after.board[1] == 0


def test_positional_superko_forbids_retaking_a_ko_at_once() -> None:
    game = Go(size=5)
    # a ko at B2/C2: black B1 A2 B3, white C1 D2 C3; black C2 then white takes at B2
    record = "B1 C1 A2 D2 B3 C3 C2 B2"
    state = game.parse_position(record)  # white's B2 captured black's C2
    assert state.board[7] == 0  # type: ignore[attr-defined]
    with pytest.raises(IllegalMoveError, match=r"'C2'.*superko"):
        game.parse_action(state, "C2")
    assert 7 not in game.actions(state)
    # after a move elsewhere (a ko threat) and an answer, the retake is legal again
    later = game.parse_position(record + " E5 E4")
    assert game.parse_action(later, "C2") == 7


def test_two_passes_end_the_game() -> None:
    game = Go(size=5)
    state = game.parse_position("C3 pass")
    assert not game.is_terminal(state)
    assert game.is_terminal(game.result(state, PASS))
    assert game.actions(game.result(state, PASS)) == []
    with pytest.raises(InvalidPositionError, match="move 3"):
        game.parse_position("pass pass C3")


@pytest.mark.parametrize(
    ("text", "fragment"),
    [("I5", "not a point"), ("Z1", "not a point"), ("A10", "off the 9x9 board"),
     ("J0", "off the 9x9 board"), ("D", "not a point"), ("", "not a point"), ("4D", "not a point"),
     ("D" + "4" * 5000, "off the 9x9 board"), ("D٤", "not a point")],
)  # fmt: skip
def test_bad_points_are_refused_by_name(text: str, fragment: str) -> None:
    game = make_game("go")
    with pytest.raises(IllegalMoveError, match=fragment):
        game.parse_action(game.initial_state(), text)


@pytest.mark.parametrize(
    ("spec", "fragment"),
    [
        ("go:size=4", "at least 5"),
        ("go:size=20", "at most 19"),
        ("go:komi=nan", "finite"),
        ("go:komi=0.3", "multiple of 0.5"),
        ("go:komi=1000", "at most 81"),
    ],
)
def test_bad_options_are_refused(spec: str, fragment: str) -> None:
    with pytest.raises(SpecError, match=fragment):
        make_game(spec)


def test_coordinates_follow_gtp() -> None:
    game = make_game("go:size=19")
    state = game.initial_state()
    assert game.format_action(state, 0) == "A1"
    assert game.format_action(state, 18) == "T1"
    assert game.format_action(state, 19 * 19 - 1) == "T19"
    assert game.parse_action(state, "j10") == 9 * 19 + 8
    assert not math.isnan(game.evaluate(state, "B"))  # type: ignore[attr-defined]


def test_sgf_round_trip_and_refusals() -> None:
    game = Go(size=5, komi=0.5)
    state = game.parse_position("C3 C2 B2 D2 pass B3 C1 pass pass")
    text = game.sgf(game.initial_state(), state.moves, game.result_text(state), {"PB": "me"})
    assert "SZ[5]" in text and "KM[0.5]" in text and "PB[me]" in text
    assert "RE[" + game.result_text(state) + "]" in text
    assert game.parse_position(text) == state
    half = game.parse_position("C3 C2")
    assert game.parse_position(game.sgf(half, [game.parse_action(half, "B2")])).moves == (
        *half.moves,
        game.parse_action(half, "B2"),
    )
    for bad, fragment in [
        ("(;SZ[9];B[ee])", "a 9x9 board, not 5x5"),
        ("(;SZ[5]AB[aa];W[bb])", "setup stones"),
        ("(;SZ[5];W[bb])", "white moves out of turn"),
        ("(;SZ[5];B[cc];W[cc])", "taken"),
        ("(;SZ[5", "not a readable game record"),
    ]:
        with pytest.raises(InvalidPositionError, match=fragment):
            game.parse_position(bad)


def test_compiled_playouts_end_where_no_move_is_left_and_count_area() -> None:
    game = Go(size=5, komi=2.5)
    eyes = {0, 2, 4, 11, 13, 20, 22, 24}  # A1 C1 E1 B3 D3 A5 C5 E5, none next to another
    board = bytes(0 if p in eyes else 1 for p in range(25))
    state = GoState(board, "W", 0, (), frozenset((board,)))
    # white may only play suicide into black's eyes, black only fill its own: both pass
    assert game.random_playout(state, random.Random(1)) == (1, -1)
    assert game.area(board) == (25, 0)
    for seed in range(20):  # from the empty board: a finished game's utilities, repeatable
        first = game.random_playout(game.initial_state(), random.Random(seed))
        assert first in ((1, -1), (-1, 1))
        assert game.random_playout(game.initial_state(), random.Random(seed)) == first


def test_komi_moves_the_playouts_results() -> None:
    """Random 9x9 games rarely end more than 40 points apart: a komi of -40.5 lets black win
    almost all, one of +40.5 almost none."""
    rng = random.Random(5)
    games = [Go(size=9, komi=komi) for komi in (-40.5, 40.5)]
    wins = [sum(g.random_playout(g.initial_state(), rng)[0] > 0 for _ in range(100)) for g in games]
    assert wins[0] > 80 and wins[1] < 20
