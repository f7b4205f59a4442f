"""Benchmark set files: one position a line, ``moves [score]``, as in Pascal Pons's test sets.

:func:`read_set` reads every line and keeps going past bad ones, so a batch can solve what it
can and report each bad line by number:

>>> from plies.games.connect4 import ConnectFour
>>> entries = read_set(ConnectFour(), ["4455 18", "", "4453 x", "4444444", "1234"])
>>> [(e.line, e.moves, e.score, e.error) for e in entries]  # doctest: +NORMALIZE_WHITESPACE
[(1, '4455', 18, None), (2, '', None, 'line 2: empty line'),
 (3, '4453', None, "line 3: score 'x' is not an integer"),
 (4, '4444444', None, "line 4: position '4444444': move 7 (4) overflows column 4, which is full"),
 (5, '1234', None, None)]
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from plies.errors import PliesError
from plies.game import Game, require_position_notation


@dataclass(frozen=True)
class SetEntry:
    """One line of a set file: the position, the score it gives (if any), or what is wrong."""

    line: int
    moves: str
    score: int | None
    state: Any = None
    error: str | None = None


def read_set(game: Game[Any, Any], lines: Iterable[str]) -> list[SetEntry]:
    """Parse ``moves [score]`` lines with the game's position notation; 1-based line numbers.

    A bad line (empty, too many fields, a score that is not an integer, a position the game
    refuses or one where the game is already over) becomes an entry with ``error`` set.
    """
    parse = require_position_notation(game, "reading a set file")
    entries = []
    for number, raw in enumerate(lines, start=1):
        fields = raw.split()
        where = f"line {number}"
        if not fields:
            entries.append(SetEntry(number, "", None, error=f"{where}: empty line"))
            continue
        moves = fields[0]
        if len(fields) > 2:
            entries.append(
                SetEntry(number, moves, None, error=f"{where}: expected 'moves [score]'")
            )
            continue
        score: int | None = None
        if len(fields) == 2:
            try:
                score = int(fields[1])
            except ValueError:
                message = f"{where}: score {fields[1]!r} is not an integer"
                entries.append(SetEntry(number, moves, None, error=message))
                continue
        try:
            state = parse(moves)
        except PliesError as error:
            entries.append(SetEntry(number, moves, None, error=f"{where}: {error}"))
            continue
        if game.is_terminal(state):
            message = f"{where}: position {moves!r}: the game is already over"
            entries.append(SetEntry(number, moves, None, error=message))
            continue
        entries.append(SetEntry(number, moves, score, state))
    return entries
