"""Backgammon's board for the web pages: the 24 points, the bar, the checkers borne off, the
dice and, in a game with the cube, the cube and the match's score; a move's path is its (from,
to) pairs, entered in any order, a cube action its button."""

from __future__ import annotations

import re
from itertools import pairwise
from typing import TYPE_CHECKING, Any

from plies.games.grid import Json

if TYPE_CHECKING:
    from plies.games.backgammon.rules import Backgammon, BackgammonState, Roll

_LEG = re.compile(r"(bar|[0-9]+)((?:/(?:[0-9]+|off)\*?)+)(?:\(([0-9])\))?")


class BackgammonView:
    """A ``points`` view: ``look`` (``{"colours"}``, each side's checkers' colour); ``points``:
    White's points 1 to 24 as ``{"id", "label", "count", "side"}`` (ids ``p1`` to ``p24`` in
    White's numbering, labels in the numbering of the side to move, or of the side at the bottom
    before the opening roll); ``top`` and ``bottom``: the ids left to right, the bar between the
    sixth and seventh; ``bottom_side`` (whose home board is bottom right); ``bar``, ``off`` and
    ``pips`` by side; ``dice``; in a game with the cube ``cube`` (``{"value", "owner"}``, the
    owner None in the middle) and, in a match, ``score`` (``{"length", "crawford", "points":
    {side: n}}``). The targets are the points, ``bar`` and ``off`` (the mover's), and the
    buttons ``pass`` and the cube's actions (``roll``, ``double``, ``take``, ``drop``,
    ``beaver``)."""

    def __init__(
        self,
        game: Backgammon,
        *,
        sides: tuple[str, str],
        bar: int,
        off: int,
        opening: int,
        roll: type[Roll],
    ) -> None:
        """The rules' ``SIDES`` (by number), the points ``BAR`` and ``OFF``, the mover
        ``OPENING`` (before the opening roll) and the chance outcome's type ``Roll``."""
        self.game, self.sides, self.bar, self.off = game, sides, bar, off
        self.opening, self.roll = opening, roll

    def drawing(self, state: BackgammonState, last: Any, flipped: bool) -> Json:
        bottom_side = 1 if flipped else 0
        numbering = bottom_side if state.mover == self.opening else state.mover
        points = []
        for index, count in enumerate(state.points):
            white_point = index + 1
            label = white_point if numbering == 0 else 25 - white_point
            side = None if count == 0 else self.sides[0] if count > 0 else self.sides[1]
            points.append(
                {"id": f"p{white_point}", "label": str(label), "count": abs(count), "side": side}
            )
        upper, lower = list(range(13, 25)), list(range(12, 0, -1))
        top, bottom = (lower, upper) if flipped else (upper, lower)
        pips = {self.sides[side]: self._pips(state, side) for side in (0, 1)}
        view: Json = {
            "kind": "points",
            "look": {"colours": {self.sides[0]: "white", self.sides[1]: "black"}},
            "points": points,
            "top": [f"p{p}" for p in top],
            "bottom": [f"p{p}" for p in bottom],
            "bottom_side": self.sides[bottom_side],
            "bar": {self.sides[side]: state.bar[side] for side in (0, 1)},
            "off": {self.sides[side]: state.off[side] for side in (0, 1)},
            "pips": pips,
            "dice": list(state.dice),
            "pairs": True,
            "facts": [[f"{side} pips", str(count)] for side, count in pips.items()],
        }
        if state.dice and self.game.actions(state) == [()]:
            view["buttons"] = [{"id": "pass", "label": "pass"}]
        if self.game.cubeful:
            self._add_cube(state, view)
        turn = last is not None and not isinstance(last, self.roll | str)
        if turn and state.mover != self.opening:
            mover = 1 - state.mover
            view["last"] = sorted({self._point_id(mover, p) for move in last for p in move})
        return view

    def path(self, state: BackgammonState, action: Any, notation: str) -> list[str]:
        """The (from, to) pairs of a turn's notation, flattened: one pair per checker moved as
        written (``24/13``: from 24 to 13), split where it hits on the way (``24/18*/13``), and
        repeated as marked (``8/5(2)``); ``pass`` is the button."""
        if notation == "pass" or isinstance(action, str):
            return [notation]
        path = []
        for part in notation.split():
            match = _LEG.fullmatch(part)
            assert match is not None, f"the game wrote {part!r}"
            points = [match[1], *re.findall(r"[0-9]+|off", match[2])]
            ids = [
                self._point_id(
                    state.mover, self.bar if p == "bar" else self.off if p == "off" else int(p)
                )
                for p in points
            ]
            pairs = [id_ for leg in pairwise(ids) for id_ in leg]
            path += pairs * int(match[3] or 1)
        return path

    def status(self, state: BackgammonState) -> str | None:
        """The opening roll, whose roll or move it is with which dice, who doubles or answers a
        double; None at the end."""
        if self.game.is_terminal(state):
            return None
        if state.mover == self.opening:
            return "the opening roll is next"
        mover = self.game.to_move(state)
        if state.dice:
            return f"{mover} to move with {'-'.join(map(str, state.dice))}"
        side = self.sides[state.mover]
        if mover != side and mover in self.sides:  # a double to answer
            return f"{side} doubles to {2 * state.cube}: {mover} to take or drop"
        return f"{side} to roll or double" if mover == side else f"{side} to roll"

    def _add_cube(self, state: BackgammonState, view: Json) -> None:
        """The cube, the match's score and the cube's buttons of a decision in ``view``."""
        game = self.game
        owner = None if state.owner < 0 else self.sides[state.owner]
        view["cube"] = {"value": state.cube, "owner": owner}
        view["facts"].append(["cube", f"{state.cube} ({owner or 'in the middle'})"])
        if game.match:
            points = {self.sides[side]: state.score[side] for side in (0, 1)}
            view["score"] = {"length": game.match, "crawford": state.crawford, "points": points}
            text = ", ".join(f"{side} {n}" for side, n in points.items())
            crawford = ", Crawford game" if state.crawford else ""
            view["facts"].append(["match", f"to {game.match}: {text}{crawford}"])
        if not state.dice and not game.is_terminal(state) and game.to_move(state) in self.sides:
            view["buttons"] = [{"id": a, "label": a} for a in map(str, game.actions(state))]

    def _pips(self, state: BackgammonState, side: int) -> int:
        """The pips ``side`` needs to bear off every checker."""
        sign = 1 if side == 0 else -1
        on_points = sum(
            (index + 1 if side == 0 else 24 - index) * count * sign
            for index, count in enumerate(state.points)
            if count * sign > 0
        )
        return on_points + self.bar * state.bar[side]

    def _point_id(self, side: int, point: int) -> str:
        """The id of ``side``'s point ``point`` (its own numbering; the bar and off
        too)."""
        if point == self.bar:
            return "bar"
        if point == self.off:
            return "off"
        return f"p{point if side == 0 else 25 - point}"
