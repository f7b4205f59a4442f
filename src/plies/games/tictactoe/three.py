"""Three-player tic-tac-toe: X, O and Y take turns on an m x n board, k in a row wins.

The first player to make k in a row wins; a full board without one is a draw. Utilities are
1 for the winner and 0 for the others, 1/3 each for a draw, so they always sum to 1: the game
is constant-sum, which is what :attr:`~plies.game.Game.zero_sum` means in plies, and max^n and
the paranoid search (:mod:`plies.search.maxn`) both apply.

The default board is 4x4 with 3 in a row. 3x3 is too small to be interesting: solved, it is a
draw under max^n, and even the paranoid X (every other player against it) draws. On 4x4 every
player has five or six moves and room for two threats at once, the only way to win against two
blockers who each move before the threatening player moves again, and games are decided:
max^n searching 3 plies for every player, from a random first move, X won 6 of 10 games and
drew the rest. It stays small enough for ``maxn:depth=4`` to answer in about a second from the
empty board (47,297 nodes); 5x5 needs 318,026 for the same depth.

Moves and positions are written as in :mod:`plies.games.tictactoe.rules`: ``b2`` (column letter,
row number from the top) or the cell number 1..m*n; positions as rows of ``X``, ``O``, ``Y``
and ``.`` separated by ``/``. The mover follows from the counts of marks.

>>> game = TicTacToe3(3, 3, 3)
>>> state = game.parse_position("XOY/XOY/...")
>>> game.to_move(state), game.format_action(state, 6)
('X', 'a3')
>>> game.payoffs(game.result(state, 6))
(1, 0, 0)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from functools import lru_cache

from plies.capabilities import BoardView
from plies.errors import IllegalMoveError, InvalidPositionError, SpecError
from plies.game import Game
from plies.games.tictactoe.rules import EMPTY, Board, TicTacToe
from plies.registry import GameOption

PLAYERS = ("X", "O", "Y")
DRAW_UTILITY = 1 / 3
LINE_WEIGHT_BASE = 4
"""An open line with j of a player's marks is worth ``LINE_WEIGHT_BASE ** j`` to that player."""


class TicTacToe3(Game[Board, int]):
    """Three-player m,n,k-game: X, O, Y in turn; m rows, n columns, k in a row wins.

    Actions are cell indices in reading order. The board's lines and the move and position
    notation are those of the two-player :class:`~plies.games.tictactoe.TicTacToe` of the same
    size, kept in :attr:`grid`.
    """

    name = "tictactoe3"
    summary = "three-player m x n tic-tac-toe (X, O, Y) with k in a row (4x4x3 by default)"
    options: tuple[GameOption, ...] = (
        GameOption.whole("m", 4, "rows"),
        GameOption.whole("n", 4, "columns"),
        GameOption.whole("k", 3, "marks in a row that win"),
    )
    default_opponent = "maxn:depth=4"
    players = PLAYERS
    zero_sum = True
    value_bounds = (0.0, 1.0)

    def __init__(self, m: int = 4, n: int = 4, k: int = 3):
        if not 1 <= m <= 26 or not 1 <= n <= 26:
            raise SpecError(f"tictactoe3: board {m}x{n} must have 1 to 26 rows/columns")
        if not 1 <= k <= max(m, n):
            raise SpecError(f"tictactoe3: k={k} must be between 1 and {max(m, n)}")
        self.m, self.n, self.k = m, n, k
        self.grid = TicTacToe(m, n, k)
        self._shares = lru_cache(maxsize=64)(self._compute_shares)

    def __repr__(self) -> str:
        return f"TicTacToe3(m={self.m}, n={self.n}, k={self.k})"

    def board_view(self) -> BoardView:
        """The board for the web pages (:mod:`plies.games.tictactoe.view`)."""
        from plies.games.tictactoe.view import TicTacToeView

        return TicTacToeView(self, grid=self.grid, empty=EMPTY)

    def initial_state(self) -> Board:
        return Board(EMPTY * (self.m * self.n), PLAYERS[0], None)

    def to_move(self, state: Board) -> str:
        return state.to_move

    def actions(self, state: Board) -> Sequence[int]:
        return self.grid.actions(state)

    def result(self, state: Board, action: int) -> Board:
        cells, player = state.cells, state.to_move
        if state.winner is not None or not 0 <= action < len(cells) or cells[action] != EMPTY:
            raise IllegalMoveError(f"move {action} is not legal in this position")
        cells = cells[:action] + player + cells[action + 1 :]
        lines = self.grid.lines_through[action]
        won = any(all(cells[i] == player for i in line) for line in lines)
        return Board(cells, _next_player(player), player if won else None)

    def is_terminal(self, state: Board) -> bool:
        return self.grid.is_terminal(state)

    def utility(self, state: Board, player: str) -> float:
        """1 to the winner, 0 to the others; 1/3 each for a draw."""
        if state.winner is None:
            return DRAW_UTILITY
        return 1 if state.winner == player else 0

    def evaluate(self, state: Board, player: str) -> float:
        """EVAL: the player's share of the open-line potential, strictly between 0 and 1.

        A line is open to a player when it holds no other player's mark; with j of the
        player's marks it is worth 4**j, so a threat (k - 1 marks) outweighs lines with fewer.
        Each player's share is (1 + own potential) / (3 + everyone's): the three shares sum
        to 1 like the utilities, and are 1/3 each when nobody has an open line (a certain draw).
        Terminal states get their utility.
        """
        if self.is_terminal(state):
            return self.utility(state, player)
        return self._shares(state.cells)[player]

    def _compute_shares(self, cells: str) -> dict[str, float]:
        potential = dict.fromkeys(PLAYERS, 1)
        for line in self.grid.lines:
            owners = {cells[i] for i in line} - {EMPTY}
            if not owners:
                for player in PLAYERS:
                    potential[player] += 1
            elif len(owners) == 1:
                (owner,) = owners
                potential[owner] += LINE_WEIGHT_BASE ** sum(cells[i] == owner for i in line)
        total = sum(potential.values())
        return {player: potential[player] / total for player in PLAYERS}

    # Notation --------------------------------------------------------------------------------

    def format_action(self, state: Board, action: int) -> str:
        return self.grid.format_action(state, action)

    def parse_action(self, state: Board, text: str) -> int:
        """``b2`` or a cell number ``1``..``m*n``; raises :class:`IllegalMoveError`."""
        return self.grid.parse_action(state, text)

    def format_position(self, state: Board) -> str:
        return self.grid.format_position(state)

    def parse_position(self, text: str) -> Board:
        """Rows of X, O, Y and . (or -, _) from the top, optionally separated by ``/``."""
        cells = "".join(text.split()).replace("/", "").upper().replace("-", ".").replace("_", ".")
        if len(cells) != self.m * self.n:
            raise InvalidPositionError(
                f"position {text!r} has {len(cells)} squares; the board has {self.m * self.n}"
            )
        bad = set(cells) - {*PLAYERS, EMPTY}
        if bad:
            raise InvalidPositionError(
                f"position {text!r} has {sorted(bad)[0]!r}; use X, O, Y and . for empty"
            )
        counts = Counter(cells)
        xs, os, ys = (counts[p] for p in PLAYERS)
        if (xs - os, os - ys) not in ((0, 0), (1, 0), (0, 1)):
            raise InvalidPositionError(
                f"position {text!r} has {xs} X, {os} O and {ys} Y; they move in turn X, O, Y"
            )
        mover = PLAYERS[(xs - ys) + (os - ys)]
        winning_lines = {
            player: [line for line in self.grid.lines if all(cells[i] == player for i in line)]
            for player in PLAYERS
        }
        winners = [player for player in PLAYERS if winning_lines[player]]
        if len(winners) > 1:
            raise InvalidPositionError(
                f"position {text!r}: {' and '.join(winners)} each have {self.k} in a row"
            )
        if winners:
            (winner,) = winners
            last_cell = set.intersection(*(set(line) for line in winning_lines[winner]))
            if winner != _previous_player(mover) or not last_cell:
                raise InvalidPositionError(f"position {text!r}: a move was played after the win")
        return Board(cells, mover, winners[0] if winners else None)

    def display(self, state: Board) -> str:
        return self.grid.display(state)


def _next_player(player: str) -> str:
    return PLAYERS[(PLAYERS.index(player) + 1) % len(PLAYERS)]


def _previous_player(player: str) -> str:
    return PLAYERS[(PLAYERS.index(player) - 1) % len(PLAYERS)]
