"""The compiled engine against the Python engine: the same search, node for node."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from plies.compiled import NOT_OVER
from plies.game import Game
from plies.games import make_game
from plies.native import kernels, native_mcts, native_search
from plies.native.engine import to_word
from plies.search import SearchResult, alphabeta
from plies.search.engine import EngineOptions, Limits, TranspositionTable, iterate, search
from plies.search.mcts import MCTS, heuristic_evaluator
from plies.testing import random_position, random_positions

GAMES = {
    "tictactoe": 9,
    "tictactoe:m=4,n=4,k=3,scoring=payoff": 4,
    "connect4": 6,
    "connect4:width=5,height=4,k=3": 6,
    "othello": 5,
    "checkers": 5,
    "chess": 3,
}
"""Game spec -> the depth the comparisons search to."""


def _reports(
    game: Game[Any, Any],
    state: Any,
    limits: Limits,
    options: EngineOptions,
    table: TranspositionTable | None,
    root_moves: list[Any] | None = None,
) -> list[tuple[Any, ...]]:
    """Every report of a search as a comparable tuple (all but the time)."""
    reports = iterate(game, state, limits, options, table, root_moves)
    return [_fields(report) for report in reports]


def _fields(report: SearchResult[Any]) -> tuple[Any, ...]:
    stats = report.stats
    return (
        report.value,
        report.score,
        report.action,
        report.pv,
        report.depth,
        report.complete,
        report.solved,
        stats.nodes,
        stats.leaves,
        stats.cutoffs,
        stats.max_depth,
    )


def _tables(game: Game[Any, Any], megabytes: float) -> tuple[Any, Any]:
    """A Python table and a native one with as many slots (so they collide alike)."""
    if megabytes == 0:
        return None, None
    python, compiled = TranspositionTable(megabytes), TranspositionTable(megabytes)
    kernel = native_search(game)
    assert kernel is not None
    compiled.native = kernel.table(python.size)
    return python, compiled


native_options = st.builds(
    EngineOptions,
    tt_mb=st.sampled_from([0.0, 0.2]),
    pvs=st.booleans(),
    aspiration=st.booleans(),
    ordering=st.booleans(),
    quiescence=st.booleans(),
    check_extension=st.booleans(),
    null_move=st.booleans(),
    reductions=st.booleans(),
    repetition=st.booleans(),
    deeper_cutoffs=st.booleans(),
    futility=st.booleans(),
    exchange=st.booleans(),
    probcut=st.booleans(),
)


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(sorted(GAMES)), st.integers(0, 10_000), st.integers(0, 40), native_options)
def test_every_report_equals_the_python_engines(
    spec: str, seed: int, plies: int, options: EngineOptions
) -> None:
    """Same score, line, depth and node, leaf and cutoff counts at every iteration, with the
    table, ordering, PVS, aspiration windows and quiescence (checkers, chess) on or off, and
    chess's check extension, null-move pruning, late-move reductions and repetitions, and
    Othello's ProbCut."""
    game = make_game(spec)
    state = random_position(game, seed, range(plies + 1))
    if game.is_terminal(state):
        return
    python_table, native_table = _tables(game, options.tt_mb)
    limits = Limits(depth=GAMES[spec])
    python = _reports(game, state, limits, replace(options, native=False), python_table)
    compiled = _reports(game, state, limits, options, native_table)
    assert compiled == python


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(sorted(GAMES)), st.integers(0, 10_000), st.integers(0, 40), native_options)
def test_root_moves_search_alike(spec: str, seed: int, plies: int, options: EngineOptions) -> None:
    """Searching some root moves (``iterate``'s ``root_moves``), the compiled engine still
    gives the Python engine's reports, node for node, its table kept from one search to the
    next as a UCI engine keeps it."""
    game = make_game(spec)
    state = random_position(game, seed, range(plies + 1))
    if game.is_terminal(state):
        return
    rng = random.Random(seed)
    moves = list(game.actions(state))
    python_table, native_table = _tables(game, options.tt_mb)
    limits = Limits(depth=GAMES[spec])
    for _ in range(2):
        listed = rng.sample(moves, rng.randint(1, len(moves)))
        python = _reports(game, state, limits, replace(options, native=False), python_table, listed)
        compiled = _reports(game, state, limits, options, native_table, listed)
        assert compiled == python
        assert all(report[2] in listed for report in python)


@pytest.mark.parametrize("spec", sorted(GAMES))
def test_a_node_limit_stops_both_at_the_same_node(spec: str) -> None:
    """The node limit is exact, so even the cut-short iteration's move and line agree."""
    game = make_game(spec)
    for state in random_positions(game, 5, seed=11, plies=range(2, 12)):
        limits = Limits(nodes=700)
        python_table, native_table = _tables(game, 0.2)
        python = _reports(game, state, limits, EngineOptions(native=False), python_table)
        compiled = _reports(game, state, limits, EngineOptions(), native_table)
        assert compiled == python


@pytest.mark.parametrize("spec", ["connect4", "othello", "checkers"])
def test_a_table_kept_across_a_game_ages_alike(spec: str) -> None:
    """An agent's table lives for a whole game and is aged between moves: searching the
    positions of a game in turn with one table each gives the same reports."""
    game = make_game(spec)
    python_table, native_table = _tables(game, 0.2)
    state = game.initial_state()
    for _ in range(8):
        limits = Limits(depth=GAMES[spec])
        python = _reports(game, state, limits, EngineOptions(native=False), python_table)
        compiled = _reports(game, state, limits, EngineOptions(), native_table)
        assert compiled == python
        state = game.result(state, python[-1][2])


def test_the_rules_kernels_agree_with_the_games() -> None:
    """Moves in the game's order, results, terminal outcomes and keys, state by state."""
    for spec in GAMES:
        game = make_game(spec)
        kernel = native_search(game)
        assert kernel is not None
        rules, params = kernel.rules, kernel.params
        out, work = np.zeros(kernels.MAX_MOVES, np.int64), np.zeros(rules.work, np.int64)
        child = np.zeros(rules.words, np.int64)
        for state in random_positions(game, 60, seed=3, plies=range(80)):
            row = np.zeros(rules.words, np.int64)
            words = [to_word(word) for word in rules.encode(state)]
            row[: len(words)] = words
            count = kernels.moves(params, row, out, work)
            actions = list(game.actions(state))
            assert [rules.decode_move(int(code)) for code in out[:count]] == actions, spec
            assert [rules.encode_move(action) for action in actions] == list(out[:count])
            assert int(kernels.key(params, row)) == game.hash_key(state)  # type: ignore[attr-defined]
            assert kernels.mover(params, row) == game.players.index(game.to_move(state)), spec
            result = kernels.outcome(params, row)
            earlier = [] if rules.history is None else list(rules.history(state))
            repeated = earlier.count(game.hash_key(state)) >= 2  # type: ignore[attr-defined]
            assert (result != NOT_OVER or repeated) == game.is_terminal(state), spec
            for action, code in zip(actions, out[:count], strict=True):
                assert kernels.is_capture(params, row, code) == (
                    rules.noisy and game.is_capture(state, action)  # type: ignore[attr-defined]
                ), (spec, action)
                kernels.play(params, row, code, child)
                expected = [to_word(word) for word in rules.encode(game.result(state, action))]
                assert list(child[: len(expected)]) == expected, (spec, action)


def test_games_beyond_the_kernels_use_the_python_engine() -> None:
    game = make_game("tictactoe:m=7,n=7,k=4")
    assert native_search(game) is None
    state = random_position(game, 1, range(30, 31))
    assert next(iterate(game, state, Limits(depth=1))).depth == 1
    for name in ("nim", "tiles", "go"):
        assert native_search(make_game(name)) is None, name
    assert native_mcts(make_game("go")) is not None
    assert native_mcts(make_game("nim")) is None
    assert native_mcts(make_game("chess")) is None  # its playouts would not count repetitions


def test_the_dispatch_makes_a_games_engine_once() -> None:
    """One compiled engine per game, loaded by its first search, whatever searches it."""
    game, twin = make_game("connect4"), make_game("connect4")
    kernel = native_search(game)
    assert kernel is not None and native_search(game) is kernel and native_mcts(game) is kernel
    assert native_search(twin) is not kernel and not kernel.loaded
    search(game, game.initial_state(), Limits(depth=2))
    assert kernel.loaded


LOAD_FROM_CACHE = """
import json
from plies.games import make_game
from plies.games.go import mcts_native as go_mcts
from plies.native import engine, mcts
from plies.search.engine import Limits, search
from plies.search.mcts import MCTS

game, go = make_game("tictactoe"), make_game("go:size=5")
search(game, game.initial_state(), Limits(depth=2))
MCTS(game, seed=1).search(game.initial_state(), iterations=10)
MCTS(go, seed=1).search(go.initial_state(), iterations=10)
roots = {"engine": engine.node, "mcts": mcts.run, "go": go_mcts.run, "go root": go_mcts.expand_root}
counts = {
    name: (sum(root.stats.cache_hits.values()), sum(root.stats.cache_misses.values()))
    for name, root in roots.items()
}
print(json.dumps(counts))
"""


def test_a_fresh_process_loads_the_compiled_searches_from_numbas_cache() -> None:
    """The compiled code a process saves, the next loads, whole (a recursive function called
    from another compiled one would crash on reloading: numba issue 6061)."""
    environment = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    for _ in range(2):  # the first process compiles what the cache lacks
        done = subprocess.run(
            [sys.executable, "-c", LOAD_FROM_CACHE],
            env=environment,
            capture_output=True,
            text=True,
            timeout=600,
        )
        assert done.returncode == 0, done.stderr
    counts = json.loads(done.stdout)
    assert all(hits > 0 and misses == 0 for hits, misses in counts.values()), counts


@pytest.fixture
def alarm() -> Iterator[None]:
    previous = signal.getsignal(signal.SIGALRM)
    yield
    signal.setitimer(signal.ITIMER_REAL, 0)
    signal.signal(signal.SIGALRM, previous)


def test_ctrl_c_stops_the_compiled_search_at_once(alarm: None) -> None:
    """A KeyboardInterrupt in the thread that drives the search ends the worker too."""

    def interrupt(signum: int, frame: Any) -> None:
        raise KeyboardInterrupt

    signal.signal(signal.SIGALRM, interrupt)
    game = make_game("othello")
    signal.setitimer(signal.ITIMER_REAL, 0.3)
    started = time.perf_counter()
    with pytest.raises(KeyboardInterrupt):
        for _ in iterate(game, game.initial_state(), Limits(depth=60)):
            pass
    assert time.perf_counter() - started < 2
    assert not [
        t for t in threading.enumerate() if t.name == "plies-native-search" and t.is_alive()
    ]


# Compiled MCTS -------------------------------------------------------------------------------

MCTS_GAMES = ("tictactoe", "tictactoe:m=4,n=4,k=3", "connect4", "othello", "checkers")


@pytest.mark.parametrize("spec", MCTS_GAMES)
def test_compiled_mcts_plays_legal_moves_and_repeats_itself(spec: str) -> None:
    game = make_game(spec)
    for state in random_positions(game, 6, seed=5, plies=range(0, 20)):
        runs = []
        for _ in range(2):
            mcts = MCTS(game, seed=9)
            assert mcts.native
            result = mcts.search(state, iterations=300)
            runs.append((result.action, result.pv, result.root, result.value, result.solved))
        assert runs[0] == runs[1]
        assert runs[0][0] in list(game.actions(state))
        line = state
        for action in runs[0][1]:  # the principal variation is a legal line
            assert action in list(game.actions(line))
            line = game.result(line, action)
        assert runs[0][4] or sum(move.visits for move in runs[0][2]) == 300


def test_compiled_mcts_statistics_add_up() -> None:
    game = make_game("connect4")
    state = game.parse_position("4453")
    mcts = MCTS(game, seed=7)
    result = mcts.search(state, iterations=1500)
    assert result.stats.iterations == 1500
    assert sum(move.visits for move in result.root) == 1500
    assert result.stats.nodes <= 1500 and result.stats.leaves <= result.stats.nodes
    tree = mcts.visit_tree(levels=2)
    assert [node.visits for node in tree] == sorted((m.visits for m in result.root), reverse=True)
    for node in tree:
        assert node.visits >= sum(child.visits for child in node.children)


def test_compiled_mcts_never_loses_to_perfect_play_at_tictactoe() -> None:
    game = make_game("tictactoe")
    for seat in (0, 1):
        for seed in range(4):
            mcts = MCTS(game, seed=seed)
            state = game.initial_state()
            while not game.is_terminal(state):
                if game.to_move(state) == game.players[seat]:
                    action = mcts.search(state, iterations=3000).action
                else:
                    action = alphabeta(game, state).action
                state = game.result(state, action)
            assert game.utility(state, game.players[seat]) >= 0, (seat, seed)


@pytest.mark.parametrize("spec", ["tictactoe", "connect4:width=4,height=4,k=3"])
def test_the_compiled_solver_proves_the_python_solvers_values(spec: str) -> None:
    game = make_game(spec)
    proved = 0
    for state in random_positions(game, 30, seed=2, plies=range(3, 12)):
        if game.is_terminal(state):
            continue
        native = MCTS(game, seed=1).search(state, iterations=20_000)
        python = MCTS(game, seed=1, native=False).search(state, iterations=20_000)
        assert native.solved == python.solved
        if native.solved:
            proved += 1
            assert native.value == python.value == alphabeta(game, state).value
    assert proved >= 10


def test_compiled_mcts_reuses_its_tree() -> None:
    game = make_game("connect4")
    mcts = MCTS(game, seed=3)
    start = game.initial_state()
    first = mcts.search(start, iterations=3000)
    mine = next(node for node in mcts.visit_tree(levels=2) if node.action == first.action)
    reply = max(mine.children, key=lambda node: node.visits)
    state = game.result(game.result(start, first.action), reply.action)
    second = mcts.search(state, iterations=500)
    assert sum(move.visits for move in second.root) == reply.visits - 1 + 500
    mcts.forget()
    fresh = mcts.search(state, iterations=500)
    assert sum(move.visits for move in fresh.root) == 500


def test_compiled_mcts_keeps_to_its_time() -> None:
    game = make_game("othello")
    started = time.perf_counter()
    result = MCTS(game, seed=1).search(game.initial_state(), seconds=0.2)
    assert time.perf_counter() - started < 2  # it stops; the precision: benchmarks/engine_clock.py
    assert result.stats.iterations > 0


def test_the_python_search_runs_where_the_compiled_one_does_not() -> None:
    game = make_game("connect4")
    assert not MCTS(game, native=False).native
    assert not MCTS(game, evaluator=heuristic_evaluator(game)).native
    assert not MCTS(make_game("nim")).native
