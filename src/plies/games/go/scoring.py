"""Dead stones, seki and the score at the end of a Go game, as Go programs give them (GTP's
``final_status_list`` and ``final_score``) when the players pass without capturing every dead
stone.

Each chain (stones joined along the lines) is judged by who owns its points at the end of
:data:`PLAYOUTS` random playouts from the position with its opponent moving first (a chain is
alive when it survives the opponent's move: :func:`plies.games.go.kernel.ownership`, seeded
with :data:`SEED`, so the same position always gets the same answer), as Monte Carlo programs
judge it. Its owner is the mean over its stones (+1 its own colour, -1 the other's):

- seki: chains owned by neither side clearly (owner within :data:`SEKI_BAND` of 0) that share
  liberties with such chains of the other colour, where every shared liberty is one that
  neither side can fill without putting its own chain in atari (and that captures nothing),
  and every other liberty lies in an eye (an empty region reaching only the chain's colour);
- dead: the other chains with an owner below 0 (the opponent owns their points more often);
- alive: the rest.

The score (:func:`final_score`) is the area count with the dead stones removed, Chinese rules
as GNU Go's ``--chinese-rules`` counts them: each side's stones and the empty regions that
reach only its stones, except that an empty region next to a chain in seki counts for nobody
(GNU Go does not count the eyes of a seki); white adds komi. The game's own result stays
Tromp-Taylor's count with every stone on the board (:meth:`Go.score`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from plies.games.go.rules import BLACK, EMPTY, WHITE, Go, GoState

PLAYOUTS = 500
"""Random playouts with each side moving first that judge a position (about 0.1 s on 9x9,
0.3 s on 19x19)."""
SEED = 2_654_435_761
"""The playouts' seed (odd, as the generator needs; Knuth's multiplicative hashing constant)."""
SEKI_BAND = 0.5
"""The largest owner (from 0) of a chain that may be in seki."""


class Chain(NamedTuple):
    """Stones of one colour joined along the lines, and their liberties."""

    colour: int
    stones: tuple[int, ...]
    liberties: frozenset[int]


@dataclass(frozen=True)
class FinalStatus:
    """The chains of a position by status, each a tuple of points in order."""

    alive: tuple[tuple[int, ...], ...]
    dead: tuple[tuple[int, ...], ...]
    seki: tuple[tuple[int, ...], ...]

    def stones(self, status: str) -> tuple[tuple[int, ...], ...]:
        """The chains with ``status`` (``alive``, ``dead`` or ``seki``)."""
        return {"alive": self.alive, "dead": self.dead, "seki": self.seki}[status]


def chains(game: Go, board: bytes) -> list[Chain]:
    """Every chain of ``board``, in the order of their lowest points."""
    found: list[Chain] = []
    seen: set[int] = set()
    for point, colour in enumerate(board):
        if colour and point not in seen:
            stones, liberties = _flood(game, board, point)
            seen |= stones
            found.append(Chain(colour, tuple(sorted(stones)), frozenset(liberties)))
    return found


def _flood(game: Go, board: bytes | bytearray, point: int) -> tuple[set[int], set[int]]:
    """The points joined to ``point`` by its colour (a chain, or an empty region), and those
    around them: a chain's liberties, the stones around an empty region."""
    colour = board[point]
    inside, border, frontier = {point}, set(), [point]
    while frontier:
        for neighbour in game.neighbours[frontier.pop()]:
            if board[neighbour] == colour:
                if neighbour not in inside:
                    inside.add(neighbour)
                    frontier.append(neighbour)
            elif board[neighbour] == EMPTY or colour == EMPTY:
                border.add(neighbour)
    return inside, border


def final_status(game: Go, state: GoState, playouts: int = PLAYOUTS) -> FinalStatus:
    """Each chain of ``state`` alive, dead or in seki (see the module docstring), judged by
    ``playouts`` random playouts with each side moving first."""
    from plies.games.go import kernel  # Numba loads only when a position is judged

    board = np.frombuffer(state.board, dtype=np.uint8)
    owned = {c: kernel.ownership(board, c, 0, playouts, SEED) for c in (BLACK, WHITE)}
    found = chains(game, state.board)
    owners = [  # judged where the opponent moves first, as the chain's colour sees it
        float(np.mean(owned[BLACK + WHITE - chain.colour][list(chain.stones)]))
        * (1 if chain.colour == BLACK else -1)
        for chain in found
    ]
    seki = _seki(game, state.board, found, owners)
    dead = {i for i, owner in enumerate(owners) if owner < 0} - seki
    return FinalStatus(
        tuple(chain.stones for i, chain in enumerate(found) if i not in dead | seki),
        tuple(found[i].stones for i in sorted(dead)),
        tuple(found[i].stones for i in sorted(seki)),
    )


def _seki(game: Go, board: bytes, found: list[Chain], owners: list[float]) -> set[int]:
    """The indexes of the chains of ``found`` in seki: among those owned by neither side
    clearly, drop every chain that shares no liberty with one of the other colour, or has a
    liberty that is neither such a shared liberty that no one can safely fill nor in an eye,
    until none is dropped."""
    reach = _reach(game, board)
    unsafe: dict[int, bool] = {}
    candidates = {i for i, owner in enumerate(owners) if abs(owner) < SEKI_BAND}
    dropped = True
    while dropped:
        dropped = False
        for i in sorted(candidates):
            chain = found[i]
            shared = {
                point
                for j in candidates
                if found[j].colour != chain.colour
                for point in found[j].liberties & chain.liberties
            }
            for point in shared - unsafe.keys():
                unsafe[point] = _fillable(game, board, found, point)
            held = all(
                not unsafe[point] if point in shared else reach[point] == {chain.colour}
                for point in chain.liberties
            )
            if not (shared and held):
                candidates.discard(i)
                dropped = True
    return candidates


def _reach(game: Go, board: bytes) -> dict[int, set[int]]:
    """The colours of the stones that each empty point's region reaches."""
    reach: dict[int, set[int]] = {}
    for point, stone in enumerate(board):
        if stone == EMPTY and point not in reach:
            region, border = _flood(game, board, point)
            colours = {board[p] for p in border}
            reach.update(dict.fromkeys(region, colours))
    return reach


def _fillable(game: Go, board: bytes, found: list[Chain], point: int) -> bool:
    """Whether a stone of either colour on the empty ``point`` keeps two liberties, or
    captures (the point is a chain's last liberty)."""
    if any(chain.liberties == {point} for chain in found):
        return True
    for colour in (BLACK, WHITE):
        after = bytearray(board)
        after[point] = colour
        if len(_flood(game, after, point)[1]) >= 2:
            return True
    return False


def final_score(game: Go, state: GoState, status: FinalStatus | None = None) -> float:
    """Black's area minus white's and the komi once the dead stones of ``status`` (judged by
    :func:`final_status` when None) are removed; empty regions next to a chain in seki count
    for nobody (see the module docstring)."""
    status = final_status(game, state) if status is None else status
    board = bytearray(state.board)
    for chain in status.dead:
        for point in chain:
            board[point] = EMPTY
    in_seki = {point for chain in status.seki for point in chain}
    counts = {BLACK: board.count(BLACK), WHITE: board.count(WHITE)}
    done: set[int] = set()
    for point, stone in enumerate(board):
        if stone == EMPTY and point not in done:
            region, border = _flood(game, board, point)
            done |= region
            colours = {board[p] for p in border}
            if len(colours) == 1 and not border & in_seki:
                counts[colours.pop()] += len(region)
    return counts[BLACK] - counts[WHITE] - game.komi
