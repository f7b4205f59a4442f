"""The JSON a web game (:class:`plies.web.sessions.GameSession`) serves: its position, moves
and result, the board after any move, the search behind a move, and its thinking agent, each
made from the session's record and notes as the seat whose view is shown sees them
(:class:`plies.play.SeatView`: in a game of imperfect information where a person plays, the
board and moves that seat sees, and nothing of the agents' searches, which name what their
own seats see). Nothing here imports FastAPI."""

from __future__ import annotations

import time
from collections.abc import Collection, Mapping, Sequence
from typing import Any

from plies.capabilities import HasDraws, HasTermination
from plies.errors import SpecError
from plies.game import CHANCE
from plies.game_texts import text_formats
from plies.play import GameRecord, SeatView
from plies.web.boards import board_view, move_paths
from plies.web.thinking import Thinking, TurnNotes


def position_json(
    session_id: str,
    game_spec: str,
    record: GameRecord,
    notes: Sequence[TurnNotes],
    specs: Mapping[str, str],
    people: Collection[str],
    person_may_move: bool,
    can_undo: bool,
    view: SeatView,
) -> dict[str, Any]:
    """What a session shows that changes only with its moves: the players (``people`` the
    seats a person takes), the board, the legal moves when ``person_may_move``, the moves with
    what is shown of each, and the result, as ``view``'s seat sees them (``seat``; who moves
    and the legal moves are the same in every state it cannot tell apart)."""
    game, state, finished = record.game, record.state, record.finished
    to_move = None if finished else game.to_move(state)
    moves = view.moves(record)
    last = last_move(record, moves[-1].stop if moves else 0, view)
    board = board_view(game, state, last, view=view)
    if finished and not game.is_terminal(state):  # ended early: not "X to move"
        board["status"] = record.outcome()
    return {
        "id": session_id,
        "game": game_spec,
        "game_name": game.name,
        "players": [{"player": p, "spec": specs[p], "human": p in people} for p in game.players],
        "seat": view.seat,
        "position": board["position"],
        "board": board,
        "text": game.display(view.state(state)),
        "to_move": to_move,
        "legal": move_paths(game, state) if person_may_move and to_move in people else [],
        "finished": finished,
        "result": result_text(record) if finished else None,
        "moves": [
            move_json(number, record, plies, notes, view) for number, plies in enumerate(moves)
        ],
        "can_undo": can_undo,
        "draws": isinstance(game, HasDraws) and game.can_draw() and not view.hides,
        "records": [] if view.hides else text_formats(game),
    }


def result_text(record: GameRecord) -> str:
    """How the game ended, with why where the game says (``White wins: checkmate``, ``W
    wins: black 40, white 41 + komi 7.5``)."""
    outcome = record.outcome()
    ended_early = record.loss is not None or record.agreed_draw
    if not ended_early and isinstance(record.game, HasTermination):
        why = record.game.termination(record.state)
        if why:
            return f"{outcome}: {why}"
    return outcome


def move_json(
    number: int, record: GameRecord, plies: range, notes: Sequence[TurnNotes], view: SeatView
) -> dict[str, Any]:
    """Move ``number`` of the list, the turns ``plies`` of ``record`` (one, but for turns
    ``view``'s seat cannot tell apart: :meth:`~plies.play.SeatView.moves`): who played what as
    the seat sees it, in how long, and its search's summary (none where the seat does not see
    everything)."""
    turn = record.turns[plies[-1]]
    shown = TurnNotes() if view.hides else notes[plies[-1]]
    return {
        "ply": number,
        "player": turn.player,
        "notation": view.notation(turn),
        "seconds": round(sum(record.turns[ply].seconds for ply in plies), 3),
        "search": shown.search,
        "lines": shown.lines,
        "has_tree": bool(shown.tree),
    }


def thinking_json(thinking: Thinking | None) -> dict[str, Any] | None:
    """The agent thinking now, how long for, and what its search says so far."""
    if thinking is None:
        return None
    return {
        "player": thinking.player,
        "spec": thinking.spec,
        "waiting": thinking.waiting,
        "stoppable": True,
        "seconds": time.perf_counter() - thinking.began,
        "report": thinking.report,
        "lines": thinking.lines,
    }


def unseen_thinking_json(player: str, spec: str) -> dict[str, Any]:
    """The agent to move in a game hidden from the seat shown: who it is, not how its
    thinking goes (its search names what its seat sees, and each try the seat does not see
    would start it again)."""
    return {
        "player": player,
        "spec": spec,
        "waiting": False,
        "stoppable": True,
        "seconds": 0.0,
        "report": None,
        "lines": [],
    }


def last_move(record: GameRecord, ply: int, view: SeatView) -> Any:
    """The last move of the first ``ply`` that was not nature's (a dice roll does not change
    the board) and that ``view``'s seat sees as played; None before any."""
    turns = record.turns[:ply]
    moved = [turn.action for turn in turns if turn.player != CHANCE and view.shows(turn)]
    return moved[-1] if moved else None


def board_after(
    record: GameRecord, number: int | None, flipped: bool, view: SeatView
) -> dict[str, Any]:
    """The board after ``number`` moves of the list (None: now), turned round if
    ``flipped``, with the move that led there marked, as ``view``'s seat sees it (its moves:
    :meth:`~plies.play.SeatView.moves`)."""
    moves = view.moves(record)
    number = len(moves) if number is None else number
    if not 0 <= number <= len(moves):
        raise SpecError(f"there is no position after move {number} ({len(moves)} so far)")
    if number == len(moves):
        state, ply = record.state, moves[-1].stop if moves else 0
    else:
        ply = moves[number].start
        state = record.turns[ply].state
    last = last_move(record, ply, view)
    return {"ply": number, "board": board_view(record.game, state, last, flipped, view)}


def turn_search_json(record: GameRecord, notes: Sequence[TurnNotes], ply: int) -> dict[str, Any]:
    """The search behind move ``ply``: MCTS's first levels (visits, values), the engine's
    line at each depth, or the search's summary alone."""
    played = len(record.turns)
    if not 0 <= ply < played:
        raise SpecError(f"there is no move {ply} in this game ({played} so far)")
    turn, shown = record.turns[ply], notes[ply]
    return {
        "ply": ply,
        "player": turn.player,
        "notation": turn.notation,
        "search": shown.search,
        "tree": shown.tree,
        "lines": shown.lines,
    }
