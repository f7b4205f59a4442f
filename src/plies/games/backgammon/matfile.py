"""Backgammon games and matches written as a match file (``.mat``): the plain text JellyFish
introduced and GNU Backgammon, eXtreme Gammon and BGBlitz read and write.

A header `` 7 point match`` (``0`` for money play), then each game: `` Game 1``, the players'
names and scores before it (White on the left, Black on the right), and numbered rows of each
side's turns, White's left and Black's right: the roll and the checkers moved one die at a
time, from the mover's side, 25 the bar and 0 off, ``*`` on a hit (``31: 8/5* 6/5``), or the
cube's `` Doubles => 2``, `` Takes``, `` Drops``, `` Beavers => 4``; a finished game ends with
its winner's ``Wins 2 points`` (beside White's ``Drops`` when White drops, else on a line of
its own). A turn that cannot move is its roll alone (``63:``). GNU
Backgammon's own export lays the columns out the same way (a row's number in 5 characters,
White's column in 28; cube actions start with a space)::

     3 point match

     Game 1
     White : 0                       Black : 0
      1)                             61: 13/7 8/7
      2) 62: 24/22 22/16             44: 13/9* 13/9 9/5 9/5
      3) 31: 25/24 13/10              Doubles => 2
      4)  Takes                      42: 8/4 6/4
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from plies.errors import RenderError

if TYPE_CHECKING:
    from plies.games.backgammon.rules import Backgammon, BackgammonState

NUMBER_WIDTH = 5
"""`` 12) ``: a row's number."""
LEFT_WIDTH = 28
"""White's column."""
NAME_WIDTH = 32
"""The left player's name and score, before the right player's."""


def player_name(name: str) -> str:
    """``name`` as a match file can hold it: letters, digits and ``_.+=-``, others ``_``."""
    return re.sub(r"[^A-Za-z0-9_.+=-]", "_", name.strip()) or "player"


def match_file(
    game: Backgammon, start: BackgammonState, moves: Iterable[Any], names: Sequence[str]
) -> str:
    """The match file of the game (or match) played from ``start`` (a game's opening) with
    ``moves`` (rolls, cube actions and turns) by White and Black, named ``names``."""
    from plies.games.backgammon.rules import DROP, OPENING

    if start.mover != OPENING:
        raise RenderError("a match file starts at a game's opening roll")
    white, black = (player_name(name) for name in names)
    lines = [f" {game.match} point match"]
    rows: list[list[str]] = []
    state, number, dice = start, 0, ""

    def close() -> None:
        for index, (left, right) in enumerate(rows, 1):
            gap = " " * (len(left) >= LEFT_WIDTH)
            lines.append(f"{index:3d}) {left:<{LEFT_WIDTH}}{gap}{right}".rstrip())
        rows.clear()

    for action in moves:
        if state.mover == OPENING:
            number += 1
            head = f" {white} : {state.score[0]}"
            lines += ["", f" Game {number}", f"{head:<{NAME_WIDTH}}{black} : {state.score[1]}"]
        side, entry, dice = _entry(game, state, action, dice)
        after = game.result(state, action)
        if entry is not None:
            _place(rows, side, entry)
        winner, points = _game_end(game, state, after)
        if winner is not None:
            wins = f" Wins {points} point{'s' * (points != 1)}"
            if action == DROP and winner == 1:  # beside White's drop, as gnubg writes it
                rows[-1][1] = wins
            close()
            if action != DROP or winner == 0:
                lines.append(" " * (NUMBER_WIDTH + LEFT_WIDTH * winner) + wins)
        state = after
    close()
    return "\n".join(lines) + "\n"


def _entry(
    game: Backgammon, state: BackgammonState, action: Any, dice: str
) -> tuple[int, str | None, str]:
    """The side acting, its text in the file (None for a roll, written with the turn) and the
    dice rolled (kept for the turn)."""
    from plies.games.backgammon.rules import BEAVER, DOUBLE, DROP, OPENING, TAKE, Roll

    if isinstance(action, Roll):
        side = action.opener if state.mover == OPENING else state.mover
        return side, None, f"{action.high}{action.low}"
    if isinstance(action, str):
        texts = {
            DOUBLE: f" Doubles => {2 * state.cube}",
            TAKE: " Takes",
            DROP: " Drops",
            BEAVER: f" Beavers => {4 * state.cube}",
        }
        side = state.mover if action == DOUBLE else 1 - state.mover
        return side, texts.get(action), dice
    return state.mover, f"{dice}: {' '.join(_steps(state, action))}".rstrip(), dice


def _steps(state: BackgammonState, turn: Sequence[tuple[int, int]]) -> list[str]:
    """Each checker moved by one die, ``from/to`` in the mover's numbering (25 the bar, 0 off),
    ``*`` where it hits."""
    from plies.games.backgammon.rules import OFF, _moved, _view

    view, _ = _view(state, state.mover)
    texts = []
    for source, target in turn:
        hit = target != OFF and view[target] == -1
        view, _ = _moved(view, 0, source, target)
        texts.append(f"{source}/{target}{'*' * hit}")
    return texts


def _place(rows: list[list[str]], side: int, entry: str) -> None:
    """Put ``entry`` in its side's column: White's starts a row, Black's ends the last row
    unless it is full (a row with White's column empty then)."""
    if side == 0 or not rows or rows[-1][1]:
        rows.append(["", ""])
    rows[-1][side] = entry


def _game_end(
    game: Backgammon, before: BackgammonState, after: BackgammonState
) -> tuple[int | None, int]:
    """Who won the game that ``after`` ends (0 White, 1 Black) and its points; (None, 0) while
    it goes on."""
    from plies.games.backgammon.rules import OPENING, SIDES

    if game.is_terminal(after):
        winner = game.winner(after)
        assert winner is not None
        side = SIDES.index(winner)
        points = after.score[side] - before.score[side] if game.match else game.points_won(after)
        return side, points
    if after.mover == OPENING and before.mover != OPENING:
        gains = [after.score[side] - before.score[side] for side in (0, 1)]
        side = 0 if gains[0] else 1
        return side, gains[side]
    return None, 0
