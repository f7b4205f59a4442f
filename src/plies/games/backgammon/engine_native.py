"""Backgammon's engine: expectimax over the dice to 1, 2 or 3 moves (GNU Backgammon's 0, 1 and
2 plies) with move filtering, compiled, under a clock; the engine agent plays it for backgammon
(:class:`~plies.capabilities.HasChanceEngine`).

Values are cubeless money equities for the side named, from the learned network (with the
bear-off databases' chance of winning where both sides are home: the exact two-sided one to 8
checkers a side, else the one-sided approximation) or from the hand-written evaluation
(``engine:evaluation=hand``); in a game with the cube the network's outputs are weighed as the
game says (:meth:`~plies.games.backgammon.rules.Backgammon.checker_weights`: gammons single under
the Jacoby rule, the chance of winning the match through the match equity table in a match), and
a cube decision is taken at once from the outputs of the position to roll
(:mod:`plies.games.backgammon.cube`). A position before its roll is valued:

- at depth 0 by the evaluation;
- at depth k by the mean over the 21 rolls of the best play's value for the side on roll,
  each play valued as minus the next position's value at depth k - 1 (a play that bears off
  the last checker scores its points). At depth 2, for each roll the plays are ranked by their
  depth-0 value and only the best (and up to :data:`INNER_EXTRA` more within
  :data:`INNER_THRESHOLD` of it) are searched deeper, as GNU Backgammon's inner plies choose
  by its quickest evaluation.

The root's plays are ranked at depth 0 (``depth=1``), then the best and up to
:data:`ROOT_FILTER`'s extra moves within its threshold of the previous ranking are valued one
move deeper, as gnubg's move filters do (Berliner's and Tesauro's selective search): a deeper
iteration starts only while the clock allows, and an iteration cut short keeps the best of the
plays it finished that beat the last complete ranking's choice. Boards are
:mod:`plies.games.backgammon.kernel`'s.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np

from plies.compiled import compiled
from plies.errors import IllegalMoveError, SpecError
from plies.game import CHANCE
from plies.games.backgammon import kernel
from plies.games.backgammon.bearoff_kernel import two_sided_lookup
from plies.games.backgammon.kernel import BAR, CHECKERS, MOST_PLAYS, OFF, SOURCES, STACK
from plies.games.backgammon.td_kernel import (
    encode,
    forward,
    hand_value,
    points_won,
    swap_sides,
)
from plies.search import SearchResult
from plies.search.result import SearchStats

MAX_DEPTH = 3
"""The deepest search: 3 moves, gnubg's 2 plies."""
ROOT_FILTER = ((8, 0.16), (4, 0.08))
"""(extra moves, threshold in equity) kept from depth 1 to 2, and from depth 2 to 3."""
INNER_EXTRA = 0
INNER_THRESHOLD = 0.04
"""Plays kept beside the best for a roll inside a depth-3 search (see the module's text)."""
ROLLS = np.array([(high, low) for high in range(1, 7) for low in range(1, high + 1)], np.int64)
CHANCES = np.array([(1.0 if high == low else 2.0) / 36.0 for high, low in ROLLS])
LEVELS = MAX_DEPTH + 1
"""Work space levels: one a depth, the root's the last."""
NETWORK, HAND = 0, 1
"""The evaluations, as the compiled code names them."""
OVERFLOW = 99.0
"""What a search returns when a roll has more plays than its work space holds (never seen)."""
MONEY = (-1.0, 2.0, 1.0, 1.0, -1.0, -1.0)
"""Money play's weights of the outputs: its cubeless equity (:func:`weighted_value`)."""


@compiled
def race_win(board: np.ndarray, row: int, distributions: np.ndarray, binomial: np.ndarray) -> float:
    """The chance that row ``row``, to roll, bears off first, both sides' checkers all home:
    the one-sided database's ``sum_k P_row(k) P_other(>= k)``."""
    index_mine = 0
    index_theirs = 0
    seen_mine = 0
    seen_theirs = 0
    for point in range(6):
        seen_mine += board[row, point + 1]
        seen_theirs += board[1 - row, point + 1]
        index_mine += binomial[seen_mine + point, point + 1]
        index_theirs += binomial[seen_theirs + point, point + 1]
    win = 0.0
    below = 0.0  # P_other(< k)
    for rolls in range(distributions.shape[1]):
        win += distributions[index_mine, rolls] * (1.0 - below)
        below += distributions[index_theirs, rolls]
    return win


@compiled
def _all_home(board: np.ndarray) -> bool:
    for side in range(2):
        for point in range(7, BAR + 1):
            if board[side, point] > 0:
                return False
    return True


@compiled
def static_value(
    board: np.ndarray,
    row: int,
    mode: int,
    net: tuple[np.ndarray, ...],
    scratch: tuple[np.ndarray, ...],
    bearoff: tuple[np.ndarray, ...],
    weights: np.ndarray,
    side: int,
) -> float:
    """Depth 0: the evaluation's value for row ``row``, to roll (the game not over): the
    outputs weighted by ``weights`` of that row's side (row 0's is ``side``; see
    :func:`weighted_value`)."""
    if mode == HAND:
        return hand_value(board, row, row)
    inputs, active, hidden, outputs = scratch[0], scratch[1], scratch[2], scratch[3]
    count = encode(board, row, inputs, active)
    forward(net[0], net[1], net[2], net[3], inputs, active, count, hidden, outputs)
    if _all_home(board):
        win = two_sided_lookup(bearoff[2], bearoff[3], board, row)
        if win < 0:
            win = race_win(board, row, bearoff[0], bearoff[1])
        outputs[0] = win
        outputs[2] = 0.0
        outputs[4] = 0.0
        outputs[1] = 0.0 if board[1 - row, OFF] > 0 else min(outputs[1], win)
        outputs[3] = 0.0 if board[row, OFF] > 0 else min(outputs[3], 1.0 - win)
    return weighted_value(outputs, weights[side if row == 0 else 1 - side])


@compiled
def weighted_value(outputs: np.ndarray, weights: np.ndarray) -> float:
    """``weights``' linear value of the five outputs, in the order of money play's equity
    ``2 P(w) - 1 + P(wg) - P(lg) + P(wbg) - P(lbg)`` (:data:`MONEY`: the same bits)."""
    value: float = (
        weights[1] * outputs[0] + weights[0] + weights[2] * outputs[1] + weights[4] * outputs[3]
        + weights[3] * outputs[2] + weights[5] * outputs[4]
    )  # fmt: skip
    return value


@compiled
def won_value(child: np.ndarray, mode: int, weights: np.ndarray) -> float:
    """The value for row 0 of ``child``, where it has borne off its last checker: the points
    it wins (the hand-written evaluation), or ``weights``' value of that result (its side's)."""
    points = points_won(child, 0)
    if mode == HAND:
        return float(points)
    value: float = weights[0] + weights[1]
    if points >= 2:
        value += weights[2]
    if points >= 3:
        value += weights[3]
    return value


@compiled
def play_value(
    child: np.ndarray,
    mode: int,
    net: tuple[np.ndarray, ...],
    scratch: tuple[np.ndarray, ...],
    bearoff: tuple[np.ndarray, ...],
    weights: np.ndarray,
    side: int,
) -> float:
    """Depth 0 of a play: the mover's (row 0's, side ``side``'s) value of the board it left,
    row 1 to roll."""
    if child[0, OFF] == CHECKERS:
        return won_value(child, mode, weights[side])
    return -static_value(child, 1, mode, net, scratch, bearoff, weights, side)


@compiled
def _plays(board: np.ndarray, high: int, low: int, level: int, work: tuple[np.ndarray, ...]) -> int:
    count = kernel.plays(
        board, high, low, work[0][level], work[1][level], work[2][level], work[3][level],
        work[4][level],
    )  # fmt: skip
    work[7][0] += 1
    return count


@compiled
def depth_one(
    board: np.ndarray,
    mode: int,
    net: tuple[np.ndarray, ...],
    scratch: tuple[np.ndarray, ...],
    bearoff: tuple[np.ndarray, ...],
    work: tuple[np.ndarray, ...],
    weights: np.ndarray,
    side: int,
) -> float:
    """The value at depth 1 of ``board``, row 0 to roll: the mean over the rolls of its best
    play's depth-0 value. :data:`OVERFLOW` when the plays overflow."""
    plays_out = work[0][1]
    total = 0.0
    for roll in range(ROLLS.shape[0]):
        count = _plays(board, ROLLS[roll, 0], ROLLS[roll, 1], 1, work)
        if count < 0:
            return OVERFLOW
        best = -OVERFLOW
        for play in range(count):
            best = max(
                best, play_value(plays_out[play], mode, net, scratch, bearoff, weights, side)
            )
        work[7][1] += count
        total += CHANCES[roll] * best
    return total


@compiled
def depth_two(
    board: np.ndarray,
    mode: int,
    net: tuple[np.ndarray, ...],
    scratch: tuple[np.ndarray, ...],
    bearoff: tuple[np.ndarray, ...],
    work: tuple[np.ndarray, ...],
    weights: np.ndarray,
    side: int,
) -> float:
    """The value at depth 2 of ``board``, row 0 to roll: the mean over the rolls of the best
    play, the plays ranked at depth 0 and the best few valued at depth 1 (the module's text).
    :data:`OVERFLOW` when the plays overflow."""
    plays_out, values, turned = work[0][2], work[5][2], work[6][2]
    total = 0.0
    for roll in range(ROLLS.shape[0]):
        count = _plays(board, ROLLS[roll, 0], ROLLS[roll, 1], 2, work)
        if count < 0:
            return OVERFLOW
        for play in range(count):
            values[play] = play_value(plays_out[play], mode, net, scratch, bearoff, weights, side)
        work[7][1] += count
        top = -OVERFLOW
        for play in range(count):
            top = max(top, values[play])
        best = -OVERFLOW
        for _ in range(INNER_EXTRA + 1):
            chosen = 0
            for play in range(count):
                if values[play] > values[chosen]:
                    chosen = play
            if values[chosen] < top - INNER_THRESHOLD:
                break
            value = values[chosen]
            values[chosen] = -OVERFLOW
            if plays_out[chosen, 0, OFF] < CHECKERS:
                kernel.copy_board(turned, plays_out[chosen])
                swap_sides(turned)
                deeper = depth_one(turned, mode, net, scratch, bearoff, work, weights, 1 - side)
                if deeper == OVERFLOW:
                    return OVERFLOW
                value = -deeper
            best = max(best, value)
        total += CHANCES[roll] * best
    return total


@compiled
def root_plays(
    board: np.ndarray,
    high: int,
    low: int,
    mode: int,
    net: tuple[np.ndarray, ...],
    scratch: tuple[np.ndarray, ...],
    bearoff: tuple[np.ndarray, ...],
    work: tuple[np.ndarray, ...],
    weights: np.ndarray,
    side: int,
) -> int:
    """The root's plays of the roll ``high``-``low`` (row 0 to move) in the root's level of
    ``work``, each valued at depth 0; their number (-1 when they overflow)."""
    level = LEVELS - 1
    count = _plays(board, high, low, level, work)
    for play in range(count):
        work[5][level][play] = play_value(
            work[0][level][play], mode, net, scratch, bearoff, weights, side
        )
    work[7][1] += max(count, 0)
    return count


@compiled
def deeper_value(
    play: int,
    depth: int,
    mode: int,
    net: tuple[np.ndarray, ...],
    scratch: tuple[np.ndarray, ...],
    bearoff: tuple[np.ndarray, ...],
    work: tuple[np.ndarray, ...],
    weights: np.ndarray,
    side: int,
) -> float:
    """The mover's value of the root's play ``play`` searched ``depth`` (2 or 3) moves deep."""
    level = LEVELS - 1
    child = work[0][level][play]
    if child[0, OFF] == CHECKERS:
        return won_value(child, mode, weights[side])
    turned = work[6][level]
    kernel.copy_board(turned, child)
    swap_sides(turned)
    if depth == 2:
        value = depth_one(turned, mode, net, scratch, bearoff, work, weights, 1 - side)
    else:
        value = depth_two(turned, mode, net, scratch, bearoff, work, weights, 1 - side)
    return -OVERFLOW if value == OVERFLOW else -value


def _work() -> tuple[np.ndarray, ...]:
    return (
        np.zeros((LEVELS, MOST_PLAYS, 2, 26), np.int8),
        np.zeros((LEVELS, MOST_PLAYS), np.int64),
        np.zeros((LEVELS, MOST_PLAYS), np.int64),
        np.zeros((LEVELS, STACK, 2, 26), np.int8),
        np.zeros((LEVELS, 4, SOURCES + 2), np.int64),
        np.zeros((LEVELS, MOST_PLAYS)),
        np.zeros((LEVELS, 2, 26), np.int8),
        np.zeros(2, np.int64),
    )


def board_key(board: np.ndarray) -> tuple[int, ...]:
    """A kernel board after a play (the mover in row 0) as the rules' key of the turn that
    reaches it: the mover's view, then the opponent's checkers on the bar."""
    view = [int(board[0, OFF])]
    view += [int(board[0, point]) - int(board[1, BAR - point]) for point in range(1, BAR)]
    return (*view, int(board[0, BAR]), int(board[1, BAR]))


@dataclass
class BackgammonEngine:
    """The engine of one agent: its evaluation and its work space (see the module's text)."""

    mode: int
    net: tuple[np.ndarray, ...]
    bearoff: tuple[np.ndarray, ...]
    work: tuple[np.ndarray, ...]
    scratch: tuple[np.ndarray, ...]
    max_depth: int = MAX_DEPTH
    game: Any = None
    """The game searched (its cube, match and evaluation), or None: money play, no cube."""

    def iterate(
        self, state: Any, depth: int | None, seconds: float | None, stop: Any | None = None
    ) -> Iterator[SearchResult[Any]]:
        """The search of ``state`` (a mover with dice), one result per depth completed (the
        last may be cut short by ``seconds`` or ``stop``), to ``depth`` moves or
        :data:`MAX_DEPTH`; of a cube decision (no dice), the one result of
        :meth:`cube_result`. Checker play maximises the game's :meth:`weights` of the
        outputs; the values are in the game's units (points in money play, the cube counted;
        ``2 MWC - 1`` in a match)."""
        from plies.games.backgammon.network import side_board
        from plies.games.backgammon.rules import SIDES, _legal_turns

        if not state.dice:
            yield self.cube_result(state)
            return
        began = time.perf_counter()
        deadline = began + seconds if seconds is not None else float("inf")
        self.work[7][:] = 0
        board = side_board(state.points, state.bar, state.off, state.mover)
        arguments = (self.mode, self.net, self.scratch, self.bearoff, self.work)
        weighing = (self.weights(state), state.mover)
        scale = state.cube if self.game is not None and not self.game.match else 1
        count = root_plays(board, state.dice[0], state.dice[1], *arguments, *weighing)
        turns = _legal_turns(state)
        level = LEVELS - 1
        plays = [turns[board_key(self.work[0][level][play])] for play in range(count)]
        values = {play: float(self.work[5][level][play]) for play in range(count)}

        def result(done: int, complete: bool) -> SearchResult[Any]:
            best = max(values, key=lambda play: values[play])
            stats = SearchStats(
                nodes=int(self.work[7][0]),
                leaves=int(self.work[7][1]),
                max_depth=2 * done - 1,
                time=time.perf_counter() - began,
            )
            return SearchResult(
                scale * values[best], plays[best], (plays[best],), stats,
                f"expectimax over the dice, {done} move{'s' * (done > 1)} deep (move filters)",
                SIDES[state.mover], depth=done, complete=complete,
            )  # fmt: skip

        yield result(1, True)
        for done in range(2, min(depth or MAX_DEPTH, self.max_depth) + 1):
            if time.perf_counter() >= deadline or (stop and stop.is_set()):
                return
            extra, threshold = ROOT_FILTER[done - 2]
            ranked = sorted(values, key=lambda play: -values[play])
            top = values[ranked[0]]
            candidates = [ranked[0]]
            candidates += [p for p in ranked[1 : 1 + extra] if values[p] >= top - threshold]
            deeper: dict[int, float] = {}
            for play in candidates:
                if deeper and (time.perf_counter() >= deadline or (stop and stop.is_set())):
                    break
                deeper[play] = deeper_value(play, done, *arguments, *weighing)
            values = deeper
            complete = len(deeper) == len(candidates)
            yield result(done, complete)
            if not complete:
                return

    def weights(self, state: Any) -> np.ndarray:
        """White's and Black's weights of the outputs (rows 0 and 1,
        :meth:`~plies.games.backgammon.rules.Backgammon.checker_weights`): money play's
        cubeless equity without a game."""
        if self.game is None:
            return np.array([MONEY, MONEY])
        return np.array(self.game.checker_weights(state), np.float64)

    def cube_result(self, state: Any) -> SearchResult[Any]:
        """The cube decision of ``state``, before the mover's roll (``double`` or ``roll``) or
        after its double (``take``, ``drop`` or ``beaver``), by
        :meth:`~plies.games.backgammon.rules.Backgammon.cube_decision` (0 plies: the outputs of
        the position to roll); its value the chooser's, its note the three equities."""
        from plies.games.backgammon.rules import BEAVER, DOUBLE, DOUBLED, DROP, ROLL, SIDES, TAKE

        began = time.perf_counter()
        game = self.game
        if game is None or game.to_move(state) == CHANCE:
            raise IllegalMoveError("the engine decides on the cube, and the dice are next here")
        decision = game.cube_decision(state)
        if state.stage == DOUBLED:
            action = BEAVER if decision.beaver else TAKE if decision.take else DROP
            doubler, chooser = decision.after_double, 1 - state.mover
        else:
            action = DOUBLE if decision.double else ROLL
            doubler, chooser = decision.value, state.mover
        if game.match:  # the chooser's 2 MWC - 1
            value = 2 * (doubler if chooser == state.mover else 1 - doubler) - 1
        else:
            value = (doubler if chooser == state.mover else -doubler) * state.cube
        stats = SearchStats(nodes=1, leaves=1, time=time.perf_counter() - began)
        cube = "match winning chances, dead cube" if game.match else "Janowski's cubeful equity"
        return SearchResult(
            value, action, (action,), stats, f"cube decision ({cube})", SIDES[chooser],
            depth=0, note=decision.note(),
        )  # fmt: skip


def backgammon_engine(game: Any) -> BackgammonEngine:
    """The engine of ``game`` (a :class:`~plies.games.backgammon.rules.Backgammon`), with its
    evaluation: the shipped network (and the bear-off database), or the hand-written one."""
    from plies.games.backgammon import bearoff
    from plies.games.backgammon.network import Work, shipped_or_none

    network = shipped_or_none() if game.evaluation == "learned" else None
    if network is None:
        net = tuple(np.zeros((1,) * rank) for rank in (2, 1, 2, 1))
        tables = tuple(
            np.zeros((1, 1), kind) for kind in (np.float64, np.int64, np.uint16, np.int64)
        )
        for table in tables:  # read-only as the databases' arrays: one compiled search for both
            table.flags.writeable = False
        return BackgammonEngine(HAND, net, tables, _work(), Work(1).scratch, game=game)
    two_sided, binomial = bearoff.two_sided_arrays()
    tables = (bearoff.database().distributions, binomial, two_sided, binomial)
    scratch = Work(network.hidden).scratch
    return BackgammonEngine(NETWORK, network.arrays, tables, _work(), scratch, game=game)


def check_depth(depth: int | None) -> None:
    """Refuse a depth the engine does not search."""
    if depth is not None and not 1 <= depth <= MAX_DEPTH:
        raise SpecError(f"engine: backgammon's engine searches 1 to {MAX_DEPTH} moves, not {depth}")
