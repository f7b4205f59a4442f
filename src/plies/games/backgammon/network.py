"""Backgammon's learned evaluation: the TD-Gammon-style network of
:mod:`plies.games.backgammon.td_kernel`, its file, its self-play training and its games against
the hand-written evaluation (the learning curve's reference).

A network file is a NumPy ``.npz`` with the four weight arrays, the random generator's state
(so a stopped run goes on with the dice it would have rolled) and a JSON header: the format,
the game, the shape and the self-play games trained. The shipped network is
``network.npz`` beside this module (its command is in BENCHMARKS.md).
"""

from __future__ import annotations

import io
import json
import sys
import threading
import zipfile
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from plies.errors import CheckpointError
from plies.inputs import write_atomically

FORMAT = "plies-backgammon-td"
VERSION = 1
SHIPPED = Path(__file__).with_name("network.npz")
MAX_HIDDEN = 1024
MAX_GAMES = 10**9
"""The most self-play games one call trains, and the most a file may claim."""
_ARRAYS = ("weights_in", "bias_in", "weights_out", "bias_out")
_THREAD = threading.local()
"""Each thread's work space for :meth:`Network.outputs`."""


def _kernels() -> tuple[Any, Any]:
    from plies.games.backgammon import kernel, td_kernel

    return kernel, td_kernel


@dataclass
class Work:
    """The compiled code's work space for a network of ``hidden`` units: the plays of a roll,
    the inputs and units of one evaluation, the traces of TD(lambda)."""

    hidden: int
    moves: tuple[np.ndarray, ...] = field(init=False)
    scratch: tuple[np.ndarray, ...] = field(init=False)
    traces: tuple[np.ndarray, ...] = field(init=False)
    board: np.ndarray = field(init=False)

    def __post_init__(self) -> None:
        kernel, td = _kernels()
        size, inputs, outputs = self.hidden, td.INPUTS, td.OUTPUTS
        self.moves = (
            np.zeros((kernel.MOST_PLAYS, 2, 26), np.int8),
            np.zeros(kernel.MOST_PLAYS, np.int64),
            np.zeros(kernel.MOST_PLAYS, np.int64),
            np.zeros((kernel.STACK, 2, 26), np.int8),
            np.zeros((4, kernel.SOURCES + 2), np.int64),
        )
        self.scratch = (
            np.zeros(inputs),
            np.zeros(inputs, np.int64),
            np.zeros(size),
            *(np.zeros(outputs) for _ in range(4)),
        )
        self.traces = (
            np.zeros((outputs, inputs, size)),
            np.zeros((outputs, size)),
            np.zeros((outputs, size, outputs)),
            np.zeros((outputs, outputs)),
        )
        self.board = np.zeros((2, 26), np.int8)


@dataclass
class Network:
    """The weights of a TD-Gammon-style network, the games it was trained on and its dice."""

    weights_in: np.ndarray
    bias_in: np.ndarray
    weights_out: np.ndarray
    bias_out: np.ndarray
    games: int = 0
    rng: np.ndarray = field(default_factory=lambda: np.array([0x9E3779B97F4A7C15], np.uint64))
    source: str = "new"
    _work: Work | None = field(default=None, repr=False, compare=False)

    @classmethod
    def fresh(cls, hidden: int, seed: int) -> Network:
        """Small random weights (uniform within +-0.1) from ``seed``; the dice from it too."""
        if not 1 <= hidden <= MAX_HIDDEN:
            raise CheckpointError(f"a network has 1 to {MAX_HIDDEN} hidden units, not {hidden}")
        _, td = _kernels()
        draw = np.random.default_rng(seed)
        dice = np.array([draw.integers(1, 2**63)], np.uint64)
        return cls(
            draw.uniform(-0.1, 0.1, (td.INPUTS, hidden)),
            np.zeros(hidden),
            draw.uniform(-0.1, 0.1, (hidden, td.OUTPUTS)),
            np.zeros(td.OUTPUTS),
            rng=dice,
        )

    @property
    def hidden(self) -> int:
        return int(self.bias_in.shape[0])

    @property
    def arrays(self) -> tuple[np.ndarray, ...]:
        return (self.weights_in, self.bias_in, self.weights_out, self.bias_out)

    @property
    def work(self) -> Work:
        if self._work is None:
            self._work = Work(self.hidden)
        return self._work

    def train(self, games: int, alpha: float, lam: float) -> tuple[np.ndarray, int]:
        """Play ``games`` games of self-play, learning by TD(lambda) with step ``alpha`` and
        trace decay ``lam``: each game's first mover's points, and the turns played."""
        if not 0 <= games <= MAX_GAMES:
            raise CheckpointError(f"train 0 to {MAX_GAMES} games at a time, not {games}")
        _, td = _kernels()
        work = self.work
        results = np.zeros(games, np.int64)
        turns = td.td_games(
            self.arrays, work.traces, work.scratch, work.moves, work.board, self.rng,
            float(alpha), float(lam), results,
        )  # fmt: skip
        self.games += games
        return results, int(turns)

    def against_hand(self, pairs: int, seed: int) -> np.ndarray:
        """``pairs`` pairs of games against the hand-written evaluation, both without search,
        each pair's two games with the same dice (duplicate), the network first then second:
        the network's points per game."""
        _, td = _kernels()
        work = self.work
        results = np.zeros(2 * pairs, np.int64)
        dice = np.array([seed * 2 + 1], np.uint64)
        td.match_games(self.arrays, work.scratch, work.moves, work.board, dice, results)
        return results

    def outputs(self, board: np.ndarray) -> np.ndarray:
        """The five outputs for row 0 of ``board`` (a kernel board), to roll. Safe to call
        from several threads at once (each has its own work space)."""
        _, td = _kernels()
        scratch = getattr(_THREAD, "scratch", None)
        if scratch is None or scratch[2].shape[0] != self.hidden:
            scratch = _THREAD.scratch = Work(self.hidden).scratch
        inputs, active, hidden, outputs = scratch[:4]
        count = td.encode(board, 0, inputs, active)
        td.forward(*self.arrays, inputs, active, count, hidden, outputs)
        return outputs.copy()

    def save(self, path: Path) -> None:
        """Write the network atomically (see the module's text)."""
        header = {
            "format": FORMAT,
            "version": VERSION,
            "game": "backgammon",
            "hidden": self.hidden,
            "games": self.games,
        }
        buffer = io.BytesIO()
        arrays: dict[str, Any] = dict(zip(_ARRAYS, self.arrays, strict=True))
        arrays |= {"header": np.array(json.dumps(header)), "rng": self.rng}
        np.savez_compressed(buffer, **arrays)
        write_atomically(path, lambda file: file.write(buffer.getvalue()))


def load_network(path: Path) -> Network:
    """A network file, checked: its header, the game, the arrays' shapes, finite weights. A
    :class:`~plies.errors.CheckpointError` names what is wrong."""
    _, td = _kernels()
    name = str(path)
    try:
        with np.load(path, allow_pickle=False) as data:
            found = {key: data[key] for key in data.files}
    except FileNotFoundError:
        raise CheckpointError(f"{name!r}: no such network file") from None
    except (OSError, ValueError, zipfile.BadZipFile, EOFError) as error:
        raise CheckpointError(f"{name!r} is not a network file ({error})") from None
    try:
        header = json.loads(str(found["header"]))
    except (KeyError, ValueError):
        raise CheckpointError(f"{name!r} is not a plies network file (no header)") from None
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise CheckpointError(f"{name!r} is not a plies backgammon network file")
    if header.get("game") != "backgammon":
        raise CheckpointError(f"{name!r} is a network for {header.get('game')!r}, not backgammon")
    hidden, games = header.get("hidden"), header.get("games")
    if type(hidden) is not int or not 1 <= hidden <= MAX_HIDDEN:
        raise CheckpointError(f"{name!r}: its hidden size {hidden!r} is not 1 to {MAX_HIDDEN}")
    if type(games) is not int or not 0 <= games <= MAX_GAMES:
        raise CheckpointError(f"{name!r}: its games trained {games!r} is not a count")
    shapes = {
        "weights_in": (td.INPUTS, hidden),
        "bias_in": (hidden,),
        "weights_out": (hidden, td.OUTPUTS),
        "bias_out": (td.OUTPUTS,),
        "rng": (1,),
    }
    for key, shape in shapes.items():
        array = found.get(key)
        if array is None or array.shape != shape:
            got = "missing" if array is None else f"of shape {array.shape}"
            raise CheckpointError(f"{name!r}: {key} is {got}, not of shape {shape}")
        if key != "rng" and not np.all(np.isfinite(array)):
            raise CheckpointError(f"{name!r}: {key} holds weights that are not finite")
    weights_in, bias_in, weights_out, bias_out = (
        np.ascontiguousarray(found[key], np.float64) for key in _ARRAYS
    )
    rng = found["rng"].astype(np.uint64)
    return Network(weights_in, bias_in, weights_out, bias_out, games, rng, name)


@lru_cache(maxsize=1)
def shipped_network() -> Network:
    """The network shipped with plies (loaded once)."""
    network = load_network(SHIPPED)
    network.source = "shipped"
    return network


def shipped_or_none() -> Network | None:
    """The shipped network, or None after one line on stderr when its file cannot be used
    (the hand-written evaluation then plays on)."""
    try:
        return shipped_network()
    except CheckpointError as error:
        _warn_once(str(error))
        return None


@lru_cache(maxsize=8)
def _warn_once(message: str) -> None:
    print(f"plies: {message}; backgammon's hand-written evaluation plays instead", file=sys.stderr)


def side_board(
    points: tuple[int, ...], bar: tuple[int, int], off: tuple[int, int], side: int
) -> np.ndarray:
    """The kernel board of a position (White's points ``points``, White's checkers positive)
    with ``side`` (0 White, 1 Black) in row 0."""
    board = np.zeros((2, 26), np.int8)
    for row, colour in ((0, side), (1, 1 - side)):
        for point in range(1, 25):
            count = points[point - 1] if colour == 0 else -points[24 - point]
            board[row, point] = max(count, 0)
        board[row, 25] = bar[colour]
        board[row, 0] = off[colour]
    return board


def race_outputs(board: np.ndarray, outputs: np.ndarray) -> None:
    """Where every checker of both sides is home or off, put the bear-off databases' chance
    of winning in place of the network's (the exact two-sided one to 8 checkers a side, else
    the one-sided approximation: :mod:`plies.games.backgammon.bearoff`), and no gammons where
    the loser has borne off."""
    if board[:, 7:].any():
        return
    from plies.games.backgammon.bearoff import race_win_probability, two_sided_win

    mine, theirs = board[0, 1:7].tolist(), board[1, 1:7].tolist()
    exact = two_sided_win(mine, theirs)
    win = race_win_probability(mine, theirs) if exact is None else exact
    outputs[0] = win
    outputs[2] = outputs[4] = 0.0  # a backgammon needs a checker in the winner's home board
    outputs[1] = 0.0 if board[1, 0] else min(outputs[1], win)
    outputs[3] = 0.0 if board[0, 0] else min(outputs[3], 1.0 - win)


def learned_equity(board: np.ndarray, network: Network) -> float:
    """The cubeless equity of row 0 of ``board``, to roll: the network's, the bear-off
    database's where it applies."""
    outputs = network.outputs(board)
    race_outputs(board, outputs)
    return float(2 * outputs[0] - 1 + outputs[1] - outputs[3] + outputs[2] - outputs[4])
