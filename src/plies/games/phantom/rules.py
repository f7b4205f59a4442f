"""Phantom (blind) tic-tac-toe, as in OpenSpiel's ``phantom_ttt`` (its default observation,
``reveal-nothing``).

Tic-tac-toe on 3x3, X first, in which a player sees only their own marks and the opponent's
marks they have bumped into. On a turn the player names a cell they do not know to be taken
(not theirs, not a mark they have bumped into): if it is empty their mark goes there and the
turn passes; if the opponent holds it, the mark is revealed to the player, who tries again.
Nobody learns of the other's tries. Three in a row wins, a full board draws.

Moves are cells as in tic-tac-toe, ``b2`` (column letter, row number from the top) or ``1``..
``9`` in reading order. A player's information key is their tries in order, a bump marked
``*``: the player's legal moves are the cells not in it.

>>> game = PhantomTicTacToe()
>>> state = game.initial_state()
>>> for move in ("b2", "b2", "a1"):
...     state = game.result(state, game.parse_action(state, move))
>>> game.information_key(state, "X"), game.information_key(state, "O")
('X:b2', 'O:b2* a1')
>>> game.seen_action(state, game.parse_action(state, "a1"), "X")
'X: a1 is taken by O, try again'
>>> game.seen_action(state, game.parse_action(state, "a1"), "O")
'X moves'
>>> game.seen_state(state, "X").cells
'....X....'
"""

from __future__ import annotations

import functools
import itertools
import random
from collections.abc import Sequence
from typing import NamedTuple

from plies.capabilities import BoardView
from plies.errors import IllegalMoveError
from plies.game import Scoring, WinLossDrawGame
from plies.registry import SCORING, GameOption

SIDE = 3
CELLS = SIDE * SIDE
EMPTY = "."
LINES = (
    (0, 1, 2),
    (3, 4, 5),
    (6, 7, 8),
    (0, 3, 6),
    (1, 4, 7),
    (2, 5, 8),
    (0, 4, 8),
    (2, 4, 6),
)
"""The rows, columns and diagonals of the board, cells in reading order."""


class PhantomState(NamedTuple):
    """A position: the board (cells in reading order, ``X``, ``O`` or ``.``), the mover, the
    winner if any, and each player's tries in order (X's first). In a seen state the board
    holds only what ``seen_by`` sees and the other's tries are empty."""

    cells: str
    to_move: str
    winner: str | None
    tries: tuple[tuple[int, ...], tuple[int, ...]]
    seen_by: str | None = None


class PhantomTicTacToe(WinLossDrawGame[PhantomState, int]):
    """Phantom tic-tac-toe for X and O (see the module's docstring). Actions are cells."""

    name = "phantom"
    summary = "phantom tic-tac-toe: the opponent's marks unseen until bumped into"
    options: tuple[GameOption, ...] = (SCORING,)
    players = ("X", "O")
    default_opponent = "ismcts:time=1"
    opening_plies = 0
    searchable_to_end = False

    def __init__(self, scoring: Scoring = Scoring.PLUS_MINUS) -> None:
        self.scoring = scoring

    def __repr__(self) -> str:
        return "PhantomTicTacToe()"

    def board_view(self) -> BoardView:
        """The board for the web pages (:mod:`plies.games.phantom.view`): it draws a seen
        state as its player sees it."""
        from plies.games.phantom.view import PhantomView

        return PhantomView(self, empty=EMPTY)

    # The formal definition ------------------------------------------------------------------

    def initial_state(self) -> PhantomState:
        return PhantomState(EMPTY * CELLS, "X", None, ((), ()))

    def to_move(self, state: PhantomState) -> str:
        return state.to_move

    def actions(self, state: PhantomState) -> Sequence[int]:
        """The cells the mover has not tried: none of them is known to the mover to be
        taken."""
        if self.is_terminal(state):
            return []
        tried = state.tries[self.players.index(state.to_move)]
        return [cell for cell in range(CELLS) if cell not in tried]

    def result(self, state: PhantomState, action: int) -> PhantomState:
        if action not in self.actions(state):
            raise IllegalMoveError(f"move {action!r} is not legal here")
        mover = state.to_move
        seat = self.players.index(mover)
        tried = (*state.tries[seat], action)
        tries = (tried, state.tries[1]) if seat == 0 else (state.tries[0], tried)
        if state.cells[action] != EMPTY:  # bumped into the opponent's mark: try again
            return PhantomState(state.cells, mover, None, tries)
        cells = state.cells[:action] + mover + state.cells[action + 1 :]
        won = any(action in line and all(cells[i] == mover for i in line) for line in LINES)
        return PhantomState(cells, self.opponent(mover), mover if won else None, tries)

    def is_terminal(self, state: PhantomState) -> bool:
        return state.winner is not None or EMPTY not in state.cells

    def winner(self, state: PhantomState) -> str | None:
        return state.winner

    def can_draw(self) -> bool:
        return True

    # Imperfect information ----------------------------------------------------------------

    def information_key(self, state: PhantomState, player: str) -> str:
        other = self.opponent(player)
        tried = state.tries[self.players.index(player)]
        return f"{player}:" + " ".join(
            cell_name(cell) + ("*" if state.cells[cell] == other else "") for cell in tried
        )

    def seen_state(self, state: PhantomState, player: str) -> PhantomState:
        """The board with ``player``'s marks and the marks ``player`` bumped into; at the end
        of the game the whole board is shown."""
        if self.is_terminal(state):
            return state
        seat = self.players.index(player)
        tries = (state.tries[0], ()) if seat == 0 else ((), state.tries[1])
        return PhantomState(self._seen_cells(state, player), state.to_move, None, tries, player)

    def _seen_cells(self, state: PhantomState, player: str) -> str:
        """The board as ``player`` sees it: the cells ``player`` has tried."""
        tried = state.tries[self.players.index(player)]
        return "".join(mark if i in tried else EMPTY for i, mark in enumerate(state.cells))

    def seen_action(self, state: PhantomState, action: int, player: str) -> str:
        """The mover sees their try and whether the cell was taken; the other sees that the
        mover moved, never where."""
        mover = state.to_move
        if mover != player:
            return f"{mover} moves"
        if state.cells[action] == EMPTY:
            return f"{mover}: {cell_name(action)}"
        return f"{mover}: {cell_name(action)} is taken by {self.opponent(mover)}, try again"

    def hidden_marks(self, state: PhantomState, player: str) -> int:
        """How many marks the opponent of ``player`` has placed that ``player`` has not bumped
        into, known from ``player``'s own marks and whose turn it is."""
        tried = state.tries[self.players.index(player)]
        placed = sum(1 for cell in tried if state.cells[cell] == player)
        marks = placed  # X moves when both have placed alike, O when X has one more
        if state.to_move != player and player == self.players[0]:
            marks -= 1
        elif state.to_move == player and player == self.players[1]:
            marks += 1
        return marks - (len(tried) - placed)

    def sample_state(self, state: PhantomState, player: str, rng: random.Random) -> PhantomState:
        """A state ``player`` cannot tell from ``state``: the opponent's unseen marks placed at
        random among the cells ``player`` has not tried (no three in a row: the game would be
        over), their order drawn so that each mark ``player`` bumped into was there in time,
        and the opponent's bumps into ``player``'s marks drawn as if the opponent tried cells
        at random. A finished game is shown whole, so it is its own sample."""
        if self.is_terminal(state):
            return state
        seat = self.players.index(player)
        other = self.opponent(player)
        tried = state.tries[seat]
        mine = [cell for cell in tried if state.cells[cell] == player]
        due = _deadlines(state.cells, tried, player, seat)
        unseen = [cell for cell in range(CELLS) if cell not in tried]
        hidden = _hidden_cells(unseen, list(due), self.hidden_marks(state, player), rng)
        order = _placement_order(due, hidden, rng)
        their_tries = _their_tries(order, mine, seat, state.to_move == other, rng)
        cells = [EMPTY] * CELLS
        for cell in mine:
            cells[cell] = player
        for cell in order:
            cells[cell] = other
        tries = (tried, their_tries) if seat == 0 else (their_tries, tried)
        return PhantomState("".join(cells), state.to_move, None, tries)

    # Notation -------------------------------------------------------------------------------

    def format_action(self, state: PhantomState, action: int) -> str:
        return cell_name(action)

    def parse_action(self, state: PhantomState, text: str) -> int:
        """``b2`` or a cell number ``1``..``9``; a cell the mover has tried is refused."""
        word = text.strip().lower()
        cell = read_cell(word)
        if cell is None:
            raise IllegalMoveError(f"move {text.strip()!r} is not a cell of the 3x3 board")
        if self.is_terminal(state):
            raise IllegalMoveError(f"move {text.strip()!r}: the game is over")
        if cell not in self.actions(state):
            raise IllegalMoveError(f"move {text.strip()!r}: {state.to_move} knows it is taken")
        return cell

    def display(self, state: PhantomState) -> str:
        """The board and what each player sees of it, side by side (of a seen state, what its
        player sees)."""
        boards = [("board", state.cells)]
        if state.seen_by is None:
            boards += [(f"{p} sees", self._seen_cells(state, p)) for p in self.players]
        rows = [
            "   ".join(f"{title:<9}" for title, _ in boards).rstrip(),
            "   ".join("   a b c " for _ in boards).rstrip(),
        ]
        for row in range(SIDE):
            line = (
                f"{row + 1}  {' '.join(cells[row * SIDE : (row + 1) * SIDE])} "
                for _, cells in boards
            )
            rows.append("   ".join(line).rstrip())
        if self.is_terminal(state):
            rows.append(f"game over: {state.winner} wins" if state.winner else "game over: draw")
        else:
            rows.append(f"{state.to_move} to move")
        return "\n".join(rows)


def cell_name(cell: int) -> str:
    """``a1`` for cell 0, ``c3`` for cell 8: column letter, row number from the top."""
    row, column = divmod(cell, SIDE)
    return f"{chr(ord('a') + column)}{row + 1}"


def read_cell(word: str) -> int | None:
    """The cell written ``b2`` or ``1``..``9``; None for anything else."""
    if word.isdigit():
        return int(word) - 1 if 1 <= int(word) <= CELLS else None
    if len(word) == 2 and "a" <= word[0] < chr(ord("a") + SIDE) and "1" <= word[1] <= str(SIDE):
        return (int(word[1]) - 1) * SIDE + ord(word[0]) - ord("a")
    return None


def _deadlines(cells: str, tried: Sequence[int], player: str, seat: int) -> dict[int, int]:
    """The opponent's marks ``player`` bumped into, each with the first of the opponent's turns
    (counted from 1) by which it must have been placed: before ``player``'s turn of the bump."""
    due: dict[int, int] = {}
    turn = 1
    for cell in tried:
        if cells[cell] == player:
            turn += 1
        else:  # X's turn t follows O's turn t - 1; O's turn t follows X's turn t
            due[cell] = turn + seat
    return due


def _hidden_cells(unseen: list[int], seen: list[int], count: int, rng: random.Random) -> list[int]:
    """``count`` cells of ``unseen`` drawn uniformly among those that, with ``seen``, make no
    line of three."""
    return list(rng.choice(_lineless(tuple(unseen), frozenset(seen), count)))


@functools.lru_cache(maxsize=4096)
def _lineless(unseen: tuple[int, ...], seen: frozenset[int], count: int) -> list[tuple[int, ...]]:
    """Every choice of ``count`` cells of ``unseen`` that makes no line of three with ``seen``
    (listed once for each board a search meets again and again)."""
    return [
        chosen
        for chosen in itertools.combinations(unseen, count)
        if not any(all(cell in seen or cell in chosen for cell in line) for line in LINES)
    ]


def _placement_order(due: dict[int, int], hidden: list[int], rng: random.Random) -> list[int]:
    """The opponent's marks in the order placed, drawn uniformly among the orders that place
    each cell of ``due`` before its turn: the last turn first, from the cells allowed there."""
    left = [*due, *hidden]
    order: list[int] = []
    for turn in range(len(left), 0, -1):
        allowed = [cell for cell in left if due.get(cell, turn + 1) > turn]
        cell = rng.choice(allowed)
        left.remove(cell)
        order.append(cell)
    return order[::-1]


def _their_tries(
    order: list[int], mine: list[int], seat: int, moving: bool, rng: random.Random
) -> tuple[int, ...]:
    """The opponent's tries: before each placement of ``order`` (and in the turn under way,
    if ``moving``), bumps into ``player``'s marks placed by then (``mine`` in the order placed;
    ``seat``: the player's), as if the opponent tried unknown cells at random."""
    tries: list[int] = []
    bumped: set[int] = set()
    for turn in range(1, len(order) + 1 + moving):
        there = mine[: max(0, turn - seat)]
        empty = CELLS - len(there) - (turn - 1)
        unknown: list[int | None] = [cell for cell in there if cell not in bumped]
        unknown += [None] * empty
        rng.shuffle(unknown)
        for cell in unknown:
            if cell is None:
                break
            tries.append(cell)
            bumped.add(cell)
        if turn <= len(order):
            tries.append(order[turn - 1])
    return tuple(tries)
