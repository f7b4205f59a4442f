"""The compiled Go board behind playouts and the compiled tree (plies.games.go.kernel): its
incremental groups and liberties checked against the game's Python rules on random positions,
the playout policy's rules, the priors and MoGo's shapes."""

from __future__ import annotations

import numpy as np
import pytest

from plies.games.go import kernel
from plies.games.go.kernel import GoBoard
from plies.games.go.patterns import pattern_table
from plies.games.go.rules import COLOURS, PASS, Go, GoState
from plies.testing import random_positions

GAME = Go(size=7)


def _colours(state: GoState) -> np.ndarray:
    return np.frombuffer(state.board, np.uint8).copy()


def _loaded(game: Go, state: GoState) -> GoBoard:
    board = kernel.board_for(game.size)
    kernel.load(board, _colours(state), state.passes)
    return board


def _positions() -> list[GoState]:
    return random_positions(GAME, 60, seed=3)


def _same_groups(game: Go, state: GoState, board: GoBoard) -> None:
    """Every group of ``board`` as the rules see it in ``state``: its stones, its size, whether
    it is in atari and where."""
    for point in np.flatnonzero(board.colour):
        stones, liberties = game._group(state.board, int(point))
        group = board.group[point]
        assert {int(s) for s in np.flatnonzero(board.group == group)} == stones
        assert board.stones[group] == len(stones)
        assert kernel.in_atari(board, group) == (len(liberties) == 1)
        if len(liberties) == 1:
            assert kernel.atari_point(board, group) == next(iter(liberties))


def test_groups_and_liberties_agree_with_the_rules() -> None:
    for state in _positions():
        _same_groups(GAME, state, _loaded(GAME, state))


def test_playable_points_are_the_legal_moves() -> None:
    """Where the compiled rules let the mover play: the game's legal points (superko aside,
    which the compiled board leaves to the tree)."""
    for state in _positions():
        board, mover = _loaded(GAME, state), COLOURS[state.to_move]
        legal = set(GAME.actions(state)) - {PASS}
        for point in np.flatnonzero(board.colour == 0):
            got = kernel.playable(board, point, mover)
            if got != (point in legal):
                reason = GAME._play(state, int(point))[0]
                assert got and reason is not None and reason.startswith("positional superko")


@pytest.mark.parametrize("size", [5, 9])
def test_placing_a_stone_keeps_every_group_as_the_rules_do(size: int) -> None:
    """After each legal move of random positions: the board and the empty points, the groups
    (incrementally kept) equal to those of the resulting position loaded afresh, the Zobrist
    key too, and the liberties counted ahead of the move."""
    game = Go(size=size)
    for state in random_positions(game, 30, seed=size):
        board, mover = _loaded(game, state), COLOURS[state.to_move]
        taken_before = state.board.count(3 - mover)
        for point in [a for a in game.actions(state) if a != PASS][:12]:
            after = game.result(state, point)
            ahead = kernel.liberties_after(board, point, mover, 3)
            if after.board.count(3 - mover) == taken_before:  # no capture: counted exactly
                assert ahead == min(len(game._group(after.board, point)[1]), 3)
            played = kernel.board_for(size)
            kernel.copy_board(board, played)
            kernel.place(played, point, mover)
            assert bytes(played.colour) == after.board
            count = played.state[kernel.COUNT]
            assert sorted(played.empties[:count]) == list(np.flatnonzero(played.colour == 0))
            _same_groups(game, after, played)
            fresh = _loaded(game, after)
            assert played.key[0] == fresh.key[0]
            for p in np.flatnonzero(played.colour):
                for name in ("lib_count", "lib_sum", "lib_square"):
                    kept, loaded = getattr(played, name), getattr(fresh, name)
                    assert kept[played.group[p]] == loaded[fresh.group[p]], name


def _at(game: Go, name: str) -> int:
    return game._read_point(name, ValueError)


def test_a_single_stone_capture_sets_the_ko_point() -> None:
    """Black C2 takes white's B2 in a ko shape: white may not take back at once."""
    game = Go(size=5)
    state = game.parse_position("B3 C3 A2 B2 B1 C1 pass D2")
    board = _loaded(game, state)
    kernel.place(board, _at(game, "C2"), COLOURS[state.to_move])
    assert board.colour[_at(game, "B2")] == 0
    assert board.state[kernel.KO] == _at(game, "B2")
    assert not kernel.playable(board, _at(game, "B2"), 2)
    kernel.place(board, _at(game, "E5"), 2)  # elsewhere: the ko is gone
    assert board.state[kernel.KO] == -1


def test_eyes_are_told_from_false_eyes() -> None:
    """A point surrounded by one colour is an eye unless the opponent holds two of its
    diagonals (one at the edge)."""
    game = Go(size=5)
    c2 = _at(game, "C2")
    board = _loaded(game, game.parse_position("B2 pass C1 pass C3 pass D2"))
    assert kernel.is_eye(board, c2, 1) and not kernel.is_eye(board, c2, 2)
    false = _loaded(game, game.parse_position("B2 B1 C1 D1 C3 pass D2"))
    assert not kernel.is_eye(false, c2, 1)


def _playout_moves(game: Go, state: GoState, rates: list[float], seeds: int = 10) -> set[int]:
    """The first moves of 20 playouts a seed from ``state`` under ``rates``."""
    firsts = set()
    record = np.zeros(game.size**2 * kernel.MOVES_PER_POINT, np.int64)
    for seed in range(1, 2 * seeds, 2):
        rng = np.full(1, seed, np.uint64)
        for _ in range(20):
            board = _loaded(game, state)
            moves = [PASS, *state.moves]
            board.state[kernel.LAST] = moves[-1]
            policy = np.array(rates, np.float64)
            kernel.play_out(board, COLOURS[state.to_move], policy, pattern_table(), rng, record)
            firsts.add(int(record[0] >> 2))
    return firsts


def test_the_capture_rule_takes_a_group_in_atari_at_the_last_move() -> None:
    game = Go(size=5)
    state = game.parse_position("B1 A1")  # white A1 has one liberty, A2
    assert _playout_moves(game, state, [1.0, 0.0, 0.0]) == {_at(game, "A2")}
    assert len(_playout_moves(game, state, [0.0, 0.0, 0.0])) > 5


def test_the_capture_rule_saves_a_group_put_in_atari() -> None:
    game = Go(size=5)
    state = game.parse_position("A1 B1")  # black A1 in atari: A2 gives it two liberties
    assert _playout_moves(game, state, [1.0, 0.0, 0.0]) == {_at(game, "A2")}


def test_a_self_atari_is_refused_at_rate_one() -> None:
    """Black B1 would leave B1-C1 with one liberty (D1): a self-atari, never a playout's first
    move at rate 1, but among the uniform ones."""
    game = Go(size=5)
    state = game.parse_position("C1 B2 pass C2 pass D2 pass A1")
    b1 = _at(game, "B1")
    assert kernel.self_atari(_loaded(game, state), b1, 1)
    assert not kernel.self_atari(_loaded(game, state), _at(game, "D1"), 1)
    assert b1 in _playout_moves(game, state, [0.0, 0.0, 0.0])
    assert b1 not in _playout_moves(game, state, [0.0, 0.0, 1.0])


def test_the_pattern_rule_plays_a_shape_next_to_the_last_move() -> None:
    """After black B4, white C4, black D4 (a hane shape over C3), the pattern rule at rate 1
    answers on one of the matching points next to D4."""
    game = Go(size=5)
    state = game.parse_position("B4 C4 D4")
    board = _loaded(game, state)
    matching = {
        int(p)
        for p in board.around[_at(game, "D4")]
        if p >= 0 and board.colour[p] == 0 and pattern_table()[kernel.pattern_key(board, p)]
    }
    assert _at(game, "C3") in matching
    assert _playout_moves(game, state, [0.0, 1.0, 0.0]) <= matching


def test_patterns_match_mogos_hane_in_every_orientation_and_colour() -> None:
    """The hane shape (X O X over three empty points) around C3, turned and with colours
    swapped, is in the table; an empty neighbourhood is not."""
    table = pattern_table()
    game = Go(size=5)
    c3 = _at(game, "C3")
    assert not table[kernel.pattern_key(_loaded(game, game.initial_state()), c3)]
    for moves in ("B4 C4 D4", "D4 D3 D2", "B2 C2 D2", "B4 B3 B2"):
        for record in (moves, f"pass {moves}"):
            board = _loaded(game, game.parse_position(record))
            assert table[kernel.pattern_key(board, c3)], record


def test_priors_favour_captures_and_disfavour_the_empty_edge() -> None:
    game = Go(size=7)
    state = game.parse_position("B1 A1")
    board = _loaded(game, state)
    board.state[kernel.LAST] = _at(game, "A1")
    cfg = np.zeros(49, np.int64)
    kernel.cfg_distances(board, cfg)
    assert cfg[_at(game, "A1")] == 0 and cfg[_at(game, "A2")] == 1 and cfg[_at(game, "B2")] == 2
    rates = {}
    for p in np.flatnonzero(board.colour == 0):
        visits, wins = kernel.prior(board, p, 1, cfg, pattern_table())
        rates[int(p)] = wins / visits
    assert max(rates, key=rates.__getitem__) == _at(game, "A2")  # the capture
    assert rates[_at(game, "G7")] < 0.5 < rates[_at(game, "E5")]  # empty corner, third line


def test_uniform_playouts_and_ownership() -> None:
    """A playout through the game ends in a score on the board's scale; ownership from a
    position with a black wall counts the wall black."""
    game = Go(size=5)
    empty = np.zeros(25, np.uint8)
    scores = [kernel.random_playout(empty, 5, 1, 0, 0.5, seed) for seed in (1, 3, 5, 7)]
    assert all(-25.5 <= s <= 25.5 for s in scores) and len(set(scores)) > 1
    state = game.parse_position("C1 pass C2 pass C3 pass C4 pass C5")
    owners = kernel.ownership(_colours(state), 2, 0, 200, 11)
    assert owners[_at(game, "C3")] > 0.8
    assert owners.mean() > 0
