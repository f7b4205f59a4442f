"""Chess mate problems: how many of ``benchmarks/data/chess_mates.epd`` the engine solves.

Each problem is an EPD line with ``dm N`` (the side to move mates in N moves), ``bm`` (the key)
and ``id`` (its source). The engine (:func:`plies.search.engine.search` on
``make_game("chess")``, default options) searches each for ``--time`` seconds (default 1); a
problem counts as solved when the engine's first move is the key and its score is a mate in
exactly N moves (``2N - 1`` plies). One line per problem, with the time the search took.

``--verify`` first checks every key by brute force with python-chess (all moves, no
evaluation): the key mates within N moves against every defence, no other move does, and no
move mates in fewer. A problem that fails is reported and the script exits with status 1.

Usage (from the repository root)::

    PYTHONPATH=src .venv/bin/python benchmarks/chess_mates.py [--time 1] [--verify]
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from pathlib import Path

import chess

from plies.games import make_game
from plies.search.engine import MATE, Limits, search

PROBLEMS = Path(__file__).parent / "data" / "chess_mates.epd"


@dataclass(frozen=True)
class Problem:
    fen: str
    moves: int
    """Mate in this many moves of the side to move."""
    key: chess.Move
    source: str


def load_problems(path: Path) -> list[Problem]:
    """The problems of an EPD file with ``dm``, ``bm`` (one move) and ``id`` on every line."""
    problems = []
    for number, line in enumerate(path.read_text().splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        try:
            board, operations = chess.Board.from_epd(line)
            moves, (key,), source = operations["dm"], operations["bm"], operations["id"]
        except (ValueError, KeyError) as error:
            raise SystemExit(f"{path}:{number}: bad problem ({error})") from None
        assert isinstance(moves, int) and isinstance(key, chess.Move) and isinstance(source, str)
        problems.append(Problem(board.fen(), moves, key, source))
    return problems


def mating_moves(board: chess.Board, moves: int) -> list[chess.Move]:
    """Every move of the side to move that forces mate within ``moves`` moves (brute force)."""
    found = []
    for move in list(board.legal_moves):
        board.push(move)
        if board.is_checkmate() or (moves > 1 and _every_reply_loses(board, moves - 1)):
            found.append(move)
        board.pop()
    return found


def _every_reply_loses(board: chess.Board, moves: int) -> bool:
    """The side to move has a move and every one lets the other side mate within ``moves``."""
    replies = list(board.legal_moves)
    if not replies or board.is_insufficient_material():
        return False
    for reply in replies:
        board.push(reply)
        mates = _mates_within(board, moves)
        board.pop()
        if not mates:
            return False
    return True


def _mates_within(board: chess.Board, moves: int) -> bool:
    for move in list(board.legal_moves):
        board.push(move)
        mates = board.is_checkmate() or (moves > 1 and _every_reply_loses(board, moves - 1))
        board.pop()
        if mates:
            return True
    return False


def verify(problem: Problem) -> str | None:
    """Why the problem's key is wrong, or None when it is the unique mate in exactly N."""
    board = chess.Board(problem.fen)
    keys = mating_moves(board, problem.moves)
    if keys != [problem.key]:
        return f"moves that mate within {problem.moves}: {[board.san(m) for m in keys]}"
    if problem.moves > 1 and mating_moves(board, problem.moves - 1):
        return f"there is a mate in fewer than {problem.moves}"
    return None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--time", type=float, default=1.0, help="seconds a problem")
    parser.add_argument("--problems", type=Path, default=PROBLEMS)
    parser.add_argument("--verify", action="store_true", help="check the keys by brute force")
    args = parser.parse_args()
    if args.time <= 0:
        parser.error("--time must be positive")
    problems = load_problems(args.problems)
    if args.verify:
        wrong = [(p, why) for p in problems if (why := verify(p)) is not None]
        for problem, why in wrong:
            print(f"WRONG {problem.fen} ({problem.source}): {why}")
        if wrong:
            sys.exit(1)
        print(f"{len(problems)} keys verified by brute force")

    game = make_game("chess")
    solved = 0
    for problem in problems:
        board = chess.Board(problem.fen)
        result = search(game, game.parse_position(problem.fen), Limits(seconds=args.time))
        score = result.score if result.score is not None else 0.0
        plies = round(MATE - score) if score >= 1 else None
        found = plies == 2 * problem.moves - 1 and result.action == problem.key
        solved += found
        mate = f"mate in {(plies + 1) // 2}" if plies is not None else "no mate"
        print(
            f"{'solved' if found else 'MISSED':6}  mate in {problem.moves}:"
            f" key {board.san(problem.key):6}"
            f" engine {board.san(result.action):6} {mate:10} depth {result.depth:2}"
            f" {result.stats.time:5.2f} s  {problem.source}",
            flush=True,
        )
    print(f"solved {solved} of {len(problems)} within {args.time} s each")


if __name__ == "__main__":
    main()
