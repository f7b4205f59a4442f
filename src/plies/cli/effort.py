"""plies effort: the lecture's table of nodes visited by moves already played."""

from __future__ import annotations

import sys
from pathlib import Path

import click
from rich.console import Console

from plies.cli.output import (
    OutputPath,
    echo_json,
)
from plies.errors import PliesError
from plies.registry import make_game


def _integers(text: str, what: str) -> list[int]:
    try:
        return [int(part) for part in text.replace(" ", "").split(",") if part]
    except ValueError:
        raise PliesError(f"{what} must be integers separated by commas, not {text!r}") from None


@click.command()
@click.argument("game_spec", metavar="GAME")
@click.option(
    "--plies",
    "plies_text",
    default="0,2,4,6,8",
    show_default=True,
    help="Moves already played (marks on the board), comma-separated.",
)
@click.option("--algorithms", default="minimax,alphabeta", show_default=True)
@click.option("--plot", type=OutputPath(), help="Also plot the table to FILE.png.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def effort(
    game_spec: str, plies_text: str, algorithms: str, plot: Path | None, as_json: bool
) -> None:
    """The lecture's table: average nodes each algorithm visits, by moves already played.

    Averages over every distinct reachable non-terminal position with that many moves played;
    for tic-tac-toe, the marks on the board. The --plot file is checked before the searches;
    should writing it still fail, the table is printed first.
    """
    from rich.progress import Progress

    from plies.lectures.effort import (
        EffortRow,
        check_plottable,
        effort_rows,
        format_effort_table,
        plot_effort,
    )

    if plot is not None:
        check_plottable(plot)
    game = make_game(game_spec)
    names = [name.strip().lower() for name in algorithms.split(",") if name.strip()]
    with Progress(
        console=Console(stderr=True), transient=True, disable=not sys.stderr.isatty()
    ) as bar:
        task = bar.add_task("searching positions", total=None)
        rows: list[EffortRow] = []
        searches = effort_rows(
            game,
            _integers(plies_text, "--plies"),
            names,
            progress=lambda done, total: bar.update(task, completed=done, total=total),
        )
        interrupted = False
        try:
            rows.extend(searches)
        except KeyboardInterrupt:
            interrupted = True
    if as_json:
        echo_json(
            {
                "game": game_spec,
                "complete": not interrupted,
                "rows": [
                    {
                        "plies": r.plies,
                        "positions": r.positions,
                        "mean_nodes": r.mean_nodes,
                        "total_nodes": r.total_nodes,
                        "seconds": r.seconds,
                    }
                    for r in rows
                ],
            }
        )
    else:
        click.echo(format_effort_table(rows))
    if plot is not None and rows:
        plot_effort(rows, plot, title=f"{game_spec}: mean nodes visited")
        if not as_json:
            click.echo(f"plotted to {plot}")
    if interrupted:
        click.echo(
            "plies: interrupted; the rows shown are complete, the rest were not run", err=True
        )
        sys.exit(130)
