"""Backgammon: GNU Backgammon's analysis of one player's checker plays in recorded games, as
gnubg's ``analyse`` rates a player: the error rate per move in thousandths of equity.

Reads the games of a record written by ``benchmarks/backgammon_strength.py`` (``--db FILE``), and
for the first ``--games`` games in which ``--player`` played, replays them and asks gnubg (at its
world class analysis level: 2 plies, its normal move filter) for the best play of every unforced
decision of that player, and for the cubeless equity of both resulting positions
(:class:`plies.games.backgammon.gnubg_agent.GnubgJudge`). A play's error is the best play's
equity less the play's; the error rate is their mean over the unforced plays, times 1000. Prints
the error rate with a 95% interval (over games), the plays by size of error (gnubg calls an
error of 0.04 doubtful, 0.08 bad, 0.16 very bad), and the rating band of gnubg's scale
(shared/REFERENCES.md: world class 2-5, expert 5-8, advanced 8-12, intermediate 12-18, casual
18-26, beginner 26-35). Ctrl-C prints the games analysed so far.

Usage (from the repository root)::

    PYTHONPATH=src .venv/bin/python benchmarks/backgammon_analysis.py --db FILE
        --player SPEC [--games 100] [--gnubg COMMAND]
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path

from plies.arena.records import Records
from plies.arena.tournament import opening_state
from plies.games.backgammon.gnubg_agent import gnubg_judge
from plies.games.backgammon.rules import Backgammon

BANDS = (
    (2, "supernatural"),
    (5, "world class"),
    (8, "expert"),
    (12, "advanced"),
    (18, "intermediate"),
    (26, "casual"),
    (35, "beginner"),
)
SIZES = ((0.16, "very bad"), (0.08, "bad"), (0.04, "doubtful"))


def band(rate: float) -> str:
    """gnubg's name for an error rate per move (thousandths)."""
    return next((name for bound, name in BANDS if rate < bound), "awful")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", type=Path, required=True, help="a record of played games")
    parser.add_argument("--player", required=True, help="the agent whose plays are analysed")
    parser.add_argument("--games", type=int, default=100, help="games to analyse (100)")
    parser.add_argument("--gnubg", help="the gnubg program (default: gnubg)")
    args = parser.parse_args(argv)
    if not args.db.is_file():
        parser.error(f"no record {str(args.db)!r}")
    game = Backgammon()
    records = Records(args.db, "backgammon")
    played = [r for r in records.games() if args.player in (r.first, r.second)][: args.games]
    records.close()
    if not played:
        parser.error(f"{str(args.db)!r} holds no game of {args.player!r}")
    judge = gnubg_judge(args.gnubg)
    errors: list[list[float]] = []
    began = time.perf_counter()
    try:
        for number, record in enumerate(played, 1):
            side = game.players[0] if record.first == args.player else game.players[1]
            state = opening_state(game, record.opening)
            mine: list[float] = []
            for text in record.moves:
                action = game.parse_action(state, text)
                if game.to_move(state) == side:
                    error = judge.error(game, state, action)
                    if error is not None:
                        mine.append(error)
                state = game.result(state, action)
            errors.append(mine)
            rate = 1000 * sum(map(sum, errors)) / max(1, sum(map(len, errors)))
            if sys.stderr.isatty() or number % 10 == 0:
                end = "" if sys.stderr.isatty() else "\n"
                line = f"game {number}/{len(played)}: {rate:.2f}"
                print(f"\r{line}", end=end, file=sys.stderr, flush=True)
    except KeyboardInterrupt:
        print(f"\ninterrupted after {len(errors)} games", file=sys.stderr)
    finally:
        judge.close()
    print(file=sys.stderr)
    report(args.player, errors, time.perf_counter() - began)
    return 0


def report(player: str, errors: list[list[float]], seconds: float) -> None:
    """The error rate, its interval over games, the errors by size and the band."""
    plays = [error for game in errors for error in game]
    rate = 1000 * sum(plays) / len(plays) if plays else math.nan
    # the ratio estimator's standard error over games (each game's sum and count)
    sums = [1000 * sum(game) for game in errors]
    counts = [len(game) for game in errors]
    mean_count = sum(counts) / len(counts)
    residuals = [s - rate * c for s, c in zip(sums, counts, strict=True)]
    spread = math.sqrt(sum(r * r for r in residuals) / max(1, len(residuals) - 1))
    margin = 1.96 * spread / (mean_count * math.sqrt(len(errors)))
    print(f"{player}: {len(errors)} games, {len(plays)} unforced plays analysed by gnubg (2 plies)")
    print(f"  error rate: {rate:.2f} +-{margin:.2f} thousandths a play (95%): {band(rate)}")
    for bound, name in SIZES:
        print(f"  {name} (>= {bound}): {sum(error >= bound for error in plays)}")
    print(f"  exact (gnubg's choice): {sum(error <= 1e-9 for error in plays)}")
    print(f"  {seconds:.0f} s")


if __name__ == "__main__":
    sys.exit(main())
