"""Chess strength: plies' engine against sunfish, and against Stockfish at limited strength, as
an arena run.

plies plays as the agent ``engine:time=T``, the same search ``plies uci`` runs (iterative
deepening alpha-beta with a 16 MB table), in this process; its opponents are UCI engines played
through the agent ``uci``: sunfish, ``uci:<path of sunfish-uci>,time=T``, and Stockfish at each
level E of ``--stockfish-elo``, ``uci:<path of stockfish>,time=T,UCI_LimitStrength=true,
UCI_Elo=E`` (``uci:/usr/games/stockfish,...`` with Debian's package). Both sides have the same
``--time`` seconds T a move (a UCI engine is asked with ``go movetime``); a UCI engine is told
the position alone (its FEN), so it does not see repetitions coming, where plies searches the
game's state, history included.

Each opponent is its own pairing of a gauntlet with plies first (:mod:`plies.arena`): game pairs
from the openings of ``--openings`` (``benchmarks/data/chess_openings.txt``: main lines a few
moves deep), colours swapped, pair ``p`` on opening ``p`` (cycling), ``--games`` games against
sunfish and ``--stockfish-games`` against each Stockfish level (even numbers; 0 skips). The
games end by the rules alone, as the arena plays them: checkmate, stalemate, insufficient
material, threefold repetition and the fifty-move rule (the draws are treated as claimed); the
arena adjudicates nothing, so there is no move cap any more. An engine that crashes, runs past
its time by a second, or answers an illegal move or none loses the game (the reason is
recorded; it is restarted for the next). Games run in ``--concurrency`` worker processes (1, the
default, keeps the timing fair: one game at a time on this machine) and each is written at once
to the record ``--db FILE`` (by default a new file in a temporary folder, printed); a rerun with
the same ``--db`` plays only the games not yet recorded.

One line per game; after each pairing, plies' wins, draws and losses, the arena's standings
(maximum-likelihood Elo with a first-move advantage and 95% bootstrap intervals over game pairs,
:func:`plies.arena.ratings.rating_intervals`, fitted on that pairing's games alone with the
opponent as the anchor) and the mean seconds per move of each side, to show that both used the
same time. Against sunfish the anchor is at 0, so plies' Elo is the difference; against
Stockfish it is at the level E, so plies' Elo and interval are its rating on Stockfish's
``UCI_Elo`` scale. The Stockfish binary is looked up on PATH and in /usr/games; when missing
and run as root the script installs Debian's package (``apt-get install -y stockfish``), else it
prints a note and skips the calibration; levels outside the binary's ``UCI_Elo`` range are
clamped into it. Target (issue 7): plies scores at least 50% against sunfish at 0.5 s a move.
Ctrl-C prints the standings of the pairing under way and stops (exit status 130), the record
kept for a rerun.

Sunfish comes from the benchmark environment, ``benchmarks/.venv-peers`` (see
``benchmarks/peers/requirements.txt``): its ``sunfish-uci`` console script is the UCI engine,
looked for there, next to this Python, then on PATH; when missing the script prints a note and
skips that pairing.

Usage (from the repository root)::

    PYTHONPATH=src .venv/bin/python benchmarks/chess_strength.py [--time 0.5] [--games 20]
        [--stockfish-elo 1350,1600] [--stockfish-games 4] [--openings FILE]
        [--concurrency 1] [--db FILE]
"""

from __future__ import annotations

import argparse
import contextlib
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import chess.engine

from plies.arena.ratings import Standing, format_standings, rating_intervals
from plies.arena.records import PlayedGame, Records, results_of
from plies.arena.tournament import check_players, opening_state, read_openings, run, schedule
from plies.errors import PliesError
from plies.games.chess.rules import Chess

HERE = Path(__file__).resolve().parent
OPENINGS = HERE / "data" / "chess_openings.txt"
SUNFISH_PLACES = (HERE / ".venv-peers" / "bin", Path(sys.executable).parent)
GAME = "chess"
TARGET_TIME = 0.5
"""The time a move at which the target against sunfish is set."""


def find_sunfish() -> str | None:
    """The path of ``sunfish-uci``: in the benchmark environment, next to this Python, on PATH."""
    for folder in SUNFISH_PLACES:
        candidate = folder / "sunfish-uci"
        if candidate.is_file() and os.access(candidate, os.X_OK):
            return str(candidate)
    return shutil.which("sunfish-uci")


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


def opening_names(path: Path) -> dict[str, str]:
    """The name of each opening of the file (its ``# name`` comment)."""
    names = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        text, _, name = line.partition("#")
        if text.strip():
            names[text.strip()] = name.strip()
    return names


@dataclass
class Pairing:
    """plies against one opponent: its games so far and each side's seconds a move."""

    label: str
    plies: str
    opponent: str
    games: int
    level: int | None = None
    played: list[PlayedGame] = field(default_factory=list)
    seconds: dict[str, list[float]] = field(default_factory=dict)

    def names(self) -> dict[str, str]:
        return {self.plies: "plies", self.opponent: self.label}

    def add(self, game: Chess, record: PlayedGame) -> tuple[str, int]:
        """Take a finished game in; how it ended and its plies (the opening's not counted)."""
        state = opening_state(game, record.opening)
        for text, seconds in zip(record.moves, record.seconds, strict=True):
            mover = record.first if game.to_move(state) == game.players[0] else record.second
            self.seconds.setdefault(mover, []).append(seconds)
            state = game.result(state, game.parse_action(state, text))
        self.played.append(record)
        ending = game.termination(state) if game.is_terminal(state) else record.reason
        return ending or record.reason, len(record.moves)

    def wdl(self) -> tuple[int, int, int]:
        scores = [g.result if g.first == self.plies else 1 - g.result for g in self.played]
        return scores.count(1.0), scores.count(0.5), scores.count(0.0)

    def summary(self, heading: str) -> None:
        """plies' results, the standings and each side's seconds a move."""
        wins, draws, losses = self.wdl()
        played = len(self.played)
        if not played:
            print(f"{heading}: no game finished")
            return
        score = (wins + draws / 2) / played
        print(
            f"{heading}: {played} games, plies +{wins} ={draws} -{losses}, score {score:.3f}",
            flush=True,
        )
        anchor_elo = 0.0 if self.level is None else float(self.level)
        standings = rating_intervals(results_of(self.played), self.opponent, anchor_elo)
        print(format_standings(standings))
        for spec in (self.plies, self.opponent):
            times = self.seconds.get(spec, [])
            if times:
                print(f"  {self.names()[spec]}: {sum(times) / len(times):.3f} s a move on average")
        mine: Standing = next(s for s in standings.players if s.name == self.plies)
        if self.level is not None:
            print(
                f"  plies on Stockfish's UCI_Elo scale: {mine.elo:.0f}"
                f" (95%: {mine.low:.0f} .. {mine.high:.0f})"
            )
        else:
            met = "met" if score >= 0.5 else "not met"
            print(f"  target (at {TARGET_TIME} s a move): plies scores at least 50%: {met}")
        sys.stdout.flush()


def play(
    game: Chess,
    records: Records,
    pairing: Pairing,
    openings: list[str],
    names: dict[str, str],
    concurrency: int,
) -> None:
    """Play (or finish) a pairing, one line per game."""
    specs = [pairing.plies, pairing.opponent]
    planned = schedule(GAME, specs, form="gauntlet", games=pairing.games, openings=openings)
    keys = {task.key for task in planned}
    for record in records.games():
        if record.key in keys:
            pairing.add(game, record)
    labels = pairing.names()
    with contextlib.closing(run(records, planned, concurrency)) as games:
        for record in games:
            ending, plies = pairing.add(game, record)
            wins, draws, losses = pairing.wdl()
            result = {1.0: "1-0", 0.0: "0-1"}.get(record.result, "1/2-1/2")
            white, black = labels[record.first], labels[record.second]
            print(
                f"game {len(pairing.played):3}/{pairing.games}  {white} - {black} {result:7}"
                f" {ending:24} {plies:3} plies {sum(record.seconds):5.0f} s"
                f"  {names.get(record.opening, record.opening):32}"
                f" plies +{wins} ={draws} -{losses}",
                flush=True,
            )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--time", type=float, default=0.5, help="seconds a move, both sides")
    parser.add_argument("--games", type=int, default=20, help="games against sunfish; 0 skips")
    parser.add_argument("--openings", type=Path, default=OPENINGS, help="one a line")
    parser.add_argument("--stockfish-elo", default="1350,1600", help="levels, comma-separated")
    parser.add_argument("--stockfish-games", type=int, default=4, help="per level; 0 skips")
    parser.add_argument(
        "--concurrency", type=int, default=1, help="games at a time, in worker processes (1)"
    )
    parser.add_argument("--db", type=Path, help="the record (default: a new temporary file)")
    args = parser.parse_args()
    if args.time <= 0 or args.games < 0 or args.stockfish_games < 0 or args.concurrency < 1:
        parser.error("--time and --concurrency must be positive, game counts not negative")
    if args.games % 2 or args.stockfish_games % 2:
        parser.error("--games and --stockfish-games must be even (pairs, colours swapped)")
    try:
        wanted = [int(level) for level in args.stockfish_elo.split(",") if level.strip()]
    except ValueError:
        parser.error(
            f"--stockfish-elo: expected comma-separated integers, got {args.stockfish_elo}"
        )
    game = Chess()
    try:
        openings = read_openings(game, args.openings)
    except PliesError as error:
        raise SystemExit(str(error)) from None
    plies = f"engine:time={args.time:g}"
    pairings = []
    if args.games:
        sunfish = find_sunfish()
        if sunfish is None:
            print("note: no sunfish-uci (see benchmarks/peers/requirements.txt): sunfish skipped")
        else:
            spec = f"uci:{shlex.quote(sunfish)},time={args.time:g}"
            pairings.append(Pairing("sunfish", plies, spec, args.games))
    if args.stockfish_games and wanted:
        binary = find_stockfish()
        if binary is None:
            print("note: no Stockfish binary and none could be installed: calibration skipped")
        else:
            for level in stockfish_levels(binary, wanted):
                spec = (
                    f"uci:{shlex.quote(binary)},time={args.time:g},"
                    f"UCI_LimitStrength=true,UCI_Elo={level}"
                )
                pairings.append(
                    Pairing(f"stockfish{level}", plies, spec, args.stockfish_games, level)
                )
    if not pairings:
        print("nothing to play")
        return 1
    try:
        check_players(GAME, [plies, *(p.opponent for p in pairings)])
    except PliesError as error:
        raise SystemExit(str(error)) from None
    path = args.db or Path(tempfile.mkdtemp(prefix="plies-chess-strength-")) / "chess.sqlite"
    print(
        f"{len(openings)} openings, {args.time:g} s a move; records in {path}"
        f" (rerun with --db {path} to resume)",
        flush=True,
    )
    names = opening_names(args.openings)
    records = Records(path, GAME)
    current = pairings[0]
    try:
        for current in pairings:
            heading = f"plies vs {current.label}"
            print(f"\n{heading}: {current.opponent}", flush=True)
            play(game, records, current, openings, names, args.concurrency)
            current.summary(heading)
    except KeyboardInterrupt:
        current.summary(f"\ninterrupted: plies vs {current.label}")
        print(f"the finished games are kept in {path}: rerun with --db {path} to resume")
        return 130
    finally:
        records.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
