"""An opening book for perfect Connect Four, built by plies' own solver: the exact score and
the score-keeping moves of every position the ``perfect`` agent can meet in its first plies,
as the first player or the second, against every reply.

The perfect agent plays one move where several keep the score (the solver's preferred, the
most central), so only its own lines need solving: at each of its turns, the position is
decided (:meth:`~plies.games.connect4.solver.Connect4Solver.decide`), its move played, and every
reply leads to one of its next turns. A position and its mirror image are stored once, under
the smaller of their two keys (Pons's key: the mover's stones plus every stone).

The book is a SQLite file (table ``positions``: key, score, moves as a bit per column; table
``meta``: format, width, height, plies), written one position at a time, so a build stopped by
Ctrl-C keeps what it solved and a rerun goes on from there. The book shipped in the package
(``games/connect4/book.sqlite``) is loaded once into memory and consulted by the solver
before any search.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Generator, Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING

from plies.errors import BookError
from plies.games.connect4.rules import ConnectFour, ConnectFourState
from plies.perfect import BookProgress, Decision
from plies.pool import Pool

if TYPE_CHECKING:
    from plies.games.connect4.solver import Connect4Solver

FORMAT = "plies-connect4-book-1"
SHIPPED = "book.sqlite"
"""The shipped book's file name in the Connect Four room (:mod:`plies.games.connect4`)."""

SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE positions (key INTEGER PRIMARY KEY, score INTEGER NOT NULL, moves INTEGER NOT NULL);
"""


def position_key(game: ConnectFour, state: ConnectFourState) -> int:
    """The key of ``state`` or of its mirror image, whichever is smaller (Pons's key: the
    mover's stones plus every stone, which tells any two positions apart)."""
    return min(state.current + state.mask, _mirror(game, state.current + state.mask))


def _mirror(game: ConnectFour, board: int) -> int:
    """``board`` with its columns in reverse order."""
    stride, width = game.height + 1, game.width
    column = (1 << stride) - 1
    mirrored = 0
    for c in range(width):
        mirrored |= ((board >> (c * stride)) & column) << ((width - 1 - c) * stride)
    return mirrored


def _is_mirrored(game: ConnectFour, state: ConnectFourState) -> bool:
    """Whether ``state`` is stored as its mirror image (whose key is the smaller)."""
    key = state.current + state.mask
    return _mirror(game, key) < key


def _bits(game: ConnectFour, state: ConnectFourState, moves: Sequence[int]) -> int:
    """``state``'s columns ``moves`` as a bit per column of the position stored."""
    if _is_mirrored(game, state):
        moves = [game.width - 1 - column for column in moves]
    return sum(1 << column for column in moves)


@dataclass(frozen=True)
class OpeningBook:
    """The decisions of a book, in memory: key -> (score, moves as a bit per column)."""

    game: ConnectFour
    entries: dict[int, tuple[int, int]]
    plies: int
    """The plies the build was asked for (positions before that ply are in the book)."""

    def lookup(self, state: ConnectFourState) -> Decision | None:
        """The book's decision for ``state`` (its score for the side to move and every move
        that keeps it), or None when the book does not hold it."""
        entry = self.entries.get(position_key(self.game, state))
        if entry is None:
            return None
        score, bits = entry
        width = self.game.width
        moves = [c for c in range(width) if bits >> c & 1]
        if _is_mirrored(self.game, state):
            moves = sorted(width - 1 - c for c in moves)
        return Decision(score, moves, 0, 0.0, from_book=True)

    def __len__(self) -> int:
        return len(self.entries)


def _connect(path: Path) -> sqlite3.Connection:
    try:
        return sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    except sqlite3.Error as error:
        raise BookError(f"cannot open the book {str(path)!r}: {error}") from None


def load_book(path: str | Path, game: ConnectFour) -> OpeningBook:
    """The book in ``path`` for ``game``'s board; :class:`BookError` naming the problem for a
    missing, corrupt or foreign file (it is only read)."""
    path = Path(path)
    if not path.is_file():
        raise BookError(f"no book at {str(path)!r}")
    db = _connect(path)
    try:
        meta = dict(db.execute("SELECT key, value FROM meta"))
        if meta.get("format") != FORMAT:
            raise BookError(f"{str(path)!r} is not a plies Connect Four book")
        board = (int(meta["width"]), int(meta["height"]))
        if board != (game.width, game.height):
            raise BookError(
                f"{str(path)!r} is a book for a {board[0]}x{board[1]} board, not "
                f"{game.width}x{game.height}"
            )
        entries = {
            key: (score, moves) for key, score, moves in db.execute("SELECT * FROM positions")
        }
        return OpeningBook(game, entries, int(meta["plies"]))
    except (sqlite3.Error, KeyError, ValueError) as error:
        raise BookError(f"{str(path)!r} is not a readable plies book ({error})") from None
    finally:
        db.close()


@cache
def shipped_book() -> OpeningBook | None:
    """The book shipped inside the package, for the standard 7 x 6 board; None when it is
    missing or unreadable (the solver then searches every position)."""
    source = resources.files("plies.games.connect4") / SHIPPED
    try:
        with resources.as_file(source) as path:
            return load_book(path, ConnectFour())
    except (BookError, OSError):
        return None


def check_book_target(path: str | Path, game: ConnectFour) -> Path:
    """``path`` if a book can be built there: a new file in a writable folder, or a book of
    the same board to go on with; :class:`BookError` otherwise (nothing is written)."""
    path = Path(path)
    if path.is_dir():
        raise BookError(f"{str(path)!r} is a folder: name the book's file")
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.is_dir():
        raise BookError(f"cannot write {str(path)!r}: no folder {str(folder)!r}")
    if path.exists() and path.stat().st_size > 0:
        load_book(path, game)  # ours, same board: the build goes on from it
        if not os.access(path, os.W_OK):
            raise BookError(f"cannot write {str(path)!r}: the file is read-only")
    if not _writable(folder):
        raise BookError(f"cannot write {str(path)!r}: the folder is not writable")
    return path


def _writable(folder: Path) -> bool:
    return os.access(folder, os.W_OK | os.X_OK)


def build_book(
    path: str | Path,
    plies: int,
    solver: Connect4Solver,
    workers: int = 1,
    ray_address: str | None = None,
) -> Generator[BookProgress, None, None]:
    """Solve every position the perfect agent can meet before ply ``plies`` (as the first
    player or the second, against every reply) that ``path`` does not hold yet, writing each
    at once, and yield after each; ``workers`` processes (or Ray actors of the cluster at
    ``ray_address``: a :class:`~plies.pool.Pool`) solve the positions of a ply side by side
    (1: ``solver``, in this process). The agent's move is the solver's preferred among
    those that keep the score; mirror images are solved once. Closing the iteration (Ctrl-C)
    keeps what was solved; a finished build records ``plies`` in the book."""
    game = solver.game
    path = check_book_target(path, game)
    db = sqlite3.connect(path)
    try:
        with Pool(
            workers,
            setup=_start_solver,
            setup_args=(game.width, game.height),
            ray_address=ray_address,
        ) as pool:
            yield from _build(db, plies, solver, pool)
    except sqlite3.Error as error:  # a full disk, another build at the same file...
        raise BookError(f"cannot write {str(path)!r}: {error} (what was solved is kept)") from None
    finally:
        db.close()


def _build(
    db: sqlite3.Connection, plies: int, solver: Connect4Solver, pool: Pool
) -> Iterator[BookProgress]:
    """The levels of the agent's turns, ply by ply (:func:`build_book`): the positions of a
    ply not in the book are solved, then every turn is played on from the book."""
    game = solver.game
    if not db.execute("SELECT name FROM sqlite_master").fetchall():
        meta = {"format": FORMAT, "width": game.width, "height": game.height, "plies": 0}
        rows = "".join(f"INSERT INTO meta VALUES ('{k}', '{v}');" for k, v in meta.items())
        db.executescript(f"BEGIN; {SCHEMA} {rows} COMMIT;")  # all or nothing
    stored = db.execute("SELECT key, score, moves FROM positions")
    book = OpeningBook(game, {key: (score, moves) for key, score, moves in stored}, 0)
    start = game.initial_state()
    levels: list[dict[int, ConnectFourState]] = [{} for _ in range(plies + 2)]
    levels[0][0] = start  # the agent moves first
    for column in game.actions(start):  # or second, after any first move
        child = game.result(start, column)
        levels[1][child.current + child.mask] = child
    for ply in range(plies):
        turns = list(levels[ply].values())
        unknown: dict[int, ConnectFourState] = {}
        for state in turns:
            if book.lookup(state) is None:
                unknown.setdefault(position_key(game, state), state)
        solved = _decisions(solver, list(unknown.values()), pool)
        for done, (state, found) in enumerate(solved, 1):
            key = position_key(game, state)
            book.entries[key] = (found.score, _bits(game, state, found.moves))
            with db:
                db.execute("INSERT INTO positions VALUES (?, ?, ?)", (key, *book.entries[key]))
            yield BookProgress(ply, done, len(unknown), len(book), found.time)
        for state in turns:
            decision = book.lookup(state)
            assert decision is not None
            played = game.result(state, solver.preferred(decision.moves))
            if ply + 2 < plies and not game.is_terminal(played):
                for reply in game.actions(played):
                    turn = game.result(played, reply)
                    if not game.is_terminal(turn):
                        levels[ply + 2][turn.current + turn.mask] = turn
    with db:
        db.execute("UPDATE meta SET value = ? WHERE key = 'plies'", (str(plies),))


def _decisions(
    solver: Connect4Solver, states: list[ConnectFourState], pool: Pool
) -> Iterator[tuple[ConnectFourState, Decision]]:
    """Each state with the solver's decision, as they finish: ``solver``'s, here, or the
    ``pool``'s workers', a solver each (stopped when the iteration is closed)."""
    if pool.here or len(states) < 2:
        for state in states:
            yield state, solver.decide(state, keep_table=True)
        return
    for index, decision in pool.results(_decide, states):
        yield states[index], decision


_SOLVER: Connect4Solver | None = None
"""A build worker's solver (:func:`_start_solver`)."""


def _start_solver(width: int, height: int) -> None:
    """A build worker (of a :class:`~plies.pool.Pool`): its own solver, without a book."""
    from plies.games.connect4.solver import Connect4Solver

    global _SOLVER
    _SOLVER = Connect4Solver(ConnectFour(width, height), book=False)


def _decide(state: ConnectFourState) -> Decision:
    assert _SOLVER is not None, "a build worker starts its solver first"
    return _SOLVER.decide(state, keep_table=True)
