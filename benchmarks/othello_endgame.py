"""The FFO endgame suite (#40 to #59) solved exactly by plies' Othello solver, one core.

Each position of ``$PLIES_SHARED/data/othello/fforum-40-59.obf`` (default ``PLIES_SHARED``:
``<repo>/../shared``) is decided with the table emptied first: its exact score and the moves
that keep it must be the file's score and moves it scores best. Prints a row per position (empties,
score, best moves, time, positions, positions per second, right or WRONG) with the published
figures of ``REFERENCES.md`` beside it (Edax 4.5.5's positions, Novello's single-threaded
times), then the totals. Exits 1 on any wrong answer.

Resumable: each finished position is appended to ``--results`` (JSON lines; default
``benchmarks/results/othello_endgame.jsonl``, outside git) and skipped by the next run of
the same solver; Ctrl-C stops between positions or in one (that one is not kept).

``--without etc,stability`` measures the solver without some of its techniques (the
switches of :mod:`plies.games.othello.solver_kernel`), compiled afresh in a private Numba
cache: one rung of the ladder of techniques (its results are kept apart).

Usage (from the repository root)::

    PYTHONPATH=src .venv/bin/python benchmarks/othello_endgame.py [--positions 40-49]
        [--without TECHNIQUE,...] [--results FILE] [--fresh]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("PLIES_SHARED", REPO.parent / "shared"))
SUITE = SHARED / "data" / "othello" / "fforum-40-59.obf"
TECHNIQUES = ("pvs", "fastest_first", "search_order", "parity", "table", "etc", "stability")
TECHNIQUES += ("last_flip", "eval_order", "corner_order", "few_empties")

EDAX_NODES = {40: 11.0e6, 41: 24.0e6, 42: 30.4e6, 43: 94.9e6, 44: 23.8e6, 45: 270e6, 49: 438e6}
EDAX_NODES |= {54: 3.07e9, 55: 4.19e9, 56: 11.7e9}
"""Edax 4.5.5's positions per FFO position (REFERENCES.md)."""
NOVELLO_SECONDS = {40: 1.4, 45: 22.9, 50: 88.9}
"""Novello's single-threaded times (REFERENCES.md)."""


def numbers(text: str) -> list[int]:
    """``40-49`` or ``40,45,50`` as position numbers within 40..59."""
    found: list[int] = []
    for part in text.split(","):
        low, _, high = part.partition("-")
        found += range(int(low), int(high or low) + 1)
    if not found or min(found) < 40 or max(found) > 59:
        raise SystemExit(f"--positions {text!r}: numbers from 40 to 59")
    return found


def expected(line: str) -> tuple[int, set[str]]:
    """The file's best score and the moves it gives that score."""
    scored = [field.split(":") for field in line.split(";")[1:] if ":" in field]
    best = max(int(score) for _, score in scored)
    return best, {move.strip().lower() for move, score in scored if int(score) == best}


def solve_one(number: int, line: str) -> dict[str, Any]:
    """Decide FFO position ``number`` afresh; its row as JSON."""
    from plies.games.othello import Othello
    from plies.games.othello.solver import OthelloSolver

    game = Othello()
    solver = OthelloSolver(game)
    state = game.parse_position(line)
    began = time.perf_counter()
    decision = solver.decide(state)
    seconds = time.perf_counter() - began
    best = sorted(game.format_action(state, move) for move in decision.moves)
    score, right_moves = expected(line)
    return {
        "number": number,
        "empties": 64 - (state.black | state.white).bit_count(),
        "score": decision.score,
        "best": best,
        "expected": score,
        "expected_best": sorted(right_moves),
        "right": decision.score == score and set(best) <= right_moves and bool(best),
        "seconds": round(seconds, 3),
        "nodes": decision.nodes,
    }


def row(result: dict[str, Any]) -> str:
    number, rate = result["number"], result["nodes"] / max(result["seconds"], 1e-9)
    edax = EDAX_NODES.get(number)
    novello = NOVELLO_SECONDS.get(number)
    return (
        f"#{number}  {result['empties']:>2}  {result['score']:+3d} {','.join(result['best']):<8}"
        f"{result['seconds']:>9.2f} s {result['nodes'] / 1e6:>9.1f} M {rate / 1e6:>5.1f} M/s"
        f"  {'right' if result['right'] else 'WRONG (file: ' + str(result['expected']) + ')'}"
        f"  | Edax {'-' if edax is None else f'{edax / 1e6:.1f} M':>8}"
        f"  Novello {'-' if novello is None else f'{novello:.1f} s':>6}"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", default="40-59", help="e.g. 40-49 or 40,45")
    parser.add_argument("--without", default="", help=f"switch off: {', '.join(TECHNIQUES)}")
    parser.add_argument("--results", help="the JSON-lines file of finished positions")
    parser.add_argument("--fresh", action="store_true", help="forget earlier results")
    args = parser.parse_args(argv)
    if not SUITE.exists():
        print(f"{SUITE} not found (set PLIES_SHARED to the shared folder)", file=sys.stderr)
        return 2
    without = [t for t in args.without.split(",") if t]
    unknown = [t for t in without if t not in TECHNIQUES]
    if unknown:
        print(f"unknown technique {unknown[0]!r}: {', '.join(TECHNIQUES)}", file=sys.stderr)
        return 2
    if without:
        os.environ["NUMBA_CACHE_DIR"] = tempfile.mkdtemp(prefix="plies-othello-")
        from plies.games.othello import solver_kernel as kernel

        for technique in without:
            setattr(kernel, technique.upper(), False)
    name = "othello_endgame" + "".join(f"-no-{t}" for t in without) + ".jsonl"
    results = Path(args.results or REPO / "benchmarks" / "results" / name)
    results.parent.mkdir(parents=True, exist_ok=True)
    if args.fresh:
        results.unlink(missing_ok=True)
    done = {}
    if results.exists():
        for text in results.read_text().splitlines():
            kept = json.loads(text)
            done[kept["number"]] = kept
    lines = SUITE.read_text().splitlines()
    print(f"FFO endgame suite, {SUITE.name}; without: {', '.join(without) or 'nothing'}")
    print("#   empties score best    time        positions  speed     | published")
    finished: list[dict[str, Any]] = []
    try:
        for number in numbers(args.positions):
            result = done.get(number)
            if result is None:
                result = solve_one(number, lines[number - 40])
                with results.open("a") as out:
                    out.write(json.dumps(result) + "\n")
            finished.append(result)
            print(row(result), flush=True)
    except KeyboardInterrupt:
        print("interrupted: the positions above are kept; run again to go on", file=sys.stderr)
    if finished:
        total = sum(r["seconds"] for r in finished)
        nodes = sum(r["nodes"] for r in finished)
        wrong = sum(not r["right"] for r in finished)
        print(
            f"{len(finished)} positions, {wrong} wrong: {total:,.1f} s, {nodes / 1e6:,.0f} M "
            f"positions, {nodes / max(total, 1e-9) / 1e6:.1f} M/s"
        )
        return 1 if wrong else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
