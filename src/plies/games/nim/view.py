"""Nim's heaps for the web pages: clicking object i of a heap takes it and every one after it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from plies.games.grid import Json

if TYPE_CHECKING:
    from plies.games.nim.rules import Nim, NimState


class NimView:
    """A ``heaps`` view: ``heaps``, each ``{"id", "size", "objects"}``, the objects' ids first
    to last."""

    def __init__(self, game: Nim) -> None:
        self.game = game

    def drawing(self, state: NimState, last: object, flipped: bool) -> Json:
        heaps = [
            {
                "id": f"h{heap + 1}",
                "size": size,
                "objects": [_object(heap, index) for index in range(size)],
            }
            for heap, size in enumerate(state.heaps)
        ]
        return {"kind": "heaps", "heaps": heaps, "facts": [["objects", str(sum(state.heaps))]]}

    def path(self, state: NimState, action: tuple[int, int], notation: str) -> list[str]:
        heap, count = action
        return [_object(heap, state.heaps[heap] - count)]

    def status(self, state: NimState) -> None:
        return None


def _object(heap: int, index: int) -> str:
    """The id of object ``index`` (0-based) of ``heap`` (0-based): ``h1o1`` is heap 1's first."""
    return f"h{heap + 1}o{index + 1}"
