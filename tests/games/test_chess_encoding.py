"""Chess as AlphaZero's tensors: every legal move of many positions (random games, castling,
en passant, promotions) takes its own index and comes back from it; a position and its
colour-reversed mirror encode alike; the planes count the pieces, rights and clocks python-chess
reports."""

from __future__ import annotations

import random

import chess
import numpy as np
import pytest

from plies.errors import IllegalMoveError
from plies.games import make_game
from plies.games.chess import encoding
from plies.games.chess.rules import ChessState

GAME = make_game("chess")
SPECIAL = [
    "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1",  # castling both ways
    "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R b KQkq - 0 1",
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",  # en passant
    "rnbqkbnr/pppp1ppp/8/8/3Pp3/8/PPP1PPPP/RNBQKBNR b KQkq d3 0 3",
    "1r2k3/P1P5/8/8/8/8/5p1p/3K2R1 w - - 0 1",  # promotions, straight and capturing
    "1r2k3/P1P5/8/8/8/8/5p1p/3K2R1 b - - 0 1",
]


def _positions() -> list[ChessState]:
    rng = random.Random(28)
    states = [GAME.parse_position(fen) for fen in SPECIAL]
    for _ in range(40):
        state = GAME.initial_state()
        for _ in range(rng.randint(0, 120)):
            moves = GAME.actions(state)
            if not moves:
                break
            state = GAME.result(state, rng.choice(list(moves)))
            states.append(state)
    return states


POSITIONS = _positions()


def test_every_legal_move_takes_its_own_index_and_comes_back() -> None:
    seen_kinds = set()
    for state in POSITIONS:
        moves = list(GAME.actions(state))
        indices = [GAME.action_index(state, move) for move in moves]
        assert len(set(indices)) == len(moves)
        assert all(0 <= i < GAME.action_count() == 4672 for i in indices)
        assert [GAME.index_action(state, i) for i in indices] == moves
        seen_kinds.update(i % encoding.KINDS for i in indices)
    assert any(k >= 64 for k in seen_kinds) and any(56 <= k < 64 for k in seen_kinds)


def test_an_index_of_no_legal_move_is_refused() -> None:
    start = GAME.initial_state()
    with pytest.raises(IllegalMoveError, match="not 0 to 4671"):
        GAME.index_action(start, 4672)
    e2e4 = GAME.action_index(start, chess.Move.from_uci("e2e4"))
    with pytest.raises(IllegalMoveError, match="not legal"):
        GAME.index_action(start, e2e4 + 2)  # e2-e6
    with pytest.raises(IllegalMoveError, match="leaves the board"):
        GAME.index_action(start, chess.H1 * encoding.KINDS + 2 * 7)  # east from h1
    with pytest.raises(IllegalMoveError, match="no AlphaZero move index"):
        GAME.action_index(start, chess.Move.from_uci("a1h3"))


def test_a_position_and_its_colour_reversed_mirror_encode_alike() -> None:
    for state in POSITIONS[::5]:
        mirror = ChessState(state.board.mirror())
        assert np.array_equal(GAME.encode(state), GAME.encode(mirror))
        for move in list(GAME.actions(state))[:10]:
            flipped = chess.Move(
                chess.square_mirror(move.from_square),
                chess.square_mirror(move.to_square),
                move.promotion,
            )
            assert GAME.action_index(state, move) == GAME.action_index(mirror, flipped)


def test_the_planes_count_what_python_chess_reports() -> None:
    for state in POSITIONS[::7]:
        board, planes = state.board, GAME.encode(state)
        assert planes.shape == GAME.tensor_shape() == (19, 8, 8) and planes.dtype == np.float32
        for index, piece in enumerate(encoding.PIECES):
            assert planes[index].sum() == len(board.pieces(piece, board.turn))
            assert planes[6 + index].sum() == len(board.pieces(piece, not board.turn))
        assert planes[12, 0, 0] == board.has_kingside_castling_rights(board.turn)
        assert planes[15, 0, 0] == board.has_queenside_castling_rights(not board.turn)
        assert planes[16].sum() == (board.ep_square is not None and board.has_legal_en_passant())
        assert planes[17, 0, 0] == pytest.approx(min(board.halfmove_clock, 100) / 100)
    white_pawns = GAME.encode(GAME.initial_state())[0]
    assert white_pawns[6].sum() == 8 and white_pawns.sum() == 8  # the mover's second rank
    after_e4 = GAME.result(GAME.initial_state(), chess.Move.from_uci("e2e4"))
    assert GAME.encode(after_e4)[0][6].sum() == 8  # Black's pawns, seen from Black's side


def test_a_repeated_position_lights_the_repetition_plane() -> None:
    state = GAME.initial_state()
    for uci in ("g1f3", "g8f6", "f3g1", "f6g8"):
        state = GAME.result(state, chess.Move.from_uci(uci))
        assert GAME.encode(state)[18].sum() == (64 if uci == "f6g8" else 0)
