"""The compiled chess rules (plies.games.chess.kernel) against python-chess, position by
position: legal moves in the canonical order, copy-make word for word (bitboards, castling, en
passant, clocks, Zobrist key, PeSTO sums), check, en passant, noisy moves, the end of the game,
passing the turn, the lead and the key's repetition identity. The positions come from seeded
random games from the start and from tricky positions, from Hypothesis (move sequences and
random placements of pieces); perft is checked against python-chess and the published
counts."""

from __future__ import annotations

import functools
import random
from collections.abc import Iterator

import chess
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.typing import NDArray

from plies.compiled import NOT_OVER
from plies.games.chess import kernel, zobrist
from plies.games.chess.evaluation import DEFAULT, PESTO, TABLE_WEIGHTS, WEIGHTS, Evaluation
from plies.games.chess.rules import (
    CENTIPAWN_SCALE,
    Chess,
    ChessState,
    PositionKey,
    code_move,
    compiled_params,
    compiled_row,
    history_keys,
    move_code,
    position_key,
    python_perft,
)

GAME = Chess()
PARAMS = np.array([0, *compiled_params()], np.uint64).view(np.int64)
_TERM_WEIGHTS = random.Random(3).choices(range(-50, 51), k=WEIGHTS - TABLE_WEIGHTS)
TERMS_EVALUATION = Evaluation([*PESTO.weights[:TABLE_WEIGHTS], *_TERM_WEIGHTS], "random terms")
"""PeSTO's tables with random weights on every term: the kernel's terms against the rules'."""
TERMS_GAME = Chess(evaluation=TERMS_EVALUATION)
TERMS_PARAMS = np.array([0, *compiled_params(TERMS_EVALUATION)], np.uint64).view(np.int64)
Row = NDArray[np.int64]
FIELDS = (
    *("white", "black", "pawns", "knights", "bishops", "rooks", "queens", "kings"),
    *("info", "key", "midgame", "endgame"),
)
"""The names of a row's words (:data:`kernel.WORDS`), for readable differences."""

KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
POSITION_3 = "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"
POSITION_4 = "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1"
POSITION_5 = "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8"
POSITION_6 = "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10"
TRICKY = ["startpos", KIWIPETE, POSITION_3, POSITION_4, POSITION_5, POSITION_6]

EN_PASSANT = [
    "8/8/8/KPp4r/8/8/8/6k1 w - c6 0 1",  # bxc6 would bare the king on the fifth rank
    "8/8/3k4/8/2pP4/8/8/3K4 b - d3 0 1",  # cxd3 is legal
    "8/8/8/8/k2Pp2Q/8/8/3K4 b - d3 0 1",  # exd3 would bare the king to the queen
    "8/8/8/1k6/2pP4/8/8/5B1K b - d3 0 1",  # the pinned pawn captures along its pin
    "8/8/1k6/8/2pP4/8/8/4K1B1 b - d3 0 1",  # the captured pawn shields a diagonal
    "8/8/8/3pP3/4K3/8/8/k7 w - d6 0 1",  # exd6 takes the checking pawn
    "8/8/8/2k5/3Pp3/8/8/3K4 b - d3 0 1",  # exd3 takes the checking pawn
    "4k3/8/8/3pP3/8/8/8/4K2b w - d6 0 1",  # exd6 does not answer the bishop's check
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",  # two captures en passant
]
CASTLING = [
    "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
    "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1",
    "2k2r2/8/8/8/8/8/8/R3K2R w KQ - 0 1",  # f1 attacked: no O-O
    "2k3r1/8/8/8/8/8/8/R3K2R w KQ - 0 1",  # g1 attacked: no O-O
    "3r2k1/8/8/8/8/8/8/R3K2R w KQ - 0 1",  # d1 attacked: no O-O-O
    "2r3k1/8/8/8/8/8/8/R3K2R w KQ - 0 1",  # c1 attacked: no O-O-O
    "1r4k1/8/8/8/8/8/8/R3K2R w KQ - 0 1",  # only b1 attacked: O-O-O is legal
    "4r1k1/8/8/8/8/8/8/R3K2R w KQ - 0 1",  # in check: no castling
    "6k1/8/8/8/8/8/8/RN2K1nR w KQ - 0 1",  # both ways blocked
    "r3k2r/8/8/8/8/8/8/1R2K1R1 b kq - 0 1",  # g8 attacked, b8 attacked but crossed by the rook
    "r3k2r/8/8/8/8/8/6p1/R3K2R w KQkq - 0 1",  # a pawn covers f1
    "r3k2r/8/8/8/8/4n3/8/R3K2R w KQkq - 0 1",  # a knight covers d1 and f1
    "r3k2r/8/8/8/8/8/8/R3K1R1 b Qkq - 0 1",  # the king side rook has left
]
PROMOTIONS = [
    "1n2k3/P7/8/8/8/8/8/4K3 w - - 0 1",
    "4k3/8/8/8/8/8/6p1/4K2R b K - 0 1",  # gxh1 takes the rook and White's right
    "r3k2r/1P6/8/8/8/8/8/4K3 w kq - 0 1",  # bxa8 takes a rook and Black's right
    "3r4/2P1P3/8/8/8/8/7k/K7 w - - 0 1",
    "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
    "8/P1k5/K7/8/8/8/8/8 w - - 0 1",
]
ENDINGS = [
    "8/8/8/4k3/8/8/8/4K3 w - - 0 1",  # bare kings
    "8/8/8/4k3/8/8/8/4KN2 w - - 0 1",
    "8/8/8/4k3/8/8/8/4KB2 b - - 0 1",
    "8/8/2b5/4k3/8/8/8/4KB2 w - - 0 1",  # bishops on one colour
    "8/8/3b4/4k3/8/8/8/4KB2 w - - 0 1",  # bishops on both: mate is possible
    "4k3/8/8/8/8/8/8/3BKB2 w - - 0 1",  # two light bishops
    "8/8/8/4k3/8/8/8/3NKN2 w - - 0 1",
    "8/8/8/4k3/8/8/8/4KN1q w - - 0 1",
    "8/8/8/3nk3/8/8/8/4KN2 b - - 0 1",
    "4k3/8/8/8/8/8/8/R3K3 w - - 99 90",  # a quiet move reaches the fifty-move rule
    "4k3/8/8/8/8/8/8/R3K3 b - - 100 90",
    "R6k/6pp/8/8/8/8/8/6K1 b - - 100 80",  # mate on the hundredth ply still wins
    "7k/5Q2/6K1/8/8/8/8/8 b - - 120 90",
    "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",  # stalemate
    "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3",  # fool's mate
    "4k3/8/8/8/8/8/8/R3K3 w - - 1022 600",
    "4k3/8/8/8/8/8/8/R3K3 b - - 1023 600",
    "4k3/8/8/8/8/8/8/R3K3 w - - 1500 900",
    "4k3/4p3/8/8/8/8/4P3/4K3 w - - 0 1",  # only king and pawns: no pass
    "4k3/8/8/8/8/5n2/8/R3K2r w Q - 0 1",  # double check
    "R6R/3Q4/1Q4Q1/4Q3/2Q4Q/Q4Q2/pp1Q4/kBNN1KB1 w - - 0 1",  # 218 moves
]
SPECIAL = EN_PASSANT + CASTLING + PROMOTIONS + ENDINGS


def _state(fen: str) -> ChessState:
    return GAME.parse_position(fen)


def _row(state: ChessState) -> Row:
    return np.array(compiled_row(state), np.uint64).view(np.int64)


def _words(row: Row) -> tuple[int, ...]:
    return tuple(int(word) for word in row.view(np.uint64))


def _diff(got: Row, expected: tuple[int, ...]) -> dict[str, tuple[int, int]]:
    """The words that differ, by name: (kernel, Python)."""
    return {
        name: (a, b) for name, a, b in zip(FIELDS, _words(got), expected, strict=True) if a != b
    }


def _kernel_moves(row: Row) -> list[int]:
    out = np.full(kernel.MAX_MOVES, -1, np.int64)
    work = np.zeros(kernel.WORK_SHAPE, np.int64)
    count = kernel.legal_moves(row, out, work)
    return [int(code) for code in out[:count]]


def _random_game(start: ChessState, rng: random.Random, plies: int) -> Iterator[ChessState]:
    """The states of a game of random legal moves from ``start`` (included) to mate, stalemate
    or ``plies`` moves (the draws by rule do not stop it); a greedy game prefers captures and
    promotions, to reach endings."""
    greed = rng.choice((0.0, 0.6))
    state = start
    yield state
    for _ in range(plies):
        moves = state.moves
        if not moves:
            return
        noisy = [move for move in moves if GAME.is_capture(state, move)]
        state = GAME.result(state, rng.choice(noisy if noisy and rng.random() < greed else moves))
        yield state


@functools.cache
def _corpus() -> tuple[ChessState, ...]:
    """Some thousands of positions: random games from the start and the perft positions, and
    short ones from the special positions."""
    rng = random.Random(20240617)
    states: list[ChessState] = []
    for _ in range(14):
        states.extend(_random_game(GAME.initial_state(), rng, 250))
    for fen in TRICKY[1:]:
        for _ in range(6):
            states.extend(_random_game(_state(fen), rng, 80))
    for fen in SPECIAL:
        for _ in range(2):
            states.extend(_random_game(_state(fen), rng, 10))
    return tuple(states)


# The checks, position by position ---------------------------------------------------------------


def _check_moves(state: ChessState, row: Row) -> None:
    """Legal moves: the canonical order, python-chess's set, the generator's set, ANY."""
    fen = state.board.fen()
    expected = [move_code(move) for move in state.moves]
    got = _kernel_moves(row)
    assert got == expected, fen
    assert [code_move(code) for code in got] == list(state.moves), fen
    legal = [move_code(move) for move in state.board.legal_moves]
    assert len(got) == len(legal) and set(got) == set(legal), fen
    out = np.full(kernel.MAX_MOVES, -1, np.int64)
    count = kernel.generate(row, out, kernel.ALL)
    generated = [int(code) for code in out[:count]]
    assert len(generated) == len(legal) and set(generated) == set(legal), fen
    assert kernel.generate(row, out, kernel.ANY) == (1 if legal else 0), fen


def _check_children(state: ChessState, row: Row) -> None:
    """Copy-make: every child word for word as the rules make it; the parent untouched."""
    before = _words(row)
    child = np.zeros(kernel.WORDS, np.int64)
    for move in state.moves:
        child[:] = -1
        kernel.play(PARAMS, row, move_code(move), child)
        expected = compiled_row(GAME.result(state, move))
        assert _diff(child, expected) == {}, (state.board.fen(), move.uci())
    assert _words(row) == before


def _check_flags(state: ChessState, row: Row) -> None:
    """Check, en passant, noisy moves and the outcome (repetitions ignored)."""
    board, fen = state.board, state.board.fen()
    assert kernel.in_check(row) == board.is_check(), fen
    assert kernel.has_legal_en_passant(row) == board.has_legal_en_passant(), fen
    for move in state.moves:
        assert kernel.is_noisy(row, move_code(move)) == GAME.is_capture(state, move), move
    fresh = ChessState(board)  # no history: no repetition
    expected = -1 if GAME.winner(fresh) else 0 if GAME.is_terminal(fresh) else NOT_OVER
    before = _words(row)
    assert kernel.outcome(row) == expected, fen
    assert _words(row) == before, fen


def _check_pass(state: ChessState, row: Row) -> None:
    """The null move: refused in check or with king and pawns only, else the rules' row."""
    board = state.board
    allowed = not board.is_check() and bool(
        board.occupied_co[board.turn] & ~(board.pawns | board.kings)
    )
    passed = GAME.null_move(state)
    child = np.full(kernel.WORDS, -1, np.int64)
    assert kernel.pass_turn(row, child) == allowed == (passed is not None), board.fen()
    if passed is not None:
        assert _diff(child, compiled_row(passed)) == {}, board.fen()


def _check_lead(state: ChessState, row: Row) -> None:
    """The evaluation: the rules' centipawns, and the lead made of them; with weights on
    every term too."""
    cp = GAME.centipawns(state)
    assert kernel.centipawns(PARAMS, row) == cp, state.board.fen()
    assert kernel.lead(PARAMS, row) == cp / (abs(cp) + CENTIPAWN_SCALE), state.board.fen()
    terms_row = np.array(compiled_row(state, TERMS_EVALUATION), np.uint64).view(np.int64)
    found = kernel.centipawns(TERMS_PARAMS, terms_row)
    assert found == TERMS_GAME.centipawns(state), state.board.fen()


def _check_all(state: ChessState) -> None:
    row = _row(state)
    _check_moves(state, row)
    _check_children(state, row)
    _check_flags(state, row)
    _check_pass(state, row)
    _check_lead(state, row)


# The corpus ----------------------------------------------------------------------------------


def test_the_corpus_reaches_the_hard_cases() -> None:
    """The random games reach what the checks need (else they would prove little): thousands
    of positions, mates, stalemates, draws by material and clock, promotions, castling,
    legal and illegal en passant, checks, passes refused."""
    states = _corpus()
    boards = [state.board for state in states]
    assert len(states) > 2500
    assert any(board.is_checkmate() for board in boards)
    assert any(board.is_stalemate() for board in boards)
    assert any(board.is_insufficient_material() for board in boards)
    assert any(board.halfmove_clock >= 100 for board in boards)
    assert sum(board.is_check() for board in boards) > 100
    assert sum(board.has_legal_en_passant() for board in boards) > 10
    illegal_ep = [b for b in boards if b.ep_square is not None and not b.has_legal_en_passant()]
    assert len(illegal_ep) > 50
    assert any(board.has_pseudo_legal_en_passant() for board in illegal_ep)
    moves = [move for state in states for move in state.moves]
    assert sum(move.promotion is not None for move in moves) > 100
    assert sum(state.board.is_castling(move) for state in states for move in state.moves) > 100
    assert sum(state.board.is_en_passant(move) for state in states for move in state.moves) > 10


def test_legal_moves_in_the_canonical_order() -> None:
    """``legal_moves`` is ``ChessState.moves`` code for code; ``generate`` finds the same set,
    and ANY says whether there is one."""
    for state in _corpus():
        _check_moves(state, _row(state))


def test_play_makes_the_rules_child_word_for_word() -> None:
    """``play`` of every legal move gives ``compiled_row(result)``: bitboards, side, castling,
    en passant (and whether it is keyed), clocks, key, PeSTO sums."""
    for state in _corpus():
        _check_children(state, _row(state))


def test_check_en_passant_noise_and_outcome() -> None:
    """``in_check``, ``has_legal_en_passant``, ``is_noisy`` and ``outcome`` as the rules say."""
    for state in _corpus():
        _check_flags(state, _row(state))


def test_pass_turn_is_the_null_move() -> None:
    """``pass_turn`` as ``Chess.null_move``: refused in check and with king and pawns only."""
    refused = 0
    for state in _corpus():
        _check_pass(state, _row(state))
        refused += GAME.null_move(state) is None
    assert refused > 50


def test_lead_is_pesto_scaled() -> None:
    """``centipawns`` and ``lead`` as ``Chess.centipawns`` and ``cp / (|cp| + scale)``."""
    for state in _corpus():
        _check_lead(state, _row(state))


def test_exchanges_as_the_rules_judge_them() -> None:
    """``wins_exchange`` as ``Chess.wins_exchange`` (python-chess's attack masks) on every
    capture of the corpus, and both lose some captures and win others."""
    verdicts = []
    for state in _corpus():
        row = _row(state)
        for move in state.moves:
            if GAME.is_capture(state, move):
                expected = GAME.wins_exchange(state, move)
                assert kernel.wins_exchange(row, move_code(move)) == expected, (
                    state.board.fen(),
                    move.uci(),
                )
                verdicts.append(expected)
    assert 1000 < sum(verdicts) < len(verdicts) - 1000


@pytest.mark.parametrize(
    ("fen", "move", "wins"),
    [
        ("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1", "e4d5", True),  # a free pawn
        ("4k3/8/2p5/3p4/8/8/3Q4/4K3 w - - 0 1", "d2d5", False),  # the queen for a pawn
        ("4k3/8/2p5/3p4/4P3/8/8/4K3 w - - 0 1", "e4d5", True),  # pawn for pawn
        ("3rk3/8/8/3p4/8/8/3R4/3RK3 w - - 0 1", "d2d5", True),  # the x-ray rook behind wins it
        ("3rk3/3r4/8/3p4/8/8/3R4/4K3 w - - 0 1", "d2d5", False),  # two defenders, one attacker
        ("4k3/8/8/3p4/8/8/8/3QK3 w - - 0 1", "d1d5", True),  # undefended
        ("4k3/8/4p3/3n4/8/8/8/3RK3 w - - 0 1", "d1d5", False),  # a rook for a knight
    ],
)
def test_exchanges_of_known_positions(fen: str, move: str, wins: bool) -> None:
    """Textbook exchanges, judged alike by the kernel and the rules."""
    state = GAME.parse_position(fen)
    action = chess.Move.from_uci(move)
    assert GAME.wins_exchange(state, action) is wins
    assert kernel.wins_exchange(_row(state), move_code(action)) is wins


@pytest.mark.parametrize("fen", SPECIAL)
def test_special_positions(fen: str) -> None:
    """Every check on the hand-made positions themselves (en passant pins, castling through
    check, promotions, endings and clocks)."""
    _check_all(_state(fen))


def _zobrist(board: chess.Board) -> int:
    """The Zobrist key by :mod:`plies.games.chess.zobrist`'s layout, written out again: the
    pieces, the castling rights, the en passant file when the capture is legal, Black to move."""
    key = 0
    for square, piece in board.piece_map().items():
        colour = 0 if piece.color == chess.WHITE else 1
        key ^= zobrist.KEYS[64 * (2 * (piece.piece_type - 1) + colour) + square]
    for index, rook in enumerate((chess.H1, chess.A1, chess.H8, chess.A8)):
        if board.clean_castling_rights() & chess.BB_SQUARES[rook]:
            key ^= zobrist.KEYS[zobrist.CASTLING + index]
    if board.ep_square is not None and board.has_legal_en_passant():
        key ^= zobrist.KEYS[zobrist.EN_PASSANT + chess.square_file(board.ep_square)]
    if board.turn == chess.BLACK:
        key ^= zobrist.KEYS[zobrist.BLACK_TO_MOVE]
    return key


def _check_from_scratch(row: Row, board: chess.Board) -> None:
    """The row's key and PeSTO sums are the position's own, computed afresh."""
    midgame, endgame, _ = DEFAULT.sums(board)
    words = _words(row)
    mask = (1 << 64) - 1
    assert words[kernel.KEY :] == (_zobrist(board), midgame & mask, endgame & mask), board.fen()


def test_keys_and_sums_of_children_from_scratch() -> None:
    """The key and PeSTO sums ``play`` updates are those computed afresh for the child (not
    only those the rules update the same way)."""
    child = np.zeros(kernel.WORDS, np.int64)
    for state in _corpus()[::5]:
        row = _row(state)
        for move in state.moves:
            kernel.play(PARAMS, row, move_code(move), child)
            board = state.board.copy(stack=False)
            board.push(move)
            _check_from_scratch(child, board)


# Hypothesis ------------------------------------------------------------------------------------


@settings(max_examples=150, deadline=None)
@given(data=st.data(), fen=st.sampled_from(TRICKY + SPECIAL))
def test_kernel_games_stay_in_step(data: st.DataObject, fen: str) -> None:
    """A game played by the kernel alone, ``play`` after ``play`` from its own rows (so no error
    is washed out by a fresh row), stays equal to the rules' game at every ply; the rules'
    repetition history is the kernel's keys of the last positions, and the key and PeSTO sums
    at the end are the position's own."""
    state = _state(fen)
    row = _row(state)
    child = np.zeros(kernel.WORDS, np.int64)
    keys = [int(row[kernel.KEY]) & ((1 << 64) - 1)]
    for _ in range(data.draw(st.integers(1, 80), label="plies")):
        codes = _kernel_moves(row)
        assert codes == [move_code(move) for move in state.moves], state.board.fen()
        if not codes:
            break
        index = data.draw(st.integers(0, len(codes) - 1), label="move")
        kernel.play(PARAMS, row, codes[index], child)
        state = GAME.result(state, state.moves[index])
        row = child.copy()
        assert _diff(row, compiled_row(state)) == {}, state.board.fen()
        keys.append(int(row[kernel.KEY]) & ((1 << 64) - 1))
        history = list(history_keys(state))
        assert history == keys[len(keys) - 1 - len(history) : -1]
    _check_from_scratch(row, state.board)


_PIECES = st.sampled_from("PNBRQpnbrq")


def _square_or(home: int) -> st.SearchStrategy[int]:
    return st.one_of(st.just(home), st.integers(0, 63))


@st.composite
def _placements(draw: st.DrawFn) -> chess.Board:
    """A position of pieces placed at random: two kings (often at home), up to 14 more pieces,
    castling rooks, an en passant square and pawns to take on it; python-chess may call it
    invalid (the test drops the en passant square, then the position)."""
    board = chess.Board(None)
    kings = (draw(_square_or(chess.E1)), draw(_square_or(chess.E8)))
    others = draw(st.lists(st.integers(0, 63), max_size=14, unique=True))
    for square in others:
        piece = chess.Piece.from_symbol(draw(_PIECES))
        if piece.piece_type == chess.PAWN and chess.square_rank(square) in (0, 7):
            piece = chess.Piece(chess.QUEEN, piece.color)
        board.set_piece_at(square, piece)
    board.turn = draw(st.booleans())
    rights = draw(st.sets(st.sampled_from([chess.H1, chess.A1, chess.H8, chess.A8])))
    for corner in rights:
        board.set_piece_at(corner, chess.Piece(chess.ROOK, chess.square_rank(corner) == 0))
    board.castling_rights = sum(chess.BB_SQUARES[square] for square in rights)
    if draw(st.booleans()):
        file = draw(st.integers(0, 7))
        ep = chess.square(file, 5 if board.turn else 2)
        pushed = chess.square(file, 4 if board.turn else 3)
        board.remove_piece_at(ep)
        board.remove_piece_at(chess.square(file, 6 if board.turn else 1))
        board.set_piece_at(pushed, chess.Piece(chess.PAWN, not board.turn))
        for side in draw(st.sets(st.sampled_from([-1, 1]))):
            if 0 <= file + side < 8:
                capturer = chess.square(file + side, chess.square_rank(pushed))
                board.set_piece_at(capturer, chess.Piece(chess.PAWN, board.turn))
        board.ep_square = ep
    if kings[0] == kings[1]:
        kings = (kings[0], kings[0] ^ 63)
    board.set_piece_at(kings[0], chess.Piece(chess.KING, chess.WHITE))
    board.set_piece_at(kings[1], chess.Piece(chess.KING, chess.BLACK))
    board.castling_rights = board.clean_castling_rights()
    board.halfmove_clock = draw(st.sampled_from([0, 7, 99, 100, 250]))
    return board


@settings(max_examples=500, deadline=None)
@given(board=_placements())
def test_random_placements(board: chess.Board) -> None:
    """Every check on random placements of pieces (pins, double checks, promotions, odd en
    passant squares), the positions python-chess calls valid."""
    if not board.is_valid():
        board.ep_square = None
    if board.is_valid():
        _check_all(ChessState(board))


# Keys ----------------------------------------------------------------------------------------


def _kernel_line(fen: str, *moves: str) -> Row:
    """The kernel's row after ``moves`` (UCI) played by ``play`` alone from ``fen``."""
    row = _row(_state(fen))
    child = np.zeros(kernel.WORDS, np.int64)
    for text in moves:
        code = move_code(chess.Move.from_uci(text))
        assert code in _kernel_moves(row), text
        kernel.play(PARAMS, row, code, child)
        row = child.copy()
    return row


def _info(row: Row, shift: int, width: int) -> int:
    return int(row[kernel.INFO]) >> shift & ((1 << width) - 1)


def test_knights_out_and_back_return_to_the_start_key() -> None:
    """1.Nf3 Nf6 2.Ng1 Ng8: the start position again, by key and by every board word; the
    clocks have moved on."""
    start = _kernel_line("startpos")
    back = _kernel_line("startpos", "g1f3", "g8f6", "f3g1", "f6g8")
    assert back[kernel.KEY] == start[kernel.KEY]
    assert list(back[: kernel.INFO]) == list(start[: kernel.INFO])
    assert list(back[kernel.MIDGAME :]) == list(start[kernel.MIDGAME :])
    assert _info(back, kernel.CLOCK_SHIFT, 10) == 4
    assert int(back[kernel.INFO]) >> kernel.FULLMOVE_SHIFT == 3
    moved = _kernel_line("startpos", "g1f3", "g8f6")
    assert moved[kernel.KEY] != start[kernel.KEY]


def test_a_double_push_without_a_capture_keys_as_no_en_passant() -> None:
    """1.e4 e5 2.Nf3 Nc6 and 1.Nf3 Nc6 2.e4 e5 are one position for repetition: the second
    has an en passant square no pawn can use, unkeyed."""
    a = _kernel_line("startpos", "e2e4", "e7e5", "g1f3", "b8c6")
    b = _kernel_line("startpos", "g1f3", "b8c6", "e2e4", "e7e5")
    assert _info(b, kernel.EP_SHIFT, 7) == chess.E6 and _info(a, kernel.EP_SHIFT, 7) == 64
    assert _info(b, kernel.EP_KEYED, 1) == 0
    assert a[kernel.KEY] == b[kernel.KEY]


@pytest.mark.parametrize(
    ("before", "push", "after", "legal"),
    [
        # the capture d4xe3 would bare the king on h4 to the rook on a4
        ("8/8/8/8/R2p3k/8/4P3/6K1 w - - 0 1", "e2e4", "8/8/8/8/R2pP2k/8/8/6K1 b - -", False),
        ("8/8/8/R7/3p3k/8/4P3/6K1 w - - 0 1", "e2e4", "8/8/8/R7/3pP2k/8/8/6K1 b - -", True),
        # the capture b5xc6 would bare the king on a5 to the rook on h5
        ("6k1/2p5/8/KP5r/8/8/8/8 b - - 0 1", "c7c5", "6k1/8/8/KPp4r/8/8/8/8 w - -", False),
        ("6k1/2p5/8/1P5r/K7/8/8/8 b - - 0 1", "c7c5", "6k1/8/8/1Pp4r/K7/8/8/8 w - -", True),
    ],
)
def test_an_en_passant_square_counts_only_when_the_capture_is_legal(
    before: str, push: str, after: str, legal: bool
) -> None:
    """After a double push the key counts the en passant file exactly when a capture there is
    legal: a pinned capture keys as the same position without the square."""
    row = _kernel_line(before, push)
    plain = _state(after + " 0 1")
    assert bool(kernel.has_legal_en_passant(row)) == legal
    assert _info(row, kernel.EP_KEYED, 1) == legal
    assert (int(row[kernel.KEY]) & ((1 << 64) - 1) == GAME.hash_key(plain)) == (not legal)
    pushed = GAME.result(_state(before), chess.Move.from_uci(push))
    assert (position_key(pushed.board) == plain.position) == (not legal)
    assert _diff(row, compiled_row(pushed)) == {}


def test_keys_are_equal_exactly_when_positions_are() -> None:
    """Along kernel-played random games from every start, two rows have one key iff their
    positions' ``position_key``s are equal (and positions do recur, so both ways are tried)."""
    rng = random.Random(7)
    by_key: dict[int, PositionKey] = {}
    identities: set[PositionKey] = set()
    recurred = 0
    child = np.zeros(kernel.WORDS, np.int64)
    for fen in TRICKY + SPECIAL:
        for _ in range(3):
            state, row = _state(fen), _row(_state(fen))
            for ply in range(120):
                identity = position_key(state.board)
                recurred += ply > 0 and identity in identities
                identities.add(identity)
                assert by_key.setdefault(int(row[kernel.KEY]), identity) == identity, (
                    state.board.fen()
                )
                codes = _kernel_moves(row)
                if not codes:
                    break
                index = rng.randrange(len(codes))
                kernel.play(PARAMS, row, codes[index], child)
                state = GAME.result(state, state.moves[index])
                row = child.copy()
    assert len(identities) == len(by_key)
    assert recurred > 20


# Perft -------------------------------------------------------------------------------------


@pytest.mark.parametrize("fen", TRICKY + EN_PASSANT[:4] + CASTLING[:3] + PROMOTIONS[:3])
def test_perft_agrees_with_python_chess(fen: str) -> None:
    """``Chess.perft`` (the kernel) counts what python-chess counts, depth 0 to 3."""
    state = _state(fen)
    for depth in range(4):
        assert GAME.perft(state, depth) == python_perft(state.board.copy(), depth), depth


@pytest.mark.parametrize(
    ("fen", "counts"),
    [
        ("startpos", [20, 400, 8902, 197281, 4865609]),
        (KIWIPETE, [48, 2039, 97862, 4085603]),
        (POSITION_3, [14, 191, 2812, 43238, 674624]),
        (POSITION_4, [6, 264, 9467, 422333]),
        (POSITION_5, [44, 1486, 62379, 2103487]),
        (POSITION_6, [46, 2079, 89890, 3894594]),
    ],
)
def test_perft_matches_published_counts(fen: str, counts: list[int]) -> None:
    """The Chess Programming Wiki's "Perft Results"."""
    state = _state(fen)
    assert [GAME.perft(state, depth) for depth in range(1, len(counts) + 1)] == counts


def test_the_kernel_numbers_the_terms_as_the_evaluation() -> None:
    """The kernel (which imports no python-chess) has its own copy of the terms' count and
    indexes: they must be the evaluation's."""
    from plies.games.chess import evaluation

    assert len(evaluation.TERMS) == kernel.TERMS
    indexes = ("PASSED_PAWN", "ISOLATED_PAWN", "DOUBLED_PAWN", "BISHOP_PAIR", "ROOK_OPEN_FILE",
               "ROOK_HALF_OPEN_FILE", "KING_SHIELD_PAWN", "KING_OPEN_FILE", "MOBILITY")  # fmt: skip
    for name in indexes:
        assert getattr(kernel, name) == getattr(evaluation, name), name
    assert len(compiled_params()) == kernel.PARAM_WORDS
