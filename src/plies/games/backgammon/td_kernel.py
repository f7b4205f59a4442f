"""Backgammon's learned evaluation, compiled: the network's inputs, its forward pass, self-play
training by TD(lambda), and games against the hand-written evaluation for the learning curve.

The network is TD-Gammon's (Tesauro 1992, 1995): the board encoded per point and per side, one
hidden layer of sigmoid units and five sigmoid outputs for the side on roll, before its roll:
P(win), P(win a gammon or more), P(win a backgammon), P(lose a gammon or more), P(lose a
backgammon); the cubeless equity follows (:func:`equity`). Inputs (:data:`INPUTS`): for the side
on roll, then the other, each point's checkers as four units (at least one, two, three, and
half of those past three), the bar's checkers halved, the borne-off checkers over 15, the pip
count over 100; then a race flag (no contact left).

Training is Sutton's TD(lambda) (1988) as TD-Gammon used it: the network plays both sides,
each move the one whose position it values most (no search), and after every move each weight
moves by ``alpha`` times the change in the predicted outcome times its eligibility trace, the
lambda-decayed sum of the predictions' gradients; the last prediction is pulled to the game's
result. The five outputs are followed from the first mover's side, so that a trace holds one
quantity through the game although the side on roll alternates. Boards are
:mod:`plies.games.backgammon.kernel`'s. Nothing here allocates: the caller hands in every array
(see :class:`plies.games.backgammon.network.Work`).
"""

from __future__ import annotations

import math

import numpy as np

from plies.compiled import compiled
from plies.games.backgammon.kernel import (
    BAR,
    CHECKERS,
    OFF,
    copy_board,
    highest,
    plays,
)

SIDE_INPUTS = 24 * 4 + 3
"""Inputs per side: four units a point, then the bar, the borne-off checkers, the pip count."""
INPUTS = 2 * SIDE_INPUTS + 1
"""The network's inputs: the side on roll's, the other's, and the race flag."""
OUTPUTS = 5
"""P(win), P(win gammon), P(win backgammon), P(lose gammon), P(lose backgammon)."""
MAX_TURNS = 10_000
"""Turns after which a self-play game is abandoned (none comes near it)."""

# The hand-written evaluation's weights, as in plies.games.backgammon.rules (a test checks).
POINT_VALUE = np.array(
    (0, 1, 2, 3, 4, 5, 4, 4, 2, 1, 1, 0.5, 0, 0, 0, 0, 0, 0, 1, 1.5, 3, 2.5, 1.5, 1, 1)
)
PRIME_VALUE = np.array((0, 0, 1, 3, 6, 10, 16, *(16,) * 18), np.float64)
SHOTS = np.array((0, 11, 12, 14, 15, 15, 17, 6, 6, 5, 3, 2, 3, 0, 0, 1, 1, 0, 1, 0, 1, 0, 0, 0, 1))
HIT_EXTRA = 4.0
ENTER_PENALTY = np.array((0, 0.6, 2.4, 5.4, 9.6, 15, 21.6))
TEMPO = 4.0
CONTACT_SCALE = 30.0
RACE_SCALE = 0.07


@compiled
def next_random(rng: np.ndarray) -> np.uint64:
    """xorshift64* (Vigna 2016) on the state ``rng[0]``."""
    x = rng[0]
    x ^= x >> np.uint64(12)
    x ^= x << np.uint64(25)
    x ^= x >> np.uint64(27)
    rng[0] = x
    mixed: np.uint64 = x * np.uint64(0x2545F4914F6CDD1D)
    return mixed


@compiled
def die(rng: np.ndarray) -> int:
    """A die, 1 to 6."""
    return int((next_random(rng) >> np.uint64(32)) % np.uint64(6)) + 1


@compiled
def start_board(board: np.ndarray) -> None:
    """The starting position: two checkers on each side's 24, five on 13, three on 8, five
    on 6."""
    for side in range(2):
        for point in range(26):
            board[side, point] = 0
        board[side, 24] = 2
        board[side, 13] = 5
        board[side, 8] = 3
        board[side, 6] = 5


@compiled
def pips(board: np.ndarray, side: int) -> int:
    """The pips ``side`` needs to bear off all its checkers."""
    total = 0
    for point in range(1, BAR + 1):
        total += point * board[side, point]
    return total


@compiled
def in_contact(board: np.ndarray) -> bool:
    """Whether some checkers of the two sides must still pass each other."""
    return highest(board, 0) + highest(board, 1) > BAR


@compiled
def points_won(board: np.ndarray, winner: int) -> int:
    """What ``winner`` (a row, with all 15 off) scores: 1, 2 (gammon) or 3 (backgammon)."""
    loser = 1 - winner
    if board[loser, OFF] > 0:
        return 1
    if board[loser, BAR] > 0:
        return 3
    for point in range(19, 25):
        if board[loser, point] > 0:
            return 3
    return 2


@compiled
def encode(board: np.ndarray, on_roll: int, inputs: np.ndarray, active: np.ndarray) -> int:
    """The inputs of ``board`` with row ``on_roll`` to roll, written to ``inputs``; the indices
    of the non-zero ones to ``active``, their number returned."""
    count = 0
    for index in range(INPUTS):
        inputs[index] = 0.0
    for order in range(2):
        row = on_roll if order == 0 else 1 - on_roll
        base = order * SIDE_INPUTS
        for point in range(1, 25):
            checkers = board[row, point]
            if checkers > 0:
                unit = base + (point - 1) * 4
                inputs[unit] = 1.0
                active[count] = unit
                count += 1
                if checkers >= 2:
                    inputs[unit + 1] = 1.0
                    active[count] = unit + 1
                    count += 1
                if checkers >= 3:
                    inputs[unit + 2] = 1.0
                    active[count] = unit + 2
                    count += 1
                if checkers > 3:
                    inputs[unit + 3] = (checkers - 3) / 2.0
                    active[count] = unit + 3
                    count += 1
        extras = (board[row, BAR] / 2.0, board[row, OFF] / 15.0, pips(board, row) / 100.0)
        for offset in range(3):
            if extras[offset] != 0.0:
                inputs[base + 96 + offset] = extras[offset]
                active[count] = base + 96 + offset
                count += 1
    if not in_contact(board):
        inputs[INPUTS - 1] = 1.0
        active[count] = INPUTS - 1
        count += 1
    return count


@compiled
def _sigmoid(x: float) -> float:
    if x < -40.0:
        return 0.0
    return 1.0 / (1.0 + math.exp(-x))


@compiled
def forward(
    weights_in: np.ndarray,
    bias_in: np.ndarray,
    weights_out: np.ndarray,
    bias_out: np.ndarray,
    inputs: np.ndarray,
    active: np.ndarray,
    count: int,
    hidden: np.ndarray,
    outputs: np.ndarray,
) -> None:
    """The network's hidden units and outputs for encoded inputs (only ``active`` ones read)."""
    size = hidden.shape[0]
    for unit in range(size):
        hidden[unit] = bias_in[unit]
    for slot in range(count):
        index = active[slot]
        value = inputs[index]
        for unit in range(size):
            hidden[unit] += value * weights_in[index, unit]
    for unit in range(size):
        hidden[unit] = _sigmoid(hidden[unit])
    for output in range(OUTPUTS):
        total = bias_out[output]
        for unit in range(size):
            total += hidden[unit] * weights_out[unit, output]
        outputs[output] = _sigmoid(total)


@compiled
def equity(outputs: np.ndarray) -> float:
    """The cubeless money equity of five outputs for the side they are for."""
    value: float = 2.0 * outputs[0] - 1.0 + outputs[1] - outputs[3] + outputs[2] - outputs[4]
    return value


@compiled
def flip(outputs: np.ndarray, flipped: np.ndarray) -> None:
    """The five outputs for the other side: its win is our loss, its gammons our lost ones."""
    flipped[0] = 1.0 - outputs[0]
    flipped[1] = outputs[3]
    flipped[2] = outputs[4]
    flipped[3] = outputs[1]
    flipped[4] = outputs[2]


@compiled
def final_outputs(board: np.ndarray, outputs: np.ndarray) -> bool:
    """For a board just moved (row 0 moved, row 1 to roll): when the game is over, the exact
    outputs for row 1 (the loser) written and True; else False."""
    if board[0, OFF] < CHECKERS:
        return False
    won = points_won(board, 0)
    outputs[0] = 0.0
    outputs[1] = 0.0
    outputs[2] = 0.0
    outputs[3] = 1.0 if won >= 2 else 0.0
    outputs[4] = 1.0 if won == 3 else 0.0
    return True


@compiled
def structure(board: np.ndarray, side: int, exposure: float) -> float:
    """The hand-written evaluation's ``_structure`` for row ``side``: made points, the longest
    prime, blots weighted by the shots at them, checkers on the bar against a closed board."""
    other = 1 - side
    score = 0.0
    run = 0
    longest = 0
    for point in range(1, BAR):
        count = board[side, point]
        if count >= 2:
            score += POINT_VALUE[point]
            run += 1
            longest = max(longest, run)
        else:
            run = 0
            if count == 1:
                shots = SHOTS[point] if board[other, BAR] > 0 else 0
                for shooter in range(1, point):
                    if board[other, BAR - shooter] > 0:
                        shots += SHOTS[point - shooter]
                score -= exposure * min(shots, 36) / 36.0 * (BAR - point + HIT_EXTRA)
    score += PRIME_VALUE[longest]
    closed = 0
    for point in range(19, BAR):
        if board[other, BAR - point] >= 2:
            closed += 1
    value: float = score - board[side, BAR] * ENTER_PENALTY[closed]
    return value


@compiled
def hand_value(board: np.ndarray, side: int, on_roll: int) -> float:
    """The hand-written evaluation (``Backgammon.evaluate``) of ``board`` for row ``side``,
    row ``on_roll`` to roll, the game not over."""
    other = 1 - side
    mine = pips(board, side)
    theirs = pips(board, other)
    sign = 1.0 if on_roll == side else -1.0
    score = theirs - mine + TEMPO * sign
    if not in_contact(board):
        scale = 2.0 + RACE_SCALE * (mine + theirs) / 2.0
    else:
        score += structure(board, side, 0.25 if sign > 0 else 1.0)
        score -= structure(board, other, 0.25 if sign < 0 else 1.0)
        scale = CONTACT_SCALE
    lead = score / (abs(score) + scale)
    loser_off = board[other, OFF] if lead > 0 else board[side, OFF]
    gammons = 0.0 if loser_off else 1.0
    return lead * (1.0 + gammons * lead * lead)


@compiled
def swap_sides(board: np.ndarray) -> None:
    """Turn the board round: the side that moved becomes row 1, the side to roll row 0."""
    for point in range(26):
        kept = board[0, point]
        board[0, point] = board[1, point]
        board[1, point] = kept


@compiled
def value_after(
    child: np.ndarray,
    weights_in: np.ndarray,
    bias_in: np.ndarray,
    weights_out: np.ndarray,
    bias_out: np.ndarray,
    inputs: np.ndarray,
    active: np.ndarray,
    hidden: np.ndarray,
    outputs: np.ndarray,
) -> float:
    """The outputs of ``child`` (row 0 just moved) for row 1, to roll next, written to
    ``outputs`` (exact when the game is over), and row 0's equity returned."""
    if not final_outputs(child, outputs):
        count = encode(child, 1, inputs, active)
        forward(weights_in, bias_in, weights_out, bias_out, inputs, active, count, hidden, outputs)
    return -equity(outputs)


@compiled
def hand_after(child: np.ndarray) -> float:
    """The hand-written evaluation of ``child`` for row 0, which just moved."""
    if child[0, OFF] == CHECKERS:
        return float(points_won(child, 0))
    return hand_value(child, 0, 1)


@compiled
def roll_dice(rng: np.ndarray, opening: bool) -> tuple[int, int]:
    """A roll, larger die first; the opening roll's two dice differ (ties are rolled again)."""
    while True:
        first = die(rng)
        second = die(rng)
        if not opening or first != second:
            return max(first, second), min(first, second)


@compiled
def _trace_gradient(
    traces_in: np.ndarray,
    traces_bias_in: np.ndarray,
    traces_out: np.ndarray,
    traces_bias_out: np.ndarray,
    weights_out: np.ndarray,
    inputs: np.ndarray,
    active: np.ndarray,
    count: int,
    hidden: np.ndarray,
    outputs: np.ndarray,
    turn: int,
    decay: float,
) -> None:
    """Decay the traces by ``decay`` and add the gradient of the five quantities followed (the
    first mover's outputs) at the position just evaluated, whose side on roll moved ``turn``
    turns after the first mover (odd: the other side, its outputs flipped)."""
    size = hidden.shape[0]
    for quantity in range(OUTPUTS):
        for index in range(traces_in.shape[1]):
            for unit in range(size):
                traces_in[quantity, index, unit] *= decay
        for unit in range(size):
            traces_bias_in[quantity, unit] *= decay
            for output in range(OUTPUTS):
                traces_out[quantity, unit, output] *= decay
        for output in range(OUTPUTS):
            traces_bias_out[quantity, output] *= decay
    for quantity in range(OUTPUTS):
        output = quantity
        sign = 1.0
        if turn % 2 == 1:
            output = (0, 3, 4, 1, 2)[quantity]
            sign = -1.0 if quantity == 0 else 1.0
        slope = sign * outputs[output] * (1.0 - outputs[output])
        traces_bias_out[quantity, output] += slope
        for unit in range(size):
            traces_out[quantity, unit, output] += slope * hidden[unit]
            back = slope * weights_out[unit, output] * hidden[unit] * (1.0 - hidden[unit])
            traces_bias_in[quantity, unit] += back
            for slot in range(count):
                index = active[slot]
                traces_in[quantity, index, unit] += back * inputs[index]


@compiled
def _followed(outputs: np.ndarray, turn: int, followed: np.ndarray) -> None:
    """The first mover's five quantities from outputs of the side on roll ``turn`` turns on."""
    if turn % 2 == 0:
        for output in range(OUTPUTS):
            followed[output] = outputs[output]
    else:
        flip(outputs, followed)


@compiled
def _step_weights(
    weights_in: np.ndarray,
    bias_in: np.ndarray,
    weights_out: np.ndarray,
    bias_out: np.ndarray,
    traces_in: np.ndarray,
    traces_bias_in: np.ndarray,
    traces_out: np.ndarray,
    traces_bias_out: np.ndarray,
    errors: np.ndarray,
    alpha: float,
) -> None:
    """TD(lambda)'s step: every weight moves by ``alpha`` times the sum over the quantities of
    its trace times the quantity's temporal difference (``errors``)."""
    size = bias_in.shape[0]
    for quantity in range(OUTPUTS):
        step = alpha * errors[quantity]
        if step == 0.0:
            continue
        for index in range(weights_in.shape[0]):
            for unit in range(size):
                weights_in[index, unit] += step * traces_in[quantity, index, unit]
        for unit in range(size):
            bias_in[unit] += step * traces_bias_in[quantity, unit]
            for output in range(OUTPUTS):
                weights_out[unit, output] += step * traces_out[quantity, unit, output]
        for output in range(OUTPUTS):
            bias_out[output] += step * traces_bias_out[quantity, output]


@compiled
def best_play(
    count: int,
    children: np.ndarray,
    by_network: bool,
    weights_in: np.ndarray,
    bias_in: np.ndarray,
    weights_out: np.ndarray,
    bias_out: np.ndarray,
    inputs: np.ndarray,
    active: np.ndarray,
    hidden: np.ndarray,
    outputs: np.ndarray,
    best_outputs: np.ndarray,
) -> int:
    """The index of the child the mover values most, by the network (its outputs for the side
    to roll next left in ``best_outputs``) or by the hand-written evaluation; the first of
    equals."""
    best = 0
    best_value = -1e9
    for child in range(count):
        if by_network:
            value = value_after(
                children[child],
                weights_in,
                bias_in,
                weights_out,
                bias_out,
                inputs,
                active,
                hidden,
                outputs,
            )
        else:
            value = hand_after(children[child])
        if value > best_value:
            best_value = value
            best = child
            if by_network:
                for output in range(OUTPUTS):
                    best_outputs[output] = outputs[output]
    return best


@compiled
def _evaluate_on_roll(
    board: np.ndarray, net: tuple[np.ndarray, ...], scratch: tuple[np.ndarray, ...]
) -> int:
    """The network's outputs for row 0 of ``board``, to roll, in ``scratch``'s ``outputs``
    (its hidden units kept for the gradient); the number of active inputs."""
    weights_in, bias_in, weights_out, bias_out = net
    inputs, active, hidden, outputs = scratch[0], scratch[1], scratch[2], scratch[3]
    count = encode(board, 0, inputs, active)
    forward(weights_in, bias_in, weights_out, bias_out, inputs, active, count, hidden, outputs)
    return count


@compiled
def _choose(
    board: np.ndarray,
    high: int,
    low: int,
    by_network: bool,
    net: tuple[np.ndarray, ...],
    scratch: tuple[np.ndarray, ...],
    moves: tuple[np.ndarray, ...],
) -> int:
    """Play the roll on ``board`` by the mover's choice: the board becomes the chosen child
    turned round (the other side to roll); ``scratch``'s ``best`` holds the network's outputs
    for it. -1 when the plays overflow, else the number of plays."""
    out, digests, dice_used, stack, sources = moves
    count = plays(board, high, low, out, digests, dice_used, stack, sources)
    if count < 0:
        return -1
    weights_in, bias_in, weights_out, bias_out = net
    inputs, active, hidden, outputs, best = (
        scratch[0],
        scratch[1],
        scratch[2],
        scratch[3],
        scratch[4],
    )
    chosen = 0
    if count > 1 or by_network:
        chosen = best_play(
            count,
            out,
            by_network,
            weights_in,
            bias_in,
            weights_out,
            bias_out,
            inputs,
            active,
            hidden,
            outputs,
            best,
        )
    copy_board(board, out[chosen])
    swap_sides(board)
    return count


@compiled
def td_game(
    net: tuple[np.ndarray, ...],
    traces: tuple[np.ndarray, ...],
    scratch: tuple[np.ndarray, ...],
    moves: tuple[np.ndarray, ...],
    board: np.ndarray,
    rng: np.ndarray,
    alpha: float,
    lam: float,
) -> tuple[int, int]:
    """One game of self-play training by TD(lambda) (see the module's text): the network's
    weights learn in place. Returns (turns played, the first mover's points: +-1, 2 or 3; 0
    when abandoned or the plays overflowed)."""
    weights_in, bias_in, weights_out, bias_out = net
    traces_in, traces_bias_in, traces_out, traces_bias_out = traces
    inputs, active, hidden, outputs = scratch[0], scratch[1], scratch[2], scratch[3]
    best, followed, errors = scratch[4], scratch[5], scratch[6]
    start_board(board)
    count = _evaluate_on_roll(board, net, scratch)
    _followed(outputs, 0, followed)
    _trace_gradient(
        traces_in,
        traces_bias_in,
        traces_out,
        traces_bias_out,
        weights_out,
        inputs,
        active,
        count,
        hidden,
        outputs,
        0,
        0.0,
    )
    for turn in range(1, MAX_TURNS + 1):
        high, low = roll_dice(rng, turn == 1)
        if _choose(board, high, low, True, net, scratch, moves) < 0:
            return turn, 0
        over = board[1, OFF] == CHECKERS
        if over:
            _followed(best, turn, errors)
        else:
            count = _evaluate_on_roll(board, net, scratch)
            _followed(outputs, turn, errors)
        for quantity in range(OUTPUTS):
            errors[quantity] -= followed[quantity]
        _step_weights(
            weights_in,
            bias_in,
            weights_out,
            bias_out,
            traces_in,
            traces_bias_in,
            traces_out,
            traces_bias_out,
            errors,
            alpha,
        )
        if over:
            won = points_won(board, 1)
            return turn, won if turn % 2 == 1 else -won
        count = _evaluate_on_roll(board, net, scratch)
        _followed(outputs, turn, followed)
        _trace_gradient(
            traces_in,
            traces_bias_in,
            traces_out,
            traces_bias_out,
            weights_out,
            inputs,
            active,
            count,
            hidden,
            outputs,
            turn,
            lam,
        )
    return MAX_TURNS, 0


@compiled
def match_game(
    net: tuple[np.ndarray, ...],
    scratch: tuple[np.ndarray, ...],
    moves: tuple[np.ndarray, ...],
    board: np.ndarray,
    rng: np.ndarray,
    network_first: bool,
) -> int:
    """One game of the network (no search) against the hand-written evaluation (no search),
    the network moving first or second: the network's points (0 when abandoned)."""
    start_board(board)
    for turn in range(MAX_TURNS):
        high, low = roll_dice(rng, turn == 0)
        network_moves = (turn % 2 == 0) == network_first
        if _choose(board, high, low, network_moves, net, scratch, moves) < 0:
            return 0
        if board[1, OFF] == CHECKERS:
            won = points_won(board, 1)
            return won if network_moves else -won
    return 0


@compiled
def td_games(
    net: tuple[np.ndarray, ...],
    traces: tuple[np.ndarray, ...],
    scratch: tuple[np.ndarray, ...],
    moves: tuple[np.ndarray, ...],
    board: np.ndarray,
    rng: np.ndarray,
    alpha: float,
    lam: float,
    results: np.ndarray,
) -> int:
    """``len(results)`` games of :func:`td_game`, each one's first mover's points written to
    ``results``; the turns played in all."""
    turns = 0
    for game in range(results.shape[0]):
        played, points = td_game(net, traces, scratch, moves, board, rng, alpha, lam)
        turns += played
        results[game] = points
    return turns


@compiled
def match_games(
    net: tuple[np.ndarray, ...],
    scratch: tuple[np.ndarray, ...],
    moves: tuple[np.ndarray, ...],
    board: np.ndarray,
    rng: np.ndarray,
    results: np.ndarray,
) -> None:
    """Pairs of :func:`match_game` with the same dice, the network first then second: each
    game's points for the network written to ``results`` (of even length)."""
    for pair in range(results.shape[0] // 2):
        seed = rng[0]
        results[2 * pair] = match_game(net, scratch, moves, board, rng, True)
        rng[0] = seed
        results[2 * pair + 1] = match_game(net, scratch, moves, board, rng, False)
        next_random(rng)
