"""The Connect Four solver against Pons's published scores and benchmark sets, and against an
independent pure-Python negamax (no pruning, memoised) on near-full and small boards."""

from __future__ import annotations

import os
import random
import subprocess
import sys
import time
from collections.abc import Callable
from functools import cache
from pathlib import Path

import pytest

import plies.games.connect4.solver as connect4_module
from plies.errors import BudgetExhaustedError, GameOverError, SpecError, UnsupportedGameError
from plies.games.connect4.rules import ConnectFour, ConnectFourState
from plies.games.connect4.solver import Connect4Solver, Solution

REPO = Path(__file__).resolve().parents[2]
SHARED = Path(os.environ.get("PLIES_SHARED", REPO.parent / "shared"))

FAST_SETS = {  # name: (file, Pons's mean positions explored)
    "end-easy": ("Test_L3_R1", 51.3),
    "middle-easy": ("Test_L2_R1", 449.6),
    "begin-easy": ("Test_L1_R1", 3_298),
}

GAME = ConnectFour()
SOLVER = Connect4Solver(GAME, book=False)  # the search itself, not the opening book


def benchmark_set(name: str) -> list[tuple[str, int]]:
    """The 1000 ``(moves, score)`` lines of one of Pons's sets, or a skip if it is absent."""
    path = SHARED / "data" / "connect4" / FAST_SETS[name][0]
    if not path.is_file():
        pytest.skip(f"{path} not found (set PLIES_SHARED to the shared folder)")
    pairs = [line.split() for line in path.read_text().splitlines() if line.strip()]
    return [(moves, int(score)) for moves, score in pairs]


def sign(x: int) -> int:
    return (x > 0) - (x < 0)


def oracle(game: ConnectFour) -> Callable[[ConnectFourState], int]:
    """Pons's score by plain negamax over the game's own rules, memoised per state: a win by
    the stone that makes ``moves + 1`` scores ``(cells + 1 - moves) // 2``."""
    cells = game.width * game.height

    @cache
    def score(state: ConnectFourState) -> int:
        best = None
        for action in game.actions(state):
            child = game.result(state, action)
            if child.won:
                value = (cells + 1 - state.moves) // 2
            elif child.moves == cells:
                value = 0
            else:
                value = -score(child)
            best = value if best is None else max(best, value)
        assert best is not None
        return best

    return score


def random_position(game: ConnectFour, rng: random.Random, plies: int) -> ConnectFourState:
    """A position ``plies`` random stones in where nobody has won yet (games that end sooner
    are thrown away)."""
    while True:
        state = game.initial_state()
        while state.moves < plies and not game.is_terminal(state):
            state = game.result(state, rng.choice(list(game.actions(state))))
        if not game.is_terminal(state):
            return state


def near_full(game: ConnectFour, count: int, empty: int, seed: int) -> list[ConnectFourState]:
    """``count`` seeded random positions with 1 to ``empty`` empty cells."""
    rng = random.Random(seed)
    cells = game.width * game.height
    return [random_position(game, rng, cells - rng.randint(1, empty)) for _ in range(count)]


@pytest.mark.parametrize(("moves", "score"), [("4455", 18), ("44455554221", -15), ("4453", -2)])
def test_reference_examples(moves: str, score: int) -> None:
    solution = SOLVER.solve(GAME.parse_position(moves))
    assert solution == Solution(score, solution.nodes, solution.time, weak=False)
    assert solution.nodes > 0 and solution.time > 0


@pytest.mark.parametrize("name", sorted(FAST_SETS))
def test_fast_sets_match_pons_scores_with_no_more_positions(name: str) -> None:
    """Every position of end-easy, middle-easy and begin-easy scores as published, and the
    mean positions explored (table emptied per position, as Pons counts) is at most his."""
    lines = benchmark_set(name)
    nodes = 0
    for moves, score in lines:
        solution = SOLVER.solve(GAME.parse_position(moves))
        assert solution.score == score, moves
        nodes += solution.nodes
    assert nodes / len(lines) <= FAST_SETS[name][1]


def test_a_tiny_table_changes_the_work_not_the_scores() -> None:
    """1024 slots for thousands of positions: entries collide and get replaced all the time."""
    solver = Connect4Solver(GAME, entries=1024)
    for name in ("middle-easy", "begin-easy"):
        for moves, score in benchmark_set(name)[:150]:
            assert solver.solve(GAME.parse_position(moves)).score == score, moves


@pytest.mark.parametrize("name", sorted(FAST_SETS))
def test_weak_solve_gives_the_sign(name: str) -> None:
    for moves, score in benchmark_set(name)[:300]:
        solution = SOLVER.solve(GAME.parse_position(moves), weak=True)
        assert solution.weak and solution.score == sign(score), moves


def check_analysis(solver: Connect4Solver, game: ConnectFour, state: ConnectFourState) -> None:
    """analyze agrees with solving each child, and best_moves picks the best scores."""
    scores = solver.analyze(state)
    assert len(scores) == game.width
    cells = game.width * game.height
    for column in range(game.width):
        if column not in game.actions(state):  # a full column
            assert scores[column] is None
            continue
        child = game.result(state, column)
        if child.won:
            assert scores[column] == (cells + 1 - state.moves) // 2
        elif child.moves == cells:
            assert scores[column] == 0
        else:
            assert scores[column] == -solver.solve(child).score
    best = max(s for s in scores if s is not None)
    assert solver.best_moves(state) == [c for c, s in enumerate(scores) if s == best]
    assert best == solver.solve(state).score


@pytest.mark.parametrize("moves", ["44455554221", "2252576253462244111563365343671351441"])
def test_analyze_agrees_with_solving_each_child(moves: str) -> None:
    check_analysis(SOLVER, GAME, GAME.parse_position(moves))


def test_analyze_on_benchmark_positions() -> None:
    for moves, _ in benchmark_set("middle-easy")[:20]:
        check_analysis(SOLVER, GAME, GAME.parse_position(moves))


def test_a_weak_decision_keeps_every_move_of_the_same_outcome() -> None:
    """``decide(weak=True)``: the sign, and every column whose weak score has it (every
    column in a lost position); a draw is exact, so not marked weak."""
    outcomes = set()
    entries = benchmark_set("middle-easy")
    for moves, _ in entries[:10] + [entry for entry in entries if entry[1] == 0][:3]:
        state = GAME.parse_position(moves)
        scores = SOLVER.analyze(state, weak=True)
        outcome = max(s for s in scores if s is not None)
        decision = SOLVER.decide(state, weak=True)
        assert decision.score == outcome and decision.weak == (outcome != 0)
        assert decision.moves == [c for c, s in enumerate(scores) if s == outcome]
        outcomes.add(outcome)
    assert outcomes == {-1, 0, 1}


def test_analyze_examples() -> None:
    state = GAME.parse_position("715371563635542612576371")
    assert SOLVER.analyze(state) == [3, 2, 3, -9, 3, 3, 3]
    assert SOLVER.best_moves(state) == [0, 2, 4, 5, 6]
    state = GAME.parse_position("1233722555341451114725221333")
    assert SOLVER.analyze(state) == [None, None, None, -1, -1, -1, -1]
    assert SOLVER.analyze(state, weak=True) == [None, None, None, -1, -1, -1, -1]
    state = GAME.parse_position("52753311433677442422121")
    assert SOLVER.analyze(state) == [2, 3, 7, 7, 8, 7, 2]
    assert SOLVER.analyze(state, weak=True) == [1, 1, 1, 1, 1, 1, 1]
    state = GAME.parse_position("641154422657572536154")  # column 4 wins at once
    assert SOLVER.analyze(state) == [-8, -8, -10, 11, -8, 10, 10]
    assert SOLVER.analyze(state, weak=True) == [-1, -1, -1, 1, -1, 1, 1]
    check_analysis(SOLVER, GAME, state)


def test_against_pure_python_negamax_near_full() -> None:
    """Seeded random 7 x 6 positions with at most 12 empty cells: the kernel's scores, weak
    signs and analyses equal a memoised negamax over the game's own rules."""
    score = oracle(GAME)
    for state in near_full(GAME, 150, 12, seed=2024):
        expected = score(state)
        assert SOLVER.solve(state).score == expected, GAME.format_position(state)
        assert SOLVER.solve(state, weak=True).score == sign(expected)
    for state in near_full(GAME, 15, 10, seed=7):
        check_analysis(SOLVER, GAME, state)


SIZES = [(4, 4, 0), (3, 5, 0), (2, 6, 0), (1, 6, 0), (5, 4, 8), (6, 5, 18), (8, 5, 28)]
SIZES += [(9, 6, 42), (6, 7, 30)]
"""(width, height, random stones played first): whole small games, and near-full big boards
(9 x 6 needs all 63 bits of a signed integer for its keys)."""


@pytest.mark.parametrize(("width", "height", "plies"), SIZES)
def test_other_sizes_against_pure_python_negamax(width: int, height: int, plies: int) -> None:
    game = ConnectFour(width, height)
    score = oracle(game)
    solver = Connect4Solver(game, entries=1 << 20)
    rng = random.Random(width * 100 + height)
    for _ in range(6):
        state = random_position(game, rng, plies)
        assert solver.solve(state).score == score(state), game.format_position(state)
        check_analysis(solver, game, state)


def test_kept_table_gives_the_same_scores() -> None:
    """Bounds stay true across searches: keeping the table between the positions of a game
    changes the work, never a score."""
    lines = benchmark_set("middle-easy")[:30]
    for moves, score in lines:
        for end in range(len(moves), len(moves) - 3, -1):
            state = GAME.parse_position(moves[:end])
            fresh = SOLVER.solve(state)
            kept = SOLVER.solve(state, keep_table=True)
            assert kept.score == fresh.score
            assert kept.nodes <= fresh.nodes
        assert SOLVER.solve(GAME.parse_position(moves), keep_table=True).score == score


def test_table_reset_is_a_real_reset() -> None:
    """Each solve starts from an empty table, also when the generation numbers wrap around
    (a 9 x 6 board with a small table has only 3 of them)."""
    game = ConnectFour(9, 6)
    solver = Connect4Solver(game, entries=1 << 20)
    assert solver.generations == 3
    rng = random.Random(3)
    first = Solution(0, 0, 0.0)
    while first.nodes < 1000:  # a position that needs some search
        state = random_position(game, rng, 30)
        first = solver.solve(state)
    assert solver.solve(state, keep_table=True).nodes < first.nodes  # the table matters
    nodes = {solver.solve(state).nodes for _ in range(3 * solver.generations)}
    assert nodes == {first.nodes}


def test_paused_and_resumed_searches_do_the_same_work(monkeypatch: pytest.MonkeyPatch) -> None:
    """A search paused every 1024 positions and resumed gives the same score, explores the
    same positions (none counted twice) and reaches the same decisions as one run through."""
    states = [(GAME.parse_position(m), s) for m, s in benchmark_set("begin-easy")[:40]]

    def run() -> list[tuple[int, int, list[int], int]]:
        results = []
        for state, _ in states:
            solution, decision = SOLVER.solve(state), SOLVER.decide(state)
            results.append((solution.score, solution.nodes, decision.moves, decision.nodes))
        return results

    whole = run()
    monkeypatch.setattr(connect4_module, "CHUNK", 1024)
    assert run() == whole
    assert [score for score, *_ in whole] == [score for _, score in states]
    assert max(nodes for _, nodes, *_ in whole) > 20 * 1024  # many pauses happened


def test_a_budget_stops_the_search_and_keeps_what_it_proved() -> None:
    solved = [
        (SOLVER.solve(GAME.parse_position(m)), m, s) for m, s in benchmark_set("begin-easy")[:100]
    ]
    full, moves, score = max(solved, key=lambda triple: triple[0].nodes)
    state = GAME.parse_position(moves)
    assert full.nodes > 10_000
    with pytest.raises(BudgetExhaustedError, match="not solved in 2,048 positions"):
        SOLVER.solve(state, nodes=2048)
    with pytest.raises(BudgetExhaustedError, match="not solved in 2,048 positions"):
        SOLVER.decide(state, nodes=2048)
    assert SOLVER.solve(state, nodes=full.nodes).score == score  # enough budget: solved
    SOLVER.reset()
    with pytest.raises(BudgetExhaustedError):
        SOLVER.solve(state, keep_table=True, nodes=full.nodes // 2)
    resumed = SOLVER.solve(state, keep_table=True)  # the aborted search's bounds are true
    assert resumed.score == score and resumed.nodes < full.nodes


def test_a_time_budget_stops_the_search() -> None:
    state = GAME.parse_position("4")  # minutes to solve
    began = time.perf_counter()
    with pytest.raises(BudgetExhaustedError, match="not solved in time"):
        SOLVER.decide(state, seconds=0.05)
    assert time.perf_counter() - began < 5  # stopped, not run to the end


def test_decide_keeps_the_score() -> None:
    decision = SOLVER.decide(GAME.parse_position("4455"))
    assert (decision.score, decision.moves) == (18, [2, 5])
    won_at_once = GAME.parse_position("641154422657572536154")
    assert SOLVER.decide(won_at_once).moves == [3]
    lost = GAME.parse_position("1233722555341451114725221333")  # every move loses at once
    assert SOLVER.decide(lost).moves == [3, 4, 5, 6]


def test_game_over_raises() -> None:
    won = GAME.parse_position("1212121")
    for call in (SOLVER.solve, SOLVER.analyze, SOLVER.best_moves, SOLVER.decide):
        with pytest.raises(GameOverError, match="over"):
            call(won)
    small = ConnectFour(4, 4)
    draw = small.parse_position("4312213142124433")  # a full grid without a line
    assert small.is_terminal(draw) and not draw.won
    with pytest.raises(GameOverError):
        Connect4Solver(small, entries=1024).solve(draw)


def test_unsupported_games_raise() -> None:
    with pytest.raises(UnsupportedGameError, match="four in a row"):
        Connect4Solver(ConnectFour(k=5))
    with pytest.raises(UnsupportedGameError, match="rows"):
        Connect4Solver(ConnectFour(3, 20))
    with pytest.raises(SpecError, match="entries=10 is too small"):
        Connect4Solver(GAME, entries=10)
    with pytest.raises(SpecError, match="at least 524288"):
        Connect4Solver(ConnectFour(9, 6), entries=1 << 18)


VARIANT = """
import os, sys
os.environ["NUMBA_CACHE_DIR"] = sys.argv[1]
from plies.games.connect4 import solver_kernel as kernel
for name in sys.argv[2].split(","):
    setattr(kernel, name, False)
from plies.games.connect4.rules import ConnectFour
from plies.games.connect4.solver import Connect4Solver
game = ConnectFour()
solver = Connect4Solver(game, entries=1 << 16)
for line in sys.stdin.read().splitlines():
    solution = solver.solve(game.parse_position(line))
    print(solution.score, solution.nodes)
"""


@pytest.mark.parametrize(
    "switched_off",
    ["TABLE,NULL_WINDOW,CENTRE_FIRST,THREAT_ORDER", "HASH_MOVE,TWO_TIER,PREFETCH"],
)
def test_each_technique_changes_the_work_not_the_scores(switched_off: str, tmp_path: Path) -> None:
    """The benchmark's ladder switches techniques off (compiled afresh in a process of its
    own); every variant still gives Pons's scores, with more positions explored."""
    lines = benchmark_set("middle-easy")[:25]
    env = dict(os.environ, PYTHONPATH=str(REPO / "src"))
    out = subprocess.run(
        [sys.executable, "-c", VARIANT, str(tmp_path), switched_off],
        input="\n".join(moves for moves, _ in lines),
        capture_output=True,
        text=True,
        env=env,
        check=True,
    ).stdout.splitlines()
    small = Connect4Solver(GAME, entries=1 << 16)
    full_nodes = 0
    for (moves, score), row in zip(lines, out, strict=True):
        got, nodes = map(int, row.split())
        assert got == score, moves
        full_nodes += small.solve(GAME.parse_position(moves)).nodes - nodes
    assert full_nodes < 0  # the full solver does less work
