"""plies tree: search an explicit game tree, show every value and what was pruned."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import click
from rich.table import Table
from rich.text import Text

from plies.cli.output import (
    console,
    echo_json,
    plural,
)
from plies.errors import PliesError
from plies.game import CHANCE
from plies.games.tree import parse_tree
from plies.search import ALGORITHMS
from plies.trees import (
    ALGORITHM_NAMES,
    TreeReport,
    analyse_tree,
    bounds_text,
    expectation_text,
    number,
    probability_text,
    report_json,
    rule_text,
    searched_text,
)
from plies.trees import trace_lines as tree_trace_lines

ALGORITHM_CHOICE = click.Choice(sorted(ALGORITHMS), case_sensitive=False)


def _read_tree_source(source: str | None) -> str:
    """The tree text from an argument, a file, or standard input ('-' or nothing)."""
    if source is None or source == "-":
        if source is None and sys.stdin.isatty():
            raise PliesError("no tree given: pass it as an argument, a file name, or on stdin")
        return sys.stdin.read()
    stripped = source.strip()
    if (
        not stripped
        or stripped[:1] in ("(", "[", "{")
        or stripped.lstrip("+-").replace(".", "", 1).isdigit()
    ):
        return source
    path = Path(source)
    if not path.exists():
        raise PliesError(f"no such file: {source!r} (nor is it a tree)")
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise PliesError(f"cannot read {source!r}: {error}") from None


def print_tree_report(report: TreeReport, show_trace: bool) -> None:
    out = console()
    stats = report.stats
    name = ALGORITHM_NAMES.get(report.algorithm, report.algorithm)
    chance_nodes = [n for n in report.nodes if n.player == CHANCE]
    out.print(
        f"{name} ({rule_text(report.rule)}); root {report.root}; "
        f"{len(report.nodes)} nodes, {report.leaf_count} leaves"
        + (f", {plural(len(chance_nodes), 'chance node')}" if chance_nodes else ""),
        markup=False,
    )
    if report.bounds is not None:
        out.print(bounds_text(report), markup=False)
    if show_trace:
        out.print("trace:", markup=False)
        for line in tree_trace_lines(report):
            out.print("  " + line, markup=False)
    out.print(f"value: {number(report.value)} (for MAX)", markup=False)
    if report.pv:
        ends_at_chance = report.node(report.pv).player == CHANCE
        out.print(
            f"best move: {report.labels(report.best_path)[-1]} (best path "
            f"{list(report.best_path)}); principal variation "
            f"{' -> '.join(report.labels(report.pv))} (child indices {list(report.pv)})"
            + (", up to nature's move" if ends_at_chance else ""),
            markup=False,
        )
    for node in chance_nodes:
        out.print(f"expected value: {expectation_text(report, node)}", markup=False)
    out.print(
        f"visited {plural(stats.nodes, 'node')} ({plural(stats.leaves, 'leaf', 'leaves')} "
        f"evaluated, {plural(stats.cutoffs, 'cutoff')}) in order: "
        f"{' '.join(n.label for n in report.visit_order)}",
        markup=False,
    )
    for branch in report.pruned_branches:
        node = report.node(branch.path)
        if branch.player == CHANCE:
            test = (
                f"expected value <= {number(branch.value)} <= alpha={number(branch.alpha)}"
                if branch.value <= branch.alpha
                else f"expected value >= {number(branch.value)} >= beta={number(branch.beta)}"
            )
        elif branch.player == "MAX":
            test = f"v={number(branch.value)} >= beta={number(branch.beta)}"
        else:
            test = f"v={number(branch.value)} <= alpha={number(branch.alpha)}"
        skipped = ", ".join(report.node(p).label for p in branch.skipped)
        out.print(f"pruned at {node.label} ({branch.player}, {test}): {skipped}", markup=False)
    pruned = [n.label for n in report.nodes if n.leaf_index is not None and n.pruned]
    out.print(
        f"pruned leaves: {' '.join(pruned) or 'none'} (leaf indices {list(report.pruned_leaves)})",
        markup=False,
    )
    table = Table(show_edge=False, pad_edge=False, box=None, header_style="bold")
    columns = ["node", "player", "path", "minimax", "searched", "alpha,beta in", "alpha,beta out"]
    if chance_nodes:
        columns[3:3] = ["P"]
        columns[4] = "expectimax"
    for column in columns:
        table.add_column(column)
    for n in report.nodes:
        window_in = "" if n.alpha_in is None else f"{number(n.alpha_in)}, {number(n.beta_in)}"
        window_out = "" if n.alpha_out is None else f"{number(n.alpha_out)}, {number(n.beta_out)}"
        cells = [
            n.label,
            n.player,
            ".".join(map(str, n.path)) or "root",
            number(n.minimax),
            searched_text(n),
            window_in,
            window_out,
        ]
        if chance_nodes:
            cells[3:3] = ["" if n.probability is None else probability_text(n.probability)]
        table.add_row(*(Text(c) for c in cells))
    out.print(table)


def _leaf_bounds(ctx: click.Context, param: click.Parameter, text: str | None) -> Any:
    """``--bounds L,U`` as a pair of numbers."""
    if text is None:
        return None
    try:
        lower, upper = (float(part) for part in text.split(","))
    except ValueError:
        raise click.BadParameter(f"{text!r} is not two numbers L,U") from None
    return lower, upper


@click.command()
@click.argument("source", required=False)
@click.option(
    "--algorithm",
    "-a",
    type=ALGORITHM_CHOICE,
    help="[default: alphabeta, or expectiminimax for a tree with chance nodes]",
)
@click.option("--strict", is_flag=True, help="Prune only on v > beta / v < alpha.")
@click.option(
    "--bounds",
    metavar="L,U",
    callback=_leaf_bounds,
    help="Star1: every leaf value lies in [L, U]  [default: the leaves' range]",
)
@click.option(
    "--root",
    type=click.Choice(["max", "min"], case_sensitive=False),
    default="max",
    show_default=True,
    help="Who moves at the root.",
)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.option("--trace", is_flag=True, help="Print the search's events in order.")
@click.option("--draw", type=click.Path(dir_okay=False), help="Draw the tree to FILE.svg/.png.")
def tree(
    source: str | None,
    algorithm: str | None,
    strict: bool,
    bounds: tuple[float, float] | None,
    root: str,
    as_json: bool,
    trace: bool,
    draw: str | None,
) -> None:
    """Search an explicit game tree and show every node's value and what was pruned.

    SOURCE is the tree itself, a file holding it, or '-' (default: standard input):
    nested lists [[3,12,8],[2,4,6],[14,5,2]], parentheses ((3 12 8) (2 4 6) (14 5 2)), or JSON
    {"label": "A", "children": [...]} with {"label": "b1", "value": 3} leaves.

    Chance nodes give each child after its probability (a decimal or n/d; they sum to 1):
    {0.5: [3, 12], 0.5: [2, 4]} in lists and parentheses, {roll 1/6: (B 3 12) 5/6: c2=7}
    with a label, and {"chance": [{"probability": 0.5, "value": 3}, ...]} in JSON. They take
    no turn (MAX, chance, MIN, chance, MAX...; --root names the first player to move). Such
    trees are searched by expectiminimax, or with --algorithm star1 by Ballard's Star1, which
    prunes with alpha-beta and with bounds on the leaf values (--bounds).
    """
    parsed = parse_tree(_read_tree_source(source))
    report = analyse_tree(
        parsed,
        algorithm and algorithm.lower(),
        strict=strict,
        root=root.upper(),
        bounds=bounds,
    )
    if draw is not None:
        from plies.draw import draw_tree

        draw_tree(report, draw)
    if as_json:
        echo_json(report_json(report))
    else:
        print_tree_report(report, trace)
        if draw is not None:
            click.echo(f"drawn to {draw}")
