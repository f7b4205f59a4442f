"""Connect Four: players drop stones into the columns of an upright 7 x 6 grid; a stone falls to
the lowest empty cell of its column. Whoever first lines up 4 of their stones in a row, column
or diagonal wins; a full grid with no such line is a draw. X moves first. Other sizes and line
lengths are options (``width``, ``height``, ``k``).

A move is its column, 1-based from the left (``4``); a position is the sequence of columns played
from the empty grid (``4453``), as in Pascal Pons's solver and its benchmark files. States do not
remember the move order, so two orders reaching the same grid are the same state (and the same
transposition-table key); :meth:`ConnectFour.format_position` writes a canonical sequence that
replays to the state (``3214`` and ``1234`` both come back as ``3412``).

>>> game = ConnectFour()
>>> state = game.parse_position("4453")
>>> game.to_move(state), [game.format_action(state, a) for a in game.actions(state)]
('X', ['4', '3', '5', '2', '6', '1', '7'])
>>> game.format_position(state)
'4453'
>>> print(game.display(game.result(state, 3)))
. . . . . . .
. . . . . . .
. . . . . . .
. . . X . . .
. . . O . . .
. . O X X . .
1 2 3 4 5 6 7
O to move
>>> game.winner(game.parse_position("1212121"))
'X'
"""

from __future__ import annotations

import functools
import random
from collections.abc import Sequence
from types import ModuleType
from typing import TYPE_CHECKING, NamedTuple

import numpy as np
from numpy.typing import NDArray

from plies.capabilities import BoardView, CompiledRules, Symmetry
from plies.errors import IllegalMoveError, InvalidPositionError, SpecError
from plies.game import Scoring, WinLossDrawGame
from plies.ladder import Ladder, Level
from plies.registry import SCORING, GameOption

if TYPE_CHECKING:
    from plies.games.connect4.solver import Connect4Solver

COLUMN_DIGITS = "123456789"
"""Column names, 1-based from the left; a board has at most 9 columns so each is one digit."""

MAX_BITS = 63
"""A bitboard needs ``width * (height + 1)`` bits and must fit a signed 64-bit integer."""

WIN_NEXT = 500
"""EVAL bonus for a win on the next move (the mover can complete a line at once)."""
THREAT = 4
"""EVAL bonus per threat: an empty cell that would complete a line for its side."""
GOOD_ROW = 4
"""Extra EVAL bonus for a threat on the side's good rows (odd rows for X, even for O, counted
from 1 at the bottom: zugzwang tends to hand those cells to their owner, Allis 1988)."""
CENTRE = 3
"""EVAL bonus per stone in the centre column(s)."""
SCALE = 64
"""A score s becomes the lead s / (|s| + SCALE), strictly inside (-1, 1)."""


class ConnectFourState(NamedTuple):
    """A Connect Four state as bitboards (Pascal Pons's layout, see :class:`ConnectFour`).

    ``current`` has the stones of the player to move, ``mask`` every stone, ``moves`` the number
    of stones and ``won`` whether the last mover completed a line; the last two follow from the
    first two, so equal grids give equal states.
    """

    current: int
    mask: int
    moves: int
    won: bool


class ConnectFour(WinLossDrawGame[ConnectFourState, int]):
    """Connect Four on a ``width`` x ``height`` grid, ``k`` in a row wins. Actions are column
    indices 0..width-1, ordered centre first (3, 2, 4, 1, 5, 0, 6 for width 7).

    Bitboards: cell (column c, row r from the bottom) is bit ``c * (height + 1) + r``; the bit
    above each column stays empty, so shifting a board never carries a line from one column
    into the next, and a line of k shows as k set bits spaced by 1 (vertical), ``height``,
    ``height + 1`` (horizontal) or ``height + 2`` (the diagonals).
    """

    name = "connect4"
    summary = "Connect Four: drop stones into columns, 4 in a row wins (7x6 by default)"
    options: tuple[GameOption, ...] = (
        GameOption.whole("width", 7, "columns"),
        GameOption.whole("height", 6, "rows"),
        GameOption.whole("k", 4, "stones in a row that win"),
        SCORING,
    )
    default_opponent = "engine:time=1"
    ladder = Ladder(
        (
            Level("Beginner", "engine:depth=1", "looks one move ahead"),
            Level("Novice", "engine:depth=2", "looks two moves ahead"),
            Level("Casual", "engine:depth=4", "looks four moves ahead"),
            Level("Club", "engine:depth=6", "looks six moves ahead"),
            Level("Strong", "engine:depth=8", "looks eight moves ahead"),
            Level("Expert", "engine:depth=12", "looks twelve moves ahead"),
            Level("Perfect", "perfect", "plays perfectly: the solver"),
        ),
        measure="mistakes",
    )
    players = ("X", "O")

    def __init__(
        self, width: int = 7, height: int = 6, k: int = 4, scoring: Scoring = Scoring.PLUS_MINUS
    ):
        if not 1 <= width <= len(COLUMN_DIGITS):
            raise SpecError(f"connect4: width={width} must be 1 to 9 (a column is one digit)")
        if height < 1:
            raise SpecError(f"connect4: height={height} must be at least 1")
        if width * (height + 1) > MAX_BITS:
            raise SpecError(
                f"connect4: a {width}x{height} board needs width * (height + 1) = "
                f"{width * (height + 1)} bits; at most {MAX_BITS} fit"
            )
        if not 1 <= k <= max(width, height):
            raise SpecError(f"connect4: k={k} must be between 1 and {max(width, height)}")
        self.width, self.height, self.k, self.scoring = width, height, k, scoring
        stride = height + 1
        self._columns = [((1 << height) - 1) << (c * stride) for c in range(width)]
        self._tops = [1 << (c * stride + height - 1) for c in range(width)]
        self._bottoms = [1 << (c * stride) for c in range(width)]
        self._bottom = sum(self._bottoms)
        self._board = self._bottom * ((1 << height) - 1)
        self._good_rows = (  # odd rows counted from 1 at the bottom, X's good rows
            self._bottom * sum(1 << r for r in range(0, height, 2))
        )
        middle = [(width - 1) // 2, width // 2]
        self._centre = sum(self._columns[c] for c in set(middle))
        self._order = [width // 2 + (i + 1) // 2 * (1 if i % 2 == 0 else -1) for i in range(width)]
        self._runs = [_run_shifts(step, k) for step in (1, height, stride, stride + 1)]
        self._windows = _windows(width, height, k)
        bits = np.array([[c * stride + r for c in range(width)] for r in reversed(range(height))])
        self._bit_index: NDArray[np.intp] = np.stack((bits, bits + 64))  # theirs: 64..
        mirror = tuple(range(width))[::-1]
        self._symmetries = (
            Symmetry(tuple(range(width * height)), tuple(range(width))),
            Symmetry(tuple(row * width + c for row in range(height) for c in mirror), mirror),
        )
        self._playout_payoffs = {  # (kernel result: 1 the mover wins, -1 loses, 0 draw; mover)
            (result, mover): tuple(scoring.utility(winner, p) for p in self.players)
            for mover, other in (self.players, self.players[::-1])
            for result, winner in ((1, mover), (-1, other), (0, None))
        }

    def __repr__(self) -> str:
        return f"ConnectFour(width={self.width}, height={self.height}, k={self.k})"

    def board_view(self) -> BoardView:
        """The board for the web pages (:mod:`plies.games.connect4.view`)."""
        from plies.games.connect4.view import ConnectFourView

        return ConnectFourView(self)

    def initial_state(self) -> ConnectFourState:
        return ConnectFourState(0, 0, 0, False)

    def to_move(self, state: ConnectFourState) -> str:
        return self.players[state.moves & 1]

    def actions(self, state: ConnectFourState) -> Sequence[int]:
        if state.won:
            return []
        return [c for c in self._order if not state.mask & self._tops[c]]

    def result(self, state: ConnectFourState, action: int) -> ConnectFourState:
        current, mask = state.current, state.mask
        if state.won or not 0 <= action < self.width or mask & self._tops[action]:
            raise IllegalMoveError(f"move {action} is not legal in this position")
        stone = (mask + self._bottoms[action]) & self._columns[action]
        return ConnectFourState(
            current ^ mask, mask | stone, state.moves + 1, self._aligned(current | stone)
        )

    def is_terminal(self, state: ConnectFourState) -> bool:
        return state.won or state.moves == self.width * self.height

    def winner(self, state: ConnectFourState) -> str | None:
        """The last mover if it completed a line, else None."""
        return self.players[(state.moves - 1) & 1] if state.won else None

    def hash_key(self, state: ConnectFourState) -> int:
        """Pons's key ``current + mask``, below 2**63 and unique per state: adding the constant
        bottom row would give the mover's stones plus a marker bit above each column's top."""
        return state.current + state.mask

    def perft(self, state: ConnectFourState, depth: int) -> int:
        """Move paths of exactly ``depth`` plies (a finished game contributes nothing), counted
        by the compiled kernel; the last ply is counted in bulk (the playable columns)."""
        if depth < 0:
            raise SpecError(f"perft depth must be at least 0, got {depth}")
        if depth == 0:
            return 1
        if self.is_terminal(state):
            return 0
        from plies.games.connect4 import (
            kernel as _connect4_kernel,  # Numba loads only when a count is asked for
        )

        return int(
            _connect4_kernel.perft(
                state.current, state.mask, depth, self.height, self.k, self._bottom, self._board
            )
        )

    def perfect_solver(self) -> Connect4Solver | None:
        """Pons's solver (:class:`~plies.games.connect4.solver.Connect4Solver`) for four in a row on
        boards up to its height limit, else None."""
        from plies.games.connect4.solver import MAX_HEIGHT, Connect4Solver

        if self.k != 4 or self.height > MAX_HEIGHT:
            return None
        return Connect4Solver(self)

    def compiled_rules(self) -> CompiledRules:
        """These rules and EVAL as :mod:`plies.games.connect4.kernel` reads them (``params`` in
        its layout), with its random playout."""
        from plies.games.connect4 import kernel

        params = [0] * kernel.ORDER + self._order + self._windows
        params[kernel.WINDOWS] = len(self._windows)
        values = (self.width, self.height, self.k, self._bottom, self._board, self._centre)
        params[kernel.WIDTH : kernel.CENTRE + 1] = values
        params[kernel.GOOD_ROWS : kernel.SCALE + 1] = (
            self._good_rows,
            THREAT,
            GOOD_ROW,
            CENTRE,
            WIN_NEXT,
            SCALE,
        )
        cells = self.width * self.height
        return CompiledRules(
            "connect4",
            _compiled_row,
            tuple(params[1:]),  # params[0] is the kernel's id
            playout=True,
            longest=cells,
            moves=self.width,
        )

    def random_playout(self, state: ConnectFourState, rng: random.Random) -> tuple[float, ...]:
        """The utilities (in the order of :attr:`players`) at the end of a game of uniformly
        random moves from ``state``, played by the compiled kernel: MCTS's default simulation.
        ``rng`` seeds the kernel's generator, so the same ``rng`` state plays the same game."""
        if self.is_terminal(state):
            return self.payoffs(state)
        result = _kernel().random_playout(
            state.current,
            state.mask,
            self.height,
            self.k,
            self._bottom,
            self._board,
            rng.getrandbits(63) | 1,
        )
        return self._playout_payoffs[result, self.to_move(state)]

    def evaluate(self, state: ConnectFourState, player: str) -> float:
        """EVAL: open lines weighted by the square of their stones, threats (more on the side's
        good rows), centre stones and an immediate win or double threat, strictly between the
        loss and win utilities."""
        if self.is_terminal(state):
            return self.utility(state, player)
        lead = self._mover_lead(state)
        return self.estimate(lead if player == self.to_move(state) else -lead, player)

    def _mover_lead(self, state: ConnectFourState) -> float:
        """The lead in (-1, 1) of the player to move in a non-terminal state."""
        mine, theirs, mask = state.current, state.current ^ state.mask, state.mask
        score, my_threats, their_threats = 0, 0, 0
        for window in self._windows:
            own, other = (mine & window).bit_count(), (theirs & window).bit_count()
            if other == 0:
                score += own * own
                if own == self.k - 1:
                    my_threats |= window & ~mask
            if own == 0:
                score -= other * other
                if other == self.k - 1:
                    their_threats |= window & ~mask
        my_rows, their_rows = self._good_rows, self._board ^ self._good_rows
        if self.to_move(state) == "O":
            my_rows, their_rows = their_rows, my_rows
        score += THREAT * (my_threats.bit_count() - their_threats.bit_count())
        score += GOOD_ROW * ((my_threats & my_rows).bit_count())
        score -= GOOD_ROW * ((their_threats & their_rows).bit_count())
        score += CENTRE * ((mine & self._centre).bit_count() - (theirs & self._centre).bit_count())
        playable = (mask + self._bottom) & self._board
        if my_threats & playable:
            score += WIN_NEXT
        elif (their_threats & playable).bit_count() >= 2:
            score -= WIN_NEXT
        return score / (abs(score) + SCALE)

    def _aligned(self, stones: int) -> bool:
        """Whether ``stones`` hold k in a row."""
        for shifts in self._runs:
            runs = stones
            for shift in shifts:
                runs &= runs >> shift
            if runs:
                return True
        return False

    # Tensor encoding -------------------------------------------------------------------------

    def tensor_shape(self) -> tuple[int, int, int]:
        """Two planes (the mover's stones, the opponent's) of height rows and width columns."""
        return 2, self.height, self.width

    def action_count(self) -> int:
        """One policy entry per column."""
        return self.width

    def encode(self, state: ConnectFourState) -> NDArray[np.float32]:
        """The mover's stones (plane 0) and the opponent's (plane 1) as 1.0, the top row of the
        grid first: both bitboards unpacked to bits at once, then gathered into the grid."""
        other = state.current ^ state.mask
        raw = state.current.to_bytes(8, "little") + other.to_bytes(8, "little")
        bits = np.unpackbits(np.frombuffer(raw, dtype=np.uint8), bitorder="little")
        return bits[self._bit_index].astype(np.float32)

    def action_index(self, state: ConnectFourState, action: int) -> int:
        """The column itself; raises :class:`IllegalMoveError` for no column."""
        if not 0 <= action < self.width:
            raise IllegalMoveError(f"move {action} is not a column 0 to {self.width - 1}")
        return action

    def index_action(self, state: ConnectFourState, index: int) -> int:
        """The column itself; raises :class:`IllegalMoveError` for no column."""
        return self.action_index(state, index)

    def symmetries(self) -> Sequence[Symmetry]:
        """Identity and the left-right mirror (columns reversed, cells and actions alike)."""
        return self._symmetries

    # Notation --------------------------------------------------------------------------------

    def format_action(self, state: ConnectFourState, action: int) -> str:
        return COLUMN_DIGITS[action]

    def parse_action(self, state: ConnectFourState, text: str) -> int:
        """A column number ``1``..``width``; raises :class:`IllegalMoveError`."""
        word = text.strip()
        if not (word.isascii() and word.isdigit()):
            raise IllegalMoveError(f"move {word!r} is not a column number 1 to {self.width}")
        column = int(word)
        if not 1 <= column <= self.width:
            raise IllegalMoveError(
                f"move {word!r}: there is no column {column} (columns 1 to {self.width})"
            )
        if self.is_terminal(state):
            raise IllegalMoveError(f"move {word!r}: the game is over")
        if state.mask & self._tops[column - 1]:
            raise IllegalMoveError(f"move {word!r}: column {column} is full")
        return column - 1

    def can_draw(self) -> bool:
        return True

    def format_position(self, state: ConnectFourState) -> str:
        """A canonical column string that replays to ``state``: of all such strings, the one
        smallest in dictionary order when read backwards (found by taking stones back off the
        grid, leftmost column first), so a won game ends with its winning move."""
        sequence = self._unplay(state.current, state.mask, set())
        if sequence is None:
            raise InvalidPositionError(f"state {state} cannot be reached by legal play")
        return "".join(COLUMN_DIGITS[c] for c in sequence)

    def _unplay(self, current: int, mask: int, dead_ends: set[int]) -> list[int] | None:
        """Columns from the empty grid to the grid ``mask`` (``current``: the stones of the player
        to move) through unfinished games, or None; ``dead_ends`` holds sub-grids with none."""
        if not mask:
            return []
        last = current ^ mask  # the stones of the player who moved last
        for column in range(self.width):
            stones = mask & self._columns[column]
            top = 1 << (stones.bit_length() - 1) if stones else 0
            before = mask ^ top
            if not last & top or before in dead_ends or self._aligned(last ^ top):
                continue  # not the last mover's stone, or that player had already won before
            sequence = self._unplay(last ^ top, before, dead_ends)
            if sequence is not None:
                sequence.append(column)
                return sequence
            dead_ends.add(before)
        return None

    def parse_position(self, text: str) -> ConnectFourState:
        """The columns played from the empty grid, 1-based (``4453``); the empty string is the
        start. Raises :class:`InvalidPositionError` naming the first bad move."""
        state = self.initial_state()
        for index, char in enumerate(text.strip(), start=1):
            if char not in COLUMN_DIGITS[: self.width]:
                raise InvalidPositionError(
                    f"position {text!r}: move {index} {char!r} is not a column 1 to {self.width}"
                )
            column = COLUMN_DIGITS.index(char)
            if self.is_terminal(state):
                ending = f"{self.winner(state)} won" if state.won else "the grid is full"
                raise InvalidPositionError(
                    f"position {text!r}: move {index} ({char}) comes after the game ended "
                    f"({ending})"
                )
            if state.mask & self._tops[column]:
                raise InvalidPositionError(
                    f"position {text!r}: move {index} ({char}) overflows column {char}, "
                    f"which is full"
                )
            state = self.result(state, column)
        return state

    def display(self, state: ConnectFourState) -> str:
        """The grid from the top row down, column numbers under it, then who is to move."""
        mover = self.to_move(state)
        stones = {0: ".", 1: self.opponent(mover), 3: mover}  # mask bit + 2 * current bit
        rows = [
            " ".join(
                stones[(state.mask >> bit & 1) + 2 * (state.current >> bit & 1)]
                for bit in range(row, self.width * (self.height + 1), self.height + 1)
            )
            for row in reversed(range(self.height))
        ]
        rows.append(" ".join(COLUMN_DIGITS[: self.width]))
        if state.won:
            rows.append(f"game over: {self.winner(state)} wins")
        elif self.is_terminal(state):
            rows.append("game over: a draw")
        else:
            rows.append(f"{mover} to move")
        return "\n".join(rows)


@functools.cache
def _kernel() -> ModuleType:
    """The compiled kernel, imported once (Numba loads only when a playout is asked for)."""
    from plies.games.connect4 import kernel as _connect4_kernel

    return _connect4_kernel


def _compiled_row(state: ConnectFourState) -> tuple[int, int, int, int]:
    return state.current, state.mask, state.moves, int(state.won)


def count_positions(game: ConnectFour, depth: int) -> int:
    """The distinct positions reached after exactly ``depth`` plies (OEIS A212693 for 7 x 6):
    a breadth-first walk that keeps one state per grid, whatever the move order."""
    layer = {game.initial_state()}
    for _ in range(depth):
        layer = {game.result(s, a) for s in layer for a in game.actions(s)}
    return len(layer)


def _run_shifts(step: int, k: int) -> list[int]:
    """Shifts that turn a bitboard into the start bits of its runs of k (spaced by ``step``):
    ``runs &= runs >> shift`` for each, doubling the run length and then topping it up."""
    shifts, length = [], 1
    while 2 * length <= k:
        shifts.append(length * step)
        length *= 2
    if length < k:
        shifts.append((k - length) * step)
    return shifts


def _windows(width: int, height: int, k: int) -> list[int]:
    """Every line of k cells on the grid, as a bitboard."""
    windows = set()
    for column in range(width):
        for row in range(height):
            for dc, dr in ((0, 1), (1, 0), (1, 1), (1, -1)):
                end_column, end_row = column + dc * (k - 1), row + dr * (k - 1)
                if 0 <= end_column < width and 0 <= end_row < height:
                    cells = [(column + dc * i, row + dr * i) for i in range(k)]
                    windows.add(sum(1 << (c * (height + 1) + r) for c, r in cells))
    return sorted(windows)
