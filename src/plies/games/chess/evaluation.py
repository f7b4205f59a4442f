"""Chess's evaluation: a tapered piece-square evaluation (the form of Ronald Friederich's PeSTO)
with pawn-structure, king-safety and mobility terms, a weighted sum of features whose weights
are PeSTO's or fitted to data (:mod:`plies.learn.tune`).

The first 768 weights are whole centipawns: for the middle game, then for the end game, for each
piece type (pawn to king) and square as White sees the board (a1 first), the piece's value
plus its square's bonus. A position's midgame and endgame sums add a White piece's weight at its
square and subtract a Black piece's at the mirror square. Then come the :data:`TERMS`, a midgame
and an endgame weight each (all midgame ones first): a term's count is White's less Black's
(:func:`term_counts`), and its weights times it join the sums. The game phase (the weights of
the knights, bishops, rooks and queens on the board, out of 24) blends them:
``(midgame * phase + endgame * (24 - phase)) / 24``, rounded toward zero. As a linear function
of the weights, a feature is then ``phase / 24`` (midgame) or ``(24 - phase) / 24`` (endgame)
times the count of White's pieces on the square less Black's on its mirror, or a term's count.

PeSTO's piece values, tables and phase weights are as published on the Chess Programming Wiki
("PeSTO's Evaluation Function"); its tables list the squares a8 first, as printed below.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from importlib import resources

import chess

from plies.errors import SpecError

PestoSums = tuple[int, int, int]
"""A position's midgame sum, endgame sum (for White) and game phase."""

MIDGAME_PHASE = 24
"""The phase of the full set of pieces (more after promotions counts as 24): pure middlegame."""
TABLE_WEIGHTS = 2 * 6 * 64
"""The piece-square weights."""
TERMS = (
    *(f"passed pawn rank {rank}" for rank in range(2, 8)),
    "isolated pawn",
    "doubled pawn",
    "bishop pair",
    "rook open file",
    "rook half-open file",
    "king shield pawn",
    "king open file",
    "knight mobility",
    "bishop mobility",
    "rook mobility",
    "queen mobility",
)
"""The terms beyond the piece-square tables, counted for each side (:func:`term_counts`):

- a passed pawn (no enemy pawn ahead of it on its file or the files beside) on each rank, as
  its side sees the board;
- an isolated pawn (no pawn of its side on the files beside); a doubled pawn (each pawn of a
  side on a file beyond the first);
- the bishop pair (two bishops or more); a rook on an open file (no pawn) or a half-open one
  (only enemy pawns);
- a pawn of the king's side on the king's file or the files beside, one or two ranks ahead of
  it; each of those three files without a pawn of the king's side;
- mobility: the squares a knight, bishop, rook or queen attacks that hold no piece of its side
  and no enemy pawn attacks.
"""
PASSED_PAWN, ISOLATED_PAWN = 0, 6
DOUBLED_PAWN, BISHOP_PAIR, ROOK_OPEN_FILE, ROOK_HALF_OPEN_FILE = 7, 8, 9, 10
KING_SHIELD_PAWN, KING_OPEN_FILE, MOBILITY = 11, 12, 13
"""Indexes in :data:`TERMS` (passed pawns from rank 2, mobility from the knight's)."""
WEIGHTS = TABLE_WEIGHTS + 2 * len(TERMS)
"""The number of weights."""
PHASES = ("midgame", "endgame")

MIDGAME_VALUE = {
    chess.PAWN: 82,
    chess.KNIGHT: 337,
    chess.BISHOP: 365,
    chess.ROOK: 477,
    chess.QUEEN: 1025,
    chess.KING: 0,
}
ENDGAME_VALUE = {
    chess.PAWN: 94,
    chess.KNIGHT: 281,
    chess.BISHOP: 297,
    chess.ROOK: 512,
    chess.QUEEN: 936,
    chess.KING: 0,
}
PHASE_WEIGHT = {
    chess.PAWN: 0,
    chess.KNIGHT: 1,
    chess.BISHOP: 1,
    chess.ROOK: 2,
    chess.QUEEN: 4,
    chess.KING: 0,
}

# fmt: off
MIDGAME_TABLE = {
    chess.PAWN: (
          0,   0,   0,   0,   0,   0,  0,   0,
         98, 134,  61,  95,  68, 126, 34, -11,
         -6,   7,  26,  31,  65,  56, 25, -20,
        -14,  13,   6,  21,  23,  12, 17, -23,
        -27,  -2,  -5,  12,  17,   6, 10, -25,
        -26,  -4,  -4, -10,   3,   3, 33, -12,
        -35,  -1, -20, -23, -15,  24, 38, -22,
          0,   0,   0,   0,   0,   0,  0,   0,
    ),
    chess.KNIGHT: (
        -167, -89, -34, -49,  61, -97, -15, -107,
         -73, -41,  72,  36,  23,  62,   7,  -17,
         -47,  60,  37,  65,  84, 129,  73,   44,
          -9,  17,  19,  53,  37,  69,  18,   22,
         -13,   4,  16,  13,  28,  19,  21,   -8,
         -23,  -9,  12,  10,  19,  17,  25,  -16,
         -29, -53, -12,  -3,  -1,  18, -14,  -19,
        -105, -21, -58, -33, -17, -28, -19,  -23,
    ),
    chess.BISHOP: (
        -29,   4, -82, -37, -25, -42,   7,  -8,
        -26,  16, -18, -13,  30,  59,  18, -47,
        -16,  37,  43,  40,  35,  50,  37,  -2,
         -4,   5,  19,  50,  37,  37,   7,  -2,
         -6,  13,  13,  26,  34,  12,  10,   4,
          0,  15,  15,  15,  14,  27,  18,  10,
          4,  15,  16,   0,   7,  21,  33,   1,
        -33,  -3, -14, -21, -13, -12, -39, -21,
    ),
    chess.ROOK: (
         32,  42,  32,  51, 63,  9,  31,  43,
         27,  32,  58,  62, 80, 67,  26,  44,
         -5,  19,  26,  36, 17, 45,  61,  16,
        -24, -11,   7,  26, 24, 35,  -8, -20,
        -36, -26, -12,  -1,  9, -7,   6, -23,
        -45, -25, -16, -17,  3,  0,  -5, -33,
        -44, -16, -20,  -9, -1, 11,  -6, -71,
        -19, -13,   1,  17, 16,  7, -37, -26,
    ),
    chess.QUEEN: (
        -28,   0,  29,  12,  59,  44,  43,  45,
        -24, -39,  -5,   1, -16,  57,  28,  54,
        -13, -17,   7,   8,  29,  56,  47,  57,
        -27, -27, -16, -16,  -1,  17,  -2,   1,
         -9, -26,  -9, -10,  -2,  -4,   3,  -3,
        -14,   2, -11,  -2,  -5,   2,  14,   5,
        -35,  -8,  11,   2,   8,  15,  -3,   1,
         -1, -18,  -9,  10, -15, -25, -31, -50,
    ),
    chess.KING: (
        -65,  23,  16, -15, -56, -34,   2,  13,
         29,  -1, -20,  -7,  -8,  -4, -38, -29,
         -9,  24,   2, -16, -20,   6,  22, -22,
        -17, -20, -12, -27, -30, -25, -14, -36,
        -49,  -1, -27, -39, -46, -44, -33, -51,
        -14, -14, -22, -46, -44, -30, -15, -27,
          1,   7,  -8, -64, -43, -16,   9,   8,
        -15,  36,  12, -54,   8, -28,  24,  14,
    ),
}
ENDGAME_TABLE = {
    chess.PAWN: (
          0,   0,   0,   0,   0,   0,   0,   0,
        178, 173, 158, 134, 147, 132, 165, 187,
         94, 100,  85,  67,  56,  53,  82,  84,
         32,  24,  13,   5,  -2,   4,  17,  17,
         13,   9,  -3,  -7,  -7,  -8,   3,  -1,
          4,   7,  -6,   1,   0,  -5,  -1,  -8,
         13,   8,   8,  10,  13,   0,   2,  -7,
          0,   0,   0,   0,   0,   0,   0,   0,
    ),
    chess.KNIGHT: (
        -58, -38, -13, -28, -31, -27, -63, -99,
        -25,  -8, -25,  -2,  -9, -25, -24, -52,
        -24, -20,  10,   9,  -1,  -9, -19, -41,
        -17,   3,  22,  22,  22,  11,   8, -18,
        -18,  -6,  16,  25,  16,  17,   4, -18,
        -23,  -3,  -1,  15,  10,  -3, -20, -22,
        -42, -20, -10,  -5,  -2, -20, -23, -44,
        -29, -51, -23, -15, -22, -18, -50, -64,
    ),
    chess.BISHOP: (
        -14, -21, -11,  -8, -7,  -9, -17, -24,
         -8,  -4,   7, -12, -3, -13,  -4, -14,
          2,  -8,   0,  -1, -2,   6,   0,   4,
         -3,   9,  12,   9, 14,  10,   3,   2,
         -6,   3,  13,  19,  7,  10,  -3,  -9,
        -12,  -3,   8,  10, 13,   3,  -7, -15,
        -14, -18,  -7,  -1,  4,  -9, -15, -27,
        -23,  -9, -23,  -5, -9, -16,  -5, -17,
    ),
    chess.ROOK: (
        13, 10, 18, 15, 12,  12,   8,   5,
        11, 13, 13, 11, -3,   3,   8,   3,
         7,  7,  7,  5,  4,  -3,  -5,  -3,
         4,  3, 13,  1,  2,   1,  -1,   2,
         3,  5,  8,  4, -5,  -6,  -8, -11,
        -4,  0, -5, -1, -7, -12,  -8, -16,
        -6, -6,  0,  2, -9,  -9, -11,  -3,
        -9,  2,  3, -1, -5, -13,   4, -20,
    ),
    chess.QUEEN: (
         -9,  22,  22,  27,  27,  19,  10,  20,
        -17,  20,  32,  41,  58,  25,  30,   0,
        -20,   6,   9,  49,  47,  35,  19,   9,
          3,  22,  24,  45,  57,  40,  57,  36,
        -18,  28,  19,  47,  31,  34,  39,  23,
        -16, -27,  15,   6,   9,  17,  10,   5,
        -22, -23, -30, -16, -16, -23, -36, -32,
        -33, -28, -22, -43,  -5, -32, -20, -41,
    ),
    chess.KING: (
        -74, -35, -18, -18, -11,  15,   4, -17,
        -12,  17,  14,  17,  17,  38,  23,  11,
         10,  17,  23,  15,  20,  45,  44,  13,
         -8,  22,  24,  27,  26,  33,  26,   3,
        -18,  -4,  21,  24,  27,  23,   9, -11,
        -19,  -3,  11,  21,  23,  16,   7,  -9,
        -27, -11,   4,  13,  14,   4,  -5, -17,
        -53, -34, -21, -11, -28, -14, -24, -43,
    ),
}
# fmt: on


def _pesto_weights() -> tuple[int, ...]:
    """PeSTO's values and tables as the 768 piece-square weights (the tables read at
    ``square ^ 56``), and no weight on the terms."""
    weights: list[int] = []
    for values, tables in ((MIDGAME_VALUE, MIDGAME_TABLE), (ENDGAME_VALUE, ENDGAME_TABLE)):
        for piece in chess.PIECE_TYPES:
            weights.extend(values[piece] + tables[piece][square ^ 56] for square in range(64))
    return (*weights, *[0] * 2 * len(TERMS))


def weight_names() -> tuple[str, ...]:
    """A name for each weight: ``midgame knight f3``, ``endgame passed pawn rank 6``."""
    return tuple(
        f"{phase} {chess.piece_name(piece)} {chess.square_name(square)}"
        for phase in PHASES
        for piece in chess.PIECE_TYPES
        for square in range(64)
    ) + tuple(f"{phase} {term}" for phase in PHASES for term in TERMS)


def _files_beside(file: int) -> int:
    """The files next to ``file`` as a mask."""
    beside = 0
    if file > 0:
        beside |= chess.BB_FILES[file - 1]
    if file < 7:
        beside |= chess.BB_FILES[file + 1]
    return beside


def _ranks_ahead(color: chess.Color, rank: int) -> int:
    """The squares on the ranks ahead of ``rank`` as ``color`` moves."""
    ranks = range(rank + 1, 8) if color == chess.WHITE else range(rank)
    return sum(chess.BB_RANKS[r] for r in ranks)


def term_counts(board: chess.Board) -> tuple[int, ...]:
    """Each of the :data:`TERMS` counted for White less for Black (python-chess's masks; the
    compiled kernel counts them its own way)."""
    counts = [0] * len(TERMS)
    for color in chess.COLORS:
        sign = 1 if color == chess.WHITE else -1
        own = board.occupied_co[color]
        pawns, enemy_pawns = board.pawns & own, board.pawns & ~own
        for square in chess.scan_forward(pawns):
            file, rank = chess.square_file(square), chess.square_rank(square)
            span = _ranks_ahead(color, rank) & (chess.BB_FILES[file] | _files_beside(file))
            if not enemy_pawns & span:
                relative = rank if color == chess.WHITE else 7 - rank
                counts[PASSED_PAWN + relative - 1] += sign
            if not pawns & _files_beside(file):
                counts[ISOLATED_PAWN] += sign
        for file_mask in chess.BB_FILES:
            counts[DOUBLED_PAWN] += sign * max(0, chess.popcount(pawns & file_mask) - 1)
        if chess.popcount(board.bishops & own) >= 2:
            counts[BISHOP_PAIR] += sign
        for square in chess.scan_forward(board.rooks & own):
            file_mask = chess.BB_FILES[chess.square_file(square)]
            if not board.pawns & file_mask:
                counts[ROOK_OPEN_FILE] += sign
            elif not pawns & file_mask:
                counts[ROOK_HALF_OPEN_FILE] += sign
        king = board.king(color)
        if king is not None:
            file, rank = chess.square_file(king), chess.square_rank(king)
            step = 1 if color == chess.WHITE else -1
            near = [f for f in (file - 1, file, file + 1) if 0 <= f < 8]
            for f in near:
                for r in (rank + step, rank + 2 * step):
                    if 0 <= r < 8 and pawns & chess.BB_SQUARES[chess.square(f, r)]:
                        counts[KING_SHIELD_PAWN] += sign
                if not pawns & chess.BB_FILES[f]:
                    counts[KING_OPEN_FILE] += sign
        guarded = 0
        for square in chess.scan_forward(enemy_pawns):
            guarded |= chess.BB_PAWN_ATTACKS[not color][square]
        area = ~own & ~guarded
        for offset, piece in enumerate((chess.KNIGHT, chess.BISHOP, chess.ROOK, chess.QUEEN)):
            for square in chess.scan_forward(board.pieces_mask(piece, color)):
                counts[MOBILITY + offset] += sign * chess.popcount(
                    board.attacks_mask(square) & area
                )
    return tuple(counts)


class Evaluation:
    """The tapered evaluation with one set of weights: sums from scratch and after a move, the
    blended score, the kernel's parameters and the features the weights multiply."""

    def __init__(self, weights: Sequence[int], source: str) -> None:
        if len(weights) != WEIGHTS:
            raise SpecError(
                f"chess evaluation {source}: {len(weights)} weights, expected {WEIGHTS}"
            )
        self.weights = tuple(int(weight) for weight in weights)
        self.source = source
        """Where the weights come from (``PeSTO``, a file)."""
        self.midgame = self._signed(0)
        self.endgame = self._signed(1)
        terms = self.weights[TABLE_WEIGHTS:]
        self.term_midgame, self.term_endgame = terms[: len(TERMS)], terms[len(TERMS) :]
        self.has_terms = any(terms)
        """Whether any term weighs: without, :func:`term_counts` is never needed."""

    def __repr__(self) -> str:
        return f"Evaluation({self.source!r})"

    def _signed(self, phase: int) -> dict[bool, dict[int, tuple[int, ...]]]:
        """Per colour and piece type, the signed weight of each square (Black's mirrored)."""
        tables: dict[bool, dict[int, tuple[int, ...]]] = {}
        for color in chess.COLORS:
            sign, flip = (1, 0) if color == chess.WHITE else (-1, 56)
            tables[color] = {
                piece: tuple(
                    sign * self.weights[(6 * phase + piece - 1) * 64 + (square ^ flip)]
                    for square in range(64)
                )
                for piece in chess.PIECE_TYPES
            }
        return tables

    def sums(self, board: chess.Board) -> PestoSums:
        """White's midgame and endgame sums and the phase, counted from scratch."""
        midgame = endgame = phase = 0
        for color in chess.COLORS:
            for piece in chess.PIECE_TYPES:
                midgame_table = self.midgame[color][piece]
                endgame_table = self.endgame[color][piece]
                weight = PHASE_WEIGHT[piece]
                for square in chess.scan_forward(board.pieces_mask(piece, color)):
                    midgame += midgame_table[square]
                    endgame += endgame_table[square]
                    phase += weight
        return midgame, endgame, phase

    def after(self, board: chess.Board, move: chess.Move, sums: PestoSums) -> PestoSums:
        """:meth:`sums` after legal ``move`` on ``board``, updated from ``sums`` (those of
        ``board``) for the squares the move changes."""
        midgame, endgame, phase = sums
        mover, origin, target = board.turn, move.from_square, move.to_square
        piece = board.piece_type_at(origin)
        assert piece is not None
        placed = move.promotion or piece
        own_midgame, own_endgame = self.midgame[mover], self.endgame[mover]
        midgame += own_midgame[placed][target] - own_midgame[piece][origin]
        endgame += own_endgame[placed][target] - own_endgame[piece][origin]
        phase += PHASE_WEIGHT[placed] - PHASE_WEIGHT[piece]
        if board.is_capture(move):
            square = target
            if board.is_en_passant(move):  # the pawn beside
                square = target - 8 if mover == chess.WHITE else target + 8
            victim = board.piece_type_at(square)
            assert victim is not None
            midgame -= self.midgame[not mover][victim][square]
            endgame -= self.endgame[not mover][victim][square]
            phase -= PHASE_WEIGHT[victim]
        elif piece == chess.KING and abs(target - origin) == 2:  # castling: the rook moves too
            rook_from, rook_to = (
                (target + 1, target - 1) if target > origin else (target - 2, target + 1)
            )
            midgame += own_midgame[chess.ROOK][rook_to] - own_midgame[chess.ROOK][rook_from]
            endgame += own_endgame[chess.ROOK][rook_to] - own_endgame[chess.ROOK][rook_from]
        return midgame, endgame, phase

    def white_centipawns(self, board: chess.Board, sums: PestoSums) -> int:
        """White's score: the piece-square ``sums`` of ``board`` (:meth:`sums`) and the terms,
        blended by the phase (:func:`blend`)."""
        midgame, endgame, phase = sums
        if self.has_terms:
            counts = term_counts(board)
            midgame += sum(w * c for w, c in zip(self.term_midgame, counts, strict=True))
            endgame += sum(w * c for w, c in zip(self.term_endgame, counts, strict=True))
        return blend((midgame, endgame, phase))

    def kernel_params(self) -> tuple[int, ...]:
        """The signed weights as the compiled kernel reads them (:mod:`.kernel`): by colour
        (White first), piece type (0 unused) and square, midgame then endgame, then the phase
        weights."""
        words: list[int] = []
        for tables in (self.midgame, self.endgame):
            for color in (chess.WHITE, chess.BLACK):
                words.extend([0] * 64)
                for piece in chess.PIECE_TYPES:
                    words.extend(tables[color][piece])
        words.extend([0, *(PHASE_WEIGHT[piece] for piece in chess.PIECE_TYPES)])
        return tuple(words)

    def kernel_terms(self) -> tuple[int, ...]:
        """The terms' weights as the kernel reads them: whether any weighs, then the midgame
        weights and the endgame ones."""
        return (int(self.has_terms), *self.term_midgame, *self.term_endgame)

    def features(self, board: chess.Board) -> dict[int, float]:
        """The features the weights multiply (by weight index), so that White's score is
        their weighted sum before rounding: ``phase / 24`` or ``(24 - phase) / 24`` for each
        piece, negative for Black's (at the mirror square), and times each term's count."""
        phase = min(self.sums(board)[2], MIDGAME_PHASE) / MIDGAME_PHASE
        found: dict[int, float] = {}
        for color in chess.COLORS:
            sign, flip = (1.0, 0) if color == chess.WHITE else (-1.0, 56)
            for piece in chess.PIECE_TYPES:
                for square in chess.scan_forward(board.pieces_mask(piece, color)):
                    index = (piece - 1) * 64 + (square ^ flip)
                    found[index] = found.get(index, 0.0) + sign * phase
                    late = index + 6 * 64
                    found[late] = found.get(late, 0.0) + sign * (1 - phase)
        for term, count in enumerate(term_counts(board)):
            if count:
                found[TABLE_WEIGHTS + term] = count * phase
                found[TABLE_WEIGHTS + len(TERMS) + term] = count * (1 - phase)
        return found


def blend(sums: PestoSums) -> int:
    """The tapered score: midgame and endgame sums weighted by the phase (capped at 24),
    rounded toward zero as PeSTO's integer division does."""
    midgame, endgame, phase = sums
    phase = min(phase, MIDGAME_PHASE)
    blended = midgame * phase + endgame * (MIDGAME_PHASE - phase)
    return int(blended / MIDGAME_PHASE)


def _shipped() -> Evaluation:
    """plies' tuned weights, ``weights.json`` beside this module (``plies learn tune``'s
    format; its ``how`` says how they were got)."""
    record = json.loads(resources.files(__package__).joinpath(SHIPPED).read_text("utf-8"))
    return Evaluation([round(weight) for weight in record["weights"]], "plies' tuned weights")


SHIPPED = "weights.json"
"""The file of the tuned weights, in this package."""
PESTO = Evaluation(_pesto_weights(), "PeSTO")
"""PeSTO's published weights (no weight on the terms)."""
TUNED = _shipped()
"""PeSTO's tables with the terms' weights fitted to Stockfish's evaluations (BENCHMARKS.md,
"Tuning the evaluation")."""
DEFAULT = TUNED
"""The weights chess evaluates with unless told otherwise."""
