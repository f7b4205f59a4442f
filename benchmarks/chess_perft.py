"""Chess perft against the published counts: leaves per second of plies, python-chess and Stockfish.

On the same positions (the start, Kiwipete and the Chess Programming Wiki's positions 3 to 6,
"Perft Results", their published counts embedded as :data:`PUBLISHED`) times:

- ``python-chess``: :func:`plies.games.chess.rules.python_perft`, python-chess's move generation
  on one board with push/pop, the last ply counted in bulk (``legal_moves.count()``), at a
  shallower depth (``--python-depth``); the reference of the ratios;
- ``plies kernel``: :meth:`plies.games.chess.rules.Chess.perft`, the compiled Numba kernel
  (:mod:`plies.games.chess.kernel`), also counting the last ply in bulk; the one-time Numba load
  is excluded by a depth-1 perft before any timing;
- ``stockfish``: Stockfish's own ``go perft`` (bulk counting too), a subprocess speaking UCI with
  ``Threads 1``, timed from sending ``go perft`` to reading ``Nodes searched``; skipped, saying
  so, when no Stockfish is found (``--stockfish``, else ``stockfish`` on PATH, else
  ``/usr/games/stockfish``);
- ``generic walk``: :func:`plies.perft.generic_perft` through the formal interface (a new
  immutable state per move, repetition history, draw rules), at a shallow depth.

Each position gets a table: tool, depth, leaves, seconds, leaves per second, that rate over
python-chess's (at python-chess's own, shallower depth) and the check against the published
count. Counts follow the published convention: only checkmate and stalemate end a path. The
machine (cores, CPU model) is printed first. Exits with status 1 if a count differs from the
published one, 130 when interrupted (Ctrl-C), after printing what was counted (a compiled count
cannot be stopped midway: Ctrl-C takes effect when it returns, within seconds at the defaults).

Usage (from the repository root)::

    PYTHONPATH=src python benchmarks/chess_perft.py [--quick] [--start-depth 6]
        [--kiwipete-depth 5] [--depth position4=5 ...] [--python-depth 4]
        [--stockfish-depth D] [--stockfish PATH] [--generic-depth 3]
        [--positions start,kiwipete,...]

``--quick`` runs the kernel and Stockfish at depth 4, python-chess at 3 and the generic walk at 2
(options given explicitly still win).
"""

from __future__ import annotations

import argparse
import os
import platform
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass
from importlib import metadata

import chess

from plies.games.chess.rules import Chess, python_perft
from plies.perft import generic_perft

KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"

FENS = {
    "start": chess.STARTING_FEN,
    "kiwipete": KIWIPETE,
    "position3": "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "position4": "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "position5": "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "position6": "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
}
"""The positions, as FEN (the Chess Programming Wiki, "Perft Results")."""

PUBLISHED = {
    "start": [1, 20, 400, 8902, 197281, 4865609, 119060324, 3195901860],
    "kiwipete": [1, 48, 2039, 97862, 4085603, 193690690, 8031647685],
    "position3": [1, 14, 191, 2812, 43238, 674624, 11030083, 178633661, 3009794393],
    "position4": [1, 6, 264, 9467, 422333, 15833292, 706045033],
    "position5": [1, 44, 1486, 62379, 2103487, 89941194],
    "position6": [1, 46, 2079, 89890, 3894594, 164075551, 6923051137],
}
"""Perft by depth from 0 (REFERENCES.md for the start and Kiwipete; the Chess Programming Wiki,
"Perft Results", for all)."""

KERNEL_DEPTHS = {
    "start": 6,
    "kiwipete": 5,
    "position3": 7,
    "position4": 6,
    "position5": 5,
    "position6": 5,
}
"""Default depth of the compiled kernel (and of Stockfish): about 10^8 leaves each, 7 x 10^8
for position 4."""

QUICK_KERNEL_DEPTH = 4
QUICK_PYTHON_DEPTH = 3
QUICK_GENERIC_DEPTH = 2
PYTHON_DEPTH = 4
GENERIC_DEPTH = 3

PYTHON_CHESS = "python-chess"
KERNEL = "plies kernel (Numba)"
GENERIC = "generic walk"
HEADER = (
    f"  {'tool':<22}  {'depth':>5}  {'leaves':>13}  {'seconds':>8}  {'leaves/s':>13}  "
    f"{'vs python-chess':>15}  check"
)


@dataclass
class Row:
    tool: str
    depth: int
    leaves: int
    seconds: float

    @property
    def rate(self) -> float:
        return self.leaves / self.seconds if self.seconds > 0 else float("inf")


def _check(name: str, depth: int, leaves: int) -> tuple[str, bool]:
    published = PUBLISHED[name]
    expected = published[depth] if depth < len(published) else None
    if expected is None:
        return "unpublished", True
    if leaves == expected:
        return "ok", True
    return f"WRONG (published {expected:,})", False


def _line(name: str, row: Row, reference: Row | None) -> tuple[str, bool]:
    check, ok = _check(name, row.depth, row.leaves)
    ratio = f"{row.rate / reference.rate:>14,.1f}x" if reference else f"{'-':>15}"
    line = (
        f"  {row.tool:<22}  {row.depth:>5}  {row.leaves:>13,}  {row.seconds:>8.3f}  "
        f"{row.rate:>13,.0f}  {ratio}  {check}"
    )
    return line, ok


class Report:
    """Prints the rows as they come, remembers whether every count was right and sums the
    leaves and seconds of each tool."""

    def __init__(self) -> None:
        self.ok = True
        self.totals: dict[str, list[float]] = {}

    def add(self, name: str, row: Row, reference: Row | None) -> None:
        line, ok = _line(name, row, reference)
        print(line, flush=True)
        self.ok &= ok
        total = self.totals.setdefault(row.tool, [0, 0.0])
        total[0] += row.leaves
        total[1] += row.seconds

    def summary(self, positions: int) -> None:
        print(f"all {positions} positions (total leaves / total seconds):")
        rates = {
            tool: leaves / seconds if seconds > 0 else float("inf")
            for tool, (leaves, seconds) in self.totals.items()
        }
        reference = rates.get(PYTHON_CHESS)
        for tool, (leaves, seconds) in self.totals.items():
            ratio = f"{rates[tool] / reference:>14,.1f}x" if reference else f"{'-':>15}"
            print(
                f"  {tool:<22}  {'':>5}  {int(leaves):>13,}  {seconds:>8.3f}  "
                f"{rates[tool]:>13,.0f}  {ratio}"
            )
        fish = [tool for tool in rates if tool.lower().startswith("stockfish")]
        if KERNEL in rates and fish:
            print(
                f"  the kernel counts at {rates[KERNEL] / rates[fish[0]]:.2f}x "
                f"{fish[0]}'s leaves per second"
            )


def _machine() -> str:
    model = "unknown CPU"
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as info:
            for text in info:
                if text.startswith("model name"):
                    model = text.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    cores = os.cpu_count()
    usable = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else cores
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg()) if hasattr(os, "getloadavg") else "?"
    return f"{cores} cores ({usable} usable), {model}; load average {load}"


def _version(package: str) -> str:
    try:
        return metadata.version(package)
    except metadata.PackageNotFoundError:
        return "?"


def _python_chess(board: chess.Board, depth: int) -> int:
    """:func:`python_perft` counted one first move at a time, showing progress on stderr (the
    same pushes and pops as one call)."""
    if depth <= 1:
        return python_perft(board, depth)
    moves = list(board.generate_legal_moves())
    show = sys.stderr.isatty()
    total = 0
    for index, move in enumerate(moves, start=1):
        board.push(move)
        total += python_perft(board, depth - 1)
        board.pop()
        if show:
            print(f"\r  depth {depth}: {index}/{len(moves)} first moves", end="", file=sys.stderr)
    if show:
        print("\r" + " " * 40 + "\r", end="", file=sys.stderr)
    return total


class Stockfish:
    """A Stockfish process spoken to in UCI, one thread. It runs in its own session so that
    Ctrl-C reaches only this script, which then ends it."""

    def __init__(self, path: str) -> None:
        self.process = subprocess.Popen(
            [path],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            bufsize=1,
            start_new_session=True,
        )
        self.name = "stockfish"
        self._send("uci")
        for text in self._lines_until("uciok"):
            if text.startswith("id name "):
                self.name = text[len("id name ") :].strip()
        self._send("setoption name Threads value 1")
        self._ready()

    def _send(self, command: str) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(command + "\n")
        self.process.stdin.flush()

    def _lines_until(self, prefix: str) -> list[str]:
        assert self.process.stdout is not None
        lines = []
        while True:
            text = self.process.stdout.readline()
            if not text:
                raise RuntimeError(f"stockfish ended before {prefix!r}")
            lines.append(text)
            if text.startswith(prefix):
                return lines

    def _ready(self) -> None:
        self._send("isready")
        self._lines_until("readyok")

    def perft(self, fen: str, depth: int) -> tuple[int, float]:
        """The leaves of ``go perft depth`` from ``fen`` and the seconds it took."""
        self._send(f"position fen {fen}")
        self._ready()
        began = time.perf_counter()
        self._send(f"go perft {depth}")
        last = self._lines_until("Nodes searched")[-1]
        seconds = time.perf_counter() - began
        return int(last.split(":", 1)[1]), seconds

    def close(self) -> None:
        if self.process.poll() is None:
            try:
                self._send("quit")
                self.process.wait(timeout=2)
            except (OSError, subprocess.TimeoutExpired):
                self.process.kill()
                self.process.wait()


def _find_stockfish(given: str | None) -> str | None:
    if given:
        return shutil.which(given) or (given if os.access(given, os.X_OK) else None)
    found = shutil.which("stockfish")
    if found:
        return found
    fallback = "/usr/games/stockfish"
    return fallback if os.access(fallback, os.X_OK) else None


def _depth_pair(text: str) -> tuple[str, int]:
    name, _, depth = text.partition("=")
    if name not in FENS or not depth.isdigit() or int(depth) < 1:
        raise argparse.ArgumentTypeError(
            f"expected NAME=DEPTH with NAME one of {', '.join(FENS)} and DEPTH at least 1"
        )
    return name, int(depth)


def _positions(text: str) -> list[str]:
    names = [name.strip() for name in text.split(",") if name.strip()]
    unknown = [name for name in names if name not in FENS]
    if unknown or not names:
        raise argparse.ArgumentTypeError(
            f"unknown position(s) {', '.join(unknown) or '(none)'}: choose from {', '.join(FENS)}"
        )
    return names


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        description="Chess perft against the published counts: plies' compiled kernel, "
        "python-chess and Stockfish in leaves per second."
    )
    parser.add_argument(
        "--quick",
        action="store_true",
        help=f"short run: kernel and Stockfish depth {QUICK_KERNEL_DEPTH}, python-chess "
        f"{QUICK_PYTHON_DEPTH}, generic walk {QUICK_GENERIC_DEPTH}",
    )
    parser.add_argument(
        "--positions",
        type=_positions,
        default=list(FENS),
        help=f"comma-separated subset of {','.join(FENS)} (all)",
    )
    parser.add_argument(
        "--start-depth", type=int, help=f"kernel depth from the start ({KERNEL_DEPTHS['start']})"
    )
    parser.add_argument(
        "--kiwipete-depth", type=int, help=f"kernel depth of Kiwipete ({KERNEL_DEPTHS['kiwipete']})"
    )
    parser.add_argument(
        "--depth",
        type=_depth_pair,
        action="append",
        default=[],
        metavar="NAME=DEPTH",
        help="kernel depth of one position, repeatable (defaults: "
        + ", ".join(f"{name} {depth}" for name, depth in KERNEL_DEPTHS.items())
        + ")",
    )
    parser.add_argument(
        "--python-depth", type=int, help=f"python-chess depth ({PYTHON_DEPTH}; 0 skips)"
    )
    parser.add_argument(
        "--stockfish-depth", type=int, help="Stockfish depth (the kernel's; 0 skips Stockfish)"
    )
    parser.add_argument("--stockfish", help="the Stockfish executable (stockfish on PATH)")
    parser.add_argument(
        "--generic-depth",
        type=int,
        help=f"depth of the generic formal-interface walk ({GENERIC_DEPTH}; 0 skips)",
    )
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    base = QUICK_KERNEL_DEPTH if args.quick else None
    kernel_depths = {name: base or depth for name, depth in KERNEL_DEPTHS.items()}
    if args.start_depth is not None:
        kernel_depths["start"] = args.start_depth
    if args.kiwipete_depth is not None:
        kernel_depths["kiwipete"] = args.kiwipete_depth
    kernel_depths.update(dict(args.depth))
    python_depth = args.python_depth
    if python_depth is None:
        python_depth = QUICK_PYTHON_DEPTH if args.quick else PYTHON_DEPTH
    generic_depth = args.generic_depth
    if generic_depth is None:
        generic_depth = QUICK_GENERIC_DEPTH if args.quick else GENERIC_DEPTH
    if min(kernel_depths.values()) < 1:
        parser.error("kernel depths must be at least 1")
    if min(python_depth, generic_depth) < 0 or (args.stockfish_depth or 0) < 0:
        parser.error("--python-depth, --stockfish-depth and --generic-depth must be at least 0")

    print(f"machine: {_machine()}")
    print(
        f"Python {platform.python_version()}, numba {_version('numba')}, "
        f"python-chess {_version('chess')}"
    )
    game = Chess()
    began = time.perf_counter()
    game.perft(game.initial_state(), 1)  # the one-time Numba load (or compilation), not timed
    loaded = time.perf_counter() - began
    print(f"kernel load (a depth-1 perft, excluded from the timings): {loaded:.2f} s")

    stockfish: Stockfish | None = None
    if args.stockfish_depth != 0:
        path = _find_stockfish(args.stockfish)
        if path is None:
            looked = args.stockfish or "stockfish on PATH, /usr/games/stockfish"
            print(f"stockfish: not found ({looked}); its rows are skipped")
        else:
            stockfish = Stockfish(path)
            print(f"stockfish: {stockfish.name} ({path}), go perft with Threads 1")
    print(
        "The kernel, python-chess and Stockfish all count the last ply in bulk (the number of "
        "legal moves, not played);\nthe generic walk plays every ply but the last through the "
        "formal interface. Ratios are leaves/s over python-chess's,\nwhose depth is shallower: "
        "deeper trees have more leaves per generated position."
    )
    print()

    report = Report()
    try:
        for name in args.positions:
            fen = FENS[name]
            state = game.parse_position(fen)
            depth = kernel_depths[name]
            print(f"{name}: {fen}")
            print(HEADER)
            reference: Row | None = None

            if python_depth > 0:
                board = chess.Board(fen)
                began = time.perf_counter()
                leaves = _python_chess(board, python_depth)
                reference = Row(PYTHON_CHESS, python_depth, leaves, time.perf_counter() - began)
                report.add(name, reference, reference)

            began = time.perf_counter()
            leaves = game.perft(state, depth)
            row = Row(KERNEL, depth, leaves, time.perf_counter() - began)
            report.add(name, row, reference)

            if stockfish is not None:
                sf_depth = args.stockfish_depth or depth
                leaves, seconds = stockfish.perft(fen, sf_depth)
                report.add(name, Row(stockfish.name, sf_depth, leaves, seconds), reference)

            if generic_depth > 0:
                began = time.perf_counter()
                leaves = generic_perft(game, state, generic_depth)
                row = Row(GENERIC, generic_depth, leaves, time.perf_counter() - began)
                report.add(name, row, reference)
            print()
    except KeyboardInterrupt:
        print("\ninterrupted: the rows above are complete", file=sys.stderr)
        return 130
    finally:
        if stockfish is not None:
            stockfish.close()

    if len(args.positions) > 1:
        report.summary(len(args.positions))
    print(
        "every count equals the published one"
        if report.ok
        else "SOME COUNT DIFFERS FROM THE PUBLISHED ONE"
    )
    return 0 if report.ok else 1


if __name__ == "__main__":
    sys.exit(main())
