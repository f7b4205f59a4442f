"""The lecture's tile-sliding race on a row of squares numbered 1..length (4 by default).

A starts on square 1 and moves first, B starts on square ``length``. On its turn a player
either stays put or moves forward (A right, B left): one square if that square is empty, or,
when the opponent stands on that square, a jump over it to the square beyond if the row goes
on. A wins by reaching square ``length``, B by reaching square 1.

The game is a draw when both players stay put on consecutive turns, which is exactly the rule
"a repeated position is a draw": tokens only move forward, so every move other than staying
changes the squares for good, and a position (squares and mover) recurs only when no token
moved in between, that is after two stays in succession. Every game is therefore finite: the
tokens can advance ``2 * (length - 1)`` squares in all, so there are at most that many forward
moves; at most one stay comes before each of them and two stays end a drawn game, so no game
lasts more than ``4 * length - 2`` turns.

Moves are written as the destination square, or ``stay``; positions as the row of ``A``, ``B``
and ``.`` (empty), optionally followed by the mover (A by default):

>>> game = TileGame()
>>> state = game.parse_position(".AB.")
>>> [game.format_action(state, a) for a in game.actions(state)]
['4', 'stay']
>>> game.utility(game.result(state, 4), "A")
1
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from plies.capabilities import BoardView
from plies.errors import IllegalMoveError, InvalidPositionError
from plies.game import Scoring, WinLossDrawGame
from plies.registry import SCORING, GameOption
from plies.spec import NumberRange

EMPTY = "."
STAY = "stay"


class TileState(NamedTuple):
    """A tile-game state: A's and B's squares (1-based), the mover, and the consecutive stays."""

    a: int
    b: int
    to_move: str
    stays: int


MAX_LENGTH = 80
"""The longest row: one a terminal line shows (a game lasts up to ``4 * length - 2`` turns)."""


class TileGame(WinLossDrawGame[TileState, int]):
    """The tile-sliding race. Actions are destination squares; staying is the mover's square."""

    name = "tiles"
    summary = "the lecture's tile-sliding race: A moves right, B left, jumping each other"
    options: tuple[GameOption, ...] = (
        GameOption.whole("length", 4, "cells of the strip", minimum=3),
        SCORING,
    )
    default_opponent = "alphabeta"
    opening_plies = 0
    players = ("A", "B")

    def __init__(self, length: int = 4, scoring: Scoring = Scoring.PLUS_MINUS):
        NumberRange(3, MAX_LENGTH, integer=True).check("tiles: length", length)
        self.length, self.scoring = length, scoring

    def __repr__(self) -> str:
        return f"TileGame(length={self.length})"

    def board_view(self) -> BoardView:
        """The board for the web pages (:mod:`plies.games.tiles.view`)."""
        from plies.games.tiles.view import TileView

        return TileView(self, stay=STAY)

    def initial_state(self) -> TileState:
        return TileState(1, self.length, "A", 0)

    def to_move(self, state: TileState) -> str:
        return state.to_move

    def actions(self, state: TileState) -> Sequence[int]:
        """The forward move (a step or a jump) if there is one, then staying."""
        if self.is_terminal(state):
            return []
        if state.to_move == "A":
            own, other, step = state.a, state.b, 1
        else:
            own, other, step = state.b, state.a, -1
        target = own + step
        if target == other:
            target += step
        if 1 <= target <= self.length:
            return [target, own]
        return [own]

    def result(self, state: TileState, action: int) -> TileState:
        if action not in self.actions(state):
            raise IllegalMoveError(f"move {action} is not legal in this position")
        mover = state.to_move
        own = state.a if mover == "A" else state.b
        stays = state.stays + 1 if action == own else 0
        a, b = (action, state.b) if mover == "A" else (state.a, action)
        return TileState(a, b, self.opponent(mover), stays)

    def is_terminal(self, state: TileState) -> bool:
        return state.a == self.length or state.b == 1 or state.stays >= 2

    def winner(self, state: TileState) -> str | None:
        if state.a == self.length:
            return "A"
        if state.b == 1:
            return "B"
        return None

    def hash_key(self, state: TileState) -> int:
        """The squares, the stay counter and the mover packed into one integer: distinct for
        distinct states, and the same in every process."""
        return ((state.a * (self.length + 1) + state.b) * 3 + state.stays) * 2 + (
            state.to_move == "B"
        )

    def evaluate(self, state: TileState, player: str) -> float:
        """EVAL: squares A has advanced minus squares B has, strictly between loss and win."""
        if self.is_terminal(state):
            return self.utility(state, player)
        lead = ((state.a - 1) - (self.length - state.b)) / (self.length - 1)
        if player != "A":
            lead = -lead
        return self.estimate(lead, player)

    # Notation --------------------------------------------------------------------------------

    def format_action(self, state: TileState, action: int) -> str:
        own = state.a if state.to_move == "A" else state.b
        return STAY if action == own else str(action)

    def parse_action(self, state: TileState, text: str) -> int:
        """``stay`` (or ``s``, or the mover's own square) or the destination square number."""
        move = text.strip()
        word = move.lower()
        if word not in (STAY, "s") and not (word.isascii() and word.isdigit()):
            raise IllegalMoveError(f"move {move!r} is not a square number or {STAY!r}")
        if word.isdigit() and not 1 <= int(word) <= self.length:
            raise IllegalMoveError(
                f"move {move!r}: there is no square {int(word)} (squares 1 to {self.length})"
            )
        if self.is_terminal(state):
            raise IllegalMoveError(f"move {move!r}: the game is over")
        own = state.a if state.to_move == "A" else state.b
        square = own if word in (STAY, "s") else int(word)
        legal = self.actions(state)
        if square not in legal:
            shown = " ".join(self.format_action(state, a) for a in legal)
            raise IllegalMoveError(
                f"move {move!r}: {state.to_move} on square {own} cannot go there; "
                f"legal moves: {shown}"
            )
        return square

    def can_draw(self) -> bool:
        return True

    def format_position(self, state: TileState) -> str:
        row = self._row(state)
        return row if state.to_move == "A" else f"{row} {state.to_move}"

    def parse_position(self, text: str) -> TileState:
        """The row of A, B and . (like ``.A.B``), then optionally a space and the mover A or B."""
        words = text.upper().split()
        if not 1 <= len(words) <= 2:
            raise InvalidPositionError(
                f"position {text!r} is not a row of A, B and . with an optional mover (.A.B B)"
            )
        row, mover = words[0], words[1] if len(words) == 2 else "A"
        if mover not in self.players:
            raise InvalidPositionError(f"position {text!r}: the mover {mover!r} is not A or B")
        if len(row) != self.length:
            raise InvalidPositionError(
                f"position {text!r} has {len(row)} squares; the row has {self.length}"
            )
        bad = set(row) - {"A", "B", EMPTY}
        if bad:
            raise InvalidPositionError(
                f"position {text!r} has {sorted(bad)[0]!r}; use A, B and . for empty"
            )
        for token in self.players:
            if row.count(token) != 1:
                raise InvalidPositionError(
                    f"position {text!r} has {row.count(token)} {token} tokens; it needs one"
                )
        a, b = row.index("A") + 1, row.index("B") + 1
        if a == self.length and b == 1:
            raise InvalidPositionError(f"position {text!r}: A and B have both reached their goals")
        return TileState(a, b, mover, 0)

    def display(self, state: TileState) -> str:
        width = len(str(self.length))
        numbers = " ".join(f"{i:>{width}}" for i in range(1, self.length + 1))
        cells = " ".join(f"{c:>{width}}" for c in self._row(state))
        if not self.is_terminal(state):
            turn = f"{state.to_move} to move"
            if state.stays:
                turn += "; staying now draws"
        elif (winner := self.winner(state)) is not None:
            turn = f"game over: {winner} wins"
        else:
            turn = "game over: a draw"
        return "\n".join([numbers, cells, turn])

    def _row(self, state: TileState) -> str:
        """The squares as A, B and ., square 1 first."""
        return "".join(
            "A" if i == state.a else "B" if i == state.b else EMPTY
            for i in range(1, self.length + 1)
        )
