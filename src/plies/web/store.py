"""The games a web server keeps: every game its browsers start, in progress or finished, in
one SQLite file (``plies serve --db``), so that a reload, a lost connection or a restart of
the server loses no move. Storage only: the sessions (:mod:`plies.web.sessions`) say what to
write, and replay what they read back.

A game is a row of ``games`` (its id, the hash of its owner's token, its game spec, who sits
in each seat, its start position, its seed, how it stands, when it was started and last
changed) and its moves, a row each in ``moves``: each in the game's notation, as plies' JSON
record holds them (chance's rolls included), with the seconds it took. A move is written as
it is played, in one transaction; Undo and New game delete the moves they take back. The file
is journalled ahead (WAL), as the tournament records are (:mod:`plies.arena.records`). A file
that is not plies' games file (not SQLite, other tables, a newer schema) or cannot be written
is refused when it is opened (:class:`StoreError`), never overwritten. Nothing here imports
FastAPI.
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from plies.errors import PliesError
from plies.play import AGREED, RESIGNS, GameRecord, Loss, Turn

KIND = "plies web games"
"""The ``kind`` row of the meta table: what the file is."""
SCHEMA_VERSION = 1
SCHEMA = f"""
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE games (
    id TEXT PRIMARY KEY,
    owner TEXT NOT NULL,
    game TEXT NOT NULL,
    players TEXT NOT NULL,
    start TEXT,
    seed INTEGER NOT NULL,
    finished INTEGER NOT NULL,
    result TEXT,
    loser TEXT,
    why TEXT,
    settings TEXT NOT NULL,
    clock TEXT,
    created TEXT NOT NULL,
    updated TEXT NOT NULL
);
CREATE TABLE moves (
    game TEXT NOT NULL REFERENCES games (id),
    ply INTEGER NOT NULL,
    player TEXT NOT NULL,
    move TEXT NOT NULL,
    seconds REAL NOT NULL,
    PRIMARY KEY (game, ply)
) WITHOUT ROWID;
INSERT INTO meta VALUES ('kind', '{KIND}'), ('schema', '{SCHEMA_VERSION}');
"""
COLUMNS = {
    "games": {
        "id",
        "owner",
        "game",
        "players",
        "start",
        "seed",
        "finished",
        "result",
        "loser",
        "why",
        "settings",
        "clock",
        "created",
        "updated",
    },
    "moves": {"game", "ply", "player", "move", "seconds"},
}
"""The columns of :data:`SCHEMA`'s tables: a file with others is not plies'."""
NOW = "strftime('%Y-%m-%dT%H:%M:%SZ', 'now')"
"""SQL for the time now (UTC, to the second)."""
LONGEST_ID = 64
"""No game id is longer (they are 22 characters): a longer one is looked for nowhere."""


class StoreError(PliesError):
    """The games file cannot be used: not plies', damaged, or not writable."""


@dataclass(frozen=True)
class KeptMove:
    """A move as it is kept: who played it, in the game's notation, and its seconds."""

    player: str
    move: str
    seconds: float


@dataclass(frozen=True)
class Standing:
    """How a kept game stands: over or not, its result, the player who lost it before its
    end (resigned, or on time) and why, if one did (``why`` alone: an agreed draw), and its
    clocks."""

    finished: bool = False
    result: str | None = None
    loser: str | None = None
    why: str | None = None
    clock: str | None = None
    """The clocks as :meth:`plies.web.clocks.GameClocks.saved` gives them, in JSON (None:
    untimed)."""

    @classmethod
    def of(cls, record: GameRecord, clock: str | None) -> Standing:
        """How ``record`` stands, with its clocks ``clock``."""
        loss, finished = record.loss, record.finished
        return cls(
            finished,
            record.outcome() if finished else None,
            None if loss is None else loss.player,
            AGREED if record.agreed_draw else None if loss is None else loss.why,
            clock,
        )

    def end(self, record: GameRecord) -> None:
        """End ``record`` (its moves replayed) as it ended before its end, if it did."""
        if self.loser is not None:
            record.loss = Loss(self.loser, self.why or RESIGNS)
        elif self.why == AGREED:
            record.agreed_draw = True


@dataclass(frozen=True)
class KeptGame:
    """A game as it is kept. ``owner`` is the hash of the token that may act in it,
    ``players`` each seat's agent spec (``human`` for a person), ``start`` a position in the
    game's notation (None: the game's own start)."""

    id: str
    owner: str
    game: str
    players: dict[str, str]
    start: str | None
    seed: int
    settings: dict[str, Any] = field(default_factory=dict)
    """The game's settings beyond its seats (:class:`plies.web.sessions.Settings`)."""
    moves: tuple[KeptMove, ...] = ()
    standing: Standing = Standing()


def default_games_file() -> Path:
    """Where ``plies serve`` keeps its games unless told: ``plies/web-games.sqlite`` in the
    user's data folder (``$XDG_DATA_HOME``, else ``~/.local/share``)."""
    data = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(data) / "plies" / "web-games.sqlite"


class GameStore:
    """The games file at ``path``, opened (created if new, its folder must exist) and checked:
    plies' games file, of a schema this version reads, and writable. Every method is
    thread-safe (one connection, one lock), and each write is one transaction."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        name = repr(str(self.path))
        if self.path.is_dir():
            raise StoreError(f"{name} is a folder, not a games file")
        if not self.path.parent.is_dir():
            raise StoreError(f"cannot create {name}: no such folder")
        self.lock = threading.Lock()
        try:
            self.db = sqlite3.connect(self.path, timeout=10, check_same_thread=False)
        except sqlite3.Error as error:
            raise StoreError(f"cannot open {name} ({error})") from None
        try:
            self._check()
            self.db.execute("PRAGMA journal_mode=WAL")  # only once the file is known to be ours
            if not self._tables():
                self.db.executescript(f"BEGIN; {SCHEMA} COMMIT;")
            with self.db:  # a write now: a file that cannot take one is refused at the start
                self.db.execute(f"INSERT OR REPLACE INTO meta VALUES ('opened', {NOW})")
        except StoreError:
            self.db.close()
            raise
        except sqlite3.Error as error:
            self.db.close()
            raise StoreError(f"cannot write the games file {name} ({error})") from None

    def _tables(self) -> set[str]:
        return {row[0] for row in self.db.execute("SELECT name FROM sqlite_master")}

    def _check(self) -> None:
        """A :class:`StoreError` unless the file is new (empty) or plies' games file, of a
        schema this version reads."""
        name = repr(str(self.path))
        try:
            tables = self._tables()
            if not tables:
                return
            found = {
                table: {row[1] for row in self.db.execute(f"PRAGMA table_info({table})")}
                for table in COLUMNS
            }
            meta = dict(self.db.execute("SELECT key, value FROM meta")) if "meta" in tables else {}
        except sqlite3.Error as error:
            raise StoreError(f"{name} is not a plies games file ({error})") from None
        if meta.get("kind") != KIND or found != COLUMNS:
            raise StoreError(f"{name} is not a plies games file (it holds other tables)")
        if meta.get("schema") != str(SCHEMA_VERSION):
            raise StoreError(
                f"{name} holds games of schema {meta.get('schema')!r}; this plies reads "
                f"schema {SCHEMA_VERSION}"
            )

    def add(self, game: KeptGame) -> None:
        """Keep a new game, with its moves so far."""
        row = (game.id, game.owner, game.game, json.dumps(game.players), game.start, game.seed)
        with self._writing() as db:
            db.execute(
                "INSERT INTO games (id, owner, game, players, start, seed, settings, finished, "
                "result, loser, why, clock, created, updated) "
                f"VALUES (?,?,?,?,?,?,?,?,?,?,?,?,{NOW},{NOW})",
                (*row, json.dumps(game.settings), *_standing(game.standing)),
            )
            _insert_moves(db, game.id, 0, game.moves)

    def write(
        self, game_id: str, first_ply: int, moves: Sequence[KeptMove], standing: Standing
    ) -> None:
        """The game's moves from ``first_ply`` on are ``moves`` (those kept from there are
        replaced: a move played, or moves taken back), and it stands as ``standing``."""
        with self._writing() as db:
            db.execute("DELETE FROM moves WHERE game = ? AND ply >= ?", (game_id, first_ply))
            _insert_moves(db, game_id, first_ply, moves)
            changed = db.execute(
                "UPDATE games SET finished = ?, result = ?, loser = ?, why = ?, clock = ?, "
                f"updated = {NOW} WHERE id = ?",
                (*_standing(standing), game_id),
            ).rowcount
            if changed != 1:
                raise sqlite3.DatabaseError(f"no game {game_id!r} is kept")

    @contextmanager
    def _writing(self) -> Iterator[sqlite3.Connection]:
        """One write transaction under the lock: committed whole or not at all, any failure
        a :class:`StoreError` naming it."""
        with self.lock:
            try:
                self.db.execute("BEGIN IMMEDIATE")
                yield self.db
                self.db.commit()
            except sqlite3.Error as error:
                with suppress(sqlite3.Error):
                    self.db.rollback()
                raise StoreError(f"cannot write the games file ({error})") from None

    def load(self, game_id: str) -> KeptGame | None:
        """The kept game of that id, or None; a :class:`StoreError` for a row plies did not
        write (a file altered by hand) or a file that cannot be read now."""
        if len(game_id) > LONGEST_ID:
            return None
        try:
            with self.lock:
                row = self.db.execute(
                    "SELECT id, owner, game, players, start, seed, settings, finished, result, "
                    "loser, why, clock FROM games WHERE id = ?",
                    (game_id,),
                ).fetchone()
                moves = self.db.execute(
                    "SELECT player, move, seconds FROM moves WHERE game = ? ORDER BY ply",
                    (game_id,),
                ).fetchall()
            return None if row is None else _kept_game(row, moves)
        except (sqlite3.Error, ValueError, TypeError) as error:
            raise StoreError(f"the games file cannot give game {game_id!r} ({error})") from None

    def count(self) -> int:
        """How many games are kept."""
        with self.lock:
            return int(self.db.execute("SELECT count(*) FROM games").fetchone()[0])

    def close(self) -> None:
        with self.lock:
            self.db.close()


def _standing(
    standing: Standing,
) -> tuple[int, str | None, str | None, str | None, str | None]:
    return int(standing.finished), standing.result, standing.loser, standing.why, standing.clock


def _insert_moves(
    db: sqlite3.Connection, game_id: str, first_ply: int, moves: Sequence[KeptMove]
) -> None:
    db.executemany(
        "INSERT INTO moves (game, ply, player, move, seconds) VALUES (?, ?, ?, ?, ?)",
        [
            (game_id, ply, move.player, move.move, round(move.seconds, 3))
            for ply, move in enumerate(moves, first_ply)
        ],
    )


def _kept_game(row: Sequence[Any], moves: Sequence[Sequence[Any]]) -> KeptGame:
    """A row of ``games`` and its moves read back; ValueError or TypeError for a row plies
    did not write."""
    game_id, owner, game, players, start, seed, settings, finished, result, loser, why, clock = row
    seats, chosen = json.loads(players), json.loads(settings)
    if not isinstance(chosen, dict):
        raise ValueError("its settings are not a mapping")
    if not isinstance(seats, dict) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in seats.items()
    ):
        raise ValueError("its players are not a mapping of specs")
    if not all(isinstance(text, str) for text in (game_id, owner, game)) or not isinstance(
        seed, int
    ):
        raise TypeError("its id, owner, game or seed is of the wrong type")
    return KeptGame(
        game_id,
        owner,
        game,
        seats,
        start,
        seed,
        chosen,
        tuple(KeptMove(str(p), str(m), float(s)) for p, m, s in moves),
        Standing(bool(finished), result, loser, why, clock),
    )


class Keeper:
    """One game's writes to a store: the moves from the first one changed since the last
    write (:meth:`changed`) are written at the next :meth:`write`, with how the game stands;
    one that fails leaves them to the next (:attr:`error` says why meanwhile)."""

    def __init__(self, store: GameStore, game: KeptGame, added: bool) -> None:
        self.store, self.game = store, game
        self.added = added
        """Whether the game's row is in the store (else the next write adds it)."""
        self.first: int | None = None if added else 0
        """The first move not written as it stands, or None when all are."""
        self.error: str | None = None

    def changed(self, ply: int) -> None:
        """The moves from ``ply`` on are new, or taken back."""
        self.first = ply if self.first is None else min(self.first, ply)

    def write(self, turns: Sequence[Turn], standing: Standing) -> bool:
        """Write what changed of ``turns`` (the game's, all of them) and ``standing``, in one
        transaction; whether everything is written."""
        if self.first is None:
            return True
        moves = [KeptMove(t.player, t.notation, t.seconds) for t in turns[self.first :]]
        try:
            if self.added:
                self.store.write(self.game.id, self.first, moves, standing)
            else:
                self.store.add(replace(self.game, moves=tuple(moves), standing=standing))
        except StoreError as error:
            self.error = str(error)
            return False
        self.added, self.first, self.error = True, None, None
        return True
