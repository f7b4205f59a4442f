"""Compiled Go rules for playouts and the compiled tree search (Numba), behind
:meth:`plies.games.go.Go.random_playout` and :mod:`plies.games.go.mcts_native`.

The board (:class:`GoBoard`) keeps its groups as it goes, as fast Go programs do (GNU Go,
libego, Pachi): each stone knows its group's representative stone and the next stone of its
group (a cycle), and each group its stones and its pseudo-liberties (an empty point counts once
for each of the group's stones beside it) as their number, sum and sum of squares, so that a
group has no liberty when the number is 0 and exactly one (in atari) when the sum squared
equals the number times the sum of squares (all the same point: that point is the sum divided
by the number). A stone, a capture and a merge update these in time proportional to the stones
moved, with no flood fill. The board keeps its Zobrist key (Zobrist 1970), its ko point (the
simple ko), the passes just played, and the last move.

A playout (:func:`play_out`) plays until both players pass in a row (a player passes when no
move is left that does not fill one of its own eyes: an empty point whose neighbours are all its
stones and at most one of whose diagonal points, counting the edge as one, is the opponent's)
and then counts the area as Tromp and Taylor do. It does not check positional superko beyond the
simple ko and stops after :data:`MOVES_PER_POINT` moves a point (a long cycle): a playout is an
estimate, and the game's own rules stay the Python ones. Its moves follow the policy of MoGo
(Gelly et al. 2006) as Michi (Baudiš 2015) writes it, each rule firing with its rate
(``rates``: :data:`CAPTURE`, :data:`PATTERN`, :data:`SELF_ATARI`; all 0 is uniform play):

1. with rate :data:`CAPTURE`, at the last move and its four neighbours (the groups whose
   liberties it took): take a group in atari, or save one's own group in atari (capture a
   neighbouring group in atari, or extend at the liberty when that gives two or more);
2. with rate :data:`PATTERN`, an empty point among the last move's eight neighbours whose 3x3
   neighbourhood is one of MoGo's shapes (the table ``patterns``: :func:`pattern_table`, from
   :mod:`plies.games.go.patterns`);
3. else a uniformly random move.

A suggested move, or a random one, that puts a group of two or more stones in atari
(self-atari) is refused with rate :data:`SELF_ATARI` (the next suggestion, or random move, is
tried instead).

Points are ``row * size + column``; ``neighbours`` lists each point's up to four neighbours
(-1 padded) and ``around`` its eight in reading order from the lower left (-1 off the board);
colours are 0 empty, 1 black, 2 white; ``rng`` is a one-word xorshift64 state (Marsaglia
2003).
"""

from __future__ import annotations

import threading
from typing import NamedTuple

import numba
import numpy as np
from numpy.typing import NDArray

from plies.compiled import compiled
from plies.games.go.patterns import pattern_table as pattern_table

MOVES_PER_POINT = 3
"""A playout stops after this many moves a point of the board."""
PASS = -1

Ints = NDArray[np.int64]
Floats = NDArray[np.float64]
Board = NDArray[np.uint8]

COUNT, KO, PASSES, LAST, SIZE = range(5)
"""Indices into ``GoBoard.state``: the number of empty points, the ko point (-1: none), the
passes just played in a row, the last move (-1: a pass or none), the board's side."""
STATE_WORDS = 5
CAPTURE, PATTERN, SELF_ATARI = range(3)
"""Indices into a playout policy's ``rates``."""
DIAGONALS = (0, 2, 5, 7)
"""The diagonal points among ``around``'s eight."""
CANDIDATES = 64
"""Room for the moves a playout rule suggests."""
UNIFORM = np.zeros(3, np.float64)
"""The rates of uniform playouts."""


class GoBoard(NamedTuple):
    """A board and its groups (see the module); ``stones`` and the liberties are kept by each
    group's representative point."""

    colour: Board
    group: Ints
    """Each stone's group (its representative point), -1 on empty points."""
    next_stone: Ints
    stones: Ints
    lib_count: Ints
    lib_sum: Ints
    lib_square: Ints
    empties: Ints
    """The empty points in any order (the first ``state[COUNT]``), and where each is (-1:
    taken)."""
    where: Ints
    state: Ints
    """:data:`COUNT` ... :data:`SIZE`."""
    key: NDArray[np.uint64]
    """The Zobrist key of the stones (one word)."""
    neighbours: Ints
    around: Ints
    zobrist: NDArray[np.uint64]
    """A random word for each point and colour."""
    marks: Ints
    """Scratch: stamps for flood fills (the last word: the latest stamp), a stack, an empty
    region's points, found liberties, suggested moves."""
    stack: Ints
    region: Ints
    found: Ints
    candidates: Ints


def new_board(size: int, neighbours: Ints, around: Ints, zobrist: NDArray[np.uint64]) -> GoBoard:
    """An empty ``size`` x ``size`` board with the point tables of :class:`plies.games.go.Go`."""
    points = size * size
    board = GoBoard(
        colour=np.zeros(points, np.uint8),
        group=np.full(points, -1, np.int64),
        next_stone=np.zeros(points, np.int64),
        stones=np.zeros(points, np.int64),
        lib_count=np.zeros(points, np.int64),
        lib_sum=np.zeros(points, np.int64),
        lib_square=np.zeros(points, np.int64),
        empties=np.arange(points, dtype=np.int64),
        where=np.arange(points, dtype=np.int64),
        state=np.array([points, -1, 0, PASS, size], np.int64),
        key=np.zeros(1, np.uint64),
        neighbours=neighbours,
        around=around,
        zobrist=zobrist,
        marks=np.zeros(points + 1, np.int64),
        stack=np.zeros(points, np.int64),
        region=np.zeros(points, np.int64),
        found=np.zeros(4, np.int64),
        candidates=np.zeros(CANDIDATES, np.int64),
    )
    return board


@compiled
def _word(rng: NDArray[np.uint64]) -> np.uint64:
    """The next word of the xorshift64 state ``rng[0]``."""
    x = rng[0]
    x ^= x << np.uint64(13)
    x ^= x >> np.uint64(7)
    x ^= x << np.uint64(17)
    rng[0] = x
    return np.uint64(x)


@compiled
def draw(rng: NDArray[np.uint64], count: int) -> int:
    """A uniform index below ``count`` (below 2**32) from the xorshift64 state ``rng[0]``: the
    high half of the word scaled by a multiplication (Lemire 2019), no division."""
    high = _word(rng) >> np.uint64(32)
    return int(np.int64((high * np.uint64(count)) >> np.uint64(32)))


@compiled
def chance(rng: NDArray[np.uint64], rate: float) -> bool:
    """True with probability ``rate`` (0: never, without drawing)."""
    if rate <= 0.0:
        return False
    return float(_word(rng) >> np.uint64(11)) < rate * 9007199254740992.0  # 2**53


@compiled
def copy_board(source: GoBoard, target: GoBoard) -> None:
    """Make ``target`` the position of ``source`` (the same size and tables)."""
    for p in range(source.colour.shape[0]):  # loops: slice copies would need Numba's allocator
        target.colour[p] = source.colour[p]
        target.group[p] = source.group[p]
        target.next_stone[p] = source.next_stone[p]
        target.stones[p] = source.stones[p]
        target.lib_count[p] = source.lib_count[p]
        target.lib_sum[p] = source.lib_sum[p]
        target.lib_square[p] = source.lib_square[p]
        target.empties[p] = source.empties[p]
        target.where[p] = source.where[p]
    for i in range(STATE_WORDS):
        target.state[i] = source.state[i]
    target.key[0] = source.key[0]


@compiled
def _add_liberty(B: GoBoard, g: int, p: int) -> None:
    B.lib_count[g] += 1
    B.lib_sum[g] += p
    B.lib_square[g] += p * p


@compiled
def _drop_liberty(B: GoBoard, g: int, p: int) -> None:
    B.lib_count[g] -= 1
    B.lib_sum[g] -= p
    B.lib_square[g] -= p * p


@compiled
def in_atari(B: GoBoard, g: int) -> bool:
    """Whether group ``g`` has exactly one liberty (:func:`atari_point`)."""
    n = B.lib_count[g]
    return bool(n > 0 and B.lib_sum[g] * B.lib_sum[g] == n * B.lib_square[g])


@compiled
def atari_point(B: GoBoard, g: int) -> int:
    """The one liberty of group ``g``, in atari."""
    return int(B.lib_sum[g] // B.lib_count[g])


@compiled
def _merge(B: GoBoard, a: int, b: int) -> None:
    """Join groups ``a`` and ``b`` (the smaller's stones take the larger's representative)."""
    if B.stones[a] < B.stones[b]:
        a, b = b, a
    s = b
    while True:
        B.group[s] = a
        s = B.next_stone[s]
        if s == b:
            break
    B.next_stone[a], B.next_stone[b] = B.next_stone[b], B.next_stone[a]
    B.stones[a] += B.stones[b]
    B.lib_count[a] += B.lib_count[b]
    B.lib_sum[a] += B.lib_sum[b]
    B.lib_square[a] += B.lib_square[b]


@compiled
def put_stone(B: GoBoard, p: int, colour: int) -> None:
    """A stone of ``colour`` on the empty point ``p``, joined to its neighbours' groups, no
    capture made (:func:`place` makes them; loading a position needs none)."""
    B.colour[p] = colour
    last = B.state[COUNT] - 1  # take the point out of the empties
    moved = B.empties[last]
    B.empties[B.where[p]] = moved
    B.where[moved] = B.where[p]
    B.where[p] = -1
    B.state[COUNT] = last
    B.key[0] ^= B.zobrist[p, colour]
    B.group[p], B.next_stone[p], B.stones[p] = p, p, 1
    B.lib_count[p] = B.lib_sum[p] = B.lib_square[p] = 0
    for k in range(4):
        q = B.neighbours[p, k]
        if q < 0:
            continue
        if B.colour[q] == 0:
            _add_liberty(B, p, q)
        else:
            _drop_liberty(B, B.group[q], p)
    for k in range(4):
        q = B.neighbours[p, k]
        if q >= 0 and B.colour[q] == colour and B.group[q] != B.group[p]:
            _merge(B, B.group[p], B.group[q])


@compiled
def _capture(B: GoBoard, g: int) -> int:
    """Take group ``g`` off the board; the stones taken."""
    colour = B.colour[g]
    s, taken = g, 0
    while True:  # first every stone off, then the liberties they give
        B.colour[s] = 0
        B.key[0] ^= B.zobrist[s, colour]
        count = B.state[COUNT]
        B.empties[count] = s
        B.where[s] = count
        B.state[COUNT] = count + 1
        taken += 1
        s = B.next_stone[s]
        if s == g:
            break
    while True:
        for k in range(4):
            q = B.neighbours[s, k]
            if q >= 0 and B.colour[q] != 0:
                _add_liberty(B, B.group[q], s)
        B.group[s] = -1
        s = B.next_stone[s]
        if s == g:
            break
    return taken


@compiled
def place(B: GoBoard, p: int, mover: int) -> None:
    """``mover``'s stone on the empty point ``p`` (a legal move: :func:`playable`), the groups
    it leaves without a liberty taken, the ko point and the last moves set."""
    put_stone(B, p, mover)
    other = 3 - mover
    taken, taken_point = 0, -1
    for k in range(4):
        q = B.neighbours[p, k]
        if q >= 0 and B.colour[q] == other and B.lib_count[B.group[q]] == 0:
            taken += _capture(B, B.group[q])
            taken_point = q
    g = B.group[p]
    single = taken == 1 and B.stones[g] == 1 and B.lib_count[g] == 1
    B.state[KO] = taken_point if single else -1
    B.state[PASSES] = 0
    B.state[LAST] = p


@compiled
def pass_move(B: GoBoard) -> None:
    """A pass: no ko, one more pass in a row."""
    B.state[KO] = -1
    B.state[PASSES] += 1
    B.state[LAST] = PASS


@compiled
def load(B: GoBoard, colours: Board, passes: int) -> None:
    """Set ``B`` to the stones ``colours`` (a position of the game: every group has a liberty),
    ``passes`` just played, no ko and no last move known."""
    points = colours.shape[0]
    B.key[0] = np.uint64(0)
    B.state[COUNT] = points
    for p in range(points):
        B.colour[p], B.group[p] = 0, -1
        B.empties[p], B.where[p] = p, p
    for p in range(points):
        if colours[p] != 0:
            put_stone(B, p, colours[p])
    B.state[KO], B.state[PASSES], B.state[LAST] = -1, passes, PASS


@compiled
def playable(B: GoBoard, p: int, mover: int) -> bool:
    """Whether the rules let ``mover`` put a stone on the empty point ``p``: not the ko point,
    not suicide (positional superko aside)."""
    if p == B.state[KO]:
        return False
    for k in range(4):
        q = B.neighbours[p, k]
        if q < 0:
            continue
        c = B.colour[q]
        if c == 0:
            return True
        atari = in_atari(B, B.group[q])
        if (c == mover and not atari) or (c != mover and atari):
            return True  # a liberty left elsewhere, or a capture
    return False


@compiled
def is_eye(B: GoBoard, p: int, mover: int) -> bool:
    """Whether the empty point ``p`` is one of ``mover``'s eyes: every neighbour its stone, and
    fewer than two of its diagonal points the opponent's (an edge counting as one)."""
    for k in range(4):
        q = B.neighbours[p, k]
        if q >= 0 and B.colour[q] != mover:
            return False
    false, edge = 0, 0
    for i in DIAGONALS:
        d = B.around[p, i]
        if d < 0:
            edge = 1
        elif B.colour[d] == 3 - mover:
            false += 1
    return false + edge < 2


@compiled
def _note(found: Ints, n: int, p: int) -> int:
    """``p`` added to the first ``n`` of ``found`` if new; their new number."""
    for i in range(n):
        if found[i] == p:
            return n
    found[n] = p
    return n + 1


@compiled
def liberties_after(B: GoBoard, p: int, mover: int, enough: int) -> int:
    """The liberties of ``mover``'s group after a stone on the empty point ``p``, counted up
    to ``enough`` (at most 3); a move that captures counts as ``enough``."""
    found, n = B.found, 0
    for k in range(4):
        q = B.neighbours[p, k]
        if q < 0:
            continue
        if B.colour[q] == 0:
            n = _note(found, n, q)
        elif B.colour[q] != mover and in_atari(B, B.group[q]):
            return enough
    if n >= enough:
        return enough
    for k in range(4):
        q = B.neighbours[p, k]
        if q < 0 or B.colour[q] != mover or in_atari(B, B.group[q]):
            continue  # a group in atari has no liberty but p
        g = B.group[q]
        s = g
        while True:
            for j in range(4):
                t = B.neighbours[s, j]
                if t >= 0 and t != p and B.colour[t] == 0:
                    n = _note(found, n, t)
                    if n >= enough:
                        return n
            s = B.next_stone[s]
            if s == g:
                break
    return n


@compiled
def self_atari(B: GoBoard, p: int, mover: int) -> bool:
    """Whether ``mover``'s stone on ``p`` leaves a group of two or more stones in atari (a
    single stone in atari may be a throw-in)."""
    joins = False
    for k in range(4):
        q = B.neighbours[p, k]
        if q >= 0 and B.colour[q] == mover:
            joins = True
    return joins and liberties_after(B, p, mover, 2) < 2


@compiled
def pattern_key(B: GoBoard, p: int) -> int:
    """The 3x3 neighbourhood of ``p``: two bits for each of its eight points (0 empty, 1 black,
    2 white, 3 off the board) in ``around``'s order, the first the highest."""
    key = 0
    for i in range(8):
        q = B.around[p, i]
        key = key * 4 + (3 if q < 0 else int(B.colour[q]))
    return key


@compiled
def _atari_moves(B: GoBoard, mover: int) -> int:
    """Into ``B.candidates``: the capture of a group in atari at the last move or beside it (the
    groups whose liberties it took), and the moves that save ``mover``'s groups in atari
    there; their number."""
    stamp = B.marks[-1] + 1
    B.marks[-1] = stamp
    cands, n = B.candidates, 0
    centre = B.state[LAST]
    if centre >= 0:
        for i in range(-1, 4):
            c = centre if i < 0 else B.neighbours[centre, i]
            if c < 0 or B.colour[c] == 0 or B.marks[B.group[c]] == stamp:
                continue
            g = B.group[c]
            B.marks[g] = stamp
            if not in_atari(B, g) or n + 8 > CANDIDATES:
                continue
            liberty = atari_point(B, g)
            if B.colour[c] != mover:
                cands[n] = liberty
                n += 1
                continue
            n = _rescues(B, g, mover, liberty, n)
    return n


@compiled
def _rescues(B: GoBoard, g: int, mover: int, liberty: int, n: int) -> int:
    """Into ``B.candidates`` from ``n``: the captures of groups in atari beside ``mover``'s
    group ``g`` (in atari at ``liberty``) and the extension there if it gives two liberties;
    their new number."""
    cands, s = B.candidates, g
    while True:
        for k in range(4):
            t = B.neighbours[s, k]
            enemy = t >= 0 and B.colour[t] == 3 - mover
            if enemy and n < CANDIDATES - 1 and in_atari(B, B.group[t]):
                cands[n] = atari_point(B, B.group[t])
                n += 1
        s = B.next_stone[s]
        if s == g:
            break
    if n < CANDIDATES and liberties_after(B, liberty, mover, 2) >= 2:
        cands[n] = liberty
        n += 1
    return n


@compiled
def _pattern_moves(B: GoBoard, patterns: Board) -> int:
    """Into ``B.candidates``: the empty points next to the last move that match a shape of
    ``patterns``; their number."""
    cands, n = B.candidates, 0
    centre = B.state[LAST]
    if centre >= 0:
        for i in range(8):
            c = B.around[centre, i]
            if c >= 0 and B.colour[c] == 0 and patterns[pattern_key(B, c)]:
                cands[n] = c
                n += 1
    return n


@compiled
def _pick(B: GoBoard, n: int, mover: int, refuse: float, rng: NDArray[np.uint64]) -> int:
    """A legal move among the first ``n`` candidates, in random order, that fills no own eye
    (a self-atari refused with rate ``refuse``); -1 if none."""
    cands = B.candidates
    while n > 0:
        i = draw(rng, n)
        p = cands[i]
        n -= 1
        cands[i] = cands[n]
        if B.colour[p] != 0 or not playable(B, p, mover) or is_eye(B, p, mover):
            continue
        if refuse > 0 and self_atari(B, p, mover) and chance(rng, refuse):
            continue
        return int(p)
    return -1


@compiled
def random_move(B: GoBoard, mover: int, refuse: float, rng: NDArray[np.uint64]) -> int:
    """A uniformly random legal move of ``mover`` that fills no own eye (a self-atari refused
    with rate ``refuse``), or :data:`PASS` when none is left."""
    empties, where = B.empties, B.where
    left = B.state[COUNT]
    while left > 0:
        i = draw(rng, left)
        p = empties[i]
        legal = playable(B, p, mover) and not is_eye(B, p, mover)
        if legal and not (refuse > 0 and self_atari(B, p, mover) and chance(rng, refuse)):
            return int(p)
        left -= 1  # move the refused point out of the range still to try
        empties[i], empties[left] = empties[left], empties[i]
        where[empties[i]], where[empties[left]] = i, left
    return PASS


@compiled
def choose(B: GoBoard, mover: int, rates: Floats, patterns: Board, rng: NDArray[np.uint64]) -> int:
    """The playout policy's move for ``mover`` (see the module), or :data:`PASS`."""
    refuse = rates[SELF_ATARI]
    if B.state[LAST] >= 0:
        if chance(rng, rates[CAPTURE]):
            p = _pick(B, _atari_moves(B, mover), mover, refuse, rng)
            if p >= 0:
                return p
        if chance(rng, rates[PATTERN]):
            p = _pick(B, _pattern_moves(B, patterns), mover, refuse, rng)
            if p >= 0:
                return p
    return random_move(B, mover, refuse, rng)


@compiled
def play_out(
    B: GoBoard,
    mover: int,
    rates: Floats,
    patterns: Board,
    rng: NDArray[np.uint64],
    record: Ints,
) -> tuple[float, int]:
    """The policy's moves on ``B`` from ``mover`` to the end; (black's area minus white's, the
    stones played). Each stone is written in ``record`` as ``point * 4 + colour`` while it has
    room."""
    points = B.colour.shape[0]
    played, moves = 0, 0
    while B.state[PASSES] < 2 and moves < MOVES_PER_POINT * points:
        p = choose(B, mover, rates, patterns, rng)
        if p < 0:
            pass_move(B)
        else:
            place(B, p, mover)
            if played < record.shape[0]:
                record[played] = p * 4 + mover
                played += 1
        mover = 3 - mover
        moves += 1
    return area(B), played


@compiled
def _region(B: GoBoard, p: int, stamp: int) -> tuple[int, int]:
    """The empty region of ``p`` (not yet stamped) into ``B.region``, each point stamped;
    (its size, the colours of the stones around it or'ed: 1 black, 2 white, 3 both)."""
    board, neighbours, marks, stack, region = B.colour, B.neighbours, B.marks, B.stack, B.region
    marks[p] = stamp
    stack[0] = p
    top, size, borders = 1, 0, 0
    while top > 0:
        top -= 1
        here = stack[top]
        region[size] = here
        size += 1
        for k in range(4):
            there = neighbours[here, k]
            if there < 0:
                continue
            if board[there] == 0 and marks[there] != stamp:
                marks[there] = stamp
                stack[top] = there
                top += 1
            elif board[there] != 0:
                borders |= board[there]
    return size, borders


@compiled
def area(B: GoBoard) -> float:
    """Black's Tromp-Taylor area minus white's."""
    stamp = B.marks[-1] + 1
    B.marks[-1] = stamp
    total = 0
    for p in range(B.colour.shape[0]):
        if B.colour[p] == 1:
            total += 1
        elif B.colour[p] == 2:
            total -= 1
        elif B.marks[p] != stamp:
            size, borders = _region(B, p, stamp)
            total += size if borders == 1 else -size if borders == 2 else 0
    return float(total)


@compiled
def add_owners(B: GoBoard, total: Floats) -> None:
    """Add each point's owner on ``B`` to ``total``: +1 black (a stone or an empty region
    reaching only black), -1 white, 0 an empty region reaching both or neither."""
    stamp = B.marks[-1] + 1
    B.marks[-1] = stamp
    for p in range(B.colour.shape[0]):
        if B.colour[p] == 1:
            total[p] += 1.0
        elif B.colour[p] == 2:
            total[p] -= 1.0
        elif B.marks[p] != stamp:
            size, borders = _region(B, p, stamp)
            owner = 1.0 if borders == 1 else -1.0 if borders == 2 else 0.0
            for i in range(size):
                total[B.region[i]] += owner


def point_tables(size: int) -> tuple[Ints, Ints]:
    """``neighbours`` (up to four, -1 padded) and ``around`` (eight in reading order from the
    lower left, -1 off the board) of every point of a ``size`` x ``size`` board."""
    points = size * size
    neighbours = np.full((points, 4), -1, np.int64)
    around = np.full((points, 8), -1, np.int64)
    steps = [(dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if (dr, dc) != (0, 0)]
    for p in range(points):
        row, column = divmod(p, size)
        near = [
            (row + dr) * size + column + dc
            for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1))
            if 0 <= row + dr < size and 0 <= column + dc < size
        ]
        neighbours[p, : len(near)] = near
        for i, (dr, dc) in enumerate(steps):
            if 0 <= row + dr < size and 0 <= column + dc < size:
                around[p, i] = (row + dr) * size + column + dc
    return neighbours, around


def zobrist_words(points: int) -> NDArray[np.uint64]:
    """A fixed random word for each point and colour (index 0, empty, is never used)."""
    return np.random.default_rng(19).integers(0, 2**63, (points, 3), dtype=np.uint64)


def board_for(size: int) -> GoBoard:
    """An empty board of side ``size`` with its tables."""
    neighbours, around = point_tables(size)
    return new_board(size, neighbours, around, zobrist_words(size * size))


@numba.njit(cache=True, nogil=True)
def playouts(
    B: GoBoard,
    colours: Board,
    mover: int,
    passes: int,
    rates: Floats,
    patterns: Board,
    count: int,
    seed: int,
    owners: Floats,
) -> float:
    """``count`` playouts from ``colours`` in one compiled loop, as the tree runs them (on
    the work board ``B``); the mean of black's area minus white's, each point's owners added to
    ``owners``."""
    rng = np.full(1, seed, np.uint64)
    record = np.empty(0, np.int64)
    total = 0.0
    for _ in range(count):
        load(B, colours, passes)
        score, _ = play_out(B, mover, rates, patterns, rng, record)
        total += score
        add_owners(B, owners)
    return total / max(count, 1)


def random_playout(
    start: Board,
    size: int,
    mover: int,
    passes: int,
    komi: float,
    seed: int,
    rates: Floats = UNIFORM,
    patterns: Board | None = None,
) -> float:
    """Black's area minus white's and ``komi`` at the end of a playout from ``start`` (``mover``
    1 black or 2 white to play, ``passes`` just played in a row) under the policy ``rates``
    (uniform by default) and ``patterns`` (MoGo's by default); ``seed`` (odd) starts the
    xorshift64 generator."""
    board = _board(size)
    owners = np.zeros(size * size, np.float64)
    table = pattern_table() if patterns is None else patterns
    return playouts(board, start, mover, passes, rates, table, 1, seed, owners) - komi


def ownership(start: Board, mover: int, passes: int, count: int, seed: int) -> Floats:
    """Each point's mean owner at the end of ``count`` uniform playouts from ``start`` (+1
    black, -1 white; see :func:`add_owners`), as Monte Carlo programs judge dead stones;
    ``seed`` (odd) starts the generator."""
    size = round(start.shape[0] ** 0.5)
    board = _board(size)
    owners = np.zeros(size * size, np.float64)
    playouts(board, start, mover, passes, UNIFORM, pattern_table(), count, seed, owners)
    return owners / max(count, 1)


_BOARDS = threading.local()
"""Each thread's work boards by size."""


def _board(size: int) -> GoBoard:
    """A work board of side ``size``, made once per size in a thread."""
    boards: dict[int, GoBoard] = _BOARDS.__dict__.setdefault("by_size", {})
    if size not in boards:
        boards[size] = board_for(size)
    return boards[size]


PRIOR_EVEN = 10.0
"""The virtual visits every move of a new node starts with, half of them won (Michi's priors,
Baudiš 2015, which follow Gelly and Silver 2007 in giving prior knowledge as virtual visits and
wins; all are scaled by the tree's prior weight)."""
PRIOR_CAPTURE_ONE = 15.0
"""Won virtual visits of a move that captures, or saves from atari, a single stone."""
PRIOR_CAPTURE_MANY = 30.0
"""... a group of two or more stones."""
PRIOR_PATTERN = 10.0
"""Won virtual visits of a move that matches one of MoGo's 3x3 shapes."""
PRIOR_CFG = (24.0, 22.0, 8.0)
"""Won virtual visits of a move at distance 1, 2, 3 from the last move in the common fate
graph (a group counts as one point)."""
PRIOR_EMPTY_AREA = 10.0
"""Virtual visits of a move on the first three lines with no stone within distance 3: lost on
the first two lines, won on the third."""
PRIOR_SELF_ATARI = 10.0
"""Lost virtual visits of a self-atari."""


@compiled
def cfg_distances(B: GoBoard, out: Ints) -> None:
    """Each point's distance in ``out`` from the last move in the common fate graph (stones of
    one group are one step apart from nothing: a step into the same colour costs 0), -1 where
    there is no last move or it is out of reach."""
    points = B.colour.shape[0]
    for p in range(points):
        out[p] = -1
    start = B.state[LAST]
    if start < 0:
        return
    out[start] = 0
    stack, top = B.stack, 1
    stack[0] = start
    while top > 0:  # label correcting: a point goes back on the stack when its distance falls
        top -= 1
        here = stack[top]
        for k in range(4):
            there = B.neighbours[here, k]
            if there < 0:
                continue
            same = B.colour[there] != 0 and B.colour[there] == B.colour[here]
            distance = out[here] + (0 if same else 1)
            if out[there] < 0 or distance < out[there]:
                out[there] = distance
                if top < points:
                    stack[top] = there
                    top += 1


@compiled
def _empty_area(B: GoBoard, p: int, reach: int) -> bool:
    """Whether no stone stands within Manhattan distance ``reach`` of ``p``."""
    size = B.state[SIZE]
    row, column = p // size, p % size
    for r in range(max(row - reach, 0), min(row + reach, size - 1) + 1):
        span = reach - abs(r - row)
        for c in range(max(column - span, 0), min(column + span, size - 1) + 1):
            if B.colour[r * size + c] != 0:
                return False
    return True


@compiled
def _saved(B: GoBoard, p: int, mover: int) -> int:
    """The stones a move on ``p`` captures, or saves from atari (its own groups in atari there,
    when it gives them two liberties)."""
    taken, saved = 0, 0
    for k in range(4):
        q = B.neighbours[p, k]
        if q < 0 or B.colour[q] == 0 or not in_atari(B, B.group[q]):
            continue
        if B.colour[q] != mover:
            taken += B.stones[B.group[q]]
        else:
            saved += B.stones[B.group[q]]
    if saved and liberties_after(B, p, mover, 2) < 2:
        saved = 0
    return taken + saved


@compiled
def prior(B: GoBoard, p: int, mover: int, cfg: Ints, patterns: Board) -> tuple[float, float]:
    """The virtual (visits, wins) of ``mover``'s legal move on ``p`` (the constants above; the
    distances ``cfg`` from :func:`cfg_distances`)."""
    visits, wins = PRIOR_EVEN, PRIOR_EVEN / 2
    stones = _saved(B, p, mover)
    if stones > 0:
        bonus = PRIOR_CAPTURE_MANY if stones > 1 else PRIOR_CAPTURE_ONE
        visits, wins = visits + bonus, wins + bonus
    if patterns[pattern_key(B, p)]:
        visits, wins = visits + PRIOR_PATTERN, wins + PRIOR_PATTERN
    if 1 <= cfg[p] <= 3:
        bonus = PRIOR_CFG[cfg[p] - 1]
        visits, wins = visits + bonus, wins + bonus
    size = B.state[SIZE]
    row, column = p // size, p % size
    height = min(min(row, column), min(size - 1 - row, size - 1 - column))
    if height <= 2 and _empty_area(B, p, 3):
        visits += PRIOR_EMPTY_AREA
        if height == 2:
            wins += PRIOR_EMPTY_AREA
    if self_atari(B, p, mover):
        visits += PRIOR_SELF_ATARI
    return visits, wins
