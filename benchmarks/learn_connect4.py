"""Connect Four agents judged by perfect play: mistake rates on Pascal Pons's benchmark sets, and
optionally matches of the AlphaZero agent against the engine and MCTS at equal time.

Each agent plays one move in each position of the chosen sets (``$PLIES_SHARED/data/connect4``,
default ``PLIES_SHARED``: ``<repo>/../shared``; ``--limit N``: the first N lines of each), reset
before each move, and plies's own solver scores every move there
(:func:`plies.mistakes.judge_moves`, :func:`~plies.mistakes.summarise_verdicts`): a *mistake*
turns a win into a draw or loss or a draw into a loss, an *exact* move keeps the best score.
The solver's analysis of a position is computed once and shared by all agents (begin-hard takes
seconds per position, some over half a minute; ``--analyses FILE`` keeps the analyses between
runs). The seconds are the agent's own thinking time.

Sets: ``middle-medium`` (Test_L2_R2), ``begin-medium`` (Test_L1_R2), ``begin-hard``
(Test_L1_R3). Default agents: ``az:simulations=800`` and ``policy`` (the shipped self-play
network, with and without search), ``policy:model=connect4-distilled`` (the shipped network
distilled from the solver), ``engine:time=0.1`` and ``mcts:iterations=1000``; an agent whose
model is missing is skipped with a line saying so. ``--agents`` takes specs separated by
commas: a piece with ``=`` and no ``:`` continues the spec before it, so
``az:simulations=800,leaves=16,random`` is two agents (``;`` also separates).

``--match SECONDS`` adds matches at SECONDS a move, ``--games`` (20) games each on paired
openings (:func:`plies.arena.match.run_match`): ``az:time=S`` (``--match-agent``) against
``engine:time=S`` and against ``mcts:time=S``, with W/D/L, score, Elo and its 95% interval.

Ctrl-C prints what was measured so far (exit status 130); ``--json FILE`` writes the figures.

Usage (from the repository root)::

    PYTHONPATH=src .venv/bin/python benchmarks/learn_connect4.py [--sets begin-medium,...]
        [--limit N] [--agents SPEC,...] [--json FILE] [--analyses FILE]
        [--match SECONDS] [--games 20] [--match-agent az]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from plies.agents import Agent, make_agent
from plies.arena.match import run_match, summarise
from plies.arena.match import to_json as match_json
from plies.errors import CheckpointError, PliesError
from plies.games.connect4.rules import ConnectFour, ConnectFourState
from plies.games.connect4.solver import Connect4Solver
from plies.mistakes import MistakeSummary, judge_moves
from plies.solvers.sets import SetEntry, read_set

REPO = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("PLIES_SHARED", REPO.parent / "shared"))

SETS = {
    "middle-medium": "Test_L2_R2",
    "begin-medium": "Test_L1_R2",
    "begin-hard": "Test_L1_R3",
}
AGENTS = (
    "az:simulations=800",
    "policy",
    "policy:model=connect4-distilled",
    "engine:time=0.1",
    "mcts:iterations=1000",
)
OPPONENTS = ("engine", "mcts")


class SharedAnalyses:
    """The solver, with each position's analysis computed once (and timed)."""

    def __init__(self, solver: Connect4Solver, known: dict[ConnectFourState, list[Any]]) -> None:
        self.solver = solver
        self.known = known
        self.seconds = 0.0
        self.computed = 0

    def slot_labels(self) -> list[str]:
        return self.solver.slot_labels()

    def analyze(self, state: ConnectFourState, weak: bool = False) -> list[int | None]:
        if weak:
            return self.solver.analyze(state, weak)
        scores = self.known.get(state)
        if scores is None:
            began = time.perf_counter()
            scores = self.known[state] = self.solver.analyze(state)
            self.seconds += time.perf_counter() - began
            self.computed += 1
        return scores

    def __getattr__(self, name: str) -> Any:
        return getattr(self.solver, name)


class JudgedConnectFour(ConnectFour):
    """Connect Four (the same game to every agent and checkpoint) whose perfect solver shares
    its analyses between the agents judged."""

    def __init__(self) -> None:
        super().__init__()
        self.known: dict[ConnectFourState, list[Any]] = {}
        self.shared: SharedAnalyses | None = None

    def perfect_solver(self) -> Any:
        if self.shared is None:
            solver = super().perfect_solver()
            assert solver is not None
            self.shared = SharedAnalyses(solver, self.known)
        return self.shared


class Timed:
    """An agent with the seconds of its moves counted."""

    def __init__(self, agent: Agent) -> None:
        self.agent = agent
        self.name = agent.name
        self.seconds = 0.0

    @property
    def last(self) -> Any:
        return self.agent.last

    def reset(self) -> None:
        self.agent.reset()

    def __call__(self, game: Any, state: Any) -> Any:
        began = time.perf_counter()
        move = self.agent(game, state)
        self.seconds += time.perf_counter() - began
        return move


@dataclass
class Row:
    """One agent on one set."""

    agent: str
    set: str
    planned: int
    summary: MistakeSummary = field(default_factory=MistakeSummary)
    seconds: float = 0.0

    def cells(self) -> list[str]:
        s = self.summary
        per_move = f"{1000 * self.seconds / s.positions:.1f}" if s.positions else "-"
        return [
            self.agent,
            self.set,
            f"{s.positions}/{self.planned}",
            str(s.mistakes),
            f"{100 * s.mistake_rate:.1f}%" if s.positions else "-",
            f"{100 * s.exact_rate:.1f}%" if s.positions else "-",
            f"{self.seconds:.1f}",
            per_move,
        ]

    def to_json(self) -> dict[str, Any]:
        return {
            "agent": self.agent,
            "set": self.set,
            "planned": self.planned,
            **self.summary.to_json(),
            "seconds": round(self.seconds, 3),
        }


def table(header: list[str], body: list[list[str]]) -> None:
    widths = [max(len(line[i]) for line in [header, *body]) for i in range(len(header))]
    for line in [header, ["-" * w for w in widths], *body]:
        cells = zip(line, widths, strict=True)
        print("  ".join(c.ljust(w) if i < 2 else c.rjust(w) for i, (c, w) in enumerate(cells)))


def report(rows: list[Row], skipped: list[str], game: JudgedConnectFour) -> None:
    print()
    header = ["agent", "set", "positions", "mistakes", "mistake rate", "exact", "seconds"]
    table([*header, "ms/move"], [r.cells() for r in rows])
    for line in skipped:
        print(line)
    shared = game.shared
    if shared is not None:
        print(
            f"(solver: {shared.computed} positions analysed in {shared.seconds:.1f} s, "
            "each once for all agents)"
        )
    sys.stdout.flush()


def split_specs(text: str) -> list[str]:
    """Agent specs separated by ``;`` or ``,``; after a comma, a piece with ``=`` and no
    ``:`` is another option of the spec before it."""
    specs: list[str] = []
    for group in text.split(";"):
        pieces = [p.strip() for p in group.split(",") if p.strip()]
        for i, piece in enumerate(pieces):
            if i and "=" in piece and ":" not in piece:
                specs[-1] += f",{piece}"
            else:
                specs.append(piece)
    return specs


def with_time(spec: str, seconds: float) -> str:
    return f"{spec}{',' if ':' in spec else ':'}time={seconds:g}"


def load_set(game: ConnectFour, name: str, limit: int | None) -> list[SetEntry] | str:
    """The set's first ``limit`` positions, or why not."""
    path = SHARED / "data" / "connect4" / SETS[name]
    if not path.is_file():
        return f"set {name} skipped: {path} not found (set PLIES_SHARED)"
    lines = [line for line in path.read_text().split("\n") if line.strip()][:limit]
    entries = read_set(game, lines)
    bad = [e.error for e in entries if e.error is not None]
    if bad:
        return f"set {name} skipped: {bad[0]}"
    return entries


def judge(
    game: JudgedConnectFour, agent: Timed, entries: list[SetEntry], row: Row, rows: list[Row]
) -> None:
    """Judge ``agent`` on ``entries`` into ``row`` (appended to ``rows`` first)."""
    rows.append(row)
    for verdict in judge_moves(game, agent, entries):
        row.summary = row.summary.add(verdict)
        row.seconds = agent.seconds
        print(
            f"\r{row.agent} on {row.set}: {row.summary.positions}/{row.planned}, "
            f"{row.summary.mistakes} mistakes",
            end="",
            file=sys.stderr,
            flush=True,
        )
    print(file=sys.stderr)


def matches(game: ConnectFour, args: argparse.Namespace, results: list[dict[str, Any]]) -> None:
    """A against engine and MCTS at ``args.match`` seconds a move."""
    seconds = args.match
    spec_a = with_time(args.match_agent, seconds)
    print()
    print(f"matches: {args.games} games each on paired openings, {seconds:g} s a move")
    header = ["A", "B", "games", "W", "D", "L", "score", "Elo", "95% interval", "s/game"]
    body: list[list[str]] = []
    try:
        for opponent in OPPONENTS:
            spec_b = f"{opponent}:time={seconds:g}"
            try:
                outcomes = run_match(game, spec_a, spec_b, args.games, seed=args.seed)
            except CheckpointError as error:
                print(f"match {spec_a} vs {spec_b} skipped: {error}")
                continue
            played = []
            for outcome in outcomes:
                played.append(outcome)
                r = summarise(played)
                print(
                    f"\r{spec_a} vs {spec_b}: game {len(played)}/{args.games}: "
                    f"+{r.wins} ={r.draws} -{r.losses}",
                    end="",
                    file=sys.stderr,
                    flush=True,
                )
            print(file=sys.stderr)
            result = summarise(played)
            mean = sum(o.seconds for o in played) / len(played)
            body.append(
                [
                    spec_a,
                    spec_b,
                    str(result.games),
                    str(result.wins),
                    str(result.draws),
                    str(result.losses),
                    f"{result.score:.3f}",
                    f"{result.elo:+.0f}" + ("*" if result.clamped else ""),
                    f"[{result.elo_low:+.0f}, {result.elo_high:+.0f}]",
                    f"{mean:.1f}",
                ]
            )
            results.append({"a": spec_a, "b": spec_b, **match_json(result), "seconds": mean})
    finally:
        if body:
            table(header, body)
            if any(row[7].endswith("*") for row in body):
                print("* a perfect or zero score: Elo clamped as if half a game went the other way")


def machine() -> str:
    usable = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    load = " ".join(f"{x:.2f}" for x in os.getloadavg()) if hasattr(os, "getloadavg") else "?"
    return f"{usable} cores, load average {load}, Python {platform.python_version()}"


def one_torch_thread() -> str:
    """PyTorch on one thread, as the ``az`` agent runs its search (the network alone too)."""
    try:
        import torch
    except ImportError:
        return "no PyTorch"
    torch.set_num_threads(1)
    return f"PyTorch {torch.__version__} on 1 thread"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sets", default=",".join(SETS), help="comma-separated set names")
    parser.add_argument("--limit", type=int, help="first N positions of each set (all 1000)")
    parser.add_argument("--agents", default=";".join(AGENTS), help="agent specs")
    parser.add_argument("--json", type=Path, help="write the figures to this file")
    parser.add_argument("--analyses", type=Path, help="keep the solver's analyses in this file")
    parser.add_argument("--match", type=float, metavar="SECONDS", help="matches at S a move")
    parser.add_argument("--games", type=int, default=20, help="games a match (20)")
    parser.add_argument("--match-agent", default="az", help="A in the matches (az)")
    parser.add_argument("--seed", type=int, default=0, help="agents' and openings' seed")
    args = parser.parse_args(argv)
    names = [n.strip() for n in args.sets.split(",") if n.strip()]
    unknown = [n for n in names if n not in SETS]
    if unknown:
        parser.error(f"unknown set(s) {', '.join(unknown)}; choose from {', '.join(SETS)}")
    if (args.limit is not None and args.limit < 1) or args.games < 1:
        parser.error("--limit and --games must be positive")
    if args.match is not None and args.match <= 0:
        parser.error("--match must be a positive number of seconds")

    game = JudgedConnectFour()
    saved: dict[str, list[Any]] = {}
    if args.analyses is not None and args.analyses.is_file():
        saved = json.loads(args.analyses.read_text())
        game.known.update({game.parse_position(k): v for k, v in saved.items()})
    print("Connect Four agents judged by perfect play (plies's solver): one move a position")
    print(f"sets: {', '.join(f'{n} ({SETS[n]})' for n in names)}, {args.limit or 'all'} each")
    print(f"machine: {machine()}; {one_torch_thread()}; seed {args.seed}")
    sys.stdout.flush()

    agents: list[tuple[str, Timed]] = []
    skipped: list[str] = []
    for spec in split_specs(args.agents):
        try:
            agents.append((spec, Timed(make_agent(spec, game, seed=args.seed))))
        except CheckpointError as error:
            skipped.append(f"{spec} skipped: {error}")
        except PliesError as error:
            parser.error(f"agent {spec!r}: {error}")
    for line in skipped:
        print(line)
    sets = {name: load_set(game, name, args.limit) for name in names}
    for entries in sets.values():
        if isinstance(entries, str):
            skipped.append(entries)
            print(entries)

    rows: list[Row] = []
    match_results: list[dict[str, Any]] = []
    began = time.perf_counter()
    interrupted = reported = False
    try:
        for name, entries in sets.items():
            if isinstance(entries, str):
                continue
            for spec, agent in agents:
                agent.seconds = 0.0
                judge(game, agent, entries, Row(spec, name, len(entries)), rows)
        report(rows, skipped, game)
        reported = True
        if args.match is not None:
            matches(ConnectFour(), args, match_results)
    except KeyboardInterrupt:
        interrupted = True
        print("\ninterrupted: what was measured so far", file=sys.stderr)
        if not reported:
            report(rows, skipped, game)
    elapsed = time.perf_counter() - began
    print(f"(total {elapsed:.0f} s)")
    if args.analyses is not None:
        moves = {e.state: e.moves for v in sets.values() if not isinstance(v, str) for e in v}
        saved.update({moves[s]: v for s, v in game.known.items() if s in moves})
        args.analyses.write_text(json.dumps(saved) + "\n")
    if args.json is not None:
        figures = {
            "settings": {
                "sets": {n: SETS[n] for n in names},
                "limit": args.limit,
                "agents": [spec for spec, _ in agents],
                "match_seconds": args.match,
                "match_games": args.games,
                "seed": args.seed,
            },
            "machine": machine(),
            "mistakes": [row.to_json() for row in rows],
            "skipped": skipped,
            "matches": match_results,
            "seconds": round(elapsed, 1),
            "complete": not interrupted,
        }
        args.json.write_text(json.dumps(figures, indent=2) + "\n")
    return 130 if interrupted else 0


if __name__ == "__main__":
    sys.exit(main())
