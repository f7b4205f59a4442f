"""A small battleship: two fleets on square boards, each hidden from the other player.

Chance places each player's fleet (P1's first), uniformly among the fleets that fit: the ships
straight (across or down), none overlapping (touching allowed). A player sees their own fleet
only. Then P1 and P2 take turns to shoot at a cell of the other's board they have not shot
yet; both see every shot and whether it missed, hit or sank a ship (and the sunk ship's
length, as the classic game says "you sank my battleship"). The first to hit every cell of
the other's fleet wins.

Shots are cells, ``c3`` (column letter, row number from the top); a fleet is its ships end to
end, longest first, ``a1-c1 e2-e3``. A player's information key is their own fleet and every
shot in turn, ``*`` marking a hit and ``*3`` a hit that sank a ship of 3:

>>> game = Battleship(size=4, ships="2")
>>> state = game.initial_state()
>>> for move in ("a1-b1", "d3-d4", "d4", "a1", "d3"):
...     state = game.result(state, game.parse_action(state, move))
>>> game.information_key(state, "P1"), game.information_key(state, "P2")
('P1|a1-b1;?|d4* a1* d3*2', 'P2|?;d3-d4|d4* a1* d3*2')
>>> game.winner(state)
'P1'
>>> game.seen_action(game.initial_state(), game.parse_action(game.initial_state(), "a1-b1"), "P2")
"places P1's fleet"
"""

from __future__ import annotations

import math
import random
import re
from collections import Counter
from collections.abc import Iterator, Sequence
from typing import NamedTuple

from plies.capabilities import BoardView
from plies.errors import IllegalMoveError, SpecError
from plies.game import CHANCE, Scoring, WinLossDrawGame
from plies.registry import SCORING, GameOption

Ship = tuple[int, ...]
"""A ship's cells (row-major, counted from the top left), in order."""
Fleet = tuple[Ship, ...]
"""A player's ships, longest first (ships of one length in the order of :func:`runs`)."""
Action = int | Fleet
"""A shot's cell, or chance's fleet."""

MAX_FLEETS = 200_000
"""The most fleets a game may have (bounded from above, ships apart as if they could overlap):
chance lists them all, and a determinisation filters them."""


class Shot(NamedTuple):
    """A shot: the cell, whether it hit, and the length of the ship it sank (0: none)."""

    cell: int
    hit: bool
    sunk: int


class BattleshipState(NamedTuple):
    """The fleets placed so far (P1's first; None for one hidden, in a seen state) and each
    player's shots at the other's board, in order (P1's first)."""

    fleets: tuple[Fleet | None, ...]
    shots: tuple[tuple[Shot, ...], tuple[Shot, ...]]


class Battleship(WinLossDrawGame[BattleshipState, Action]):
    """Battleship for P1 and P2 on ``size`` x ``size`` boards with ships of the lengths
    ``ships`` (see the module's docstring)."""

    name = "battleship"
    summary = "battleship: fleets placed by chance, hidden until hit; sink them all first"
    options: tuple[GameOption, ...] = (
        GameOption.whole("size", 5, "the side of each board", minimum=3, maximum=8),
        GameOption(
            "ships",
            "text",
            "the ships' lengths separated by dashes",
            "3-2",
            show=lambda ships: "-".join(str(length) for length in ships),
        ),
        SCORING,
    )
    players = ("P1", "P2")
    default_opponent = "ismcts:time=1"
    opening_plies = 0
    searchable_to_end = False

    def __init__(
        self,
        size: int = 5,
        ships: Sequence[int] | str = (3, 2),
        scoring: Scoring = Scoring.PLUS_MINUS,
    ) -> None:
        """``ships``: lengths, or written as in a spec (``3-2``)."""
        if not 3 <= size <= 8:
            raise SpecError(f"battleship: size={size} must be from 3 to 8")
        lengths = _read_ships(ships) if isinstance(ships, str) else tuple(ships)
        _check_fleet(size, lengths)
        self.size, self.ships, self.scoring = size, tuple(sorted(lengths, reverse=True)), scoring
        self.fleet_cells = sum(self.ships)
        self._fleets: list[Fleet] = []
        self._outcomes: list[tuple[Action, float]] = []
        self._index: dict[Fleet, int] = {}
        self._consistent: dict[tuple[Shot, ...], list[int]] = {}

    def __repr__(self) -> str:
        return f"Battleship(size={self.size}, ships={self.ships})"

    def board_view(self) -> BoardView:
        """Both boards for the web pages (:mod:`plies.games.battleship.view`); a seen state
        draws the other's fleet only where it was hit."""
        from plies.games.battleship.view import BattleshipView

        return BattleshipView(self)

    def fleets(self) -> list[Fleet]:
        """Every fleet chance may place, listed on first use."""
        if not self._fleets:
            self._fleets = list(all_fleets(self.size, self.ships))
            self._index = {fleet: index for index, fleet in enumerate(self._fleets)}
            self._outcomes = [(fleet, 1 / len(self._fleets)) for fleet in self._fleets]
        return self._fleets

    # The formal definition ------------------------------------------------------------------

    def initial_state(self) -> BattleshipState:
        return BattleshipState((), ((), ()))

    def to_move(self, state: BattleshipState) -> str:
        if len(state.fleets) < 2:
            return CHANCE
        return self.players[(len(state.shots[0]) + len(state.shots[1])) % 2]

    def actions(self, state: BattleshipState) -> Sequence[Action]:
        if self.is_terminal(state):
            return []
        if len(state.fleets) < 2:
            return self.fleets()
        shot = {s.cell for s in state.shots[self.players.index(self.to_move(state))]}
        return [cell for cell in range(self.size * self.size) if cell not in shot]

    def chance_outcomes(self, state: BattleshipState) -> Sequence[tuple[Action, float]]:
        """Every fleet, equally likely."""
        self.fleets()
        return self._outcomes

    def result(self, state: BattleshipState, action: Action) -> BattleshipState:
        if len(state.fleets) < 2:
            self.fleets()
            if not isinstance(action, tuple) or action not in self._index:
                raise IllegalMoveError(f"move {action!r} is not a fleet of this game")
            return BattleshipState((*state.fleets, action), state.shots)
        if not isinstance(action, int) or action not in self.actions(state):
            raise IllegalMoveError(f"move {action!r} is not legal here")
        seat = self.players.index(self.to_move(state))
        made = (*state.shots[seat], shoot(state.fleets[1 - seat] or (), state.shots[seat], action))
        shots = (made, state.shots[1]) if seat == 0 else (state.shots[0], made)
        return BattleshipState(state.fleets, shots)

    def is_terminal(self, state: BattleshipState) -> bool:
        return self.winner(state) is not None

    def winner(self, state: BattleshipState) -> str | None:
        for player, shots in zip(self.players, state.shots, strict=True):
            if sum(shot.hit for shot in shots) == self.fleet_cells:
                return player
        return None

    # Imperfect information ----------------------------------------------------------------

    def information_key(self, state: BattleshipState, player: str) -> str:
        seat = self.players.index(player)
        fleets = ";".join(
            self._write_fleet(fleet) if index == seat and fleet else "?"
            for index, fleet in enumerate(state.fleets)
        )
        shots = " ".join(self._write_shot(shot) for shot in _in_turn(state.shots))
        return f"{player}|{fleets}|{shots}"

    def seen_state(self, state: BattleshipState, player: str) -> BattleshipState:
        """The other's fleet hidden (its hits are in the shots); at the end both fleets are
        shown."""
        if self.is_terminal(state):
            return state
        seat = self.players.index(player)
        fleets = tuple(fleet if i == seat else None for i, fleet in enumerate(state.fleets))
        return BattleshipState(fleets, state.shots)

    def seen_action(self, state: BattleshipState, action: Action, player: str) -> str:
        if isinstance(action, tuple):
            owner = self.players[len(state.fleets)]
            if owner == player:
                return f"places your fleet {self._write_fleet(action)}"
            return f"places {owner}'s fleet"
        seat = self.players.index(self.to_move(state))
        shot = shoot(state.fleets[1 - seat] or (), state.shots[seat], action)
        said = f"sinks a ship of {shot.sunk}" if shot.sunk else "hit" if shot.hit else "miss"
        return f"{self.players[seat]}: {self.format_action(state, action)} {said}"

    def sample_state(
        self, state: BattleshipState, player: str, rng: random.Random
    ) -> BattleshipState:
        """The other's fleet drawn again, uniformly among the fleets that answer ``player``'s
        shots as they were answered (every fleet, before a shot). A finished game is shown
        whole, so it is its own sample."""
        other = 1 - self.players.index(player)
        if self.is_terminal(state) or other >= len(state.fleets):
            return state
        fleet = self.fleets()[rng.choice(self._answering(state.shots[1 - other]))]
        fleets = (fleet, *state.fleets[1:]) if other == 0 else (state.fleets[0], fleet)
        return BattleshipState(fleets, state.shots)

    def _answering(self, shots: tuple[Shot, ...]) -> list[int]:
        """The fleets (their indices) that answer ``shots`` as they were answered: those that
        answered all but the last, filtered (kept for the next call)."""
        known = self._consistent.get(shots)
        if known is not None:
            return known
        if not shots:
            return list(range(len(self.fleets())))
        earlier, last = shots[:-1], shots[-1]
        fleets = self.fleets()
        found = [
            i for i in self._answering(earlier) if shoot(fleets[i], earlier, last.cell) == last
        ]
        if len(self._consistent) > 10_000:
            self._consistent.clear()
        self._consistent[shots] = found
        return found

    # Notation -------------------------------------------------------------------------------

    def cell_name(self, cell: int) -> str:
        """``a1`` for the top left cell: column letter, row number from the top."""
        row, column = divmod(cell, self.size)
        return f"{chr(ord('a') + column)}{row + 1}"

    def read_cell(self, word: str) -> int | None:
        """The cell written ``c3``; None for anything else."""
        found = re.fullmatch(r"([a-z])([0-9]+)", word)
        if found is None:
            return None
        column, row = ord(found[1]) - ord("a"), int(found[2]) - 1
        return row * self.size + column if column < self.size and 0 <= row < self.size else None

    def format_action(self, state: BattleshipState, action: Action) -> str:
        if isinstance(action, tuple):
            return self._write_fleet(action)
        return self.cell_name(action)

    def parse_action(self, state: BattleshipState, text: str) -> Action:
        """A shot ``c3``; for chance, a fleet ``a1-c1 e2-e3``."""
        word = text.strip().lower()
        if self.is_terminal(state):
            raise IllegalMoveError(f"move {text.strip()!r}: the game is over")
        if len(state.fleets) < 2:
            return self._read_fleet(text)
        cell = self.read_cell(word)
        if cell is None:
            raise IllegalMoveError(
                f"move {text.strip()!r} is not a cell of the {self.size}x{self.size} board"
            )
        if cell not in self.actions(state):
            raise IllegalMoveError(f"move {text.strip()!r}: {self.to_move(state)} shot there")
        return cell

    def _write_fleet(self, fleet: Fleet) -> str:
        """``a1-c1 e2-e3``: each ship from end to end (a ship of one cell, its cell)."""
        return " ".join(
            "-".join(dict.fromkeys((self.cell_name(ship[0]), self.cell_name(ship[-1]))))
            for ship in fleet
        )

    def _write_shot(self, shot: Shot) -> str:
        """``c3`` a miss, ``c3*`` a hit, ``c3*2`` a hit that sank a ship of 2."""
        hit = "*" if shot.hit else ""
        return f"{self.cell_name(shot.cell)}{hit}{shot.sunk or ''}"

    def _read_fleet(self, text: str) -> Fleet:
        """The fleet written ``a1-c1 e2-e3`` (its ships in any order)."""
        ships = [self._read_ship(word) for word in text.strip().lower().replace(",", " ").split()]
        self.fleets()
        order = {length: runs(self.size, length) for length in set(self.ships)}
        if all(ship in order.get(len(ship), ()) for ship in ships):
            fleet = tuple(
                sorted(ships, key=lambda ship: (-len(ship), order[len(ship)].index(ship)))
            )
            if fleet in self._index:
                return fleet
        lengths = "-".join(str(length) for length in self.ships)
        raise IllegalMoveError(
            f"move {text.strip()!r} is not a fleet here: ships of {lengths} each written end to "
            "end, as 'a1-c1 e2-e3'"
        )

    def _read_ship(self, word: str) -> Ship:
        """The cells of a ship written ``a1-c1`` or ``b2``; () when it is not straight."""
        ends = [self.read_cell(end) for end in word.split("-")]
        first, last = ends[0], ends[-1]
        if len(ends) > 2 or first is None or last is None:
            return ()
        first, last = min(first, last), max(first, last)
        if first // self.size == last // self.size:
            return tuple(range(first, last + 1))
        if first % self.size == last % self.size:
            return tuple(range(first, last + 1, self.size))
        return ()

    def waters(self, state: BattleshipState, owner: str) -> str:
        """``owner``'s board, a character a cell (row-major): ``X`` hit, ``o`` missed, ``#`` a
        ship not hit (where the state shows the fleet), ``.`` water or unknown."""
        seat = self.players.index(owner)
        fleet = state.fleets[seat] if seat < len(state.fleets) else None
        ships = {cell for ship in fleet or () for cell in ship}
        shots = {shot.cell: shot.hit for shot in state.shots[1 - seat]}
        return "".join(
            ("X" if shots[cell] else "o") if cell in shots else "#" if cell in ships else "."
            for cell in range(self.size * self.size)
        )

    def display(self, state: BattleshipState) -> str:
        """Each player's waters, side by side, and who shoots (or who won)."""
        width = 2 * self.size + 3
        columns = " ".join(chr(ord("a") + column) for column in range(self.size))
        rows = [
            "   ".join(f"{player}'s waters".ljust(width) for player in self.players).rstrip(),
            "   ".join(f"   {columns}".ljust(width) for _ in self.players).rstrip(),
        ]
        boards = [self.waters(state, player) for player in self.players]
        for row in range(self.size):
            marks = (" ".join(board[row * self.size : (row + 1) * self.size]) for board in boards)
            rows.append("   ".join(f"{row + 1:<2} {line}".ljust(width) for line in marks).rstrip())
        score = ", ".join(
            f"{player} hit {sum(shot.hit for shot in shots)} of {self.fleet_cells}"
            for player, shots in zip(self.players, state.shots, strict=True)
        )
        winner = self.winner(state)
        if len(state.fleets) < 2:
            rows.append(f"chance places {self.players[len(state.fleets)]}'s fleet")
        else:
            rows.append(
                f"game over: {winner} wins ({score})"
                if winner
                else f"{self.to_move(state)} to shoot ({score})"
            )
        return "\n".join(rows)


def shoot(fleet: Fleet, before: Sequence[Shot], cell: int) -> Shot:
    """The shot at ``cell`` of ``fleet``'s board after the shots ``before``: whether it hits,
    and the length of the ship it sinks (its every other cell shot before)."""
    for ship in fleet:
        if cell in ship:
            shot = {earlier.cell for earlier in before}
            sunk = all(part == cell or part in shot for part in ship)
            return Shot(cell, True, len(ship) if sunk else 0)
    return Shot(cell, False, 0)


def _in_turn(shots: tuple[tuple[Shot, ...], tuple[Shot, ...]]) -> Iterator[Shot]:
    """Both players' shots in the order shot: P1's first, then in turn."""
    for index, shot in enumerate(shots[0]):
        yield shot
        if index < len(shots[1]):
            yield shots[1][index]


def runs(size: int, length: int) -> list[Ship]:
    """Every straight run of ``length`` cells: across (in reading order), then down (a ship of
    one cell once)."""
    across = [
        tuple(row * size + column + i for i in range(length))
        for row in range(size)
        for column in range(size - length + 1)
    ]
    if length == 1:
        return across
    down = [
        tuple((row + i) * size + column for i in range(length))
        for row in range(size - length + 1)
        for column in range(size)
    ]
    return across + down


def all_fleets(size: int, ships: Sequence[int]) -> Iterator[Fleet]:
    """Every fleet of ``ships`` (lengths, longest first) on a ``size`` x ``size`` board: ships
    straight and apart (touching allowed), ships of one length in the order of :func:`runs`
    so that each fleet comes once."""
    placed = {length: runs(size, length) for length in set(ships)}
    masks = {
        length: [sum(1 << cell for cell in run) for run in placed[length]] for length in placed
    }

    def place(index: int, start: int, taken: int) -> Iterator[Fleet]:
        if index == len(ships):
            yield ()
            return
        length = ships[index]
        first = start if index and ships[index - 1] == length else 0
        for at in range(first, len(placed[length])):
            if not masks[length][at] & taken:
                for rest in place(index + 1, at + 1, taken | masks[length][at]):
                    yield (placed[length][at], *rest)

    return place(0, 0, 0)


def _read_ships(text: str) -> tuple[int, ...]:
    """Ship lengths written ``3-2`` (dashes, commas or spaces between them)."""
    words = [word for word in re.split(r"[\s,-]+", text.strip()) if word]
    if not words or not all(word.isdigit() for word in words):
        raise SpecError(f"battleship: ships={text!r}: write the ships' lengths like 3-2")
    return tuple(int(word) for word in words)


def _check_fleet(size: int, ships: Sequence[int]) -> None:
    """A :class:`SpecError` unless ``ships`` fit a ``size`` x ``size`` board and their fleets
    are few enough to list (:data:`MAX_FLEETS`)."""
    written = "-".join(str(length) for length in ships)
    if not ships or not all(1 <= length <= size for length in ships):
        raise SpecError(f"battleship: ships={written!r}: each ship is 1 to {size} cells long")
    bound = math.prod(len(runs(size, length)) for length in ships)
    bound //= math.prod(math.factorial(count) for count in Counter(ships).values())
    if bound > MAX_FLEETS:
        raise SpecError(
            f"battleship: ships={written} on {size}x{size} boards has up to {bound:,} fleets, more "
            f"than the {MAX_FLEETS:,} plies lists; take fewer or shorter ships"
        )
    if (
        sum(ships) > size * size
        or next(all_fleets(size, sorted(ships, reverse=True)), None) is None
    ):
        raise SpecError(f"battleship: ships={written} do not fit a {size}x{size} board")
