"""The lecture's tic-tac-toe table: average states checked by minimax and alpha-beta.

Measures, for 3x3 tic-tac-toe with 0, 2, 4, 6 and 8 marks on the board, the average number of
nodes plain minimax and alpha-beta visit (root included) from every distinct reachable
non-terminal position, and prints them beside the figures published in the lecture.

Usage (from the repository root)::

    PYTHONPATH=src python benchmarks/tictactoe_effort.py [--plot FILE.png]
"""

from __future__ import annotations

import argparse
import sys
import time

from plies.errors import PliesError
from plies.games.tictactoe.rules import TicTacToe
from plies.lectures.effort import EffortRow, effort_table, format_effort_table, plot_effort

MARKS = (0, 2, 4, 6, 8)

PUBLISHED: dict[int, tuple[float, float]] = {
    0: (549_946, 29_019),
    2: (7_293, 1_308),
    4: (176.2, 81.8),
    6: (11.0, 9.2),
    8: (1.3, 1.3),
}
"""The lecture's published figures (REFERENCES.md): marks -> (minimax, alpha-beta)."""


def _figure(value: float) -> str:
    return f"{value:,.0f}" if value >= 1000 else f"{value:,.1f}"


def comparison_table(rows: list[EffortRow]) -> str:
    """Measured means beside the lecture's published ones, as aligned text."""
    header = [
        "marks",
        "positions",
        "minimax (measured)",
        "minimax (published)",
        "alpha-beta (measured)",
        "alpha-beta (published)",
    ]
    body = []
    for row in rows:
        published = PUBLISHED.get(row.plies)
        body.append(
            [
                str(row.plies),
                f"{row.positions:,}",
                _figure(row.mean_nodes["minimax"]),
                "-" if published is None else _figure(published[0]),
                _figure(row.mean_nodes["alphabeta"]),
                "-" if published is None else _figure(published[1]),
            ]
        )
    widths = [max(len(line[i]) for line in [header, *body]) for i in range(len(header))]
    lines = ["  ".join(c.rjust(w) for c, w in zip(line, widths, strict=True)) for line in body]
    rule = "  ".join("-" * w for w in widths)
    head = "  ".join(c.rjust(w) for c, w in zip(header, widths, strict=True))
    return "\n".join([head, rule, *lines])


def _measure(game: TicTacToe) -> list[EffortRow]:
    if not sys.stderr.isatty():
        return effort_table(game, MARKS)
    from rich.progress import Progress

    with Progress(transient=True) as bar:
        task = bar.add_task("searching positions", total=None)

        def progress(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        return effort_table(game, MARKS, progress=progress)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="Average nodes visited by minimax and alpha-beta in 3x3 tic-tac-toe, "
        "by number of marks, beside the lecture's published figures."
    )
    parser.add_argument("--plot", metavar="FILE.png", help="also write a log-scale PNG plot")
    args = parser.parse_args(argv)
    if args.plot and not args.plot.lower().endswith(".png"):
        parser.error(f"--plot {args.plot!r}: the plot is a PNG; name a .png file")

    started = time.perf_counter()
    rows = _measure(TicTacToe())
    elapsed = time.perf_counter() - started

    print("3x3 tic-tac-toe: mean nodes visited per distinct non-terminal position")
    print("(full-depth searches, root included; alpha-beta non-strict, moves in cell order)")
    print()
    print(format_effort_table(rows, label="marks"))
    print()
    print("Measured vs the lecture's PUBLISHED figures:")
    print(comparison_table(rows))
    print()
    for row in rows:
        times = ", ".join(f"{name} {seconds:.2f} s" for name, seconds in row.seconds.items())
        print(f"marks {row.plies}: {times}")
    print(f"total time: {elapsed:.2f} s")
    if args.plot:
        try:
            plot_effort(
                rows,
                args.plot,
                label="marks on the board",
                title="3x3 tic-tac-toe: average nodes visited",
            )
        except PliesError as error:
            print(f"tictactoe_effort: error: {error}", file=sys.stderr)
            return 2
        print(f"plot written to {args.plot}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
