"""Go on a square board with area scoring (Tromp-Taylor) and positional superko.

Black (``B``, drawn ``X``) and white (``W``, drawn ``O``) take turns putting a stone on an empty
point or passing. After a stone is placed, every opposing group left without a liberty (an
empty point next to it) is removed; then the mover's own group must have a liberty (suicide is
illegal), and the whole board must not repeat any earlier position of the game (positional
superko: it forbids the immediate recapture of a ko and every longer cycle). Two passes in a
row end the game. The score is Tromp-Taylor's area count: a player's stones plus the empty
points that reach only that player's stones; white adds ``komi``. The higher score wins; equal
scores (an integer komi) draw.

Points are written as GTP does: a column letter ``A``..``T`` without ``I`` from the left, then
the row number from the bottom (``D4``; any case on input), or ``pass``. A position is the game
record from the empty board, the moves separated by spaces (``D4 E5 pass``); since legality
depends on every earlier position, the record is the position's notation.

>>> game = Go(size=5, komi=0.5)
>>> state = game.parse_position("C3 C2 B2 D2 pass B3 C1 pass")
>>> [game.format_action(state, a) for a in game.actions(state)][:4]
['A1', 'B1', 'D1', 'E1']
>>> print(game.display(state))
   A B C D E
 5 . . . . .
 4 . . . . .
 3 . O X . .
 2 . X O O .
 1 . . X . .
black (X) to move; area scoring (Tromp-Taylor), komi 0.5
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from typing import NamedTuple

import numpy as np
from numpy.typing import NDArray

from plies.capabilities import BoardView, CompiledRules, Symmetry
from plies.errors import IllegalMoveError, InvalidPositionError, SpecError
from plies.game import Scoring, WinLossDrawGame
from plies.games.go.knowledge import MCTS_OPTIONS
from plies.games.grid import grid_symmetries
from plies.ladder import Anchor, Ladder, Level
from plies.registry import SCORING, GameOption
from plies.spec import NumberRange, Option

PASS = -1
"""The action of a player who passes."""

COLUMNS = "ABCDEFGHJKLMNOPQRST"
"""Column letters as GTP writes them: no ``I``."""
EMPTY, BLACK, WHITE = 0, 1, 2
STONES = {BLACK: "X", WHITE: "O", EMPTY: "."}
COLOURS = {"B": BLACK, "W": WHITE}
NAMES = {"B": "black", "W": "white"}
SIZES = range(5, 20)
"""Board sizes a spec may ask for; smaller boards (from 2) serve exhaustive tests."""


class GoState(NamedTuple):
    """A Go state: the points (``size * size`` bytes, row 1 first, ``EMPTY``, ``BLACK`` or
    ``WHITE``), the mover, the passes just played in a row, the moves from the empty board and
    every board seen so far (positional superko)."""

    board: bytes
    to_move: str
    passes: int
    moves: tuple[int, ...]
    seen: frozenset[bytes]


class Go(WinLossDrawGame[GoState, int]):
    """Go on a ``size`` x ``size`` board. Actions are points ``row * size + column`` (row 0 is
    row 1, at the bottom; column 0 is ``A``) or :data:`PASS`."""

    name = "go"
    summary = "Go: area scoring (Tromp-Taylor), positional superko, two passes end (9x9 by default)"
    options: tuple[GameOption, ...] = (
        GameOption.whole("size", 9, "lines of the board", minimum=5, maximum=19),
        GameOption(
            "komi", "number", "points added to white's score", 7.5, NumberRange(-(10**6), 10**6)
        ),
        SCORING,
    )
    default_opponent = "mcts:time=1"
    ladder = Ladder(
        (
            Level("Beginner", "mcts:iterations=50", "plays out 50 random games a move"),
            Level("Novice", "mcts:iterations=150", "plays out 150 games a move"),
            Level("Casual", "mcts:iterations=500", "plays out 500 games a move"),
            Level("Club", "mcts:iterations=1500", "plays out 1,500 games a move"),
            Level("Strongest", "mcts:iterations=5000", "plays out 5,000 games a move"),
        ),
        anchor=Anchor(
            "GNU Go 3.8 at level 10",
            "gtp:gnugo --mode gtp --level 10",
            0,
            "GNU Go 3.8 at level 10 = 0 (9x9, komi 7.5)",
        ),
    )
    searchable_to_end = False
    players = ("B", "W")

    def __init__(self, size: int = 9, komi: float = 7.5, scoring: Scoring = Scoring.PLUS_MINUS):
        if not 2 <= size <= len(COLUMNS):
            raise SpecError(f"go: size={size} must be 2 to 19 (5 to 19 in a game spec)")
        NumberRange(-size * size, size * size).check("go: komi", komi)
        if komi * 2 != int(komi * 2):
            raise SpecError(f"go: komi={komi:g} must be a multiple of 0.5")
        self.size, self.komi, self.scoring = size, komi, scoring
        points = size * size
        self.neighbours: tuple[tuple[int, ...], ...] = tuple(
            tuple(
                row * size + column
                for row, column in (
                    (point // size + dr, point % size + dc)
                    for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1))
                )
                if 0 <= row < size and 0 <= column < size
            )
            for point in range(points)
        )
        self.neighbour_table = np.full((points, 4), -1, np.int64)
        for point, around in enumerate(self.neighbours):
            self.neighbour_table[point, : len(around)] = around
        self._symmetries = tuple(
            Symmetry(cells, (*cells, points)) for cells in grid_symmetries(size, size)
        )

    def __repr__(self) -> str:
        return f"Go(size={self.size}, komi={self.komi})"

    def board_view(self) -> BoardView:
        """The board for the web pages (:mod:`plies.games.go.view`)."""
        from plies.games.go.view import GoView

        return GoView(self, colours=COLOURS, columns=COLUMNS, pass_move=PASS)

    def initial_state(self) -> GoState:
        board = bytes(self.size * self.size)
        return GoState(board, "B", 0, (), frozenset((board,)))

    def to_move(self, state: GoState) -> str:
        return state.to_move

    def actions(self, state: GoState) -> Sequence[int]:
        """The points where a stone is legal, in order, then :data:`PASS`; none at the end."""
        if state.passes >= 2:
            return []
        board = state.board
        legal = [p for p in range(len(board)) if not board[p] and self._play(state, p)[0] is None]
        return [*legal, PASS]

    def result(self, state: GoState, action: int) -> GoState:
        if state.passes >= 2:
            raise IllegalMoveError(f"move {action} is not legal: the game is over")
        mover = "W" if state.to_move == "B" else "B"
        if action == PASS:
            return GoState(state.board, mover, state.passes + 1, (*state.moves, PASS), state.seen)
        if not 0 <= action < self.size * self.size:
            raise IllegalMoveError(f"move {action} is not a point of the board")
        reason, board = self._play(state, action)
        if reason is not None:
            raise IllegalMoveError(f"move {self._point(action)} is illegal: {reason}")
        return GoState(board, mover, 0, (*state.moves, action), state.seen | {board})

    def _play(self, state: GoState, point: int) -> tuple[str | None, bytes]:
        """The board after the mover's stone on ``point`` (captures removed), or why the move
        is illegal (the point is taken, suicide, superko) and the board unchanged."""
        board = state.board
        if board[point]:
            return "the point is taken", board
        mine = COLOURS[state.to_move]
        theirs = WHITE if mine == BLACK else BLACK
        after = bytearray(board)
        after[point] = mine
        for neighbour in self.neighbours[point]:
            if after[neighbour] == theirs:
                stones, liberties = self._group(after, neighbour)
                if not liberties:
                    for stone in stones:
                        after[stone] = EMPTY
        if not self._group(after, point)[1]:
            return "suicide (the stone's group would have no liberty)", board
        played = bytes(after)
        if played in state.seen:
            return "positional superko (it repeats an earlier position)", board
        return None, played

    def _group(self, board: bytes | bytearray, point: int) -> tuple[set[int], set[int]]:
        """The stones of the group on ``point`` and its liberties."""
        colour = board[point]
        stones, liberties, frontier = {point}, set(), [point]
        while frontier:
            for neighbour in self.neighbours[frontier.pop()]:
                if board[neighbour] == colour and neighbour not in stones:
                    stones.add(neighbour)
                    frontier.append(neighbour)
                elif board[neighbour] == EMPTY:
                    liberties.add(neighbour)
        return stones, liberties

    def is_terminal(self, state: GoState) -> bool:
        return state.passes >= 2

    def random_playout(self, state: GoState, rng: random.Random) -> tuple[float, ...]:
        """The utilities at the end of a compiled random playout from ``state``
        (:mod:`plies.games.go.kernel`: no eye filling, simple ko, area count): MCTS's default
        simulation. ``rng`` seeds it, so the same ``rng`` state plays the same playout."""
        if self.is_terminal(state):
            return self.payoffs(state)
        from plies.games.go import (
            kernel as _go_kernel,  # Numba loads only when a playout is asked for
        )

        board = np.frombuffer(state.board, dtype=np.uint8)
        mover = COLOURS[state.to_move]
        seed = rng.getrandbits(63) | 1
        score = _go_kernel.random_playout(board, self.size, mover, state.passes, self.komi, seed)
        winner = "B" if score > 0 else "W" if score < 0 else None
        return tuple(self.scoring.utility(winner, player) for player in self.players)

    def compiled_rules(self) -> CompiledRules:
        """The playouts' rules (:mod:`plies.games.go.kernel`) for compiled MCTS with RAVE: each
        point's neighbours (4 words, -1 pads) as ``params``, komi as ``floats``; a state's row
        is its passes, then its points."""
        neighbours = tuple(int(point) for point in self.neighbour_table.flat)
        return CompiledRules("go", _compiled_row, neighbours, (self.komi,))

    def own_mcts(self) -> str:
        """Go's compiled MCTS with RAVE and Go's knowledge (:mod:`plies.games.go.mcts_native`,
        named, not imported: it stands on the compiled searches, above the rules)."""
        return "plies.games.go.mcts_native:GoMcts"

    def mcts_options(self) -> Sequence[Option]:
        """The settings of Go's compiled tree, options of ``mcts``
        (:data:`plies.games.go.knowledge.MCTS_OPTIONS`): the playout rules' rates and the
        priors' weight."""
        return MCTS_OPTIONS

    # Learning ---------------------------------------------------------------------------------

    def tensor_shape(self) -> tuple[int, int, int]:
        """Three planes (the mover's stones, the opponent's, all ones when black moves: komi
        makes the colours unequal) of ``size`` rows (row 1 first) by ``size`` columns."""
        return 3, self.size, self.size

    def action_count(self) -> int:
        """The points, then a pass (index ``size * size``)."""
        return self.size * self.size + 1

    def encode(self, state: GoState) -> NDArray[np.float32]:
        """The planes of :meth:`tensor_shape`; point ``row * size + column`` is their cell."""
        board = np.frombuffer(state.board, dtype=np.uint8).reshape(self.size, self.size)
        mine = COLOURS[state.to_move]
        planes = np.empty(self.tensor_shape(), np.float32)
        planes[0] = board == mine
        planes[1] = board == BLACK + WHITE - mine
        planes[2] = float(mine == BLACK)
        return planes

    def action_index(self, state: GoState, action: int) -> int:
        """The point (the planes' cell) or ``size * size`` for :data:`PASS`; raises
        :class:`IllegalMoveError` for anything else."""
        points = self.size * self.size
        if action == PASS:
            return points
        if not 0 <= action < points:
            raise IllegalMoveError(f"move {action} is not a point 0 to {points - 1} or pass")
        return action

    def index_action(self, state: GoState, index: int) -> int:
        """The point with index ``index``, or :data:`PASS` for ``size * size``; raises
        :class:`IllegalMoveError` for an index out of range."""
        points = self.size * self.size
        if not 0 <= index <= points:
            raise IllegalMoveError(f"action index {index} is not 0 to {points}")
        return PASS if index == points else index

    def symmetries(self) -> Sequence[Symmetry]:
        """The 8 symmetries of the square board, identity first; a pass stays a pass."""
        return self._symmetries

    def area(self, board: bytes) -> tuple[int, int]:
        """Tromp-Taylor's (black, white) points: stones, and empty regions reaching only one
        colour."""
        counts = {BLACK: board.count(BLACK), WHITE: board.count(WHITE)}
        done: set[int] = set()
        for point, stone in enumerate(board):
            if stone or point in done:
                continue
            region, borders, frontier = {point}, set(), [point]
            while frontier:
                for neighbour in self.neighbours[frontier.pop()]:
                    if board[neighbour] == EMPTY and neighbour not in region:
                        region.add(neighbour)
                        frontier.append(neighbour)
                    elif board[neighbour]:
                        borders.add(board[neighbour])
            done |= region
            if len(borders) == 1:
                counts[borders.pop()] += len(region)
        return counts[BLACK], counts[WHITE]

    def termination(self, state: GoState) -> str | None:
        """The score of a finished game (two passes), Tromp-Taylor's: ``black 41, white 40
        + komi 7.5`` (every stone on the board counts: dead stones are captured before the
        passes), or None while it goes on."""
        if not self.is_terminal(state):
            return None
        black, white = self.area(state.board)
        return f"black {black}, white {white} + komi {self.komi:g}"

    def score(self, state: GoState) -> float:
        """Black's area minus white's and the komi: positive when black leads."""
        black, white = self.area(state.board)
        return black - white - self.komi

    def winner(self, state: GoState) -> str | None:
        if not self.is_terminal(state):
            return None
        score = self.score(state)
        return "B" if score > 0 else "W" if score < 0 else None

    def evaluate(self, state: GoState, player: str) -> float:
        """EVAL: the area score so far for ``player``, scaled into (-1, 1)."""
        if self.is_terminal(state):
            return self.utility(state, player)
        score = self.score(state) if player == "B" else -self.score(state)
        return self.estimate(score / (abs(score) + self.size * self.size), player)

    # Notation --------------------------------------------------------------------------------

    def _point(self, point: int) -> str:
        row, column = divmod(point, self.size)
        return f"{COLUMNS[column]}{row + 1}"

    def format_action(self, state: GoState, action: int) -> str:
        return "pass" if action == PASS else self._point(action)

    def parse_action(self, state: GoState, text: str) -> int:
        """``D4`` (any case) or ``pass``; raises :class:`IllegalMoveError` naming the move and
        why it is illegal."""
        word = text.strip()
        point = self._read_point(word, IllegalMoveError)
        if self.is_terminal(state):
            raise IllegalMoveError(f"move {word!r}: the game is over")
        if point != PASS:
            reason = self._play(state, point)[0]
            if reason is not None:
                raise IllegalMoveError(f"move {word!r} is illegal: {reason}")
        return point

    def _read_point(self, word: str, error: type[Exception]) -> int:
        lowered = word.lower()
        if lowered == "pass":
            return PASS
        column = COLUMNS.lower().find(lowered[:1]) if lowered[:1].isalpha() else -1
        digits = lowered[1:]
        if column < 0 or not digits.isascii() or not digits.isdigit():
            raise error(f"move {word!r} is not a point like D4 or pass")
        row = int(digits[-3:]) - 1 if len(digits) <= 3 else len(COLUMNS)  # long: off the board
        if not (column < self.size and 0 <= row < self.size):
            last = f"{COLUMNS[self.size - 1]}{self.size}"
            raise error(f"move {word!r} is off the {self.size}x{self.size} board (A1 to {last})")
        return row * self.size + column

    def gtp_setup(self) -> tuple[str, ...]:
        return (f"boardsize {self.size}", "clear_board", f"komi {self.komi:g}")

    def gtp_moves(self, state: GoState) -> tuple[int, ...]:
        return state.moves

    def gtp_vertex(self, action: int) -> str:
        return "pass" if action == PASS else self._point(action)

    def can_draw(self) -> bool:
        """Equal scores draw: only with a whole-number komi."""
        return self.komi == int(self.komi)

    def format_position(self, state: GoState) -> str:
        """The moves from the empty board, separated by spaces (``D4 E5 pass``)."""
        return " ".join(self.format_action(state, move) for move in state.moves)

    def parse_position(self, text: str) -> GoState:
        """A record of moves from the empty board (``D4 E5 pass``; empty text is the start),
        or an SGF game (its main line; see :meth:`read_sgf`); raises
        :class:`InvalidPositionError` naming the first bad move."""
        if text.lstrip().startswith("("):
            return self.read_sgf(text)
        return self._replay(text, [self._read_word(word) for word in text.split()])

    def _read_word(self, word: str) -> int | str:
        try:
            return self._read_point(word, InvalidPositionError)
        except InvalidPositionError as error:
            return str(error)

    def _replay(self, text: str, moves: Sequence[int | str]) -> GoState:
        """The state after ``moves`` from the empty board (a string: why a move is bad)."""
        state = self.initial_state()
        shown = text if len(text) <= 60 else text[:57] + "..."
        for index, move in enumerate(moves, start=1):
            try:
                if isinstance(move, str):
                    raise InvalidPositionError(move)
                if self.is_terminal(state):
                    raise IllegalMoveError("the game had ended (two passes)")
                state = self.result(state, move)
            except (IllegalMoveError, InvalidPositionError) as error:
                raise InvalidPositionError(f"record {shown!r}: move {index}: {error}") from None
        return state

    def read_sgf(self, text: str) -> GoState:
        """The state at the end of an SGF game's main line (read by sgfmill): black and white
        alternating from the empty board, on this game's board size. Setup stones and
        handicap are refused; the record's komi and rules are not read (the game's own
        apply)."""
        from sgfmill import sgf  # sgfmill loads only for SGF

        try:
            record = sgf.Sgf_game.from_string(text)
        except ValueError as error:
            raise InvalidPositionError(f"SGF: not a readable game record ({error})") from None
        if record.get_size() != self.size:
            raise InvalidPositionError(
                f"SGF: a {record.get_size()}x{record.get_size()} board, not {self.size}x"
                f"{self.size} (ask for go:size={record.get_size()})"
            )
        moves: list[int | str] = []
        for index, node in enumerate(record.get_main_sequence()):
            if any(node.has_property(key) for key in ("AB", "AW", "AE")):
                raise InvalidPositionError(
                    f"SGF: setup stones (AB, AW, AE) at node {index} are not supported"
                )
            colour, point = node.get_move()
            if colour is None:
                continue
            expected = "b" if len(moves) % 2 == 0 else "w"
            if colour != expected:
                moves.append(f"{NAMES[colour.upper()]} moves out of turn")
            else:
                moves.append(PASS if point is None else point[0] * self.size + point[1])
        return self._replay("SGF", moves)

    def sgf(
        self,
        start: GoState,
        moves: Iterable[int],
        result_text: str = "?",
        headers: Mapping[str, str] | None = None,
    ) -> str:
        """The game from the empty board through ``start`` and ``moves`` as SGF (by sgfmill):
        size, komi, the rules (Tromp-Taylor), ``headers`` (``PB``, ``PW``, ``GN`` ...) and
        the result."""
        from sgfmill import sgf

        record = sgf.Sgf_game(size=self.size)
        root = record.get_root()
        root.set("KM", self.komi)
        root.set("RU", "Tromp-Taylor")
        root.set("RE", result_text)
        for key, value in (headers or {}).items():
            root.set(key, value)
        for index, move in enumerate((*start.moves, *moves)):
            point = None if move == PASS else divmod(move, self.size)
            record.extend_main_sequence().set_move("b" if index % 2 == 0 else "w", point)
        return str(record.serialise().decode("utf-8"))

    def sgf_moves(self, text: str) -> tuple[str | None, list[str]]:
        """An SGF game's start (None: the empty board) and its main line's moves (``pass`` for
        a pass), as :meth:`read_sgf` reads and checks them."""
        return None, [
            self.format_action(self.initial_state(), move) for move in self.read_sgf(text).moves
        ]

    def result_text(self, state: GoState) -> str:
        """SGF's result: ``B+3.5``, ``W+0.5``, ``0`` (a draw) or ``?`` (not finished)."""
        if not self.is_terminal(state):
            return "?"
        score = self.score(state)
        return "0" if score == 0 else f"B+{score:g}" if score > 0 else f"W+{-score:g}"

    def display(self, state: GoState) -> str:
        """The board from the top row down, with GTP coordinates, then who is to move or the
        final score."""
        size = self.size
        lines = ["   " + " ".join(COLUMNS[:size])]
        for row in reversed(range(size)):
            cells = " ".join(STONES[state.board[row * size + c]] for c in range(size))
            lines.append(f"{row + 1:>2} {cells}")
        if self.is_terminal(state):
            black, white = self.area(state.board)
            winner = self.winner(state)
            result = f"{NAMES[winner]} wins" if winner else "a draw"
            lines.append(f"game over: black {black}, white {white} + komi {self.komi:g}: {result}")
        else:
            side = f"{NAMES[state.to_move]} ({STONES[COLOURS[state.to_move]]})"
            lines.append(f"{side} to move; area scoring (Tromp-Taylor), komi {self.komi:g}")
        return "\n".join(lines)

    @classmethod
    def from_sgf(cls, text: str, komi: float = 7.5) -> tuple[Go, GoState]:
        """The game an SGF record is played on (its board size, and its komi, ``komi`` where
        it gives none) and the state at the end of its main line (:meth:`read_sgf`); an
        :class:`InvalidPositionError` for a record that cannot be read, a board or komi plies
        cannot play, handicap or setup stones."""
        from sgfmill import sgf

        try:
            record = sgf.Sgf_game.from_string(text)
            root = record.get_root()
            size = record.get_size()
            given = root.get("KM") if root.has_property("KM") else komi
            handicap = root.get("HA") if root.has_property("HA") else 0
        except ValueError as error:
            raise InvalidPositionError(f"SGF: not a readable game record ({error})") from None
        if handicap >= 2:
            raise InvalidPositionError(
                f"SGF: {handicap} handicap stones are not supported (plies' Go starts from "
                "the empty board)"
            )
        try:
            game = cls(size, given)
        except SpecError as error:
            raise InvalidPositionError(f"SGF: {error}") from None
        return game, game.read_sgf(text)


def _compiled_row(state: GoState) -> tuple[int, ...]:
    """The passes just played, then every point (``EMPTY``, ``BLACK`` or ``WHITE``)."""
    return state.passes, *state.board
