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

:func:`read_match_file` reads a file back (GNU Backgammon's, or one written here): a match
(``backgammon:match=N``) is one formal game, so every game of the file is read; in money play
(a ``0 point match``) the formal game is one game, so the file's first game is read and the
games after it are left out. Comment lines (``;``) are skipped.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from plies.errors import IllegalMoveError, InvalidPositionError, ParseError, RenderError

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


MOST_CHARACTERS = 1_000_000
"""The longest match file read (``plies.game_texts.MOST_RECORD_CHARACTERS``: a test checks
they agree)."""
RIGHT_GAP = 10
"""Spaces after a row's number from which its first entry is in Black's (the right) column."""
_HEADER = re.compile(r"(\d+)\s+point\s+match", re.I)
_GAME = re.compile(r"game\s+(\d+)", re.I)
_SCORES = re.compile(r"(.*?)\s*:\s*(\d+)\s+(.*?)\s*:\s*(\d+)")
_ROW = re.compile(r"\s*(\d+)\)(.*)")
_DICE = re.compile(r"(\d*):")
_WINS = re.compile(r"wins\s+(\d+)\s+points?(\s+and\s+the\s+match)?", re.I)


def read_match_file(game: Backgammon, text: str) -> tuple[str | None, list[str]]:
    """A match file's start (None: the usual one; a match's first game at another score
    starts there) and moves in plies' notation (rolls, cube actions and turns), replayed to
    check each against the rules: every game of a match, the first game of a money session
    (see the module's docstring). The file's ``N point match`` must be ``game``'s match length
    (``0`` for money play). A :class:`ParseError` (an :class:`IllegalMoveError` for a move, an
    :class:`InvalidPositionError` for a score or a game's points) names the line and what is
    wrong. A game won without its end (``Wins`` early: a resignation) ends the reading; plies'
    moves have no resignation, so nothing may follow it."""
    if len(text) > MOST_CHARACTERS:
        raise ParseError(f"match file: {len(text):,} characters, more than {MOST_CHARACTERS:,}")
    reader = _Reader(game)
    for number, line in enumerate(text.splitlines(), 1):
        reader.read(number, line)
    if not reader.games:
        raise ParseError("match file: no ' Game 1' line (not a match file?)")
    start = None if reader.start == game.initial_state() else game.format_position(reader.start)
    return start, reader.moves


class _Reader:
    """A match file read line by line, its moves replayed."""

    def __init__(self, game: Backgammon) -> None:
        self.game = game
        self.start = self.state = game.initial_state()
        self.moves: list[str] = []
        self.where = "match file"
        self.header = False
        self.games = self.openings = 0
        self.scores_next = False
        self.ended: tuple[int, int] | None = None
        """The winner and points of the game the last move ended, until its ``Wins``."""
        self.resigned = ""
        self.done = False

    def read(self, number: int, line: str) -> None:
        stripped = line.strip()
        if self.done or not stripped or stripped.startswith(";"):
            return
        self.where = f"line {number}"
        header, game_line = _HEADER.fullmatch(stripped), _GAME.fullmatch(stripped)
        if game_line is not None and self.games and not self.game.match:
            self.done = True  # money play: the first game only
            return
        if self.resigned:
            raise ParseError(
                f"{self.where}: the game was resigned ({self.resigned}) and plies' moves have "
                "no resignation, so nothing after it can be replayed"
            )
        row = _ROW.fullmatch(line)
        if header is not None:
            self._header(int(header[1]))
        elif game_line is not None:
            self._game(int(game_line[1]))
        elif self.scores_next and row is None:
            self._scores(stripped)
        elif row is not None or _WINS.match(stripped):
            self.scores_next = False  # the scores' line may be left out
            if not self.games:
                raise ParseError(f"{self.where}: a row before the file's ' Game 1' line")
            if row is None:
                self._entries(stripped, 0)
                return
            self.where += f" (game {self.games}, row {row[1]})"
            rest = row[2]
            self._entries(rest, int(len(rest) - len(rest.lstrip()) >= RIGHT_GAP))
        else:
            raise ParseError(
                f"{self.where}: {stripped[:40]!r} is not a match file's line (a header "
                "'N point match', ' Game N', the players' scores or a numbered row)"
            )

    def _header(self, length: int) -> None:
        if self.header or self.games:
            raise ParseError(f"{self.where}: a second 'point match' header")
        self.header = True
        if length != self.game.match:
            reads = f"backgammon:match={length}" if length else "backgammon:cube=true"
            raise ParseError(
                f"{self.where}: the file is a {_length(length)} and this game a "
                f"{_length(self.game.match)} ({reads} reads it)"
            )

    def _game(self, number: int) -> None:
        from plies.games.backgammon.rules import OPENING

        if number != self.games + 1:
            raise ParseError(f"{self.where}: 'Game {number}' after game {self.games}")
        if self.game.is_terminal(self.state):
            raise ParseError(f"{self.where}: 'Game {number}' after the match is over")
        if self.games and (self.state.mover != OPENING or self.openings < self.games):
            raise ParseError(f"{self.where}: 'Game {number}' before game {self.games} is over")
        self.games += 1
        self.scores_next = True

    def _scores(self, text: str) -> None:
        self.scores_next = False
        found = _SCORES.fullmatch(text)
        if found is None:
            raise ParseError(
                f"{self.where}: {text[:40]!r} is not the players' scores ('White : 0   Black : 0')"
            )
        score = (int(found[2]), int(found[4]))
        if not self.game.match or score == self.state.score:
            return
        if self.moves:
            raise InvalidPositionError(
                f"{self.where}: the score {score[0]}-{score[1]} is not what the games before "
                f"make ({self.state.score[0]}-{self.state.score[1]})"
            )
        match = self.game.match
        if max(score) >= match:
            raise InvalidPositionError(
                f"{self.where}: the score {score[0]}-{score[1]} ends a {match} point match"
            )
        crawford = match - 1 in score and min(score) < match - 1  # the game after reaching N-1
        self.start = self.state = self.state._replace(score=score, crawford=crawford)

    def _entries(self, text: str, side: int) -> None:
        """A row's entries (``31: 8/5* 6/5``, `` Doubles => 2``, ``Takes``, ``Wins 1 point``),
        the first in ``side``'s column (0 White's, 1 Black's), the others in Black's."""
        words = text.split()
        index = 0
        while index < len(words):
            word = words[index]
            lower = word.lower()
            dice = _DICE.fullmatch(word)
            if dice is not None:
                legs = []
                while index + 1 < len(words) and "/" in words[index + 1]:
                    index += 1
                    legs.append(_plies_leg(words[index]))
                self._turn(dice[1], legs, side)
            elif lower in ("doubles", "beavers"):
                value = words[index + 1 : index + 3]
                if len(value) < 2 or value[0] != "=>" or not value[1].isdigit():
                    raise ParseError(f"{self.where}: {word!r} is not followed by '=> N'")
                index += 2
                self._cube("double" if lower == "doubles" else "beaver", int(value[1]))
            elif lower in ("takes", "drops"):
                self._play(lower[:-1])
            elif lower == "wins":
                wins = _WINS.match(" ".join(words[index:]))
                if wins is None:
                    raise ParseError(f"{self.where}: 'Wins' is not followed by 'N point(s)'")
                index += len(wins[0].split()) - 1
                self._wins(int(wins[1]))
            else:
                raise ParseError(
                    f"{self.where}: {word[:30]!r} is not a roll ('31:'), a move ('8/5*'), "
                    "'Doubles => N', 'Takes', 'Drops', 'Beavers => N' or 'Wins N points'"
                )
            index, side = index + 1, 1

    def _turn(self, dice: str, legs: list[str], side: int) -> None:
        from plies.games.backgammon.rules import OPENING, ROLL, SIDES

        if len(dice) != 2:
            raise IllegalMoveError(f"{self.where}: roll {dice + ':'!r} is not two dice")
        if not self.state.dice and ROLL in self.game.actions(self.state):
            self._play(ROLL)  # the cube could have been doubled: the mover rolled instead
        roll = f"{dice[0]}-{dice[1]}"
        if self.state.mover == OPENING and not self.game.is_terminal(self.state):
            if self.openings == self.games:
                raise ParseError(f"{self.where}: a game's opening roll without its ' Game N' line")
            self.openings += 1
            roll = f"{SIDES[side]} {roll}"
        self._play(roll)
        self._play(" ".join(legs) or "pass")

    def _cube(self, action: str, value: int) -> None:
        times = 4 if action == "beaver" else 2
        if not self.state.dice and value != times * self.state.cube and self.game.cubeful:
            raise InvalidPositionError(
                f"{self.where}: the cube is at {self.state.cube}, so '{action}' turns it to "
                f"{times * self.state.cube}, not {value}"
            )
        self._play(action)

    def _play(self, text: str) -> None:
        """Play ``text`` (in plies' notation), or an error naming the line."""
        state = self.state
        try:
            action = self.game.parse_action(state, text)
            after = self.game.result(state, action)
        except ParseError as error:
            raise type(error)(f"{self.where}: {error}") from None
        self.moves.append(self.game.format_action(state, action))
        winner, points = _game_end(self.game, state, after)
        self.ended = None if winner is None else (winner, points)
        self.state = after

    def _wins(self, points: int) -> None:
        if self.ended is None:
            self.resigned = f"{self.where}: wins {points} before the game's end"
            return
        if points != self.ended[1]:
            hint = " (is it played with jacoby=true?)" if not self.game.match else ""
            raise InvalidPositionError(
                f"{self.where}: 'Wins {points} point{'s' * (points != 1)}', and the game's end "
                f"scores {self.ended[1]}{hint}"
            )
        self.ended = None


def _plies_leg(word: str) -> str:
    """A file's checker move in plies' notation: 25 the bar, 0 off (``25/22``: ``bar/22``)."""
    parts = word.split("/")
    if parts[0] == "25":
        parts[0] = "bar"
    parts[-1] = re.sub(r"^0(?=\*|\(|$)", "off", parts[-1])
    return "/".join(parts)


def _length(points: int) -> str:
    return f"{points} point match" if points else "money game (0 point match)"
