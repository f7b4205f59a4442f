"""The engine against published mates in two from ``benchmarks/data/chess_mates.epd``: at a
depth limit of three plies it plays the key and scores a mate in exactly three plies, and a
brute-force search with python-chess (no evaluation) agrees that the key is the only move that
mates in two. The full set, mates in three included, is ``benchmarks/chess_mates.py``."""

from __future__ import annotations

from pathlib import Path

import chess
import pytest

from plies.games import make_game
from plies.search.engine import MATE, Limits, search

PROBLEMS = Path(__file__).parents[2] / "benchmarks" / "data" / "chess_mates.epd"
SAMPLE = (
    "Henry Buckle vs NN, London 1840",
    "James Mason vs Georg Marco, Leipzig 1894",
    "Arthur Dake vs Timothy Cranston, Warsaw 1935",
)


def sample() -> list[tuple[str, chess.Move, str]]:
    """(FEN, key, source) of the mates in two named in SAMPLE."""
    found = []
    for line in PROBLEMS.read_text().splitlines():
        if line.startswith("#") or not line.strip():
            continue
        board, operations = chess.Board.from_epd(line)
        if operations["id"] in SAMPLE:
            assert operations["dm"] == 2
            (key,) = operations["bm"]
            assert isinstance(key, chess.Move)
            found.append((board.fen(), key, str(operations["id"])))
    assert len(found) == len(SAMPLE)
    return found


def mates_in_one(board: chess.Board) -> bool:
    for move in list(board.legal_moves):
        board.push(move)
        mate = board.is_checkmate()
        board.pop()
        if mate:
            return True
    return False


def mates_in_two(board: chess.Board) -> list[chess.Move]:
    """The moves after which every reply allows a mate in one (brute force)."""
    keys = []
    for move in list(board.legal_moves):
        board.push(move)
        replies = list(board.legal_moves)
        forced = board.is_checkmate()
        if replies:
            forced = True
            for reply in replies:
                board.push(reply)
                forced = mates_in_one(board)
                board.pop()
                if not forced:
                    break
        board.pop()
        if forced:
            keys.append(move)
    return keys


@pytest.mark.parametrize(("fen", "key", "source"), sample(), ids=lambda value: str(value)[:24])
def test_engine_plays_the_key_of_a_mate_in_two(fen: str, key: chess.Move, source: str) -> None:
    board = chess.Board(fen)
    assert not mates_in_one(board), source
    assert mates_in_two(board) == [key], source
    game = make_game("chess")
    result = search(game, game.parse_position(fen), Limits(depth=3))
    assert result.action == key
    assert result.score == MATE - 3
