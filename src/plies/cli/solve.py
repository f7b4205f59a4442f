"""plies solve: the value and best moves of a position, by search or a perfect solver."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import click
from rich.console import Console

from plies.cli.output import (
    echo_json,
    line_notation,
    plural,
    position_text,
    search_summary,
)
from plies.errors import PliesError
from plies.game import Game, require_position_notation
from plies.games import make_game
from plies.play import outcome_text
from plies.search import ALGORITHMS
from plies.trees import (
    number,
    rule_text,
)


@click.command()
@click.argument("game_spec", metavar="GAME")
@click.argument("position", required=False)
@click.option(
    "--algorithm",
    "-a",
    type=click.Choice([*sorted(ALGORITHMS), "perfect"], case_sensitive=False),
    help="[default: perfect where plies has a perfect solver (connect4), else alphabeta]",
)
@click.option("--strict", is_flag=True, help="Alpha-beta prunes only on strict inequality.")
@click.option(
    "--moves",
    "each_move",
    is_flag=True,
    help="Also search every legal move separately and list all the best ones.",
)
@click.option("--weak", is_flag=True, help="Perfect solver: win, draw or loss only.")
@click.option("--analyze", is_flag=True, help="Perfect solver: the score of every column.")
@click.option(
    "--file",
    "set_file",
    help="Perfect solver: solve each line 'moves [score]' of FILE ('-': standard input).",
)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def solve(
    game_spec: str,
    position: str | None,
    algorithm: str | None,
    strict: bool,
    each_move: bool,
    weak: bool,
    analyze: bool,
    set_file: str | None,
    as_json: bool,
) -> None:
    """Solve GAME from its start or POSITION: value for the first player, best moves, nodes.

    GAME is a name with options, e.g. tictactoe, tictactoe:m=3,n=4,k=3, nim:misere=true.
    Connect Four is solved by the perfect solver, in Pons's score convention (side to move's
    view; a win scores 22 minus the winner's stones at the end).
    """
    from plies.solvers import perfect_solver

    game = make_game(game_spec)
    solver = perfect_solver(game)
    algorithm = (algorithm or ("perfect" if solver is not None else "alphabeta")).lower()
    if algorithm == "perfect":
        if solver is None:
            raise PliesError(
                f"there is no perfect solver for '{game.name}': use --algorithm "
                "alphabeta or minimax"
            )
        if set_file is not None:
            if position is not None:
                raise PliesError("give a POSITION or --file, not both")
            _solve_set(game, solver, set_file, weak, as_json)
        else:
            _solve_perfectly(game, solver, position, weak, analyze, as_json)
        return
    for flag, given in (("--weak", weak), ("--analyze", analyze), ("--file", set_file)):
        if given:
            raise PliesError(f"{flag} needs the perfect solver (connect4), not {algorithm}")
    _solve_by_search(game_spec, game, position, algorithm, strict, each_move, as_json)


def _solve_by_search(
    game_spec: str,
    game: Game[Any, Any],
    position: str | None,
    algorithm: str,
    strict: bool,
    each_move: bool,
    as_json: bool,
) -> None:
    state = (
        game.initial_state()
        if position is None
        else require_position_notation(game, "reading a position")(position)
    )
    first = game.players[0]
    options: dict[str, Any] = {"max_player": first}
    if algorithm == "alphabeta":
        options["strict"] = strict
    search = ALGORITHMS[algorithm.lower()]
    result = search(game, state, **options)
    pv = line_notation(game, state, result.pv)
    moves: list[dict[str, Any]] = []
    if each_move and not game.is_terminal(state):
        for action in game.actions(state):
            child = search(game, game.result(state, action), **options)
            moves.append(
                {
                    "move": game.format_action(state, action),
                    "value": child.value,
                    "nodes": child.stats.nodes,
                }
            )
    best_moves = [m["move"] for m in moves if m["value"] == result.value]
    data: dict[str, Any] = {
        "game": game_spec,
        "position": position_text(game, state),
        "to_move": game.to_move(state),
        "algorithm": result.algorithm,
        "rule": result.rule,
        "value": result.value,
        "value_for": first,
        "best_move": pv[0] if pv else None,
        "pv": pv,
        "nodes": result.stats.nodes,
        "leaves": result.stats.leaves,
        "cutoffs": result.stats.cutoffs,
        "max_depth": result.stats.max_depth,
        "time": round(result.stats.time, 6),
    }
    if each_move:
        data.update(moves=moves, best_moves=best_moves)
    if as_json:
        echo_json(data)
        return
    click.echo(game.display(state))
    if game.is_terminal(state):
        click.echo(f"game over: {outcome_text(game, state)}")
    else:
        click.echo(f"{game.to_move(state)} to move; {result.algorithm} ({rule_text(result.rule)})")
    click.echo(f"value: {number(result.value)} for {first}")
    if pv:
        click.echo(f"best move: {pv[0]}; principal variation: {' '.join(pv)}")
    click.echo(search_summary(result))
    if moves:
        click.echo(f"best moves: {' '.join(best_moves)}")
        for move in moves:
            click.echo(
                f"  {move['move']:>6}  value {number(move['value'])}  {move['nodes']:,} nodes"
            )


def _hardness_note(state: Any) -> None:
    if state.moves == 0:
        click.echo(
            "note: the empty board is the hardest position of all (the first player wins); "
            "solving it takes a long time (Ctrl-C stops)",
            err=True,
        )
    elif state.moves < 8:
        click.echo(
            f"note: early positions ({plural(state.moves, 'stone')}) can take minutes", err=True
        )


def _solve_perfectly(
    game: Any, solver: Any, position: str | None, weak: bool, analyze: bool, as_json: bool
) -> None:
    state = game.initial_state() if position is None else game.parse_position(position)
    if game.is_terminal(state):
        raise PliesError(f"position {position!r}: the game is already over")
    _hardness_note(state)
    solution = solver.solve(state, weak=weak)
    if analyze or weak:
        scores = solver.analyze(state, weak=weak)
        best = max(s for s in scores if s is not None)
        best_moves = [column + 1 for column, s in enumerate(scores) if s == best]
    else:  # the table the solve filled makes the null-window test of each move cheap
        best_moves = [column + 1 for column in solver.decide(state, keep_table=True).moves]
    if as_json:
        data: dict[str, Any] = {
            "moves": "" if position is None else position.strip(),
            "score": solution.score,
            "best_moves": best_moves,
            "nodes": solution.nodes,
            "time": round(solution.time, 6),
            "weak": weak,
        }
        if analyze:
            data["columns"] = scores
        echo_json(data)
        return
    click.echo(game.display(state))
    kind = "weak" if weak else "strong"
    click.echo(f"score {solution.score}: {solver.meaning(solution.score, weak)} ({kind} solve)")
    click.echo(f"best moves: {' '.join(map(str, best_moves))}")
    rate = solution.nodes / solution.time if solution.time > 0 else 0.0
    click.echo(f"{solution.nodes:,} positions in {solution.time:.4f} s ({rate:,.0f}/s)")
    if analyze:
        cells = ["full" if s is None else str(s) for s in scores]
        width = max(4, *(len(c) for c in cells))
        click.echo("column " + " ".join(str(c + 1).rjust(width) for c in range(game.width)))
        click.echo("score  " + " ".join(c.rjust(width) for c in cells))


def _solve_set(game: Any, solver: Any, source: str, weak: bool, as_json: bool) -> None:
    """Solve every position of a set file, print ``moves score`` lines, then a summary."""
    import time

    from rich.progress import Progress

    from plies.solvers.sets import read_set

    if source == "-":
        text = sys.stdin.read()
    else:
        try:
            text = Path(source).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as error:
            raise PliesError(f"cannot read {source!r}: {error}") from None
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()  # the newline that ends the last line
    entries = read_set(game, lines)
    solved, agree, given, bad = 0, 0, 0, 0
    total_time, max_time, total_nodes = 0.0, 0.0, 0
    interrupted = False
    began = time.perf_counter()
    with Progress(
        console=Console(stderr=True), transient=True, disable=not sys.stderr.isatty()
    ) as bar:
        task = bar.add_task("solving", total=len(entries))
        try:
            for entry in entries:
                bar.advance(task)
                if entry.error is not None:
                    bad += 1
                    click.echo(f"plies: error: {source}: {entry.error}", err=True)
                    continue
                solution = solver.solve(entry.state, weak=weak)
                solved += 1
                total_time += solution.time
                max_time = max(max_time, solution.time)
                total_nodes += solution.nodes
                expected = entry.score
                if expected is not None:
                    given += 1
                    if weak:
                        expected = (expected > 0) - (expected < 0)
                    agree += expected == solution.score
                if as_json:
                    click.echo(
                        json.dumps(
                            {
                                "line": entry.line,
                                "moves": entry.moves,
                                "score": solution.score,
                                "expected": entry.score,
                                "nodes": solution.nodes,
                                "time": round(solution.time, 6),
                            }
                        )
                    )
                else:
                    click.echo(f"{entry.moves} {solution.score}")
        except KeyboardInterrupt:
            interrupted = True
    wall = time.perf_counter() - began
    if solved:
        click.echo(
            f"{solved} positions solved ({'weak' if weak else 'strong'}), {agree} of {given} "
            f"agree with the given scores; time mean {total_time / solved * 1000:.3f} ms, "
            f"max {max_time * 1000:.3f} ms; mean positions explored {total_nodes / solved:,.1f}; "
            f"{solved / wall:,.1f} positions/s",
            err=True,
        )
    if interrupted:
        click.echo("plies: interrupted; the lines above are solved, the rest are not", err=True)
        sys.exit(130)
    if bad:
        click.echo(f"plies: error: {bad} bad line{'s' if bad > 1 else ''} in {source}", err=True)
        sys.exit(2)
