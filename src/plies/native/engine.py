"""The engine compiled (Numba): the negamax of :mod:`plies.search.engine`, node for node, for the
built-in games whose rules have a kernel (Connect Four, tic-tac-toe, Othello, checkers, chess).

:func:`node` is :class:`plies.search.engine._Engine`'s ``negamax``, ``probe``,
``search_moves``, ``ordered``, ``remember_quiet``, ``horizon`` and ``quiesce`` in one
self-recursive function (Numba's cache crashes on reloading a recursive function called from
another compiled function, numba issue 6061, so the root is called from Python and quiescence is a
mode of the same function). It searches the same children in the same order with the same
floating-point evaluation, table and bounds, so at a fixed depth it returns the Python engine's
score, line and node count. The engine's refinements for games with checks (check extension,
null moves, late-move reductions) and repetitions act where the rules declare them (``checks``
and ``history`` of :class:`~plies.capabilities.CompiledRules`: chess), as the Python engine's
act where the game has those capabilities.

A game's rules are its kernel's functions, reached through the dispatch of
:mod:`plies.native.kernels` (a state is a row of int64 words, a move an int64 code); what the
search needs to know of a game beyond them are the flags its rules declare
(:class:`plies.capabilities.CompiledRules`). :class:`CompiledSearch` is the Python side: it
encodes states, decodes moves and runs one iteration at a time with the GIL released, so
another thread can stop it; :class:`Work` names the arrays a search works in.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Hashable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np
from numpy.typing import NDArray

from plies.capabilities import CompiledRules, HasProbCut, LearnedPrior, optional
from plies.compiled import CLOCK, NOT_OVER, clock_now, compiled, mix, monotonic
from plies.game import WinLossDrawGame
from plies.native import FUTILITY_DEPTH, FUTILITY_MARGIN, PROBCUT_DEPTH, SWITCHES
from plies.native.kernels import (
    ENDGAME_DISTANCE_BITS,
    ENDGAME_DISTANCE_MASK,
    ENDGAME_DRAW,
    ENDGAME_WIN,
    MAX_MOVES,
    clock,
    endgame,
    in_check,
    is_capture,
    key,
    lead,
    mover,
    moves,
    outcome,
    pass_turn,
    play,
    wins_exchange,
)

if TYPE_CHECKING:
    from plies.native.mcts import CompiledTree

MAX_PLY = 600
"""Rows of the per-ply buffers of a game without a bound on its length: the engine's deepest
iteration (500) plus quiescence."""
HISTORY_SLOTS = 1 << 13
"""Slots per player of the history table (an open-addressed hash of move codes) of a game
whose moves are not few."""
EXACT, LOWER, UPPER = 0, 1, 2

# Statistics and switches, indices into the int64 array ``stats``: counts, limits and table
# bookkeeping; the search's switches; the root's hint and best move so far, and the clock.
NODES, LEAVES, CUTOFFS, SELDEPTH, HITS = 0, 1, 2, 3, 4
NODE_LIMIT, STOP, ABORTED, GENERATION, USED = 5, 6, 7, 8, 9
USE_TABLE, ORDERING, PVS, QUIESCENCE = 10, 11, 12, 13
HINT_SET, HINT, BEST_SET, BEST, CLOCK_ID = 14, 15, 16, 17, 18
# The refinements of a game whose kernel tells check (:attr:`CompiledRules.checks`) and counts
# repetitions (:attr:`CompiledRules.history`), the running iteration's depth and the number of
# the root's earlier positions at the start of ``path``.
EXTEND, NULL_MOVE, REDUCE, REPETITION, REPEATS, ITERATION, EARLIER = range(19, 26)
DEEPER, FUTILITY, EXCHANGE, PROBCUT = 26, 27, 28, 29
STAT_WORDS = 30
# Floats, indices into ``floats``: the mover's normalised utility when it wins, loses or draws
# (the Python engine's ``(utility - center) / unit``), EVAL's scale (``estimate``), the best
# root score so far and the engine's score of a win at the root.
WIN_N, LOSS_N, DRAW_N, DRAW, SPAN, CENTER, UNIT, ROOT_SCORE, MATE, DEADLINE = range(10)
PROBCUT_MARGIN = 10
"""ProbCut's margin (:class:`~plies.capabilities.HasProbCut`), where ``stats[PROBCUT]``."""
FULL_DEPTH_MOVES = 3
"""Late-move reductions spare the first moves searched at a node (as the Python engine)."""
LOSING = np.iinfo(np.int64).max
"""The rank ``ordered`` gives a capture that loses material (searched last)."""
CLOCK_EVERY = 63
"""The clock is read when the node count has these bits clear (every 64 nodes)."""
NO_ENDGAMES: tuple[Any, ...] = (np.zeros(0, np.int64), np.zeros(0, np.uint16))
"""The endgame arrays of a search that probes no tables."""
M61 = np.uint64((1 << 61) - 1)
"""Python hashes a non-negative int to itself modulo 2**61 - 1: the table's slot follows it."""


class Work(NamedTuple):
    """One search's arrays (``W`` in the kernels), a row per ply where they have rows."""

    params: NDArray[np.int64]
    """The kernel's id and the words of the game's rules."""
    floats: NDArray[np.float64]
    """:data:`WIN_N` ... :data:`DEADLINE`."""
    states: NDArray[np.int64]
    """Each ply's state row."""
    moves: NDArray[np.int64]
    """The moves of each ply's state, in the order they are searched."""
    lines: NDArray[np.int64]
    """The principal variation from each ply."""
    killers: NDArray[np.int64]
    """Two killer moves per ply, newest first, and how many are known."""
    history_keys: NDArray[np.int64]
    """The history table's move codes, values and used slots, per player."""
    history_used: NDArray[np.int8]
    history_values: NDArray[np.int64]
    stats: NDArray[np.int64]
    """:data:`NODES` ... :data:`CLOCK_ID`."""
    line_lengths: NDArray[np.int64]
    """The length of each ply's line."""
    entries: NDArray[np.int64]
    """The transposition table (:class:`NativeTable`), as ints and as floats."""
    scores: NDArray[np.float64]
    scratch: NDArray[np.int64]
    """Per ply, room for the moves, their ranks and their history scores while ordering."""
    generator: NDArray[np.int64]
    """The move generator's work space."""
    root_moves: NDArray[np.int64]
    """The root moves to search (empty: all); the root is then kept out of the table."""
    path: NDArray[np.int64]
    """The keys of the root's earlier positions (:data:`EARLIER` of them), then of each ply's
    position, for counting repetitions."""
    window: NDArray[np.int64]
    """Per ply, where in ``path`` the positions that its position may repeat begin."""
    passed: NDArray[np.int64]
    """Per ply, 1 where the position came from a pass (null-move pruning passes once)."""
    endgame_numbering: NDArray[np.int64]
    """Endgame tables the search probes below the root (:func:`plies.native.kernels.endgame`;
    both empty for none): their numbering and every position's answer. Two arrays only: each
    array a node carries costs it a little (eight made every Connect Four search about 10%
    slower)."""
    endgame_entries: NDArray[np.uint16]


# Scores ------------------------------------------------------------------------------------


@compiled
def terminal_score(floats: NDArray[np.float64], result: int, ply: int) -> float:
    """The Python engine's ``terminal_score``: a win or loss ``ply`` plies away."""
    n = floats[WIN_N] if result == 1 else floats[LOSS_N] if result == -1 else floats[DRAW_N]
    if n == 0:
        return 0.0
    sign = 1.0 if n > 0 else -1.0
    return float(sign * (floats[MATE] - ply) + (n - sign))


@compiled
def eval_score(
    params: NDArray[np.int64], floats: NDArray[np.float64], state: NDArray[np.int64]
) -> float:
    """The Python engine's ``eval_score``: EVAL (``estimate`` of the lead) for the mover,
    centred and scaled, in the same floating-point steps."""
    value = floats[DRAW] + floats[SPAN] * lead(params, state)
    return float((value - floats[CENTER]) / floats[UNIT])


@compiled
def to_table(score: float, ply: int) -> float:
    return score + ply if score >= 1 else score - ply if score <= -1 else score


@compiled
def from_table(score: float, ply: int) -> float:
    return score - ply if score >= 1 else score + ply if score <= -1 else score


# Bookkeeping -------------------------------------------------------------------------------


@compiled
def counted(stats: NDArray[np.int64], floats: NDArray[np.float64], ply: int) -> bool:
    """Count a node; True when a limit is reached (the search is then abandoned): the node
    limit, a stop from another thread, or the deadline (read every 64 nodes)."""
    stats[NODES] += 1
    if ply > stats[SELDEPTH]:
        stats[SELDEPTH] = ply
    if stats[NODES] >= stats[NODE_LIMIT] or stats[STOP] != 0:
        stats[ABORTED] = 1
        return True
    if (
        stats[NODES] & CLOCK_EVERY == 0
        and floats[DEADLINE] < math.inf
        and monotonic(stats[CLOCK_ID]) >= floats[DEADLINE]
    ):
        stats[ABORTED] = 1
        return True
    return False


@compiled
def history_slot(keys: NDArray[np.int64], used: NDArray[np.int8], who: int, move: int) -> int:
    """The history table's slot for ``(who, move)``: where it is, or the empty one it takes."""
    size = keys.shape[1]
    slot = int(np.int64(mix(np.uint64(move)) & np.uint64(size - 1)))
    for _ in range(size):
        if not used[who, slot] or keys[who, slot] == move:
            return slot
        slot = (slot + 1) & (size - 1)
    raise ValueError("native engine: the history table is full")


@compiled
def history_of(
    keys: NDArray[np.int64], used: NDArray[np.int8], values: NDArray[np.int64], who: int, move: int
) -> int:
    slot = history_slot(keys, used, who, move)
    return int(values[who, slot]) if used[who, slot] else 0


@compiled
def listed_only(row: NDArray[np.int64], count: int, listed: NDArray[np.int64]) -> int:
    """The first ``count`` moves of ``row`` less those not ``listed``, kept in order at its
    start; their number."""
    kept = 0
    for i in range(count):
        for move in listed:
            if row[i] == move:
                row[kept] = row[i]
                kept += 1
                break
    return kept


@compiled
def ordered(W: Work, ply: int, has_first: bool, first: int) -> int:
    """The moves of ``states[ply]`` into ``moves[ply]`` in the Python engine's order: the table
    move, captures, killers, then the rest by history (a stable sort over the game's order),
    and with static exchange evaluation the captures that lose material last."""
    params, states, killers, stats, scratch = W.params, W.states, W.killers, W.stats, W.scratch
    keys, used, values = W.history_keys, W.history_used, W.history_values
    row = W.moves[ply]
    count = moves(params, states[ply], row, W.generator)
    if ply == 0 and W.root_moves.shape[0]:
        count = listed_only(row, count, W.root_moves)
    if not stats[ORDERING]:
        return count
    spare, ranks = scratch[ply, 0], scratch[ply, 1]
    who = mover(params, states[ply])
    known = killers[ply, 2]
    for i in range(count):
        move = row[i]
        spare[i] = move
        if has_first and move == first:
            ranks[i] = -3
        elif is_capture(params, states[ply], move):
            losing = stats[EXCHANGE] and not wins_exchange(params, states[ply], move)
            ranks[i] = LOSING if losing else -2
        elif (known > 0 and killers[ply, 0] == move) or (known > 1 and killers[ply, 1] == move):
            ranks[i] = -1
        else:
            ranks[i] = history_of(keys, used, values, who, move)
    n = 0
    for rank in range(-3, 0):
        for i in range(count):
            if ranks[i] == rank:
                row[n] = spare[i]
                n += 1
    start, by_history = n, scratch[ply, 2]
    for i in range(count):
        score = ranks[i]
        if score < 0 or score == LOSING:
            continue
        j = n
        while j > start and by_history[j - 1] < score:
            row[j], by_history[j] = row[j - 1], by_history[j - 1]
            j -= 1
        row[j], by_history[j] = spare[i], score
        n += 1
    for i in range(count):  # last, captures that lose material
        if ranks[i] == LOSING:
            row[n] = spare[i]
            n += 1
    return n


@compiled
def remember_quiet(W: Work, who: int, move: int, ply: int, depth: int) -> None:
    """Killer moves (two per ply, newest first) and the history heuristic."""
    killers, keys, used, values = W.killers, W.history_keys, W.history_used, W.history_values
    known = killers[ply, 2]
    if not ((known > 0 and killers[ply, 0] == move) or (known > 1 and killers[ply, 1] == move)):
        killers[ply, 1] = killers[ply, 0]
        killers[ply, 0] = move
        killers[ply, 2] = min(known + 1, 2)
    slot = history_slot(keys, used, who, move)
    if not used[who, slot]:
        used[who, slot], keys[who, slot], values[who, slot] = 1, move, 0
    values[who, slot] += depth * depth


@compiled
def table_slot(entries: NDArray[np.int64], position: np.uint64) -> int:
    """``hash(key) % size`` as Python computes it for the key's int."""
    folded = (position & M61) + (position >> np.uint64(61))  # position % M61, no division
    if folded >= M61:
        folded -= M61
    return int(np.int64(folded % np.uint64(entries.shape[0])))


# The search --------------------------------------------------------------------------------


@compiled
def stand_pat(W: Work, alpha: float, beta: float, ply: int) -> tuple[bool, float, int]:
    """Quiescence's start at ``states[ply]``: (True, its score) when the search ends there (a
    terminal state, EVAL at least beta, no noisy move), else (False, EVAL, the number of noisy
    moves, now first in ``moves[ply]``)."""
    params, floats, state, row, stats = W.params, W.floats, W.states[ply], W.moves[ply], W.stats
    result = outcome(params, state)
    if result != NOT_OVER:
        stats[LEAVES] += 1
        return True, terminal_score(floats, result, ply), 0
    stand = eval_score(params, floats, state)
    if stand >= beta:
        stats[LEAVES] += 1
        return True, stand, 0
    count = 0
    exchange = stats[EXCHANGE]
    for i in range(moves(params, state, row, W.generator)):
        move = row[i]
        if is_capture(params, state, move) and (not exchange or wins_exchange(params, state, move)):
            row[count] = row[i]
            count += 1
    if count == 0:
        stats[LEAVES] += 1
        return True, stand, 0
    return False, stand, count


@compiled
def probe(
    W: Work, depth: int, alpha: float, beta: float, ply: int
) -> tuple[bool, float, bool, int, int, np.uint64]:
    """The table's entry for ``states[ply]`` (the Python engine's ``probe``): (whether it ends
    the search here, its score, whether it has a move to search first, that move, the slot,
    the key)."""
    pv, stats, pv_length, entries, scores = W.lines, W.stats, W.line_lengths, W.entries, W.scores
    position = key(W.params, W.states[ply])
    slot = table_slot(entries, position)
    packed = entries[slot, 3]
    if packed == 0 or entries[slot, 0] != np.int64(position):
        return False, 0.0, False, 0, slot, position
    stored_depth, flag, solved = (packed & 0xFFFFFFFF) >> 3, packed & 3, packed >> 2 & 1
    deeper = W.stats[DEEPER] and stored_depth > depth
    if stored_depth == depth or deeper or (solved and stored_depth <= depth):
        score = from_table(scores[slot, 1], ply)
        if flag == EXACT or (flag == LOWER and score >= beta) or (flag == UPPER and score <= alpha):
            if not solved:
                stats[HITS] += 1
            if flag == EXACT:
                pv[ply, 0] = entries[slot, 2]
                pv_length[ply] = 1
            return True, score, True, entries[slot, 2], slot, position
    return False, 0.0, True, entries[slot, 2], slot, position


@compiled
def store(
    W: Work, slot: int, position: np.uint64, depth: int, ply: int, bounds: tuple[float, float],
    best: float, best_move: int, solved: bool,
) -> None:  # fmt: skip
    """Keep a searched node in the table: depth-preferred, always replacing stale entries."""
    stats, entries, scores = W.stats, W.entries, W.scores
    alpha, beta = bounds
    flag = UPPER if best <= alpha else LOWER if best >= beta else EXACT
    packed = entries[slot, 3]
    if packed == 0:
        stats[USED] += 1
    elif (
        entries[slot, 0] != np.int64(position)
        and packed >> 32 == stats[GENERATION]
        and (packed & 0xFFFFFFFF) >> 3 > depth
    ):
        return
    entries[slot, 0], entries[slot, 2] = np.int64(position), best_move
    scores[slot, 1] = to_table(best, ply)
    entries[slot, 3] = stats[GENERATION] << 32 | depth << 3 | (1 if solved else 0) << 2 | flag


@compiled
def extend_line(W: Work, ply: int, action: int, score: float) -> None:
    """``action`` then the child's line become the line at ``ply`` (and the root's best)."""
    floats, pv, stats, pv_length = W.floats, W.lines, W.stats, W.line_lengths
    pv[ply, 0] = action
    length = pv_length[ply + 1]
    for i in range(length):
        pv[ply, i + 1] = pv[ply + 1, i]
    pv_length[ply] = length + 1
    if ply == 0:
        stats[BEST_SET], stats[BEST] = 1, action
        floats[ROOT_SCORE] = score


@compiled
def repeats(W: Work, ply: int) -> int:
    """How often the position at ``ply`` occurred before in its window (the game's positions
    since the last irreversible move and the search's path since, passes cut it), its key now
    kept in ``path``."""
    here = W.stats[EARLIER] + ply
    position = np.int64(key(W.params, W.states[ply]))
    W.path[here] = position
    seen = 0
    for i in range(W.window[ply], here):
        if W.path[i] == position:
            seen += 1
    return seen


@compiled
def enter(W: Work, ply: int, passed: int) -> None:
    """Open the window of repetitions of the child at ``ply + 1``, reached by a pass or a move:
    only its own position after a pass or an irreversible move, else its parent's window."""
    if W.stats[REPEATS]:
        child = ply + 1
        fresh = passed or clock(W.params, W.states[child]) == 0
        W.window[child] = W.stats[EARLIER] + child if fresh else W.window[ply]
    W.passed[ply + 1] = passed


@compiled
def is_quiet(W: Work, ply: int, action: int) -> bool:
    """A move late-move reductions (Romstad 2007) may reduce (the Python engine's
    ``is_quiet``): no capture, no killer, no check given (the child is at ``ply + 1``)."""
    params, killers = W.params, W.killers
    known = killers[ply, 2]
    return not (
        is_capture(params, W.states[ply], action)
        or (known > 0 and killers[ply, 0] == action)
        or (known > 1 and killers[ply, 1] == action)
        or in_check(params, W.states[ply + 1])
    )


@compiled
def may_pass(W: Work, depth: int, alpha: float, beta: float, ply: int, checked: bool) -> bool:
    """Whether null-move pruning tries a pass here (the Python engine's ``may_pass``): a
    null-window node below the root, deep enough, not in check, not reached by a pass, EVAL
    already at beta, and the game allows it; the passed position is then at ``ply + 1``."""
    params, floats, stats = W.params, W.floats, W.stats
    state = W.states[ply]
    if not (
        stats[NULL_MOVE]
        and ply > 0
        and depth >= 3
        and not checked
        and not W.passed[ply]
        and beta == np.nextafter(alpha, math.inf)
        and abs(beta) < 1
        and eval_score(params, floats, state) >= beta
        and pass_turn(params, state, W.states[ply + 1])
    ):
        return False
    enter(W, ply, 1)
    return True


@compiled
def node(W: Work, depth: int, alpha: float, beta: float, ply: int, quiescent: bool) -> float:
    """Fail-soft negamax alpha-beta with the table and PVS at ``states[ply]`` (the Python
    engine's ``negamax``, ``search_moves`` and ``null_move_cutoff``, with its check extension,
    null-move pruning (Heinz 1999: R = 3 from depth 7, else 2), late-move reductions and
    repetitions where the game's kernel has them), or, when
    ``quiescent``, its ``quiesce``. The score is the mover's; once a limit is reached
    (``stats[ABORTED]``) every call returns at once with nothing kept. Recursive calls pass
    variables, never literals: Numba compiles a literal argument as a second signature, which
    its cache cannot reload (numba issue 6061)."""
    params, floats, stats = W.params, W.floats, W.stats
    state, row, child = W.states[ply], W.moves[ply], W.states[ply + 1]
    who = mover(params, state)
    if quiescent:  # stand pat on EVAL or play on through noisy moves
        done, best, count = stand_pat(W, alpha, beta, ply)
        if done:
            return best
        low = best if best > alpha else alpha
        for i in range(count):
            play(params, state, row[i], child)
            if counted(stats, floats, ply + 1):
                return 0.0
            if mover(params, child) == who:
                score = node(W, depth, low, beta, ply + 1, quiescent)
            else:
                score = -node(W, depth, -beta, -low, ply + 1, quiescent)
            if stats[ABORTED]:
                return 0.0
            if score > best:
                best, low = score, score if score > low else low
                if score >= beta:
                    stats[CUTOFFS] += 1
                    break
        return best
    if counted(stats, floats, ply):
        return 0.0
    W.line_lengths[ply] = 0  # the line from here: none yet
    result = outcome(params, state)
    if result != NOT_OVER:
        stats[LEAVES] += 1
        return terminal_score(floats, result, ply)
    if ply > 0 and W.endgame_entries.shape[0]:
        found = endgame(params, state, W.endgame_numbering, W.endgame_entries)
        if found >= 0:  # the Python engine's ``endgame_score``
            stats[LEAVES] += 1
            known, distance = found >> ENDGAME_DISTANCE_BITS, found & ENDGAME_DISTANCE_MASK
            if known == ENDGAME_DRAW:
                return 0.0
            end = float(floats[MATE] - ply - distance)
            return end if known == ENDGAME_WIN else -end
    if stats[REPEATS]:
        seen = repeats(W, ply)
        if seen >= 2:  # the third time: a draw by the game's rule
            stats[LEAVES] += 1
            return terminal_score(floats, 0, ply)
        if seen and ply > 0 and stats[REPETITION]:  # a draw by the engine's rule
            stats[HITS] += 1
            stats[LEAVES] += 1
            return 0.0
    checked = in_check(params, state)
    if checked and stats[EXTEND] and ply < 2 * stats[ITERATION]:
        depth += 1
    if depth <= 0:
        stats[HITS] += 1
        if not stats[QUIESCENCE]:
            stats[LEAVES] += 1
            return eval_score(params, floats, state)
        return node(W, depth, alpha, beta, ply, not quiescent)
    use_table = stats[USE_TABLE] != 0 and not (ply == 0 and W.root_moves.shape[0])
    cut, score, has_first, first, slot, position = False, 0.0, False, 0, 0, np.uint64(0)
    if use_table:
        cut, score, has_first, first, slot, position = probe(W, depth, alpha, beta, ply)
        if cut:
            return score
    if ply == 0 and stats[HINT_SET]:
        has_first, first = True, stats[HINT]
    if (  # reverse futility pruning, as the Python engine's ``is_futile``
        stats[FUTILITY]
        and ply > 0
        and depth <= FUTILITY_DEPTH
        and not checked
        and beta == np.nextafter(alpha, math.inf)
        and abs(beta) < 1
    ):
        stand = eval_score(params, floats, state)
        if stand - FUTILITY_MARGIN * depth >= beta:
            stats[HITS] += 1
            return stand
    if may_pass(W, depth, alpha, beta, ply, checked):  # Heinz's adaptive null-move pruning
        reduction = 3 if depth >= 7 else 2
        above = np.nextafter(-beta, math.inf)
        score = -node(W, depth - 1 - reduction, -beta, above, ply + 1, quiescent)
        if stats[ABORTED]:
            return 0.0
        if score >= beta:
            stats[HITS] += 1  # a heuristic cut: the subtree is not solved
            return float(min(score, np.nextafter(1.0, 0.0)))
    if (  # ProbCut at a null-window node, as the Python engine's ``probcut``
        stats[PROBCUT]
        and ply > 0
        and depth >= PROBCUT_DEPTH
        and not checked
        and beta == np.nextafter(alpha, math.inf)
    ):
        shallow = depth // 2 + (depth - depth // 2) % 2  # :func:`plies.native.probcut_depth`
        margin = floats[PROBCUT_MARGIN]
        high = beta + margin
        if high < 1:
            below = np.nextafter(high, -math.inf)
            score = node(W, shallow, below, high, ply, quiescent)
            if stats[ABORTED]:
                return 0.0
            if score >= high:
                stats[HITS] += 1
                return beta
        low_bound = alpha - margin
        if low_bound > -1:
            above = np.nextafter(low_bound, math.inf)
            score = node(W, shallow, low_bound, above, ply, quiescent)
            if stats[ABORTED]:
                return 0.0
            if score <= low_bound:
                stats[HITS] += 1
                return alpha
    hits = stats[HITS]
    reduce = stats[REDUCE] != 0 and depth >= 3 and not checked
    best, best_move, low = -math.inf, 0, alpha
    for index in range(ordered(W, ply, has_first, first)):
        action = row[index]
        play(params, state, action, child)
        enter(W, ply, 0)
        bound = np.nextafter(low, math.inf)
        full = True
        if mover(params, child) == who:  # a player moving twice: no negation
            score = node(W, depth - 1, low, beta, ply + 1, quiescent)
            full = False
        elif reduce and index >= FULL_DEPTH_MOVES and is_quiet(W, ply, action):
            score = -node(W, depth - 2, -bound, -low, ply + 1, quiescent)
            full = score > low  # beat alpha one ply shallower: search it in full
        if stats[ABORTED]:
            return 0.0
        if full and (index == 0 or not stats[PVS]):
            score = -node(W, depth - 1, -beta, -low, ply + 1, quiescent)
        elif full:
            score = -node(W, depth - 1, -bound, -low, ply + 1, quiescent)
            if not stats[ABORTED] and low < score < beta:
                score = -node(W, depth - 1, -beta, -low, ply + 1, quiescent)
        if stats[ABORTED]:
            return 0.0
        if score > best:
            best, best_move = score, action
            if score > low:
                low = score
                extend_line(W, ply, action, score)
        if best >= beta:
            stats[CUTOFFS] += 1
            if not is_capture(params, state, action):
                remember_quiet(W, who, action, ply, depth)
            break
    if use_table:
        store(W, slot, position, depth, ply, (alpha, beta), best, best_move, stats[HITS] == hits)
    return best


# The Python side ---------------------------------------------------------------------------


class NativeTable:
    """The compiled engine's transposition table, kept between the searches of a game: per slot
    four words, the key, the score (a float64), the move, and the generation, depth, solved
    flag and bound packed (0: an empty slot)."""

    def __init__(self, slots: int) -> None:
        self.entries = np.zeros((slots, 4), np.int64)
        self.scores = self.entries.view(np.float64)


def to_word(value: int) -> int:
    """A non-negative int below 2**64 as the int64 with the same bits."""
    return value - (1 << 64) if value >= 1 << 63 else value


@dataclass
class CompiledSearch:
    """A game's compiled engine (:class:`plies.capabilities.NativeSearch`): its compiled rules,
    the words its kernel reads (the kernel's id first) and EVAL's scale."""

    rules: CompiledRules
    params: NDArray[np.int64]
    draw: float
    """EVAL's value of a lead of 0 and its span to a win (``estimate``)."""
    span: float
    plies: int = MAX_PLY
    """Rows of the per-ply buffers: more than a game can last, where it has a bound."""
    history_slots: int = HISTORY_SLOTS
    """Slots per player of the history table, a power of two above the number of moves."""
    loaded: bool = False
    """Whether the compiled code is loaded (the first search of a process loads it)."""
    amaf: bool = False
    """Its MCTS trees keep no AMAF statistics (RAVE)."""
    knowledge: Mapping[str, float] = field(default_factory=dict)
    """Its MCTS has no settings of its own."""
    learns: bool = False
    """Its MCTS takes no learned prior."""
    probcut_margin: float = 0.0
    """ProbCut's margin (:class:`~plies.capabilities.HasProbCut`; 0: the game has none)."""

    def table(self, slots: int) -> NativeTable:
        return NativeTable(slots)

    def tree(
        self,
        exploration: float,
        scale: float,
        utilities: tuple[float, float, float],
        bounds: tuple[float, float],
        solving: bool,
        rave: float = 0.0,
        knowledge: Mapping[str, float] | None = None,
        learned: LearnedPrior | None = None,
    ) -> CompiledTree:
        """Compiled MCTS (:mod:`plies.native.mcts`) on this game (no AMAF: ``rave`` must
        be 0; no knowledge of its own: ``knowledge`` must be empty; no learned prior)."""
        from plies.native.mcts import CompiledTree

        if rave:
            raise ValueError("the compiled MCTS of this game keeps no AMAF statistics for RAVE")
        if knowledge:
            raise ValueError(
                f"the compiled MCTS of this game has no setting {next(iter(knowledge))}"
            )
        if learned is not None:
            raise ValueError("the compiled MCTS of this game takes no learned prior")

        return CompiledTree(self, exploration, scale, utilities, bounds, solving)

    def start(
        self,
        state: Hashable,
        table: NativeTable | None,
        generation: int,
        switches: tuple[bool, ...],
        scale: tuple[float, float, float, float, float, float],
        root_moves: Collection[Any] | None = None,
        endgames: tuple[Any, ...] | None = None,
    ) -> CompiledRun:
        """A search from ``state``: ``switches`` are :data:`SWITCHES`, ``scale`` the
        engine's (win, loss, draw) utilities normalised, its centre and unit and the score of
        a win at the root; ``root_moves`` the legal moves it searches at the root (None: all);
        ``endgames`` the endgame tables it probes (None: none)."""
        self.load(state)
        return CompiledRun(self, state, table, generation, switches, scale, root_moves, endgames)

    def load(self, state: Hashable) -> None:
        """Load the compiled engine now (a search of depth 0 from ``state``), not on the clock
        of a search: the first search of a process would spend about a second on it."""
        if not self.loaded:
            scale = (1.0, -1.0, 0.0, 0.0, 1.0, 1000.0)
            CompiledRun(self, state, None, 1, (True,) * len(SWITCHES), scale).search(
                0, -math.inf, math.inf, None
            )
            self.loaded = True


class CompiledRun:
    """One search's work space (a :class:`plies.capabilities.NativeRun`): per-ply states, moves
    and lines, killers, history and statistics; :meth:`search` runs one root call of
    :func:`node`."""

    def __init__(
        self,
        kernel: CompiledSearch,
        state: Hashable,
        table: NativeTable | None,
        generation: int,
        switches: tuple[bool, ...],
        scale: tuple[float, float, float, float, float, float],
        root_moves: Collection[Any] | None = None,
        endgames: tuple[Any, ...] | None = None,
    ) -> None:
        self.kernel = kernel
        win, loss, draw, center, unit, mate = scale
        floats = np.array(
            [win, loss, draw, kernel.draw, kernel.span, center, unit, 0.0, mate, math.inf,
             kernel.probcut_margin]
        )  # fmt: skip
        rows = kernel.plies + 1
        rules = kernel.rules
        states = np.zeros((rows, rules.words), np.int64)
        row = [to_word(word) for word in rules.encode(state)]
        states[0, : len(row)] = row
        earlier = [] if rules.history is None else [to_word(k) for k in rules.history(state)]
        stats = np.zeros(STAT_WORDS, np.int64)
        stats[NODE_LIMIT] = np.iinfo(np.int64).max
        stats[GENERATION], stats[CLOCK_ID] = generation, CLOCK
        stats[USE_TABLE] = table is not None
        ordering, pvs, quiescence, extend, null_move, reduce, repetition, *more = switches
        deeper, futility, exchange, probcut = more
        stats[ORDERING], stats[PVS] = ordering, pvs
        stats[QUIESCENCE] = quiescence and rules.noisy
        stats[EXTEND], stats[NULL_MOVE] = extend and rules.checks, null_move and rules.checks
        stats[REDUCE] = reduce and rules.checks and rules.noisy
        stats[REPEATS] = rules.history is not None
        stats[REPETITION] = repetition and rules.history is not None
        stats[EARLIER] = len(earlier)
        stats[DEEPER], stats[FUTILITY] = deeper, futility and rules.checks
        stats[EXCHANGE] = exchange and rules.exchange
        stats[PROBCUT] = probcut and kernel.probcut_margin > 0
        table = table or NativeTable(1)
        tables = NO_ENDGAMES if endgames is None else endgames
        self.stats, self.floats = stats, floats
        self.pv = np.zeros((rows, rows), np.int64)
        history = (2, kernel.history_slots)
        self.work = Work(
            params=kernel.params,
            floats=floats,
            states=states,
            moves=np.zeros((rows, MAX_MOVES), np.int64),
            lines=self.pv,
            killers=np.zeros((rows, 3), np.int64),
            history_keys=np.zeros(history, np.int64),
            history_used=np.zeros(history, np.int8),
            history_values=np.zeros(history, np.int64),
            stats=stats,
            line_lengths=np.zeros(rows, np.int64),
            entries=table.entries,
            scores=table.scores,
            scratch=np.zeros((rows, 3, MAX_MOVES), np.int64),
            generator=np.zeros(kernel.rules.work, np.int64),
            root_moves=np.array(
                [kernel.rules.encode_move(move) for move in root_moves or ()], np.int64
            ),
            path=np.array(earlier + [0] * rows, np.int64),
            window=np.zeros(rows, np.int64),
            passed=np.zeros(rows, np.int64),
            endgame_numbering=tables[0],
            endgame_entries=tables[1],
        )

    def search(self, depth: int, alpha: float, beta: float, hint: Any | None) -> float:
        """The root's score at ``depth`` within (alpha, beta), searching ``hint`` first; blocks
        (without the GIL) until done or :meth:`stop`."""
        stats = self.stats
        stats[HINT_SET] = hint is not None
        stats[HINT] = 0 if hint is None else self.kernel.rules.encode_move(hint)
        stats[BEST_SET], stats[ITERATION] = 0, depth
        return float(node(self.work, depth, alpha, beta, 0, False))

    def stop(self) -> None:
        """End the running search as soon as it counts its next node (thread-safe)."""
        self.stats[STOP] = 1

    def limit_nodes(self, nodes: int) -> None:
        self.stats[NODE_LIMIT] = nodes

    def limit_time(self, seconds: float) -> None:
        """End the searches ``seconds`` from now (the kernel reads the clock itself)."""
        self.floats[DEADLINE] = clock_now() + seconds

    @property
    def aborted(self) -> bool:
        return bool(self.stats[ABORTED])

    def counts(self) -> tuple[int, int, int, int, int]:
        """(nodes, leaves, cutoffs, deepest ply, horizon hits) so far."""
        stats = self.stats
        return (
            int(stats[NODES]),
            int(stats[LEAVES]),
            int(stats[CUTOFFS]),
            int(stats[SELDEPTH]),
            int(stats[HITS]),
        )

    def line(self) -> tuple[Any, ...]:
        """The root's principal variation."""
        decode = self.kernel.rules.decode_move
        return tuple(decode(int(code)) for code in self.pv[0, : self.work.line_lengths[0]])

    def root_best(self) -> tuple[Any | None, float]:
        """The best root move the running iteration has proved so far and its score."""
        if not self.stats[BEST_SET]:
            return None, math.nan
        return self.kernel.rules.decode_move(int(self.stats[BEST])), float(self.floats[ROOT_SCORE])


def build_search(
    game: WinLossDrawGame[Any, Any], rules: CompiledRules, kernel: int
) -> CompiledSearch:
    """The compiled engine of ``game``, whose ``rules`` run on the kernel of id ``kernel``
    (:data:`plies.native.kernels.KERNELS`); the buffers are as small as the rules' bounds on the
    game's length and moves allow (a small search starts faster)."""
    draw = game.scoring.utility(None, game.players[0])
    span = game.scoring.utility(game.players[0], game.players[0]) - draw
    words = np.array([kernel, *(to_word(value) for value in rules.params)], np.int64)
    if rules.tables is not None:
        words = np.concatenate([words, rules.tables.ravel()])
    plies = MAX_PLY if rules.longest is None else rules.longest + 2
    slots = HISTORY_SLOTS if rules.moves is None else 1 << (4 * rules.moves).bit_length()
    probcut = optional(game, HasProbCut)
    margin = 0.0 if probcut is None else float(probcut.probcut_margin)
    return CompiledSearch(rules, words, draw, span, plies, slots, probcut_margin=margin)
