"""plies' MCTS against its peers: iterations per second from fixed positions, random playouts.

Prints figures, asserts nothing. The peers live in the benchmark's own virtual environment,
never among plies' dependencies. From the repository root::

    benchmarks/.venv-peers/bin/pip install -e . -r benchmarks/peers/requirements.txt
    benchmarks/.venv-peers/bin/python benchmarks/peers/mcts_compare.py [--iterations 2000]

Each row runs one fresh search of ``--iterations`` iterations from each position (tic-tac-toe:
the empty board and ``O../.X./...``; Connect Four: the empty grid and ``4453``), best of
``--repeat`` timings. A timing covers building the searcher (the bot, the ``MCTS`` object)
and its one search, for every row alike; the rate is iterations / seconds, and ``ratio`` is
plies native's rate over the row's. Every iteration ends with one evaluation: a uniformly
random playout to the end of the game (or the terminal state's utility).

* plies ``MCTS(solver=False)``, plain UCT (UCB1, c = sqrt 2), in three forms. ``native``
  (``native=True``, the default; ``.native`` asserted): tree and playouts compiled (Numba);
  the first ``MCTS`` of the process loads that code, so one untimed search comes first.
  ``Python tree`` (``native=False``): on Connect Four with the game's compiled playout, on
  tic-tac-toe (which has none) with its rules' Python playout. ``Python tree and playout``
  (Connect Four only): ``evaluator=random_playout``. An extra row, ``Python tree, solver``,
  turns MCTS-Solver on (its default), whose proven nodes end iterations early and may end the
  search early.
* aima3 (``aima3.mcts.MCTS``, the AlphaZero-style search its ``MCTSPlayer`` uses; aima3 has no
  ``monte_carlo_tree_search``): PUCT, ``c_puct`` 5, with a ``policy_value_fn`` that gives uniform
  priors and a random playout's value. Tic-tac-toe is aima3's own ``TicTacToe``; Connect Four is
  plies' rules through a thin aima ``Game`` adapter. It deep-copies the root state every
  iteration, as its ``get_move_probs`` does.
* ``mcts`` 1.0.4 (PyPI, pure Python UCT): plies' rules through its state interface
  (``getPossibleActions``, ``takeAction``, ``isTerminal``, ``getReward``: the root player's
  utility), its own ``randomPolicy`` playout. As published it backs up one reward to every node
  and maximises it at every level, a one-player search: where the root player can force a win,
  its tree funnels into won terminal states, whose iterations cost next to nothing, so that
  rate belongs to a different search. The ``two-player`` row overrides only ``getBestChild``,
  scoring children for the player to move (the reward negated for the root player's opponent).
* OpenSpiel Python ``MCTSBot`` (pure Python search over OpenSpiel's C++ games, ``solve=False``,
  ``RandomRolloutEvaluator(1)``), and the C++ ``pyspiel.MCTSBot`` as a reference.

The speed target (plies at least 10x the fastest pure-Python peer) is checked per position on
the native row against the fastest of aima3, ``mcts`` one- and two-player and OpenSpiel's
Python bot; native's ratio to OpenSpiel's C++ bot is printed beside it.
"""

from __future__ import annotations

import argparse
import functools
import math
import random
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from plies.game import Game
from plies.games.connect4.rules import ConnectFour
from plies.games.tictactoe.rules import TicTacToe
from plies.search.mcts import MCTS, random_playout

NATIVE = "plies UCT, native"
PURE_PYTHON_PEERS = (
    "aima3 MCTS",
    "mcts 1.0.4",
    "mcts 1.0.4, two-player",
    "OpenSpiel Python MCTSBot",
)
"""The rows the target is checked against: the pure-Python peers."""
CPP_PEER = "OpenSpiel C++ MCTSBot"
TARGET = 10.0


@dataclass(frozen=True)
class Position:
    """A start position: plies' game and notation, and the same moves as cell or column indices
    (OpenSpiel's actions)."""

    game_name: str
    text: str
    moves: tuple[int, ...]

    @property
    def label(self) -> str:
        return f"{self.game_name} {self.text or '(empty grid)'}"


POSITIONS = (
    Position("tictactoe", ".../.../...", ()),
    Position("tictactoe", "O../.X./...", (4, 0)),
    Position("connect4", "", ()),
    Position("connect4", "4453", (3, 3, 4, 2)),
)


@dataclass
class Row:
    name: str
    iterations: int = 0
    seconds: float = math.nan
    note: str = ""
    error: str | None = None

    @property
    def rate(self) -> float:
        return self.iterations / self.seconds if self.seconds > 0 else math.nan


def progress(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def best_of(repeat: int, run: Callable[[], int]) -> tuple[float, int]:
    """The fastest of ``repeat`` timings of ``run()`` (which returns its iterations)."""
    best, done = math.inf, 0
    for _ in range(repeat):
        started = time.perf_counter()
        done = run()
        best = min(best, time.perf_counter() - started)
    return best, done


def plies_game(position: Position) -> tuple[Game[Any, Any], Any]:
    game: Game[Any, Any] = TicTacToe() if position.game_name == "tictactoe" else ConnectFour()
    return game, game.parse_position(position.text)  # type: ignore[attr-defined]


# plies -----------------------------------------------------------------------------------------


PLIES_VARIANTS = {
    "native": "compiled tree and playout (Numba)",
    "Python tree": "",  # the playout's note depends on the game
    "Python tree and playout": "the rules' Python playout",
    "Python tree, solver": "",
}
"""plies' rows: ``plies UCT, <variant>``, and their notes."""


def plies_row(position: Position, iterations: int, repeat: int, variant: str) -> Row:
    game, state = plies_game(position)
    native = variant == "native"
    solver = variant == "Python tree, solver"
    evaluator = random_playout if variant == "Python tree and playout" else None

    def run() -> int:
        mcts = MCTS(game, seed=1, solver=solver, evaluator=evaluator, native=native)
        if mcts.native != native:  # checked under python -O too
            raise RuntimeError(f"{game.name}: MCTS(native={native}).native is {mcts.native}")
        return mcts.search(state, iterations=iterations).stats.iterations

    run()  # untimed: loads the compiled tree or playout on first use
    seconds, done = best_of(repeat, run)
    note = PLIES_VARIANTS[variant]
    if variant == "Python tree":
        note = "compiled playout" if isinstance(game, ConnectFour) else "Python playout (no other)"
    if solver and done < iterations:
        note = f"root proven after {done} iterations"
    return Row(f"plies UCT, {variant}", done, seconds, note)


# aima3 -----------------------------------------------------------------------------------------


def aima_policy(rng: random.Random) -> Callable[[Any, Any], tuple[list[tuple[Any, float]], float]]:
    """aima3's ``policy_value_fn``: uniform priors, and a random playout's utility for the
    player to move (aima3's MCTS negates it for the player who moved into the leaf)."""

    def policy(game: Any, state: Any) -> tuple[list[tuple[Any, float]], float]:
        actions = game.actions(state)
        player, end = game.to_move(state), state
        while not game.terminal_test(end):
            moves = game.actions(end)
            end = game.result(end, moves[int(rng.random() * len(moves))])
        return [(a, 1 / len(actions)) for a in actions], game.utility(end, player)

    return policy


def aima_tictactoe(position: Position) -> tuple[Any, Any]:
    from aima3.games import TicTacToe as AimaTicTacToe

    game = AimaTicTacToe()
    state = game.initial
    for cell in position.moves:
        row, column = divmod(cell, 3)
        state = game.result(state, (column + 1, 3 - row))  # aima: (x, y), y = 3 at the top
    return game, state


def aima_connect4(position: Position) -> tuple[Any, Any]:
    from aima3.games import Game as AimaGame

    plies, start = plies_game(position)

    class PliesConnectFour(AimaGame):  # type: ignore[misc]
        def actions(self, state: Any) -> list[int]:
            return list(plies.actions(state))

        def result(self, state: Any, move: int) -> Any:
            return plies.result(state, move)

        def utility(self, state: Any, player: str) -> float:
            return plies.utility(state, player)

        def terminal_test(self, state: Any) -> bool:
            return plies.is_terminal(state)

        def to_move(self, state: Any) -> str:
            return plies.to_move(state)

    return PliesConnectFour(), start


def aima_row(position: Position, iterations: int, repeat: int) -> Row:
    from aima3.mcts import MCTS as AimaMCTS

    if position.game_name == "tictactoe":
        game, state = aima_tictactoe(position)
        note = "aima3's TicTacToe"
    else:
        game, state = aima_connect4(position)
        note = "plies' rules via an aima Game adapter"

    def run() -> int:
        search = AimaMCTS(game, aima_policy(random.Random(1)), c_puct=5, n_playout=iterations)
        search.get_move_probs(state)
        return iterations

    seconds, done = best_of(repeat, run)
    return Row("aima3 MCTS", done, seconds, note)


# mcts (PyPI) -----------------------------------------------------------------------------------


def mcts_package_row(position: Position, iterations: int, repeat: int, two_player: bool) -> Row:
    import mcts as package

    game, start = plies_game(position)
    root_player = game.to_move(start)

    class PliesState:
        """plies' rules in the ``mcts`` package's state interface."""

        __slots__ = ("state",)

        def __init__(self, state: Any) -> None:
            self.state = state

        def getPossibleActions(self) -> list[Any]:
            return list(game.actions(self.state))

        def takeAction(self, action: Any) -> PliesState:
            return PliesState(game.result(self.state, action))

        def isTerminal(self) -> bool:
            return game.is_terminal(self.state)

        def getReward(self) -> float:
            return game.utility(self.state, root_player)

    class TwoPlayerSearch(package.mcts):  # type: ignore[misc]
        """The package's search with one change: a node's children are scored from the point
        of view of the player to move there (the root player's reward, negated for the other)."""

        def getBestChild(self, node: Any, explorationValue: float) -> Any:
            sign = 1 if game.to_move(node.state.state) == root_player else -1
            bestValue, bestNodes = float("-inf"), []
            for child in node.children.values():
                nodeValue = sign * child.totalReward / child.numVisits + explorationValue * (
                    math.sqrt(2 * math.log(node.numVisits) / child.numVisits)
                )
                if nodeValue > bestValue:
                    bestValue, bestNodes = nodeValue, [child]
                elif nodeValue == bestValue:
                    bestNodes.append(child)
            return random.choice(bestNodes)

    search = TwoPlayerSearch if two_player else package.mcts

    def run() -> int:
        random.seed(1)  # its playouts and ties draw from the global generator
        search(iterationLimit=iterations).search(initialState=PliesState(start))
        return iterations

    seconds, done = best_of(repeat, run)
    if two_player:
        return Row("mcts 1.0.4, two-player", done, seconds, "plies' rules; selection per mover")
    return Row("mcts 1.0.4", done, seconds, "plies' rules; as published (one-player backup)")


# OpenSpiel -------------------------------------------------------------------------------------


def openspiel_state(position: Position) -> tuple[Any, Any]:
    import pyspiel

    game = pyspiel.load_game("tic_tac_toe" if position.game_name == "tictactoe" else "connect_four")
    state = game.new_initial_state()
    for move in position.moves:
        state.apply_action(move)
    return game, state


def openspiel_python_row(position: Position, iterations: int, repeat: int) -> Row:
    import numpy as np
    from open_spiel.python.algorithms import mcts as spiel_mcts

    game, state = openspiel_state(position)

    def run() -> int:
        evaluator = spiel_mcts.RandomRolloutEvaluator(1, np.random.RandomState(1))
        bot = spiel_mcts.MCTSBot(
            game,
            uct_c=math.sqrt(2),
            max_simulations=iterations,
            evaluator=evaluator,
            solve=False,
            random_state=np.random.RandomState(1),
        )
        bot.mcts_search(state)
        return iterations

    seconds, done = best_of(repeat, run)
    return Row("OpenSpiel Python MCTSBot", done, seconds, "OpenSpiel's C++ game")


def openspiel_cpp_row(position: Position, iterations: int, repeat: int) -> Row:
    import pyspiel

    game, state = openspiel_state(position)

    def run() -> int:
        evaluator = pyspiel.RandomRolloutEvaluator(1, 1)
        bot = pyspiel.MCTSBot(game, evaluator, math.sqrt(2), iterations, 1000, False, 1, False)
        bot.step(state)
        return iterations

    seconds, done = best_of(repeat, run)
    return Row("OpenSpiel C++ MCTSBot", done, seconds, "reference: C++ search and game")


# Report ----------------------------------------------------------------------------------------


def guarded(name: str, task: Callable[[], Row]) -> Row:
    """Run one library's row; a missing or failing peer gives a row with the error."""
    progress(f"  {name} ...")
    try:
        row = task()
    except Exception as error:  # one peer's failure must not hide the others' figures
        progress(f"  {name}: failed: {type(error).__name__}: {error}")
        return Row(name, error=f"{type(error).__name__}: {error}")
    progress(f"  {name}: {row.rate:,.0f} iterations/s")
    return row


def measure(position: Position, iterations: int, repeat: int) -> list[Row]:
    progress(f"{position.label}: {iterations} iterations, best of {repeat}")
    variants = [v for v in PLIES_VARIANTS if v != "Python tree and playout"]
    if position.game_name == "connect4":  # tic-tac-toe's Python tree has the Python playout
        variants.insert(2, "Python tree and playout")
    rows = [
        guarded(f"plies UCT, {v}", functools.partial(plies_row, position, iterations, repeat, v))
        for v in variants
    ]
    rows += [
        guarded("aima3", lambda: aima_row(position, iterations, repeat)),
        guarded("mcts", lambda: mcts_package_row(position, iterations, repeat, False)),
        guarded("mcts two-player", lambda: mcts_package_row(position, iterations, repeat, True)),
        guarded("OpenSpiel Python", lambda: openspiel_python_row(position, iterations, repeat)),
        guarded("OpenSpiel C++", lambda: openspiel_cpp_row(position, iterations, repeat)),
    ]
    return rows


def print_table(position: Position, rows: list[Row]) -> None:
    base = next((r.rate for r in rows if r.name == NATIVE and r.error is None), math.nan)
    header = ["library", "iterations", "seconds", "iterations/s", "ratio", "note"]
    body = []
    for row in rows:
        if row.error is not None:
            body.append([row.name, "-", "-", "-", "-", f"not run: {row.error}"])
            continue
        body.append(
            [
                row.name,
                f"{row.iterations:,}",
                f"{row.seconds:.3f}",
                f"{row.rate:,.0f}",
                f"{base / row.rate:.1f}",
                row.note,
            ]
        )
    widths = [max(len(line[i]) for line in [header, *body]) for i in range(len(header) - 1)]
    print()
    print(position.label)
    for line in [header, ["-" * w for w in widths] + ["----"], *body]:
        cells = [
            c.ljust(w) if i == 0 else c.rjust(w)
            for i, (c, w) in enumerate(zip(line, widths, strict=False))
        ]
        print("  ".join([*cells, line[-1]]))
    sys.stdout.flush()


def verdict(results: dict[Position, list[Row]]) -> None:
    print()
    print(
        f"Target: {NATIVE} at least {TARGET:g}x the fastest pure-Python peer"
        f" ({'; '.join(PURE_PYTHON_PEERS)})"
    )
    for position, rows in results.items():
        ok = {r.name: r for r in rows if r.error is None}
        native = ok.get(NATIVE)
        pure = [ok[name] for name in PURE_PYTHON_PEERS if name in ok]
        if native is None or not pure:
            print(f"  {position.label}: NOT RUN")
            continue
        fastest = max(pure, key=lambda r: r.rate)
        ratio = native.rate / fastest.rate
        met = "MET" if ratio >= TARGET else "NOT MET"
        cpp = ok.get(CPP_PEER)
        beside = f"; {native.rate / cpp.rate:.2f}x {CPP_PEER}" if cpp is not None else ""
        print(f"  {position.label}: {ratio:.1f}x {fastest.name} -> {met}{beside}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--iterations", type=int, default=2000, help="per search (2000)")
    parser.add_argument("--repeat", type=int, default=5, help="timings per row, best kept (5)")
    args = parser.parse_args(argv)
    if args.iterations < 1 or args.repeat < 1:
        parser.error("--iterations and --repeat must be positive")
    print(f"Python {sys.version.split()[0]}; {_versions()}")
    results: dict[Position, list[Row]] = {}
    try:
        for position in POSITIONS:
            results[position] = measure(position, args.iterations, args.repeat)
            print_table(position, results[position])
    except KeyboardInterrupt:
        progress("interrupted: the positions measured so far")
        verdict(results)
        return 130
    verdict(results)
    return 0


def _versions() -> str:
    from importlib.metadata import PackageNotFoundError, version

    found = []
    for package in ("plies", "aima3", "mcts", "open-spiel", "numpy", "numba"):
        try:
            found.append(f"{package} {version(package)}")
        except PackageNotFoundError:
            found.append(f"{package} not installed")
    return ", ".join(found)


if __name__ == "__main__":
    sys.exit(main())
