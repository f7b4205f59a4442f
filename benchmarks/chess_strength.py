"""Chess strength: ``plies uci`` against sunfish, and against Stockfish at limited strength.

Both sides are separate UCI processes; python-chess's :mod:`chess.engine` is the arbiter. Every
opening of ``benchmarks/data/chess_openings.txt`` (main lines a few moves deep) is played twice,
colours swapped: game ``i`` starts from opening ``i // 2`` and plies has White when ``i`` is
even. Each move is asked for with ``go movetime`` (``--time`` seconds, the same for both sides)
and the position is sent with its whole move list, so both engines see repetitions.

Adjudication, after every move: the rules, by ``board.outcome(claim_draw=True)`` (checkmate,
stalemate, insufficient material, and the draws a player may claim: threefold repetition and
the fifty-move rule); a game still going after ``--max-plies`` engine plies (default 200, the
opening's not counted) is a draw. An engine that answers no move, an illegal move or dies loses
the game (the progress line says so; it is restarted for the next game).

The score, its Elo difference and the 95% interval are :class:`plies.match.MatchResult`'s (a
Wilson interval on the score). The mean seconds per move of each side are printed too, to show
that both used the same time. Against Stockfish (``UCI_LimitStrength`` with ``UCI_Elo`` at each
of ``--stockfish-elo``), plies' rating on that scale is the level plus the Elo difference. The
Stockfish binary is looked up on PATH and in /usr/games; when missing and run as root the
script installs Debian's package (``apt-get install -y stockfish``), else it prints a note and
skips the calibration. Target (issue 7): plies scores at least 50% against sunfish at 0.5 s a
move. One line per game; Ctrl-C prints the games finished so far and stops (exit status 130).

Sunfish comes from the benchmark environment, ``benchmarks/.venv-peers`` (see
``benchmarks/peers/requirements.txt``; its ``sunfish-uci`` console script is the UCI engine).

Usage (from the repository root)::

    benchmarks/.venv-peers/bin/python benchmarks/chess_strength.py [--time 0.5] [--games 20]
        [--max-plies 200] [--stockfish-elo 1350,1600] [--stockfish-games 4]
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import chess
import chess.engine

from plies.match import GameOutcome, MatchResult, summarise

OPENINGS = Path(__file__).parent / "data" / "chess_openings.txt"
BIN = Path(sys.executable).parent
PLIES = [str(BIN / "plies"), "uci"]
SUNFISH = [str(BIN / "sunfish-uci")]


@dataclass(frozen=True)
class Opening:
    name: str
    moves: tuple[chess.Move, ...]


def load_openings(path: Path) -> list[Opening]:
    """The openings of ``path``: ``name: SAN moves`` a line; ``#`` lines are comments."""
    openings = []
    for number, line in enumerate(path.read_text().splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        name, _, text = line.rpartition(":")
        board = chess.Board()
        try:
            moves = tuple(board.push_san(san) for san in text.split())
        except ValueError as error:
            raise SystemExit(f"{path}:{number}: {error}") from None
        if not name or not moves:
            raise SystemExit(f"{path}:{number}: expected 'name: moves', got {line!r}")
        openings.append(Opening(name.strip(), moves))
    return openings


@dataclass
class Player:
    """A UCI engine process, restarted when it dies, and the time it spent on its moves."""

    name: str
    command: list[str]
    options: dict[str, str | int | bool] = field(default_factory=dict)
    engine: chess.engine.SimpleEngine | None = None
    seconds: float = 0.0
    moves: int = 0

    def start(self) -> chess.engine.SimpleEngine:
        if self.engine is None:
            # Its own process group: Ctrl-C reaches this script only, which then closes it.
            self.engine = chess.engine.SimpleEngine.popen_uci(self.command, setpgrp=True)
            self.engine.configure(self.options)
        return self.engine

    def play(self, board: chess.Board, limit: chess.engine.Limit, game: int) -> chess.Move | None:
        """The engine's move, or None when it answers none, an invalid one or dies (the process
        is then dropped). A new ``game`` number sends ``ucinewgame`` first."""
        started = time.perf_counter()
        try:
            move = self.start().play(board, limit, game=game).move
        except (chess.engine.EngineError, chess.engine.EngineTerminatedError):
            self.close()
            return None
        self.seconds += time.perf_counter() - started
        self.moves += 1
        return move

    def close(self) -> None:
        if self.engine is not None:
            try:
                self.engine.quit()
            except (chess.engine.EngineError, chess.engine.EngineTerminatedError):
                self.engine.close()
            self.engine = None


def play_game(
    white: Player, black: Player, opening: Opening, seconds: float, max_plies: int, game: int
) -> tuple[str, str, int]:
    """Result (``1-0``, ``0-1``, ``1/2-1/2``), how it ended and the engines' plies."""
    board = chess.Board()
    for move in opening.moves:
        board.push(move)
    limit = chess.engine.Limit(time=seconds)
    plies = 0
    while plies < max_plies:
        outcome = board.outcome(claim_draw=True)
        if outcome is not None:
            return outcome.result(), outcome.termination.name.lower(), plies
        mover = white if board.turn == chess.WHITE else black
        move = mover.play(board, limit, game)
        if move is None or move not in board.legal_moves:
            what = "no valid move" if move is None else f"illegal move {move.uci()}"
            return ("0-1" if board.turn == chess.WHITE else "1-0"), f"{mover.name}: {what}", plies
        board.push(move)
        plies += 1
    outcome = board.outcome(claim_draw=True)
    if outcome is not None:
        return outcome.result(), outcome.termination.name.lower(), plies
    return "1/2-1/2", f"move cap ({max_plies} plies)", plies


def run_match(
    plies_player: Player,
    opponent: Player,
    openings: list[Opening],
    games: int,
    seconds: float,
    max_plies: int,
) -> Iterator[GameOutcome]:
    """Games in colour-swapped pairs on each opening in turn (cycling), one line each."""
    outcomes: list[GameOutcome] = []
    for index in range(games):
        opening = openings[(index // 2) % len(openings)]
        plies_white = index % 2 == 0
        white, black = (plies_player, opponent) if plies_white else (opponent, plies_player)
        started = time.perf_counter()
        result, ending, plies = play_game(white, black, opening, seconds, max_plies, index)
        points = {"1-0": 1.0, "0-1": 0.0}.get(result, 0.5)
        outcome = GameOutcome(
            index=index,
            opening=index // 2,
            a_player="White" if plies_white else "Black",
            result=points if plies_white else 1 - points,
            moves=plies,
            seconds=time.perf_counter() - started,
        )
        outcomes.append(outcome)
        so_far = summarise(outcomes)
        print(
            f"game {index + 1:3}/{games}  {white.name} - {black.name} {result:7}"
            f" {ending:24} {plies:3} plies {outcome.seconds:5.0f} s  {opening.name:32}"
            f" plies +{so_far.wins} ={so_far.draws} -{so_far.losses}",
            flush=True,
        )
        yield outcome


def print_summary(label: str, result: MatchResult, players: list[Player]) -> None:
    print(
        f"{label}: {result.games} games, plies +{result.wins} ={result.draws} -{result.losses},"
        f" score {result.score:.3f}, Elo {result.elo:+.0f}"
        f" (95%: {result.elo_low:+.0f} .. {result.elo_high:+.0f})"
    )
    for player in players:
        if player.moves:
            print(f"  {player.name}: {player.seconds / player.moves:.3f} s a move on average")


def find_stockfish() -> str | None:
    """Stockfish's path, installing Debian's package first when missing and run as root."""
    found = shutil.which("stockfish") or shutil.which("stockfish", path="/usr/games")
    if found or os.geteuid() != 0:
        return found
    print("Stockfish not found: apt-get install -y stockfish ...", flush=True)
    for command in (["apt-get", "install", "-y", "stockfish"], ["apt-get", "update"]):
        subprocess.run(command, capture_output=True, check=False)
        found = shutil.which("stockfish") or shutil.which("stockfish", path="/usr/games")
        if found:
            return found
    subprocess.run(["apt-get", "install", "-y", "stockfish"], capture_output=True, check=False)
    return shutil.which("stockfish") or shutil.which("stockfish", path="/usr/games")


def stockfish_levels(binary: str, wanted: list[int]) -> list[int]:
    """The wanted UCI_Elo levels clamped into the range this Stockfish accepts."""
    engine = chess.engine.SimpleEngine.popen_uci([binary], setpgrp=True)
    try:
        option = engine.options["UCI_Elo"]
    finally:
        engine.quit()
    low, high = int(option.min or 0), int(option.max or 10_000)
    levels = sorted({min(max(level, low), high) for level in wanted})
    if levels != sorted(set(wanted)):
        print(f"note: this Stockfish's UCI_Elo range is {low}..{high}; levels {levels}")
    return levels


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--time", type=float, default=0.5, help="seconds a move, both sides")
    parser.add_argument("--games", type=int, default=20, help="games against sunfish")
    parser.add_argument("--max-plies", type=int, default=200, help="draw after this many")
    parser.add_argument("--openings", type=Path, default=OPENINGS)
    parser.add_argument("--stockfish-elo", default="1350,1600", help="levels, comma-separated")
    parser.add_argument("--stockfish-games", type=int, default=4, help="per level; 0 skips")
    args = parser.parse_args()
    if args.time <= 0 or args.games < 0 or args.max_plies <= 0 or args.stockfish_games < 0:
        parser.error("--time and --max-plies must be positive, game counts not negative")
    try:
        wanted = [int(level) for level in args.stockfish_elo.split(",") if level.strip()]
    except ValueError:
        parser.error(
            f"--stockfish-elo: expected comma-separated integers, got {args.stockfish_elo}"
        )
    openings = load_openings(args.openings)
    for command in (PLIES, SUNFISH):
        if not Path(command[0]).exists():
            raise SystemExit(f"{command[0]} not found: run with benchmarks/.venv-peers/bin/python")
    print(
        f"{len(openings)} openings, {args.time} s a move, draw after {args.max_plies} plies",
        flush=True,
    )

    plies_player = Player("plies", PLIES)
    opponents = [(Player("sunfish", SUNFISH), args.games, "plies vs sunfish", None)]
    if args.stockfish_games and wanted:
        binary = find_stockfish()
        if binary is None:
            print("note: no Stockfish binary and none could be installed: calibration skipped")
        else:
            for level in stockfish_levels(binary, wanted):
                options: dict[str, str | int | bool] = {
                    "UCI_LimitStrength": True,
                    "UCI_Elo": level,
                    "Threads": 1,
                    "Hash": 16,
                }
                opponent = Player(f"stockfish{level}", [binary], options)
                label = f"plies vs Stockfish UCI_Elo {level}"
                opponents.append((opponent, args.stockfish_games, label, level))

    outcomes: list[GameOutcome] = []
    current = opponents[0]
    try:
        for current in opponents:
            opponent, games, label, level = current
            print(f"\n{label}", flush=True)
            plies_player.seconds, plies_player.moves, outcomes = 0.0, 0, []
            for outcome in run_match(
                plies_player, opponent, openings, games, args.time, args.max_plies
            ):
                outcomes.append(outcome)
            result = summarise(outcomes)
            print_summary(label, result, [plies_player, opponent])
            if level is not None and result.games:
                print(
                    f"  plies on Stockfish's UCI_Elo scale: {level + result.elo:.0f}"
                    f" (95%: {level + result.elo_low:.0f} .. {level + result.elo_high:.0f})"
                )
            opponent.close()
    except KeyboardInterrupt:
        opponent, _, label, _ = current
        print_summary(f"\ninterrupted: {label}", summarise(outcomes), [plies_player, opponent])
        for player in [plies_player] + [entry[0] for entry in opponents]:
            player.close()
        sys.exit(130)
    plies_player.close()


if __name__ == "__main__":
    main()
