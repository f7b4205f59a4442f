"""Chess as tensors for learned players: AlphaZero's board planes and move indices (Silver et
al. 2018, "A general reinforcement learning algorithm that masters chess, shogi and Go through
self-play", supplementary table S1 and its 8 x 8 x 73 move planes).

Everything is seen from the mover's side: for Black the board is turned upside down (square
``s`` becomes ``s ^ 56``), so the mover's pawns always advance up the planes, and a position
and its colour-reversed mirror image (:meth:`chess.Board.mirror`) encode alike.

Planes (rows from the mover's far rank down, as the other games' planes, files a to h):

- 0-5: the mover's pawns, knights, bishops, rooks, queens, king; 6-11: the opponent's;
- 12-15: castling rights (the mover's king side, queen side, the opponent's), whole planes;
- 16: the en passant target square;
- 17: the halfmove clock over 100 (the fifty-move rule), a whole plane;
- 18: ones when the position has occurred before (a repetition draw is one more away).

Moves: ``from * 73 + kind`` with ``from`` the origin square from the mover's side and ``kind``
one of 56 queen-like moves (8 directions x 1 to 7 squares; promotions to a queen too), 8
knight moves, and 9 under-promotions (to knight, bishop, rook; straight, capturing to the left
or to the right): 4,672 indices, of which a position's legal moves take distinct ones.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING

import chess
import numpy as np
from numpy.typing import NDArray

from plies.capabilities import Symmetry
from plies.errors import IllegalMoveError

if TYPE_CHECKING:
    from plies.games.chess.rules import ChessState

PLANES = 19
KINDS = 73
ACTIONS = 64 * KINDS
DIRECTIONS = ((1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1))
"""(rank step, file step) of the queen-like kinds: north first, then clockwise."""
KNIGHT_JUMPS = ((2, 1), (1, 2), (-1, 2), (-2, 1), (-2, -1), (-1, -2), (1, -2), (2, -1))
UNDER_PROMOTIONS = (chess.KNIGHT, chess.BISHOP, chess.ROOK)
PIECES = (chess.PAWN, chess.KNIGHT, chess.BISHOP, chess.ROOK, chess.QUEEN, chess.KING)


def _seen(square: int, white: bool) -> int:
    """``square`` from the mover's side."""
    return square if white else square ^ 56


def _cell(square: int) -> int:
    """The flat plane cell of a square seen from the mover's side (top row: the far rank)."""
    return (7 - chess.square_rank(square)) * 8 + chess.square_file(square)


@cache
def _cells() -> NDArray[np.intp]:
    return np.array([_cell(square) for square in range(64)], np.intp)


def encode(state: ChessState) -> NDArray[np.float32]:
    """The state's :data:`PLANES` planes of 8 x 8, from the mover's side."""
    board = state.board
    white = board.turn
    planes = np.zeros((PLANES, 64), np.float32)
    cells = _cells()
    for offset, colour in ((0, white), (6, not white)):
        for index, piece in enumerate(PIECES):
            squares = [_seen(s, white) for s in board.pieces(piece, colour)]
            planes[offset + index, cells[squares]] = 1.0
    rights = (
        board.has_kingside_castling_rights(white),
        board.has_queenside_castling_rights(white),
        board.has_kingside_castling_rights(not white),
        board.has_queenside_castling_rights(not white),
    )
    for index, right in enumerate(rights):
        planes[12 + index] = float(right)
    if board.ep_square is not None and board.has_legal_en_passant():
        planes[16, cells[_seen(board.ep_square, white)]] = 1.0
    planes[17] = min(board.halfmove_clock, 100) / 100
    planes[18] = float(state.position in state.history)
    return planes.reshape(PLANES, 8, 8)


def _kind(move: chess.Move, white: bool) -> int | None:
    """The move's kind (0 to 72) from the mover's side, None when no kind fits."""
    origin, target = _seen(move.from_square, white), _seen(move.to_square, white)
    ranks = chess.square_rank(target) - chess.square_rank(origin)
    files = chess.square_file(target) - chess.square_file(origin)
    if move.promotion in UNDER_PROMOTIONS:
        if ranks != 1 or abs(files) > 1:
            return None
        return 64 + UNDER_PROMOTIONS.index(move.promotion) * 3 + files + 1
    if (ranks, files) in KNIGHT_JUMPS:
        return 56 + KNIGHT_JUMPS.index((ranks, files))
    distance = max(abs(ranks), abs(files))
    if distance == 0 or (ranks and files and abs(ranks) != abs(files)):
        return None
    step = (ranks // distance, files // distance)
    return DIRECTIONS.index(step) * 7 + distance - 1


def action_index(state: ChessState, move: chess.Move) -> int:
    """The policy index of ``move``; :class:`IllegalMoveError` for a move no index fits."""
    white = state.board.turn
    kind = _kind(move, white)
    if kind is None or move.drop is not None:
        raise IllegalMoveError(f"move {move.uci()!r} has no AlphaZero move index")
    return _seen(move.from_square, white) * KINDS + kind


def index_action(state: ChessState, index: int) -> chess.Move:
    """The move of policy index ``index`` in ``state``; :class:`IllegalMoveError` when the
    index is out of range or its move is not legal there."""
    if not 0 <= index < ACTIONS:
        raise IllegalMoveError(f"move index {index} is not 0 to {ACTIONS - 1}")
    board, white = state.board, state.board.turn
    origin, kind = divmod(index, KINDS)
    rank, file = chess.square_rank(origin), chess.square_file(origin)
    promotion = None
    if kind >= 64:
        piece, side = divmod(kind - 64, 3)
        ranks, files, promotion = 1, side - 1, UNDER_PROMOTIONS[piece]
    elif kind >= 56:
        ranks, files = KNIGHT_JUMPS[kind - 56]
    else:
        (rank_step, file_step), distance = DIRECTIONS[kind // 7], kind % 7 + 1
        ranks, files = rank_step * distance, file_step * distance
    if not (0 <= rank + ranks < 8 and 0 <= file + files < 8):
        raise IllegalMoveError(f"move index {index} leaves the board")
    source = _seen(origin, white)
    target = _seen(chess.square(file + files, rank + ranks), white)
    pawn = board.piece_type_at(source) == chess.PAWN
    if promotion is None and pawn and chess.square_rank(target) in (0, 7):
        promotion = chess.QUEEN
    move = chess.Move(source, target, promotion)
    if not board.is_legal(move):
        raise IllegalMoveError(f"move index {index} ({move.uci()}) is not legal here")
    return move


@cache
def symmetries() -> tuple[Symmetry, ...]:
    """The identity only: castling and pawns break the board's mirror symmetries (the colour
    reversal is already in the encoding)."""
    return (Symmetry(tuple(range(64)), tuple(range(ACTIONS))),)
