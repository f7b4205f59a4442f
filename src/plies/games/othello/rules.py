"""Othello (Reversi) on the 8x8 board from the standard start.

Black (``B``, drawn ``X``) and white (``W``, drawn ``O``) take turns putting a disc on an empty
square so that it flanks, in at least one of the eight directions, an unbroken line of the
opponent's discs ending in one of the mover's own; every line so flanked is turned over. Play
starts with white on d4 and e5, black on d5 and e4, black to move. A player with no such square
must pass, and the pass is a move (the action :data:`PASS`, written ``pass``); the game ends
when neither player can move, and whoever has more discs wins (empty squares are awarded to
nobody; equal counts draw).

Squares are written ``d3``: the column letter ``a``..``h`` from the left, then the row ``1``..``8``
from the top (lower case on output, any case on input). A position is either a game record
from the start, the moves run together (``f5d6c3``; passes may be left out, or written
``pass``/``ps``), or the board in Edax's OBF form: 64 squares in reading order (``-`` or ``.``
empty, ``X``, ``*`` or ``B`` black, ``O`` or ``W`` white), a space, and the mover (``X``/``B``
or ``O``/``W``). :meth:`Othello.format_position` writes the board form.

>>> game = Othello()
>>> state = game.initial_state()
>>> [game.format_action(state, a) for a in game.actions(state)]
['d3', 'c4', 'f5', 'e6']
>>> state = game.parse_position("f5d6c3d3c4")
>>> game.format_position(state)
'------------------XO------XXX------OXX-----O-------------------- O'
>>> [game.perft(game.initial_state(), depth) for depth in range(1, 6)]
[4, 12, 56, 244, 1396]
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache
from typing import NamedTuple

import numpy as np
from numpy.typing import NDArray

from plies.capabilities import BoardView, CompiledRules, Symmetry
from plies.errors import IllegalMoveError, InvalidPositionError, SpecError
from plies.game import Scoring, WinLossDrawGame
from plies.games.grid import grid_symmetries
from plies.games.othello.evaluation import PatternWeights, shipped_weights, weight_names
from plies.games.othello.patterns import SCALE
from plies.games.othello.squares import (
    EDGE_RAYS,
    NEXT_TO_CORNER,
    RANK,
    WHITE_TO_MOVE_KEY,
    splitmix,
)
from plies.ladder import Anchor, Ladder, Level
from plies.perfect import PerfectSolver
from plies.registry import SCORING, GameOption

PASS = -1
"""The action of a player who has no legal move."""

PASS_INDEX = 64
"""PASS's index in a policy vector, after the 64 squares'."""

FULL = (1 << 64) - 1
NOT_A = 0xFEFEFEFEFEFEFEFE  # every column but a: where an eastward step may land
NOT_H = 0x7F7F7F7F7F7F7F7F  # every column but h: where a westward step may land
CORNERS = 0x8100000000000081
CENTRE = (1 << 27) | (1 << 28) | (1 << 35) | (1 << 36)
NAMES = {"B": "black", "W": "white"}

INNER = 0x7E7E7E7E7E7E7E7E  # columns b..g: where a run can continue sideways without wrapping

_LINES = ((1, NOT_A, NOT_H), (8, FULL, FULL), (9, NOT_A, NOT_H), (7, NOT_H, NOT_A))
"""The four lines as (shift, mask after a left shift, mask after a right shift): left shifts
step east, south, south-east and south-west; right shifts the opposite way."""


@lru_cache(maxsize=4096)  # a search asks again at once: IS-TERMINAL, ACTIONS, EVAL
def legal_moves(p: int, o: int) -> int:
    """The squares where the mover (discs ``p``) flips something of the opponent's (``o``).

    Per direction, the runs of up to six opponent discs that start next to a mover's disc are
    grown by doubling (Edax's ``get_moves``); the empty square after a run is a move.
    """
    empty = ~(p | o) & FULL
    moves = 0
    for shift, _, _ in _LINES:
        runs = o if shift == 8 else o & INNER  # sideways runs never reach columns a and h
        pairs = runs & (runs << shift)  # run squares with a run square one step back
        double = 2 * shift
        run = runs & (p << shift)
        run |= runs & (run << shift)
        run |= pairs & (run << double)
        run |= pairs & (run << double)
        moves |= empty & (run << shift)
        pairs = runs & (runs >> shift)
        run = runs & (p >> shift)
        run |= runs & (run >> shift)
        run |= pairs & (run >> double)
        run |= pairs & (run >> double)
        moves |= empty & (run >> shift)
    return moves


def flips(p: int, o: int, square: int) -> int:
    """The opponent discs that the mover turns over by playing ``square`` (0 if none)."""
    flipped, move = 0, 1 << square
    for shift, left_mask, right_mask in _LINES:
        run, x = 0, (move << shift) & left_mask
        while x & o:
            run, x = run | x, (x << shift) & left_mask
        if x & p:
            flipped |= run
        run, x = 0, (move >> shift) & right_mask
        while x & o:
            run, x = run | x, (x >> shift) & right_mask
        if x & p:
            flipped |= run
    return flipped


def _squares(bits: int) -> list[int]:
    squares = []
    while bits:
        low = bits & -bits
        squares.append(low.bit_length() - 1)
        bits ^= low
    return squares


def _anchored(discs: int) -> int:
    """The non-corner edge discs joined to an own corner by an unbroken line of own discs along
    the edge: nothing can ever turn them over."""
    anchored = 0
    for corner, rays in EDGE_RAYS.items():
        if discs >> corner & 1:
            for ray in rays:
                for square in ray:
                    if not discs >> square & 1:
                        break
                    anchored |= 1 << square
    return anchored


WEIGHTS = (10, 30, 10, 10)
"""The hand-written EVAL's weights of mobility, corners, exposure and anchored discs unless
given others."""
PROBCUT_MARGIN = 0.19
"""1.5 standard deviations (0.127) of the pattern evaluation's searches of depth d less those
of ProbCut's shallow depth, d from 4 to 8 (``benchmarks/othello_probcut.py``, BENCHMARKS.md)."""
EVALUATIONS = ("patterns", "hand")
"""Othello's evaluations: fitted pattern tables (the default) and hand-written terms."""


def _move_counts(p: int, o: int) -> tuple[int, int]:
    """The legal moves of the player of discs ``p`` and of the opponent ``o``: mobility."""
    return legal_moves(p, o).bit_count(), legal_moves(o, p).bit_count()


def _terms(p: int, o: int) -> tuple[float, float, float, float]:
    """EVAL's four terms for the player of discs ``p`` against ``o``, each in [-1, 1]:
    mobility, corners, exposure (discs next to an empty corner, the opponent's less one's own)
    and edge discs anchored to an own corner."""
    mine, theirs = _move_counts(p, o)
    mobility = (mine - theirs) / (mine + theirs + 2)
    corners = ((p & CORNERS).bit_count() - (o & CORNERS).bit_count()) / 4
    risky = sum(bits for corner, bits in NEXT_TO_CORNER.items() if not (p | o) >> corner & 1)
    exposure = ((o & risky).bit_count() - (p & risky).bit_count()) / 12
    anchored = (_anchored(p).bit_count() - _anchored(o).bit_count()) / 24
    return mobility, corners, exposure, anchored


class OthelloState(NamedTuple):
    """An Othello state: the black and white discs as 64-bit boards (bit ``8 * row + column``,
    a1 is bit 0) and the player to move."""

    black: int
    white: int
    to_move: str


class Othello(WinLossDrawGame[OthelloState, int]):
    """Othello from the standard start. Actions are squares 0..63 (``8 * row + column``, a1 is 0)
    or :data:`PASS`."""

    name = "othello"
    summary = "Othello (Reversi), 8x8 from the standard start; a forced pass is a move"
    options: tuple[GameOption, ...] = (SCORING,)
    default_opponent = "engine:time=1"
    ladder = Ladder(
        (
            Level("Beginner", "engine:depth=1", "looks one move ahead"),
            Level("Novice", "engine:depth=2", "looks two moves ahead"),
            Level("Casual", "engine:depth=3", "looks three moves ahead"),
            Level("Club", "engine:depth=4", "looks four moves ahead"),
            Level("Strong", "engine:depth=6", "looks six moves ahead"),
            Level("Expert", "engine:nodes=50000", "searches 50,000 positions a move"),
            Level("Strongest", "engine:nodes=200000", "searches 200,000 positions a move"),
        ),
        anchor=Anchor("random play", "random", 0, "random play = 0", meets=(1,)),
    )
    searchable_to_end = False
    opening_plies = 4
    players = ("B", "W")

    def __init__(
        self,
        scoring: Scoring = Scoring.PLUS_MINUS,
        weights: tuple[int, ...] = WEIGHTS,
        evaluation: str = "patterns",
        patterns: PatternWeights | None = None,
    ) -> None:
        self.scoring = scoring
        self.weights = weights
        """The hand-written EVAL's weights of mobility, corners, exposure and anchored discs."""
        if evaluation not in EVALUATIONS:
            raise SpecError(
                f"othello has no evaluation {evaluation!r} (it has {', '.join(EVALUATIONS)})"
            )
        if evaluation == "patterns" and patterns is None:
            patterns = shipped_weights()
        self.patterns = patterns if evaluation == "patterns" else None
        """The pattern evaluation's fitted tables; None when EVAL is the hand-written one
        (chosen, or the shipped tables unreadable)."""
        self._symmetries = tuple(
            Symmetry(cells, (*cells, PASS_INDEX)) for cells in grid_symmetries(8, 8)
        )

    def __repr__(self) -> str:
        if self.patterns is None:
            return f"Othello(evaluation='hand', weights={self.weights})"
        if self.patterns is shipped_weights():
            return "Othello()"
        return f"Othello(patterns={self.patterns.source!r})"

    @property
    def evaluation(self) -> str:
        """The evaluation in use: ``patterns`` or ``hand``."""
        return "hand" if self.patterns is None else "patterns"

    def evaluations(self) -> tuple[str, ...]:
        """The pattern evaluation (fitted, :mod:`plies.games.othello.evaluation`) and the
        hand-written one; the one in use first."""
        return (self.evaluation, *(name for name in EVALUATIONS if name != self.evaluation))

    def with_evaluation(self, name: str) -> Othello:
        return Othello(self.scoring, self.weights, name)

    def board_view(self) -> BoardView:
        """The board for the web pages (:mod:`plies.games.othello.view`)."""
        from plies.games.othello.view import OthelloView

        return OthelloView(self, pass_move=PASS)

    @staticmethod
    def _sides(state: OthelloState) -> tuple[int, int]:
        """(mover's discs, opponent's discs)."""
        if state.to_move == "B":
            return state.black, state.white
        return state.white, state.black

    def initial_state(self) -> OthelloState:
        return OthelloState(black=(1 << 28) | (1 << 35), white=(1 << 27) | (1 << 36), to_move="B")

    def to_move(self, state: OthelloState) -> str:
        return state.to_move

    def actions(self, state: OthelloState) -> Sequence[int]:
        """The legal squares, corners first and X-squares last; ``[PASS]`` when there are none
        but the opponent can move; ``[]`` at the end."""
        p, o = self._sides(state)
        moves = legal_moves(p, o)
        if moves:
            return sorted(_squares(moves), key=RANK.__getitem__)
        return [PASS] if legal_moves(o, p) else []

    def result(self, state: OthelloState, action: int) -> OthelloState:
        p, o = self._sides(state)
        mover = state.to_move
        if action == PASS:
            if legal_moves(p, o) or not legal_moves(o, p):
                raise IllegalMoveError("move pass is not legal in this position")
            return state._replace(to_move=self.opponent(mover))
        flipped = flips(p, o, action) if 0 <= action < 64 and not (p | o) >> action & 1 else 0
        if not flipped:
            raise IllegalMoveError(f"move {action} is not legal in this position")
        p, o = p | flipped | 1 << action, o ^ flipped
        black, white = (p, o) if mover == "B" else (o, p)
        return OthelloState(black, white, self.opponent(mover))

    def is_terminal(self, state: OthelloState) -> bool:
        p, o = self._sides(state)
        return not legal_moves(p, o) and not legal_moves(o, p)

    def winner(self, state: OthelloState) -> str | None:
        if not self.is_terminal(state):
            return None
        black, white = state.black.bit_count(), state.white.bit_count()
        return "B" if black > white else "W" if white > black else None

    def evaluate(self, state: OthelloState, player: str) -> float:
        """EVAL. The pattern evaluation's lead (:mod:`plies.games.othello.evaluation`), or the
        hand-written one: with 12 or fewer empty squares the disc difference; before that the
        weighted sum of mobility, corners, discs next to empty corners (a penalty) and edge
        discs anchored to an own corner (they can never be turned over), divided by the
        weights' total plus one. Strictly between the loss and win utilities."""
        if self.is_terminal(state):
            return self.utility(state, player)
        if self.patterns is not None:
            p, o = self._sides(state)
            moves, replies = _move_counts(p, o)
            lead = self.patterns.lead(p, o, moves, replies)
            return self.estimate(lead if player == state.to_move else -lead, player)
        p, o = (state.black, state.white) if player == "B" else (state.white, state.black)
        if 64 - (p | o).bit_count() <= 12:
            return self.estimate((p.bit_count() - o.bit_count()) / 65, player)
        mobility, corners, exposure, anchored = _terms(p, o)
        w = self.weights
        total = sum(abs(weight) for weight in w) + 1
        lead = (w[0] * mobility + w[1] * corners + w[2] * exposure + w[3] * anchored) / total
        return self.estimate(lead, player)

    def evaluation_weights(self) -> Sequence[float]:
        """EVAL's weights: the pattern tables' (in table units), or the hand-written terms' (a
        linear evaluation before the last 12 empty squares)."""
        if self.patterns is not None:
            return self.patterns.shared.tolist()  # type: ignore[no-any-return]
        return self.weights

    def evaluation_names(self) -> tuple[str, ...]:
        if self.patterns is not None:
            return weight_names()
        return ("mobility", "corners", "exposure", "anchored")

    @property
    def probcut_margin(self) -> float:
        """ProbCut's margin for the pattern evaluation (:data:`PROBCUT_MARGIN`); 0 (none)
        for the hand-written one."""
        return 0.0 if self.patterns is None else PROBCUT_MARGIN

    @property
    def evaluation_scale(self) -> float | None:
        """The pattern evaluation's logits per table unit; None for the hand-written one."""
        return None if self.patterns is None else 1 / SCALE

    def evaluation_features(self, state: OthelloState) -> dict[int, float] | None:
        """Black's features: the pattern evaluation's (``PatternWeights.features``), or the
        hand-written four terms, which EVAL weighs (then divides by a constant); None at the
        end, and for the hand-written EVAL with 12 or fewer empty squares (the disc count)."""
        if self.is_terminal(state):
            return None
        if self.patterns is not None:
            p, o = self._sides(state)
            moves, replies = _move_counts(p, o)
            sign = 1 if state.to_move == "B" else -1
            return self.patterns.features(p, o, moves, replies, sign)
        if 64 - (state.black | state.white).bit_count() <= 12:
            return None
        return dict(enumerate(_terms(state.black, state.white)))

    def with_evaluation_weights(self, weights: Sequence[float], source: str) -> Othello:
        """Othello evaluated with ``weights`` from ``source`` (rounded to whole numbers): the
        pattern tables' or the hand-written terms', as the evaluation in use."""
        if self.patterns is not None:
            tables = PatternWeights(np.asarray(weights, np.float64), source)
            return Othello(self.scoring, self.weights, "patterns", tables)
        if len(weights) != len(WEIGHTS):
            raise SpecError(f"othello evaluation {source}: {len(weights)} weights, expected 4")
        return Othello(self.scoring, tuple(round(weight) for weight in weights), "hand")

    def hash_key(self, state: OthelloState) -> int:
        """A 64-bit mix of the two boards, XORed with a fixed key when white is to move."""
        key = splitmix(splitmix(state.black) ^ state.white)
        return key ^ WHITE_TO_MOVE_KEY if state.to_move == "W" else key

    def perft(self, state: OthelloState, depth: int) -> int:
        """Aart Bik's perft, compiled: move paths of ``depth`` plies where a pass is a ply and a
        game that ends earlier counts as one leaf (so perft 10 = 24,571,284 includes the 228
        games that end at ply 9). The last ply is counted in bulk, not played."""
        if depth < 0:
            raise SpecError(f"perft depth must be at least 0, got {depth}")
        p, o = self._sides(state)
        from plies.games.othello import (
            kernel as _othello_kernel,  # Numba loads only when perft is asked for
        )

        return int(_othello_kernel.perft(np.uint64(p), np.uint64(o), depth))

    def compiled_rules(self) -> CompiledRules:
        """These rules and EVAL as :mod:`plies.games.othello.kernel` reads them."""
        # 60 discs, and a pass is followed by a disc or by the end
        if self.patterns is None:
            return CompiledRules(
                "othello", _compiled_row, (*self.weights, 0), longest=120, moves=65
            )
        return CompiledRules(
            "othello",
            _compiled_row,
            (*self.weights, 1),
            tables=self.patterns.rows,
            longest=120,
            moves=65,
        )

    # Tensor encoding -------------------------------------------------------------------------

    def tensor_shape(self) -> tuple[int, int, int]:
        """Two planes (the mover's discs, the opponent's) of 8 rows (row 1 first) by 8 columns."""
        return 2, 8, 8

    def action_count(self) -> int:
        """The 64 squares and :data:`PASS`."""
        return PASS_INDEX + 1

    def encode(self, state: OthelloState) -> NDArray[np.float32]:
        """The mover's discs (plane 0) and the opponent's (plane 1) as 1.0, a1 at row 0, column
        0: bit ``8 * row + column`` is already the cell, so the boards are unpacked in place."""
        p, o = self._sides(state)
        raw = np.frombuffer(p.to_bytes(8, "little") + o.to_bytes(8, "little"), dtype=np.uint8)
        return np.unpackbits(raw, bitorder="little").reshape(2, 8, 8).astype(np.float32)

    def action_index(self, state: OthelloState, action: int) -> int:
        """The square (``8 * row + column``, the planes' cell) or :data:`PASS_INDEX` for a pass;
        raises :class:`IllegalMoveError` for anything else."""
        if action == PASS:
            return PASS_INDEX
        if not 0 <= action < 64:
            raise IllegalMoveError(f"move {action} is not a square 0 to 63 or pass")
        return action

    def index_action(self, state: OthelloState, index: int) -> int:
        """The square with index ``index``, or :data:`PASS` for :data:`PASS_INDEX`; raises
        :class:`IllegalMoveError` for an index out of range."""
        if not 0 <= index <= PASS_INDEX:
            raise IllegalMoveError(f"action index {index} is not 0 to {PASS_INDEX}")
        return PASS if index == PASS_INDEX else index

    def symmetries(self) -> Sequence[Symmetry]:
        """The 8 symmetries of the square board, identity first; a pass stays a pass."""
        return self._symmetries

    # Notation --------------------------------------------------------------------------------

    def format_action(self, state: OthelloState, action: int) -> str:
        if action == PASS:
            return "pass"
        row, column = divmod(action, 8)
        return f"{'abcdefgh'[column]}{row + 1}"

    def parse_action(self, state: OthelloState, text: str) -> int:
        """``d3``, or ``pass`` (also ``ps``) when there is no legal move; raises
        :class:`IllegalMoveError` naming the move and why it is illegal."""
        word = text.strip()
        try:
            action = _read_square(word)
        except ValueError as error:
            raise IllegalMoveError(f"move {word!r} {error}") from None
        if self.is_terminal(state):
            raise IllegalMoveError(f"move {word!r}: the game is over")
        reason = self._illegal(state, action)
        if reason:
            raise IllegalMoveError(f"move {word!r}: {reason}")
        return action

    def _illegal(self, state: OthelloState, action: int) -> str | None:
        """Why ``action`` is illegal in the non-terminal ``state``, or None if it is legal."""
        p, o = self._sides(state)
        moves = legal_moves(p, o)
        mover = NAMES[state.to_move]
        if action == PASS:
            if moves:
                return f"{mover} cannot pass with a legal move ({self._legal_text(state)})"
            return None
        if (p | o) >> action & 1:
            return "that square is taken"
        if not moves:
            return f"{mover} has no legal move and must pass"
        if not moves >> action & 1:
            return f"it turns over no disc (legal: {self._legal_text(state)})"
        return None

    def _legal_text(self, state: OthelloState) -> str:
        return " ".join(self.format_action(state, a) for a in self.actions(state))

    def perfect_solver(self) -> PerfectSolver:
        """The exact endgame solver (:class:`~plies.games.othello.solver.OthelloSolver`): in
        reach near the end of the game (about 20 empties in seconds)."""
        from plies.games.othello.solver import OthelloSolver

        return OthelloSolver(self)

    def endgame_solver(self) -> PerfectSolver:
        """The same exact solver, which the engine plays the end with (``exact``)."""
        return self.perfect_solver()

    def gtp_setup(self) -> tuple[str, ...]:
        """GRhino's new game (its squares are plies' own: ``a1`` top left)."""
        return ("boardsize 8", "clear_board")

    def gtp_moves(self, state: OthelloState) -> None:
        """None: a state keeps no moves."""
        return None

    def gtp_vertex(self, action: int) -> str | None:
        """A square; None for a pass, which GRhino makes by itself (it refuses ``play`` of
        one) and answers ``genmove`` with."""
        return None if action == PASS else f"{'abcdefgh'[action % 8]}{action // 8 + 1}"

    def can_draw(self) -> bool:
        return True

    def format_position(self, state: OthelloState) -> str:
        """The board in Edax's OBF form: 64 squares of ``-``, ``X``, ``O``, a space, the mover."""
        squares = "".join(
            "X" if state.black >> s & 1 else "O" if state.white >> s & 1 else "-" for s in range(64)
        )
        return f"{squares} {'X' if state.to_move == 'B' else 'O'}"

    def parse_position(self, text: str) -> OthelloState:
        """A game record from the start (``f5d6c3``; passes inserted where forced; empty text is
        the start), or 64 squares and the mover (``---...XO... X``); raises
        :class:`InvalidPositionError`. An FFO/OBF line's move scores after ``;`` are left
        aside."""
        if ";" in text:
            text = text.split(";", 1)[0]
            if not text.strip():
                raise InvalidPositionError("position: nothing before the ';'")
        if not text.strip() or re.search(r"[0-9]", text):
            return self._play_record(text)
        fields = text.split()
        if len(fields) != 2:
            raise InvalidPositionError(
                f"position {text!r} is neither a game record like f5d6c3 nor 64 squares "
                "followed by the mover"
            )
        board, side = fields[0].upper(), fields[1].upper().rstrip(";")
        if len(board) != 64:
            raise InvalidPositionError(f"position {text!r} has {len(board)} squares, not 64")
        bad = set(board) - set("-.X*BOW")
        if bad:
            raise InvalidPositionError(
                f"position {text!r} has {sorted(bad)[0]!r}; use - or . (empty), X, * or B "
                "(black), O or W (white)"
            )
        if side not in ("X", "*", "B", "O", "W"):
            raise InvalidPositionError(
                f"position {text!r}: the mover {fields[1]!r} is not X or B (black), O or W (white)"
            )
        black = sum(1 << s for s, c in enumerate(board) if c in "X*B")
        white = sum(1 << s for s, c in enumerate(board) if c in "OW")
        if (black | white) & CENTRE != CENTRE:
            raise InvalidPositionError(
                f"position {text!r}: the centre squares d4, e4, d5 and e5 are never empty"
            )
        return OthelloState(black, white, "B" if side in ("X", "*", "B") else "W")

    def _play_record(self, text: str) -> OthelloState:
        """The state after a record from the start, passing for a mover with no legal move."""
        state, position, index = self.initial_state(), 0, 0
        while (token := _RECORD_TOKEN.match(text, position)) is None or token[1]:
            index += 1
            if token is None:
                rest = text[position:].split()[0]
                raise InvalidPositionError(
                    f"record {text!r}: move {index} {rest!r} is not a square like d3"
                )
            position, word = token.end(), token[1]
            try:
                action = _read_square(word)
            except ValueError as error:
                raise InvalidPositionError(
                    f"record {text!r}: move {index} {word!r} {error}"
                ) from None
            if self.is_terminal(state):
                raise InvalidPositionError(
                    f"record {text!r}: move {index} {word!r} comes after the end of the game"
                )
            if action != PASS and self.actions(state) == [PASS]:
                state = self.result(state, PASS)
            reason = self._illegal(state, action)
            if reason:
                raise InvalidPositionError(f"record {text!r}: move {index} {word!r}: {reason}")
            state = self.result(state, action)
        return state

    def display(self, state: OthelloState) -> str:
        rows = ["   a b c d e f g h"]
        for row in range(8):
            cells = (
                "X" if state.black >> s & 1 else "O" if state.white >> s & 1 else "."
                for s in range(8 * row, 8 * row + 8)
            )
            rows.append(f"{row + 1:>2} {' '.join(cells)}")
        black, white = state.black.bit_count(), state.white.bit_count()
        score = f"black (X) {black}, white (O) {white}"
        if self.is_terminal(state):
            winner = self.winner(state)
            rows.append(f"{score}: game over, {f'{NAMES[winner]} wins' if winner else 'a draw'}")
        else:
            mover = NAMES[state.to_move]
            must_pass = self.actions(state) == [PASS]
            rows.append(f"{score}: {mover} {'must pass' if must_pass else 'to move'}")
        return "\n".join(rows)


def _compiled_row(state: OthelloState) -> tuple[int, int, int]:
    return state.black, state.white, int(state.to_move == "W")


_RECORD_TOKEN = re.compile(r"\s*(pass|ps|[a-z][0-9]+|$)", re.IGNORECASE)


def _read_square(word: str) -> int:
    """A square ``d3`` (any case) or ``pass``/``ps``; a ValueError completes "move ... "."""
    lowered = word.lower()
    if lowered in ("pass", "ps"):
        return PASS
    match = re.fullmatch(r"([a-z])([0-9]+)", lowered)
    if match is None:
        raise ValueError("is not a square like d3 or pass")
    column, row = ord(match[1]) - ord("a"), int(match[2]) - 1
    if not (0 <= column < 8 and 0 <= row < 8):
        raise ValueError("is not a square of the 8x8 board (a1..h8)")
    return 8 * row + column
