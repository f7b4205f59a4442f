"""Self-play speed: PUCT simulations per second with a policy-value network on this CPU, one
PyTorch thread per process.

The network is the game's default one (:meth:`NetShape.for_game`, trunk from
:func:`default_trunk`: 4 blocks x 32 filters for Connect Four) with random weights, which cost
what trained ones cost. Three ways of filling the network's batches are measured:

- ``across``: :func:`plies.learn.selfplay.play_games` with 1, 8, 32 and 64 games at once, one
  leaf per tree (``--move-simulations`` a move, 100: the training default), so each network
  call evaluates one leaf of every running game;
- ``tree``: one tree from the empty board searched by
  :func:`plies.search.puct.run_simulations` with 1, 4, 8 and 16 leaves per call held apart by a
  virtual loss (a fresh tree every ``--tree-size`` simulations, 2,000: one long move);
- ``workers``: ``--workers`` processes (2), each playing ``--worker-games`` games at once as
  in ``across``, started together: the total and the rate per core, beside one process alone.

Each measurement runs until ``--seconds`` (8) or ``--simulations`` is spent, checked after
every move of the batch (``across``, ``workers``: a move of 64 games at 100 simulations is
6,400 simulations) or every 100 simulations (``tree``). The evaluator and the network inside
it are wrapped in timers, so every row splits its time three ways: the network's forward pass
(``net``), the rest of the evaluator call (encoding the states, the softmax over legal moves),
and everything else, the tree (selection, expansion, backup, the game's rules).

A run at the default settings takes about 1.5 minutes. Ctrl-C prints the rows measured so far
(exit status 130).

Usage (from the repository root)::

    PYTHONPATH=src .venv/bin/python benchmarks/learn_selfplay_speed.py [--game connect4]
        [--seconds 8 | --simulations N] [--batches 1,8,32,64] [--leaves 1,4,8,16]
        [--workers 2] [--worker-games 64] [--parts across,tree,workers]
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import platform
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
import torch
from torch import nn

from plies.capabilities import HasTensorEncoding, require
from plies.game import Game
from plies.games import make_game
from plies.learn.evaluator import NetworkEvaluator
from plies.learn.network import NetShape, build_network
from plies.learn.selfplay import SelfPlayConfig, play_games
from plies.search.puct import Priors, PUCTConfig, Tree, run_simulations

PARTS = ("across", "tree", "workers")
TREE_CHUNK = 100


@dataclass(frozen=True)
class Budget:
    """Until ``seconds`` have passed or ``simulations`` are done (whichever is given)."""

    seconds: float | None
    simulations: int | None

    def spent(self, simulations: int, seconds: float) -> bool:
        if self.simulations is not None:
            return simulations >= self.simulations
        assert self.seconds is not None
        return seconds >= self.seconds

    def __str__(self) -> str:
        if self.simulations is not None:
            return f"{self.simulations:,} simulations"
        return f"{self.seconds:g} s"


class TimedNetwork(nn.Module):
    """The network, with the seconds spent in its forward passes."""

    def __init__(self, network: nn.Module) -> None:
        super().__init__()
        self.inner = network
        self.seconds = 0.0

    def forward(self, x: torch.Tensor) -> Any:
        began = time.perf_counter()
        out = self.inner(x)
        self.seconds += time.perf_counter() - began
        return out


class TimedEvaluator:
    """A :class:`NetworkEvaluator` over a :class:`TimedNetwork`, with the seconds of its calls."""

    def __init__(self, game: HasTensorEncoding, network: nn.Module) -> None:
        self.network = TimedNetwork(network)
        self.inner = NetworkEvaluator(game, self.network, torch.device("cpu"))
        self.seconds = 0.0

    def __call__(
        self, states: Sequence[Any], indices: Sequence[Sequence[int]]
    ) -> tuple[Priors, np.ndarray]:
        began = time.perf_counter()
        out = self.inner(states, indices)
        self.seconds += time.perf_counter() - began
        return out


@dataclass(frozen=True)
class Measurement:
    """One row: simulations done in ``seconds``, the evaluator's calls and positions, and the
    seconds inside the evaluator and inside the network's forward pass."""

    label: str
    simulations: int
    seconds: float
    calls: int
    positions: int
    evaluator_seconds: float
    network_seconds: float

    @classmethod
    def of(cls, label: str, simulations: int, seconds: float, ev: TimedEvaluator) -> Measurement:
        return cls(
            label,
            simulations,
            seconds,
            ev.inner.calls,
            ev.inner.positions,
            ev.seconds,
            ev.network.seconds,
        )

    @property
    def rate(self) -> float:
        return self.simulations / self.seconds if self.seconds else 0.0

    def row(self) -> list[str]:
        seconds = max(self.seconds, 1e-9)
        net = 100 * self.network_seconds / seconds
        rest = 100 * (self.evaluator_seconds - self.network_seconds) / seconds
        return [
            self.label,
            f"{self.simulations:,}",
            f"{self.seconds:.1f}",
            f"{self.rate:,.0f}",
            f"{self.positions / self.calls:.1f}" if self.calls else "-",
            f"{net:.0f}%",
            f"{rest:.0f}%",
            f"{100 - net - rest:.0f}%",
        ]


HEADER = ["measurement", "simulations", "seconds", "sim/s", "batch", "net", "encode", "tree"]


class _Spent(Exception):
    """The budget ran out in the middle of a batch of games."""


def across_games(
    game: Game[Any, Any],
    network: nn.Module,
    games: int,
    config: SelfPlayConfig,
    budget: Budget,
    label: str,
    seed: int = 0,
) -> Measurement:
    """``games`` self-play games at once, batch after batch, until ``budget`` is spent."""
    evaluator = TimedEvaluator(require(game, HasTensorEncoding, "self-play"), network)
    simulations = 0
    began = time.perf_counter()
    while not budget.spent(simulations, time.perf_counter() - began):
        active = games

        def on_move(running: int) -> None:
            nonlocal simulations, active
            simulations += config.simulations * active
            active = running
            if budget.spent(simulations, time.perf_counter() - began):
                raise _Spent

        try:
            play_games(game, evaluator, range(seed, seed + games), config, on_move)
        except _Spent:
            break
        seed += games
    return Measurement.of(label, simulations, time.perf_counter() - began, evaluator)


def one_tree(
    game: Game[Any, Any], network: nn.Module, leaves: int, size: int, budget: Budget
) -> Measurement:
    """One tree from the empty board, ``leaves`` per network call, a fresh tree every
    ``size`` simulations, until ``budget`` is spent."""
    evaluator = TimedEvaluator(require(game, HasTensorEncoding, "PUCT search"), network)
    config = PUCTConfig(leaves_per_tree=leaves)
    rng = np.random.default_rng(0)
    simulations = 0
    began = time.perf_counter()
    while not budget.spent(simulations, time.perf_counter() - began):
        tree, done = Tree(game, game.initial_state(), config, rng), 0
        while done < size and not budget.spent(simulations, time.perf_counter() - began):
            step = min(TREE_CHUNK, size - done)
            run_simulations([tree], evaluator, step)
            done += step
            simulations += step
    label = f"1 tree, {leaves} " + ("leaf" if leaves == 1 else "leaves") + " a call"
    return Measurement.of(label, simulations, time.perf_counter() - began, evaluator)


def warm_up(game: Game[Any, Any], network: nn.Module) -> None:
    """A few batched calls, so that no row pays PyTorch's first-call costs."""
    evaluator = TimedEvaluator(require(game, HasTensorEncoding, "PUCT search"), network)
    rng = np.random.default_rng(0)
    trees = [Tree(game, game.initial_state(), PUCTConfig(), rng) for _ in range(16)]
    run_simulations(trees, evaluator, 8)
    run_simulations(trees[:1], evaluator, 8)


def _worker(
    game: Game[Any, Any],
    shape: NetShape,
    weights: dict[str, torch.Tensor],
    games: int,
    config: SelfPlayConfig,
    budget: Budget,
    index: int,
    barrier: Any,
    results: Any,
) -> None:
    """One worker process: build the network, warm up, wait for the others, measure."""
    try:
        torch.set_num_threads(1)
        network = build_network(shape)
        network.load_state_dict(weights)
        network.eval()
        warm_up(game, network)
        barrier.wait()
        label = f"worker {index + 1}, {games} games"
        results.put(across_games(game, network, games, config, budget, label, 1000 * index))
    except KeyboardInterrupt:
        pass


def in_workers(
    game: Game[Any, Any],
    shape: NetShape,
    network: nn.Module,
    workers: int,
    games: int,
    config: SelfPlayConfig,
    budget: Budget,
) -> list[Measurement]:
    """``workers`` spawned processes playing ``games`` at once each, started together."""
    context = multiprocessing.get_context("spawn")
    barrier, results = context.Barrier(workers), context.Queue()
    weights = {k: v.detach().cpu() for k, v in network.state_dict().items()}
    processes = [
        context.Process(
            target=_worker,
            args=(game, shape, weights, games, config, budget, i, barrier, results),
            daemon=True,
        )
        for i in range(workers)
    ]
    for process in processes:
        process.start()
    try:
        measured = [results.get() for _ in processes]
        for process in processes:
            process.join()
    finally:
        for process in processes:
            if process.is_alive():
                process.terminate()
    return sorted(measured, key=lambda m: m.label)


def total(measured: list[Measurement], workers: int) -> list[Measurement]:
    """The workers' sum over the longest worker's time, and that per core."""
    seconds = max(m.seconds for m in measured)
    sums = [sum(getattr(m, f) for m in measured) for f in ("simulations", "calls", "positions")]
    evaluator = sum(m.evaluator_seconds for m in measured) / workers
    network = sum(m.network_seconds for m in measured) / workers
    both = Measurement(f"{workers} workers, total", sums[0], seconds, *sums[1:], evaluator, network)
    per_core = Measurement(
        "  per core",
        sums[0] // workers,
        seconds,
        sums[1] // workers,
        sums[2] // workers,
        evaluator,
        network,
    )
    return [both, per_core]


def print_table(title: str, rows: list[Measurement]) -> None:
    body = [m.row() for m in rows]
    widths = [max(len(line[i]) for line in [HEADER, *body]) for i in range(len(HEADER))]
    print(title)
    for line in [HEADER, ["-" * w for w in widths], *body]:
        cells = zip(line, widths, strict=True)
        print("  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(cells)))
    print()
    sys.stdout.flush()


def machine() -> str:
    """Cores, processor, load and library versions, in one line."""
    name = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as info:
            for line in info:
                if line.startswith("model name"):
                    name = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    usable = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    load = " ".join(f"{x:.2f}" for x in os.getloadavg()) if hasattr(os, "getloadavg") else "?"
    return (
        f"{usable} cores usable ({os.cpu_count()} in all), {name}; load average {load}; "
        f"Python {platform.python_version()}, PyTorch {torch.__version__}"
    )


def positive_list(text: str) -> list[int]:
    values = [int(x) for x in text.split(",") if x.strip()]
    if not values or min(values) < 1:
        raise argparse.ArgumentTypeError(f"{text!r}: expected positive integers, e.g. 1,8,32")
    return values


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="connect4", help="a game with a tensor encoding")
    budget = parser.add_mutually_exclusive_group()
    budget.add_argument("--seconds", type=float, default=8.0, help="per measurement (8)")
    budget.add_argument("--simulations", type=int, help="per measurement, instead of seconds")
    parser.add_argument("--batches", type=positive_list, default=[1, 8, 32, 64])
    parser.add_argument("--leaves", type=positive_list, default=[1, 4, 8, 16])
    parser.add_argument("--move-simulations", type=int, default=100, help="self-play (100)")
    parser.add_argument("--tree-size", type=int, default=2000, help="simulations a tree (2000)")
    parser.add_argument("--workers", type=int, default=2, help="processes (2)")
    parser.add_argument("--worker-games", type=int, default=64, help="games at once each (64)")
    parser.add_argument(
        "--parts", default=",".join(PARTS), help="comma-separated: " + ",".join(PARTS)
    )
    parser.add_argument("--seed", type=int, default=0, help="the network's random weights")
    args = parser.parse_args(argv)
    parts = [p.strip() for p in args.parts.split(",") if p.strip()]
    unknown = sorted(set(parts) - set(PARTS))
    if unknown:
        parser.error(f"--parts: unknown {', '.join(unknown)}; choose from {', '.join(PARTS)}")
    if (args.simulations is not None and args.simulations < 1) or args.seconds <= 0:
        parser.error("--simulations and --seconds must be positive")
    if min(args.move_simulations, args.tree_size, args.workers, args.worker_games) < 1:
        parser.error("--move-simulations, --tree-size, --workers, --worker-games: at least 1")
    limit = Budget(None if args.simulations is not None else args.seconds, args.simulations)

    game = make_game(args.game)
    encoding = require(game, HasTensorEncoding, "this benchmark")
    shape = NetShape.for_game(encoding)
    torch.manual_seed(args.seed)
    network = build_network(shape).eval()
    parameters = sum(p.numel() for p in network.parameters())
    config = SelfPlayConfig(simulations=args.move_simulations)
    puct = config.puct(encoding)
    print(f"self-play speed: {game!r}, random weights (seed {args.seed})")
    print(
        f"network: {shape.blocks} blocks x {shape.filters} filters ({parameters:,} parameters), "
        f"on the CPU, 1 PyTorch thread per process"
    )
    print(
        f"PUCT: c_puct {puct.c_puct}, root noise alpha {puct.noise_alpha:.3g} in self-play; "
        f"self-play {config.simulations} simulations a move; a tree {args.tree_size:,} "
        f"simulations; budget per measurement {limit}"
    )
    print(f"machine: {machine()}")
    print(
        "columns: batch = positions per network call; net = forward pass, encode = rest of "
        "the evaluator call (encoding, softmax), tree = everything else, as shares of the time"
    )
    print()
    sys.stdout.flush()

    torch.set_num_threads(1)
    began = time.perf_counter()
    sections: list[tuple[str, list[Measurement]]] = []
    try:
        warm_up(game, network)
        if "across" in parts:
            rows: list[Measurement] = []
            sections.append(("(a) batched across games (play_games, 1 leaf per tree)", rows))
            for games in args.batches:
                label = f"{games} game" + ("" if games == 1 else "s") + " at once"
                rows.append(across_games(game, network, games, config, limit, label))
                print(f"  {rows[-1].label}: {rows[-1].rate:,.0f} sim/s", file=sys.stderr)
        if "tree" in parts:
            rows = []
            sections.append(("(b) within one tree by virtual loss (run_simulations)", rows))
            for leaves in args.leaves:
                rows.append(one_tree(game, network, leaves, args.tree_size, limit))
                print(f"  {rows[-1].label}: {rows[-1].rate:,.0f} sim/s", file=sys.stderr)
        if "workers" in parts:
            rows = []
            title = f"(c) {args.workers} worker processes, {args.worker_games} games at once each"
            sections.append((title, rows))
            alone = next(
                (
                    m
                    for _, section in sections
                    for m in section
                    if m.label == f"{args.worker_games} games at once"
                ),
                None,
            )
            if alone is None:
                label = f"{args.worker_games} games at once"
                alone = across_games(game, network, args.worker_games, config, limit, label)
            rows.append(replace(alone, label=f"1 process alone, {args.worker_games} games"))
            measured = in_workers(
                game, shape, network, args.workers, args.worker_games, config, limit
            )
            rows += measured + total(measured, args.workers)
            scaling = rows[-2].rate / alone.rate if alone.rate else 0.0
            print(f"  {args.workers} workers: {rows[-2].rate:,.0f} sim/s", file=sys.stderr)
            sections[-1] = (f"{title}: {scaling:.2f} x one process alone", rows)
    except KeyboardInterrupt:
        print("\ninterrupted: the measurements finished so far", file=sys.stderr)
        for title, rows in sections:
            if rows:
                print_table(title, rows)
        return 130
    print(file=sys.stderr)
    for title, rows in sections:
        print_table(title, rows)
    print(f"(total {time.perf_counter() - began:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
