"""Chess against published perft counts and Polyglot keys, rule edge cases played through the
formal interface, notation round trips, every bad-input path, PeSTO against a plain
re-implementation, and the engine against brute-force mate search."""

from __future__ import annotations

import dataclasses
import io
import json
import random
from collections.abc import Callable

import chess
import chess.pgn
import pytest

from plies.errors import IllegalMoveError, InvalidPositionError, ParseError, SpecError
from plies.game import random_move
from plies.games import make_game
from plies.games.chess.evaluation import (
    ENDGAME_TABLE,
    ENDGAME_VALUE,
    MIDGAME_TABLE,
    MIDGAME_VALUE,
    PESTO,
    PHASE_WEIGHT,
    TABLE_WEIGHTS,
    TERMS,
    WEIGHTS,
    Evaluation,
    blend,
    term_counts,
)
from plies.games.chess.rules import (
    Chess,
    ChessState,
    position_key,
    uci,
)
from plies.perft import divide, generic_perft, perft
from plies.search.engine import Limits, search
from plies.testing import random_game
from tests.conftest import CliRun

GAME = Chess()

KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq -"

PERFT_POSITIONS = [
    # (FEN, counts at depth 1, 2, 3): the start and Kiwipete from REFERENCES.md, positions 3 to
    # 5 from the Chess Programming Wiki, "Perft Results".
    ("startpos", [20, 400, 8902]),
    (KIWIPETE, [48, 2039, 97862]),
    ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", [14, 191, 2812]),
    ("r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", [6, 264, 9467]),
    ("rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", [44, 1486, 62379]),
]


def play(state: ChessState, *moves: str) -> ChessState:
    """``state`` after ``moves`` in SAN or UCI, each parsed in the position it is played in."""
    for text in moves:
        state = GAME.result(state, GAME.parse_action(state, text))
    return state


# Perft -------------------------------------------------------------------------------------


@pytest.mark.parametrize(("fen", "counts"), PERFT_POSITIONS)
def test_perft_matches_published_counts(fen: str, counts: list[int]) -> None:
    state = GAME.parse_position(fen)
    assert [perft(GAME, state, depth) for depth in range(len(counts) + 1)] == [1, *counts]


def test_perft_start_depth_4_and_divide() -> None:
    state = GAME.initial_state()
    assert perft(GAME, state, 4) == 197_281
    split = dict(divide(GAME, state, 3))
    assert sum(split.values()) == 8902
    assert split[chess.Move.from_uci("e2e4")] == 600


def test_formal_interface_perft_agrees() -> None:
    """The generic walk through ``actions``/``result`` (state copies, repetition history)."""
    assert generic_perft(GAME, GAME.initial_state(), 3) == 8902
    assert generic_perft(GAME, GAME.parse_position(KIWIPETE), 2) == 2039


# Rules -------------------------------------------------------------------------------------


def test_start_position() -> None:
    state = GAME.initial_state()
    assert GAME.to_move(state) == "White" and not GAME.is_terminal(state)
    assert GAME.parse_position("startpos") == state
    assert GAME.format_position(state) == chess.STARTING_FEN
    assert len(GAME.actions(state)) == 20
    assert GAME.to_move(play(state, "e4")) == "Black"


def test_castling_both_ways_and_through_check() -> None:
    state = GAME.parse_position("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
    short = play(state, "O-O")
    assert short.board.piece_at(chess.G1) == chess.Piece(chess.KING, chess.WHITE)
    assert short.board.piece_at(chess.F1) == chess.Piece(chess.ROOK, chess.WHITE)
    assert GAME.parse_action(state, "e1g1") == GAME.parse_action(state, "O-O")
    assert GAME.format_action(state, chess.Move.from_uci("e1c1")) == "O-O-O"
    assert not short.board.has_castling_rights(chess.WHITE)
    assert short.history == ()  # losing castling rights is irreversible
    guarded = GAME.parse_position("4k3/8/8/8/8/8/5r2/R3K2R w KQ - 0 1")  # the rook eyes f1
    for text in ("O-O", "e1g1"):
        with pytest.raises(IllegalMoveError, match="not legal"):
            GAME.parse_action(guarded, text)
    assert play(guarded, "O-O-O").board.piece_at(chess.C1) == chess.Piece(chess.KING, True)


def test_en_passant() -> None:
    state = GAME.parse_position("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2")
    capture = GAME.parse_action(state, "exd6")
    assert capture == chess.Move.from_uci("e5d6") and GAME.is_capture(state, capture)
    after = GAME.result(state, capture)
    assert after.board.piece_at(chess.D5) is None
    assert after.board.piece_at(chess.D6) == chess.Piece(chess.PAWN, chess.WHITE)
    later = play(state, "Kd2", "Kd8")
    with pytest.raises(IllegalMoveError):
        GAME.parse_action(later, "exd6")


def test_promotion_notation() -> None:
    state = GAME.parse_position("8/P7/8/8/8/8/k7/4K3 w - - 0 1")
    queen = GAME.parse_action(state, "a8=Q")
    assert queen == GAME.parse_action(state, "a7a8q") == chess.Move.from_uci("a7a8q")
    assert GAME.format_action(state, queen) == "a8=Q+"
    knight = GAME.parse_action(state, "a7a8n")
    assert GAME.format_action(state, knight) == "a8=N"
    assert GAME.is_capture(state, queen) and not GAME.is_capture(state, knight)
    assert GAME.result(state, queen).board.piece_at(chess.A8) == chess.Piece(chess.QUEEN, True)
    with pytest.raises(IllegalMoveError):
        GAME.parse_action(state, "a7a8")


def test_checkmate_wins() -> None:
    state = play(GAME.initial_state(), "f3", "e5", "g4")
    mate = play(state, "Qh4#")
    assert GAME.is_terminal(mate) and GAME.winner(mate) == "Black"
    assert GAME.utility(mate, "Black") == 1 and GAME.utility(mate, "White") == -1
    assert GAME.termination(mate) == "checkmate" and GAME.result_text(mate) == "0-1"
    assert GAME.actions(mate) == ()
    assert GAME.display(mate).splitlines()[-1] == "game over: Black wins (checkmate)"


def test_stalemate_is_a_draw() -> None:
    state = play(GAME.parse_position("7k/8/6K1/8/8/8/8/5Q2 w - - 0 1"), "Qf7")
    assert GAME.is_terminal(state) and GAME.winner(state) is None
    assert GAME.termination(state) == "stalemate"
    assert GAME.payoffs(state) == (0, 0)


def test_insufficient_material_is_a_draw() -> None:
    state = GAME.parse_position("8/8/8/4k3/8/8/3r4/4K3 w - - 0 1")
    assert not GAME.is_terminal(state)
    bare = play(state, "Kxd2")
    assert GAME.is_terminal(bare) and GAME.actions(bare) == ()
    assert GAME.termination(bare) == "insufficient material" and GAME.winner(bare) is None


def test_fifty_move_rule() -> None:
    state = GAME.parse_position("8/8/8/4k3/8/8/4P3/R3K3 w - - 99 80")
    drawn = play(state, "Ra2")
    assert drawn.board.halfmove_clock == 100 and GAME.is_terminal(drawn)
    assert GAME.termination(drawn) == "fifty-move rule" and GAME.actions(drawn) == ()
    assert not GAME.is_terminal(play(state, "e4"))  # a pawn move resets the clock
    assert GAME.is_terminal(GAME.parse_position("8/8/8/4k3/8/8/8/R3K3 w - - 100 80"))
    mate = play(GAME.parse_position("7k/8/6K1/8/8/8/8/R7 w - - 99 80"), "Ra8")
    assert GAME.winner(mate) == "White" and GAME.termination(mate) == "checkmate"


def test_threefold_repetition_through_result() -> None:
    start = GAME.initial_state()
    shuffle = ("Nf3", "Nf6", "Ng1", "Ng8")
    twice = play(start, *shuffle)
    assert twice.position == start.position and twice.repetitions == 2
    assert twice != start and not GAME.is_terminal(twice)  # the histories differ
    almost = play(twice, *shuffle[:3])
    assert not GAME.is_terminal(almost)
    thrice = play(almost, shuffle[3])
    assert GAME.is_terminal(thrice) and GAME.winner(thrice) is None
    assert GAME.termination(thrice) == "threefold repetition"
    with pytest.raises(IllegalMoveError, match="game is over"):
        GAME.parse_action(thrice, "Nf3")
    assert play(twice, "e4").history == ()  # a pawn move forgets the history
    reset = play(twice, "e4", "e5", *shuffle)
    assert reset.repetitions == 2 and not GAME.is_terminal(reset)


def test_repetition_ignores_an_en_passant_square_without_a_legal_capture() -> None:
    after_e4 = play(GAME.initial_state(), "e4").board
    assert after_e4.ep_square == chess.E3  # python-chess keeps it; no black pawn can take
    same = chess.Board("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1")
    assert position_key(after_e4) == position_key(same)


def test_state_identity() -> None:
    """Transpositions share the position and ``hash_key``; they are the same state only when
    the positions that could still repeat (since the last irreversible move) are the same."""
    one = play(GAME.initial_state(), "e4", "Nf6", "d4")
    other = play(GAME.initial_state(), "d4", "Nf6", "e4")
    assert one == other and hash(one) == hash(other) and len({one, other}) == 1
    knights = play(GAME.initial_state(), "Nf3", "Nc6", "Nc3")
    swapped = play(GAME.initial_state(), "Nc3", "Nc6", "Nf3")
    assert knights.position == swapped.position
    assert GAME.hash_key(knights) == GAME.hash_key(swapped)
    assert knights != swapped  # after Nf3 and after Nc3 could each still recur
    with pytest.raises(dataclasses.FrozenInstanceError):
        knights.board = chess.Board()  # type: ignore[misc]


def test_illegal_action_to_result() -> None:
    with pytest.raises(IllegalMoveError, match="e2e5"):
        GAME.result(GAME.initial_state(), chess.Move.from_uci("e2e5"))


def test_hash_key_is_the_repetition_identity() -> None:
    """Zobrist keys (plies' own words): equal exactly when the positions are the same for
    FIDE's repetition rule, so an en passant square counts only when the capture is legal."""
    start = GAME.initial_state()
    back = GAME.from_uci_moves(start, ["g1f3", "g8f6", "f3g1", "f6g8"])
    assert GAME.hash_key(back) == GAME.hash_key(start)
    assert GAME.hash_key(play(start, "e4")) != GAME.hash_key(start)
    # a double push beside an enemy pawn pinned to its king: the en passant square is no right
    pinned = GAME.parse_position("8/8/8/1K1pP2r/8/8/8/7k w - d6 0 2")
    plain = GAME.parse_position("8/8/8/1K1pP2r/8/8/8/7k w - - 0 2")
    assert not pinned.board.has_legal_en_passant()
    assert GAME.hash_key(pinned) == GAME.hash_key(plain)
    free = GAME.parse_position("8/8/8/3pP2r/8/8/8/K6k w - d6 0 2")
    assert GAME.hash_key(free) != GAME.hash_key(GAME.parse_position("8/8/8/3pP2r/8/8/8/K6k w - -"))
    seen: dict[int, object] = {}
    for seed in range(4):
        for state in random_game(GAME, seed, max_plies=60):
            assert seen.setdefault(GAME.hash_key(state), state.position) == state.position


# Notation ----------------------------------------------------------------------------------


def test_notation_round_trips() -> None:
    for state in random_game(GAME, 11, max_plies=80):
        fen = GAME.format_position(state)
        assert GAME.parse_position(fen).board.fen() == fen
        for move in GAME.actions(state):
            assert GAME.parse_action(state, uci(move)) == move == chess.Move.from_uci(uci(move))


@pytest.mark.parametrize(
    ("fen", "problem"),
    [
        ("xx", "bad FEN"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1", "bad FEN"),
        ("8/8/8/8/8/8/8/4K3 w - - 0 1", "no black king"),
        ("4k3/8/8/8/8/8/8/4K2P w - - 0 1", "pawns on the first or last rank"),
        ("4k3/8/8/8/8/8/8/4R1K1 w - - 0 1", "the side not to move is in check"),
        ("4k3/8/8/8/8/8/8/4K3 w K - 0 1", "castling rights"),
        ("4k3/8/8/8/8/8/4P3/4K3 w - - 0 12345678901234567890", "fullmove number is above"),
        ("4k3/8/8/8/8/8/4P3/4K3 w - - 12345678901234567890 1", "halfmove clock is above"),
        ("4k3/8/8/8/8/8/4P3/4K3 w - - 10001 1", "halfmove clock is above 10,000"),
    ],
)
def test_bad_positions(fen: str, problem: str) -> None:
    with pytest.raises(InvalidPositionError, match=problem) as caught:
        GAME.parse_position(fen)
    assert "\n" not in str(caught.value)


def test_the_largest_move_counters_fit_the_compiled_rules() -> None:
    """A FEN's counters reach the kernel's word (the fullmove number above bit 23): the largest
    a FEN may give search natively, as Python does."""
    from plies.agents import make_agent

    state = GAME.parse_position("4k3/8/8/8/8/8/4P3/4K3 w - - 99 100000")
    assert (state.board.halfmove_clock, state.board.fullmove_number) == (99, 100_000)
    assert make_agent("engine:depth=2", GAME)(GAME, state) in GAME.actions(state)


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("Ke9", "neither SAN"),
        ("hello", "neither SAN"),
        ("e2e5", "not legal"),
        ("Nc3d5", "not legal"),
        ("Qh5", "not legal"),
        ("--", "not legal"),
        ("0000", "not legal"),
        ("", "neither SAN"),
    ],
)
def test_bad_moves(text: str, problem: str) -> None:
    with pytest.raises(IllegalMoveError, match=problem) as caught:
        GAME.parse_action(GAME.initial_state(), text)
    assert "\n" not in str(caught.value)


def test_ambiguous_move() -> None:
    state = GAME.parse_position("4k3/8/8/8/8/8/8/2N1K1N1 w - - 0 1")
    with pytest.raises(IllegalMoveError, match="ambiguous"):
        GAME.parse_action(state, "Ne2")
    assert GAME.parse_action(state, "Nge2") == chess.Move.from_uci("g1e2")


def test_from_uci_moves() -> None:
    start = GAME.initial_state()
    state = GAME.from_uci_moves(start, ["e2e4", "e7e5", "g1f3", "b8c6"])
    assert state == play(start, "e4", "e5", "Nf3", "Nc6")
    with pytest.raises(IllegalMoveError, match="move 3 'e4e5' is not legal"):
        GAME.from_uci_moves(start, ["e2e4", "e7e5", "e4e5"])
    with pytest.raises(IllegalMoveError, match="move 2 'Nf6' is not a UCI move"):
        GAME.from_uci_moves(start, ["e2e4", "Nf6"])


def test_pgn_export_reads_back() -> None:
    start = GAME.parse_position(KIWIPETE)
    moves = [GAME.parse_action(start, "Qxf6")]
    moves.append(GAME.parse_action(GAME.result(start, moves[0]), "Bxf6"))
    text = GAME.pgn(start, moves, "1/2-1/2", {"White": "plies", "Event": "test"})
    record = chess.pgn.read_game(io.StringIO(text))
    assert record is not None
    assert list(record.mainline_moves()) == moves
    assert record.headers["FEN"] == GAME.format_position(start)
    assert record.headers["Result"] == "1/2-1/2" and record.headers["White"] == "plies"
    assert '[SetUp "1"]' in text and "1. Qxf6 Bxf6" in text
    plain = GAME.pgn(GAME.initial_state(), [chess.Move.from_uci("e2e4")])
    assert "FEN" not in plain and plain.endswith("1. e4 *")
    with pytest.raises(ParseError, match="PGN result"):
        GAME.pgn(start, moves, "win")
    with pytest.raises(IllegalMoveError, match="PGN move 1"):
        GAME.pgn(start, [chess.Move.from_uci("e2e4")])


def test_registry_and_scoring() -> None:
    game = make_game("chess:scoring=payoff")
    assert isinstance(game, Chess)
    mate = play(game.initial_state(), "f3", "e5", "g4", "Qh4")
    assert game.payoffs(mate) == (0, 1)
    assert game.result_text(game.initial_state()) == "*"


# Evaluation --------------------------------------------------------------------------------


def plain_sums(board: chess.Board) -> tuple[int, int, int]:
    """PeSTO's midgame and endgame sums for White and the phase, from the definition: tables
    read as printed (rank 8 first) from each side's own point of view."""
    midgame = endgame = phase = 0
    for square, piece in board.piece_map().items():
        rank, file = chess.square_rank(square), chess.square_file(square)
        own_rank = rank if piece.color == chess.WHITE else 7 - rank
        index = (7 - own_rank) * 8 + file
        sign = 1 if piece.color == chess.WHITE else -1
        kind = piece.piece_type
        midgame += sign * (MIDGAME_VALUE[kind] + MIDGAME_TABLE[kind][index])
        endgame += sign * (ENDGAME_VALUE[kind] + ENDGAME_TABLE[kind][index])
        phase += PHASE_WEIGHT[kind]
    return midgame, endgame, phase


def plain_pesto(board: chess.Board) -> int:
    """PeSTO's tapered score for White, truncated toward zero like PeSTO's C division."""
    midgame, endgame, phase = plain_sums(board)
    phase = min(phase, 24)
    total = midgame * phase + endgame * (24 - phase)
    return total // 24 if total >= 0 else -(-total // 24)


PESTO_GAME = Chess(evaluation=PESTO)


def pesto_white_centipawns(board: chess.Board) -> int:
    return blend(PESTO.sums(board))


def test_pesto_matches_plain_definition() -> None:
    """The weights of PeSTO's evaluation are its published values and tables."""
    states = random_game(GAME, 5, max_plies=120) + [
        GAME.parse_position(f) for f, _ in PERFT_POSITIONS
    ]
    for state in states:
        assert pesto_white_centipawns(state.board) == plain_pesto(state.board)
        white = PESTO_GAME.centipawns(state)
        assert white == (
            plain_pesto(state.board) if state.board.turn else -plain_pesto(state.board)
        )


def test_features_weigh_to_the_score() -> None:
    """EVAL is a weighted sum of the features (a linear evaluation): the sum before rounding
    is the score, for the shipped weights and PeSTO's."""
    for game in (GAME, PESTO_GAME):
        weights = game.evaluation_weights()
        assert len(weights) == len(game.evaluation_names())
        for state in random_game(game, 9, max_plies=120):
            features = game.evaluation_features(state)
            total = sum(weights[index] * value for index, value in features.items())
            white = game.centipawns(state) * (1 if state.board.turn else -1)
            assert abs(total - white) < 1 + 1e-9


def test_evaluation_weights_are_checked() -> None:
    with pytest.raises(SpecError, match=str(WEIGHTS)):
        GAME.with_evaluation_weights([1.0, 2.0], "a test")
    doubled = GAME.with_evaluation_weights([2 * w for w in PESTO.weights], "doubled")
    state = random_game(GAME, 3, max_plies=30)[-1]
    assert doubled.centipawns(state) in range(
        2 * PESTO_GAME.centipawns(state) - 1, 2 * PESTO_GAME.centipawns(state) + 2
    )


def test_incremental_pesto_matches_a_full_count() -> None:
    """``result`` carries PeSTO's sums over to the child (``_sums``, set without a full
    count): castling, en passant, promotions and captures of every kind, two plies deep from
    the perft positions, and along a long random game."""
    game = PESTO_GAME
    starts = [game.parse_position(fen) for fen, _ in PERFT_POSITIONS]
    starts.append(game.parse_position("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2"))

    def carried(state: ChessState) -> object:
        return None if state._sums is None else state._sums[1]

    for start in starts:
        assert start.sums(PESTO) == plain_sums(start.board)
        for move in game.actions(start):
            child = game.result(start, move)
            assert carried(child) == plain_sums(child.board)
            for reply in game.actions(child):
                grandchild = game.result(child, reply)
                assert carried(grandchild) == plain_sums(grandchild.board)
    rng = random.Random(13)
    state = game.initial_state()
    assert state.sums(PESTO) == plain_sums(state.board)  # from here on carried by ``result``
    while not game.is_terminal(state):
        state = game.result(state, random_move(game, state, rng))
        assert carried(state) == plain_sums(state.board)


def test_evaluation_is_symmetric() -> None:
    assert GAME.centipawns(GAME.initial_state()) == 0
    for state in random_game(GAME, 7, max_plies=120):
        mirrored = ChessState(state.board.mirror())
        assert pesto_white_centipawns(mirrored.board) == -pesto_white_centipawns(state.board)
        assert GAME.centipawns(mirrored) == GAME.centipawns(state)
        white, black = GAME.evaluate(state, "White"), GAME.evaluate(state, "Black")
        assert white == -black and -1 < white < 1


# Hand counts of the terms, in the order of TERMS: passed pawns on ranks 2-7, isolated,
# doubled, bishop pair, rook on an open and a half-open file, king shield and open files,
# mobility of knights, bishops, rooks and queens (White's less Black's).
HAND_COUNTED_TERMS = [
    # b2 passed and isolated; the rook on the open d-file reaches a1-c1, e1-f1 and d2-d8 (12);
    # both kings behind three shield pawns, no open file beside either.
    (
        "6k1/5ppp/8/8/8/8/1P3PPP/3R2K1 w - - 0 1",
        (1, 0, 0, 0, 0, 0, 1, 0, 0, 1, 0, 0, 0, 0, 0, 12, 0),
    ),
    # c2 and c3 passed, isolated and doubled; Black's rook on the half-open c-file reaches
    # a8, b8, d8 and c7-c3 (8); three files without own pawns beside each king.
    ("2r1k3/8/8/8/8/2P5/2P5/4K3 w - - 0 1", (1, 1, 0, 0, 0, 0, 2, 1, 0, 0, -1, 0, 0, 0, 0, -8, 0)),
    # the bishop pair; the knight reaches b3 and c2, the bishops a2-h7 and a6-e2, g2-h3 (14).
    ("4k3/8/8/8/8/8/8/NB2KB2 w - - 0 1", (0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 2, 14, 0, 0)),
]


@pytest.mark.parametrize(("fen", "counts"), HAND_COUNTED_TERMS)
def test_terms_match_hand_counts(fen: str, counts: tuple[int, ...]) -> None:
    assert len(counts) == len(TERMS)
    assert term_counts(chess.Board(fen)) == counts


def test_terms_are_symmetric_and_weigh_in() -> None:
    """Mirroring the board negates every count; weights on the terms move the score by the
    counts, blended by the phase."""
    rng = random.Random(5)
    weights = [
        *PESTO.weights[:TABLE_WEIGHTS],
        *(rng.randint(-40, 40) for _ in range(WEIGHTS - TABLE_WEIGHTS)),
    ]
    evaluation = Evaluation(weights, "random terms")
    game = Chess(evaluation=evaluation)
    for state in random_game(GAME, 11, max_plies=140):
        counts = term_counts(state.board)
        assert term_counts(state.board.mirror()) == tuple(-count for count in counts)
        midgame, endgame, phase = PESTO.sums(state.board)
        midgame += sum(w * c for w, c in zip(weights[TABLE_WEIGHTS:], counts, strict=False))
        endgame += sum(
            w * c for w, c in zip(weights[TABLE_WEIGHTS + len(TERMS) :], counts, strict=True)
        )
        white = game.centipawns(state) * (1 if state.board.turn else -1)
        assert white == blend((midgame, endgame, phase))
        assert game.centipawns(ChessState(state.board.mirror())) == game.centipawns(state)


def test_evaluation_prefers_material_and_knows_the_end() -> None:
    up_a_queen = GAME.parse_position("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
    assert GAME.centipawns(up_a_queen) > 800 and GAME.evaluate(up_a_queen, "White") > 0.4
    mate = play(GAME.initial_state(), "f3", "e5", "g4", "Qh4")
    assert GAME.evaluate(mate, "Black") == 1


# The engine --------------------------------------------------------------------------------


def mates_within(board: chess.Board, moves: int) -> bool:
    """Whether the side to move mates in at most ``moves`` moves against any defence."""
    for move in list(board.legal_moves):
        board.push(move)
        try:
            if board.is_checkmate():
                return True
            if (
                moves > 1
                and not board.is_game_over()
                and all(
                    _after(board, reply, lambda b: mates_within(b, moves - 1))
                    for reply in list(board.legal_moves)
                )
            ):
                return True
        finally:
            board.pop()
    return False


def _after(board: chess.Board, move: chess.Move, test: Callable[[chess.Board], bool]) -> bool:
    """``test`` of ``board`` after ``move`` (the board is restored)."""
    board.push(move)
    try:
        return test(board)
    finally:
        board.pop()


@pytest.mark.parametrize(
    ("fen", "moves"),
    [
        ("6k1/5ppp/8/8/8/8/8/4R1K1 w - - 0 1", 1),  # back-rank mate
        ("r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4", 1),  # scholar's
        ("r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 10", 2),
        ("6k1/pp4p1/2p5/2bp4/8/P5Pb/1P3rrP/2BRRN1K b - - 0 1", 2),
    ],
)
def test_engine_finds_mate(fen: str, moves: int) -> None:
    state = GAME.parse_position(fen)
    result = search(GAME, state, Limits(depth=2 * moves - 1))
    assert result.value == 1, "the engine should see the forced win"
    assert result.action is not None
    board = state.board.copy()
    board.push(result.action)
    if moves == 1:
        assert board.is_checkmate()
    else:  # every defence allows mate next move (brute force)
        assert not mates_within(state.board.copy(), moves - 1)
        assert all(
            _after(board, reply, lambda b: mates_within(b, 1)) for reply in board.legal_moves
        )


# The command line ----------------------------------------------------------------------------


def test_cli_perft(run_cli: Callable[..., CliRun]) -> None:
    split = json.loads(run_cli("perft", "chess", "3", "--divide", "--json").out)
    assert split["nodes"] == 8902 and split["divide"]["e4"] == 600 and len(split["divide"]) == 20
    kiwipete = run_cli("perft", "chess", "2", "--position", KIWIPETE, "--json")
    assert json.loads(kiwipete.out)["nodes"] == 2039
    bad = run_cli("perft", "chess", "2", "--position", "8/8/8/8/8/8/8/4K3 w - - 0 1")
    assert bad.code == 2 and "no black king" in bad.err and len(bad.err.splitlines()) == 1


def test_a_move_to_its_own_square_is_illegal_not_a_crash() -> None:
    game = make_game("chess")
    with pytest.raises(IllegalMoveError, match="goes nowhere"):
        game.parse_action(game.initial_state(), "e2e2")
