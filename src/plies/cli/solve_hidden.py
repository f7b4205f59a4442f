"""``plies solve`` for games of imperfect information: CFR, CFR+ or Monte Carlo CFR, then the
average strategy per information set, the game value and the exploitability."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import click

from plies.cli.output import echo_json, exit_interrupted, progress_bar, until_interrupted
from plies.errors import GameTooLargeError
from plies.game import Game
from plies.registry import game_spec
from plies.solvers.cfr import (
    CfrSolver,
    Exploitability,
    exploitability,
    game_tree,
    missing_sets,
    require_solvable,
    strategy_rows,
)
from plies.solvers.mccfr import MOST_SETS, ExternalSampling, OutcomeSampling, SampledCfr
from plies.solvers.strategy import Strategy, read_strategy, write_strategy

SAMPLERS: dict[str, type[SampledCfr]] = {
    ExternalSampling.name: ExternalSampling,
    OutcomeSampling.name: OutcomeSampling,
}
SOLVER_NAMES = ("cfr", "cfr+", *SAMPLERS)
DEFAULT_ITERATIONS = 1000
DEFAULT_CHECKPOINT = 60.0
"""Seconds between two writes of the strategy so far, with ``--save``."""
MOST_SHOWN = 300
"""The information sets printed at most (Leduc has 288); --json and --save hold them all."""
CHUNK = 10
"""Iterations between two looks at the clock, the progress bar and Ctrl-C."""


def solve_hidden(
    game: Game[Any, Any],
    solver_name: str | None,
    iterations: int | None,
    save: Path | None,
    resume: str | None,
    seed: int,
    as_json: bool,
    checkpoint: float = DEFAULT_CHECKPOINT,
) -> None:
    """Run the solver on ``game`` (CFR+ unless told), print what it found and save it (also
    every ``checkpoint`` seconds on the way)."""
    walkable = _walkable(game)
    name = solver_name or ("cfr+" if walkable else None)
    if name is None:
        raise GameTooLargeError(
            f"'{game.name}' is too large to walk whole, as CFR and exploitability need: use "
            "--solver mccfr-outcome (Monte Carlo CFR, sampling a game an iteration)"
        )
    if name not in SAMPLERS and not walkable:
        require_solvable(game, name)  # raises, saying why
    spec = game_spec(game)
    saved = read_strategy(resume, spec) if resume is not None else None
    solver: CfrSolver | SampledCfr = (
        SAMPLERS[name](game, seed, saved) if name in SAMPLERS else CfrSolver(game, name, saved)
    )
    ran, interrupted = _run(solver, iterations or DEFAULT_ITERATIONS, save, checkpoint)
    measured = _measure(game, solver) if walkable else None
    strategy = solver.strategy(
        None if measured is None else measured.exploitability,
        None if measured is None else measured.values[0],
    )
    if save is not None:
        write_strategy(save, strategy)
    if as_json:
        echo_json(_json(game, strategy, measured, ran, interrupted))
    else:
        _print(game, strategy, measured, ran, save)
    if interrupted:
        exit_interrupted(
            f"{ran:,} iterations run; the strategy so far is above"
            + (f" and saved in {save}" if save else "")
        )


def evaluate_strategy(game: Game[Any, Any], file: str, as_json: bool) -> None:
    """Print the game value and the exploitability of a saved strategy (both players)."""
    tree = game_tree(game)
    strategy = read_strategy(file, game_spec(game))
    measured = exploitability(tree, strategy_rows(tree, strategy))
    missing = missing_sets(tree, strategy)
    if as_json:
        body = _json(game, strategy, measured, 0, False)
        body["missing_sets"] = missing
        echo_json(body)
        return
    _print(game, strategy, measured, 0, None)
    if missing:
        click.echo(f"the strategy says nothing of {missing:,} sets: uniform there")


def _walkable(game: Game[Any, Any]) -> bool:
    """Whether the game's tree can be walked whole (CFR, exploitability)."""
    try:
        require_solvable(game, "CFR")
    except GameTooLargeError:
        return False
    return True


def _run(
    solver: CfrSolver | SampledCfr, iterations: int, save: Path | None, every: float
) -> tuple[int, bool]:
    """Run ``iterations`` with a progress bar, writing the strategy so far to ``save`` every
    ``every`` seconds (a crash or ``kill -9`` loses at most that); Ctrl-C or SIGTERM stops them
    (within an iteration), and a sampler stops when its tables are full."""
    ran = 0
    began = written = time.perf_counter()
    with until_interrupted(terminate=True) as interruption, progress_bar() as progress:
        task = progress.add_task("iterations", total=iterations)
        while ran < iterations:
            ran += solver.run(min(CHUNK, iterations - ran))
            progress.update(task, completed=ran)
            if isinstance(solver, SampledCfr) and solver.full():
                click.echo(f"stopped: the tables hold {MOST_SETS:,} sets, the most kept", err=True)
                break
            if save is not None and time.perf_counter() - written >= every:
                now = time.perf_counter()
                solver.seconds, began = solver.seconds + now - began, now
                write_strategy(save, solver.strategy())
                written = time.perf_counter()
    solver.seconds += time.perf_counter() - began
    return ran, interruption.happened


def _measure(game: Game[Any, Any], solver: CfrSolver | SampledCfr) -> Exploitability:
    """The average strategy's exploitability and values, on the walked tree."""
    if isinstance(solver, CfrSolver):
        return exploitability(solver.tree, solver.average())
    tree = game_tree(game)
    return exploitability(tree, strategy_rows(tree, solver.strategy()))


def _json(
    game: Game[Any, Any],
    strategy: Strategy,
    measured: Exploitability | None,
    ran: int,
    interrupted: bool,
) -> dict[str, Any]:
    return {
        "game": strategy.game,
        "solver": strategy.solver,
        "iterations": strategy.iterations,
        "iterations_run": ran,
        "seconds": round(strategy.seconds, 3),
        "sets": strategy.sets(),
        "value": None
        if measured is None
        else dict(zip(game.players, measured.values, strict=True)),
        "exploitability": None if measured is None else measured.exploitability,
        "nash_conv": None if measured is None else measured.nash_conv,
        "best_response": None
        if measured is None
        else dict(zip(game.players, measured.best, strict=True)),
        "strategy": strategy.table,
        "interrupted": interrupted,
    }


def _print(
    game: Game[Any, Any],
    strategy: Strategy,
    measured: Exploitability | None,
    ran: int,
    save: Path | None,
) -> None:
    """The strategy set by set, then how it was made, its value and exploitability."""
    rows = [
        (player, key, shares)
        for player, sets in strategy.table.items()
        for key, shares in sorted(sets.items(), key=lambda item: (len(item[0]), item[0]))
    ]
    for player, key, shares in rows[:MOST_SHOWN]:
        probabilities = "  ".join(f"{action} {share:.4f}" for action, share in shares.items())
        click.echo(f"{player}  {key:<12} {probabilities}")
    if len(rows) > MOST_SHOWN:
        click.echo(f"... and {len(rows) - MOST_SHOWN:,} sets more (--json or --save: all)")
    what = f"{strategy.solver}, {strategy.iterations:,} iterations"
    if ran and ran != strategy.iterations:
        what += f" ({ran:,} now)"
    click.echo(f"{game.name}: {what} in {strategy.seconds:.2f} s, {strategy.sets():,} sets")
    if measured is None:
        click.echo("value and exploitability: not computed (the game is too large to walk)")
    else:
        first, second = game.players
        click.echo(f"value: {first} {measured.values[0]:+.6f}, {second} {measured.values[1]:+.6f}")
        click.echo(
            f"exploitability: {_small(measured.exploitability)} "
            f"(NashConv {_small(measured.nash_conv)})"
        )
    if save is not None:
        click.echo(f"saved: {save}")


def _small(figure: float) -> str:
    """A figure near zero, with six decimals or in scientific notation below 1e-4."""
    return f"{figure:.6f}" if abs(figure) >= 1e-4 else f"{figure:.2e}"
