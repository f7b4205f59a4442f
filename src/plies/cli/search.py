"""plies search: the engine (one line per iteration) or MCTS on a position."""

from __future__ import annotations

import math
import sys
from dataclasses import replace
from typing import Any

import click

from plies.cli.output import (
    echo_json,
    game_and_state,
    json_number,
    line_notation,
)
from plies.errors import PliesError
from plies.search import SearchResult
from plies.search.engine import EngineOptions, Limits, Report, iterate


def _score_text(report: Report[Any]) -> str:
    """``+0.158``, or ``win in 3`` / ``loss in 2`` (plies) for a forced result."""
    if math.isnan(report.score):
        return "?"
    mate = report.mate
    if mate is None:
        return f"{report.score:+.3f}"
    return f"win in {mate}" if mate > 0 else f"loss in {-mate}"


@click.command("search")
@click.argument("game_spec", metavar="GAME")
@click.argument("position", required=False)
@click.option("--depth", type=click.IntRange(min=1), help="Search to this depth.")
@click.option(
    "--time",
    "seconds",
    type=click.FloatRange(min=0, min_open=True),
    help="Search for this many seconds.",
)
@click.option("--nodes", type=click.IntRange(min=1), help="Search this many nodes.")
@click.option(
    "--tt",
    "tt_mb",
    type=click.FloatRange(min=0),
    default=EngineOptions.tt_mb,
    show_default=True,
    help="Transposition table size in MB (0: none).",
)
@click.option(
    "--algorithm",
    "-a",
    type=click.Choice(["engine", "mcts"], case_sensitive=False),
    default="engine",
    show_default=True,
    help="The engine (iterative deepening) or Monte Carlo tree search.",
)
@click.option("--iterations", type=click.IntRange(min=1), help="MCTS: run this many iterations.")
@click.option("--c", "exploration", type=float, help="MCTS: the exploration constant.")
@click.option("--seed", type=int, default=None, help="MCTS: seed of playouts and dice.")
@click.option("--json", "as_json", is_flag=True, help="Print one final JSON object.")
def search_command(
    game_spec: str,
    position: str | None,
    depth: int | None,
    seconds: float | None,
    nodes: int | None,
    tt_mb: float,
    algorithm: str,
    iterations: int | None,
    exploration: float | None,
    seed: int | None,
    as_json: bool,
) -> None:
    """Search GAME from its start or POSITION with the engine, one line per iteration, or with
    MCTS (--algorithm mcts), one line per 1000 iterations and every root move's visits.

    Give at least one limit: --depth, --time or --nodes for the engine (any reached ends the
    search); --iterations or --time for MCTS.
    """
    if algorithm.lower() == "mcts":
        if depth is not None or nodes is not None:
            raise PliesError("mcts takes --iterations and --time, not --depth or --nodes")
        if iterations is None and seconds is None:
            raise click.UsageError("give a limit: --iterations N or --time S")
        game, state = game_and_state(game_spec, position)
        _search_mcts(game, state, iterations, seconds, exploration, seed, as_json)
        return
    for flag, given in (("--iterations", iterations), ("--c", exploration), ("--seed", seed)):
        if given is not None:
            raise PliesError(f"{flag} is an MCTS option: add --algorithm mcts")
    if depth is None and seconds is None and nodes is None:
        raise click.UsageError("give a limit: --depth D, --time S or --nodes N")
    game, state = game_and_state(game_spec, position)
    limits = Limits(depth=depth, nodes=nodes, time=seconds)
    final: Report[Any] | None = None
    interrupted = False
    try:
        for report in iterate(game, state, limits, replace(EngineOptions(), tt_mb=tt_mb)):
            final = report
            if not as_json:
                line = line_notation(game, state, report.pv)
                click.echo(
                    f"depth {report.depth:>2}{'' if report.complete else '*'}  "
                    f"score {_score_text(report):>10}  nodes {report.nodes:>10,}  "
                    f"nps {report.nps:>9,.0f}  time {report.time:7.3f}  "
                    f"pv {' '.join(line)}"
                )
    except KeyboardInterrupt:
        interrupted = True
    if final is None:
        raise click.exceptions.Abort
    move = game.format_action(state, final.move)
    if as_json:
        echo_json(
            {
                "move": move,
                "score": json_number(final.score),
                "value": json_number(final.value),
                "depth": final.depth if final.complete else final.depth - 1,
                "nodes": final.nodes,
                "time": round(final.time, 6),
                "pv": line_notation(game, state, final.pv),
                "nps": round(final.nps),
                "seldepth": final.seldepth,
                "mate": final.mate,
                "solved": final.solved,
            }
        )
    else:
        click.echo(f"best move: {move}")
    if interrupted:
        click.echo("plies: interrupted; the best move of the last iteration stands", err=True)
        sys.exit(130)


def _search_mcts(
    game: Any,
    state: Any,
    iterations: int | None,
    seconds: float | None,
    exploration: float | None,
    seed: int | None,
    as_json: bool,
) -> None:
    """``plies search --algorithm mcts``: progress lines, then the root moves."""
    from plies.search.mcts import DEFAULT_C, MCTS

    if game.is_terminal(state):
        raise PliesError("the game is already over in that position")
    mcts = MCTS(game, c=DEFAULT_C if exploration is None else exploration, seed=seed)
    final: SearchResult[Any] | None = None
    interrupted = False
    try:
        for result in mcts.iterate(state, iterations=iterations, seconds=seconds):
            final = result
            if not as_json:
                stats = result.stats
                rate = stats.nodes / stats.time if stats.time > 0 else 0.0
                click.echo(
                    f"iterations {stats.nodes:>9,}  best {game.format_action(state, result.action)}"
                    f"  value {result.value:.3f}  depth {stats.max_depth:>3}  "
                    f"time {stats.time:7.3f}  {rate:,.0f} it/s"
                )
    except KeyboardInterrupt:
        interrupted = True
    if final is None:
        raise click.exceptions.Abort
    moves = [
        {"move": game.format_action(state, m.action), "visits": m.visits, "value": m.value}
        for m in final.root or ()
    ]
    if as_json:
        echo_json(
            {
                "move": game.format_action(state, final.action),
                "value": json_number(final.value),
                "iterations": final.stats.nodes,
                "time": round(final.stats.time, 6),
                "pv": line_notation(game, state, final.pv),
                "root": [{**m, "value": json_number(m["value"])} for m in moves],
                "note": final.note,
            }
        )
    else:
        if final.note:
            click.echo(final.note)
        click.echo(f"{'move':>10} {'visits':>9} {'value':>8}")
        for m in moves:
            click.echo(f"{m['move']:>10} {m['visits']:>9,} {m['value']:>8.3f}")
        click.echo(f"best move: {game.format_action(state, final.action)}")
    if interrupted:
        click.echo("plies: interrupted; the best move so far stands", err=True)
        sys.exit(130)
