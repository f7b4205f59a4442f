"""A game played (a :class:`~plies.play.GameRecord`) written out as the texts its players
keep: plies' own JSON for every game, PGN where the game writes it (chess, :class:`HasPgn`),
SGF where it writes that (Go, :class:`HasSgf`) and a match file where it writes one
(backgammon, :class:`HasMatchFile`). ``plies play --pgn/--sgf/--mat`` and the web app's
downloads write them here.

A game lost before its end (a resignation, a forfeit, the time) has the winner's result: PGN
``1-0`` or ``0-1``, SGF ``B+R`` / ``W+R`` (resigned) or ``B+T`` / ``W+T`` (time, as SGF's
``RE`` property has it) or ``B+F`` / ``W+F``; an unfinished game ``*`` in PGN, ``?`` in SGF.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from plies.capabilities import HasMatchFile, HasPgn, HasPositionNotation, HasSgf, require
from plies.errors import SpecError
from plies.game import Game
from plies.play import AGREED, RESIGNS, GameRecord
from plies.registry import game_spec

FORMAT = "plies-game-1"
"""The ``format`` field of plies' JSON record of one game."""

MEDIA_TYPES = {
    "json": "application/json",
    "pgn": "application/x-chess-pgn",
    "sgf": "application/x-go-sgf",
    "mat": "text/plain",
}
"""Each text's media type, by its name (which is also its file suffix)."""


def text_formats(game: Game[Any, Any]) -> list[str]:
    """The texts ``game``'s records are written as: ``json`` always, then ``pgn``, ``sgf`` and
    ``mat`` where the game writes them."""
    return (
        ["json"]
        + ["pgn"] * isinstance(game, HasPgn)
        + ["sgf"] * isinstance(game, HasSgf)
        + ["mat"] * isinstance(game, HasMatchFile)
    )


def game_text(record: GameRecord, kind: str, names: Mapping[str, str], event: str) -> str:
    """``record`` as the text ``kind`` (:func:`text_formats`), ``names[player]`` naming each
    player (an agent's spec, or a person) and ``event`` the occasion; a :class:`SpecError`
    for a kind the game does not write."""
    game = record.game
    if kind not in text_formats(game):
        known = ", ".join(text_formats(game))
        raise SpecError(f"{game.name} games are written as {known}, not {kind[:20]!r}")
    if kind == "json":
        return _json(record, names, event)
    if kind == "mat":
        mat_writer = require(game, HasMatchFile, "a match file")
        players = [names[player] for player in game.players]
        return mat_writer.match_file(record.start, _moves(record), players)
    if kind == "pgn":
        writer = require(game, HasPgn, "a PGN record")
        headers = {"Event": event, "White": names[game.players[0]], "Black": names[game.players[1]]}
        result = writer.result_text(record.state) if record.finished else "*"
        if record.loss is not None:
            result = ("0-1", "1-0")[game.players.index(record.loss.player)]
            headers["Termination"] = f"{record.loss.player} {record.loss.why}"
        if record.agreed_draw:
            result, headers["Termination"] = "1/2-1/2", AGREED
        return writer.pgn(record.start, _moves(record), result, headers).rstrip("\n") + "\n"
    sgf_writer = require(game, HasSgf, "an SGF record")
    headers = {"GN": event, "PB": names[game.players[0]], "PW": names[game.players[1]]}
    result = sgf_writer.result_text(record.state) if record.finished else "?"
    if record.loss is not None:
        winner = "WB"[game.players.index(record.loss.player)]
        why = record.loss.why
        result = f"{winner}+" + ("R" if why == RESIGNS else "T" if "time" in why else "F")
        headers["GC"] = f"{record.loss.player} {why}"
    if record.agreed_draw:
        result, headers["GC"] = "0", AGREED
    return sgf_writer.sgf(record.start, _moves(record), result, headers).strip() + "\n"


def _moves(record: GameRecord) -> list[Any]:
    return [turn.action for turn in record.turns]


def _json(record: GameRecord, names: Mapping[str, str], event: str) -> str:
    game = record.game
    notation = game if isinstance(game, HasPositionNotation) else None
    document = {
        "format": FORMAT,
        "event": event,
        "game": game_spec(game),
        "players": {player: names[player] for player in game.players},
        "start": None if notation is None else notation.format_position(record.start),
        "moves": [
            {"player": t.player, "move": t.notation, "seconds": round(t.seconds, 3)}
            for t in record.turns
        ],
        "finished": record.finished,
        "result": record.outcome() if record.finished else None,
        "final": None if notation is None else notation.format_position(record.state),
    }
    return json.dumps(document, indent=2) + "\n"


MOST_RECORD_CHARACTERS = 1_000_000
"""The longest record text read (a long Go game in plies' JSON is under 100,000)."""


@dataclass(frozen=True)
class ReadRecord:
    """A record read back (:func:`read_json_record`): its game spec, the start (a position in
    the game's notation, or None for the usual start) and the moves in the game's notation."""

    game: str
    start: str | None
    moves: list[str]


def read_json_record(text: str) -> ReadRecord:
    """plies' JSON record of one game (``format`` :data:`FORMAT`, as :func:`game_text`
    writes it) read back; a :class:`SpecError` naming what is wrong with it. The moves are
    checked against the rules by whoever replays them."""
    if len(text) > MOST_RECORD_CHARACTERS:
        raise SpecError(f"record: {len(text):,} characters, more than {MOST_RECORD_CHARACTERS:,}")
    try:
        document = json.loads(text)
    except ValueError as error:
        raise SpecError(f"record: not JSON ({error})") from None
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise SpecError(f"record: not a plies game record (format {FORMAT!r})")
    game, start, moves = document.get("game"), document.get("start"), document.get("moves")
    if not isinstance(game, str) or not game.strip():
        raise SpecError("record: its 'game' is not a game spec")
    if start is not None and not isinstance(start, str):
        raise SpecError("record: its 'start' is not a position")
    if not isinstance(moves, list) or not all(
        isinstance(turn, dict) and isinstance(turn.get("move"), str) for turn in moves
    ):
        raise SpecError("record: its 'moves' are not a list of {'move': text}")
    return ReadRecord(game.strip(), start, [turn["move"] for turn in moves])


PGN_START = re.compile(r"\s*(\[|\d+\s*\.)")
"""How a PGN text begins: a tag pair, or a numbered move."""
MATCH_FILE = re.compile(r"^\s*(\d+\s+point\s+match|game\s+1)\s*$", re.MULTILINE | re.IGNORECASE)
"""A match file's header line (`` 7 point match``) or its first game's (`` Game 1``)."""


def read_record(game: Game[Any, Any], text: str) -> ReadRecord:
    """A pasted game or position of ``game``: plies' JSON record (:func:`read_json_record`),
    a PGN game where the game reads PGN (chess), an SGF game where it reads SGF (Go), a match
    file where it reads match files (backgammon: its header `` N point match`` or a `` Game 1``
    line), else a position in the game's notation (a FEN...) with no moves; a
    :class:`PliesError` naming what is wrong. Its moves are checked against the rules by
    whoever replays them."""
    if len(text) > MOST_RECORD_CHARACTERS:
        raise SpecError(f"record: {len(text):,} characters, more than {MOST_RECORD_CHARACTERS:,}")
    stripped = text.strip()
    if not stripped:
        raise SpecError("record: nothing pasted")
    if stripped.startswith("{"):
        return read_json_record(stripped)
    spec = game_spec(game)
    if isinstance(game, HasSgf) and stripped.startswith("("):
        start, moves = game.sgf_moves(stripped)
        return ReadRecord(spec, start, moves)
    if isinstance(game, HasPgn) and PGN_START.match(stripped):
        start, moves = game.pgn_moves(stripped)
        return ReadRecord(spec, start, moves)
    if isinstance(game, HasMatchFile) and MATCH_FILE.search(stripped):
        start, moves = game.match_moves(text)
        return ReadRecord(spec, start, moves)
    position = require(game, HasPositionNotation, "starting from a position")
    position.parse_position(stripped)  # named here if it is not one
    return ReadRecord(spec, stripped, [])
