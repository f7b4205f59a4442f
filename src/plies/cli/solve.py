"""plies solve: the value and best moves of a position, by search or a perfect solver."""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import click
from click.core import ParameterSource

from plies.capabilities import HasInformationSets, HasPositionClasses
from plies.cli.book import BOOK_PLIES, WORKERS
from plies.cli.book import build_book as build_book_now
from plies.cli.endgames import PIECES, build_endgames
from plies.cli.output import (
    Number,
    OutputPath,
    echo_json,
    exit_interrupted,
    position_text,
    progress_bar,
    read_position,
    search_summary,
    until_interrupted,
)
from plies.cli.solve_hidden import (
    DEFAULT_CHECKPOINT,
    DEFAULT_ITERATIONS,
    SOLVER_NAMES,
    evaluate_strategy,
    solve_hidden,
)
from plies.errors import PliesError
from plies.game import Game
from plies.inputs import read_text
from plies.lectures.tree_report import number, rule_text
from plies.perfect import UNTIMED_REACH, HasOpeningBook, PerfectSolver, ProvesBounds
from plies.play import line_notation, outcome_text
from plies.registry import make_game
from plies.search import ALGORITHMS
from plies.search.analysis import analyse_moves, best_moves
from plies.solvers import perfect_solver
from plies.solvers.endgames import endgames_for
from plies.solvers.retrograde import NO_DISTANCE, OUTCOME_NAMES, plies_text
from plies.solvers.sets import SetSummary, read_set, solve_set
from plies.spec import DEPTH, ITERATIONS, NODES, RUN_SEED, SECONDS

MOST_SLOTS_SHOWN = 16
"""``--analyze`` shows every slot of a solver with at most this many (Connect Four's columns,
``full`` where no move is), else only the legal moves (Othello's squares)."""
DEFAULT_NODES = 50_000_000
"""The node budget of a search to the end unless ``--nodes`` says otherwise (minutes)."""


@click.command()
@click.argument("game_spec", metavar="GAME")
@click.argument("position", required=False)
@click.option(
    "--algorithm",
    "-a",
    type=click.Choice([*sorted(ALGORITHMS), "perfect"], case_sensitive=False),
    help="[default: perfect where the game has a perfect solver (connect4, othello), else "
    "alphabeta]",
)
@click.option("--strict", is_flag=True, help="Alpha-beta prunes only on strict inequality.")
@click.option(
    "--depth",
    type=Number(DEPTH),
    help="Search to this depth with the game's EVAL (a value, not a solution).",
)
@click.option(
    "--nodes",
    type=Number(NODES),
    default=DEFAULT_NODES,
    show_default=True,
    help="Give up a search that needs more nodes than this.",
)
@click.option(
    "--moves",
    "each_move",
    is_flag=True,
    help="Also search every legal move separately and list all the best ones.",
)
@click.option(
    "--time",
    "seconds",
    type=Number(SECONDS),
    help="Perfect solver: give up after this many seconds (a position far out of reach, "
    "Othello's far from the end, is refused at once with the time it would take).",
)
@click.option("--weak", is_flag=True, help="Perfect solver: win, draw or loss only.")
@click.option("--analyze", is_flag=True, help="Perfect solver: the score of every column.")
@click.option(
    "--file",
    "set_file",
    help="Perfect solver: solve each line 'moves [score]' of FILE ('-': standard input).",
)
@click.option(
    "--book",
    metavar="FILE|none",
    help="Perfect solver: the opening book to consult [default: the one shipped, 7x6 board].",
)
@click.option(
    "--db",
    "db_folders",
    multiple=True,
    metavar="DIR",
    help="Endgame databases: look in DIR first [also $PLIES_ENDGAMES/GAME and those shipped].",
)
@click.option(
    "--solver",
    "hidden_solver",
    type=click.Choice(SOLVER_NAMES, case_sensitive=False),
    help="Imperfect information: cfr, cfr+, mccfr (Monte Carlo CFR, external sampling) or "
    "mccfr-outcome (outcome sampling: a game an iteration, for games too large to walk) "
    "[default: cfr+, where the game can be walked].",
)
@click.option(
    "--iterations",
    type=Number(ITERATIONS),
    help=f"Imperfect information: the solver's iterations [default: {DEFAULT_ITERATIONS:,}].",
)
@click.option(
    "--save",
    type=OutputPath(),
    help="Imperfect information: write the strategy (and the solver's tables) to FILE.",
)
@click.option(
    "--resume",
    metavar="FILE",
    help="Imperfect information: go on from the solver's tables saved in FILE.",
)
@click.option(
    "--strategy",
    "strategy_file",
    metavar="FILE",
    help="Imperfect information: measure the value and exploitability of FILE's strategy.",
)
@click.option(
    "--checkpoint",
    type=Number(SECONDS),
    default=DEFAULT_CHECKPOINT,
    show_default=True,
    help="Imperfect information, with --save: write the strategy so far every SECONDS.",
)
@click.option("--seed", type=Number(RUN_SEED), default=0, help="The samplers' random seed.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
# The builds' flags of old (plies book build, plies endgames build now): hidden, still obeyed
@click.option("--build-book", is_flag=True, hidden=True)
@click.option("--build-db", is_flag=True, hidden=True)
@click.option("--plies", "book_plies", type=Number(BOOK_PLIES), hidden=True)
@click.option("--pieces", type=Number(PIECES), hidden=True)
@click.option("--out", "book_out", hidden=True)
@click.option("--workers", "book_workers", type=Number(WORKERS), hidden=True)
def solve(
    game_spec: str,
    position: str | None,
    algorithm: str | None,
    strict: bool,
    depth: int | None,
    nodes: int,
    each_move: bool,
    seconds: float | None,
    weak: bool,
    analyze: bool,
    set_file: str | None,
    book: str | None,
    db_folders: tuple[str, ...],
    hidden_solver: str | None,
    iterations: int | None,
    save: Path | None,
    resume: str | None,
    strategy_file: str | None,
    checkpoint: float,
    seed: int,
    as_json: bool,
    **moved: Any,
) -> None:
    """Solve GAME from its start or POSITION: value for the first player, best moves, nodes.

    GAME is a name with options, e.g. tictactoe, tictactoe:m=3,n=4,k=3, nim:misere=true.
    Connect Four is solved by the perfect solver, in Pons's score convention (side to move's
    view; a win scores 22 minus the winner's stones at the end). A checkers position of few
    pieces is answered by the endgame databases (those shipped, and those 'plies endgames
    build' built). Opening books are built by 'plies book build'. A game of imperfect
    information (kuhn, leduc) is solved by CFR+ (or --solver): its strategy, value and
    exploitability."""
    game = make_game(game_spec)
    if _imperfect_information(game, click.get_current_context()):
        return
    if _moved_build(game, position, **moved):
        return
    if algorithm is None and depth is None and isinstance(game, HasPositionClasses):
        if _solve_endgame(game, position, db_folders, as_json):
            return
    elif db_folders:
        raise PliesError(
            "--db is for a game with endgame databases (checkers), with no --algorithm or --depth"
        )
    wants_solver = algorithm == "perfect" or (algorithm is None and depth is None)
    solver = perfect_solver(game) if wants_solver else None  # --depth asks for a search
    if book is not None:
        _use_book(game, solver, book)
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
            _solve_perfectly(game, solver, position, weak, analyze, as_json, seconds)
        return
    for flag, given in (
        ("--weak", weak),
        ("--analyze", analyze),
        ("--file", set_file),
        ("--time", seconds is not None),
    ):
        if given:
            raise PliesError(f"{flag} needs a perfect solver (connect4, othello), not {algorithm}")
    if depth is None and not game.searchable_to_end:
        raise PliesError(
            f"'{game.name}' is too deep for a search to the end: give --depth D for a "
            f"depth-limited value, or use 'plies search {game.name} --time S' (the engine)"
        )
    options: dict[str, Any] = {"depth": depth, "nodes": nodes}
    if algorithm == "alphabeta":
        options["strict"] = strict
    _solve_by_search(game_spec, game, position, algorithm, options, each_move, as_json)


IMPERFECT_OPTIONS = (
    "hidden_solver",
    "iterations",
    "save",
    "resume",
    "strategy_file",
    "checkpoint",
    "seed",
)
"""The options for games of imperfect information (with ``--json``)."""


def _imperfect_information(game: Game[Any, Any], context: click.Context) -> bool:
    """Solve a game of imperfect information (True), refusing the options of the others;
    refuse the options of imperfect information for the others (False: solve it)."""
    given = {
        param.name: param.opts[0] if param.opts[0].startswith("-") else param.opts[0].upper()
        for param in context.command.params
        if param.name
        and context.get_parameter_source(param.name) == ParameterSource.COMMANDLINE
        and param.name != "game_spec"
    }
    values = context.params
    if not isinstance(game, HasInformationSets):
        for name in IMPERFECT_OPTIONS:
            if name in given:
                raise PliesError(
                    f"{given[name]} is for a game of imperfect information (kuhn, leduc)"
                )
        return False
    for name, flag in given.items():
        if name not in (*IMPERFECT_OPTIONS, "as_json"):
            raise PliesError(
                f"{flag} is not for a game of imperfect information: CFR solves the whole game "
                "(options: --solver, --iterations, --save, --resume, --strategy, --checkpoint, "
                "--seed, --json)"
            )
    if values["strategy_file"] is not None:
        evaluate_strategy(game, values["strategy_file"], values["as_json"])
    else:
        solve_hidden(
            game,
            values["hidden_solver"],
            values["iterations"],
            values["save"],
            values["resume"],
            values["seed"],
            values["as_json"],
            values["checkpoint"],
        )
    return True


def _moved_build(
    game: Game[Any, Any],
    position: str | None,
    build_book: bool,
    build_db: bool,
    book_plies: int | None,
    pieces: int | None,
    book_out: str | None,
    book_workers: int | None,
) -> bool:
    """The builds ``plies solve`` used to run (``--build-book``, ``--build-db``): run now by
    the commands they moved to, with a note saying so; False where none was asked for."""
    if not build_book and book_plies is not None:
        raise PliesError("--plies goes with --build-book")
    if not (build_book or build_db) and book_workers is not None:
        raise PliesError("--workers goes with --build-book or --build-db")
    if not (build_book or build_db) and book_out is not None:
        raise PliesError("--out goes with --build-book or --build-db")
    if not build_db and pieces is not None:
        raise PliesError("--pieces goes with --build-db")
    if build_book:
        note = f"note: book builds moved to 'plies book build {game.name} --plies N --out FILE'"
        build_book_now(game, position, book_plies, book_out, book_workers or 1, note)
    elif build_db:
        note = f"note: endgame builds moved to 'plies endgames build {game.name} --pieces N'"
        build_endgames(game, position, pieces, book_out, book_workers or 1, note)
    return build_book or build_db


def _use_book(game: Game[Any, Any], solver: PerfectSolver | None, book: str) -> None:
    """Give the solver the book of ``--book`` (``none``: no book)."""
    if not isinstance(solver, HasOpeningBook):
        raise PliesError(
            f"--book is for a perfect solver with an opening book; {game.name!r} has none"
        )
    solver.use_book(None if book == "none" else book)


def _solve_endgame(
    game: Game[Any, Any], position: str | None, db_folders: tuple[str, ...], as_json: bool
) -> bool:
    """Answer ``position`` from the endgame databases (``--db`` first); False where no class
    holds it."""
    folders = [Path(folder).expanduser() for folder in db_folders]
    for folder in folders:
        if not folder.is_dir():
            raise PliesError(f"--db {str(folder)!r}: no such folder")
    state = game.initial_state() if position is None else read_position(game, position)
    if game.is_terminal(state):
        raise PliesError(f"position {position!r}: the game is already over")
    endgames = endgames_for(game, folders)
    probed = endgames.probe(state)
    for problem in endgames.problems:
        click.echo(f"note: {problem}", err=True)
    if probed is None:
        try:
            position_class = endgames.classes.position_class(state)
        except ValueError:
            return False  # no class holds it: the search's own message follows
        raise PliesError(
            f"no endgame database holds this position ({position_class}): build them with "
            f"'plies endgames build {game.name} --pieces N', or give --depth D"
        )
    outcome, distance = probed
    best = [game.format_action(state, move) for move in endgames.best_moves(state)]
    position_class = str(endgames.classes.position_class(state))
    if as_json:
        echo_json(
            {
                "position": position_text(game, state),
                "outcome": OUTCOME_NAMES[outcome],
                "distance": None if distance == NO_DISTANCE else distance,
                "best_moves": best,
                "class": position_class,
                "database": True,
            }
        )
        return True
    mover = game.to_move(state)
    click.echo(game.display(state))
    verdict = {"win": f"{mover} wins", "loss": f"{mover} loses", "draw": "a draw"}
    length = plies_text(distance)
    click.echo(
        f"{verdict[OUTCOME_NAMES[outcome]]} {length} with perfect play ({position_class})".replace(
            "  ", " "
        )
    )
    click.echo(f"best moves: {' '.join(best)}")
    return True


def _solve_by_search(
    game_spec: str,
    game: Game[Any, Any],
    position: str | None,
    algorithm: str,
    options: dict[str, Any],
    each_move: bool,
    as_json: bool,
) -> None:
    state = game.initial_state() if position is None else read_position(game, position)
    first = game.players[0]
    search = ALGORITHMS[algorithm]
    result = search(game, state, max_player=first, **options)
    pv = line_notation(game, state, result.pv)
    moves = analyse_moves(game, state, search, max_player=first, **options) if each_move else []
    best = [game.format_action(state, m.action) for m in best_moves(moves, first, game, state)]
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
        "depth": result.depth,
        "solved": result.solved,
    }
    listed = [
        {"move": game.format_action(state, m.action), "value": m.value, "nodes": m.nodes}
        for m in moves
    ]
    if each_move:
        data.update(moves=listed, best_moves=best)
    if as_json:
        echo_json(data)
        return
    click.echo(game.display(state))
    if game.is_terminal(state):
        click.echo(f"game over: {outcome_text(game, state)}")
    else:
        click.echo(f"{game.to_move(state)} to move; {result.algorithm} ({rule_text(result.rule)})")
    limit = "" if result.depth is None else f" (to depth {result.depth} with EVAL)"
    click.echo(f"value: {number(result.value)} for {first}{limit}")
    if pv:
        click.echo(f"best move: {pv[0]}; principal variation: {' '.join(pv)}")
    click.echo(search_summary(result))
    if moves:
        click.echo(f"best moves: {' '.join(best)}")
        for move in moves:
            text = game.format_action(state, move.action)
            click.echo(f"  {text:>6}  value {number(move.value)}  {move.nodes:,} nodes")


def _as_number(text: str) -> int | str:
    """A move written as a number (a Connect Four column) as a JSON number."""
    return int(text) if text.isdigit() else text


def _solve_perfectly(
    game: Game[Any, Any],
    solver: PerfectSolver,
    position: str | None,
    weak: bool,
    analyze: bool,
    as_json: bool,
    seconds: float | None = None,
) -> None:
    state = game.initial_state() if position is None else read_position(game, position)
    if game.is_terminal(state):
        raise PliesError(f"position {position!r}: the game is already over")
    book = getattr(solver, "book", None)
    from_book = book is not None and not (weak or analyze) and book.lookup(state) is not None
    note = None if from_book or seconds is not None else solver.difficulty_note(state)
    if seconds is None and not solver.reaches(state, UNTIMED_REACH):
        raise PliesError(
            f"'{game.name}' is too deep for a search to the end from this position ({note}); "
            "give a later position, --time S, or --depth D for a depth-limited value"
        )
    if note is not None:
        click.echo(f"note: {note}", err=True)
    with until_interrupted() as interruption:
        solution = solver.solve(state, weak=weak, seconds=seconds)
    if interruption.happened:
        exit_interrupted(_proved_so_far(solver))
    labels = solver.slot_labels()
    scores: list[int | None] = []
    if analyze or weak:
        scores = solver.analyze(state, weak=weak)
        top = max(s for s in scores if s is not None)
        best = [labels[slot] for slot, s in enumerate(scores) if s == top]
    else:  # the table the solve filled makes the null-window test of each move cheap
        moves = solver.decide(state, keep_table=True).moves
        best = [game.format_action(state, move) for move in moves]
    if as_json:
        data: dict[str, Any] = {
            "moves": "" if position is None else position.strip(),
            "position": position_text(game, state),
            "score": solution.score,
            "best_moves": [_as_number(move) for move in best],
            "nodes": solution.nodes,
            "time": round(solution.time, 6),
            "weak": weak,
            "book": from_book,
        }
        if analyze:
            data["columns"] = scores
        echo_json(data)
        return
    click.echo(game.display(state))
    kind = "weak" if weak else "strong"
    click.echo(f"score {solution.score}: {solver.meaning(solution.score, weak)} ({kind} solve)")
    click.echo(f"best moves: {' '.join(best)}")
    if from_book:
        click.echo("from the opening book")
    else:
        rate = solution.nodes / solution.time if solution.time > 0 else 0.0
        click.echo(f"{solution.nodes:,} positions in {solution.time:.4f} s ({rate:,.0f}/s)")
    if analyze:
        shown: Sequence[int] = range(len(labels))
        if len(labels) > MOST_SLOTS_SHOWN:  # a board of squares: only the legal moves
            shown = [slot for slot in shown if scores[slot] is not None]
        cells = ["full" if scores[slot] is None else str(scores[slot]) for slot in shown]
        width = max(4, *(len(c) for c in cells), *(len(labels[slot]) for slot in shown))
        click.echo("move   " + " ".join(labels[slot].rjust(width) for slot in shown))
        click.echo("score  " + " ".join(c.rjust(width) for c in cells))


def _proved_so_far(solver: PerfectSolver) -> str:
    """What an interrupted solve had proved, where its solver keeps bounds
    (:class:`~plies.perfect.ProvesBounds`)."""
    if not isinstance(solver, ProvesBounds) or solver.known is None:
        return "nothing proved yet"
    low, high = solver.known
    if low > 0:
        return f"the side to move wins (score {low:+d} to {high:+d}); the exact score was next"
    if high < 0:
        return f"the side to move loses (score {low:+d} to {high:+d}); the exact score was next"
    return f"the score lies between {low:+d} and {high:+d}"


def _read_lines(source: str) -> list[str]:
    """The lines of a set file (or standard input for ``-``), without the final newline."""
    stream = getattr(sys.stdin, "buffer", sys.stdin)
    text = read_text(stream if source == "-" else source, "set file")
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()  # the newline that ends the last line
    return lines


def _solve_set(
    game: Game[Any, Any], solver: PerfectSolver, source: str, weak: bool, as_json: bool
) -> None:
    """Solve every position of a set file, print ``moves score`` lines, then a summary."""
    entries = read_set(game, _read_lines(source))
    summary = SetSummary()
    began = time.perf_counter()
    with progress_bar() as bar, until_interrupted() as interruption:
        task = bar.add_task("solving", total=len(entries))
        for result in solve_set(solver, entries, weak):
            bar.advance(task)
            summary.add(result)
            entry, solution = result.entry, result.solution
            if solution is None:
                click.echo(f"plies: error: {source}: {entry.error}", err=True)
            elif as_json:
                record = {
                    "line": entry.line,
                    "moves": entry.moves,
                    "score": solution.score,
                    "expected": entry.score,
                    "nodes": solution.nodes,
                    "time": round(solution.time, 6),
                }
                click.echo(json.dumps(record))
            else:
                click.echo(f"{entry.moves} {solution.score}")
    wall = time.perf_counter() - began
    if summary.solved:
        click.echo(
            f"{summary.solved} positions solved ({'weak' if weak else 'strong'}), "
            f"{summary.agree} of {summary.given} agree with the given scores; time mean "
            f"{summary.mean_time * 1000:.3f} ms, max {summary.max_time * 1000:.3f} ms; mean "
            f"positions explored {summary.mean_nodes:,.1f}; {summary.solved / wall:,.1f} "
            "positions/s",
            err=True,
        )
    if interruption.happened:
        exit_interrupted("the lines above are solved, the rest are not")
    if summary.bad:
        plural = "s" if summary.bad > 1 else ""
        click.echo(f"plies: error: {summary.bad} bad line{plural} in {source}", err=True)
        sys.exit(2)
