"""English draughts (checkers) on the 8x8 board.

Board. The 32 dark squares are numbered 1..32 in the standard way (published games, PDN): row by
row from Black's side, so 1-4 is Black's back row (b8, d8, f8, h8 in the coordinates of
:meth:`Checkers.display`, where a1 is a dark square in White's left corner) and 29-32 White's.
Black ("B") moves first with men on 1-12; White ("W") has men on 21-32.

Rules. Men step diagonally forward one square; kings one square in any diagonal direction (no
flying kings). Captures are compulsory, but any capture may be chosen, not necessarily the
longest; a multi-jump is one move and goes on while the capturing piece can jump again. A man
that reaches the far row is crowned and its move ends there, even if the new king could jump on.
A king that captures round a ring of four pieces back to its own square may go either way round:
two moves (two actions) with one result.
A player with no legal move loses. Draw rule: the game is drawn once 80 plies (40 moves each)
pass without a capture or a man move. The state counts those plies itself, so no history is
stored and search stays exact; a player left without a move on that ply still loses.

Notation. A move is the squares its piece visits: ``11-15`` for a step, ``22x15`` or
``22x15x6`` for captures (actions are those tuples, e.g. ``(22, 15, 6)``).
:meth:`Checkers.parse_action` also reads ``22x6`` when exactly one capture goes from 22 to 6,
and squares written as coordinates (``c3-d4``). Positions are PDN FEN: the mover, then each
side's pieces with ``K`` marking kings, then ``:H`` and the draw count when it is not 0:

>>> game = Checkers()
>>> state = game.initial_state()
>>> game.format_position(state)
'B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12'
>>> " ".join(game.format_action(state, a) for a in game.actions(state))
'9-13 9-14 10-14 10-15 11-15 11-16 12-16'
>>> state = game.parse_position("W:W30:B18,19,26")
>>> [game.format_action(state, a) for a in game.actions(state)]
['30x23x14', '30x23x16']
>>> game.format_position(game.result(state, game.parse_action(state, "30x16")))
'B:W16:B18'
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from itertools import pairwise
from pathlib import Path
from typing import Any, NamedTuple

from plies.capabilities import BoardView, ClassMoves, CompiledRules
from plies.errors import IllegalMoveError, InvalidPositionError
from plies.game import Scoring, WinLossDrawGame
from plies.ladder import Anchor, Ladder, Level
from plies.registry import SCORING, GameOption

Move = tuple[int, ...]
"""The squares (1..32) a move visits, start first."""

DRAW_PLIES = 80
"""Plies without a capture or a man move after which the game is drawn."""

SIDES = {"B": "Black", "W": "White"}

_FULL = 0xFFFFFFFF
_BLACK_CROWN = 0xF0000000  # squares 29-32: Black's men are crowned there
_WHITE_CROWN = 0x0000000F  # squares 1-4


def _bit(square: int) -> int:
    return 1 << (square - 1)


def _squares(bits: int) -> Iterator[int]:
    """The squares of a bitboard, in increasing order."""
    while bits:
        low = bits & -bits
        yield low.bit_length()
        bits ^= low


def _square_at(row: int, col: int) -> int:
    """The number of the dark square at (row, col), row 0 being Black's back row; 0 if none."""
    if not (0 <= row < 8 and 0 <= col < 8) or (row + col) % 2 == 0:
        return 0
    return 4 * row + col // 2 + 1


_COORDS = {
    _square_at(row, col): (row, col) for row in range(8) for col in range(8) if _square_at(row, col)
}
_FORWARD = {"B": ((1, -1), (1, 1)), "W": ((-1, -1), (-1, 1))}
_KING = _FORWARD["B"] + _FORWARD["W"]


def _neighbours(directions: tuple[tuple[int, int], ...]) -> dict[int, tuple[int, ...]]:
    """For each square, the squares one step away in ``directions``."""
    table = {}
    for square, (row, col) in _COORDS.items():
        steps = (_square_at(row + dr, col + dc) for dr, dc in directions)
        table[square] = tuple(sorted(s for s in steps if s))
    return table


def _jumps(directions: tuple[tuple[int, int], ...]) -> dict[int, tuple[tuple[int, int], ...]]:
    """For each square, the (jumped square, landing square) pairs in ``directions``."""
    table = {}
    for square, (row, col) in _COORDS.items():
        pairs = (
            (_square_at(row + dr, col + dc), _square_at(row + 2 * dr, col + 2 * dc))
            for dr, dc in directions
        )
        table[square] = tuple(sorted((over, land) for over, land in pairs if land))
    return table


# Indexed by kind: "B" and "W" for men, "K" for kings.
_STEPS = {kind: _neighbours(_FORWARD.get(kind, _KING)) for kind in ("B", "W", "K")}
_JUMPS = {kind: _jumps(_FORWARD.get(kind, _KING)) for kind in ("B", "W", "K")}
_OVER = {(square, land): over for square in _COORDS for over, land in _JUMPS["K"][square]}
"""The square jumped by a capture hop from the first square to the second."""

_CENTRE = _bit(14) | _bit(15) | _bit(18) | _bit(19)
_BLACK_BACK = 0x0000000F
_WHITE_BACK = 0xF0000000
_MOVE = re.compile(r"[a-h]?[0-9]+(?:\s*[-x]\s*[a-h]?[0-9]+)+")
_MASK64 = (1 << 64) - 1


class CheckersState(NamedTuple):
    """A position: each side's men and kings as bitboards (bit ``s - 1`` for square ``s``), the
    player to move, and the plies since the last capture or man move (the draw count)."""

    black_men: int
    black_kings: int
    white_men: int
    white_kings: int
    to_move: str
    quiet: int


class Checkers(WinLossDrawGame[CheckersState, Move]):
    """English draughts. Actions are the squares visited, e.g. ``(22, 15, 6)``."""

    name = "checkers"
    summary = (
        "English draughts: 8x8, compulsory captures, no flying kings, draw after 80 quiet plies"
    )
    options: tuple[GameOption, ...] = (SCORING,)
    default_opponent = "engine:time=1"
    ladder = Ladder(
        (
            Level("Beginner", "engine:depth=1", "looks one move ahead"),
            Level("Novice", "engine:depth=2", "looks two moves ahead"),
            Level("Casual", "engine:depth=4", "looks four moves ahead"),
            Level("Club", "engine:depth=6", "looks six moves ahead"),
            Level("Strong", "engine:depth=8", "looks eight moves ahead"),
            Level("Expert", "engine:nodes=30000", "searches 30,000 positions a move"),
            Level("Strongest", "engine:nodes=200000", "searches 200,000 positions a move"),
        ),
        anchor=Anchor("random play", "random", 0, "random play = 0", meets=(1,)),
    )
    searchable_to_end = False
    opening_plies = 4
    players = ("B", "W")

    def __init__(self, scoring: Scoring = Scoring.PLUS_MINUS):
        self.scoring = scoring

    def __repr__(self) -> str:
        return "Checkers()"

    def board_view(self) -> BoardView:
        """The board for the web pages (:mod:`plies.games.checkers.view`)."""
        from plies.games.checkers.view import CheckersView

        return CheckersView(self, draw_plies=DRAW_PLIES)

    def initial_state(self) -> CheckersState:
        return CheckersState(0x00000FFF, 0, 0xFFF00000, 0, "B", 0)

    def to_move(self, state: CheckersState) -> str:
        return state.to_move

    def actions(self, state: CheckersState) -> Sequence[Move]:
        """Captures first (longest first, then by squares), else steps in square order."""
        if state.quiet >= DRAW_PLIES:
            return []
        men, kings, opponents = _sides(state)
        empty = ~(men | kings | opponents) & _FULL
        crown = _BLACK_CROWN if state.to_move == "B" else _WHITE_CROWN
        captures: list[Move] = []
        for square in _squares(men | kings):
            if kings & _bit(square):
                _capture_paths("K", 0, opponents, empty | _bit(square), (square,), captures)
            else:
                kind = state.to_move
                _capture_paths(kind, crown, opponents, empty | _bit(square), (square,), captures)
        if captures:
            return sorted(captures, key=lambda move: (-len(move), move))
        steps: list[Move] = []
        for square in _squares(men | kings):
            kind = "K" if kings & _bit(square) else state.to_move
            steps.extend((square, to) for to in _STEPS[kind][square] if empty & _bit(to))
        return steps

    def result(self, state: CheckersState, action: Move) -> CheckersState:
        """Play a move of :meth:`actions`. Only the move's shape is checked (a piece of the mover
        at the start, steps or jumps over opponents, an empty end), not the rules' full detail."""
        men, kings, opponents = _sides(state)
        if len(action) < 2 or any(square not in _COORDS for square in action):
            raise IllegalMoveError(f"move {action} is not legal in this position")
        start_bit, end_bit = _bit(action[0]), _bit(action[-1])
        captured = 0
        if len(action) > 2 or action[1] not in _STEPS["K"][action[0]]:
            for square, land in pairwise(action):
                over = _OVER.get((square, land), 0)
                if not over or not opponents & ~captured & _bit(over):
                    raise IllegalMoveError(f"move {action} is not legal in this position")
                captured |= _bit(over)
        if not (men | kings) & start_bit or (men | kings | opponents) & ~start_bit & end_bit:
            raise IllegalMoveError(f"move {action} is not legal in this position")
        king_move = kings & start_bit != 0
        if king_move:
            kings = kings & ~start_bit | end_bit  # a king may capture round a ring back to start
        elif (_BLACK_CROWN if state.to_move == "B" else _WHITE_CROWN) & end_bit:
            men ^= start_bit
            kings |= end_bit
        else:
            men ^= start_bit | end_bit
        quiet = state.quiet + 1 if king_move and not captured else 0
        if state.to_move == "B":
            return CheckersState(
                men, kings, state.white_men & ~captured, state.white_kings & ~captured, "W", quiet
            )
        return CheckersState(
            state.black_men & ~captured, state.black_kings & ~captured, men, kings, "B", quiet
        )

    def is_terminal(self, state: CheckersState) -> bool:
        return state.quiet >= DRAW_PLIES or not _can_move(state)

    def winner(self, state: CheckersState) -> str | None:
        """The opponent of a player left without a move; None otherwise (a draw or no result)."""
        return None if _can_move(state) else self.opponent(state.to_move)

    def is_capture(self, state: CheckersState, action: Move) -> bool:
        """Whether ``action`` captures (a "noisy" move for a quiescence search)."""
        return (action[0], action[1]) in _OVER

    def evaluate(self, state: CheckersState, player: str) -> float:
        """EVAL: material (man 100, king 150), the men's advance, men guarding the back row and
        pieces on the four centre squares, from ``player``'s side; strictly between the loss and
        win utilities."""
        if self.is_terminal(state):
            return self.utility(state, player)
        black = _score(state.black_men, state.black_kings, _BLACK_BACK, range(8))
        white = _score(state.white_men, state.white_kings, _WHITE_BACK, range(7, -1, -1))
        lead = (black - white) / (abs(black - white) + 400)
        return self.estimate(lead if player == "B" else -lead, player)

    def hash_key(self, state: CheckersState) -> int:
        """A 64-bit key: SplitMix64's finaliser chained over both sides' pieces, the mover and
        the draw count (equal states give equal keys)."""
        black = state.black_men | state.black_kings << 32
        white = state.white_men | state.white_kings << 32
        extra = state.quiet << 1 | (state.to_move == "W")
        return _mix(black ^ _mix(white ^ _mix(extra)))

    def compiled_rules(self) -> CompiledRules:
        """These rules and EVAL as :mod:`plies.games.checkers.kernel` reads them: captures are
        noisy, and the move generator works in the kernel's capture stack."""
        from plies.games.checkers import kernel

        def encode_move(move: Move) -> int:
            return kernel.move_code(move, self.is_capture(None, move))  # type: ignore[arg-type]

        return CompiledRules(
            "checkers",
            _compiled_row,
            encode_move=encode_move,
            decode_move=kernel.move_squares,
            noisy=True,
            work=kernel.WORK_SHAPE,
        )

    def perft(self, state: CheckersState, depth: int) -> int:
        """Move paths of exactly ``depth`` plies (Aart Bik's convention: a whole capture sequence
        is one ply; a game that ends earlier contributes nothing), by the compiled kernel; the
        last ply is counted in bulk (the number of legal moves)."""
        from plies.games.checkers import (
            kernel as _checkers_kernel,  # Numba loads only when a count is asked for
        )

        return _checkers_kernel.perft(
            state.black_men,
            state.black_kings,
            state.white_men,
            state.white_kings,
            state.to_move == "B",
            state.quiet,
            DRAW_PLIES,
            depth,
        )

    # Endgame databases ------------------------------------------------------------------------

    def position_classes(self, size: int) -> list[Any]:
        """The slices of ``size`` pieces (:mod:`.endgame`: Chinook's sub-databases, by
        material and the rows of the leading men), the classes of retrograde analysis."""
        from plies.games.checkers.endgame import slices

        return slices(size)

    def class_positions(self, position_class: Any) -> int:
        from plies.games.checkers.endgame import slice_index

        return slice_index(position_class).positions

    def class_position(self, position_class: Any, number: int) -> CheckersState:
        from plies.games.checkers.endgame import slice_index

        return slice_index(position_class).position(number)

    def plies_to_draw(self, state: CheckersState) -> int:
        """Plies left before the draw count ends the game (unless a capture or a man move
        resets it)."""
        return DRAW_PLIES - state.quiet

    def shipped_endgames(self) -> Path:
        """The endgame databases shipped with plies (``games/checkers/endgames``, packed a
        file a number of pieces: :mod:`.endgame_pack`)."""
        return Path(__file__).with_name("endgames")

    def packed_endgame(
        self, folder: Path, position_class: Any
    ) -> tuple[Path, dict[str, Any]] | None:
        """The pack in ``folder`` holding ``position_class``'s table and its arrays
        (:func:`.endgame_pack.packed_arrays`)."""
        from plies.games.checkers.endgame_pack import packed_arrays

        return packed_arrays(folder, position_class)

    def compiled_endgames(self, table: Any, size: int) -> tuple[Any, ...]:
        """The endgame tables of up to ``size`` pieces that ``table`` holds, as the compiled
        engine probes them (:func:`.endgame_kernel.compiled_tables`)."""
        from plies.games.checkers.endgame_kernel import compiled_tables

        return compiled_tables(table, size)

    def class_moves(self, position_class: Any) -> ClassMoves:
        """Every move of every position of a slice, by the compiled move generator
        (:mod:`.endgame_kernel`)."""
        from plies.games.checkers.endgame_kernel import class_moves

        return class_moves(position_class)

    def position_class(self, state: CheckersState) -> Any:
        """The slice of ``state`` (:class:`.endgame.Slice`)."""
        from plies.games.checkers.endgame import Slice

        return Slice.of(state)

    def position_number(self, position_class: Any, state: CheckersState) -> int:
        """The number of ``state`` among its slice's positions (the draw count aside),
        compiled (:mod:`.endgame_kernel`; :mod:`.endgame` numbers the same in Python)."""
        from plies.games.checkers.endgame_kernel import position_number

        return position_number(position_class, state)

    # Notation --------------------------------------------------------------------------------

    def format_action(self, state: CheckersState, action: Move) -> str:
        separator = "x" if self.is_capture(state, action) else "-"
        return separator.join(str(square) for square in action)

    def parse_action(self, state: CheckersState, text: str) -> Move:
        """``11-15``, ``22x15x6``, ``22x6`` (when one capture goes from 22 to 6) or coordinates
        (``c3-d4``); raises :class:`IllegalMoveError` saying why the move is not legal."""
        move = text.strip()
        if not _MOVE.fullmatch(move.lower()):
            raise IllegalMoveError(
                f"move {move!r} is not written like 11-15 or 22x15x6 (squares 1 to 32)"
            )
        squares = tuple(
            _read_square(move, word) for word in re.findall(r"[a-h]?[0-9]+", move.lower())
        )
        if self.is_terminal(state):
            raise IllegalMoveError(f"move {move!r}: the game is over")
        men, kings, opponents = _sides(state)
        start, end = squares[0], squares[-1]
        if not (men | kings) & _bit(start):
            side = SIDES[state.to_move]
            raise IllegalMoveError(f"move {move!r}: {side} has no piece on {start}")
        legal = self.actions(state)
        if squares in legal:
            return squares
        longer = [a for a in legal if a[: len(squares)] == squares]
        if longer:
            raise IllegalMoveError(
                f"move {move!r}: the capture must go on while it can: {self._list(state, longer)}"
            )
        if len(squares) == 2:
            same_ends = [a for a in legal if a[0] == start and a[-1] == end]
            if len(same_ends) == 1:
                return same_ends[0]
            if same_ends:
                raise IllegalMoveError(
                    f"move {move!r} is ambiguous: {self._list(state, same_ends)}"
                )
        step = len(squares) == 2 and end in _STEPS["K"][start]
        if self.is_capture(state, legal[0]):
            if step:
                raise IllegalMoveError(
                    f"move {move!r}: a capture is compulsory: {self._list(state, legal)}"
                )
            raise IllegalMoveError(
                f"move {move!r} is not a legal capture; captures: {self._list(state, legal)}"
            )
        if step:
            if (men | kings | opponents) & _bit(end):
                reason = f"square {end} is occupied"
            else:
                reason = "a man moves only forward"
        elif all(hop in _OVER for hop in pairwise(squares)):
            reason = "there is nothing to capture"
        elif len(squares) == 2:
            reason = f"{end} is neither diagonally next to {start} nor a jump away"
        else:
            first, then = next(hop for hop in pairwise(squares) if hop not in _OVER)
            reason = f"{first} to {then} is not a jump, and only captures visit three squares"
        raise IllegalMoveError(f"move {move!r}: {reason}")

    def _list(self, state: CheckersState, moves: Sequence[Move]) -> str:
        return ", ".join(self.format_action(state, move) for move in moves)

    def can_draw(self) -> bool:
        return True

    def format_position(self, state: CheckersState) -> str:
        white = _piece_list(state.white_men, state.white_kings)
        black = _piece_list(state.black_men, state.black_kings)
        draw_count = f":H{state.quiet}" if state.quiet else ""
        return f"{state.to_move}:W{white}:B{black}{draw_count}"

    def parse_position(self, text: str) -> CheckersState:
        """PDN FEN ``B:W21,22,K30:B1,2,K12`` (the mover, then each side's squares in either
        order, ``K`` for kings, ranges like ``1-12`` allowed), then optionally ``:H`` and the
        plies since the last capture or man move."""
        fields = [field.strip().upper() for field in text.strip().removesuffix(".").split(":")]
        colours = sorted(field[:1] for field in fields[1:3])
        if len(fields) not in (3, 4) or fields[0] not in SIDES or colours != ["B", "W"]:
            raise InvalidPositionError(
                f"position {text!r} is not FEN like B:W21,22,K30:B1,2,K12 (the mover, then "
                "each side's squares, K for kings)"
            )
        quiet = 0
        if len(fields) == 4:
            match = re.fullmatch(r"H([0-9]+)", fields[3])
            if match is None or int(match[1]) > DRAW_PLIES:
                raise InvalidPositionError(
                    f"position {text!r}: {fields[3]!r} is not a draw count H0 to H{DRAW_PLIES}"
                )
            quiet = int(match[1])
        boards = {field[0]: _read_pieces(text, field[0], field[1:]) for field in fields[1:3]}
        (black_men, black_kings), (white_men, white_kings) = boards["B"], boards["W"]
        twice = (black_men | black_kings) & (white_men | white_kings)
        if twice:
            square = next(_squares(twice))
            raise InvalidPositionError(f"position {text!r}: square {square} is given twice")
        for men, crown, side in (
            (black_men, _BLACK_CROWN, "B"),
            (white_men, _WHITE_CROWN, "W"),
        ):
            if men & crown:
                square = next(_squares(men & crown))
                raise InvalidPositionError(
                    f"position {text!r}: a {SIDES[side].lower()} man on {square} would have "
                    "been crowned"
                )
        return CheckersState(black_men, black_kings, white_men, white_kings, fields[0], quiet)

    def display(self, state: CheckersState) -> str:
        """The board with Black at the top: ``b``/``w`` men, ``B``/``W`` kings, and the number of
        each empty dark square; files a-h and ranks 1-8 on the edges."""
        symbols = {}
        for bits, symbol in (
            (state.black_men, "b"),
            (state.black_kings, "B"),
            (state.white_men, "w"),
            (state.white_kings, "W"),
        ):
            symbols.update(dict.fromkeys(_squares(bits), symbol))
        lines = ["  " + "".join(f"  {file}" for file in "abcdefgh")]
        for row in range(8):
            cells = []
            for col in range(8):
                square = _square_at(row, col)
                cells.append(f"{symbols.get(square, square or ''):>3}")
            lines.append(f"{8 - row} " + "".join(cells).rstrip())
        winner = self.winner(state)
        if winner is not None:
            status = f"game over: {SIDES[winner]} wins"
        elif self.is_terminal(state):
            status = f"game over: a draw ({DRAW_PLIES} plies without a capture or man move)"
        else:
            status = f"{SIDES[state.to_move]} ({state.to_move}) to move"
            if state.quiet:
                status += f"; {state.quiet} of {DRAW_PLIES} plies without a capture or man move"
        return "\n".join([*lines, status])


def _compiled_row(state: CheckersState) -> tuple[int, ...]:
    board = (state.black_men, state.black_kings, state.white_men, state.white_kings)
    return (*board, int(state.to_move == "W"), state.quiet)


def _sides(state: CheckersState) -> tuple[int, int, int]:
    """The mover's men and kings, and every opponent piece."""
    if state.to_move == "B":
        return state.black_men, state.black_kings, state.white_men | state.white_kings
    return state.white_men, state.white_kings, state.black_men | state.black_kings


def _capture_paths(
    kind: str, crown: int, opponents: int, empty: int, path: Move, out: list[Move]
) -> None:
    """Append to ``out`` every capture sequence that extends ``path``, whose last square holds a
    piece of ``kind`` (``B`` or ``W`` man, ``K`` king) crowned on ``crown``; ``opponents`` are
    those not yet captured. A sequence ends where no jump goes on or where a man is crowned."""
    square = path[-1]
    extended = False
    for over, land in _JUMPS[kind][square]:
        if opponents & _bit(over) and empty & _bit(land):
            extended = True
            if crown & _bit(land):
                out.append((*path, land))
            else:
                rest = (empty | _bit(square)) & ~_bit(land)
                _capture_paths(kind, crown, opponents & ~_bit(over), rest, (*path, land), out)
    if not extended and len(path) > 1:
        out.append(path)


def _can_move(state: CheckersState) -> bool:
    """Whether the mover has a step or a capture (ignoring the draw count)."""
    men, kings, opponents = _sides(state)
    empty = ~(men | kings | opponents) & _FULL
    for square in _squares(men | kings):
        kind = "K" if kings & _bit(square) else state.to_move
        if any(empty & _bit(to) for to in _STEPS[kind][square]):
            return True
        if any(opponents & _bit(o) and empty & _bit(land) for o, land in _JUMPS[kind][square]):
            return True
    return False


def _score(men: int, kings: int, back: int, rows: range) -> int:
    """One side's EVAL points: 100 a man, 150 a king, 3 per row each man has advanced (``rows``
    lists the board's rows from the side's own back row), 10 a man on the back row and 8 a piece
    on the centre squares."""
    advance = sum(step * (men >> 4 * row & 0xF).bit_count() for step, row in enumerate(rows))
    return (
        100 * men.bit_count()
        + 150 * kings.bit_count()
        + 3 * advance
        + 10 * (men & back).bit_count()
        + 8 * ((men | kings) & _CENTRE).bit_count()
    )


def _mix(x: int) -> int:
    """SplitMix64's finaliser: a bijection of 64-bit words that spreads every bit."""
    x = (x ^ x >> 30) * 0xBF58476D1CE4E5B9 & _MASK64
    x = (x ^ x >> 27) * 0x94D049BB133111EB & _MASK64
    return x ^ x >> 31


def _piece_list(men: int, kings: int) -> str:
    return ",".join([*(str(s) for s in _squares(men)), *(f"K{s}" for s in _squares(kings))])


def _read_pieces(text: str, colour: str, pieces: str) -> tuple[int, int]:
    """The (men, kings) bitboards of one side's FEN field (without its colour letter)."""
    boards = [0, 0]
    for item in filter(None, (item.strip() for item in pieces.split(","))):
        match = re.fullmatch(r"(K?)([0-9]+)(?:-([0-9]+))?", item)
        if match is None:
            raise InvalidPositionError(
                f"position {text!r}: {item!r} is not a square (write 12, K12 or 1-12)"
            )
        first, last = int(match[2]), int(match[3] or match[2])
        for square in range(first, last + 1):
            if not 1 <= square <= 32:
                raise InvalidPositionError(
                    f"position {text!r}: square {square} is off the board (squares 1 to 32)"
                )
            if (boards[0] | boards[1]) & _bit(square):
                raise InvalidPositionError(f"position {text!r}: square {square} is given twice")
            boards[bool(match[1])] |= _bit(square)
    if (boards[0] | boards[1]).bit_count() > 12:
        raise InvalidPositionError(f"position {text!r}: {SIDES[colour]} has more than 12 pieces")
    return boards[0], boards[1]


def _read_square(move: str, word: str) -> int:
    """The square number of ``12`` or ``c3``; raises :class:`IllegalMoveError` off the board or
    on a light square."""
    if word.isdigit():
        if not 1 <= int(word) <= 32:
            raise IllegalMoveError(
                f"move {move!r}: {word} is off the board (the dark squares are 1 to 32)"
            )
        return int(word)
    file, rank = word[0], int(word[1:])
    if not 1 <= rank <= 8:
        raise IllegalMoveError(f"move {move!r}: {word} is off the board (a1 to h8)")
    square = _square_at(8 - rank, ord(file) - ord("a"))
    if not square:
        raise IllegalMoveError(
            f"move {move!r}: {word} is a light square; pieces stand on the dark squares"
        )
    return square
