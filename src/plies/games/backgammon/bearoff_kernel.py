"""The two-sided bear-off database's compiled loops: the plays of a roll, the dynamic
programming over pairs of positions, and a lookup that compiled evaluations can call.

It imports no rules (as every ``*kernel.py``): positions are the one-sided database's numbers
(:mod:`plies.games.backgammon.bearoff`), a die's moves its table of single steps.
"""

from __future__ import annotations

import numpy as np

from plies.compiled import compiled

SCALE = 65535
"""A stored chance ``v`` is the ``uint16`` ``round(v * SCALE)``, exact to 1 / (2 * SCALE)."""
HOME = 6
"""The home board's points (:data:`plies.games.backgammon.bearoff.POINTS`)."""
BOARD_POINTS = 24
"""A side's points in a compiled board: ``board[s, 1..24]``, ``board[s, 25]`` its bar."""


@compiled
def _advance(
    frontier: np.ndarray,
    size: int,
    die: int,
    steps: np.ndarray,
    after: np.ndarray,
    seen: np.ndarray,
    stamp: int,
) -> int:
    """Write to ``after`` the distinct positions one move of ``die`` makes from the ``size``
    positions of ``frontier`` (``seen[x] == stamp`` marks those written); their number, or -1
    when a move bears off the last checker."""
    count = 0
    for k in range(size):
        position = frontier[k]
        for point in range(HOME):
            moved = steps[position, die - 1, point]
            if moved == 0:
                return -1
            if moved > 0 and seen[moved] != stamp:
                seen[moved] = stamp
                after[count] = moved
                count += 1
    return count


@compiled
def roll_results(
    position: int,
    high: int,
    low: int,
    steps: np.ndarray,
    out: np.ndarray,
    scratch: np.ndarray,
    seen: np.ndarray,
    stamp: int,
) -> int:
    """Write to ``out`` the distinct positions the plays of ``high``-``low`` reach from
    ``position`` (a double moves four times, other rolls play both dice in either order), or
    only 0 when a play bears off the last checker; return their number. ``seen`` holds each
    position's last stamp, and ``stamp`` to ``stamp + 3`` must be new to it; ``scratch`` has
    the room of ``out``."""
    if high == low:
        out[0] = position
        size = 1
        for move in range(4):
            source, target = (out, scratch) if move % 2 == 0 else (scratch, out)
            size = _advance(source, size, high, steps, target, seen, stamp + move)
            if size < 0:
                out[0] = 0
                return 1
        return size
    total = 0
    for first, second in ((high, low), (low, high)):
        for a in range(HOME):
            middle = steps[position, first - 1, a]
            if middle == 0:
                out[0] = 0
                return 1
            if middle < 0:
                continue
            for b in range(HOME):
                end = steps[middle, second - 1, b]
                if end == 0:
                    out[0] = 0
                    return 1
                if end > 0 and seen[end] != stamp:
                    seen[end] = stamp
                    out[total] = end
                    total += 1
    return total


@compiled
def all_roll_results(
    limit: int,
    steps: np.ndarray,
    rolls: np.ndarray,
    starts: np.ndarray,
    results: np.ndarray,
    out: np.ndarray,
    scratch: np.ndarray,
    seen: np.ndarray,
) -> int:
    """The results of every roll of positions ``0..limit - 1`` (:func:`roll_results`), those
    of position ``i``'s roll ``r`` in ``results[starts[i * R + r]:starts[i * R + r + 1]]``
    (``R`` rolls); their total. Only ``starts`` is written when ``results`` is too short, so a
    first call with an empty ``results`` counts them."""
    total = 0
    stamp = 1
    fits = True
    for position in range(limit):
        for r in range(rolls.shape[0]):
            count = roll_results(
                position, rolls[r, 0], rolls[r, 1], steps, out, scratch, seen, stamp
            )
            stamp += 4
            starts[position * rolls.shape[0] + r] = total
            fits = fits and total + count <= results.shape[0]
            for k in range(count if fits else 0):
                results[total + k] = out[k]
            total += count
    starts[limit * rolls.shape[0]] = total
    return total


@compiled
def solve_two_sided(
    order: np.ndarray,
    firsts: np.ndarray,
    starts: np.ndarray,
    results: np.ndarray,
    chances: np.ndarray,
    values: np.ndarray,
) -> None:
    """Fill ``values[i, j]``, the chance that the side on roll with position ``i`` bears off
    before the other with ``j``, both playing to win. ``order`` holds the positions by
    increasing pips, those of ``n`` pips at ``order[firsts[n]:firsts[n + 1]]``; pairs are
    solved by increasing total pips, so every pair a roll leads to is solved before.
    ``values[0, j]`` is 1 (the side on roll has none left: it has won) and ``values[i, 0]``
    0 for ``i > 0``."""
    rolls = chances.shape[0]
    most = firsts.shape[0] - 2
    for total in range(2 * most + 1):
        for mine in range(max(0, total - most), min(total, most) + 1):
            for a in range(firsts[mine], firsts[mine + 1]):
                i = order[a]
                for b in range(firsts[total - mine], firsts[total - mine + 1]):
                    j = order[b]
                    if i == 0 or j == 0:
                        values[i, j] = 1.0 if i == 0 else 0.0
                        continue
                    value = 0.0
                    for r in range(rolls):
                        start, end = starts[i * rolls + r], starts[i * rolls + r + 1]
                        worst = 1.0  # the other side's least chance after the play
                        for k in range(start, end):
                            after = results[k]
                            theirs = 0.0 if after == 0 else values[j, after]
                            worst = min(worst, theirs)
                        value += chances[r] * (1.0 - worst)
                    values[i, j] = value


@compiled
def home_position(binomial: np.ndarray, board: np.ndarray, side: int) -> int:
    """The one-sided number of side ``side``'s checkers on its points 1..6 in a compiled
    board (``board[s, p]`` side ``s``'s checkers on its own point ``p``, 25 its bar), or -1
    when one is elsewhere (points 7..24, the bar) or there are more than ``binomial`` counts
    (``binomial[n, k]`` = C(n, k), n up to 21)."""
    for point in range(HOME + 1, BOARD_POINTS + 2):
        if board[side, point] != 0:
            return -1
    index = checkers = 0
    for point in range(HOME):
        checkers += board[side, point + 1]
        if checkers + point >= binomial.shape[0]:
            return -1
        index += binomial[checkers + point, point + 1]
    return index


@compiled
def two_sided_lookup(table: np.ndarray, binomial: np.ndarray, board: np.ndarray, row: int) -> float:
    """The chance that side ``row`` of a compiled board (:func:`home_position`), on roll, bears
    off first, both playing to win, from ``table`` (``uint16``, :data:`SCALE`) and ``binomial``
    (:func:`plies.games.backgammon.bearoff.two_sided_arrays`); -1.0 when a side has a checker
    outside its home board or more checkers than the table holds."""
    mine = home_position(binomial, board, row)
    theirs = home_position(binomial, board, 1 - row)
    positions = table.shape[0]
    if mine < 0 or theirs < 0 or mine >= positions or theirs >= positions:
        return -1.0
    return float(table[mine, theirs]) / SCALE
