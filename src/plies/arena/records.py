"""The tournament record: one SQLite file holding every finished game, written the moment it
ends, so that nothing is lost to Ctrl-C, a crash or a killed worker and a rerun resumes.

Each game is stored under its schedule key (``first|second|pair|leg``: who played first, the
pair of games on one opening, and which of its two legs), with both players' specs, the
opening, every move in the game's notation, the seconds each took, the result for the first
player, how the game ended, its seed and the plies version. The file belongs to one game spec
(:class:`RecordError` for another). Only the driver writes; each game is one transaction.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from plies import __version__
from plies.arena.ratings import Result
from plies.errors import PliesError

SCHEMA_VERSION = 1
SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS games (
    key TEXT PRIMARY KEY,
    first TEXT NOT NULL,
    second TEXT NOT NULL,
    pair INTEGER NOT NULL,
    leg INTEGER NOT NULL,
    opening TEXT NOT NULL,
    moves TEXT NOT NULL,
    seconds TEXT NOT NULL,
    result REAL NOT NULL,
    reason TEXT NOT NULL,
    seed INTEGER NOT NULL,
    version TEXT NOT NULL,
    finished TEXT NOT NULL DEFAULT (datetime('now'))
);
"""
GAME_COLUMNS = frozenset(
    [
        "key",
        "first",
        "second",
        "pair",
        "leg",
        "opening",
        "moves",
        "seconds",
        "result",
        "reason",
        "seed",
        "version",
        "finished",
    ]
)
"""The columns of :data:`SCHEMA`'s games table: a file with others is not plies'."""


class RecordError(PliesError):
    """A tournament file that cannot be used: unreadable, not plies', or for another game."""


@dataclass(frozen=True)
class PlayedGame:
    """One finished game of a schedule as the record stores it (a row of its ``games``
    table; the game as played, states and searches, is :class:`plies.play.GameRecord`):
    ``result`` is the first player's score (1, 0.5 or 0)."""

    key: str
    first: str
    second: str
    pair: int
    leg: int
    opening: str
    moves: tuple[str, ...]
    seconds: tuple[float, ...]
    result: float
    reason: str
    seed: int
    version: str = __version__


def pairing_of(game: PlayedGame) -> tuple[str, str]:
    """The pairing a game belongs to, in schedule order (its leg-0 first player first)."""
    return (game.first, game.second) if game.leg == 0 else (game.second, game.first)


def game_key(first: str, second: str, pair: int, leg: int) -> str:
    """The schedule key of a game: the same game of the same schedule has the same key."""
    return f"{first}|{second}|{pair}|{leg}"


class Records:
    """A tournament file, opened (created if new) for one game spec and time control (""
    for none; None: any, to read a file)."""

    def __init__(self, path: str | Path, game_spec: str, time_control: str | None = "") -> None:
        self.path = Path(path)
        if self.path.is_dir():
            raise RecordError(f"{str(self.path)!r} is a directory, not a tournament file")
        if not self.path.parent.is_dir():
            raise RecordError(f"cannot create {str(self.path)!r}: no such directory")
        try:
            self.db = sqlite3.connect(self.path)
            stored = self._meta()
        except sqlite3.DatabaseError as error:
            raise RecordError(
                f"{str(self.path)!r} is not a plies tournament file ({error})"
            ) from None
        if stored.get("game") not in (None, game_spec):
            self.db.close()
            raise RecordError(
                f"{str(self.path)!r} holds a tournament of {stored['game']}, not {game_spec}"
            )
        held = stored.get("time_control", "") if stored else time_control
        if time_control is not None and held != time_control:
            self.db.close()
            raise RecordError(
                f"{str(self.path)!r} holds games at time control {held or 'none'}, not "
                f"{time_control or 'none'}: use another file"
            )
        if stored.get("schema") not in (None, str(SCHEMA_VERSION)):
            self.db.close()
            raise RecordError(f"{str(self.path)!r} has tournament schema {stored['schema']}")
        try:
            self.db.execute("PRAGMA journal_mode=WAL")  # only once the file is known to be ours
            if not stored:
                self._create(game_spec, time_control)
        except sqlite3.DatabaseError as error:  # a file SQLite reads as empty and cannot write
            self.db.close()
            raise RecordError(
                f"cannot write the tournament file {str(self.path)!r} ({error})"
            ) from None
        self.game_spec = game_spec
        self.time_control = held or ""

    def _create(self, game_spec: str, time_control: str | None) -> None:
        """The tables of a new file, and its meta rows."""
        with self.db:
            self.db.executescript(SCHEMA)
            self.db.executemany(
                "INSERT INTO meta VALUES (?, ?)",
                [
                    ("game", game_spec),
                    ("schema", str(SCHEMA_VERSION)),
                    ("time_control", time_control or ""),
                ],
            )

    def _meta(self) -> dict[str, str]:
        """The file's meta table; empty for a new file; an error for a foreign database."""
        tables = {row[0] for row in self.db.execute("SELECT name FROM sqlite_master")}
        if not tables:
            return {}
        if not {"meta", "games"} <= tables:
            raise sqlite3.DatabaseError("no plies tables")
        columns = {row[1] for row in self.db.execute("PRAGMA table_info(games)")}
        if columns != GAME_COLUMNS:
            raise sqlite3.DatabaseError("its games table is not plies'")
        return dict(self.db.execute("SELECT key, value FROM meta"))

    def add(self, game: PlayedGame) -> None:
        """Store a finished game (once: a key already there is kept as it is)."""
        self.add_many([game])

    def add_many(self, games: Sequence[PlayedGame]) -> None:
        """Store finished games in one transaction (a game whose key is there is kept)."""
        with self.db:
            self.db.executemany(
                "INSERT OR IGNORE INTO games (key, first, second, pair, leg, opening, moves, "
                "seconds, result, reason, seed, version) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
                [
                    (
                        game.key,
                        game.first,
                        game.second,
                        game.pair,
                        game.leg,
                        game.opening,
                        json.dumps(list(game.moves)),
                        json.dumps([round(s, 4) for s in game.seconds]),
                        game.result,
                        game.reason,
                        game.seed,
                        game.version,
                    )
                    for game in games
                ],
            )

    def finished_keys(self) -> set[str]:
        return {row[0] for row in self.db.execute("SELECT key FROM games")}

    def games(self) -> list[PlayedGame]:
        """Every finished game, in the order they finished; a :class:`RecordError` for a row
        that is not what plies wrote (a file altered by hand)."""
        try:
            rows = self.db.execute(
                "SELECT key, first, second, pair, leg, opening, moves, seconds, result, reason, "
                "seed, version FROM games ORDER BY rowid"
            )
            return [_record(row) for row in rows]
        except (sqlite3.DatabaseError, ValueError, TypeError) as error:
            raise RecordError(f"{str(self.path)!r} holds a damaged game ({error})") from None

    def close(self) -> None:
        self.db.close()


def stored_game(path: str | Path) -> str:
    """The game spec a tournament file holds; :class:`RecordError` for any other file (it is
    only read)."""
    try:
        with sqlite3.connect(f"file:{Path(path).resolve()}?mode=ro", uri=True) as db:
            row = db.execute("SELECT value FROM meta WHERE key = 'game'").fetchone()
    except sqlite3.DatabaseError as error:
        raise RecordError(f"{str(path)!r} is not a plies tournament file ({error})") from None
    if row is None:
        raise RecordError(f"{str(path)!r} is not a plies tournament file (no game)")
    return str(row[0])


def _record(row: Any) -> PlayedGame:
    key, first, second, pair, leg, opening, moves, seconds, result, reason, seed, version = row
    return PlayedGame(
        key,
        first,
        second,
        pair,
        leg,
        opening,
        tuple(json.loads(moves)),
        tuple(json.loads(seconds)),
        result,
        reason,
        seed,
        version,
    )


def results_of(games: Sequence[PlayedGame]) -> list[Result]:
    """The games as the ratings' results, the two games of a pair resampled together, in the
    order of their keys: the order the games finished in (which workers decide) changes no
    bootstrap draw, so the same games always give the same intervals."""
    ordered = sorted(games, key=lambda g: g.key)
    return [Result(g.first, g.second, g.result, (*pairing_of(g), g.pair)) for g in ordered]
