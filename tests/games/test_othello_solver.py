"""The exact Othello endgame solver: its flips against the reference kernel's, its scores and
best moves against a brute-force negamax near the end, FFO #40 from the shared suite, its
budgets, and the ways in (``plies solve``, the ``perfect`` agent, the analysers)."""

from __future__ import annotations

import json
import os
import random
import threading
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from plies.agents import make_agent
from plies.cli import main
from plies.errors import BudgetExhaustedError, InvalidPositionError, UnsupportedGameError
from plies.games.othello import Othello, OthelloState
from plies.games.othello import solver_kernel as kernel
from plies.games.othello.kernel import flips
from plies.games.othello.rules import PASS
from plies.games.othello.solver import OthelloSolver
from plies.learn.distill import perfect_solver as distill_solver
from plies.mistakes import judge_moves
from plies.perfect import Decision
from plies.review import best_analyser
from plies.solvers.sets import read_set, solve_set

REPO = Path(__file__).resolve().parents[2]
SHARED = Path(os.environ.get("PLIES_SHARED", REPO.parent / "shared"))
FFO = SHARED / "data" / "othello" / "fforum-40-59.obf"
GAME = Othello()


@pytest.fixture(scope="module")
def solver() -> OthelloSolver:
    return OthelloSolver(GAME)


def ffo_line(number: int) -> str:
    if not FFO.exists():
        pytest.skip(f"{FFO} not found (set PLIES_SHARED to the shared folder)")
    return FFO.read_text().splitlines()[number - 40]


def empties_of(state: OthelloState) -> int:
    return 64 - (state.black | state.white).bit_count()


def late_positions(count: int, empties: int, seed: int) -> list[OthelloState]:
    """Positions of random games with ``empties`` empty squares (games over sooner skipped)."""
    rng, found = random.Random(seed), []
    while len(found) < count:
        state = GAME.initial_state()
        while (
            not GAME.is_terminal(state) and 64 - (state.black | state.white).bit_count() > empties
        ):
            state = GAME.result(state, rng.choice(GAME.actions(state)))
        if not GAME.is_terminal(state):
            found.append(state)
    return found


def final_difference(state: OthelloState, player: str) -> int:
    black, white = state.black.bit_count(), state.white.bit_count()
    mine, theirs = (black, white) if player == "B" else (white, black)
    empties = 64 - black - white
    return mine - theirs + (empties if mine > theirs else -empties if mine < theirs else 0)


@cache
def brute_force(state: OthelloState) -> int:
    """The mover's exact final disc difference by plain negamax over the Python rules."""
    if GAME.is_terminal(state):
        return final_difference(state, state.to_move)
    return max(-brute_force(GAME.result(state, action)) for action in GAME.actions(state))


def test_flips_at_matches_the_reference_flips() -> None:
    rng = random.Random(7)
    for _ in range(3000):
        cells = [rng.choice("XO--") for _ in range(64)]
        p = sum(1 << i for i, c in enumerate(cells) if c == "X")
        o = sum(1 << i for i, c in enumerate(cells) if c == "O")
        for square in (s for s in range(64) if not (p | o) >> s & 1):
            expected = flips(np.uint64(p), np.uint64(o), np.uint64(1 << square))
            assert kernel.flips_at(np.uint64(p), np.uint64(o), square) == expected


def test_the_last_square_scores_as_the_move_played_there() -> None:
    """The table-read score of a board with one empty square against playing the move (the
    opponent's after a pass, else the end) by the reference flips."""
    rng = random.Random(11)
    for _ in range(3000):
        square = rng.randrange(64)
        p = rng.getrandbits(64) & ~(1 << square)
        o = ~p & ~(1 << square) & (1 << 64) - 1
        bit = np.uint64(1 << square)
        mine = int(flips(np.uint64(p), np.uint64(o), bit)).bit_count()
        theirs = int(flips(np.uint64(o), np.uint64(p), bit)).bit_count()
        if mine or theirs:
            expected = 2 * (p.bit_count() + mine + 1 if mine else p.bit_count() - theirs) - 64
        else:  # neither can play there: the empty square goes to the winner
            difference = 2 * p.bit_count() - 63
            expected = difference + (1 if difference > 0 else -1)
        assert kernel._last_move(np.uint64(p), np.uint64(o), bit) == expected


def test_stable_discs_are_never_flipped_in_any_game_that_follows() -> None:
    """Every disc the kernel calls stable keeps its colour to the end of random games."""
    rng = random.Random(3)
    for state in late_positions(40, 14, seed=11):
        mover, other = (state.black, state.white)
        stable = int(kernel.stable_discs(np.uint64(mover), np.uint64(other)))
        for _ in range(5):
            line = state
            while not GAME.is_terminal(line):
                line = GAME.result(line, rng.choice(GAME.actions(line)))
                assert line.black & stable == stable


def test_corner_stable_discs_are_never_flipped_and_are_stable_discs() -> None:
    """The discs the move order counts as corner-stable keep their colour to the end of random
    games, and the full stability count finds them too."""
    rng = random.Random(4)
    for state in late_positions(40, 20, seed=12):
        mover, other = np.uint64(state.black), np.uint64(state.white)
        corner = int(kernel.corner_stable(mover))
        assert corner & int(kernel.stable_discs(mover, other)) == corner
        for _ in range(3):
            line = state
            while not GAME.is_terminal(line):
                line = GAME.result(line, rng.choice(GAME.actions(line)))
                assert line.black & corner == corner
    assert any(int(kernel.corner_stable(np.uint64(s.black))) for s in late_positions(40, 20, 12))


@pytest.mark.parametrize("empties", [1, 2, 3, 4, 5, 6, 8])
def test_scores_and_best_moves_match_brute_force(solver: OthelloSolver, empties: int) -> None:
    for state in late_positions(12, empties, seed=empties):
        exact = brute_force(state)
        decision = solver.decide(state)
        assert decision.score == solver.solve(state).score == exact
        best = {a for a in GAME.actions(state) if -brute_force(GAME.result(state, a)) == exact}
        assert set(decision.moves) == best
        weak = solver.solve(state, weak=True).score
        assert weak == (exact > 0) - (exact < 0)


def test_analyze_scores_every_move(solver: OthelloSolver) -> None:
    state = late_positions(1, 8, seed=5)[0]
    scores = solver.analyze(state)
    for action in GAME.actions(state):
        slot = 64 if action == PASS else action
        assert scores[slot] == -brute_force(GAME.result(state, action))
    assert sum(score is not None for score in scores) == len(GAME.actions(state))


def test_ffo_40_gives_the_suite_score_and_best_move(solver: OthelloSolver) -> None:
    line = ffo_line(40)
    state = GAME.parse_position(line)
    decision = solver.decide(state)
    assert decision.score == 38
    assert [GAME.format_action(state, move) for move in decision.moves] == ["a2"]


def test_the_order_by_the_pattern_evaluation_changes_the_positions_not_the_score() -> None:
    """FFO #40's 20 empties are deep enough for the pattern tables to order moves: solved
    with the hand-written evaluation's game (no tables), the score is the same and the
    positions entered differ."""
    state = GAME.parse_position(ffo_line(40))
    patterned = OthelloSolver(GAME).solve(state)
    plain = OthelloSolver(Othello(evaluation="hand")).solve(state)
    assert patterned.score == plain.score == 38
    assert patterned.nodes != plain.nodes


def test_an_obf_line_reads_with_or_without_its_scores() -> None:
    board = "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X"
    assert GAME.parse_position(board + "; A2:+38; C7:+36;") == GAME.parse_position(board)
    for bad, message in [
        ("; A2:+38", "nothing before"),
        (board[:40] + " X", "squares, not 64"),
        (board[:-1] + "Z", "mover"),
        ("-" * 64 + " X", "centre"),
    ]:
        with pytest.raises(InvalidPositionError, match=message):
            GAME.parse_position(bad)


def test_budgets_refuse_far_positions_and_stop_searches(solver: OthelloSolver) -> None:
    with pytest.raises(BudgetExhaustedError, match="60 empty squares would take about"):
        solver.solve(GAME.initial_state(), seconds=1)
    assert not solver.reaches(GAME.initial_state(), 1) and solver.reaches(
        late_positions(1, 10, seed=1)[0], 0.1
    )
    far = late_positions(1, 22, seed=2)[0]
    with pytest.raises(BudgetExhaustedError, match="not solved in 1,000 positions"):
        solver.solve(far, nodes=1000)
    stop = threading.Event()
    stop.set()
    solver.stop = stop
    try:
        with pytest.raises(BudgetExhaustedError, match="stopped"):
            solver.solve(far)
    finally:
        solver.stop = None


def test_plies_solve_othello_reads_ffo_lines(capsys: pytest.CaptureFixture[str]) -> None:
    state = late_positions(1, 10, seed=4)[0]
    position = GAME.format_position(state)
    with pytest.raises(SystemExit) as done:
        main(["solve", "othello", "--json", "--", position + "; A1:+0;"])
    assert done.value.code == 0
    answer = json.loads(capsys.readouterr().out)
    assert answer["score"] == brute_force(state) and answer["position"] == position
    with pytest.raises(SystemExit) as done:
        main(["solve", "othello", "--time", "1"])
    assert done.value.code == 2
    assert "would take about" in capsys.readouterr().err
    with pytest.raises(SystemExit) as done:
        main(["solve", "othello", "-" * 30 + "X" * 34 + " X"])
    assert done.value.code == 2
    assert "goes after '--'" in capsys.readouterr().err


def test_the_perfect_agent_solves_near_the_end_and_searches_before() -> None:
    agent = make_agent("perfect:time=0.5", GAME)
    agent(GAME, GAME.initial_state())
    assert agent.last is not None and "out of the solver's reach" in (agent.last.note or "")
    state = late_positions(1, 10, seed=6)[0]
    action = agent(GAME, state)
    assert agent.last is not None and agent.last.solved
    assert -brute_force(GAME.result(state, action)) == brute_force(state)


def test_reviews_judge_early_moves_by_the_engine_and_late_ones_exactly(
    solver: OthelloSolver,
) -> None:
    name, analyse = best_analyser(GAME, 0.2, solver)
    assert name == "solver+engine"
    assert analyse(GAME.initial_state()).text != "not solved in time"
    late = late_positions(1, 8, seed=8)[0]
    exact = brute_force(late)
    assert analyse(late).expected == (1 + (exact > 0) - (exact < 0)) / 2


def test_the_engine_plays_the_end_exactly_within_its_time() -> None:
    """``engine:time=S`` solves a late position (its move keeps the brute-force score) and
    searches an early one; ``exact=false`` and depth-limited engines always search."""
    state = late_positions(1, 10, seed=9)[0]
    engine = make_agent("engine:time=0.5", GAME)
    action = engine(GAME, state)
    assert engine.last is not None and engine.last.solved
    assert -brute_force(GAME.result(state, action)) == brute_force(state)
    engine(GAME, GAME.initial_state())
    assert engine.last is not None and not engine.last.solved
    for spec in ("engine:time=0.5,exact=false", "engine:depth=2"):
        searching = make_agent(spec, GAME)
        searching(GAME, state)
        assert searching.last is not None and not searching.last.solved


def test_whole_game_uses_of_the_solver_refuse_positions_far_from_the_end(
    solver: OthelloSolver,
) -> None:
    """A solve with no budget never starts where it cannot end: ``plies evaluate``'s judge,
    set files and distillation refuse early Othello positions up front, naming why."""
    entries = read_set(GAME, ["f5d6", "f5d6c3d3"])
    with pytest.raises(UnsupportedGameError, match="line 1: position 'f5d6' is too far"):
        next(iter(judge_moves(GAME, make_agent("random", GAME), entries)))
    refused = [result.entry.error for result in solve_set(solver, entries)]
    assert all(error is not None and "too far from the end" in error for error in refused)
    with pytest.raises(UnsupportedGameError, match="reaches only the end of the game"):
        distill_solver(GAME)


@pytest.mark.parametrize("empties", [3, 8])
def test_a_weak_decision_keeps_every_move_of_the_same_outcome(
    solver: OthelloSolver, empties: int
) -> None:
    for state in late_positions(12, empties, seed=30 + empties):
        outcome = _sign(brute_force(state))
        decision = solver.decide(state, weak=True)
        assert decision.score == outcome and decision.weak == (outcome != 0)  # a draw is exact
        keeping = {
            a for a in GAME.actions(state) if _sign(-brute_force(GAME.result(state, a))) == outcome
        }
        assert set(decision.moves) == keeping


def test_the_engine_keeps_the_win_where_the_exact_score_runs_out_of_time(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Where the exact decision does not finish, the engine plays a move of the win, draw or
    loss proved first, and says so; a lost position is left to the search."""
    exact_decide = OthelloSolver.decide

    def weak_only(self: OthelloSolver, state: OthelloState, **options: Any) -> Decision:
        if not options.get("weak"):
            raise BudgetExhaustedError("othello solver: not solved in time")
        return exact_decide(self, state, **options)

    monkeypatch.setattr(OthelloSolver, "decide", weak_only)
    positions = late_positions(12, 9, seed=41)
    won = next(s for s in positions if brute_force(s) > 0)
    engine = make_agent("engine:time=0.5", GAME)
    action = engine(GAME, won)
    assert engine.last is not None and engine.last.solved and engine.last.solver_score is None
    assert engine.last.note == "solved: the side to move wins with perfect play"
    assert brute_force(GAME.result(won, action)) < 0
    lost = next(s for s in positions if brute_force(s) < 0)
    engine(GAME, lost)
    assert engine.last is not None and engine.last.algorithm != "perfect"
    drawn = next(s for s in late_positions(30, 6, seed=7) if brute_force(s) == 0)
    engine(GAME, drawn)  # a draw proved is exact: no second solve, the score told
    assert engine.last is not None and engine.last.solver_score == 0


def _sign(score: int) -> int:
    return (score > 0) - (score < 0)
