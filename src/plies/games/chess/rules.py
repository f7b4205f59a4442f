"""Chess on top of python-chess (https://python-chess.readthedocs.io): the library supplies the
rules (legal moves, check, SAN, FEN, PGN); this module makes them a formal game.

The game ends in checkmate (a win for the side giving it) or in a draw by stalemate,
insufficient material (python-chess's ``is_insufficient_material``), the fifty-move rule (the
halfmove clock reaching 100, treated as claimed; a mate on that move still wins) or threefold
repetition (the third occurrence of a position, treated as claimed). These subsume FIDE's
automatic fivefold-repetition and 75-move rules. Positions are compared as FIDE compares them:
pieces, side to move, castling rights and an en passant capture only when one is legal.

Moves are :class:`chess.Move` objects, written in SAN (``Nf3``) and read in SAN or UCI
(``g1f3``, ``e7e8q``); positions are FEN, or ``startpos``.

>>> game = Chess()
>>> state = game.from_uci_moves(game.initial_state(), ["e2e4", "e7e5", "g1f3"])
>>> game.to_move(state), game.format_action(state, game.parse_action(state, "b8c6"))
('Black', 'Nc6')
>>> game.format_position(state)
'rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2'
>>> mate = game.parse_position("7k/8/6K1/8/8/8/8/R7 w - - 0 1")
>>> game.format_action(mate, game.parse_action(mate, "a1a8"))
'Ra8#'
>>> game.winner(game.result(mate, game.parse_action(mate, "Ra8")))
'White'
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

import chess
import chess.pgn
import numpy as np
from numpy.typing import NDArray

from plies.capabilities import BoardView, CompiledRules, EngineJudge, Symmetry
from plies.errors import IllegalMoveError, InvalidPositionError, ParseError, SpecError, one_line
from plies.game import Scoring, WinLossDrawGame
from plies.games.chess import encoding, zobrist
from plies.games.chess.evaluation import (
    DEFAULT,
    Evaluation,
    PestoSums,
    weight_names,
)
from plies.ladder import Anchor, Ladder, Level
from plies.registry import SCORING, GameOption

STARTPOS = "startpos"
"""The word that names the standard initial position, as in the UCI protocol."""

FIFTY_MOVES = 100
"""Halfmove clock (plies without a capture or pawn move) at which the game is drawn."""
REPETITIONS = 3
"""Occurrences of a position that draw the game."""
MOST_HALFMOVES = 10_000
MOST_FULLMOVES = 100_000
"""The largest move counters a FEN may give: far beyond any game (the longest legal game has
fewer than 9,000 moves), and within the compiled rules' word, which holds the fullmove number
above bit 23 (twenty digits overflowed it)."""

UCI_MOVE = re.compile(r"[a-h][1-8][a-h][1-8][qrbn]?")


PositionKey = tuple[int, int, int, int, int, int, int, int, bool, int, int | None]
"""What makes two positions the same for repetition: piece bitboards, side to move, castling
rights and the en passant square when a capture there is legal."""


_PIECE_BOARDS = tuple(range(6))
_CASTLING_SQUARES = (chess.BB_H1, chess.BB_A1, chess.BB_H8, chess.BB_A8)
"""The rook squares of the castling rights in :mod:`.zobrist`'s order."""


def position_hash(position: PositionKey) -> int:
    """The Zobrist key (:mod:`.zobrist`) of a :func:`position_key`: the compiled kernel's key
    of the same position, so equal exactly when the positions are the same for repetition."""
    white_pieces = position[6]
    key = 0
    for index in _PIECE_BOARDS:
        board = position[index]
        while board:
            bit = board & -board
            square = bit.bit_length() - 1
            key ^= zobrist.piece_key(index + 1, bool(bit & white_pieces), square)
            board ^= bit
    rights = position[9]
    for index, rook in enumerate(_CASTLING_SQUARES):
        if rights & rook:
            key ^= zobrist.KEYS[zobrist.CASTLING + index]
    en_passant = position[10]
    if en_passant is not None:
        key ^= zobrist.KEYS[zobrist.EN_PASSANT + (en_passant & 7)]
    if not position[8]:
        key ^= zobrist.KEYS[zobrist.BLACK_TO_MOVE]
    return key


def position_key(board: chess.Board) -> PositionKey:
    """The repetition identity of ``board`` (FIDE article 9.2.3)."""
    return (
        board.pawns,
        board.knights,
        board.bishops,
        board.rooks,
        board.queens,
        board.kings,
        board.occupied_co[chess.WHITE],
        board.occupied_co[chess.BLACK],
        board.turn,
        board.clean_castling_rights(),
        board.ep_square if board.has_legal_en_passant() else None,
    )


@dataclass(frozen=True, eq=False, slots=True)
class ChessState:
    """A chess position with the history repetition needs.

    ``board`` is a :class:`chess.Board` without a move stack, owned by the state: callers must
    not mutate it (copy it first). ``history`` holds the :func:`position_key` of every earlier
    position since the last irreversible move (capture, pawn move, loss of castling rights),
    oldest first. Two states are equal when their positions, halfmove clocks and histories are;
    the fullmove number is carried along for FEN but plays no part.
    """

    board: chess.Board
    history: tuple[PositionKey, ...] = ()
    position: PositionKey = field(init=False)
    _moves: tuple[chess.Move, ...] | None = field(init=False, default=None)
    _key: int | None = field(init=False, default=None)
    _hash: int | None = field(init=False, default=None)
    _sums: tuple[Evaluation, PestoSums] | None = field(init=False, default=None)

    def __post_init__(self) -> None:
        object.__setattr__(self, "position", position_key(self.board))

    @property
    def moves(self) -> tuple[chess.Move, ...]:
        """The legal moves in the canonical order (:func:`canonical_order`), computed once."""
        moves = self._moves
        if moves is None:
            moves = canonical_order(self.board, self.board.generate_legal_moves())
            object.__setattr__(self, "_moves", moves)
        return moves

    @property
    def key(self) -> int:
        """The position's Zobrist key (:func:`position_hash`), computed once."""
        key = self._key
        if key is None:
            key = position_hash(self.position)
            object.__setattr__(self, "_key", key)
        return key

    def sums(self, evaluation: Evaluation) -> PestoSums:
        """The evaluation's (midgame, endgame, phase) sums for White: carried over from the
        parent by :meth:`Chess.result` when it knew them, else counted once."""
        known = self._sums
        if known is not None and known[0] is evaluation:
            return known[1]
        sums = evaluation.sums(self.board)
        object.__setattr__(self, "_sums", (evaluation, sums))
        return sums

    @property
    def repetitions(self) -> int:
        """How often this position has occurred, this time included."""
        if len(self.history) < 2 * (REPETITIONS - 1) * 2:  # a position recurs every 4+ plies
            return 1 + (self.position in self.history)
        return 1 + self.history.count(self.position)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ChessState):
            return NotImplemented
        return (
            self.position == other.position
            and self.board.halfmove_clock == other.board.halfmove_clock
            and self.history == other.history
        )

    def __hash__(self) -> int:
        value = self._hash
        if value is None:
            value = hash((self.position, self.board.halfmove_clock, self.history))
            object.__setattr__(self, "_hash", value)
        return value

    def __repr__(self) -> str:
        return f"ChessState({self.board.fen()!r})"


def _captures(board: chess.Board, move: chess.Move) -> bool:
    """Whether legal ``move`` captures (en passant too): ``board.is_capture`` on bitboards."""
    target = chess.BB_SQUARES[move.to_square]
    if target & board.occupied_co[not board.turn]:
        return True
    return move.to_square == board.ep_square and bool(
        board.pawns & chess.BB_SQUARES[move.from_square]
    )


def canonical_order(board: chess.Board, moves: Iterable[chess.Move]) -> tuple[chess.Move, ...]:
    """``moves`` in the order of the compiled kernel (:mod:`.kernel`): the noisy ones
    (captures, en passant too, and promotions) first, by most valuable victim, then least
    valuable attacker, then promotion piece (MVV-LVA); then the quiet ones; each group by
    origin square, target square and promotion piece."""
    noisy: list[tuple[int, int, chess.Move]] = []
    quiet: list[tuple[int, chess.Move]] = []
    for move in moves:
        promotion = move.promotion or 0
        square_order = (move.from_square << 9) | (move.to_square << 3) | promotion
        if _captures(board, move):
            victim = board.piece_type_at(move.to_square) or chess.PAWN  # None: en passant
            attacker = board.piece_type_at(move.from_square) or chess.PAWN
            noisy.append((attacker - 8 * victim - 64 * promotion, square_order, move))
        elif promotion:
            noisy.append((-64 * promotion, square_order, move))
        else:
            quiet.append((square_order, move))
    noisy.sort(key=lambda entry: (entry[0], entry[1]))
    quiet.sort(key=lambda entry: entry[0])
    return (*(move for _, _, move in noisy), *(move for _, move in quiet))


def move_code(move: chess.Move) -> int:
    """The compiled kernel's code of a move: ``from | to << 6 | promotion << 12``."""
    return move.from_square | move.to_square << 6 | (move.promotion or 0) << 12


def code_move(code: int) -> chess.Move:
    """The move of a kernel code (:func:`move_code`)."""
    return chess.Move(code & 63, code >> 6 & 63, (code >> 12) or None)


def compiled_row(state: ChessState, evaluation: Evaluation = DEFAULT) -> tuple[int, ...]:
    """The position as the kernel's row (:mod:`.kernel`): colour and piece bitboards, the
    packed side to move, castling rights, en passant square, clocks, the key and the
    evaluation's sums."""
    board = state.board
    position = state.position
    rights = position[9]
    castling = sum(1 << index for index, rook in enumerate(_CASTLING_SQUARES) if rights & rook)
    ep = 64 if board.ep_square is None else board.ep_square
    info = (
        (0 if board.turn else 1)
        | castling << 1
        | ep << 5
        | (position[10] is not None) << 12
        | min(board.halfmove_clock, 1023) << 13
        | board.fullmove_number << 23
    )
    midgame, endgame, _ = state.sums(evaluation)
    mask = (1 << 64) - 1
    pieces, colours = position[:6], position[6:8]  # (pawns ... kings), (White, Black)
    return (
        *colours,
        *pieces,
        info,
        state.key,
        midgame & mask,
        endgame & mask,
    )


def history_keys(state: ChessState) -> tuple[int, ...]:
    """The keys of the positions in the state's repetition history, oldest first."""
    return tuple(position_hash(position) for position in state.history)


def compiled_params(evaluation: Evaluation = DEFAULT) -> tuple[int, ...]:
    """The kernel's parameters (:mod:`.kernel`): the evaluation's signed weights and phase
    weights (:meth:`Evaluation.kernel_params`), :data:`CENTIPAWN_SCALE` and the terms' weights
    (:meth:`Evaluation.kernel_terms`), as words."""
    mask = (1 << 64) - 1
    words = (*evaluation.kernel_params(), CENTIPAWN_SCALE, *evaluation.kernel_terms())
    return tuple(word & mask for word in words)


def uci(move: chess.Move) -> str:
    """The move in UCI notation (``e2e4``, ``e7e8q``, castling as the king's move ``e1g1``)."""
    return move.uci()


class Chess(WinLossDrawGame[ChessState, chess.Move]):
    """Chess, White first. Actions are :class:`chess.Move` objects in the canonical order
    (:func:`canonical_order`, captures first), which guides the engine with
    :meth:`is_capture`, :meth:`in_check`, :meth:`null_move` and :meth:`is_repetition`."""

    name = "chess"
    summary = "chess (python-chess rules); draws by the 50-move rule and threefold repetition"
    options: tuple[GameOption, ...] = (SCORING,)
    ladder = Ladder(
        (
            Level(
                "Beginner", "engine:depth=1", "looks one move ahead, and at the captures after it"
            ),
            Level("Novice", "engine:depth=2", "looks two moves ahead"),
            Level("Casual", "engine:depth=3", "looks three moves ahead"),
            Level("Club", "engine:depth=4", "looks four moves ahead"),
            Level("Strong club", "engine:depth=6", "looks six moves ahead"),
            Level("Expert", "engine:nodes=50000", "searches 50,000 positions a move"),
            Level("Master", "engine:nodes=150000", "searches 150,000 positions a move"),
            Level("Strongest", "engine:nodes=400000", "searches 400,000 positions a move"),
        ),
        anchor=Anchor(
            "Stockfish 15.1 at UCI_Elo 1350, 0.1 s a move",
            "uci:stockfish,time=0.1,UCI_LimitStrength=true,UCI_Elo=1350",
            1350,
            "on Stockfish 15.1's UCI_Elo scale (its lowest setting, 1350, at 0.1 s a move)",
        ),
        references=tuple(
            Anchor(
                f"Stockfish 15.1 at UCI_Elo {elo}, 0.1 s a move",
                f"uci:stockfish,time=0.1,UCI_LimitStrength=true,UCI_Elo={elo}",
                elo,
                "Stockfish's UCI_Elo scale",
                meets,
            )
            for elo, meets in (
                (1700, (2, 3, 4, 5)),
                (2000, (4, 5, 6, 7)),
                (2300, (5, 6, 7, 8)),
                (2600, (7, 8)),
            )
        ),
    )
    searchable_to_end = False
    default_opponent = "engine:time=1"
    players = ("White", "Black")
    uci = staticmethod(uci)

    def __init__(
        self, scoring: Scoring = Scoring.PLUS_MINUS, evaluation: Evaluation = DEFAULT
    ) -> None:
        self.scoring = scoring
        self.evaluation = evaluation
        """EVAL's weights (:mod:`.evaluation`): plies' tuned ones unless given others."""

    def __repr__(self) -> str:
        return "Chess()" if self.evaluation is DEFAULT else f"Chess({self.evaluation!r})"

    def score_centipawns(self, score: float) -> int:
        """An engine score in centipawns (:func:`centipawns`)."""
        return centipawns(score)

    def board_view(self) -> BoardView:
        """The board for the web pages (:mod:`plies.games.chess.view`)."""
        from plies.games.chess.view import ChessView

        return ChessView(self)

    def engine_judge(self, command: str | None, depth: int) -> EngineJudge:
        """Stockfish (or ``command``) judging moves at ``depth`` (:mod:`.judge`)."""
        from plies.games.chess.judge import UciJudge

        return UciJudge(self, command or "stockfish", depth)

    # Tensors for learned players (AlphaZero's planes and move indices) -------------------------

    def tensor_shape(self) -> tuple[int, int, int]:
        """19 planes of 8 x 8 (:mod:`plies.games.chess.encoding`)."""
        return encoding.PLANES, 8, 8

    def action_count(self) -> int:
        """4,672: 73 kinds of move from each square."""
        return encoding.ACTIONS

    def encode(self, state: ChessState) -> NDArray[np.float32]:
        return encoding.encode(state)

    def action_index(self, state: ChessState, action: chess.Move) -> int:
        return encoding.action_index(state, action)

    def index_action(self, state: ChessState, index: int) -> chess.Move:
        return encoding.index_action(state, index)

    def symmetries(self) -> Sequence[Symmetry]:
        return encoding.symmetries()

    # The formal game ---------------------------------------------------------------------------

    def initial_state(self) -> ChessState:
        return ChessState(chess.Board())

    def to_move(self, state: ChessState) -> str:
        return "White" if state.board.turn else "Black"

    def actions(self, state: ChessState) -> Sequence[chess.Move]:
        """The legal moves; none once the game is over (a draw by rule ends it too)."""
        if self._drawn_by_rule(state):
            return ()
        return state.moves

    def result(self, state: ChessState, action: chess.Move) -> ChessState:
        board = state.board
        legal = action in state.moves if state._moves is not None else board.is_legal(action)
        if not legal:
            raise IllegalMoveError(f"move {action.uci()} is not legal in this position")
        history = () if board.is_irreversible(action) else (*state.history, state.position)
        known = state._sums
        evaluation = self.evaluation
        sums = None
        if known is not None and known[0] is evaluation:
            sums = (evaluation, evaluation.after(board, action, known[1]))
        child = board.copy(stack=False)
        child.push(action)
        new = ChessState(child, history)
        object.__setattr__(new, "_sums", sums)
        return new

    def is_terminal(self, state: ChessState) -> bool:
        """A draw by rule, or no legal move (found without generating them all when they
        are not known yet: quiescence may need only the captures)."""
        if self._drawn_by_rule(state):
            return True
        if state._moves is not None:
            return not state._moves
        return not any(state.board.generate_legal_moves())

    def winner(self, state: ChessState) -> str | None:
        """The side that gave checkmate, else None (a draw, or a game still going on)."""
        if not state.moves and state.board.is_check():
            return "Black" if state.board.turn else "White"
        return None

    def termination(self, state: ChessState) -> str | None:
        """Why the game ended (``checkmate``, ``stalemate``, ``insufficient material``,
        ``fifty-move rule``, ``threefold repetition``), or None while it goes on."""
        board = state.board
        if not state.moves:
            return "checkmate" if board.is_check() else "stalemate"
        if board.is_insufficient_material():
            return "insufficient material"
        if board.halfmove_clock >= FIFTY_MOVES:
            return "fifty-move rule"
        if state.repetitions >= REPETITIONS:
            return "threefold repetition"
        return None

    def _drawn_by_rule(self, state: ChessState) -> bool:
        """A draw by the fifty-move rule, repetition or insufficient material (mate, checked
        first by the callers that care, takes precedence over the first two)."""
        board = state.board
        if board.halfmove_clock >= FIFTY_MOVES:
            return not (board.is_check() and not state.moves)
        return state.repetitions >= REPETITIONS or board.is_insufficient_material()

    def hash_key(self, state: ChessState) -> int:
        """The position's Zobrist key (:func:`position_hash`), the compiled kernel's: the same
        position in every process; it ignores the clocks and the repetition history."""
        return state.key

    def compiled_rules(self) -> CompiledRules:
        """These rules and EVAL as :mod:`plies.games.chess.kernel` reads them: a position as
        its row of words, PeSTO's tables as the kernel's parameters, the repetition history
        as keys; captures are noisy, and the kernel tells check and passes the turn."""
        from plies.games.chess import kernel

        evaluation = self.evaluation
        return CompiledRules(
            "chess",
            lambda state: compiled_row(state, evaluation),
            params=compiled_params(evaluation),
            encode_move=move_code,
            decode_move=code_move,
            noisy=True,
            work=kernel.WORK_SHAPE,
            words=kernel.WORDS,
            checks=True,
            exchange=True,
            history=history_keys,
        )

    # Search hints ------------------------------------------------------------------------------

    def is_capture(self, state: ChessState, action: chess.Move) -> bool:
        """Noisy moves for quiescence search: captures (en passant too) and queen promotions."""
        return action.promotion == chess.QUEEN or _captures(state.board, action)

    def captures(self, state: ChessState) -> Sequence[chess.Move]:
        """The noisy moves of :meth:`is_capture` (legal captures and queen promotions) in the
        canonical order, generated without the quiet moves (python-chess's
        ``generate_legal_captures``); the quiescence search's generator."""
        board = state.board
        if state._moves is not None:
            return tuple(m for m in state.moves if self.is_capture(state, m))
        promotions = board.generate_legal_moves(
            board.pawns & board.occupied_co[board.turn], chess.BB_BACKRANKS & ~board.occupied
        )
        quiet_queens = (m for m in promotions if m.promotion == chess.QUEEN)
        return canonical_order(board, (*board.generate_legal_captures(), *quiet_queens))

    def wins_exchange(self, state: ChessState, action: chess.Move) -> bool:
        """Whether ``action`` loses no material when both sides capture on its target square
        with their least valuable attacker first, each free to stop: Stockfish's ``see_ge``
        with a threshold of 0 (x-rays count, pins do not; en passant, castling and promotions
        count as even), on python-chess's attack masks, the compiled kernel's reference."""
        board = state.board
        if action.promotion or board.is_castling(action) or board.is_en_passant(action):
            return True
        origin, target = action.from_square, action.to_square
        victim = board.piece_type_at(target)
        mover = board.piece_type_at(origin)
        assert mover is not None
        swap = EXCHANGE_VALUES[mover] - (EXCHANGE_VALUES[victim] if victim else 0)
        if swap <= 0:
            return True
        occupied = board.occupied ^ chess.BB_SQUARES[origin] ^ chess.BB_SQUARES[target]
        side, result = board.turn, 1
        while True:
            side = not side
            found = board.attackers_mask(chess.WHITE, target, occupied)
            found = (found | board.attackers_mask(chess.BLACK, target, occupied)) & occupied
            mine = found & board.occupied_co[side]
            if not mine:
                return bool(result)
            result ^= 1
            piece = next(p for p in chess.PIECE_TYPES if mine & board.pieces_mask(p, side))
            if piece == chess.KING:  # the king takes last: only if nothing defends the square
                return bool(result ^ 1) if found & board.occupied_co[not side] else bool(result)
            swap = EXCHANGE_VALUES[piece] - swap
            if swap < result:
                return bool(result)
            occupied ^= chess.BB_SQUARES[chess.lsb(mine & board.pieces_mask(piece, side))]

    def in_check(self, state: ChessState) -> bool:
        """Whether the side to move is in check (for the engine's check extension)."""
        return state.board.is_check()

    def null_move(self, state: ChessState) -> ChessState | None:
        """The position with the turn passed (for null-move pruning), or None where passing is
        unsound: in check, or when the mover has only king and pawns (zugzwang-prone)."""
        board = state.board
        own = board.occupied_co[board.turn]
        if board.is_check() or not own & ~(board.pawns | board.kings):
            return None
        passed = board.copy(stack=False)
        passed.push(chess.Move.null())
        return ChessState(passed)

    def is_repetition(self, state: ChessState) -> bool:
        """Whether the position occurred before in the history the state carries (the game's
        and the search path's): the engine scores it as a draw."""
        return state.position in state.history

    # Evaluation --------------------------------------------------------------------------------

    def centipawns(self, state: ChessState) -> int:
        """The tapered evaluation (:mod:`.evaluation`) in centipawns, from the side to move's
        point of view."""
        evaluation = self.evaluation
        white = evaluation.white_centipawns(state.board, state.sums(evaluation))
        return white if state.board.turn else -white

    def evaluate(self, state: ChessState, player: str) -> float:
        """EVAL: the utility of a finished game, else :meth:`centipawns` mapped to the lead
        ``cp / (|cp| + CENTIPAWN_SCALE)`` in (-1, 1) (a pawn about 0.11, a queen about 0.5)
        and placed strictly between the loss and win utilities by :meth:`estimate`."""
        if self.is_terminal(state):
            return self.utility(state, player)
        cp = self.centipawns(state)
        if player != self.to_move(state):
            cp = -cp
        return self.estimate(cp / (abs(cp) + CENTIPAWN_SCALE), player)

    def evaluation_weights(self) -> tuple[int, ...]:
        """EVAL's weights, a linear evaluation's (:mod:`.evaluation`)."""
        return self.evaluation.weights

    def evaluation_names(self) -> tuple[str, ...]:
        return weight_names()

    def evaluation_features(self, state: ChessState) -> dict[int, float]:
        """The features EVAL's weights multiply, from White's view: its score for White is
        their weighted sum (before rounding)."""
        return self.evaluation.features(state.board)

    def with_evaluation_weights(self, weights: Sequence[float], source: str) -> Chess:
        """Chess evaluated with ``weights`` (rounded to whole centipawns) from ``source``."""
        return Chess(self.scoring, Evaluation([round(w) for w in weights], source))

    # Perft -------------------------------------------------------------------------------------

    def perft(self, state: ChessState, depth: int) -> int:
        """Legal move paths of exactly ``depth`` plies, as published (Chess Programming Wiki,
        "Perft Results"): only checkmate and stalemate end a path, not the draw rules. Counted
        by the compiled kernel (:func:`.kernel.perft`), the last ply in bulk;
        :func:`python_perft` counts the same with python-chess."""
        if depth < 0:
            raise SpecError(f"perft depth must be at least 0, got {depth}")
        from plies.games.chess import kernel  # Numba loads only when perft is asked for

        return kernel.perft_of(compiled_params(), compiled_row(state), depth)

    # Notation ----------------------------------------------------------------------------------

    def format_action(self, state: ChessState, action: chess.Move) -> str:
        """Standard algebraic notation with check and mate marks (``Nf3``, ``exd8=Q+``)."""
        return state.board.san(action)

    def parse_action(self, state: ChessState, text: str) -> chess.Move:
        """A legal move in SAN (``Nf3``, ``O-O``, ``e8=Q``) or UCI (``g1f3``, ``e7e8q``);
        raises :class:`IllegalMoveError` saying whether it is malformed, illegal or ambiguous."""
        word = text.strip()
        if self.is_terminal(state):
            raise IllegalMoveError(f"move {word!r}: the game is over ({self.termination(state)})")
        board = state.board
        if UCI_MOVE.fullmatch(word):
            try:
                move = chess.Move.from_uci(word)
            except chess.InvalidMoveError:  # the same square twice: e2e2
                raise IllegalMoveError(
                    f"move {word!r} goes nowhere: {word[:2]} to itself"
                ) from None
            if move in state.moves:
                return move
            raise IllegalMoveError(f"move {word!r} is not legal in this position")
        try:
            move = board.parse_san(word)
        except chess.AmbiguousMoveError:
            raise IllegalMoveError(
                f"move {word!r} is ambiguous here: say which piece (e.g. with its file)"
            ) from None
        except chess.IllegalMoveError:
            raise IllegalMoveError(f"move {word!r} is not legal in this position") from None
        except chess.InvalidMoveError:
            raise IllegalMoveError(
                f"move {word!r} is neither SAN (Nf3, O-O, e8=Q) nor UCI (g1f3, e7e8q)"
            ) from None
        if move not in state.moves:  # the null move "--" parses but is no chess move
            raise IllegalMoveError(f"move {word!r} is not legal in this position")
        return move

    def can_draw(self) -> bool:
        return True

    def format_position(self, state: ChessState) -> str:
        """The FEN of the position (the repetition history is not part of FEN)."""
        return state.board.fen()

    def parse_position(self, text: str) -> ChessState:
        """A FEN (the clocks may be left out: 0 and 1) or ``startpos``; raises
        :class:`InvalidPositionError` for a malformed FEN or an impossible position (a king
        missing, pawns on the back rank, the side not to move in check...)."""
        fen = text.strip()
        if fen == STARTPOS:
            return self.initial_state()
        try:
            board = chess.Board(fen)
        except ValueError as error:
            raise InvalidPositionError(f"bad FEN {fen!r}: {error}") from None
        for name, value, most in (
            ("halfmove clock", board.halfmove_clock, MOST_HALFMOVES),
            ("fullmove number", board.fullmove_number, MOST_FULLMOVES),
        ):
            if value > most:
                raise InvalidPositionError(f"bad FEN {fen!r}: its {name} is above {most:,}")
        status = board.status()
        if status != chess.STATUS_VALID:
            problems = ", ".join(_STATUS_TEXT.get(flag, str(flag)) for flag in _flags(status))
            raise InvalidPositionError(f"impossible position {fen!r}: {problems}")
        return ChessState(board)

    def from_uci_moves(self, start: ChessState, moves: Sequence[str]) -> ChessState:
        """The state after playing UCI ``moves`` from ``start`` (the UCI command ``position
        startpos moves e2e4 e7e5``); raises :class:`IllegalMoveError` naming the first move
        that is malformed or illegal. Moves after a draw by rule are still played, as chess
        GUIs do (those draws must be claimed over the board)."""
        state = start
        for number, text in enumerate(moves, start=1):
            if not UCI_MOVE.fullmatch(text):
                raise IllegalMoveError(f"move {number} {text!r} is not a UCI move (e2e4, e7e8q)")
            move = chess.Move.from_uci(text)
            if move not in state.moves:
                raise IllegalMoveError(
                    f"move {number} {text!r} is not legal in {state.board.fen()}"
                )
            state = self.result(state, move)
        return state

    def pgn(
        self,
        start: ChessState,
        moves: Iterable[chess.Move],
        result_text: str = "*",
        headers: Mapping[str, str] | None = None,
    ) -> str:
        """The game played by ``moves`` from ``start`` as PGN (``chess.pgn``): a ``FEN`` and
        ``SetUp`` header when the start is not the standard one, ``result_text`` (``1-0``,
        ``0-1``, ``1/2-1/2`` or ``*``, see :meth:`result_text`) and ``headers`` (Event, White,
        ...) on top of the seven-tag roster. Raises :class:`IllegalMoveError` for an illegal
        move and :class:`ParseError` for another result text."""
        if result_text not in ("1-0", "0-1", "1/2-1/2", "*"):
            raise ParseError(f"PGN result {result_text!r} must be 1-0, 0-1, 1/2-1/2 or *")
        record = chess.pgn.Game()
        record.setup(start.board)
        node: chess.pgn.GameNode = record
        state = start
        for number, move in enumerate(moves, start=1):
            if move not in state.moves:
                raise IllegalMoveError(
                    f"PGN move {number} ({move.uci()}) is not legal in {state.board.fen()}"
                )
            node = node.add_variation(move)
            state = self.result(state, move)
        record.headers.update(headers or {})
        record.headers["Result"] = result_text
        return str(record)

    def pgn_moves(self, text: str) -> tuple[str | None, list[str]]:
        """The first game of a PGN text (``chess.pgn``): its start (the ``FEN`` header, else
        None for the standard start) and its main line's moves in UCI; :class:`ParseError`
        naming the problem (no game, a move python-chess could not read, or a variant)."""
        record = chess.pgn.read_game(io.StringIO(text), Visitor=_QuietBuilder)
        if record is None or (not record.headers and not record.variations):
            raise ParseError("PGN: no game found")
        if record.errors:
            raise ParseError(f"PGN: {one_line(str(record.errors[0]))}")
        if record.headers.get("Variant", "Standard").lower() not in ("standard", "chess"):
            raise ParseError(f"PGN: the variant {record.headers['Variant']!r} is not chess")
        fen = record.headers.get("FEN")
        return fen, [move.uci() for move in record.mainline_moves()]

    def result_text(self, state: ChessState) -> str:
        """The PGN result of ``state``: ``1-0``, ``0-1``, ``1/2-1/2``, or ``*`` while it goes
        on."""
        if not self.is_terminal(state):
            return "*"
        winner = self.winner(state)
        return "1/2-1/2" if winner is None else "1-0" if winner == "White" else "0-1"

    def display(self, state: ChessState) -> str:
        """The board from rank 8 down (White's pieces upper case, ``.`` empty), the files under
        it, then who is to move or how the game ended."""
        rows = [
            f"{rank + 1} "
            + " ".join(
                (piece.symbol() if (piece := state.board.piece_at(rank * 8 + file)) else ".")
                for file in range(8)
            )
            for rank in reversed(range(8))
        ]
        rows.append("  a b c d e f g h")
        ending = self.termination(state)
        if ending is None:
            rows.append(f"{self.to_move(state)} to move")
        else:
            winner = self.winner(state)
            outcome = "a draw" if winner is None else f"{winner} wins"
            rows.append(f"game over: {outcome} ({ending})")
        return "\n".join(rows)


def python_perft(board: chess.Board, depth: int) -> int:
    """Legal move paths of ``depth`` plies from ``board`` (restored on return), counted with
    python-chess's move generation: the reference of the compiled :meth:`Chess.perft`."""
    if depth == 0:
        return 1
    if depth == 1:
        return board.legal_moves.count()
    total = 0
    for move in board.generate_legal_moves():
        board.push(move)
        total += python_perft(board, depth - 1)
        board.pop()
    return total


def _flags(status: chess.Status) -> list[chess.Status]:
    return [flag for flag in chess.Status if flag & status]


_STATUS_TEXT = {
    chess.STATUS_NO_WHITE_KING: "no white king",
    chess.STATUS_NO_BLACK_KING: "no black king",
    chess.STATUS_TOO_MANY_KINGS: "too many kings",
    chess.STATUS_TOO_MANY_WHITE_PAWNS: "more than 8 white pawns",
    chess.STATUS_TOO_MANY_BLACK_PAWNS: "more than 8 black pawns",
    chess.STATUS_PAWNS_ON_BACKRANK: "pawns on the first or last rank",
    chess.STATUS_TOO_MANY_WHITE_PIECES: "more than 16 white pieces",
    chess.STATUS_TOO_MANY_BLACK_PIECES: "more than 16 black pieces",
    chess.STATUS_BAD_CASTLING_RIGHTS: "castling rights without the king and rook at home",
    chess.STATUS_INVALID_EP_SQUARE: "an impossible en passant square",
    chess.STATUS_OPPOSITE_CHECK: "the side not to move is in check",
    chess.STATUS_EMPTY: "an empty board",
    chess.STATUS_TOO_MANY_CHECKERS: "more than two pieces give check",
    chess.STATUS_IMPOSSIBLE_CHECK: "a check no legal move could have given",
}


# Evaluation constants -------------------------------------------------------------------------

EXCHANGE_VALUES = {
    chess.PAWN: 100,
    chess.KNIGHT: 300,
    chess.BISHOP: 300,
    chess.ROOK: 500,
    chess.QUEEN: 900,
    chess.KING: 0,
}
"""Piece values of the static exchange evaluation (:meth:`Chess.wins_exchange`)."""

CENTIPAWN_SCALE = 800
"""The lead is ``cp / (|cp| + CENTIPAWN_SCALE)``: 800 centipawns ahead is a lead of 1/2."""


def centipawns(score: float) -> int:
    """An engine score strictly inside (-1, 1) back in centipawns: the inverse of the
    evaluation's ``lead = cp / (|cp| + CENTIPAWN_SCALE)``.

    >>> centipawns(150 / (150 + CENTIPAWN_SCALE)), centipawns(0.0), centipawns(-0.5)
    (150, 0, -800)
    """
    return round(CENTIPAWN_SCALE * score / (1 - abs(score)))


class _QuietBuilder(chess.pgn.GameBuilder[chess.pgn.Game]):
    """python-chess's game builder, keeping a PGN's errors in the game without logging them."""

    def handle_error(self, error: Exception) -> None:
        self.game.errors.append(error)
