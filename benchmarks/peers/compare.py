"""plies against its peers: aima-python (``aima3``), easyAI and OpenSpiel, on the same tasks.

Prints figures, asserts nothing. The peers are installed only in the benchmark's own virtual
environment, never as plies dependencies. From the repository root::

    python3 -m venv benchmarks/.venv-peers
    benchmarks/.venv-peers/bin/pip install -e . -r benchmarks/peers/requirements.txt
    benchmarks/.venv-peers/bin/python benchmarks/peers/compare.py [--positions N] [--depth D]

Tasks (each row: values agree with the plies engine?, nodes, time, time(row) / time(plies
engine), so a ratio above 1 means plies' engine is that many times faster):

(a) solve tic-tac-toe from the empty board, each library on its own tic-tac-toe: the plies
    engine (``search`` without limits: iterative deepening until solved) and the textbook
    ``alphabeta``; aima's ``TicTacToe`` with ``alphabeta_search``; easyAI's ``TicTacToe`` with
    ``Negamax(9)``; OpenSpiel's ``tic_tac_toe`` with ``alpha_beta_search`` (no value
    function). Every value must be a draw. Times are the best of ``--repeat`` runs; node counts
    come from a separate counting run for the peers' own games, so the counters cost the timed
    runs nothing.

(b) fixed-depth alpha-beta on the first ``--positions`` lines of
    ``$PLIES_SHARED/data/connect4/Test_L2_R1`` (default ``PLIES_SHARED``: ``<repo>/../shared``)
    at depth ``--depth`` plies. To isolate search efficiency, aima and easyAI search *plies'*
    Connect Four through thin adapters (aima's ``Game``, easyAI's ``TwoPlayerGame``) with plies'
    rules, utilities (a win is +1) and EVAL; their move order is therefore plies' (centre
    first). OpenSpiel searches its own ``connect_four`` (columns left to right) with a value
    function that replays the moves played since the root (the tail of ``state.history()``)
    onto plies' root state and calls plies' EVAL; the time spent converting is measured and
    shown. Every value is mapped to the root mover's view on plies' utility scale and compared
    with the engine's ``SearchResult.value`` at the same depth (the textbook tier is shown too).

How each peer is driven (the API mismatches):

* aima's ``alphabeta_cutoff_search`` and ``alphabeta_search`` return only the best action. The
  script runs aima's own source with its last line changed from ``return best_action`` to
  ``return best_score, best_action`` (nothing else), so the value can be compared. aima's cutoff
  test is ``depth > d`` with the root's children at depth 1: ``d = D - 1`` searches D plies.
  aima counts nodes as calls of RESULT (+1 for the root).
* easyAI's ``negamax`` returns ``scoring * (1 + 0.001 * depth_left)`` at a leaf (its wins by
  distance): evaluations lie inside (-1, 1) and are reached at depth 0, unscaled, so a value of
  magnitude >= 1 decodes to a win or loss (+-1) and any other value is EVAL itself. The adapter
  gives easyAI ``unmake_move`` (its fast path, no copies); nodes are ``make_move`` calls + 1.
* OpenSpiel's Python ``alpha_beta_search`` clones a state per child. Its node count comes from
  a second, untimed run with the module's ``_alpha_beta`` wrapped by a counter. The pip wheel
  (open-spiel 2.0.2) binds no C++ alpha-beta (no ``pyspiel.alpha_beta_search``), so there is no
  C++ alpha-beta row; its C++ ``MCTSBot`` is not a fixed-depth search and is shown, for (a) only,
  as a note: whether its MCTS-Solver proves the empty board within a million simulations.

Choice of depth: the default ``--depth`` 11 is the deepest at which the slowest peer
(OpenSpiel) finishes the 50 positions in a few minutes and the whole script (with OpenSpiel's
counting run) stays under about 10 minutes. Seconds for the 50 positions, measured on the
project's 2-core machine (``--depth D``; ``--calibrate SECONDS`` repeats the search)::

    depth   plies engine   aima3   easyAI   easyAI + TT   OpenSpiel Python
      6         0.23        0.41     0.51         -              1.9
      7         0.27        0.93     1.16         -              5.2
      8         0.36        1.87     2.53       1.21            13.2
      9         0.47        4.66     6.45         -             35.4
     10         0.58       10.06    13.47       3.28            77.0
     11         0.72       28.34    35.07       5.19           184.1   (whole script 493 s)

OpenSpiel grows about 2.3x a ply, so depth 12 would take it about 7 minutes, 15 with the
counting run. The positions are "middle-easy": many are decided within a few plies, and the
engine stops deepening once it has proved a win or a loss (the value is then exact at any
greater depth), which the engine row's note counts.
"""

from __future__ import annotations

import argparse
import inspect
import math
import os
import sys
import textwrap
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from plies.games.connect4 import ConnectFour, ConnectFourState
from plies.games.tictactoe import TicTacToe
from plies.search.engine import EngineOptions, Limits, search
from plies.search.textbook import alphabeta

REPO = Path(__file__).resolve().parents[2]
DATA_FILE = Path("data") / "connect4" / "Test_L2_R1"
DEFAULT_DEPTH = 11
TOLERANCE = 1e-9
PURE_PYTHON_PEERS = ("aima3", "easyAI")
"""Peers whose search and game both run in Python (the 10x target is measured against them)."""
OPENSPIEL = "OpenSpiel Python"


# Rows ------------------------------------------------------------------------------------------


@dataclass
class Row:
    """One library's run of a task: its values (root mover's view, plies' utility scale)."""

    name: str
    values: list[float | None] = field(default_factory=list)
    nodes: int | None = None
    time: float = math.nan
    note: str = ""
    error: str | None = None
    core_time: float | None = None
    """OpenSpiel: its time less the cost of converting its states for plies' EVAL."""


def progress(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def decode_wins(value: float) -> float:
    """A value whose magnitude is at least a win's (+-1, possibly scaled by distance) as +-1."""
    return math.copysign(1.0, value) if abs(value) >= 1 else value


def agreement(row: Row, reference: Sequence[float | None]) -> tuple[int, list[int]]:
    """(agreeing count, indices of the mismatches) of ``row`` against the reference values."""
    bad = [
        i
        for i, (v, r) in enumerate(zip(row.values, reference, strict=True))
        if v is None or r is None or abs(v - r) > TOLERANCE
    ]
    return len(reference) - len(bad), bad


def print_table(title: str, rows: list[Row], reference: list[float | None]) -> None:
    base = rows[0].time
    header = ["library / algorithm", "values agree", "nodes", "time (s)", "nodes/s", "ratio"]
    body = []
    for row in rows:
        if row.error is not None:
            body.append([row.name, "-", "-", "-", "-", "-"])
            continue
        agree, _ = agreement(row, reference)
        nodes = "n/a" if row.nodes is None else f"{row.nodes:,}"
        nps = "n/a" if row.nodes is None or row.time <= 0 else f"{row.nodes / row.time:,.0f}"
        body.append(
            [
                row.name,
                f"{agree}/{len(reference)}",
                nodes,
                f"{row.time:.3f}",
                nps,
                f"{row.time / base:.2f}" if base > 0 else "n/a",
            ]
        )
    widths = [max(len(r[i]) for r in [header, *body]) for i in range(len(header))]
    print()
    print(title)
    print(
        "  ".join(
            h.ljust(w) if i == 0 else h.rjust(w)
            for i, (h, w) in enumerate(zip(header, widths, strict=True))
        )
    )
    print("  ".join("-" * w for w in widths))
    for cells in body:
        print(
            "  ".join(
                c.ljust(w) if i == 0 else c.rjust(w)
                for i, (c, w) in enumerate(zip(cells, widths, strict=True))
            )
        )
    print("ratio = time(row) / time(plies engine): above 1, plies' engine is faster")
    for row in rows:
        if row.error is not None:
            print(f"  {row.name}: not run: {row.error}")
            continue
        _, bad = agreement(row, reference)
        if bad:
            shown = ", ".join(f"#{i + 1}: {row.values[i]!r} vs {reference[i]!r}" for i in bad[:10])
            more = f" (and {len(bad) - 10} more)" if len(bad) > 10 else ""
            print(f"  {row.name}: MISMATCH on {len(bad)} position(s): {shown}{more}")
        if row.note:
            print(f"  {row.name}: {row.note}")
    sys.stdout.flush()


def best_of(repeat: int, run: Callable[[], Any]) -> tuple[float, Any]:
    """The fastest of ``repeat`` wall-clock timings of ``run()`` and its last result."""
    best, result = math.inf, None
    for _ in range(repeat):
        started = time.perf_counter()
        result = run()
        best = min(best, time.perf_counter() - started)
    return best, result


def tick(name: str, index: int, total: int, started: float) -> None:
    """Progress every 10 positions (on stderr; a print costs microseconds)."""
    if (index + 1) % 10 == 0 or index + 1 == total:
        progress(f"    {name}: {index + 1}/{total} ({time.perf_counter() - started:.1f} s)")


def guarded(name: str, task: Callable[[], Row]) -> Row:
    """Run one library's task; a peer that is missing or fails gives a row with the error."""
    progress(f"  {name} ...")
    try:
        row = task()
    except Exception as error:  # a peer's failure must not hide the others' figures
        progress(f"  {name}: failed: {type(error).__name__}: {error}")
        return Row(name, error=f"{type(error).__name__}: {error}")
    progress(f"  {name}: {row.time:.3f} s")
    return row


# aima-python -----------------------------------------------------------------------------------


def aima_with_value(function: Callable[..., Any]) -> Callable[..., Any]:
    """aima's search ``function`` recompiled from its own source with one change: the last line
    ``return best_action`` becomes ``return best_score, best_action`` (aima returns no value)."""
    source = textwrap.dedent(inspect.getsource(function))
    old, new = "\n    return best_action\n", "\n    return best_score, best_action\n"
    if source.count(old) != 1:
        raise RuntimeError(f"aima's {function.__name__} has changed: cannot expose its value")
    module = inspect.getmodule(function)
    namespace = dict(vars(module))
    filename = inspect.getsourcefile(function) or "<aima>"
    exec(compile(source.replace(old, new), filename, "exec"), namespace)
    return namespace[function.__name__]  # type: ignore[no-any-return]


def aima_adapter(aima_games: Any, game: ConnectFour) -> Any:
    """plies' Connect Four as an aima ``Game``: plies' rules, utility and (separately) EVAL.

    The methods aima calls are plies' own bound methods (no extra frame), except RESULT, which
    also counts the nodes."""

    class PliesGame(aima_games.Game):  # type: ignore[misc]
        def __init__(self) -> None:
            super().__init__()
            self.results = 0
            self.actions = game.actions
            self.terminal_test = game.is_terminal
            self.to_move = game.to_move
            self.utility = game.utility

        def result(self, state: ConnectFourState, move: int) -> ConnectFourState:
            self.results += 1
            return game.result(state, move)

    return PliesGame()


def aima_connect4(game: ConnectFour, states: list[ConnectFourState], depth: int) -> Row:
    import aima3.games as aima_games

    search_fn = aima_with_value(aima_games.alphabeta_cutoff_search)
    adapter = aima_adapter(aima_games, game)
    evaluate = game.evaluate
    values: list[float | None] = []
    started = time.perf_counter()
    for index, state in enumerate(states):
        player = game.to_move(state)
        value, _ = search_fn(
            state, adapter, d=depth - 1, eval_fn=lambda s, p=player: evaluate(s, p)
        )
        values.append(value)
        tick("aima3", index, len(states), started)
    elapsed = time.perf_counter() - started
    nodes = adapter.results + len(states)  # every RESULT is a node visited, plus the roots
    # The recompiled function must choose what aima's own does: check on the first position.
    first = states[0]
    check = {"d": depth - 1, "eval_fn": lambda s: evaluate(s, game.to_move(first))}
    original = aima_games.alphabeta_cutoff_search(first, adapter, **check)
    _, patched = search_fn(first, adapter, **check)
    note = "plies rules + EVAL via an aima Game adapter; d = D - 1 (aima cuts at depth > d)"
    if original != patched:
        note += f"; WARNING: the exposed-value copy chose {patched}, aima's own {original}"
    return Row("aima3 alphabeta_cutoff_search", values, nodes, elapsed, note)


def aima_tictactoe(repeat: int) -> Row:
    import aima3.games as aima_games

    search_fn = aima_with_value(aima_games.alphabeta_search)
    game = aima_games.TicTacToe()
    elapsed, (value, _) = best_of(repeat, lambda: search_fn(game.initial, game))

    class Counted(aima_games.TicTacToe):  # type: ignore[misc]
        results = 0

        def result(self, state: Any, move: Any) -> Any:
            Counted.results += 1
            return super().result(state, move)

    counted = Counted()
    search_fn(counted.initial, counted)
    return Row(
        "aima3 alphabeta_search",
        [float(value)],  # MAX is X, the mover at the root: already the mover's view
        nodes=Counted.results + 1,
        time=elapsed,
        note="aima's own TicTacToe; nodes: RESULT calls + 1, from a separate counting run",
    )


# easyAI ----------------------------------------------------------------------------------------


def easyai_adapter(easy: Any, game: ConnectFour, state: ConnectFourState) -> Any:
    """plies' Connect Four as an easyAI ``TwoPlayerGame`` (mutable: a stack of plies states)."""
    evaluate, to_move, result = game.evaluate, game.to_move, game.result

    class PliesGame(easy.TwoPlayerGame):  # type: ignore[misc]
        def __init__(self) -> None:
            self.players = [None, None]
            self.state = state
            self.current_player = 1 if to_move(state) == game.players[0] else 2
            self.stack: list[ConnectFourState] = []
            self.moves_made = 0

        def possible_moves(self) -> list[int]:
            return list(game.actions(self.state))

        def make_move(self, move: int) -> None:
            self.moves_made += 1
            self.stack.append(self.state)
            self.state = result(self.state, move)

        def unmake_move(self, move: int) -> None:
            self.state = self.stack.pop()

        def is_over(self) -> bool:
            return game.is_terminal(self.state)

        def scoring(self) -> float:
            return evaluate(self.state, to_move(self.state))  # negamax: the mover's view

        def ttentry(self) -> int:  # the key of easyAI's transposition table, when one is used
            return game.hash_key(self.state)

    return PliesGame()


def easyai_connect4(
    game: ConnectFour, states: list[ConnectFourState], depth: int, table: bool
) -> Row:
    import easyAI as easy

    name = "easyAI Negamax + TT" if table else "easyAI Negamax"
    values: list[float | None] = []
    nodes = 0
    started = time.perf_counter()
    for index, state in enumerate(states):
        adapter = easyai_adapter(easy, game, state)
        ai = easy.Negamax(depth, tt=easy.TranspositionTable() if table else None)
        ai(adapter)
        values.append(decode_wins(ai.alpha))
        nodes += adapter.moves_made + 1
        tick(name, index, len(states), started)
    elapsed = time.perf_counter() - started
    note = "plies rules + EVAL via a TwoPlayerGame adapter with unmake_move; "
    if table:
        note += (
            "easyAI's dict TranspositionTable keyed by plies' hash_key, new per position (it "
            "reuses entries of greater depth, so its values could in principle differ)"
        )
    else:
        note += "no table"
    return Row(name, values, nodes=nodes, time=elapsed, note=note)


def easyai_tictactoe(repeat: int) -> Row:
    import easyAI as easy
    from easyAI.games.TicTacToe import TicTacToe as EasyTicTacToe

    def solve() -> float:
        ai = easy.Negamax(9)
        ai(EasyTicTacToe([None, None]))
        return float(ai.alpha)

    elapsed, alpha = best_of(repeat, solve)

    class Counted(EasyTicTacToe):  # type: ignore[misc]
        made = 0

        def make_move(self, move: Any) -> None:
            Counted.made += 1
            super().make_move(move)

    easy.Negamax(9)(Counted([None, None]))
    return Row(
        "easyAI Negamax(9)",
        [decode_wins(alpha / 100)],  # easyAI's loss is -100, scaled by (1 + 0.001 * depth)
        nodes=Counted.made + 1,
        time=elapsed,
        note=f"easyAI's own TicTacToe (loss -100); raw value {alpha}; nodes from a counting run",
    )


# OpenSpiel -------------------------------------------------------------------------------------


def openspiel_counted(minimax: Any, run: Callable[[], Any]) -> int:
    """Nodes of ``run()``: calls of ``minimax._alpha_beta`` (it recurses through the module
    global, so wrapping the global counts every node), in an untimed run."""
    original = minimax._alpha_beta
    count = 0

    def counted(*args: Any, **kwargs: Any) -> Any:
        nonlocal count
        count += 1
        return original(*args, **kwargs)

    minimax._alpha_beta = counted
    try:
        run()
    finally:
        minimax._alpha_beta = original
    return count


def openspiel_connect4(
    game: ConnectFour,
    positions: list[str],
    states: list[ConnectFourState],
    depth: int,
    count_nodes: bool,
) -> Row:
    import pyspiel
    from open_spiel.python.algorithms import minimax

    spiel_game = pyspiel.load_game("connect_four")
    evaluate, result = game.evaluate, game.result
    converting = 0.0
    leaves = 0

    def make_task(position: str, root: ConnectFourState) -> Callable[[], tuple[float, int]]:
        spiel_root = spiel_game.new_initial_state()
        for char in position:
            spiel_root.apply_action(int(char) - 1)
        played = len(position)
        player = game.to_move(root)

        def value_function(spiel_state: Any) -> float:
            nonlocal converting, leaves
            leaves += 1
            started = time.perf_counter()
            state = root
            for action in spiel_state.history()[played:]:
                state = result(state, action)
            converting += time.perf_counter() - started
            return evaluate(state, player)

        return lambda: minimax.alpha_beta_search(
            spiel_game,
            spiel_root,
            value_function=value_function,
            maximum_depth=depth,
            maximizing_player_id=spiel_root.current_player(),
        )

    tasks = [make_task(p, s) for p, s in zip(positions, states, strict=True)]
    values: list[float | None] = []
    started = time.perf_counter()
    for index, task in enumerate(tasks):
        value, _ = task()
        values.append(float(value))
        tick(OPENSPIEL, index, len(tasks), started)
    elapsed = time.perf_counter() - started
    convert_time, leaf_count = converting, leaves
    nodes: int | None = None
    if count_nodes:
        progress(f"  {OPENSPIEL}: {elapsed:.3f} s; counting nodes in a second, untimed run ...")
        nodes = openspiel_counted(minimax, lambda: [task() for task in tasks])
    return Row(
        f"{OPENSPIEL} alpha_beta_search",
        values,
        nodes=nodes,
        time=elapsed,
        core_time=elapsed - convert_time,
        note=(
            f"its own connect_four (columns left to right) + plies EVAL; converting "
            f"{leaf_count:,} leaf states to plies states took {convert_time:.3f} s "
            f"({convert_time / elapsed:.0%} of its time; {elapsed - convert_time:.3f} s without "
            f"it); "
            + ("nodes from a separate counting run" if count_nodes else "nodes not counted")
        ),
    )


def openspiel_tictactoe(repeat: int) -> Row:
    import pyspiel
    from open_spiel.python.algorithms import minimax

    spiel_game = pyspiel.load_game("tic_tac_toe")

    def solve() -> float:
        value, _ = minimax.alpha_beta_search(spiel_game)
        return float(value)

    elapsed, value = best_of(repeat, solve)
    nodes = openspiel_counted(minimax, solve)
    return Row(
        f"{OPENSPIEL} alpha_beta_search",
        [value],
        nodes=nodes,
        time=elapsed,
        note="its own tic_tac_toe, no value function; nodes from a counting run",
    )


def openspiel_mcts_note() -> str:
    """Whether OpenSpiel's C++ MCTS-Solver proves the empty tic-tac-toe board (a note only)."""
    try:
        import pyspiel
    except ImportError as error:
        return f"OpenSpiel C++ MCTSBot: not run ({error})"
    spiel_game = pyspiel.load_game("tic_tac_toe")
    evaluator = pyspiel.RandomRolloutEvaluator(1, 0)
    simulations = 1_000_000
    bot = pyspiel.MCTSBot(spiel_game, evaluator, 2.0, simulations, 1000, True, 0, False)
    started = time.perf_counter()
    root = bot.mcts_search(spiel_game.new_initial_state())
    elapsed = time.perf_counter() - started
    outcome = list(root.outcome)
    verdict = f"proved {outcome}" if outcome else "did not prove the value"
    return (
        f"OpenSpiel C++ MCTSBot (solve=True, {simulations:,} simulations, {elapsed:.2f} s): "
        f"{verdict}; not a fixed-depth search, so not a row"
    )


# plies -----------------------------------------------------------------------------------------


def plies_connect4(
    game: ConnectFour, states: list[ConnectFourState], depth: int, textbook: bool
) -> Row:
    values: list[float | None] = []
    nodes = 0
    early = 0
    started = time.perf_counter()
    name = "plies textbook" if textbook else "plies engine"
    for index, state in enumerate(states):
        if textbook:
            found = alphabeta(game, state, depth=depth)
        else:
            found = search(game, state, Limits(depth=depth), EngineOptions())
        values.append(float(found.value))
        nodes += found.stats.nodes
        early += found.depth is not None and found.depth < depth
        tick(name, index, len(states), started)
    elapsed = time.perf_counter() - started
    if textbook:
        return Row("plies textbook alphabeta", values, nodes, elapsed, "reference (the oracle)")
    return Row(
        "plies engine search",
        values,
        nodes,
        elapsed,
        f"iterative deepening to D (all iterations counted), table, ordering, PVS; on {early} "
        f"of {len(states)} positions it stopped before depth {depth}, having proved a win or "
        f"a loss (or reached every end of the game)",
    )


def plies_tictactoe(repeat: int, textbook: bool) -> Row:
    game = TicTacToe()
    start = game.initial_state()
    if textbook:
        elapsed, found = best_of(repeat, lambda: alphabeta(game, start))
        return Row("plies textbook alphabeta", [float(found.value)], found.stats.nodes, elapsed)
    elapsed, found = best_of(repeat, lambda: search(game, start))
    return Row(
        "plies engine search",
        [float(found.value)],
        found.stats.nodes,
        elapsed,
        f"iterative deepening until solved (depth {found.depth}); all iterations counted",
    )


# Tasks -----------------------------------------------------------------------------------------


def task_tictactoe(repeat: int) -> list[Row]:
    progress(f"(a) tic-tac-toe from the empty board (best of {repeat})")
    rows = [
        guarded("plies engine", lambda: plies_tictactoe(repeat, textbook=False)),
        guarded("plies textbook", lambda: plies_tictactoe(repeat, textbook=True)),
        guarded("aima3", lambda: aima_tictactoe(repeat)),
        guarded("easyAI", lambda: easyai_tictactoe(repeat)),
        guarded(OPENSPIEL, lambda: openspiel_tictactoe(repeat)),
    ]
    print_table("(a) Solve tic-tac-toe from the empty board (value must be a draw, 0)", rows, [0.0])
    print(f"  note: {openspiel_mcts_note()}")
    return rows


def load_positions(count: int) -> tuple[Path, list[str]]:
    shared = Path(os.environ.get("PLIES_SHARED", REPO.parent / "shared"))
    path = shared / DATA_FILE
    lines = [line.split() for line in path.read_text().splitlines() if line.strip()]
    return path, [line[0] for line in lines[:count]]


def task_connect4(count: int, depth: int, count_openspiel: bool = True) -> list[Row]:
    path, positions = load_positions(count)
    game = ConnectFour()
    states = [game.parse_position(p) for p in positions]
    progress(f"(b) Connect Four: {len(states)} positions of {path}, depth {depth}")
    rows = [
        guarded("plies engine", lambda: plies_connect4(game, states, depth, textbook=False)),
        guarded("plies textbook", lambda: plies_connect4(game, states, depth, textbook=True)),
    ]
    rows += [
        guarded("aima3", lambda: aima_connect4(game, states, depth)),
        guarded("easyAI", lambda: easyai_connect4(game, states, depth, table=False)),
        guarded("easyAI + TT", lambda: easyai_connect4(game, states, depth, table=True)),
        guarded(
            OPENSPIEL,
            lambda: openspiel_connect4(game, positions, states, depth, count_openspiel),
        ),
    ]
    print_table(
        f"(b) Connect Four, depth-{depth} alpha-beta on {len(states)} positions of "
        f"{path.name} (values: root mover's view, plies' utility scale)",
        rows,
        rows[0].values,
    )
    return rows


# Verdict ---------------------------------------------------------------------------------------


def verdict(tasks: dict[str, list[Row]]) -> None:
    print()
    print("Targets (engine = plies engine search):")
    lines = []
    for label, rows in tasks.items():
        engine = rows[0]
        reference = engine.values
        pure = [r for r in rows if r.error is None and r.name.split()[0] in PURE_PYTHON_PEERS]
        spiel = [r for r in rows if r.error is None and r.name.startswith(OPENSPIEL)]
        if pure:
            fastest = min(pure, key=lambda r: r.time)
            ratio = fastest.time / engine.time
            met = "MET" if ratio >= 10 else "NOT MET"
            lines.append(
                f"  {label}: >= 10x faster than the fastest pure-Python peer ({fastest.name}): "
                f"{ratio:.1f}x -> {met}"
            )
        else:
            lines.append(f"  {label}: >= 10x faster than the fastest pure-Python peer: NOT RUN")
        if spiel:
            ratio = spiel[0].time / engine.time
            met = "MET" if ratio >= 1 else "NOT MET"
            core = spiel[0].core_time
            extra = (
                "" if core is None else f", {core / engine.time:.1f}x without its state conversion"
            )
            lines.append(
                f"  {label}: not slower than OpenSpiel's Python alpha-beta: {ratio:.1f}x{extra} "
                f"-> {met}"
            )
        else:
            lines.append(f"  {label}: not slower than OpenSpiel's Python alpha-beta: NOT RUN")
        ran = [r for r in rows[1:] if r.error is None]
        wrong = [r.name for r in ran if agreement(r, reference)[1]]
        missing = [r.name for r in rows if r.error is not None]
        same = "MET" if not wrong and not missing else "NOT MET"
        detail = f"mismatches: {', '.join(wrong)}" if wrong else "all agree"
        if missing:
            detail += f"; not run: {', '.join(missing)}"
        if label.startswith("(a)") and any(v != 0 for v in reference):
            same, detail = "NOT MET", f"the engine's value is {reference[0]}, not a draw"
        lines.append(f"  {label}: same values as the engine ({detail}) -> {same}")
    print("\n".join(lines))


def calibrate(count: int, budget: float) -> None:
    """Time every library at depths 4, 5, ... until the slowest takes more than ``budget`` s."""
    depth = 4
    while True:
        rows = task_connect4(count, depth, count_openspiel=False)
        slowest = max((r for r in rows if r.error is None), key=lambda r: r.time)
        print(f"depth {depth}: slowest {slowest.name} {slowest.time:.1f} s")
        if slowest.time > budget:
            print(f"deepest depth within {budget:.0f} s: {depth - 1}")
            return
        depth += 1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=50, help="Connect Four positions (50)")
    parser.add_argument(
        "--depth",
        type=int,
        default=DEFAULT_DEPTH,
        help=f"alpha-beta depth (default {DEFAULT_DEPTH})",
    )
    parser.add_argument("--repeat", type=int, default=3, help="timings per tic-tac-toe row (3)")
    parser.add_argument(
        "--no-openspiel-count",
        action="store_true",
        help="skip the second, untimed OpenSpiel run that counts its Connect Four nodes",
    )
    parser.add_argument(
        "--calibrate",
        type=float,
        metavar="SECONDS",
        help="instead: deepen from 4 until the slowest library takes more than SECONDS",
    )
    args = parser.parse_args(argv)
    if args.positions < 1 or args.depth < 1 or args.repeat < 1:
        parser.error("--positions, --depth and --repeat must be positive")
    if args.calibrate is not None:
        calibrate(args.positions, args.calibrate)
        return 0
    print(f"Python {sys.version.split()[0]}; {_versions()}")
    started = time.perf_counter()
    tasks = {
        "(a) tic-tac-toe": task_tictactoe(args.repeat),
        f"(b) connect4 depth {args.depth}": task_connect4(
            args.positions, args.depth, not args.no_openspiel_count
        ),
    }
    verdict(tasks)
    print(f"\n(total {time.perf_counter() - started:.0f} s)")
    return 0


def _versions() -> str:
    from importlib.metadata import PackageNotFoundError, version

    found = []
    for package in ("plies", "aima3", "easyAI", "open-spiel", "numpy"):
        try:
            found.append(f"{package} {version(package)}")
        except PackageNotFoundError:
            found.append(f"{package} not installed")
    return ", ".join(found)


if __name__ == "__main__":
    sys.exit(main())
