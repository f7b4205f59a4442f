"""Boards for the pages: a position of any game as JSON to draw (:func:`board_view`) and the
clicks that make each legal move (:func:`move_paths`), both read by ``static/boards.js``.

Every view has ``game`` (the game's name), ``kind`` (the kind of board: ``grid``, ``heaps``,
``picture`` (the game's own picture, its squares laid over it), ``points``, or ``text`` for a
game plies cannot draw), ``to_move`` (the player to move, ``chance`` before a roll of the dice,
None at the end), ``status`` (a line: who moves, or how the game ended), ``over``, ``position``
(the game's position notation, or None), ``facts`` (label and value pairs shown under the
board), ``buttons`` (targets off the board, such as ``pass``: ``{"id", "label"}``), ``last``
(the ids the last move touched), ``pairs``, ``explain_illegal`` and ``seat`` (the player whose
view it is, in a game of imperfect information: the board then draws what that seat sees, and
has no position notation; None when it draws the whole state). A ``grid`` and ``points``
describe how they look in their ``look`` (:class:`plies.games.grid.Look`): the page draws a
board by its kind and its look, never by the game's name. A move's path is the ids of the
targets clicked to make it, in order; where ``pairs`` is true (backgammon) the path is (from,
to) pairs, entered in any order. Where ``explain_illegal`` is true (Go), a click on a target
that starts no legal move is sent as a move too, so that the game's answer says why it is
illegal.

A ``cards`` board is a card table: ``seats`` (top to bottom, each ``{"player", "cards",
"stake", "folded", "to_move", "won"}``: its cards, a rank such as ``K``, None for one dealt
face down; what it has put in the pot), the ``public`` cards dealt and ``public_slots`` (the
most there will be), the ``pot``, and the ``betting`` so far (``{"label", "actions"}`` a round,
each action ``{"player", "action"}``); the actions are its ``buttons``.

>>> from plies.registry import make_game
>>> game = make_game("connect4")
>>> state = game.parse_position("44")
>>> view = board_view(game, state)
>>> view["kind"], view["look"]["surface"], view["status"], view["column_targets"][:2]
('grid', 'rack', 'X to move', ['col1', 'col2'])
>>> move_paths(game, state)[0]
{'notation': '4', 'path': ['col4']}
"""

from __future__ import annotations

from typing import Any

from plies.capabilities import HasBoardView, HasPositionNotation
from plies.game import CHANCE, Game
from plies.play import SeatView, outcome_text

Json = dict[str, Any]


def board_view(
    game: Game[Any, Any],
    state: Any,
    last: Any = None,
    flipped: bool = False,
    view: SeatView | None = None,
) -> Json:
    """What to draw for ``state``: see the module's docstring for the fields every view has
    and each game's board (the ``view`` module of its room; grids in
    :func:`plies.games.grid.grid_view`) for each kind's own. ``last`` is the
    action that led to ``state`` (highlighted), ``flipped`` turns the board round where it has
    a side (chess and checkers: Black at the bottom; backgammon: Black's home board).
    ``view``: the seat whose view is drawn (:class:`plies.play.SeatView`): the board is drawn
    from the state as it sees it, who moves and the status from ``state``."""
    seen = SeatView(game) if view is None else view
    mover = game.to_move(state)
    over = game.is_terminal(state)
    position = None
    if isinstance(game, HasPositionNotation) and not seen.hides:
        position = game.format_position(state)
    board: Json = {
        "game": game.name,
        "to_move": None if over else mover,
        "status": _status(game, state),
        "over": over,
        "position": position,
        "facts": [],
        "buttons": [],
        "last": [],
        "pairs": False,
        "explain_illegal": False,
        "seat": seen.seat,
    }
    board.update(_drawing(game, seen.state(state), last, flipped))
    return board


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


def _drawing(game: Game[Any, Any], state: Any, last: Any, flipped: bool) -> Json:
    """The fields of ``state``'s view that depend on the game: its own board
    (:class:`~plies.capabilities.HasBoardView`), else its text display."""
    if isinstance(game, HasBoardView):
        return game.board_view().drawing(state, last, flipped)
    return {"kind": "text", "text": game.display(state)}


def _path(game: Game[Any, Any], state: Any, action: Any, notation: str) -> list[str]:
    """The target ids clicked to make ``action`` (written ``notation``): the game's board's,
    else the notation (the text view lists the moves by their notation)."""
    if isinstance(game, HasBoardView):
        return game.board_view().path(state, action, notation)
    return [notation]


def _status(game: Game[Any, Any], state: Any) -> str:
    """Who moves, or how the game ended, in a line (the game's board may say it its way)."""
    own = game.board_view().status(state) if isinstance(game, HasBoardView) else None
    if own is not None:
        return own
    if game.is_terminal(state):
        return f"game over: {outcome_text(game, state)}"
    mover = game.to_move(state)
    return "chance moves next" if mover == CHANCE else f"{mover} to move"
