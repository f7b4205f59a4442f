"""Pascal Pons's Connect Four benchmark sets, solved by the compiled perfect-play solver.

Each set (``$PLIES_SHARED/data/connect4``, default ``PLIES_SHARED``: ``<repo>/../shared``) has
1000 lines ``moves score``. Every position is solved strongly with the table emptied first, as
Pons measures, and its score checked. Prints per set: positions, mean and max time, mean
positions explored (calls of the recursive search, null-window iterations included), positions
per second, and Pons's published mean time and positions (REFERENCES.md) beside ours. First it
times a fresh process's first solve twice, with an empty Numba cache (compiling) and then with
the cache that run wrote (loading). Exits 1 on any wrong score.

begin-hard takes seconds per position, so it is limited to ``--hard-limit`` (50) positions
unless ``--all`` is given. A progress bar runs per set; Ctrl-C prints the set's row so far and
stops.

``--without table,threat_order`` measures the solver without some of its techniques (the
switches of :mod:`plies.games.connect4.solver_kernel`), compiled afresh in a private Numba
cache: one rung of the ladder of techniques.

Usage (from the repository root)::

    PYTHONPATH=src .venv/bin/python benchmarks/connect4_solver.py [--sets end-easy,begin-easy]
        [--limit N] [--offset N] [--all] [--hard-limit 50] [--entries 8388608] [--weak]
        [--without TECHNIQUE,...]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from plies.games.connect4.rules import ConnectFour
from plies.games.connect4.solver import DEFAULT_ENTRIES, Connect4Solver
from plies.solvers.sets import read_set, solve_set

REPO = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("PLIES_SHARED", REPO.parent / "shared"))

TECHNIQUES = ("table", "null_window", "centre_first", "threat_order", "hash_move", "two_tier")
TECHNIQUES += ("prefetch",)

SETS = {  # name: (file, Pons's mean time in seconds, Pons's mean positions)
    "end-easy": ("Test_L3_R1", 4.6e-6, 51.3),
    "middle-easy": ("Test_L2_R1", 37e-6, 449.6),
    "middle-medium": ("Test_L2_R2", 3.2e-3, 39_900),
    "begin-easy": ("Test_L1_R1", 255e-6, 3_298),
    "begin-medium": ("Test_L1_R2", 97e-3, 1_201_000),
    "begin-hard": ("Test_L1_R3", 5.5, 65_920_000),
}

FIRST_CALL = """
import time
began = time.perf_counter()
from plies.games.connect4.rules import ConnectFour
from plies.games.connect4.solver import Connect4Solver
game = ConnectFour()
Connect4Solver(game).solve(game.parse_position("4455"))
print(time.perf_counter() - began)
"""


def seconds(value: float) -> str:
    """A duration with a unit that keeps 3 significant figures readable."""
    if value < 1e-3:
        return f"{value * 1e6:.1f} us"
    if value < 1:
        return f"{value * 1e3:.2f} ms"
    return f"{value:.2f} s"


def first_call(cache: str) -> float:
    """Seconds to import, compile or load, and run one solve, in a fresh interpreter whose
    Numba cache is the folder ``cache``."""
    env = dict(os.environ, PYTHONPATH=str(REPO / "src"), NUMBA_CACHE_DIR=cache)
    out = subprocess.run(
        [sys.executable, "-c", FIRST_CALL], env=env, capture_output=True, text=True, check=True
    )
    return float(out.stdout)


def switch_off(techniques: list[str], cache: str) -> None:
    """Compile the solver without ``techniques``, into and from the Numba cache ``cache``
    (before the kernel is first imported: Numba reads its settings then)."""
    os.environ["NUMBA_CACHE_DIR"] = cache
    from plies.games.connect4 import solver_kernel as kernel

    for technique in techniques:
        setattr(kernel, technique.upper(), False)


def solve_lines(
    solver: Connect4Solver, game: ConnectFour, lines: list[str], name: str, weak: bool
) -> tuple[list[float], list[int], int, bool]:
    """Solve each ``moves score`` line with the library's :func:`solve_set` under a progress
    bar: (times, nodes, wrong scores and bad lines, interrupted)."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

    times: list[float] = []
    nodes: list[int] = []
    wrong = 0
    columns = (TextColumn(name), BarColumn(), MofNCompleteColumn())
    console = Console(stderr=True)
    with Progress(
        *columns, console=console, transient=True, disable=not console.is_terminal
    ) as progress:
        task = progress.add_task(name, total=len(lines))
        try:
            for result in solve_set(solver, read_set(game, lines), weak):
                solution = result.solution
                if solution is None or not result.agrees:
                    wrong += 1
                    found = result.entry.error if solution is None else solution.score
                    progress.console.print(f"WRONG: {result.entry.moves}: {found}")
                if solution is not None:
                    times.append(solution.time)
                    nodes.append(solution.nodes)
                progress.advance(task)
        except KeyboardInterrupt:
            return times, nodes, wrong, True
    return times, nodes, wrong, False


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sets", default=",".join(SETS), help="comma-separated set names")
    parser.add_argument("--limit", type=int, help="positions per set (default: all 1000)")
    parser.add_argument("--offset", type=int, default=0, help="skip the first N lines of a set")
    parser.add_argument("--all", action="store_true", help="all of begin-hard too")
    parser.add_argument("--hard-limit", type=int, default=50, help="begin-hard positions")
    parser.add_argument("--entries", type=int, default=DEFAULT_ENTRIES, help="table slots")
    parser.add_argument("--weak", action="store_true", help="weak solve (check signs only)")
    parser.add_argument(
        "--without", default="", help=f"techniques to switch off: {', '.join(TECHNIQUES)}"
    )
    args = parser.parse_args(argv)
    names = args.sets.split(",")
    unknown = [n for n in names if n not in SETS]
    if unknown:
        parser.error(f"unknown set(s) {', '.join(unknown)}; choose from {', '.join(SETS)}")
    without = [t for t in args.without.split(",") if t]
    unknown = [t for t in without if t not in TECHNIQUES]
    if unknown:
        parser.error(f"unknown technique(s) {', '.join(unknown)}; choose from {TECHNIQUES}")

    with tempfile.TemporaryDirectory() as cache:
        if without:
            switch_off(without, cache)
            print(f"without: {', '.join(without)} (compiled afresh)")
        else:
            cold, warm = first_call(cache), first_call(cache)
            print(
                f"first solve in a fresh process, import included: {cold:.2f} s compiling "
                f"(empty Numba cache), {warm:.2f} s loading the cache"
            )
        game = ConnectFour()
        solver = Connect4Solver(game, args.entries, book=False)  # the search alone
        return run_sets(solver, game, names, args)


def run_sets(
    solver: Connect4Solver, game: ConnectFour, names: list[str], args: argparse.Namespace
) -> int:
    """Solve the sets ``names`` and print a row per set; the exit status."""
    print(
        f"table: {solver.entries:,} slots ({solver.entries * 8 / 2**20:.0f} MiB), emptied "
        f"per position; {'weak' if args.weak else 'strong'} solve"
    )
    print()
    header = (
        f"{'set':<14} {'positions':>9} {'mean time':>10} {'max time':>10} {'mean nodes':>12} "
        f"{'nodes/s':>11} | {'Pons time':>9} {'Pons nodes':>11}"
    )
    print(header)
    print("-" * len(header))
    wrong = 0
    notes = []
    for name in names:
        filename, pons_time, pons_nodes = SETS[name]
        path = SHARED / "data" / "connect4" / filename
        if not path.is_file():
            print(f"{name:<14} skipped: {path} not found (set PLIES_SHARED)")
            continue
        lines = [line for line in path.read_text().split("\n") if line.strip()][args.offset :]
        limit = args.limit
        if name == "begin-hard" and not args.all:
            limit = min(limit or len(lines), args.hard_limit)
            notes.append(f"begin-hard: {limit} positions only (--all for every one)")
        times, nodes, wrong_here, interrupted = solve_lines(
            solver, game, lines[:limit], name, args.weak
        )
        wrong += wrong_here
        count = len(times)
        if count:
            total = sum(times)
            print(
                f"{name:<14} {count:>9} {seconds(total / count):>10} {seconds(max(times)):>10} "
                f"{sum(nodes) / count:>12,.1f} {sum(nodes) / total:>11,.0f} | "
                f"{seconds(pons_time):>9} {pons_nodes:>11,}",
                flush=True,
            )
        if interrupted:
            print(f"interrupted in {name}: the row above covers the positions solved")
            return 130
    for note in notes:
        print(note)
    if wrong:
        print(f"{wrong} wrong score(s)", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    started = time.perf_counter()
    code = main()
    print(f"total {time.perf_counter() - started:.1f} s")
    sys.exit(code)
