"""Tic-tac-toe generalised to an m x n board with k in a row (the m,n,k-game); 3,3,3 by default.

X moves first. Moves are written ``b2`` (column letter, row number from the top) or as the cell
number 1..m*n in reading order; positions as rows of ``X``, ``O`` and ``.`` separated by ``/``:

>>> game = TicTacToe()
>>> state = game.parse_position("XO./.X./...")
>>> game.to_move(state), game.format_action(state, 8)
('O', 'c3')
>>> game.utility(game.result(game.result(state, 6), 8), "X")
1
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import numpy as np
from numpy.typing import NDArray

from plies.capabilities import BoardView, CompiledRules, Symmetry
from plies.errors import IllegalMoveError, InvalidPositionError, SpecError
from plies.game import Scoring, WinLossDrawGame
from plies.games.grid import grid_symmetries
from plies.ladder import Anchor, Ladder, Level
from plies.registry import SCORING, GameOption

EMPTY = "."
_DIGITS = str.maketrans(".XO", "012")


class Board(NamedTuple):
    """A tic-tac-toe state: cells in reading order, the mover, and the winner if any."""

    cells: str
    to_move: str
    winner: str | None


class TicTacToe(WinLossDrawGame[Board, int]):
    """The m,n,k-game: m rows, n columns, k in a row wins. Actions are cell indices."""

    name = "tictactoe"
    summary = "m x n tic-tac-toe with k in a row (3x3x3 by default)"
    options: tuple[GameOption, ...] = (
        GameOption.whole("m", 3, "rows"),
        GameOption.whole("n", 3, "columns"),
        GameOption.whole("k", 3, "marks in a row that win"),
        SCORING,
    )
    default_opponent = "alphabeta"
    ladder = Ladder(
        (
            Level("Beginner", "mcts:iterations=3", "tries 3 random games a move"),
            Level("Novice", "mcts:iterations=10", "tries 10 random games a move"),
            Level("Casual", "mcts:iterations=30", "tries 30 random games a move"),
            Level("Club", "mcts:iterations=100", "tries 100 random games a move"),
            Level("Perfect", "alphabeta", "plays perfectly: searches to the end"),
        ),
        anchor=Anchor("random play", "random", 0, "random play = 0", meets=(1,)),
    )
    opening_plies = 1
    players = ("X", "O")

    def __init__(self, m: int = 3, n: int = 3, k: int = 3, scoring: Scoring = Scoring.PLUS_MINUS):
        if not 1 <= m <= 26 or not 1 <= n <= 26:
            raise SpecError(f"tictactoe: board {m}x{n} must have 1 to 26 rows/columns")
        if not 1 <= k <= max(m, n):
            raise SpecError(f"tictactoe: k={k} must be between 1 and {max(m, n)}")
        self.m, self.n, self.k, self.scoring = m, n, k, scoring
        self.lines = _lines(m, n, k)
        self.lines_through: list[list[tuple[int, ...]]] = [[] for _ in range(m * n)]
        for line in self.lines:
            for cell in line:
                self.lines_through[cell].append(line)
        self._marks = {player: _mark_table(player, other) for player, other in ("XO", "OX")}
        self._symmetries = tuple(Symmetry(cells, cells) for cells in grid_symmetries(m, n))

    def __repr__(self) -> str:
        return f"TicTacToe(m={self.m}, n={self.n}, k={self.k})"

    def board_view(self) -> BoardView:
        """The board for the web pages (:mod:`plies.games.tictactoe.view`)."""
        from plies.games.tictactoe.view import TicTacToeView

        return TicTacToeView(self, grid=self, empty=EMPTY)

    def initial_state(self) -> Board:
        return Board(EMPTY * (self.m * self.n), "X", None)

    def to_move(self, state: Board) -> str:
        return state.to_move

    def actions(self, state: Board) -> Sequence[int]:
        if state.winner is not None:
            return []
        return [i for i, c in enumerate(state.cells) if c == EMPTY]

    def result(self, state: Board, action: int) -> Board:
        cells, player = state.cells, state.to_move
        if state.winner is not None or not 0 <= action < len(cells) or cells[action] != EMPTY:
            raise IllegalMoveError(f"move {action} is not legal in this position")
        cells = cells[:action] + player + cells[action + 1 :]
        won = any(all(cells[i] == player for i in line) for line in self.lines_through[action])
        return Board(cells, "O" if player == "X" else "X", player if won else None)

    def is_terminal(self, state: Board) -> bool:
        return state.winner is not None or EMPTY not in state.cells

    def winner(self, state: Board) -> str | None:
        return state.winner

    def hash_key(self, state: Board) -> int:
        """The cells read as a base-3 number (. 0, X 1, O 2), doubled, plus 1 when O moves:
        distinct for distinct states, and the same in every process (unlike ``hash`` of text)."""
        return int(state.cells.translate(_DIGITS), 3) * 2 + (state.to_move == "O")

    def evaluate(self, state: Board, player: str) -> float:
        """EVAL: lines still open to each side, weighted by marks in them, strictly between the
        loss and win utilities."""
        if self.is_terminal(state):
            return self.utility(state, player)
        opponent = self.opponent(player)
        score = 0
        for line in self.lines:
            marks = [state.cells[i] for i in line]
            if opponent not in marks:
                score += marks.count(player) ** 2
            if player not in marks:
                score -= marks.count(opponent) ** 2
        return self.estimate(score / (len(self.lines) * self.k * self.k + 1), player)

    def compiled_rules(self) -> CompiledRules | None:
        """These rules and EVAL as :mod:`plies.games.tictactoe.kernel` reads them, for boards of
        at most 39 cells (whose keys fit 64 bits); else None."""
        from plies.games.tictactoe import kernel

        cells = self.m * self.n
        if cells > kernel.MAX_CELLS:
            return None
        lines = [sum(1 << cell for cell in line) for line in self.lines]
        denominator = len(self.lines) * self.k * self.k + 1
        params = (cells, len(lines), denominator, *lines)
        return CompiledRules("tictactoe", _compiled_row, params, longest=cells, moves=cells)

    # Tensor encoding -------------------------------------------------------------------------

    def tensor_shape(self) -> tuple[int, int, int]:
        """Two planes (the mover's marks, the opponent's) of m rows and n columns."""
        return 2, self.m, self.n

    def action_count(self) -> int:
        """One policy entry per cell."""
        return self.m * self.n

    def encode(self, state: Board) -> NDArray[np.float32]:
        """The mover's marks (plane 0) and the opponent's (plane 1) as 1.0, rows from the top."""
        codes = np.frombuffer(state.cells.encode("ascii"), dtype=np.uint8)
        return self._marks[state.to_move][:, codes].reshape(2, self.m, self.n)

    def action_index(self, state: Board, action: int) -> int:
        """The cell itself; raises :class:`IllegalMoveError` off the board."""
        if not 0 <= action < self.m * self.n:
            raise IllegalMoveError(f"move {action} is not a cell of the {self.m}x{self.n} board")
        return action

    def index_action(self, state: Board, index: int) -> int:
        """The cell itself; raises :class:`IllegalMoveError` off the board."""
        return self.action_index(state, index)

    def symmetries(self) -> Sequence[Symmetry]:
        """The board's 8 symmetries when square, else its 4 (identity, left-right mirror,
        top-bottom mirror, half turn); identity first. Cells and actions permute alike."""
        return self._symmetries

    # Notation --------------------------------------------------------------------------------

    def format_action(self, state: Board, action: int) -> str:
        row, column = divmod(action, self.n)
        return f"{chr(ord('a') + column)}{row + 1}"

    def parse_action(self, state: Board, text: str) -> int:
        """``b2`` or a cell number ``1``..``m*n``; raises :class:`IllegalMoveError`."""
        word = text.strip().lower()
        cell: int | None = None
        if word.isdigit():
            cell = int(word) - 1 if 1 <= int(word) <= self.m * self.n else None
        elif len(word) >= 2 and word[0].isalpha() and word[1:].isdigit():
            column, row = ord(word[0]) - ord("a"), int(word[1:]) - 1
            if 0 <= column < self.n and 0 <= row < self.m:
                cell = row * self.n + column
        if cell is None:
            raise IllegalMoveError(
                f"move {text.strip()!r} is not a square of the {self.m}x{self.n} board"
            )
        if self.is_terminal(state):
            raise IllegalMoveError(f"move {text.strip()!r}: the game is over")
        if state.cells[cell] != EMPTY:
            raise IllegalMoveError(f"move {text.strip()!r}: that square is taken")
        return cell

    def can_draw(self) -> bool:
        return True

    def format_position(self, state: Board) -> str:
        return "/".join(state.cells[r * self.n : (r + 1) * self.n] for r in range(self.m))

    def parse_position(self, text: str) -> Board:
        """Rows of X, O and . (or -, _) from the top, optionally separated by ``/``."""
        cells = "".join(text.split()).replace("/", "").upper().replace("-", ".").replace("_", ".")
        if len(cells) != self.m * self.n:
            raise InvalidPositionError(
                f"position {text!r} has {len(cells)} squares; the board has {self.m * self.n}"
            )
        bad = set(cells) - {"X", "O", EMPTY}
        if bad:
            raise InvalidPositionError(
                f"position {text!r} has {sorted(bad)[0]!r}; use X, O and . for empty"
            )
        xs, os = cells.count("X"), cells.count("O")
        if xs not in (os, os + 1):
            raise InvalidPositionError(
                f"position {text!r} has {xs} X and {os} O; X moves first, so X = O or O + 1"
            )
        x_won = any(all(cells[i] == "X" for i in line) for line in self.lines)
        o_won = any(all(cells[i] == "O" for i in line) for line in self.lines)
        if x_won and o_won:
            raise InvalidPositionError(f"position {text!r}: both X and O have {self.k} in a row")
        if (x_won and xs != os + 1) or (o_won and xs != os):
            raise InvalidPositionError(f"position {text!r}: a move was played after the win")
        winner = "X" if x_won else "O" if o_won else None
        return Board(cells, "X" if xs == os else "O", winner)

    def display(self, state: Board) -> str:
        header = "   " + " ".join(chr(ord("a") + c) for c in range(self.n))
        rows = [
            f"{r + 1:>2} " + " ".join(state.cells[r * self.n : (r + 1) * self.n])
            for r in range(self.m)
        ]
        return "\n".join([header, *rows])


def _compiled_row(state: Board) -> tuple[int, int, int, int]:
    """(X's cells, O's cells, mover, winner) as the compiled rules keep a state."""
    xs = sum(1 << i for i, cell in enumerate(state.cells) if cell == "X")
    os = sum(1 << i for i, cell in enumerate(state.cells) if cell == "O")
    winner = {None: 0, "X": 1, "O": 2}[state.winner]
    return xs, os, int(state.to_move == "O"), winner


def _mark_table(mover: str, other: str) -> NDArray[np.float32]:
    """A (2, 256) table: column ``ord(c)`` is the planes' entries for a cell holding ``c``."""
    table = np.zeros((2, 256), dtype=np.float32)
    table[0, ord(mover)] = table[1, ord(other)] = 1.0
    return table


def _lines(m: int, n: int, k: int) -> list[tuple[int, ...]]:
    """Every run of k cells in a row, column or diagonal of an m x n board."""
    lines = []
    for row in range(m):
        for col in range(n):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                end_row, end_col = row + dr * (k - 1), col + dc * (k - 1)
                if 0 <= end_row < m and 0 <= end_col < n:
                    lines.append(tuple((row + dr * i) * n + col + dc * i for i in range(k)))
    return sorted(set(lines))
