"""Nim: players A and B take turns removing one or more objects from a single heap.

In normal play whoever takes the last object wins; in misère play whoever takes it loses.
Bouton's rule solves both: the player to move wins normal play iff the XOR of the heap sizes is
not 0, and misère play likewise unless every heap holds at most one object, when the mover wins
iff the number of one-object heaps is even. Nim deliberately has no evaluation function, so
depth-limited search refuses it.

Moves are written ``H:C`` (take C objects from heap H, heaps counted from 1); positions as heap
sizes separated by commas, spaces or dashes, optionally followed by the mover (A by default):

>>> game = Nim()
>>> state = game.initial_state()
>>> game.format_position(state), game.format_action(state, (1, 3))
('3,4,5', '2:3')
>>> state = game.parse_position("0,0,2 B")
>>> game.winner(game.result(state, game.parse_action(state, "3:2")))
'B'
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import NamedTuple

from plies.capabilities import BoardView
from plies.errors import IllegalMoveError, InvalidPositionError, SpecError
from plies.game import WinLossDrawGame
from plies.registry import GameOption


class NimState(NamedTuple):
    """A Nim state: the heap sizes and the player to move."""

    heaps: tuple[int, ...]
    to_move: str


class Nim(WinLossDrawGame[NimState, tuple[int, int]]):
    """Nim on the given heaps. Actions are ``(heap_index, count)`` with 0-based heap indices."""

    name = "nim"
    summary = "Nim: take any number from one heap; normal or misere play"
    options: tuple[GameOption, ...] = (
        GameOption(
            "heaps",
            "text",
            "heap sizes separated by dashes",
            "3-4-5",
            show=lambda heaps: "-".join(str(size) for size in heaps),
        ),
        GameOption("misere", "flag", "whoever takes the last object loses", False),
    )
    default_opponent = "alphabeta"
    opening_plies = 0
    players = ("A", "B")

    def __init__(self, heaps: Sequence[int] | str = (3, 4, 5), misere: bool = False):
        """``heaps`` are sizes, or written as in a spec (``3-4-5``)."""
        if isinstance(heaps, str):
            try:
                heaps = _read_heaps(heaps)
            except ValueError as error:
                raise SpecError(f"nim: heaps={heaps!r}: {error} (write sizes like 3-4-5)") from None
        if not heaps:
            raise SpecError("nim: there must be at least one heap")
        if any(size < 0 for size in heaps):
            raise SpecError(f"nim: heap sizes {tuple(heaps)} must not be negative")
        try:
            _check_size(heaps)
        except ValueError as error:
            raise SpecError(f"nim: {error}") from None
        self.heaps, self.misere = tuple(heaps), misere

    def __repr__(self) -> str:
        return f"Nim(heaps={self.heaps}, misere={self.misere})"

    def board_view(self) -> BoardView:
        """The board for the web pages (:mod:`plies.games.nim.view`)."""
        from plies.games.nim.view import NimView

        return NimView(self)

    def initial_state(self) -> NimState:
        return NimState(self.heaps, "A")

    def to_move(self, state: NimState) -> str:
        return state.to_move

    def actions(self, state: NimState) -> Sequence[tuple[int, int]]:
        return [(i, count) for i, size in enumerate(state.heaps) for count in range(1, size + 1)]

    def result(self, state: NimState, action: tuple[int, int]) -> NimState:
        heap, count = action
        if not 0 <= heap < len(state.heaps) or not 1 <= count <= state.heaps[heap]:
            raise IllegalMoveError(f"move {action} is not legal in this position")
        heaps = (*state.heaps[:heap], state.heaps[heap] - count, *state.heaps[heap + 1 :])
        return NimState(heaps, self.opponent(state.to_move))

    def is_terminal(self, state: NimState) -> bool:
        return not any(state.heaps)

    def winner(self, state: NimState) -> str | None:
        """At the end the player to move loses normal play (the other took the last object)."""
        if not self.is_terminal(state):
            return None
        return state.to_move if self.misere else self.opponent(state.to_move)

    # Notation --------------------------------------------------------------------------------

    def format_action(self, state: NimState, action: tuple[int, int]) -> str:
        heap, count = action
        return f"{heap + 1}:{count}"

    def parse_action(self, state: NimState, text: str) -> tuple[int, int]:
        """``H:C``: take C objects from heap H (1-based); raises :class:`IllegalMoveError`."""
        move = text.strip()
        match = re.fullmatch(r"([0-9]+)\s*:\s*([0-9]+)", move)
        if match is None:
            raise IllegalMoveError(f"move {move!r} is not H:C (take C objects from heap H)")
        if self.is_terminal(state):
            raise IllegalMoveError(f"move {move!r}: the game is over")
        heap, count = int(match[1]), int(match[2])
        if not 1 <= heap <= len(state.heaps):
            raise IllegalMoveError(
                f"move {move!r}: there is no heap {heap} (heaps 1 to {len(state.heaps)})"
            )
        if count == 0:
            raise IllegalMoveError(f"move {move!r}: take at least one object")
        size = state.heaps[heap - 1]
        if count > size:
            raise IllegalMoveError(
                f"move {move!r}: heap {heap} has {size} left, fewer than {count}"
            )
        return heap - 1, count

    def format_position(self, state: NimState) -> str:
        sizes = ",".join(str(size) for size in state.heaps)
        return sizes if state.to_move == "A" else f"{sizes} {state.to_move}"

    def parse_position(self, text: str) -> NimState:
        """Heap sizes separated by commas, spaces or dashes, then optionally the mover A or B."""
        match = re.fullmatch(r"\s*(.*?)(?:\s+([ABab]))?\s*", text, re.DOTALL)
        assert match is not None  # the pattern matches every string
        try:
            heaps = _read_heaps(match[1])
        except ValueError as error:
            raise InvalidPositionError(f"position {text!r}: {error}") from None
        return NimState(heaps, (match[2] or "A").upper())

    def display(self, state: NimState) -> str:
        rows = [
            " ".join(part for part in (f"heap {i}:", "|" * size, f"({size})") if part)
            for i, size in enumerate(state.heaps, start=1)
        ]
        if self.is_terminal(state):
            rows.append(f"game over: {self.winner(state)} wins")
        else:
            rows.append(f"{state.to_move} to move")
        return "\n".join(rows)


def _read_heaps(text: str) -> tuple[int, ...]:
    """Heap sizes separated by commas, spaces or dashes; a ValueError says what is wrong."""
    if re.search(r"(?:^|[\s,-])-[0-9]", text.strip()):
        raise ValueError("heap sizes cannot be negative")
    parts = [part for word in re.split(r"\s*,\s*|\s+", text.strip()) for part in word.split("-")]
    if parts == [""]:
        raise ValueError("there are no heaps")
    for part in parts:
        if not re.fullmatch(r"[0-9]+", part):
            raise ValueError(f"{part!r} is not a heap size" if part else "a heap size is missing")
    heaps = tuple(int(part) for part in parts)
    _check_size(heaps)
    return heaps


MAX_HEAP = 1000
"""The largest heap: a search holds a heap's moves at every ply, so bigger heaps cannot fit."""
MAX_HEAPS = 32


def _check_size(heaps: Sequence[int]) -> None:
    """A ValueError when there are more than :data:`MAX_HEAPS` heaps or one is over
    :data:`MAX_HEAP`."""
    if len(heaps) > MAX_HEAPS:
        raise ValueError(f"{len(heaps)} heaps are more than the {MAX_HEAPS} plies allows")
    for index, size in enumerate(heaps, start=1):
        if size > MAX_HEAP:
            raise ValueError(
                f"heap {index} has {size:,} objects, more than the {MAX_HEAP:,} plies allows"
            )
