"""Boards for the pages: a position of any game as JSON to draw (:func:`board_view`) and the
clicks that make each legal move (:func:`move_paths`), both read by ``static/boards.js``.

Every view has ``game`` (the game's name), ``kind`` (how to draw it: ``grid``, ``nim``,
``chess``, ``backgammon``, or ``text`` for a game plies cannot draw), ``to_move`` (the
player to move, ``chance`` before a roll of the dice, None at the end), ``status``
(a line: who moves, or how the game ended), ``over``, ``position`` (the game's position
notation, or None), ``facts`` (label and value pairs shown under the board), ``buttons``
(targets off the board, such as ``pass``: ``{"id", "label"}``), ``last`` (the ids the last
move touched), ``pairs`` and ``explain_illegal``. A move's path is the ids of the targets
clicked to make it, in order; where ``pairs`` is true (backgammon) the path is (from, to)
pairs, entered in any order. Where ``explain_illegal`` is true (Go), a click on a target that
starts no legal move is sent as a move too, so that the game's answer says why it is illegal.

>>> from plies.games import make_game
>>> game = make_game("connect4")
>>> state = game.parse_position("44")
>>> view = board_view(game, state)
>>> view["kind"], view["style"], view["status"], view["column_targets"][:2]
('grid', 'connect4', 'X to move', ['col1', 'col2'])
>>> move_paths(game, state)[0]
{'notation': '4', 'path': ['col4']}
"""

from __future__ import annotations

import collections
import re
from collections.abc import Sequence
from itertools import pairwise
from typing import Any

import chess
import chess.svg

from plies.capabilities import HasPositionNotation
from plies.game import CHANCE, Game
from plies.games.backgammon import (
    BAR,
    OFF,
    OPENING,
    SIDES,
    Backgammon,
    BackgammonState,
    Roll,
)
from plies.games.checkers.rules import DRAW_PLIES, Checkers, CheckersState
from plies.games.chess.rules import Chess, ChessState
from plies.games.connect4.rules import ConnectFour, ConnectFourState
from plies.games.go.rules import COLOURS as GO_COLOURS
from plies.games.go.rules import COLUMNS as GO_COLUMNS
from plies.games.go.rules import PASS as GO_PASS
from plies.games.go.rules import Go, GoState
from plies.games.nim import Nim, NimState
from plies.games.othello.rules import PASS, Othello, OthelloState
from plies.games.tictactoe.rules import EMPTY, Board, TicTacToe
from plies.games.tictactoe.three import TicTacToe3
from plies.games.tiles import STAY, TileGame, TileState
from plies.play import outcome_text

Json = dict[str, Any]

CHESS_MARGIN = 15
"""The coordinate margin of python-chess's SVG board (``coordinates=True``), in its units."""
CHESS_SQUARE = 45
"""A square of python-chess's SVG board (``chess.svg.SQUARE_SIZE``)."""
FILES = "abcdefgh"
SIDE_NAMES = {"B": "Black", "W": "White"}
"""Othello's, checkers' and Go's players by their letters."""
GO_STONES = {colour: player for player, colour in GO_COLOURS.items()}
"""Go's stones (the bytes of its board) by the player who owns them."""


def board_view(game: Game[Any, Any], state: Any, last: Any = None, flipped: bool = False) -> Json:
    """What to draw for ``state``: see the module's docstring for the fields every view has
    and :func:`_grid` and the other ``_view`` functions for each kind's own. ``last`` is the
    action that led to ``state`` (highlighted), ``flipped`` turns the board round where it has
    a side (chess and checkers: Black at the bottom; backgammon: Black's home board)."""
    mover = game.to_move(state)
    over = game.is_terminal(state)
    view: Json = {
        "game": game.name,
        "to_move": None if over else mover,
        "status": _status(game, state),
        "over": over,
        "position": game.format_position(state) if isinstance(game, HasPositionNotation) else None,
        "facts": [],
        "buttons": [],
        "last": [],
        "pairs": False,
        "explain_illegal": False,
    }
    view.update(_drawing(game, state, last, flipped))
    return view


def move_paths(game: Game[Any, Any], state: Any) -> list[Json]:
    """Every legal move as ``{"notation", "path"}``: its text in the game's notation (which
    ``game.parse_action`` reads back) and the target ids clicked to make it. Empty in a
    finished game and in a chance state (the session rolls the dice)."""
    if game.is_terminal(state) or game.to_move(state) == CHANCE:
        return []
    moves = []
    for action in game.actions(state):
        notation = game.format_action(state, action)
        moves.append({"notation": notation, "path": _path(game, state, action, notation)})
    return moves


# Dispatch ----------------------------------------------------------------------------------


def _drawing(game: Game[Any, Any], state: Any, last: Any, flipped: bool) -> Json:
    """The fields of ``state``'s view that depend on the game."""
    if isinstance(game, TicTacToe | TicTacToe3):
        return _tictactoe_view(game, state, last)
    if isinstance(game, ConnectFour):
        return _connect4_view(game, state, last)
    if isinstance(game, Othello):
        return _othello_view(game, state, last)
    if isinstance(game, Go):
        return _go_view(game, state, last)
    if isinstance(game, Checkers):
        return _checkers_view(state, last, flipped)
    if isinstance(game, TileGame):
        return _tiles_view(game, state, last)
    if isinstance(game, Nim):
        return _nim_view(state)
    if isinstance(game, Chess):
        return _chess_view(state, last, flipped)
    if isinstance(game, Backgammon):
        return _backgammon_view(game, state, last, flipped)
    return {"kind": "text", "text": game.display(state)}


def _path(game: Game[Any, Any], state: Any, action: Any, notation: str) -> list[str]:
    """The target ids clicked to make ``action`` (written ``notation``)."""
    if isinstance(game, ConnectFour):
        return [f"col{notation}"]
    if isinstance(game, Checkers):
        return [str(square) for square in action]
    if isinstance(game, Nim):
        heap, count = action
        return [_nim_object(heap, state.heaps[heap] - count)]
    if isinstance(game, Chess):
        return [chess.square_name(action.from_square), chess.square_name(action.to_square)]
    if isinstance(game, Backgammon):
        return _backgammon_path(state, notation)
    return [notation]  # grids whose cells are named as moves, buttons, or the text view's list


def _status(game: Game[Any, Any], state: Any) -> str:
    """Who moves, or how the game ended, in a line."""
    if game.is_terminal(state):
        outcome = outcome_text(game, state)
        if isinstance(game, Othello | Checkers | Go):
            winner = game.winner(state)
            outcome = "draw" if winner is None else f"{SIDE_NAMES[winner]} wins"
        if isinstance(game, Chess):
            outcome += f" ({game.termination(state)})"
        if isinstance(game, Go):
            outcome += f" ({game.result_text(state)})"
        return f"game over: {outcome}"
    mover = game.to_move(state)
    if isinstance(game, Backgammon):
        if state.mover == OPENING:
            return "the opening roll is next"
        dice = "-".join(map(str, state.dice))
        return f"{mover} to move with {dice}" if state.dice else f"{SIDES[state.mover]} to roll"
    if mover == CHANCE:
        return "chance moves next"
    name = SIDE_NAMES.get(mover, mover) if isinstance(game, Othello | Checkers | Go) else mover
    if isinstance(game, Othello) and game.actions(state) == [PASS]:
        return f"{name} has no move and must pass"
    if isinstance(game, Go) and state.passes:
        return f"{name} to move ({SIDE_NAMES[game.opponent(mover)]} passed)"
    return f"{name} to move"


# Grids -------------------------------------------------------------------------------------


def _grid(
    style: str,
    cells: list[list[Json]],
    column_labels: Sequence[str],
    row_labels: Sequence[str],
    cell_targets: bool = True,
) -> Json:
    """A ``grid`` view: ``style`` (the look: ``tictactoe``, ``connect4``, ``othello``,
    ``checkers``, ``tiles``, ``go``), ``rows`` and ``columns``, ``cells`` (rows from the top,
    each cell ``{"id", "piece"}`` plus ``king`` and ``dark`` for checkers, ``star`` for Go and
    ``label`` for a number drawn in it), ``column_labels`` and ``row_labels``, and
    ``cell_targets`` (whether the cells' ids are click targets; Connect Four's targets are its
    ``column_targets``)."""
    return {
        "kind": "grid",
        "style": style,
        "rows": len(cells),
        "columns": len(cells[0]) if cells else 0,
        "cells": cells,
        "column_labels": list(column_labels),
        "row_labels": list(row_labels),
        "cell_targets": cell_targets,
    }


def _tictactoe_view(game: TicTacToe | TicTacToe3, state: Board, last: int | None) -> Json:
    grid = game.grid if isinstance(game, TicTacToe3) else game
    cells = [
        [
            {
                "id": grid.format_action(state, r * game.n + c),
                "piece": _mark(state.cells, r, c, game.n),
            }
            for c in range(game.n)
        ]
        for r in range(game.m)
    ]
    view = _grid("tictactoe", cells, _letters(game.n), [str(r + 1) for r in range(game.m)])
    view["last"] = [] if last is None else [grid.format_action(state, last)]
    view["facts"] = [["k in a row", str(game.k)]]
    return view


def _mark(cells: str, row: int, column: int, width: int) -> str | None:
    mark = cells[row * width + column]
    return None if mark == EMPTY else mark


def _connect4_view(game: ConnectFour, state: ConnectFourState, last: int | None) -> Json:
    """Cells are named ``column-row`` (``4-1``: column 4, bottom row); the targets are the
    columns, ``col1`` to ``colN``."""
    mover = game.to_move(state)
    stride = game.height + 1
    stones = {0: None, 1: game.opponent(mover), 3: mover}  # mask bit + 2 * current bit
    cells = [
        [
            {
                "id": f"{c + 1}-{r + 1}",
                "piece": stones[
                    (state.mask >> (c * stride + r) & 1)
                    + 2 * (state.current >> (c * stride + r) & 1)
                ],
            }
            for c in range(game.width)
        ]
        for r in reversed(range(game.height))
    ]
    labels = [str(c + 1) for c in range(game.width)]
    view = _grid("connect4", cells, labels, [], cell_targets=False)
    view["column_targets"] = [f"col{label}" for label in labels]
    if last is not None:
        height = (state.mask >> (last * stride) & ((1 << game.height) - 1)).bit_length()
        view["last"] = [f"{last + 1}-{height}"]
    view["facts"] = [["X", "red"], ["O", "yellow"], ["stones", str(state.moves)]]
    return view


def _othello_view(game: Othello, state: OthelloState, last: int | None) -> Json:
    cells = [
        [
            {
                "id": f"{FILES[c]}{r + 1}",
                "piece": "B"
                if state.black >> (8 * r + c) & 1
                else "W"
                if state.white >> (8 * r + c) & 1
                else None,
            }
            for c in range(8)
        ]
        for r in range(8)
    ]
    view = _grid("othello", cells, FILES, [str(r + 1) for r in range(8)])
    view["facts"] = [
        ["black", str(state.black.bit_count())],
        ["white", str(state.white.bit_count())],
    ]
    if game.actions(state) == [PASS]:
        view["buttons"] = [{"id": "pass", "label": "pass"}]
    if last is not None and last != PASS:
        view["last"] = [game.format_action(state, last)]
    return view


def _go_view(game: Go, state: GoState, last: int | None) -> Json:
    """The cells are the points (stones on the lines through their middles), named as the
    game writes them (``D4``), with ``star`` on the star points of 9x9, 13x13 and 19x19
    boards; passing is the button ``pass``. Illegal clicks are explained (a taken point,
    suicide, superko)."""
    size = game.size
    stars = _star_points(size)
    cells = [
        [
            {
                "id": game.format_action(state, row * size + column),
                "piece": GO_STONES.get(state.board[row * size + column]),
                "star": (row, column) in stars,
            }
            for column in range(size)
        ]
        for row in reversed(range(size))
    ]
    view = _grid("go", cells, GO_COLUMNS[:size], [str(row + 1) for row in reversed(range(size))])
    view["explain_illegal"] = True
    if game.is_terminal(state):
        black, white = game.area(state.board)
        view["facts"] = [["Black", f"{black} points"], ["White", f"{white} + komi {game.komi:g}"]]
    else:
        view["facts"] = [["komi", f"{game.komi:g}"], ["moves", str(len(state.moves))]]
        view["buttons"] = [{"id": game.format_action(state, GO_PASS), "label": "pass"}]
    if last is not None and last != GO_PASS:
        view["last"] = [game.format_action(state, last)]
    return view


def _star_points(size: int) -> set[tuple[int, int]]:
    """The (row, column) of the star points (hoshi): the corners' and the centre's on 9x9 and
    13x13, nine on 19x19; none on other sizes."""
    if size not in (9, 13, 19):
        return set()
    edge = 2 if size == 9 else 3
    lines = (edge, size // 2, size - 1 - edge)
    return {
        (row, column)
        for row in lines
        for column in lines
        if size == 19 or (row == column == size // 2) or size // 2 not in (row, column)
    }


def _checkers_view(state: CheckersState, last: tuple[int, ...] | None, flipped: bool) -> Json:
    """Dark squares are named by their number (1 to 32, Black's back row 1-4 at the top
    unless ``flipped``) and labelled with it; light squares have no id."""
    pieces: dict[int, tuple[str | None, bool]] = {}
    for bits, side, crowned in (
        (state.black_men, "B", False),
        (state.black_kings, "B", True),
        (state.white_men, "W", False),
        (state.white_kings, "W", True),
    ):
        pieces.update(dict.fromkeys(_bits(bits), (side, crowned)))
    order = range(7, -1, -1) if flipped else range(8)
    cells = []
    for row in order:
        line = []
        for col in order:
            dark = (row + col) % 2 == 1
            square = 4 * row + col // 2 + 1 if dark else 0
            cell: Json = {"id": None, "piece": None, "dark": dark}
            if dark:
                piece, king = pieces.get(square, (None, False))
                cell.update(id=str(square), piece=piece, king=king, label=str(square))
            line.append(cell)
        cells.append(line)
    view = _grid("checkers", cells, [FILES[c] for c in order], [str(8 - r) for r in order])
    counts = collections.Counter(pieces.values())
    view["facts"] = [
        [
            SIDE_NAMES[side],
            f"{_count(counts[side, False], 'man', 'men')}, "
            f"{_count(counts[side, True], 'king', 'kings')}",
        ]
        for side in "BW"
    ]
    if state.quiet:
        view["facts"].append(["quiet plies", f"{state.quiet} of {DRAW_PLIES}"])
    view["last"] = [] if last is None else [str(square) for square in last]
    return view


def _count(number: int, one: str, many: str) -> str:
    return f"{number} {one if number == 1 else many}"


def _bits(bits: int) -> list[int]:
    """The squares (1-based) of a checkers bitboard."""
    return [index + 1 for index in range(32) if bits >> index & 1]


def _tiles_view(game: TileGame, state: TileState, last: int | None) -> Json:
    """One row of squares named ``1`` to ``length``; staying is the button ``stay``."""
    cells = [
        [
            {"id": str(i), "piece": "A" if i == state.a else "B" if i == state.b else None}
            for i in range(1, game.length + 1)
        ]
    ]
    view = _grid("tiles", cells, [str(i) for i in range(1, game.length + 1)], [])
    if not game.is_terminal(state):
        view["buttons"] = [{"id": STAY, "label": "stay"}]
    if state.stays:
        view["facts"] = [["stays in a row", str(state.stays)]]
    if last is not None:
        view["last"] = [str(last)]
    return view


def _letters(count: int) -> list[str]:
    return [chr(ord("a") + index) for index in range(count)]


# Nim ---------------------------------------------------------------------------------------


def _nim_view(state: NimState) -> Json:
    """``heaps``: each ``{"id", "size", "objects"}``, the objects' ids first to last; clicking
    object i takes it and every one after it."""
    heaps = [
        {
            "id": f"h{heap + 1}",
            "size": size,
            "objects": [_nim_object(heap, index) for index in range(size)],
        }
        for heap, size in enumerate(state.heaps)
    ]
    return {"kind": "nim", "heaps": heaps, "facts": [["objects", str(sum(state.heaps))]]}


def _nim_object(heap: int, index: int) -> str:
    """The id of object ``index`` (0-based) of ``heap`` (0-based): ``h1o1`` is heap 1's first."""
    return f"h{heap + 1}o{index + 1}"


# Chess -------------------------------------------------------------------------------------


def _chess_view(state: ChessState, last: chess.Move | None, flipped: bool) -> Json:
    """python-chess's SVG picture (``svg``; ``margin`` and ``square`` are its geometry, in the
    units of its ``size``), ``flipped``, and ``pieces`` (``{"square", "piece"}``, the piece as
    its FEN letter); the targets are the squares, ``a1`` to ``h8``."""
    board = state.board
    king = board.king(board.turn)
    check = king if board.is_check() else None
    picture = chess.svg.board(
        board,
        orientation=chess.BLACK if flipped else chess.WHITE,
        lastmove=last,
        check=check,
        coordinates=True,
    )
    pieces = [
        {"square": chess.square_name(square), "piece": piece.symbol()}
        for square, piece in sorted(board.piece_map().items())
    ]
    facts = [["move", str(board.fullmove_number)]]
    if check is not None:
        facts.append(["check", chess.square_name(check)])
    return {
        "kind": "chess",
        "svg": picture,
        "margin": CHESS_MARGIN,
        "square": CHESS_SQUARE,
        "size": 2 * CHESS_MARGIN + 8 * CHESS_SQUARE,
        "flipped": flipped,
        "pieces": pieces,
        "facts": facts,
        "last": []
        if last is None
        else [chess.square_name(last.from_square), chess.square_name(last.to_square)],
    }


# Backgammon --------------------------------------------------------------------------------

_LEG = re.compile(r"(bar|[0-9]+)((?:/(?:[0-9]+|off)\*?)+)(?:\(([0-9])\))?")


def _backgammon_view(game: Backgammon, state: BackgammonState, last: Any, flipped: bool) -> Json:
    """``points``: White's points 1 to 24 as ``{"id", "label", "count", "side"}`` (ids ``p1``
    to ``p24`` in White's numbering, labels in the numbering of the side to move, or of the side
    at the bottom before the opening roll); ``top`` and ``bottom``: the ids left to right, the
    bar between the sixth and seventh; ``bottom_side`` (whose home board is bottom right);
    ``bar``, ``off`` and ``pips`` by side; ``dice``. The targets are the points, ``bar`` and
    ``off`` (the mover's), and ``pass``."""
    bottom_side = 1 if flipped else 0
    numbering = bottom_side if state.mover == OPENING else state.mover
    points = []
    for index, count in enumerate(state.points):
        white_point = index + 1
        label = white_point if numbering == 0 else 25 - white_point
        side = None if count == 0 else SIDES[0] if count > 0 else SIDES[1]
        points.append(
            {"id": f"p{white_point}", "label": str(label), "count": abs(count), "side": side}
        )
    upper, lower = list(range(13, 25)), list(range(12, 0, -1))
    top, bottom = (lower, upper) if flipped else (upper, lower)
    pips = {SIDES[side]: _pips(state, side) for side in (0, 1)}
    view: Json = {
        "kind": "backgammon",
        "points": points,
        "top": [f"p{p}" for p in top],
        "bottom": [f"p{p}" for p in bottom],
        "bottom_side": SIDES[bottom_side],
        "bar": {SIDES[side]: state.bar[side] for side in (0, 1)},
        "off": {SIDES[side]: state.off[side] for side in (0, 1)},
        "pips": pips,
        "dice": list(state.dice),
        "pairs": True,
        "facts": [[f"{side} pips", str(count)] for side, count in pips.items()],
    }
    if state.dice and game.actions(state) == [()]:
        view["buttons"] = [{"id": "pass", "label": "pass"}]
    if last is not None and not isinstance(last, Roll) and state.mover != OPENING:
        mover = 1 - state.mover
        view["last"] = sorted({_point_id(mover, p) for move in last for p in move})
    return view


def _pips(state: BackgammonState, side: int) -> int:
    """The pips ``side`` needs to bear off every checker."""
    sign = 1 if side == 0 else -1
    on_points = sum(
        (index + 1 if side == 0 else 24 - index) * count * sign
        for index, count in enumerate(state.points)
        if count * sign > 0
    )
    return on_points + BAR * state.bar[side]


def _point_id(side: int, point: int) -> str:
    """The id of ``side``'s point ``point`` (its own numbering; :data:`BAR` and :data:`OFF`
    too)."""
    if point == BAR:
        return "bar"
    if point == OFF:
        return "off"
    return f"p{point if side == 0 else 25 - point}"


def _backgammon_path(state: BackgammonState, notation: str) -> list[str]:
    """The (from, to) pairs of a turn's notation, flattened: one pair per checker moved as
    written (``24/13``: from 24 to 13), split where it hits on the way (``24/18*/13``), and
    repeated as marked (``8/5(2)``); ``pass`` is the button."""
    if notation == "pass":
        return ["pass"]
    path = []
    for part in notation.split():
        match = _LEG.fullmatch(part)
        assert match is not None, f"the game wrote {part!r}"
        points = [match[1], *re.findall(r"[0-9]+|off", match[2])]
        ids = [
            _point_id(state.mover, BAR if p == "bar" else OFF if p == "off" else int(p))
            for p in points
        ]
        pairs = [id_ for leg in pairwise(ids) for id_ in leg]
        path += pairs * int(match[3] or 1)
    return path
