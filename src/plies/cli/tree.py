"""plies tree: search an explicit game tree, show every value and what was pruned."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import click
from rich.cells import cell_len

from plies.cli.output import (
    OutputPath,
    echo_json,
    plural,
)
from plies.errors import PliesError
from plies.game import CHANCE
from plies.inputs import read_text
from plies.lectures import ORDERS, parse_tree
from plies.lectures.tree_report import (
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
from plies.lectures.tree_report import trace_lines as tree_trace_lines
from plies.search import ALGORITHMS

ALGORITHM_CHOICE = click.Choice(sorted(ALGORITHMS), case_sensitive=False)


def _read_tree_source(source: str | None) -> str:
    """The tree text from an argument, a file, or standard input ('-' or nothing)."""
    if source is None or source == "-":
        if source is None and sys.stdin.isatty():
            raise PliesError("no tree given: pass it as an argument, a file name, or on stdin")
        return read_text(getattr(sys.stdin, "buffer", sys.stdin), "tree")
    stripped = source.removeprefix("\ufeff").strip()
    if (
        not stripped
        or stripped[:1] in ("(", "[", "{", "#")
        or stripped.lstrip("+-").replace(".", "", 1).isdigit()
    ):
        return source
    path = Path(source)
    if not path.exists():
        raise PliesError(f"no such file: {source!r} (nor is it a tree)")
    return read_text(path, "tree file")


def _columns(rows: list[list[str]]) -> list[str]:
    """Rows as left-aligned columns two spaces apart, never cut or wrapped."""
    widths = [max(cell_len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return [
        "  ".join(
            cell + " " * (width - cell_len(cell)) for cell, width in zip(row, widths, strict=True)
        ).rstrip()
        for row in rows
    ]


def _table(report: TreeReport, with_chance: bool) -> list[str]:
    """Every node's line: its player, path, true and searched values, and alpha-beta windows."""
    header = ["node", "player", "path", "minimax", "searched", "alpha,beta in", "alpha,beta out"]
    if with_chance:
        header[3:4] = ["P", "expectimax"]
    rows = [header]
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
        if with_chance:
            cells[3:3] = ["" if n.probability is None else probability_text(n.probability)]
        rows.append(cells)
    lines = _columns(rows)
    lines[0] = click.style(lines[0], bold=True)  # plain when not a terminal
    return lines


def _who_moves(report: TreeReport) -> str:
    """Who moves first, with the layers' players and the order when they are not the
    defaults."""
    text = f"root {report.root}"
    first = report.layers[0]
    if report.layers != (first, "MIN" if first == "MAX" else "MAX"):
        text += f"; players {', '.join(report.layers)} by layer"
    if report.order == "rtl":
        text += "; children right to left"
    return text


def print_tree_report(report: TreeReport, show_trace: bool) -> None:
    """The text report: a summary, the trace if asked, the cutoffs, and every node's line;
    written in one piece, never cut to the terminal's width."""
    stats = report.stats
    name = ALGORITHM_NAMES.get(report.algorithm, report.algorithm)
    chance_nodes = [n for n in report.nodes if n.player == CHANCE]
    lines = [
        f"{name} ({rule_text(report.rule)}); {_who_moves(report)}; "
        f"{len(report.nodes)} nodes, {report.leaf_count} leaves"
        + (f", {plural(len(chance_nodes), 'chance node')}" if chance_nodes else "")
    ]
    if report.bounds is not None:
        lines.append(bounds_text(report))
    if show_trace:
        lines.append("trace:")
        lines.extend("  " + line for line in tree_trace_lines(report))
    lines.append(f"value: {number(report.value)} (for MAX)")
    if report.pv:
        ends_at_chance = report.node(report.pv).player == CHANCE
        lines.append(
            f"best move: {report.labels(report.best_path)[-1]} (best path "
            f"{list(report.best_path)}); principal variation "
            f"{' -> '.join(report.labels(report.pv))} (child indices {list(report.pv)})"
            + (", up to nature's move" if ends_at_chance else "")
        )
    lines.extend(f"expected value: {expectation_text(report, node)}" for node in chance_nodes)
    lines.append(
        f"visited {plural(stats.nodes, 'node')} ({plural(stats.leaves, 'leaf', 'leaves')} "
        f"evaluated, {plural(stats.cutoffs, 'cutoff')}) in order: "
        f"{' '.join(n.label for n in report.visit_order)}"
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
        lines.append(f"pruned at {node.label} ({branch.player}, {test}): {skipped}")
    lines.append(
        f"pruned leaves: {' '.join(report.pruned_leaf_labels) or 'none'} "
        f"(leaf indices {list(report.pruned_leaves)})"
    )
    lines.extend(_table(report, bool(chance_nodes)))
    click.echo("\n".join(lines))


def _leaf_bounds(ctx: click.Context, param: click.Parameter, text: str | None) -> Any:
    """``--bounds L,U`` as a pair of numbers."""
    if text is None:
        return None
    try:
        lower, upper = (float(part) for part in text.split(","))
    except ValueError:
        raise click.BadParameter(f"{text!r} is not two numbers L,U") from None
    return lower, upper


def _layers(ctx: click.Context, param: click.Parameter, text: str | None) -> Any:
    """``--players max,min,min`` as ("MAX", "MIN", "MIN"), checked by the tree game."""
    return None if text is None else tuple(part.strip().upper() for part in text.split(","))


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
    help="Who moves at the root; the players then alternate.  [default: max]",
)
@click.option(
    "--players",
    "layers",
    metavar="P,P,...",
    callback=_layers,
    help="Who moves in each layer of decision nodes from the root, repeated: max,min,min for "
    "a MAX layer then two MIN layers (a --root must be the first).  [default: max,min]",
)
@click.option(
    "--order",
    type=click.Choice(ORDERS, case_sensitive=False),
    default="ltr",
    show_default=True,
    help="Search children left to right or right to left.",
)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.option("--trace", is_flag=True, help="Print the search's events in order.")
@click.option("--draw", type=OutputPath(), help="Draw the tree to FILE.svg/.png.")
def tree(
    source: str | None,
    algorithm: str | None,
    strict: bool,
    bounds: tuple[float, float] | None,
    root: str | None,
    layers: tuple[str, ...] | None,
    order: str,
    as_json: bool,
    trace: bool,
    draw: Path | None,
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

    --players names the movers layer by layer (UC Berkeley CS188's max,min,min); in JSON a
    decision node may name its own, {"player": "MIN", "children": [...]}. --order rtl
    searches children right to left; labels, paths and leaf indices stay those of the tree
    as written. '#' starts a comment to the end of the line in lists and parentheses; JSON
    takes only whole-line comments. A --draw file is checked before the search; without
    Graphviz the report is printed, then what is missing.
    """
    if draw is not None:
        from plies.lectures.draw import check_drawable, draw_tree

        check_drawable(draw, dot=False)  # without Graphviz the report still comes, then why not
    parsed = parse_tree(_read_tree_source(source))
    report = analyse_tree(
        parsed,
        algorithm and algorithm.lower(),
        strict=strict,
        root=root and root.upper(),
        layers=layers,
        order=order.lower(),
        bounds=bounds,
    )
    if as_json:
        echo_json(report_json(report))
    else:
        print_tree_report(report, trace)
    if draw is not None:
        draw_tree(report, draw)
        if not as_json:
            click.echo(f"drawn to {draw}")
