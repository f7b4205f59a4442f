"""The Zobrist keys of chess positions (Zobrist 1970), shared by the rules and the compiled
kernel: plain ints here, so the rules need not load NumPy or Numba to hash a position.

The 781 words come from SplitMix64 (Steele, Lea and Flood 2014) seeded with a constant, so
every process has the same keys: 12 x 64 for the pieces (index ``64 * (2 * (type - 1) +
colour) + square``, colour 0 White, python-chess's piece types and squares), 4 for the
castling rights (White king side, queen side, Black king side, queen side), 8 for the en
passant file, 1 for Black to move.
"""

from __future__ import annotations

CASTLING, EN_PASSANT, BLACK_TO_MOVE = 768, 772, 780
"""Where the castling, en passant and side-to-move words start."""


def _splitmix64(count: int, seed: int) -> list[int]:
    mask = (1 << 64) - 1
    words, state = [], seed
    for _ in range(count):
        state = (state + 0x9E3779B97F4A7C15) & mask
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & mask
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
        words.append(z ^ (z >> 31))
    return words


KEYS: tuple[int, ...] = tuple(_splitmix64(781, 0x9E3779B97F4A7C15))


def piece_key(piece: int, white: bool, square: int) -> int:
    """The word of a piece of type ``piece`` (1 pawn ... 6 king) on ``square``."""
    return KEYS[64 * (2 * (piece - 1) + (0 if white else 1)) + square]
