"""Compiled chess (Numba): the board, legal move generation, copy-make, Zobrist keys, the
draws by rule and the evaluation, behind :class:`plies.games.chess.Chess`.

A position is a row of :data:`WORDS` int64 words: two colour bitboards, six piece bitboards
(bit ``8 * rank + file``, a1 is bit 0, as python-chess numbers squares), the side to move,
castling rights, en passant square and clocks packed in :data:`INFO`, the position's Zobrist
:data:`KEY`, and PeSTO's midgame and endgame sums for White kept up to date by :func:`play`.
A move is ``from | to << 6 | promotion << 12`` (python-chess's piece types: knight 2 ...
queen 5); castling is the king's two-square move. Nothing here imports python-chess (the
native dispatch loads every kernel): python-chess's rules in :mod:`.rules` are the reference
these are tested against, position by position.

Legal moves come in one canonical order, which :class:`~plies.games.chess.Chess` also uses:
the noisy ones (captures and promotions) first by MVV-LVA, then the rest, each group by origin
square, target square and promotion piece.

The key is Zobrist hashing with :mod:`.zobrist`'s words; the en passant
file counts only when an en passant capture is legal, so two positions have one key exactly when
FIDE's repetition rule (article 9.2.3) calls them the same.
"""

from __future__ import annotations

import numba
import numpy as np
from numba.cpython.unsafe.numbers import leading_zeros, trailing_zeros
from numpy.typing import NDArray

from plies.compiled import NOT_OVER, compiled, popcount
from plies.games.chess import zobrist

WHITE_WORD, BLACK_WORD = 0, 1
PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING = 1, 2, 3, 4, 5, 6
"""Piece types (python-chess's numbers); a piece type's bitboard is word ``type + 1``."""
INFO, KEY, MIDGAME, ENDGAME = 8, 9, 10, 11
WORDS = 12
"""int64 words per position."""
# INFO's fields: bit 0 Black to move; bits 1-4 castling (White king side, queen side, Black
# king side, queen side); bits 5-11 the en passant square (64: none); bit 12 whether the key
# counts it; bits 13-22 the halfmove clock; bits 23 up the fullmove number.
CASTLE_SHIFT, EP_SHIFT, EP_KEYED, CLOCK_SHIFT, FULLMOVE_SHIFT = 1, 5, 12, 13, 23
NO_SQUARE = 64
MAX_MOVES = 256
"""Room for one position's moves (218 is the most any position has)."""
WORK_SHAPE = (2, MAX_MOVES)
"""The generator's work space: the quiet moves, then the noisy ones' MVV-LVA keys."""
FIFTY_MOVES = 100

_ONE = np.uint64(1)
_ZERO = np.uint64(0)
_FULL = np.uint64(0xFFFFFFFFFFFFFFFF)
_LIGHT = np.uint64(0x55AA55AA55AA55AA)
_DARK = np.uint64(0xAA55AA55AA55AA55)

# Tables ---------------------------------------------------------------------------------------

DIRECTIONS = ((1, 0), (1, 1), (0, 1), (1, -1), (-1, 0), (-1, -1), (0, -1), (-1, 1))
"""(rank, file) steps: north, north-east, east, north-west, then their opposites south,
south-west, west, south-east. Directions 0-3 raise the square number (the first blocker is the
lowest bit), 4-7 lower it (the highest bit); even directions are a rook's, odd a bishop's."""


def _bit(rank: int, file: int) -> int:
    return 1 << (8 * rank + file) if 0 <= rank < 8 and 0 <= file < 8 else 0


def _tables() -> dict[str, NDArray[np.uint64]]:
    """Attack sets by square, rays, the squares between and the line through two squares."""
    knight = np.zeros(64, np.uint64)
    king = np.zeros(64, np.uint64)
    pawn = np.zeros((2, 64), np.uint64)
    rays = np.zeros((8, 64), np.uint64)
    between = np.zeros((64, 64), np.uint64)
    line = np.zeros((64, 64), np.uint64)
    for square in range(64):
        rank, file = divmod(square, 8)
        jumps = ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2))
        knight[square] = sum(_bit(rank + r, file + f) for r, f in jumps)
        king[square] = sum(_bit(rank + r, file + f) for r, f in DIRECTIONS)
        pawn[0, square] = _bit(rank + 1, file - 1) | _bit(rank + 1, file + 1)
        pawn[1, square] = _bit(rank - 1, file - 1) | _bit(rank - 1, file + 1)
        for d, (dr, df) in enumerate(DIRECTIONS):
            ray, path = 0, 0
            r, f = rank + dr, file + df
            while 0 <= r < 8 and 0 <= f < 8:
                target = 8 * r + f
                between[square, target] = path
                ray |= 1 << target
                path |= 1 << target
                r, f = r + dr, f + df
            rays[d, square] = ray
    for square in range(64):
        for d in range(4):
            full = int(rays[d, square]) | int(rays[d + 4, square]) | 1 << square
            for target in range(64):
                if full >> target & 1 and target != square:
                    line[square, target] = full
    return {
        "knight": knight,
        "king": king,
        "pawn": pawn,
        "rays": rays,
        "between": between,
        "line": line,
    }


_T = _tables()
KNIGHT_ATTACKS, KING_ATTACKS, PAWN_ATTACKS = _T["knight"], _T["king"], _T["pawn"]
RAYS, BETWEEN, LINE = _T["rays"], _T["between"], _T["line"]


ZOBRIST = np.array(zobrist.KEYS, np.uint64)
CASTLING_KEYS, EP_KEYS, BLACK_KEY = zobrist.CASTLING, zobrist.EN_PASSANT, zobrist.BLACK_TO_MOVE
CASTLE_MASK = np.full(64, 15, np.int64)
"""Castling rights kept when a move starts or ends on a square (rooks and kings at home)."""
for _square, _lost in ((0, 2), (7, 1), (4, 3), (56, 8), (63, 4), (60, 12)):
    CASTLE_MASK[_square] = 15 & ~_lost

# Evaluation parameters (``params[1:]`` of the native dispatch): the signed square values
# for each colour and piece type, midgame then endgame, the phase weights, the centipawns
# of a lead of one half, whether the terms count, and their midgame then endgame weights.
TABLE_MIDGAME = 0
TABLE_ENDGAME = 2 * 7 * 64
PHASE_WEIGHTS = 2 * TABLE_ENDGAME
CENTIPAWN_SCALE = PHASE_WEIGHTS + 7
TERMS_ON = CENTIPAWN_SCALE + 1
TERMS = 17
"""The evaluation's terms (:data:`plies.games.chess.evaluation.TERMS`, in that order)."""
TERM_MIDGAME = TERMS_ON + 1
TERM_ENDGAME = TERM_MIDGAME + TERMS
PARAM_WORDS = TERM_ENDGAME + TERMS
MIDGAME_PHASE = 24
PASSED_PAWN, ISOLATED_PAWN, DOUBLED_PAWN, BISHOP_PAIR = 0, 6, 7, 8
ROOK_OPEN_FILE, ROOK_HALF_OPEN_FILE, KING_SHIELD_PAWN, KING_OPEN_FILE, MOBILITY = 9, 10, 11, 12, 13


def _term_tables() -> dict[str, NDArray[np.uint64]]:
    """Masks for the terms: each file, the files beside it, and by colour and square the
    squares ahead on its file and those beside (a passed pawn's span) and one or two ranks
    ahead on them (a king's shield)."""
    file_mask = np.zeros(8, np.uint64)
    beside = np.zeros(8, np.uint64)
    span = np.zeros((2, 64), np.uint64)
    shield = np.zeros((2, 64), np.uint64)
    for file in range(8):
        file_mask[file] = sum(_bit(rank, file) for rank in range(8))
    for file in range(8):
        beside[file] = sum(_bit(rank, f) for rank in range(8) for f in (file - 1, file + 1))
    for square in range(64):
        rank, file = divmod(square, 8)
        for side, step in ((0, 1), (1, -1)):
            ahead = range(rank + 1, 8) if step == 1 else range(rank)
            span[side, square] = sum(_bit(r, f) for r in ahead for f in range(file - 1, file + 2))
            shield[side, square] = sum(
                _bit(rank + step * k, f) for k in (1, 2) for f in range(file - 1, file + 2)
            )
    return {"file": file_mask, "beside": beside, "span": span, "shield": shield}


_E = _term_tables()
FILE_MASKS, BESIDE_FILES = _E["file"], _E["beside"]
PASSED_SPAN, KING_SHIELD = _E["span"], _E["shield"]


# Bits and attacks -------------------------------------------------------------------------------


@compiled
def lowest(b: np.uint64) -> int:
    """The index of the lowest set bit of a non-zero word."""
    return int(trailing_zeros(b))  # type: ignore[call-arg]


@compiled
def highest(b: np.uint64) -> int:
    return 63 - int(leading_zeros(b))  # type: ignore[call-arg]


@compiled
def ray_attacks(square: int, occupied: np.uint64, first: int) -> np.uint64:
    """The squares a slider on ``square`` reaches along directions ``first`` and ``first +
    2`` and their opposites (``first`` 0: a rook's, 1: a bishop's), stopping at blockers."""
    attacks = _ZERO
    for d in range(first, 4, 2):
        ray = RAYS[d, square]
        blockers = ray & occupied
        if blockers:
            ray ^= RAYS[d, lowest(blockers)]
        attacks |= ray
        ray = RAYS[d + 4, square]
        blockers = ray & occupied
        if blockers:
            ray ^= RAYS[d + 4, highest(blockers)]
        attacks |= ray
    return attacks


@compiled
def attackers(state: NDArray[np.int64], square: int, side: int, occupied: np.uint64) -> np.uint64:
    """The pieces of ``side`` (0 White) that attack ``square`` with ``occupied`` as the board."""
    theirs = np.uint64(state[side])
    pawns = np.uint64(state[PAWN + 1])
    queens = np.uint64(state[QUEEN + 1])
    found = PAWN_ATTACKS[1 - side, square] & pawns
    found |= KNIGHT_ATTACKS[square] & np.uint64(state[KNIGHT + 1])
    found |= KING_ATTACKS[square] & np.uint64(state[KING + 1])
    found |= ray_attacks(square, occupied, 1) & (np.uint64(state[BISHOP + 1]) | queens)
    found |= ray_attacks(square, occupied, 0) & (np.uint64(state[ROOK + 1]) | queens)
    return np.uint64(found & theirs)


@compiled
def king_square(state: NDArray[np.int64], side: int) -> int:
    return lowest(np.uint64(state[KING + 1]) & np.uint64(state[side]))


@compiled
def side_to_move(state: NDArray[np.int64]) -> int:
    return int(state[INFO] & 1)


@compiled
def in_check(state: NDArray[np.int64]) -> bool:
    """Whether the side to move is in check."""
    us = side_to_move(state)
    occupied = np.uint64(state[WHITE_WORD]) | np.uint64(state[BLACK_WORD])
    return bool(attackers(state, king_square(state, us), 1 - us, occupied) != _ZERO)


@compiled
def piece_on(state: NDArray[np.int64], square: int) -> int:
    """The piece type on ``square`` (0: empty)."""
    bit = _ONE << np.uint64(square)
    for piece in range(PAWN, KING + 1):
        if np.uint64(state[piece + 1]) & bit:
            return piece
    return 0


# Move generation --------------------------------------------------------------------------------

ALL, ANY = 0, 1
"""Generator modes: every legal move; stop at the first one (whether there is any)."""


@compiled
def en_passant_legal(state: NDArray[np.int64], origin: int, target: int) -> bool:
    """Whether the en passant capture ``origin`` -> ``target`` leaves the mover's king safe
    (the only move whose legality two removed pieces decide)."""
    us = side_to_move(state)
    them = 1 - us
    captured = target - 8 if us == 0 else target + 8
    occupied = np.uint64(state[WHITE_WORD]) | np.uint64(state[BLACK_WORD])
    occupied ^= (_ONE << np.uint64(origin)) | (_ONE << np.uint64(target))
    occupied ^= _ONE << np.uint64(captured)
    theirs = np.uint64(state[them]) & ~(_ONE << np.uint64(captured))
    king = king_square(state, us)
    queens = np.uint64(state[QUEEN + 1])
    if ray_attacks(king, occupied, 1) & theirs & (np.uint64(state[BISHOP + 1]) | queens):
        return False
    if ray_attacks(king, occupied, 0) & theirs & (np.uint64(state[ROOK + 1]) | queens):
        return False
    if KNIGHT_ATTACKS[king] & theirs & np.uint64(state[KNIGHT + 1]):
        return False
    return not PAWN_ATTACKS[us, king] & theirs & np.uint64(state[PAWN + 1])


@compiled
def has_legal_en_passant(state: NDArray[np.int64]) -> bool:
    """Whether the mover may capture en passant (the key counts the file only then)."""
    ep = int(state[INFO] >> EP_SHIFT & 127)
    if ep == NO_SQUARE:
        return False
    us = side_to_move(state)
    pawns = np.uint64(state[PAWN + 1]) & np.uint64(state[us]) & PAWN_ATTACKS[1 - us, ep]
    while pawns:
        origin = lowest(pawns)
        pawns &= pawns - _ONE
        if en_passant_legal(state, origin, ep):
            return True
    return False


@compiled
def castling_targets(state: NDArray[np.int64], us: int, occupied: np.uint64) -> np.uint64:
    """The king's castling destinations (g1, c1, g8, c8) that are legal now (the caller
    knows the king is not in check)."""
    rights = int(state[INFO] >> CASTLE_SHIFT & 15) >> (2 * us)
    base = 56 * us
    found = _ZERO
    them = 1 - us
    if (
        rights & 1
        and not (occupied >> np.uint64(base + 5)) & np.uint64(3)
        and not attackers(state, base + 5, them, occupied)
        and not attackers(state, base + 6, them, occupied)
    ):
        found |= _ONE << np.uint64(base + 6)
    if (
        rights & 2
        and not (occupied >> np.uint64(base + 1)) & np.uint64(7)
        and not attackers(state, base + 3, them, occupied)
        and not attackers(state, base + 2, them, occupied)
    ):
        found |= _ONE << np.uint64(base + 2)
    return found


@compiled
def _noisy_key(state: NDArray[np.int64], move: int, ep: int) -> int:
    """The MVV-LVA rank of a move (lower first), or 1 for a quiet one: captures by most
    valuable victim then least valuable attacker, promotions by the piece made."""
    origin, target, promotion = move & 63, move >> 6 & 63, move >> 12
    victim = piece_on(state, target)
    attacker = piece_on(state, origin)
    if victim == 0 and attacker == PAWN and target == ep:
        victim = PAWN
    if victim:
        return attacker - 8 * victim - 64 * promotion
    if promotion:
        return -64 * promotion
    return 1


@compiled
def generate(state: NDArray[np.int64], out: NDArray[np.int64], mode: int) -> int:
    """The legal moves of ``state`` into ``out`` in generation order (by origin square, target
    square, promotion piece), or with ``mode`` :data:`ANY` none but whether there is one (1 or
    0). Checks and pins are found first
    (Hyatt's approach in Crafty and Stockfish), so no move is made to test it, but en passant."""
    us = side_to_move(state)
    them = 1 - us
    own, theirs = np.uint64(state[us]), np.uint64(state[them])
    occupied = own | theirs
    king = king_square(state, us)
    checkers = attackers(state, king, them, occupied)
    queens = np.uint64(state[QUEEN + 1])
    diagonal = (np.uint64(state[BISHOP + 1]) | queens) & theirs
    straight = (np.uint64(state[ROOK + 1]) | queens) & theirs
    pinned = _ZERO
    snipers = (ray_attacks(king, theirs, 1) & diagonal) | (ray_attacks(king, theirs, 0) & straight)
    while snipers:
        sniper = lowest(snipers)
        snipers &= snipers - _ONE
        between = BETWEEN[king, sniper] & occupied
        if between and not between & (between - _ONE) and between & own:
            pinned |= between
    evasions = _FULL
    if checkers:
        if checkers & (checkers - _ONE):
            evasions = _ZERO  # double check: only the king moves
        else:
            evasions = BETWEEN[king, lowest(checkers)] | checkers
    ep = int(state[INFO] >> EP_SHIFT & 127)
    ep_bit = _ZERO if ep == NO_SQUARE else _ONE << np.uint64(ep)
    pawns = np.uint64(state[PAWN + 1])
    knights = np.uint64(state[KNIGHT + 1])
    bishops = np.uint64(state[BISHOP + 1])
    rooks = np.uint64(state[ROOK + 1])
    empty = ~occupied
    last_rank = np.uint64(0xFF00000000000000) if us == 0 else np.uint64(0xFF)
    count = 0
    pieces = own
    while pieces:
        origin = lowest(pieces)
        bit = _ONE << np.uint64(origin)
        pieces &= pieces - _ONE
        if bit & np.uint64(state[KING + 1]):
            targets = KING_ATTACKS[origin] & ~own
            safe = _ZERO
            without_king = occupied ^ bit
            while targets:
                target = lowest(targets)
                targets &= targets - _ONE
                if not attackers(state, target, them, without_king):
                    safe |= _ONE << np.uint64(target)
            if not checkers:
                safe |= castling_targets(state, us, occupied)
            targets = safe
        elif not evasions:
            continue
        elif bit & pawns:
            step = 8 if us == 0 else -8
            one = origin + step
            targets = PAWN_ATTACKS[us, origin] & (theirs | ep_bit)
            if (_ONE << np.uint64(one)) & empty:
                targets |= _ONE << np.uint64(one)
                home = origin >> 3 == (1 if us == 0 else 6)
                if home and (_ONE << np.uint64(one + step)) & empty:
                    targets |= _ONE << np.uint64(one + step)
            targets &= evasions | (ep_bit if checkers & pawns else _ZERO)
        elif bit & knights:
            targets = KNIGHT_ATTACKS[origin] & ~own & evasions
        else:
            targets = _ZERO
            if bit & (bishops | queens):
                targets |= ray_attacks(origin, occupied, 1)
            if bit & (rooks | queens):
                targets |= ray_attacks(origin, occupied, 0)
            targets &= ~own & evasions
        if bit & pinned:
            targets &= LINE[king, origin]
        while targets:
            target = lowest(targets)
            targets &= targets - _ONE
            move = origin | target << 6
            if bit & pawns:
                if target == ep and not en_passant_legal(state, origin, target):
                    continue
                if (_ONE << np.uint64(target)) & last_rank:
                    if mode == ANY:
                        return 1
                    for promotion in range(KNIGHT, QUEEN + 1):
                        out[count] = move | promotion << 12
                        count += 1
                    continue
            if mode == ANY:
                return 1
            out[count] = move
            count += 1
    return count


@compiled
def legal_moves(state: NDArray[np.int64], out: NDArray[np.int64], work: NDArray[np.int64]) -> int:
    """The legal moves of ``state`` into ``out`` in the canonical order: the noisy ones
    first by their MVV-LVA key (a stable insertion sort), then the quiet ones, each group in
    generation order; their count. ``work`` is :data:`WORK_SHAPE`."""
    count = generate(state, out, ALL)
    ep = int(state[INFO] >> EP_SHIFT & 127)
    quiet, keys = work[0], work[1]
    noisy = 0
    quiets = 0
    for i in range(count):
        move = out[i]
        rank = _noisy_key(state, move, ep)
        if rank == 1:
            quiet[quiets] = move
            quiets += 1
            continue
        j = noisy
        while j > 0 and keys[j - 1] > rank:
            out[j], keys[j] = out[j - 1], keys[j - 1]
            j -= 1
        out[j], keys[j] = move, rank
        noisy += 1
    for i in range(quiets):
        out[noisy + i] = quiet[i]
    return count


# Static exchange evaluation ---------------------------------------------------------------------

EXCHANGE_VALUES = (0, 100, 300, 300, 500, 900, 0)
"""Piece values of the static exchange evaluation, by piece type (the king's is never taken)."""


@compiled
def wins_exchange(state: NDArray[np.int64], move: int) -> bool:
    """Whether ``move`` loses no material when both sides capture on its target square with
    their least valuable attacker first, each free to stop (Stockfish's ``see_ge`` with a
    threshold of 0: x-rays count, pins do not; en passant, castling and promotions count as
    even)."""
    origin, target = move & 63, move >> 6 & 63
    mover = piece_on(state, origin)
    ep = int(state[INFO] >> EP_SHIFT & 127)
    castles = mover == KING and (target - origin == 2 or origin - target == 2)
    if move >> 12 or castles or (mover == PAWN and target == ep):
        return True
    swap = EXCHANGE_VALUES[piece_on(state, target)]
    swap = EXCHANGE_VALUES[mover] - swap
    if swap <= 0:
        return True
    occupied = np.uint64(state[WHITE_WORD]) | np.uint64(state[BLACK_WORD])
    occupied ^= (_ONE << np.uint64(origin)) | (_ONE << np.uint64(target))
    side = side_to_move(state)
    found = attackers(state, target, 0, occupied) | attackers(state, target, 1, occupied)
    queens = np.uint64(state[QUEEN + 1])
    diagonal = np.uint64(state[BISHOP + 1]) | queens
    straight = np.uint64(state[ROOK + 1]) | queens
    result = 1
    while True:
        side = 1 - side
        found &= occupied
        mine = found & np.uint64(state[side])
        if not mine:
            break
        result ^= 1
        piece = PAWN
        while not mine & np.uint64(state[piece + 1]):
            piece += 1
        if piece == KING:  # the king takes last: only if nothing defends the square
            return bool(result ^ 1) if found & np.uint64(state[1 - side]) else bool(result)
        swap = EXCHANGE_VALUES[piece] - swap
        if swap < result:
            break
        occupied ^= _ONE << np.uint64(lowest(mine & np.uint64(state[piece + 1])))
        if piece != KNIGHT and piece != ROOK:  # a pawn, bishop or queen: x-rays behind it
            found |= ray_attacks(target, occupied, 1) & diagonal
        if piece >= ROOK:
            found |= ray_attacks(target, occupied, 0) & straight
    return bool(result)


# Making moves -----------------------------------------------------------------------------------


@compiled
def _piece_key(color: int, piece: int, square: int) -> np.uint64:
    return np.uint64(ZOBRIST[64 * (2 * (piece - 1) + color) + square])


@compiled
def _place(
    child: NDArray[np.int64], params: NDArray[np.int64], color: int, piece: int, square: int
) -> None:
    """Toggle a piece on ``square`` in ``child``: bitboards, key and PeSTO sums (added when it
    appears, subtracted when it goes: the caller toggles each piece on and off once)."""
    bit = np.int64(_ONE << np.uint64(square))
    there = child[piece + 1] & bit
    child[piece + 1] ^= bit
    child[color] ^= bit
    child[KEY] = np.int64(np.uint64(child[KEY]) ^ _piece_key(color, piece, square))
    index = 1 + (color * 7 + piece) * 64 + square
    sign = -1 if there else 1
    child[MIDGAME] += sign * params[index + TABLE_MIDGAME]
    child[ENDGAME] += sign * params[index + TABLE_ENDGAME]


@compiled
def play(
    params: NDArray[np.int64], state: NDArray[np.int64], move: int, child: NDArray[np.int64]
) -> None:
    """Write the position after the legal ``move`` into ``child`` (copy-make)."""
    for i in range(WORDS):
        child[i] = state[i]
    info = state[INFO]
    us = int(info & 1)
    them = 1 - us
    origin, target, promotion = move & 63, move >> 6 & 63, move >> 12
    piece = piece_on(state, origin)
    victim = piece_on(state, target)
    ep = int(info >> EP_SHIFT & 127)
    key = np.uint64(child[KEY])
    if info >> EP_KEYED & 1:
        key ^= ZOBRIST[EP_KEYS + (ep & 7)]
    rights = int(info >> CASTLE_SHIFT & 15)
    kept = rights & CASTLE_MASK[origin] & CASTLE_MASK[target]
    for right in range(4):
        if (rights ^ kept) >> right & 1:
            key ^= ZOBRIST[CASTLING_KEYS + right]
    child[KEY] = np.int64(key ^ ZOBRIST[BLACK_KEY])
    if victim:
        _place(child, params, them, victim, target)
    elif piece == PAWN and target == ep:
        _place(child, params, them, PAWN, target - 8 if us == 0 else target + 8)
    _place(child, params, us, piece, origin)
    _place(child, params, us, promotion if promotion else piece, target)
    if piece == KING and (target - origin == 2 or origin - target == 2):
        base = 56 * us
        rook_from, rook_to = (base + 7, base + 5) if target > origin else (base, base + 3)
        _place(child, params, us, ROOK, rook_from)
        _place(child, params, us, ROOK, rook_to)
    new_ep = NO_SQUARE
    if piece == PAWN and (target - origin == 16 or origin - target == 16):
        new_ep = (origin + target) >> 1
    clock = 0 if piece == PAWN or victim else int(info >> CLOCK_SHIFT & 1023) + 1
    fullmove = int(info >> FULLMOVE_SHIFT) + us
    child[INFO] = (
        them
        | kept << CASTLE_SHIFT
        | new_ep << EP_SHIFT
        | min(clock, 1023) << CLOCK_SHIFT
        | fullmove << FULLMOVE_SHIFT
    )
    if new_ep != NO_SQUARE and has_legal_en_passant(child):
        child[INFO] |= 1 << EP_KEYED
        child[KEY] = np.int64(np.uint64(child[KEY]) ^ ZOBRIST[EP_KEYS + (new_ep & 7)])


@compiled
def pass_turn(state: NDArray[np.int64], child: NDArray[np.int64]) -> bool:
    """The position with the turn passed into ``child`` (python-chess's null move: no en
    passant square, the halfmove clock counts it); False where the engine may not pass: in
    check, or with only king and pawns (zugzwang)."""
    us = side_to_move(state)
    own = np.uint64(state[us])
    if not own & ~(np.uint64(state[PAWN + 1]) | np.uint64(state[KING + 1])) or in_check(state):
        return False
    for i in range(WORDS):
        child[i] = state[i]
    info = state[INFO]
    key = np.uint64(state[KEY]) ^ ZOBRIST[BLACK_KEY]
    if info >> EP_KEYED & 1:
        key ^= ZOBRIST[EP_KEYS + (info >> EP_SHIFT & 7)]
    child[KEY] = np.int64(key)
    clock = min(int(info >> CLOCK_SHIFT & 1023) + 1, 1023)
    child[INFO] = (
        (1 - us)
        | (info >> CASTLE_SHIFT & 15) << CASTLE_SHIFT
        | NO_SQUARE << EP_SHIFT
        | clock << CLOCK_SHIFT
        | (info >> FULLMOVE_SHIFT) + us << FULLMOVE_SHIFT
    )
    return True


# The game's end and EVAL ------------------------------------------------------------------------


@compiled
def _insufficient(state: NDArray[np.int64], color: int) -> bool:
    """python-chess's ``has_insufficient_material(color)``."""
    own, theirs = np.uint64(state[color]), np.uint64(state[1 - color])
    pawns, knights = np.uint64(state[PAWN + 1]), np.uint64(state[KNIGHT + 1])
    bishops, kings = np.uint64(state[BISHOP + 1]), np.uint64(state[KING + 1])
    if own & (pawns | np.uint64(state[ROOK + 1]) | np.uint64(state[QUEEN + 1])):
        return False
    if own & knights:
        return popcount(own) <= 2 and not theirs & ~kings & ~np.uint64(state[QUEEN + 1])
    if own & bishops:
        same_color = not bishops & _DARK or not bishops & _LIGHT
        return same_color and not pawns and not knights
    return True


@compiled
def outcome(state: NDArray[np.int64]) -> int:
    """:data:`~plies.compiled.NOT_OVER`, or -1 (the mover is mated) or 0 (a draw: stalemate,
    the fifty-move rule, insufficient material) as :class:`~plies.games.chess.Chess` ends games
    without their history (repetitions are the search's to count)."""
    clock = int(state[INFO] >> CLOCK_SHIFT & 1023)
    if clock < FIFTY_MOVES and _insufficient(state, 0) and _insufficient(state, 1):
        return 0
    if generate(state, state, ANY):  # writes no move
        return 0 if clock >= FIFTY_MOVES else NOT_OVER
    return -1 if in_check(state) else 0


@compiled
def _add_term(
    params: NDArray[np.int64], sums: tuple[int, int], term: int, count: int
) -> tuple[int, int]:
    """``sums`` (midgame, endgame) with ``term``'s weights times ``count`` added."""
    midgame = sums[0] + params[1 + TERM_MIDGAME + term] * count
    return midgame, sums[1] + params[1 + TERM_ENDGAME + term] * count


@compiled
def term_sums(params: NDArray[np.int64], state: NDArray[np.int64]) -> tuple[int, int]:
    """The terms' weights times their counts for White less for Black (midgame, endgame); the
    counts as :func:`plies.games.chess.evaluation.term_counts` defines them, found here with
    bitboards."""
    sums = (0, 0)
    occupied = np.uint64(state[WHITE_WORD]) | np.uint64(state[BLACK_WORD])
    all_pawns = np.uint64(state[PAWN + 1])
    for side in range(2):
        sign = 1 - 2 * side
        own = np.uint64(state[side])
        pawns = all_pawns & own
        enemy_pawns = all_pawns & ~own
        rest = pawns
        while rest:
            square = lowest(rest)
            rest &= rest - _ONE
            file = square % 8
            if not enemy_pawns & PASSED_SPAN[side, square]:
                rank = square // 8
                relative = rank if side == 0 else 7 - rank
                sums = _add_term(params, sums, PASSED_PAWN + relative - 1, sign)
            if not pawns & BESIDE_FILES[file]:
                sums = _add_term(params, sums, ISOLATED_PAWN, sign)
        doubled = 0
        for file in range(8):
            on_file = popcount(pawns & FILE_MASKS[file])
            if on_file > 1:
                doubled += on_file - 1
        sums = _add_term(params, sums, DOUBLED_PAWN, sign * doubled)
        if popcount(np.uint64(state[BISHOP + 1]) & own) >= 2:
            sums = _add_term(params, sums, BISHOP_PAIR, sign)
        rest = np.uint64(state[ROOK + 1]) & own
        while rest:
            square = lowest(rest)
            rest &= rest - _ONE
            if not all_pawns & FILE_MASKS[square % 8]:
                sums = _add_term(params, sums, ROOK_OPEN_FILE, sign)
            elif not pawns & FILE_MASKS[square % 8]:
                sums = _add_term(params, sums, ROOK_HALF_OPEN_FILE, sign)
        king = king_square(state, side)
        sums = _add_term(
            params, sums, KING_SHIELD_PAWN, sign * popcount(pawns & KING_SHIELD[side, king])
        )
        open_files = 0
        for file in range(max(0, king % 8 - 1), min(7, king % 8 + 1) + 1):
            if not pawns & FILE_MASKS[file]:
                open_files += 1
        sums = _add_term(params, sums, KING_OPEN_FILE, sign * open_files)
        guarded = _ZERO
        rest = enemy_pawns
        while rest:
            square = lowest(rest)
            rest &= rest - _ONE
            guarded |= PAWN_ATTACKS[1 - side, square]
        area = ~own & ~guarded
        for offset in range(4):
            piece = KNIGHT + offset
            reach = 0
            rest = np.uint64(state[piece + 1]) & own
            while rest:
                square = lowest(rest)
                rest &= rest - _ONE
                if piece == KNIGHT:
                    attacks = KNIGHT_ATTACKS[square]
                elif piece == BISHOP:
                    attacks = ray_attacks(square, occupied, 1)
                elif piece == ROOK:
                    attacks = ray_attacks(square, occupied, 0)
                else:
                    attacks = ray_attacks(square, occupied, 0) | ray_attacks(square, occupied, 1)
                reach += popcount(attacks & area)
            sums = _add_term(params, sums, MOBILITY + offset, sign * reach)
    return sums


@compiled
def white_centipawns(params: NDArray[np.int64], state: NDArray[np.int64]) -> int:
    """The tapered score for White: the midgame and endgame sums (with the terms, when they
    weigh) blended by the phase (the pieces' weights, at most 24), rounded toward zero."""
    phase = 0
    for piece in range(KNIGHT, QUEEN + 1):
        phase += params[1 + PHASE_WEIGHTS + piece] * popcount(np.uint64(state[piece + 1]))
    phase = min(phase, MIDGAME_PHASE)
    midgame, endgame = state[MIDGAME], state[ENDGAME]
    if params[1 + TERMS_ON]:
        sums = term_sums(params, state)
        midgame += sums[0]
        endgame += sums[1]
    blended = midgame * phase + endgame * (MIDGAME_PHASE - phase)
    return int(blended / MIDGAME_PHASE)


@compiled
def centipawns(params: NDArray[np.int64], state: NDArray[np.int64]) -> int:
    """:func:`white_centipawns` from the mover's side."""
    white = white_centipawns(params, state)
    return -white if state[INFO] & 1 else white


@compiled
def lead(params: NDArray[np.int64], state: NDArray[np.int64]) -> float:
    """The mover's lead in (-1, 1): :func:`centipawns` ``cp`` as ``cp / (|cp| + scale)``."""
    cp = centipawns(params, state)
    return float(cp / (abs(cp) + params[1 + CENTIPAWN_SCALE]))


@compiled
def is_noisy(state: NDArray[np.int64], move: int) -> bool:
    """The engine's noisy moves (:meth:`Chess.is_capture <plies.games.chess.Chess.is_capture>`):
    captures, en passant too, and queen promotions."""
    target = move >> 6 & 63
    if move >> 12 == QUEEN:
        return True
    if np.uint64(state[1 - (state[INFO] & 1)]) & (_ONE << np.uint64(target)):
        return True
    ep = int(state[INFO] >> EP_SHIFT & 127)
    return target == ep and piece_on(state, move & 63) == PAWN


# Perft --------------------------------------------------------------------------------------------


@numba.njit(cache=True)
def perft(
    params: NDArray[np.int64],
    states: NDArray[np.int64],
    moves: NDArray[np.int64],
    depth: int,
    ply: int,
) -> int:
    """Legal move paths of ``depth`` plies from ``states[ply]``, the last ply counted in bulk;
    ``states`` and ``moves`` have a row per ply."""
    count = generate(states[ply], moves[ply], ALL)
    if depth <= 1:
        return count if depth == 1 else 1
    total = 0
    for i in range(count):
        play(params, states[ply], moves[ply, i], states[ply + 1])
        total += perft(params, states, moves, depth - 1, ply + 1)
    return total


def perft_of(params: tuple[int, ...], row: tuple[int, ...], depth: int) -> int:
    """:func:`perft` of a position given as its row's words (non-negative ints) with the
    kernel's parameters (``params[1:]`` of the dispatch)."""
    words = np.array([0, *params], np.uint64).view(np.int64)
    states = np.zeros((depth + 2, WORDS), np.int64)
    states[0] = np.array(row, np.uint64).view(np.int64)
    moves = np.zeros((depth + 2, MAX_MOVES), np.int64)
    return int(perft(words, states, moves, depth, 0))
