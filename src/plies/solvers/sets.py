"""Benchmark set files: one position a line, ``moves [score]``, as in Pascal Pons's test sets.

:func:`read_set` reads every line and keeps going past bad ones, so a batch can solve what it
can and report each bad line by number; :func:`solve_set` solves them one by one and
:class:`SetSummary` counts what was solved and how many agree with the given scores:

>>> from plies.games.connect4.rules import ConnectFour
>>> entries = read_set(ConnectFour(), ["4455 18", "", "4453 x", "4444444", "1234"])
>>> [(e.line, e.moves, e.score, e.error) for e in entries]  # doctest: +NORMALIZE_WHITESPACE
[(1, '4455', 18, None), (2, '', None, 'line 2: empty line'),
 (3, '4453', None, "line 3: score 'x' is not an integer"),
 (4, '4444444', None, "line 4: position '4444444': move 7 (4) overflows column 4, which is full"),
 (5, '1234', None, None)]
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace
from typing import Any

from plies.capabilities import HasPositionNotation, require
from plies.errors import PliesError
from plies.game import Game
from plies.perfect import UNTIMED_REACH, PerfectSolver, Solution


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
    parse = require(game, HasPositionNotation, "reading a set file").parse_position
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


@dataclass(frozen=True)
class SetResult:
    """One line of a set, solved (``solution``) or refused (``entry.error``)."""

    entry: SetEntry
    solution: Solution | None

    @property
    def expected(self) -> int | None:
        """The score the line gives, reduced to its sign for a weak solve."""
        score = self.entry.score
        if score is None or self.solution is None or not self.solution.weak:
            return score
        return (score > 0) - (score < 0)

    @property
    def agrees(self) -> bool | None:
        """Whether the solver's score is the line's (None when the line gives none)."""
        expected = self.expected
        if expected is None or self.solution is None:
            return None
        return self.solution.score == expected


@dataclass
class SetSummary:
    """What a set's solving came to so far: counts, agreement, times and positions."""

    solved: int = 0
    bad: int = 0
    given: int = 0
    agree: int = 0
    total_time: float = 0.0
    max_time: float = 0.0
    total_nodes: int = 0
    wall: float = 0.0

    def add(self, result: SetResult) -> None:
        """Count one more line."""
        solution = result.solution
        if solution is None:
            self.bad += 1
            return
        self.solved += 1
        self.total_time += solution.time
        self.max_time = max(self.max_time, solution.time)
        self.total_nodes += solution.nodes
        if result.agrees is not None:
            self.given += 1
            self.agree += result.agrees

    @property
    def mean_time(self) -> float:
        return self.total_time / self.solved if self.solved else 0.0

    @property
    def mean_nodes(self) -> float:
        return self.total_nodes / self.solved if self.solved else 0.0


def solve_set(
    solver: PerfectSolver, entries: Iterable[SetEntry], weak: bool = False
) -> Iterator[SetResult]:
    """Solve each entry of a set (table emptied first, as Pons's benchmark does), yielding
    results one at a time so that an interrupted run keeps the lines already solved; a
    position the solver cannot reach within :data:`~plies.perfect.UNTIMED_REACH` is refused
    as a bad line."""
    for entry in entries:
        if entry.error is None and not solver.reaches(entry.state, UNTIMED_REACH):
            note = solver.difficulty_note(entry.state)
            entry = replace(entry, error=f"line {entry.line}: too far from the end ({note})")
        if entry.error is not None:
            yield SetResult(entry, None)
        else:
            yield SetResult(entry, solver.solve(entry.state, weak=weak))
