"""The dispatch: the games' compiled rules behind one interface, the only place that names them.

A game describes its compiled rules as data (:class:`plies.capabilities.CompiledRules`);
:data:`KERNELS` maps its kernel's name to an id, which the searches keep in ``params[0]`` before
the game's own words. Each function here picks the game's kernel function by that id (Numba
calls a kernel only by a branch it can resolve when compiling) with one signature for every
game: a state is a row of int64 words (as many as its rules say), a move an int64 code.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from plies.compiled import NOT_OVER, compiled
from plies.games.checkers import kernel as _checkers_kernel
from plies.games.chess import kernel as _chess_kernel
from plies.games.connect4 import kernel as _connect4_kernel
from plies.games.othello import kernel as _othello_kernel
from plies.games.tictactoe import kernel as _tictactoe_kernel

CONNECT4, TICTACTOE, OTHELLO, CHECKERS, CHESS = 1, 2, 3, 4, 5
"""Kernel ids, ``params[0]``."""
KERNELS = {
    "connect4": CONNECT4,
    "tictactoe": TICTACTOE,
    "othello": OTHELLO,
    "checkers": CHECKERS,
    "chess": CHESS,
}
"""The kernels the compiled engine and MCTS run, by :attr:`CompiledRules.kernel
<plies.capabilities.CompiledRules.kernel>`."""
MAX_MOVES = 256
"""Room for one position's moves."""
ENDGAME_DISTANCE_BITS = _checkers_kernel.DISTANCE_BITS
ENDGAME_DISTANCE_MASK = (1 << ENDGAME_DISTANCE_BITS) - 1
ENDGAME_WIN, ENDGAME_DRAW = 1, 3
"""An endgame probe's answer (:func:`endgame`): the outcome for the mover above the distance
bits (1 win, 2 loss, 3 draw), the plies to the end below."""


@compiled
def moves(
    params: NDArray[np.int64],
    state: NDArray[np.int64],
    out: NDArray[np.int64],
    work: NDArray[np.int64],
) -> int:
    """The legal moves of ``state`` into ``out``, in the Python game's order; their count.
    ``work`` is space for the game's generator (of :attr:`CompiledRules.work
    <plies.capabilities.CompiledRules.work>`'s shape)."""
    game = params[0]
    if game == CONNECT4:
        return _connect4_kernel.native_moves(params, state, out)
    if game == TICTACTOE:
        return _tictactoe_kernel.native_moves(params, state, out)
    if game == OTHELLO:
        return _othello_kernel.native_moves(state, out)
    if game == CHESS:
        return _chess_kernel.legal_moves(state, out, work)
    return _checkers_kernel.native_moves(state, out, work)


@compiled
def play(
    params: NDArray[np.int64], state: NDArray[np.int64], move: int, child: NDArray[np.int64]
) -> None:
    """Write RESULT(state, move) into ``child``."""
    game = params[0]
    if game == CONNECT4:
        _connect4_kernel.native_play(params, state, move, child)
    elif game == TICTACTOE:
        _tictactoe_kernel.native_play(params, state, move, child)
    elif game == OTHELLO:
        _othello_kernel.native_play(state, move, child)
    elif game == CHESS:
        _chess_kernel.play(params, state, move, child)
    else:
        _checkers_kernel.native_play(state, move, child)


@compiled
def outcome(params: NDArray[np.int64], state: NDArray[np.int64]) -> int:
    """:data:`~plies.compiled.NOT_OVER`, or 1, -1, 0 when the game is over: the mover won,
    lost, drew."""
    game = params[0]
    if game == CONNECT4:
        return _connect4_kernel.native_outcome(params, state)
    if game == TICTACTOE:
        return _tictactoe_kernel.native_outcome(params, state)
    if game == OTHELLO:
        return _othello_kernel.native_outcome(state)
    if game == CHESS:
        return _chess_kernel.outcome(state)
    return _checkers_kernel.native_outcome(state)


@compiled
def lead(params: NDArray[np.int64], state: NDArray[np.int64]) -> float:
    """The mover's lead in (-1, 1), as the Python game's EVAL computes it before ``estimate``."""
    game = params[0]
    if game == CONNECT4:
        return _connect4_kernel.native_lead(params, state)
    if game == TICTACTOE:
        return _tictactoe_kernel.native_lead(params, state)
    if game == OTHELLO:
        return _othello_kernel.native_lead(params, state)
    if game == CHESS:
        return _chess_kernel.lead(params, state)
    return _checkers_kernel.native_lead(state)


@compiled
def key(params: NDArray[np.int64], state: NDArray[np.int64]) -> np.uint64:
    """The Python game's ``hash_key``."""
    game = params[0]
    if game == CONNECT4:
        return _connect4_kernel.native_key(state)
    if game == TICTACTOE:
        return _tictactoe_kernel.native_key(params, state)
    if game == OTHELLO:
        return _othello_kernel.native_key(state)
    if game == CHESS:
        return np.uint64(state[_chess_kernel.KEY])
    return _checkers_kernel.native_key(state)


@compiled
def mover(params: NDArray[np.int64], state: NDArray[np.int64]) -> int:
    """The player to move, 0 (the first player) or 1: the parity of Connect Four's stone count
    (its row's word 2), word 4 of a checkers row, bit 0 of chess's word 8, word 2 of the
    others' (read here: calling a function of each kernel for it slows the engine by some
    3%)."""
    game = params[0]
    if game == CONNECT4:
        return int(state[2] & 1)
    if game == CHESS:
        return int(state[_chess_kernel.INFO] & 1)
    return int(state[2] if game != CHECKERS else state[4])


@compiled
def is_capture(params: NDArray[np.int64], state: NDArray[np.int64], move: int) -> bool:
    """Whether ``move`` from ``state`` is one the Python game's ``is_capture`` marks: a capture
    of checkers or chess (a queen promotion too), whose rules declare noisy moves
    (:attr:`CompiledRules.noisy <plies.capabilities.CompiledRules.noisy>`); False in the other
    games."""
    if params[0] == CHESS:
        return _chess_kernel.is_noisy(state, move)
    return params[0] == CHECKERS and _checkers_kernel.native_is_capture(move)


@compiled
def wins_exchange(params: NDArray[np.int64], state: NDArray[np.int64], move: int) -> bool:
    """Whether the noisy ``move`` loses no material by static exchange evaluation, in a game
    whose rules declare it (:attr:`CompiledRules.exchange
    <plies.capabilities.CompiledRules.exchange>`: chess); True in the others."""
    return params[0] != CHESS or _chess_kernel.wins_exchange(state, move)


@compiled
def in_check(params: NDArray[np.int64], state: NDArray[np.int64]) -> bool:
    """Whether the mover is in check, in a game whose rules declare checks
    (:attr:`CompiledRules.checks <plies.capabilities.CompiledRules.checks>`: chess)."""
    return params[0] == CHESS and _chess_kernel.in_check(state)


@compiled
def pass_turn(
    params: NDArray[np.int64], state: NDArray[np.int64], child: NDArray[np.int64]
) -> bool:
    """Write the position with the turn passed (the Python game's ``null_move``) into
    ``child``; False where the game allows no pass there."""
    return params[0] == CHESS and _chess_kernel.pass_turn(state, child)


@compiled
def clock(params: NDArray[np.int64], state: NDArray[np.int64]) -> int:
    """Plies since the last irreversible move (chess's halfmove clock), in a game with
    repetitions: 0 means no earlier position can recur; -1 in the other games."""
    if params[0] == CHESS:
        return int(state[_chess_kernel.INFO] >> _chess_kernel.CLOCK_SHIFT & 1023)
    return -1


@compiled
def playout(params: NDArray[np.int64], state: NDArray[np.int64], seed: int) -> int:
    """The result for the mover (1, -1, 0) of uniformly random moves from the non-terminal
    ``state`` by the game's own compiled playout, for a game whose rules declare one
    (:attr:`CompiledRules.playout <plies.capabilities.CompiledRules.playout>`: Connect Four),
    from the random ``seed`` (odd); :data:`~plies.compiled.NOT_OVER` for another game."""
    if params[0] == CONNECT4:
        return int(
            _connect4_kernel.random_playout(
                state[0],
                state[1],
                params[_connect4_kernel.HEIGHT],
                params[_connect4_kernel.K],
                params[_connect4_kernel.BOTTOM],
                params[_connect4_kernel.BOARD],
                seed,
            )
        )
    return NOT_OVER


@compiled
def endgame(
    params: NDArray[np.int64],
    state: NDArray[np.int64],
    numbering: NDArray[np.int64],
    entries: NDArray[np.uint16],
) -> int:
    """The endgame tables' answer for ``state`` (``outcome << ENDGAME_DISTANCE_BITS |
    distance``), or -1 where they hold nothing for it (every game but checkers)."""
    if params[0] == CHECKERS:
        return int(_checkers_kernel.probe_row(state, numbering, entries))
    return -1
