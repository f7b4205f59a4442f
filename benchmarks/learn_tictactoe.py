"""Tic-tac-toe from scratch by self-play to a player that never loses, checked exhaustively.

Trains with the library (:func:`plies.learn.training.create_run` and
:func:`~plies.learn.training.train`, one generation at a time, in a temporary folder or
``--out DIR``; self-play in this process with ``--workers 1`` or in ``--workers`` spawned
processes) and after every generation (the untrained network included, as generation 0)
checks two agents built from the generation's checkpoint:

- ``az:model=CHECKPOINT,simulations=S`` (PUCT search, ``S`` = ``--check-simulations``, by
  default ``--simulations``; the agent's other options at their defaults);
- ``policy:model=CHECKPOINT``, the network alone.

The check is exhaustive. The agent plays X, then O, against every sequence of opponent moves:
at every opponent turn every legal reply is tried, at every turn of the agent its own choice is
played; it passes when no line ends in the opponent's win. The agent is ``reset()`` before every
move, so its move is a function of the position (memoised per position, so each position is
asked once). This is stronger than never losing to perfect play, which tries only the
opponent's best replies: a player can draw every game against a perfect opponent and still lose
to a weak one that leads it where it has not learnt to play. The checker is first checked
itself: the exact player (:class:`plies.testing.Oracle`) must pass and a random one must fail.

The run stops at the first generation where ``az`` never loses (``--until policy``: where the
network alone never loses too) or after ``--max-generations`` (30), and prints the wall time of
training (self-play, gradient steps, checkpoints) and of checking separately, the generations
and the games played. ``--save FILE`` copies the first checkpoint whose ``az`` never loses.
Exit status 1 when ``az`` still loses at the last generation; Ctrl-C prints what was reached
so far (exit status 130).

Usage (from the repository root)::

    PYTHONPATH=src .venv/bin/python benchmarks/learn_tictactoe.py [--simulations 48]
        [--games 64] [--parallel 32] [--temperature-plies 9] [--learning-rate 3e-3]
        [--workers 2] [--max-generations 30] [--check-simulations S] [--until az|policy]
        [--out DIR] [--save FILE] [--seed 0]
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import torch

from plies.agents import Agent, make_agent
from plies.errors import PliesError
from plies.games.tictactoe.rules import Board, TicTacToe
from plies.learn.network import NetShape
from plies.learn.selfplay import SelfPlayConfig
from plies.learn.training import Run, TrainingConfig, create_run, train
from plies.learn.workers import SelfPlayPool, SelfPlayWorkers
from plies.testing import Oracle, OracleAgent

GAME = TicTacToe()


class Memoised:
    """An agent as a function of the position: ``reset()`` before each move, each position
    asked once; counts the positions asked and the seconds spent."""

    def __init__(self, agent: Agent) -> None:
        self.agent = agent
        self.moves: dict[Board, int] = {}
        self.seconds = 0.0

    def __call__(self, state: Board) -> int:
        move = self.moves.get(state)
        if move is None:
            began = time.perf_counter()
            self.agent.reset()
            move = self.moves[state] = self.agent(GAME, state)
            self.seconds += time.perf_counter() - began
        return move


def losing_line(choose: Callable[[Board], int], side: str) -> list[str] | None:
    """Moves from the empty board after which ``side``, playing ``choose``, has lost to some
    sequence of opponent moves; None when no such sequence exists. Depth first, every reply of
    the opponent, outcomes memoised per position; stops at the first loss found."""
    known: dict[Board, list[str] | None] = {}
    opponent = GAME.opponent(side)

    def visit(state: Board) -> list[str] | None:
        if state in known:
            return known[state]
        found: list[str] | None = None
        if GAME.is_terminal(state):
            found = [] if GAME.winner(state) == opponent else None
        else:
            mine = GAME.to_move(state) == side
            for action in [choose(state)] if mine else GAME.actions(state):
                tail = visit(GAME.result(state, action))
                if tail is not None:
                    found = [GAME.format_action(state, action), *tail]
                    break
        known[state] = found
        return found

    return visit(GAME.initial_state())


@dataclass
class Verdict:
    """Whether an agent never loses, else a line it loses (``side`` and its moves)."""

    never_loses: bool
    side: str = ""
    line: list[str] = field(default_factory=list)
    positions: int = 0
    agent_seconds: float = 0.0
    seconds: float = 0.0

    def __str__(self) -> str:
        if self.never_loses:
            return f"never loses ({self.positions} positions asked)"
        return f"loses as {self.side}: {' '.join(self.line)}"


def check(agent: Agent) -> Verdict:
    """Exhaustively, as X and then as O (stopping at the first loss found)."""
    began = time.perf_counter()
    choose = Memoised(agent)
    verdict = Verdict(True)
    for side in GAME.players:
        line = losing_line(choose, side)
        if line is not None:
            verdict = Verdict(False, side, line)
            break
    verdict.positions, verdict.agent_seconds = len(choose.moves), choose.seconds
    verdict.seconds = time.perf_counter() - began
    return verdict


def check_the_checker() -> None:
    """The exact player must pass, a random player must fail."""
    exact = check(OracleAgent(Oracle(GAME), random.Random(0)))
    if not exact.never_loses:
        raise SystemExit(f"checker broken: the exact player {exact}")
    chance = check(make_agent("random", GAME, seed=0))
    if chance.never_loses:
        raise SystemExit("checker broken: a random player never loses")
    print(
        f"checker checked: the exact player never loses ({exact.positions} positions asked, "
        f"{exact.seconds:.2f} s); a random player {chance}"
    )


@dataclass
class Progress:
    """What the run has reached so far."""

    games_per_generation: int
    generations: int = 0
    checked: int = -1
    training_seconds: float = 0.0
    checking_seconds: float = 0.0
    first: dict[str, int] = field(default_factory=dict)
    lines: list[str] = field(default_factory=list)

    def summary(self, max_generations: int, interrupted: bool = False) -> None:
        print()
        print(
            f"generations trained: {self.generations}, games played: "
            f"{self.generations * self.games_per_generation:,}; wall time: training "
            f"{self.training_seconds:.1f} s, checking {self.checking_seconds:.1f} s, total "
            f"{self.training_seconds + self.checking_seconds:.1f} s"
        )
        for name in ("az", "policy"):
            found = self.first.get(name)
            if found is None:
                print(
                    f"{name:>6}: loses somewhere at every generation checked (0-{self.generations})"
                )
            else:
                print(
                    f"{name:>6}: never loses, first at generation {found} "
                    f"({found * self.games_per_generation:,} games of self-play)"
                )
        if not interrupted and len(self.first) < 2 and self.generations >= max_generations:
            print(f"(stopped at --max-generations {max_generations})")


def run_generations(
    run: Run, pool: SelfPlayPool, args: argparse.Namespace, progress: Progress
) -> Path | None:
    """Train and check generation after generation; the first checkpoint where az never
    loses, if reached."""
    winner: Path | None = None
    cpu = torch.device("cpu")
    for generation in range(args.max_generations + 1):
        figures = ""
        if generation:
            began = time.perf_counter()
            [metrics] = train(run, generation, pool, cpu)
            progress.training_seconds += time.perf_counter() - began
            progress.generations = generation
            m = metrics
            figures = (
                f"{m['simulations_per_second']:,} sim/s, loss policy {m['policy_loss']:.3f} "
                f"value {m['value_loss']:.3f}, {m['draws']}/{m['games']} draws; "
            )
        checkpoint = run.checkpoint(generation)
        specs = {
            "az": f"az:model={checkpoint},simulations={args.check_simulations},device=cpu",
            "policy": f"policy:model={checkpoint},device=cpu",
        }
        verdicts = []
        for name, spec in specs.items():
            if name in progress.first:
                continue
            verdict = check(make_agent(spec, GAME, seed=0))
            progress.checking_seconds += verdict.seconds
            verdicts.append(f"{name} {verdict}")
            if verdict.never_loses:
                progress.first[name] = generation
                if name == "az":
                    winner = checkpoint
        progress.checked = generation
        line = f"generation {generation:>2}: {figures}{'; '.join(verdicts)}"
        progress.lines.append(line)
        print(line, flush=True)
        if "az" in progress.first and (args.until == "az" or "policy" in progress.first):
            break
    return winner


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--simulations", type=int, default=48, help="self-play, a move (48)")
    parser.add_argument("--games", type=int, default=64, help="self-play games a generation (64)")
    parser.add_argument("--parallel", type=int, default=32, help="games at once in a chunk (32)")
    parser.add_argument("--temperature-plies", type=int, default=9, help="plies drawn (9)")
    parser.add_argument("--learning-rate", type=float, default=3e-3, help="AdamW (3e-3)")
    parser.add_argument("--window", type=int, default=4, help="generations trained on (4)")
    parser.add_argument("--steps", type=int, help="gradient steps a generation (default: 8 uses)")
    parser.add_argument("--batch-size", type=int, default=256)
    parser.add_argument("--value-mix", type=float, default=0.0, help="search value share (0)")
    parser.add_argument(
        "--augment", action=argparse.BooleanOptionalAction, default=True, help="symmetries"
    )
    parser.add_argument("--blocks", type=int, help="residual blocks (default: per board, 2)")
    parser.add_argument("--filters", type=int, help="filters (default: per board, 32)")
    parser.add_argument("--workers", type=int, default=2, help="self-play processes (2)")
    parser.add_argument("--max-generations", type=int, default=30)
    parser.add_argument("--check-simulations", type=int, help="az's (default: --simulations)")
    parser.add_argument("--until", choices=("az", "policy"), default="az", help="stop (az)")
    parser.add_argument("--out", type=Path, help="keep the run in this new folder")
    parser.add_argument("--save", type=Path, help="copy the first checkpoint az passes with")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    if args.check_simulations is None:
        args.check_simulations = args.simulations
    if min(args.workers, args.max_generations, args.check_simulations) < 1:
        parser.error("--workers, --max-generations and --check-simulations must be positive")

    try:
        shape = NetShape.for_game(GAME, blocks=args.blocks, filters=args.filters)
        selfplay = SelfPlayConfig(
            simulations=args.simulations, temperature_plies=args.temperature_plies
        )
        training = TrainingConfig(
            games=args.games,
            parallel=args.parallel,
            steps=args.steps,
            batch_size=args.batch_size,
            learning_rate=args.learning_rate,
            window=args.window,
            value_mix=args.value_mix,
            augment=args.augment,
            eval_games=0,
        )
    except PliesError as error:
        parser.error(str(error))
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    print("tic-tac-toe from scratch to a player that never loses")
    print(
        f"network {shape.blocks} blocks x {shape.filters} filters; self-play: "
        f"{selfplay.simulations} simulations a move, temperature for {args.temperature_plies} "
        f"plies, {training.games} games a generation ({training.parallel} at once); training: "
        f"learning rate {training.learning_rate:g}, window {training.window}, batch "
        f"{training.batch_size}, steps {training.steps or 'auto (8 uses a position)'}, "
        f"symmetries {'on' if training.augment else 'off'}, value mix {training.value_mix:g}; "
        f"seed {args.seed}"
    )
    where = "in this process" if args.workers == 1 else f"in {args.workers} processes"
    print(f"machine: {cores} cores; self-play {where}, 1 PyTorch thread each; training on the CPU")
    print(
        f"check after every generation: az:model=CHECKPOINT,simulations={args.check_simulations} "
        "and policy:model=CHECKPOINT, reset before every move, as X and as O against EVERY "
        "sequence of opponent moves (stronger than never losing to perfect play)"
    )
    check_the_checker()
    print()
    sys.stdout.flush()

    progress = Progress(training.games)
    with tempfile.TemporaryDirectory(prefix="plies-ttt-") as temporary:
        directory = args.out or Path(temporary) / "run"
        try:
            run = create_run(directory, GAME, "tictactoe", shape, selfplay, training, args.seed)
        except PliesError as error:
            print(f"error: {error}", file=sys.stderr)
            return 2
        pool: SelfPlayPool = SelfPlayWorkers(args.workers)
        try:
            winner = run_generations(run, pool, args, progress)
        except KeyboardInterrupt:
            print("\ninterrupted: what was reached so far", file=sys.stderr)
            progress.summary(args.max_generations, interrupted=True)
            return 130
        finally:
            pool.close()
        progress.summary(args.max_generations)
        if args.out is not None:
            print(f"run folder: {args.out}")
        if winner is not None and args.save is not None:
            args.save.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(winner, args.save)
            print(f"saved {winner.name} (az never loses) to {args.save}")
        elif args.save is not None:
            print(f"nothing saved to {args.save}: az never stopped losing")
    return 0 if "az" in progress.first else 1


if __name__ == "__main__":
    sys.exit(main())
