"""The ``plies`` command line: it parses, calls the library, and formats. No search lives here.

Every error a user can cause ends as one line on stderr (``plies: error: ...``) and exit
status 2; Ctrl-C ends with status 130 after printing what was done so far.
"""

from __future__ import annotations

import json
import math
import random
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import click
from rich.console import Console
from rich.table import Table
from rich.text import Text

from plies import __version__
from plies.agents import AbandonedError, Agent, make_agent
from plies.errors import PliesError
from plies.game import CHANCE, Game, HasPositionNotation, require_position_notation
from plies.games import GAMES, make_game
from plies.games.tree import parse_tree
from plies.play import GameRecord, Turn, outcome_text, play_game
from plies.search import ALGORITHMS, SearchResult
from plies.search.engine import EngineOptions, Limits, Report, iterate
from plies.spec import parse_spec
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


def _console() -> Console:
    return Console(highlight=False, soft_wrap=True)


def plural(count: int, word: str, words: str | None = None) -> str:
    """``1 node``, ``2,048 nodes``."""
    return f"{count:,} {word if count == 1 else words or word + 's'}"


def _echo_json(data: dict[str, Any]) -> None:
    click.echo(json.dumps(data, indent=2))


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="plies")
def cli() -> None:
    """plies: adversarial search, from the lecture's trees to strong game players."""


# plies tree ---------------------------------------------------------------------------------


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


def _print_tree_report(report: TreeReport, show_trace: bool) -> None:
    console = _console()
    stats = report.stats
    name = ALGORITHM_NAMES.get(report.algorithm, report.algorithm)
    chance_nodes = [n for n in report.nodes if n.player == CHANCE]
    console.print(
        f"{name} ({rule_text(report.rule)}); root {report.root}; "
        f"{len(report.nodes)} nodes, {report.leaf_count} leaves"
        + (f", {plural(len(chance_nodes), 'chance node')}" if chance_nodes else ""),
        markup=False,
    )
    if report.bounds is not None:
        console.print(bounds_text(report), markup=False)
    if show_trace:
        console.print("trace:", markup=False)
        for line in tree_trace_lines(report):
            console.print("  " + line, markup=False)
    console.print(f"value: {number(report.value)} (for MAX)", markup=False)
    if report.pv:
        ends_at_chance = report.node(report.pv).player == CHANCE
        console.print(
            f"best move: {report.labels(report.best_path)[-1]} (best path "
            f"{list(report.best_path)}); principal variation "
            f"{' -> '.join(report.labels(report.pv))} (child indices {list(report.pv)})"
            + (", up to nature's move" if ends_at_chance else ""),
            markup=False,
        )
    for node in chance_nodes:
        console.print(f"expected value: {expectation_text(report, node)}", markup=False)
    console.print(
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
        console.print(f"pruned at {node.label} ({branch.player}, {test}): {skipped}", markup=False)
    pruned = [n.label for n in report.nodes if n.leaf_index is not None and n.pruned]
    console.print(
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
    console.print(table)


def _leaf_bounds(ctx: click.Context, param: click.Parameter, text: str | None) -> Any:
    """``--bounds L,U`` as a pair of numbers."""
    if text is None:
        return None
    try:
        lower, upper = (float(part) for part in text.split(","))
    except ValueError:
        raise click.BadParameter(f"{text!r} is not two numbers L,U") from None
    return lower, upper


@cli.command()
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
        _echo_json(report_json(report))
    else:
        _print_tree_report(report, trace)
        if draw is not None:
            click.echo(f"drawn to {draw}")


# plies solve ---------------------------------------------------------------------------------


def _game_and_state(spec: str, position: str | None) -> tuple[Game[Any, Any], Any]:
    game = make_game(spec)
    if position is None:
        return game, game.initial_state()
    parse = require_position_notation(game, "reading a position")
    return game, parse(position)


def _position_text(game: Game[Any, Any], state: Any) -> str:
    return game.format_position(state) if isinstance(game, HasPositionNotation) else repr(state)


def _line_notation(game: Game[Any, Any], state: Any, line: tuple[Any, ...]) -> list[str]:
    """Each action of a line in the game's notation, played from ``state``."""
    moves = []
    for action in line:
        moves.append(game.format_action(state, action))
        state = game.result(state, action)
    return moves


def _search_summary(result: SearchResult[Any]) -> str:
    stats = result.stats
    rate = stats.nodes / stats.time if stats.time > 0 else 0.0
    return (
        f"{plural(stats.nodes, 'node')}, {plural(stats.leaves, 'leaf', 'leaves')}, "
        f"{plural(stats.cutoffs, 'cutoff')}, "
        f"{stats.time:.3f} s ({rate:,.0f} nodes/s)"
    )


@cli.command()
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
    pv = _line_notation(game, state, result.pv)
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
        "position": _position_text(game, state),
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
        _echo_json(data)
        return
    click.echo(game.display(state))
    if game.is_terminal(state):
        click.echo(f"game over: {outcome_text(game, state)}")
    else:
        click.echo(f"{game.to_move(state)} to move; {result.algorithm} ({rule_text(result.rule)})")
    click.echo(f"value: {number(result.value)} for {first}")
    if pv:
        click.echo(f"best move: {pv[0]}; principal variation: {' '.join(pv)}")
    click.echo(_search_summary(result))
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
        _echo_json(data)
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


# plies play ----------------------------------------------------------------------------------


def _turn_printer(quiet: bool) -> Any:
    def on_turn(record: GameRecord, turn: Turn) -> None:
        if turn.player == CHANCE:
            click.echo(f"{len(record.turns)}. chance: {turn.notation}")
            return
        line = f"{len(record.turns)}. {turn.player} plays {turn.notation}"
        if turn.search is not None and turn.search.algorithm == "perfect":
            stats = turn.search.stats
            line += f"  [{turn.search.note}; {plural(stats.nodes, 'position')}, {stats.time:.3f} s]"
        elif turn.search is not None and turn.search.note is not None:
            line += f"  [{turn.search.note}; {_search_summary(turn.search)}]"
        elif turn.search is not None:
            depth = "" if turn.search.score is None else f"depth {turn.search.depth_limit}; "
            line += (
                f"  [{depth}value for {turn.player}: {turn.search.value:.3g}; "
                f"{_search_summary(turn.search)}]"
            )
        click.echo(line)
        if not quiet:
            click.echo(record.game.display(record.state))

    return on_turn


@cli.command()
@click.argument("game_spec", metavar="GAME")
@click.option(
    "--first",
    "first_spec",
    default="human",
    show_default=True,
    help="Agent for the first player: human, random, minimax, alphabeta[:depth=N], "
    "engine[:time=S], perfect[:time=S] (connect4).",
)
@click.option(
    "--second",
    "second_spec",
    default=None,
    help="Agent for the second player [default: the game's usual opponent: perfect "
    "alphabeta for the small games, alphabeta:depth=4 for the board games].",
)
@click.option(
    "--third",
    "third_spec",
    default=None,
    help="Agent for the third player of a three-player game [default: as --second].",
)
@click.option("--position", help="Start from this position instead of the initial one.")
@click.option("--seed", type=int, default=None, help="Seed for random agents and the dice.")
@click.option("--quiet", is_flag=True, help="Print the moves only, not the board after each.")
@click.option(
    "--pgn",
    "pgn_path",
    type=click.Path(dir_okay=False, writable=True),
    help="Chess: write the game to this PGN file when it ends (also when abandoned).",
)
def play(
    game_spec: str,
    first_spec: str,
    second_spec: str | None,
    third_spec: str | None,
    position: str | None,
    seed: int | None,
    quiet: bool,
    pgn_path: str | None,
) -> None:
    """Play GAME between agents (a human at the terminal among them); nature rolls the dice
    of games with chance."""
    game, state = _game_and_state(game_spec, position)
    opponent = GAMES[parse_spec(game_spec).name].opponent
    specs = [first_spec, second_spec or opponent, third_spec or opponent]
    if len(game.players) > len(specs):
        raise PliesError(f"'{game.name}' has {len(game.players)} players; plies play seats 3")
    if third_spec is not None and len(game.players) < 3:
        raise PliesError(f"--third: '{game.name}' has only {len(game.players)} players")
    agents: dict[str, Agent] = {}
    for index, (player, spec) in enumerate(zip(game.players, specs, strict=False)):
        agent_seed = None if seed is None else seed + index
        agents[player] = make_agent(spec, game, seed=agent_seed, read=_prompt, write=click.echo)
    click.echo("   ".join(f"{p}: {spec}" for p, spec in zip(game.players, specs, strict=False)))
    click.echo(game.display(state))
    on_turn = _turn_printer(quiet)
    so_far = GameRecord(game, state, state)

    def remember(record: GameRecord, turn: Turn) -> None:
        nonlocal so_far
        so_far = record
        on_turn(record, turn)

    if pgn_path is not None and not callable(getattr(game, "pgn", None)):
        raise PliesError(f"--pgn: '{game.name}' has no PGN notation (chess has)")
    try:
        dice = None if seed is None else random.Random(seed)
        record = play_game(game, agents, state, remember, chance=dice)
    except (AbandonedError, KeyboardInterrupt):
        if pgn_path is not None:
            _write_pgn(pgn_path, so_far, specs)
        moves = " ".join(turn.notation for turn in so_far.turns) or "-"
        click.echo(f"\ngame abandoned after {len(so_far.turns)} moves: {moves}", err=True)
        if isinstance(game, HasPositionNotation):
            click.echo(
                f"resume with: plies play {game_spec} --position "
                f"'{game.format_position(so_far.state)}'",
                err=True,
            )
        raise
    click.echo(f"game over after {len(record.turns)} moves: {outcome_text(game, record.state)}")
    if pgn_path is not None:
        _write_pgn(pgn_path, record, specs)


def _write_pgn(path: str, record: GameRecord, specs: list[str]) -> None:
    """Write a chess game record as PGN, the agents' specs as the players' names."""
    game: Any = record.game
    headers = {"Event": "plies play", "White": specs[0], "Black": specs[1]}
    text = game.pgn(
        record.start, [t.action for t in record.turns], game.result_text(record.state), headers
    )
    try:
        Path(path).write_text(text + "\n", encoding="utf-8")
    except OSError as error:
        raise PliesError(f"--pgn: cannot write {path}: {error.strerror}") from None
    click.echo(f"PGN written to {path}", err=True)


def _prompt(text: str) -> str:
    """Read a line from the terminal (or piped input); EOFError at its end."""
    click.echo(text, nl=False)
    line = sys.stdin.readline()
    if not line:
        raise EOFError
    return line


# plies effort --------------------------------------------------------------------------------


def _integers(text: str, what: str) -> list[int]:
    try:
        return [int(part) for part in text.replace(" ", "").split(",") if part]
    except ValueError:
        raise PliesError(f"{what} must be integers separated by commas, not {text!r}") from None


@cli.command()
@click.argument("game_spec", metavar="GAME")
@click.option(
    "--plies",
    "plies_text",
    default="0,2,4,6,8",
    show_default=True,
    help="Moves already played (marks on the board), comma-separated.",
)
@click.option("--algorithms", default="minimax,alphabeta", show_default=True)
@click.option("--plot", type=click.Path(dir_okay=False), help="Also plot the table to FILE.png.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def effort(
    game_spec: str, plies_text: str, algorithms: str, plot: str | None, as_json: bool
) -> None:
    """The lecture's table: average nodes each algorithm visits, by moves already played.

    Averages over every distinct reachable non-terminal position with that many moves played;
    for tic-tac-toe, the marks on the board.
    """
    from rich.progress import Progress

    from plies.effort import EffortRow, effort_rows, format_effort_table, plot_effort

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
    if plot is not None and rows:
        plot_effort(rows, plot, title=f"{game_spec}: mean nodes visited")
    if as_json:
        _echo_json(
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
            click.echo(f"plotted to {plot}")
    if interrupted:
        click.echo(
            "plies: interrupted; the rows shown are complete, the rest were not run", err=True
        )
        sys.exit(130)


# plies search --------------------------------------------------------------------------------


def _score_text(report: Report[Any]) -> str:
    """``+0.158``, or ``win in 3`` / ``loss in 2`` (plies) for a forced result."""
    if math.isnan(report.score):
        return "?"
    mate = report.mate
    if mate is None:
        return f"{report.score:+.3f}"
    return f"win in {mate}" if mate > 0 else f"loss in {-mate}"


def _json_number(value: float) -> float | None:
    return None if math.isnan(value) else round(value, 6)


@cli.command("search")
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
        game, state = _game_and_state(game_spec, position)
        _search_mcts(game, state, iterations, seconds, exploration, seed, as_json)
        return
    for flag, given in (("--iterations", iterations), ("--c", exploration), ("--seed", seed)):
        if given is not None:
            raise PliesError(f"{flag} is an MCTS option: add --algorithm mcts")
    if depth is None and seconds is None and nodes is None:
        raise click.UsageError("give a limit: --depth D, --time S or --nodes N")
    game, state = _game_and_state(game_spec, position)
    limits = Limits(depth=depth, nodes=nodes, time=seconds)
    final: Report[Any] | None = None
    interrupted = False
    try:
        for report in iterate(game, state, limits, replace(EngineOptions(), tt_mb=tt_mb)):
            final = report
            if not as_json:
                line = _line_notation(game, state, report.pv)
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
        _echo_json(
            {
                "move": move,
                "score": _json_number(final.score),
                "value": _json_number(final.value),
                "depth": final.depth if final.complete else final.depth - 1,
                "nodes": final.nodes,
                "time": round(final.time, 6),
                "pv": _line_notation(game, state, final.pv),
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
        _echo_json(
            {
                "move": game.format_action(state, final.action),
                "value": _json_number(final.value),
                "iterations": final.stats.nodes,
                "time": round(final.stats.time, 6),
                "pv": _line_notation(game, state, final.pv),
                "root": [{**m, "value": _json_number(m["value"])} for m in moves],
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


# plies match ---------------------------------------------------------------------------------


@cli.command("match")
@click.argument("game_spec", metavar="GAME")
@click.argument("spec_a", metavar="SPEC_A")
@click.argument("spec_b", metavar="SPEC_B")
@click.option("--games", "count", type=click.IntRange(min=1), default=10, show_default=True)
@click.option(
    "--openings",
    "opening_plies",
    type=click.IntRange(min=0),
    help="Random plies before each pair of games [default: per game].",
)
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the openings.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def match_command(
    game_spec: str,
    spec_a: str,
    spec_b: str,
    count: int,
    opening_plies: int | None,
    seed: int,
    as_json: bool,
) -> None:
    """Play SPEC_A against SPEC_B at GAME: colours alternate on shared openings; W/D/L and Elo.

    Agents: random, alphabeta:depth=N, engine:time=S (or depth=, nodes=), minimax,
    perfect:time=S (connect4).
    """
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

    from plies.match import run_match, summarise, to_json

    game = make_game(game_spec)
    for spec in (spec_a, spec_b):
        if parse_spec(spec).name == "human":
            raise PliesError("a match is played by programs: use 'plies play' to play yourself")
    outcomes = []
    games = run_match(game, spec_a, spec_b, count, opening_plies=opening_plies, seed=seed)
    interrupted = False
    columns = (
        TextColumn("games"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.description}"),
    )
    with Progress(
        *columns, console=Console(stderr=True), transient=True, disable=not sys.stderr.isatty()
    ) as bar:
        task = bar.add_task("", total=count)
        try:
            for outcome in games:
                outcomes.append(outcome)
                so_far = summarise(outcomes)
                bar.update(
                    task, advance=1, description=f"+{so_far.wins} ={so_far.draws} -{so_far.losses}"
                )
        except KeyboardInterrupt:
            interrupted = True
    result = summarise(outcomes)
    if as_json:
        _echo_json(to_json(result, complete=not interrupted))
    else:
        click.echo(
            f"{spec_a} vs {spec_b} at {game_spec}: {result.games} games, +{result.wins} "
            f"={result.draws} -{result.losses} (score {result.score:.3f} for {spec_a})"
        )
        click.echo(
            f"Elo difference {result.elo:+.1f} (95% interval {result.elo_low:+.1f} to "
            f"{result.elo_high:+.1f})"
        )
    if interrupted:
        click.echo(f"plies: interrupted after {len(outcomes)} of {count} games", err=True)
        sys.exit(130)


# plies perft ---------------------------------------------------------------------------------


@cli.command("perft")
@click.argument("game_spec", metavar="GAME")
@click.argument("depth", type=click.IntRange(min=0))
@click.option("--position", help="Count from this position instead of the initial one.")
@click.option("--divide", "split", is_flag=True, help="List the count under each first move.")
@click.option("--json", "as_json", is_flag=True, help='Print {"nodes": N, "time": s}.')
def perft_command(
    game_spec: str, depth: int, position: str | None, split: bool, as_json: bool
) -> None:
    """Count the move paths of exactly DEPTH plies from the start (or POSITION) of GAME."""
    import time

    from rich.progress import Progress

    from plies.perft import divide, perft

    game, state = _game_and_state(game_spec, position)
    started = time.perf_counter()
    counts: list[tuple[Any, int]] = []
    interrupted = False
    if depth == 0 or game.is_terminal(state):
        nodes = perft(game, state, depth)
    else:
        with Progress(
            console=Console(stderr=True), transient=True, disable=not sys.stderr.isatty()
        ) as bar:
            task = bar.add_task(f"perft {depth}", total=len(game.actions(state)))
            try:
                for action, count in divide(game, state, depth):
                    counts.append((action, count))
                    bar.advance(task)
            except KeyboardInterrupt:
                interrupted = True
        nodes = sum(count for _, count in counts)
    seconds = time.perf_counter() - started
    moves = [(game.format_action(state, action), count) for action, count in counts]
    if as_json:
        data: dict[str, Any] = {"nodes": nodes, "time": round(seconds, 6)}
        if split:
            data["divide"] = dict(moves)
        if interrupted:
            data["complete"] = False
        _echo_json(data)
    else:
        if split:
            for move, count in moves:
                click.echo(f"{move}: {count:,}")
        rate = nodes / seconds if seconds > 0 else 0.0
        click.echo(f"perft {depth}: {nodes:,} nodes in {seconds:.3f} s ({rate:,.0f} nodes/s)")
    if interrupted:
        click.echo(
            f"plies: interrupted after {len(counts)} of {len(game.actions(state))} first moves;"
            " the count covers those moves only",
            err=True,
        )
        sys.exit(130)


# plies games ---------------------------------------------------------------------------------


@cli.command()
def games() -> None:
    """List the games and their options."""
    for name, entry in GAMES.items():
        click.echo(f"{name:<10} {entry.summary}  (options: {entry.options})")


# plies demo ----------------------------------------------------------------------------------

LECTURE_TREE = "[[3,12,8],[2,4,6],[14,5,2]]"


@cli.command()
def demo() -> None:
    """A short tour: the lecture's tree with its pruning trace, then AI-vs-AI tic-tac-toe."""
    click.echo(f"== The lecture's two-ply tree: {LECTURE_TREE}\n")
    _print_tree_report(analyse_tree(parse_tree(LECTURE_TREE)), show_trace=True)
    game = make_game("tictactoe")
    start = game.initial_state()
    click.echo("\n== Tic-tac-toe solved from the empty board")
    for name in ("minimax", "alphabeta"):
        result = ALGORITHMS[name](game, start)
        click.echo(f"{name:>9}: value {number(result.value)}, {_search_summary(result)}")
    click.echo("\n== alphabeta (perfect play) as X against alphabeta:depth=2 as O")
    agents = {"X": make_agent("alphabeta", game), "O": make_agent("alphabeta:depth=2", game)}
    record = play_game(game, agents, start, _turn_printer(quiet=False))
    click.echo(f"game over: {outcome_text(game, record.state)}")


# plies uci -----------------------------------------------------------------------------------


@cli.command("uci")
def uci_command() -> None:
    """Play chess over UCI on stdin/stdout, for chess GUIs, lichess-bot and cutechess-cli.

    Options: Hash (MB, 16 by default) and Move Overhead (ms, 30 by default).
    """
    from plies.uci import run

    run()


# Entry point ---------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> None:
    """Run the CLI; user errors become one line on stderr and exit status 2."""
    try:
        code = cli.main(args=argv, prog_name="plies", standalone_mode=False)
    except click.exceptions.NoArgsIsHelpError as error:
        click.echo(error.ctx.get_help() if error.ctx else "", err=False)
        code = 0
    except click.ClickException as error:
        click.echo(f"plies: error: {error.format_message()}", err=True)
        code = 2
    except PliesError as error:
        click.echo(f"plies: error: {error}", err=True)
        code = 2
    except AbandonedError:
        code = 1
    except RecursionError:
        click.echo(
            "plies: error: the game is too deep for a search to the end (the textbook tier "
            "recurses once per ply): give a depth, or use 'plies search' with a limit",
            err=True,
        )
        code = 2
    except (KeyboardInterrupt, click.exceptions.Abort):
        click.echo("plies: interrupted", err=True)
        code = 130
    sys.exit(code if isinstance(code, int) else 0)
