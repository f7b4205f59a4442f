"""plies search: the engine (one line per iteration) or MCTS on a position."""

from __future__ import annotations

from typing import Any, NamedTuple

import click

from plies.agents import EngineAgent, MCTSAgent, make_agent
from plies.cli.output import (
    Number,
    echo_json,
    exit_interrupted,
    game_and_state,
    json_number,
    until_interrupted,
)
from plies.errors import PliesError
from plies.game import Game
from plies.play import line_notation
from plies.search import EngineOptions, SearchResult
from plies.spec import DEPTH, EXPLORATION, ITERATIONS, NODES, SECONDS, TABLE_MB


def _score_text(result: SearchResult[Any]) -> str:
    """``+0.158``, or ``win in 3`` / ``loss in 2`` (plies) for a forced result."""
    assert result.score is not None
    mate = result.mate
    if mate is None:
        return f"{result.score:+.3f}"
    return f"win in {mate}" if mate > 0 else f"loss in {-mate}"


@click.command("search")
@click.argument("game_spec", metavar="GAME")
@click.argument("position", required=False)
@click.option("--depth", type=Number(DEPTH), help="Search to this depth.")
@click.option("--time", "seconds", type=Number(SECONDS), help="Search for this many seconds.")
@click.option("--nodes", type=Number(NODES), help="Search this many nodes.")
@click.option(
    "--tt",
    "tt_mb",
    type=Number(TABLE_MB),
    default=EngineOptions.tt_mb,
    show_default=True,
    help="Transposition table size in MB (0: none).",
)
@click.option(
    "--native",
    type=click.Choice(["on", "off"], case_sensitive=False),
    default="on",
    show_default=True,
    help="Engine: the compiled search where the game has one (the same search), or Python's.",
)
@click.option(
    "--algorithm",
    "-a",
    type=click.Choice(["engine", "mcts"], case_sensitive=False),
    default="engine",
    show_default=True,
    help="The engine (iterative deepening) or Monte Carlo tree search.",
)
@click.option("--iterations", type=Number(ITERATIONS), help="MCTS: run this many iterations.")
@click.option("--c", "exploration", type=Number(EXPLORATION), help="MCTS: exploration constant.")
@click.option("--seed", type=int, default=None, help="MCTS: seed of playouts and dice.")
@click.option("--json", "as_json", is_flag=True, help="Print one final JSON object.")
def search_command(
    game_spec: str,
    position: str | None,
    depth: int | None,
    seconds: float | None,
    nodes: int | None,
    tt_mb: float,
    native: str,
    algorithm: str,
    iterations: int | None,
    exploration: float | None,
    seed: int | None,
    as_json: bool,
) -> None:
    """Search GAME from its start or POSITION with the engine, one line per iteration, or with
    MCTS (--algorithm mcts), one line per 1000 iterations and every root move's visits.

    Give at least one limit: --depth, --time or --nodes for the engine (any reached ends the
    search; the first iteration always completes); --iterations or --time for MCTS.
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
    limits = {"depth": depth, "nodes": nodes, "time": seconds, "tt": tt_mb, "native": native}
    agent = make_agent(_spec("engine", limits), game)
    assert isinstance(agent, EngineAgent)
    final: SearchResult[Any] | None = None
    with until_interrupted() as interruption:
        for result in agent.iterate(game, state):
            final = result
            if not as_json:
                click.echo(_iteration_line(game, state, result))
    if final is None:
        raise click.exceptions.Abort
    move = game.format_action(state, final.action)
    if as_json:
        echo_json(
            {
                "move": move,
                "score": None if final.score is None else json_number(final.score),
                "value": json_number(final.value),
                "depth": final.depth,
                "nodes": final.stats.nodes,
                "time": round(final.stats.time, 6),
                "pv": line_notation(game, state, final.pv),
                "nps": round(final.nps),
                "seldepth": final.stats.max_depth,
                "mate": final.mate,
                "solved": final.solved,
                "native": agent.compiled(game),
            }
        )
    else:
        click.echo(f"best move: {move}")
    if interruption.happened:
        exit_interrupted("the best move of the last iteration stands")


def _spec(kind: str, options: dict[str, Any]) -> str:
    """The agent spec ``kind:key=value,...`` of the options given (None: left out); numbers
    are written so that they read back exactly."""
    given = [
        f"{key}={value!r}" if isinstance(value, float) else f"{key}={value}"
        for key, value in options.items()
        if value is not None
    ]
    return f"{kind}:{','.join(given)}" if given else kind


def _iteration_line(game: Game[Any, Any], state: Any, result: SearchResult[Any]) -> str:
    """``depth  3  score +0.158  nodes ...  pv ...``; a cut-short iteration's depth has a star."""
    depth = result.depth if result.complete else f"{(result.depth or 0) + 1}*"
    line = " ".join(line_notation(game, state, result.pv))
    return (
        f"depth {depth!s:>2}  score {_score_text(result):>10}  nodes {result.stats.nodes:>10,}  "
        f"nps {result.nps:>9,.0f}  time {result.stats.time:7.3f}  pv {line}"
    )


class _RootLine(NamedTuple):
    move: str
    visits: int
    value: float


def _search_mcts(
    game: Game[Any, Any],
    state: Any,
    iterations: int | None,
    seconds: float | None,
    exploration: float | None,
    seed: int | None,
    as_json: bool,
) -> None:
    """``plies search --algorithm mcts``: progress lines, then the root moves."""
    if game.is_terminal(state):
        raise PliesError("the game is already over in that position")
    agent = make_agent(_spec("mcts", {"c": exploration}), game, seed=seed)
    assert isinstance(agent, MCTSAgent)
    mcts = agent.mcts
    final: SearchResult[Any] | None = None
    with until_interrupted() as interruption:
        for result in mcts.iterate(state, iterations=iterations, seconds=seconds):
            final = result
            if not as_json:
                stats = result.stats
                rate = stats.iterations / stats.time if stats.time > 0 else 0.0
                click.echo(
                    f"iterations {stats.iterations:>9,}  best "
                    f"{game.format_action(state, result.action)}  value {result.value:.3f}  "
                    f"depth {stats.max_depth:>3}  time {stats.time:7.3f}  {rate:,.0f} it/s"
                )
    if final is None:
        raise click.exceptions.Abort
    moves = [
        _RootLine(game.format_action(state, m.action), m.visits, m.value) for m in final.root or ()
    ]
    if as_json:
        echo_json(
            {
                "move": game.format_action(state, final.action),
                "value": json_number(final.value),
                "iterations": final.stats.iterations,
                "nodes": final.stats.nodes,
                "time": round(final.stats.time, 6),
                "pv": line_notation(game, state, final.pv),
                "root": [
                    {"move": m.move, "visits": m.visits, "value": json_number(m.value)}
                    for m in moves
                ],
                "note": final.note,
                "c": json_number(mcts.c),
                "rave": json_number(mcts.rave),
            }
        )
    else:
        if final.note:
            click.echo(final.note)
        click.echo(f"{'move':>10} {'visits':>9} {'value':>8}")
        for m in moves:
            click.echo(f"{m.move:>10} {m.visits:>9,} {m.value:>8.3f}")
        click.echo(f"best move: {game.format_action(state, final.action)}")
    if interruption.happened:
        exit_interrupted("the best move so far stands")
