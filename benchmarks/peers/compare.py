"""plies against its peers: aima-python (``aima3``), easyAI and OpenSpiel, on the same tasks.

Prints figures, asserts nothing. The peers are installed only in the benchmark's own virtual
environment, never as plies dependencies. From the repository root::

    python3 -m venv benchmarks/.venv-peers
    benchmarks/.venv-peers/bin/pip install -e . -r benchmarks/peers/requirements.txt
    benchmarks/.venv-peers/bin/python benchmarks/peers/compare.py [--positions N] [--depth D]

Rows. plies has three: "plies engine, native" (``search`` with ``EngineOptions()``: the
compiled negamax, which the engine runs for both games), "plies engine, Python" (``search`` with
``EngineOptions(native=False)``: the same search in Python) and the textbook ``alphabeta``. The
native row is warmed up by one untimed search (loading the compiled code) before it is timed.
Each row: values agree with the native engine's?, nodes, time, nodes/s and the ratio time(row) /
time(native), so a ratio of 12 means that row took 12 times as long as the native engine. The
summary gives, per task, each row's nodes/s and the native engine's speed-up over it, against
the target of at least 10x over every peer (OpenSpiel on Connect Four is judged on the smaller
of its two figures, with and without its state conversion) and whether the two engine rows
searched as many nodes (the engine gives the native table as many slots as the Python one, so
the two search the same tree).

Tasks:

(a) solve tic-tac-toe from the empty board, each library on its own tic-tac-toe: the plies
    engines (``search`` without limits: iterative deepening until solved) and the textbook
    ``alphabeta``; aima's ``TicTacToe`` with ``alphabeta_search``; easyAI's ``TicTacToe`` with
    ``Negamax(9)``; OpenSpiel's ``tic_tac_toe`` with ``alpha_beta_search`` (no value
    function). Every value must be a draw. Times are the best of ``--repeat`` runs; node counts
    come from a separate counting run for the peers' own games, so the counters cost the timed
    runs nothing.

(b) fixed-depth alpha-beta on the first ``--positions`` lines of
    ``$PLIES_SHARED/data/connect4/Test_L2_R1`` (default ``PLIES_SHARED``: ``<repo>/../shared``)
    at depth ``--depth`` plies, each plies engine with a new table per position. To isolate
    search efficiency, aima and easyAI search *plies'* Connect Four through thin adapters
    (aima's ``Game``, easyAI's ``TwoPlayerGame``) with plies' rules, utilities (a win is +1)
    and EVAL; their move order is therefore plies' (centre first). OpenSpiel searches its own
    ``connect_four`` (columns left to right) with a value function that replays the moves
    played since the root (the tail of ``state.history()``) onto plies' root state and calls
    plies' EVAL; the time spent converting is measured and shown. Every value is mapped to the
    root mover's view on plies' utility scale and compared with the native engine's
    ``SearchResult.value`` at the same depth.

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

    depth   plies Python   aima3   easyAI   easyAI + TT   OpenSpiel Python   plies native
      6         0.23        0.41     0.51         -              1.9              0.05
      7         0.27        0.93     1.16         -              5.2              0.07
      8         0.36        1.87     2.53       1.21            13.2              0.08
      9         0.47        4.66     6.45         -             35.4              0.07
     10         0.58       10.06    13.47       3.28            77.0              0.11
     11         0.72       28.34    35.07       5.19           184.1              0.12

("plies Python" is the Python engine; whole script at depth 11: 493 s.) The native column was
measured later, on its own (best of 3 runs), when the compiled engine came. It grows little
with the depth: much of it is the engine's cost per search and per iteration (a new table,
the root calls from Python), not per node.

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

from plies.game import Game
from plies.games.connect4.rules import ConnectFour, ConnectFourState
from plies.games.tictactoe.rules import TicTacToe
from plies.search.engine import EngineOptions, Limits, compiled_engine, search
from plies.search.textbook import alphabeta

REPO = Path(__file__).resolve().parents[2]
DATA_FILE = Path("data") / "connect4" / "Test_L2_R1"
DEFAULT_DEPTH = 11
TOLERANCE = 1e-9
TARGET = 10.0
"""The native engine's target: at least this many times faster than every peer."""
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
    base = rows[0].time if rows[0].error is None else math.nan  # the native engine's
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
                f"{row.time:.4f}",
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
    print(f"ratio = time(row) / time({NATIVE}): how many times slower than the native engine")
    if rows[0].error is not None:
        print(f"  {NATIVE} did not run: values compared with the first row that ran")
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


NATIVE = "plies engine, native"
PYTHON = "plies engine, Python"
TEXTBOOK = "plies textbook alphabeta"
ENGINES = {NATIVE: EngineOptions(), PYTHON: EngineOptions(native=False)}
"""The engine's two rows: the defaults (compiled search on) and the pure-Python engine."""


def warm_up(game: Game[Any, Any], state: Any, limits: Limits) -> float:
    """One untimed native search of ``state`` (it loads the compiled code); its seconds."""
    if compiled_engine(game, ENGINES[NATIVE]) is None:
        raise RuntimeError(f"plies has no compiled engine for {type(game).__name__}")
    started = time.perf_counter()
    search(game, state, limits, ENGINES[NATIVE])
    return time.perf_counter() - started


def plies_connect4(game: ConnectFour, states: list[ConnectFourState], depth: int, name: str) -> Row:
    """``name``: :data:`NATIVE`, :data:`PYTHON` or :data:`TEXTBOOK`."""
    warm = warm_up(game, states[0], Limits(depth=depth)) if name == NATIVE else 0.0
    values: list[float | None] = []
    nodes = 0
    early = 0
    started = time.perf_counter()
    for index, state in enumerate(states):
        if name == TEXTBOOK:
            found = alphabeta(game, state, depth=depth)
        else:
            found = search(game, state, Limits(depth=depth), ENGINES[name])
        values.append(float(found.value))
        nodes += found.stats.nodes
        early += found.depth is not None and found.depth < depth
        tick(name, index, len(states), started)
    elapsed = time.perf_counter() - started
    if name == TEXTBOOK:
        return Row(name, values, nodes, elapsed, "the oracle")
    note = (
        f"iterative deepening to D (all iterations counted), table, ordering, PVS; on {early} "
        f"of {len(states)} positions it stopped before depth {depth}, having proved a win or "
        f"a loss (or reached every end of the game)"
    )
    if name == NATIVE:
        note = f"compiled search; untimed warm-up search {warm:.2f} s; " + note
    return Row(name, values, nodes, elapsed, note)


def plies_tictactoe(repeat: int, name: str) -> Row:
    """``name``: :data:`NATIVE`, :data:`PYTHON` or :data:`TEXTBOOK`."""
    game = TicTacToe()
    start = game.initial_state()
    if name == TEXTBOOK:
        elapsed, found = best_of(repeat, lambda: alphabeta(game, start))
        return Row(name, [float(found.value)], found.stats.nodes, elapsed)
    warm = warm_up(game, start, Limits()) if name == NATIVE else 0.0
    elapsed, found = best_of(repeat, lambda: search(game, start, Limits(), ENGINES[name]))
    note = f"iterative deepening until solved (depth {found.depth}); all iterations counted"
    if name == NATIVE:
        note = f"compiled search; untimed warm-up search {warm:.2f} s; " + note
    return Row(name, [float(found.value)], found.stats.nodes, elapsed, note)


# Tasks -----------------------------------------------------------------------------------------


def task_tictactoe(repeat: int) -> list[Row]:
    progress(f"(a) tic-tac-toe from the empty board (best of {repeat})")
    rows = [
        guarded(NATIVE, lambda: plies_tictactoe(repeat, NATIVE)),
        guarded(PYTHON, lambda: plies_tictactoe(repeat, PYTHON)),
        guarded(TEXTBOOK, lambda: plies_tictactoe(repeat, TEXTBOOK)),
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
        guarded(name, lambda name=name: plies_connect4(game, states, depth, name))
        for name in (NATIVE, PYTHON, TEXTBOOK)
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
        reference_values(rows),
    )
    return rows


def reference_values(rows: list[Row]) -> list[float | None]:
    """The values every row must agree with: the native engine's, else the first row's that
    ran (the native row failed)."""
    return next((r.values for r in rows if r.error is None), [])


# Verdict ---------------------------------------------------------------------------------------


def is_peer(row: Row) -> bool:
    return not row.name.startswith("plies")


def speed_up(native: Row, row: Row) -> tuple[float, str]:
    """How many times faster the native engine ran than ``row``, judged on the row's time or,
    for OpenSpiel on Connect Four, on its time without the state conversion where that is less
    (the harder test), and how it is shown."""
    ratio = row.time / native.time
    if row.core_time is None:
        return ratio, f"{ratio:.1f}x"
    core = row.core_time / native.time
    return min(ratio, core), f"{ratio:.1f}x ({core:.1f}x without its state conversion)"


def verdict(tasks: dict[str, list[Row]]) -> None:
    print()
    print(
        f"Targets: {NATIVE} at least {TARGET:g}x faster than every peer, with the same values. "
        "Speed-up = time(row) / time(native); OpenSpiel on Connect Four is judged on the "
        "smaller of its two figures."
    )
    for label, rows in tasks.items():
        native = rows[0]
        print()
        if native.error is not None:
            print(f"  {label}: {NATIVE} not run ({native.error}) -> NOT MET")
            continue
        reference = reference_values(rows)
        ran = [r for r in rows if r.error is None]
        table = [["row", "nodes/s", "native's speed-up", f">= {TARGET:g}x"]]
        short = []
        for row in ran:
            nps = "n/a" if row.nodes is None or row.time <= 0 else f"{row.nodes / row.time:,.0f}"
            if row is native:
                table.append([row.name, nps, "-", "-"])
                continue
            judged, shown = speed_up(native, row)
            met = "MET" if judged >= TARGET else "NOT MET"
            if is_peer(row) and judged < TARGET:
                short.append(f"{row.name} {judged:.1f}x")
            table.append([row.name, nps, shown, met if is_peer(row) else "(not a peer)"])
        widths = [max(len(r[i]) for r in table) for i in range(len(table[0]))]
        print(f"  {label} ({NATIVE}: {native.time:.4f} s)")
        for cells in table:
            print(
                "    "
                + "  ".join(
                    c.ljust(w) if i == 0 else c.rjust(w)
                    for i, (c, w) in enumerate(zip(cells, widths, strict=True))
                )
            )
        missing = [r.name for r in rows if r.error is not None]
        peers_missing = [name for name in missing if not name.startswith("plies")]
        if short or peers_missing:
            why = short + [f"{name} not run" for name in peers_missing]
            print(f"  {label}: >= {TARGET:g}x faster than every peer -> NOT MET ({'; '.join(why)})")
        else:
            print(f"  {label}: >= {TARGET:g}x faster than every peer -> MET")
        wrong = [r.name for r in ran[1:] if agreement(r, reference)[1]]
        same = "MET" if not wrong and not missing else "NOT MET"
        detail = f"mismatches: {', '.join(wrong)}" if wrong else "all agree"
        if missing:
            detail += f"; not run: {', '.join(missing)}"
        if label.startswith("(a)") and any(v != 0 for v in reference):
            same, detail = "NOT MET", f"the native engine's value is {reference[0]}, not a draw"
        print(f"  {label}: same values as the native engine ({detail}) -> {same}")
        python = next((r for r in ran if r.name == PYTHON), None)
        if python is not None:
            equal = "yes" if python.nodes == native.nodes else "NO"
            print(
                f"  {label}: native and Python engines searched as many nodes "
                f"({native.nodes:,} and {python.nodes:,}) -> {equal}"
            )


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
