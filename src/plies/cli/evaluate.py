"""plies evaluate: an agent's moves on a set of positions, judged by the perfect solver."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import click
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, TextColumn

from plies.agents import make_agent, plays_in_person
from plies.capabilities import EngineJudge, HasEngineJudge
from plies.cli.output import (
    Number,
    OutputPath,
    console,
    exit_interrupted,
    plural,
    progress_bar,
    until_interrupted,
)
from plies.errors import PliesError
from plies.game import Game
from plies.inputs import read_text
from plies.mistakes import (
    AgreementSummary,
    AnalysisFile,
    MistakeSummary,
    MoveVerdict,
    judge_moves,
)
from plies.registry import game_identity, make_game
from plies.solvers.sets import read_set
from plies.spec import NumberRange

POSITIONS = NumberRange(1, 10**9, integer=True)
"""How many positions ``--limit`` may ask for."""
JUDGE_DEPTH = NumberRange(1, 40, integer=True)
DEFAULT_JUDGE_DEPTH = 12

SHOWN_MISTAKES = 5
"""The mistakes the human summary lists one by one."""


@click.command("evaluate")
@click.argument("game_spec", metavar="GAME")
@click.argument("spec", metavar="SPEC")
@click.option(
    "--set",
    "set_file",
    required=True,
    metavar="FILE",
    help="The positions, one a line: 'moves [score]' (Pons's test sets); chess: a FEN a line.",
)
@click.option("--limit", type=Number(POSITIONS), help="Only the first N lines of FILE.")
@click.option(
    "--analyses",
    "analyses_file",
    type=OutputPath(),
    help="Keep the solver's analyses in this file and reuse them (judging many agents on "
    "one set solves each position once).",
)
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the agent.")
@click.option(
    "--depth",
    type=Number(JUDGE_DEPTH),
    help=f"Chess: the judge's search depth [default: {DEFAULT_JUDGE_DEPTH}].",
)
@click.option("--engine", metavar="COMMAND", help="Chess: the judge [default: stockfish].")
@click.option("--json", "as_json", is_flag=True, help="One JSON object a position, then a summary.")
def evaluate_command(
    game_spec: str,
    spec: str,
    set_file: str,
    limit: int | None,
    seed: int,
    depth: int | None,
    engine: str | None,
    analyses_file: Path | None,
    as_json: bool,
) -> None:
    """Play SPEC once in every position of FILE and judge each move by GAME's perfect solver,
    or for chess by Stockfish at a fixed depth.

    A mistake worsens the outcome (a win drawn or lost, a draw lost); an exact move keeps the
    best solved score. Agents: random, alphabeta:depth=N, engine:time=S, mcts:iterations=N,
    az (simulations=N), policy (model=NAME|FILE), perfect. Chess: the agreement with the
    engine's best move and the mean loss, in centipawns and in expected score.
    """
    game = make_game(game_spec)
    if plays_in_person(spec):
        raise PliesError("the agent judged is a program: use 'plies play' to play yourself")
    if isinstance(game, HasEngineJudge) and analyses_file is not None:
        raise PliesError(
            f"--analyses keeps a perfect solver's analyses; {game.name} is judged by an engine"
        )
    if isinstance(game, HasEngineJudge):
        depth = depth or DEFAULT_JUDGE_DEPTH
        referee = game.engine_judge(engine, depth)
        _evaluate_by_engine(game, referee, game_spec, spec, set_file, limit, seed, depth, as_json)
        return
    if depth is not None or engine is not None:
        raise PliesError(
            f"--depth and --engine go with an engine's judging; {game.name} is "
            "judged by its perfect solver"
        )
    agent = make_agent(spec, game, seed=seed)
    entries = read_set(game, _read_lines(set_file)[:limit])
    analyses = None if analyses_file is None else AnalysisFile(analyses_file, game_identity(game))
    verdicts = judge_moves(game, agent, entries, analyses)
    summary = MistakeSummary()
    mistakes: list[MoveVerdict] = []
    columns = (
        TextColumn("positions"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.description}"),
    )
    began = time.perf_counter()
    with progress_bar(*columns) as bar, until_interrupted() as interruption:
        task = bar.add_task("", total=len(entries))
        for verdict in verdicts:
            summary = summary.add(verdict)
            if verdict.mistake:
                mistakes.append(verdict)
            if as_json:
                click.echo(json.dumps(verdict.to_json()))
            bar.update(task, advance=1, description=plural(summary.mistakes, "mistake"))
    seconds = time.perf_counter() - began
    if as_json:
        report = {"game": game_spec, "agent": spec, "set": set_file, **summary.to_json()}
        report.update(seconds=round(seconds, 3), complete=not interruption.happened)
        click.echo(json.dumps(report))
    else:
        _print_summary(game_spec, spec, set_file, summary, mistakes, seconds)
    if interruption.happened:
        exit_interrupted(f"{summary.positions} of {len(entries)} positions judged")


def _evaluate_by_engine(
    game: Game[Any, Any],
    referee: EngineJudge,
    game_spec: str,
    spec: str,
    set_file: str,
    limit: int | None,
    seed: int,
    depth: int,
    as_json: bool,
) -> None:
    """The branch of :func:`evaluate_command` for games an outside engine judges (chess):
    ``referee`` judges, and is closed at the end."""
    summary = AgreementSummary()
    columns = (TextColumn("positions"), BarColumn(), MofNCompleteColumn())
    began = time.perf_counter()
    try:
        agent = make_agent(spec, game, seed=seed)
        positions = referee.positions(_read_lines(set_file)[:limit])
        with (
            progress_bar(*columns, TextColumn("{task.description}")) as bar,
            until_interrupted() as interruption,
        ):
            task = bar.add_task("", total=len(positions))
            for verdict in referee.verdicts(agent, positions):
                summary = summary.add(verdict)
                if as_json:
                    click.echo(json.dumps(verdict.to_json()))
                bar.update(task, advance=1, description=f"{summary.agreement_rate:.0%} agree")
    finally:
        referee.close()
    seconds = time.perf_counter() - began
    if as_json:
        report = {"game": game_spec, "agent": spec, "set": set_file, "depth": depth}
        report.update(summary.to_json(), seconds=round(seconds, 3))
        report.update(complete=not interruption.happened)
        click.echo(json.dumps(report))
    else:
        out = console()
        out.print(
            f"[bold]{escape(spec)}[/bold] on {plural(summary.positions, 'position')} of "
            f"{escape(Path(set_file).name)}, judged at depth {depth}"
        )
        out.print(
            f"  agrees with the judge's move  [bold]{summary.agreements:>5,}[/bold]"
            f"  {summary.agreement_rate:6.1%}"
        )
        out.print(
            f"  mean loss  [bold]{summary.mean_loss:.1f}[/bold] centipawns (each capped at "
            f"{referee.loss_cap:,}), [bold]{summary.mean_expected_loss:.3f}[/bold] expected score"
        )
        out.print(f"{seconds:.2f} s")
    if interruption.happened:
        exit_interrupted(f"{summary.positions} of {len(positions)} positions judged")


def _read_lines(path: str) -> list[str]:
    """The lines of a set file."""
    return read_text(path, "set file").splitlines()


def _print_summary(
    game_spec: str,
    spec: str,
    set_file: str,
    summary: MistakeSummary,
    mistakes: list[MoveVerdict],
    seconds: float,
) -> None:
    """Counts and rates, the first mistakes one by one, and the time taken."""
    out = console()
    out.print(
        f"[bold]{escape(spec)}[/bold] at {escape(game_spec)} on "
        f"{plural(summary.positions, 'position')} of {escape(Path(set_file).name)}"
    )
    out.print(
        f"  mistakes  [bold]{summary.mistakes:>5,}[/bold]  {summary.mistake_rate:6.1%}"
        "  (the outcome worsened: a win drawn or lost, a draw lost)"
    )
    out.print(
        f"  exact     [bold]{summary.exact:>5,}[/bold]  {summary.exact_rate:6.1%}"
        "  (the best solved score kept)"
    )
    for verdict in mistakes[:SHOWN_MISTAKES]:
        out.print(
            f"  line {verdict.line}: {escape(verdict.move)} (score {verdict.score}) in "
            f"{escape(verdict.moves)}; best {' '.join(verdict.best_moves)} "
            f"(score {verdict.best_score})"
        )
    if len(mistakes) > SHOWN_MISTAKES:
        out.print(f"  ... and {plural(len(mistakes) - SHOWN_MISTAKES, 'more mistake')}")
    mean = seconds / summary.positions if summary.positions else 0.0
    out.print(f"{seconds:.2f} s ({mean:.3f} s a position)")
