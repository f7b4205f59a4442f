"""Games written as their players' texts (plies.game_texts): PGN read back by python-chess,
SGF by sgfmill, plies' JSON replayed by the rules to the same final position, and the result
of a game lost before its end written as each format writes it."""

from __future__ import annotations

import io
import json
import random

import chess.pgn
import pytest
from sgfmill import sgf

from plies.errors import PliesError, SpecError
from plies.game_texts import FORMAT, game_text, read_record, text_formats
from plies.games import make_game
from plies.play import AGREED, RESIGNS, GameRecord, Loss, play_game, seat_agents


def _played(spec: str, plies: int, seed: int = 3) -> GameRecord:
    game = make_game(spec)
    agents = seat_agents(game, dict.fromkeys(game.players, "random"), seed=seed)
    return play_game(game, agents, chance=random.Random(seed), max_plies=plies)


def test_the_formats_follow_the_games_capabilities() -> None:
    assert text_formats(make_game("chess")) == ["json", "pgn"]
    assert text_formats(make_game("go:size=9")) == ["json", "sgf"]
    assert text_formats(make_game("othello")) == ["json"]
    record = _played("othello", 4)
    with pytest.raises(SpecError, match=r"othello games are written as json, not 'pgn'"):
        game_text(record, "pgn", {"B": "a", "W": "b"}, "test")


def test_pgn_reads_back_move_for_move() -> None:
    record = _played("chess", 30)
    text = game_text(record, "pgn", {"White": "human", "Black": "engine"}, "plies serve")
    read = chess.pgn.read_game(io.StringIO(text))
    assert read is not None and read.headers["White"] == "human"
    assert read.headers["Event"] == "plies serve" and read.headers["Result"] == "*"
    assert [m.uci() for m in read.mainline_moves()] == [t.action.uci() for t in record.turns]


def test_sgf_reads_back_move_for_move() -> None:
    record = _played("go:size=9", 40)
    text = game_text(record, "sgf", {"B": "human", "W": "mcts"}, "plies serve")
    read = sgf.Sgf_game.from_string(text)
    assert read.get_size() == 9 and read.get_player_name("b") == "human"
    played = [node.get_move() for node in read.get_main_sequence()[1:]]
    assert len(played) == len(record.turns)
    assert [colour for colour, _ in played] == ["b", "w"] * (len(played) // 2) + ["b"] * (
        len(played) % 2
    )
    assert read.get_root().get("RE") == "?"


@pytest.mark.parametrize("spec", ["tictactoe", "connect4", "othello", "checkers", "backgammon"])
def test_the_json_record_replays_to_the_same_final_position(spec: str) -> None:
    record = _played(spec, 40)
    game = record.game
    names = dict.fromkeys(game.players, "random")
    document = json.loads(game_text(record, "json", names, "test"))
    assert document["format"] == FORMAT and make_game(document["game"]).name == game.name
    state = game.parse_position(document["start"])  # type: ignore[attr-defined]
    for turn in document["moves"]:
        state = game.result(state, game.parse_action(state, turn["move"]))
    assert game.format_position(state) == document["final"]  # type: ignore[attr-defined]
    assert document["finished"] == record.finished


def test_a_game_lost_before_its_end_has_the_winners_result() -> None:
    record = _played("chess", 6)
    record.loss = Loss("White", RESIGNS)
    pgn = game_text(record, "pgn", {"White": "a", "Black": "b"}, "t")
    read = chess.pgn.read_game(io.StringIO(pgn))
    assert read is not None and read.headers["Result"] == "0-1"
    assert read.headers["Termination"] == "White resigns"
    go = _played("go:size=9", 6)
    go.loss = Loss("W", "loses on time (5 s)")
    assert "RE[B+T]" in game_text(go, "sgf", {"B": "a", "W": "b"}, "t")
    go.loss = Loss("B", RESIGNS)
    assert "RE[W+R]" in game_text(go, "sgf", {"B": "a", "W": "b"}, "t")
    document = json.loads(game_text(go, "json", {"B": "a", "W": "b"}, "t"))
    assert document["finished"] and document["result"] == go.outcome()


def test_an_agreed_draw_is_a_draw_in_every_text_and_taken_back_with_its_moves() -> None:
    record = _played("chess", 6)
    record.agreed_draw = True
    assert record.finished and record.outcome() == AGREED
    assert record.score("White") == record.score("Black") == 0.5
    read = chess.pgn.read_game(
        io.StringIO(game_text(record, "pgn", {"White": "a", "Black": "b"}, "t"))
    )
    assert read is not None and read.headers["Result"] == "1/2-1/2"
    assert read.headers["Termination"] == AGREED
    go = _played("go:size=9,komi=7", 6)
    go.agreed_draw = True
    assert "RE[0]" in game_text(go, "sgf", {"B": "a", "W": "b"}, "t")
    go.take_back(5)
    assert not go.finished and len(go.turns) == 5


@pytest.mark.parametrize(
    ("spec", "kind"),
    [("chess", "pgn"), ("go:size=9", "sgf"), ("othello", "json"), ("backgammon:match=3", "mat")],
)
def test_a_pasted_record_gives_back_its_moves(spec: str, kind: str) -> None:
    """What the web's downloads write, pasted back (PGN, SGF, or plies' JSON), replays to the
    same final position."""
    record = _played(spec, 24)
    game = make_game(spec)
    read = read_record(game, game_text(record, kind, dict.fromkeys(game.players, "x"), "t"))
    state = game.initial_state() if read.start is None else game.parse_position(read.start)
    for move in read.moves:
        state = game.result(state, game.parse_action(state, move))
    assert state == record.state


def test_a_pasted_position_starts_there() -> None:
    game = make_game("chess")
    fen = "8/8/8/4k3/8/8/8/4K2R w K - 0 1"
    read = read_record(game, f"  {fen}\n")
    assert (read.start, read.moves) == (fen, [])
    with_fen = read_record(game, f'[FEN "{fen}"]\n[SetUp "1"]\n\n1. Rh8 Kd5 *')
    assert (with_fen.start, with_fen.moves) == (fen, ["h1h8", "e5d5"])


@pytest.mark.parametrize(
    ("spec", "text", "message"),
    [
        ("chess", "", "nothing pasted"),
        ("chess", "1. e4 e5 2. Ke3 *", "illegal san"),
        ("chess", '[Variant "Atomic"]\n\n1. e4 *', "not chess"),
        ("chess", "rnbqkbnr/pppppppp/8 w", "FEN"),
        ("chess", "x" * 1_000_001, "more than"),
        ("go:size=9", "(;GM[1]SZ[13];B[aa])", "13x13"),
        ("go:size=9", "(;GM[1]SZ[9];W[aa])", "out of turn"),
        ("go:size=9", "(;GM[1]SZ[9]", "SGF"),
        ("othello", '{"format": "plies-game-1"}', "game spec"),
        ("othello", "not a position", "position"),
        ("backgammon:match=3", " 5 point match\n Game 1\n", "the file is a 5 point match"),
        (
            "backgammon",
            " Game 1\n  1) 31: 13/7",
            "line 2 .game 1, row 1.: '13/7' is not legal: wrong die",
        ),
    ],
)
def test_a_bad_pasted_record_is_named_in_one_line(spec: str, text: str, message: str) -> None:
    with pytest.raises(PliesError, match=message) as raised:
        read_record(make_game(spec), text)
    assert "\n" not in str(raised.value)
