"""Go's dead stones, seki and final score (:mod:`plies.games.go.scoring`): against GNU Go 3.8's
own answers (``final_status_list``, ``final_score`` with ``--chinese-rules``) on games it
played to two passes, and on positions made by hand."""

from __future__ import annotations

import pytest

from plies.games.go.rules import Go, GoState
from plies.games.go.scoring import chains, final_score, final_status

GAME = Go(9, 7.5)

UPPER_SEKI = (
    "G6 B8 D7 G1 B5 C4 B4 H1 D6 F8 D8 H7 G3 F2 C3 H3 G4 J2 G2 H6 H4 G7 F6 E8 E9 F9 D9 E7 E6 F7 "
    "H5 J5 J4 J6 H8 J8 H9 G9 pass pass"
)
GNU_GO_GAMES = [
    pytest.param(
        "E6 D4 D2 E8 J4 D6 C3 E5 F6 C4 G3 F5 G6 G5 G8 H5 F8 H6 H7 D7 H9 F3 F2 D3 C2 B3 B2 B4 G4 "
        "E2 E1 E3 G2 F7 J8 A2 H4 B1 D1 F9 F4 E4 G7 E7 G9 E9 J7 A3 F1 A1 J5 J6 C1 H2 H1 J2 J3 "
        "pass pass",
        "W+23.5",
        "",
        "J5 F4 G4 H4 J4 C3 G3 J3 B2 C2 D2 F2 G2 C1 D1 E1 F1 H2 J2 H1",
        id="a seki of black's lower side against two white stones",
    ),
    pytest.param(
        UPPER_SEKI,
        "B+46.5",
        "B8 C4 H3 F2 J2 G1 H1",
        "F9 G9 E8 F8 E7 F7 G7 H7 H6 J6 J5 H9 H8 J8",
        id="a seki in the upper right, seven dead stones",
    ),
]
"""Games GNU Go 3.8 played against itself at level 1 with --chinese-rules (its first moves
random), its final_score, and its final_status_list dead and seki."""


def _vertices(state: GoState, found: tuple[tuple[int, ...], ...]) -> set[str]:
    return {GAME.format_action(state, point) for chain in found for point in chain}


def _text(score: float) -> str:
    return "0" if score == 0 else f"B+{score:g}" if score > 0 else f"W+{-score:g}"


@pytest.mark.parametrize(("record", "score", "dead", "seki"), GNU_GO_GAMES)
def test_seki_and_dead_stones_as_gnu_go_finds_them(
    record: str, score: str, dead: str, seki: str
) -> None:
    """The chains GNU Go lists dead and in seki, and its score, where the eyes of a seki
    count for no one (counting them, black would have 1 point more in the first game and
    white 1 more in the second)."""
    state = GAME.parse_position(record)
    status = final_status(GAME, state)
    assert _vertices(state, status.dead) == set(dead.split())
    assert _vertices(state, status.seki) == set(seki.split())
    every = {GAME.format_action(state, p) for p, stone in enumerate(state.board) if stone}
    assert _vertices(state, status.alive) == every - set(dead.split()) - set(seki.split())
    assert _text(final_score(GAME, state, status)) == score
    assert _text(final_score(GAME, state)) == score  # judged afresh, the same
    assert GAME.result_text(state) != score  # Tromp-Taylor, the game's own count, differs


def _walls(dead: bool) -> GoState:
    """Black's wall on column D, white's on E, each side's area behind it; with ``dead``, a
    stone of each inside the other's area."""
    black = ["D1", "D2", "D3", "D4", "D5", "D6", "D7", "D8", "D9"]
    white = ["E1", "E2", "E3", "E4", "E5", "E6", "E7", "E8", "E9"]
    if dead:
        black, white = [*black, "H5"], [*white, "B5"]
    moves = [move for pair in zip(black, white, strict=True) for move in pair]
    return GAME.parse_position(" ".join([*moves, "pass", "pass"]))


def test_dead_stones_are_counted_off_and_living_ones_stay() -> None:
    state = _walls(dead=True)
    status = final_status(GAME, state)
    assert [_vertices(state, (chain,)) for chain in status.dead] == [{"B5"}, {"H5"}]
    assert len(status.alive) == 2 and status.seki == ()
    assert final_score(GAME, state, status) == 36 - 45 - 7.5  # black 9 + 27, white 9 + 36
    assert GAME.score(state) == 10 - 10 - 7.5  # Tromp-Taylor: both areas are open
    clean = _walls(dead=False)
    assert final_status(GAME, clean).dead == ()
    assert final_score(GAME, clean) == GAME.score(clean) == 36 - 45 - 7.5


def test_the_same_position_gets_the_same_answer() -> None:
    state = GAME.parse_position(UPPER_SEKI)
    first = final_status(GAME, state)
    final_status(GAME, _walls(dead=True))  # another position between
    assert final_status(GAME, state) == first


def test_an_empty_board_and_a_position_in_play() -> None:
    empty = GAME.initial_state()
    assert final_status(GAME, empty).alive == () and final_score(GAME, empty) == -7.5
    state = GAME.parse_position("E5 D4")  # not finished: judged as it stands
    status = final_status(GAME, state, playouts=50)
    assert len(status.alive) + len(status.dead) + len(status.seki) == 2


def test_chains_are_the_stones_joined_along_the_lines() -> None:
    state = Go(5).parse_position("A1 E5 B1 D5 B2 pass C3")
    found = chains(Go(5), state.board)
    assert [(chain.colour, chain.stones) for chain in found] == [
        (1, (0, 1, 6)),
        (1, (12,)),
        (2, (23, 24)),
    ]
    assert found[0].liberties == {2, 5, 7, 11}
