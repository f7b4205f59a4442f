"""Moves judged by perfect play (:mod:`plies.mistakes`) and ``plies evaluate``: the perfect
agent is never wrong, a bad agent's mistakes are the ones a brute-force search finds, and every
user error is one line with exit status 2."""

from __future__ import annotations

import ast
import json
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from plies.agents import make_agent
from plies.errors import GameOverError, MissingCapabilityError, ParseError
from plies.game import Game
from plies.games import make_game
from plies.mistakes import MoveVerdict, judge_moves, summarise_verdicts
from plies.perfect import PerfectSolver
from plies.search import SearchResult, alphabeta
from plies.solvers import perfect_solver
from plies.solvers.sets import SetEntry, read_set
from tests.conftest import CliRun, assert_one_line_error

REPO = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("PLIES_SHARED", REPO.parent / "shared"))
GAME = make_game("connect4")
LATE = [  # Test_L3_R1's first lines: end-game positions and their scores
    "2252576253462244111563365343671351441 -1",
    "7422341735647741166133573473242566 1",
    "23163416124767223154467471272416755633 0",
]
Run = Callable[..., CliRun]


def end_game(count: int, stones: int = 0) -> list[SetEntry]:
    """The first ``count`` positions of Pons's end-game set with at least ``stones`` stones."""
    path = SHARED / "data" / "connect4" / "Test_L3_R1"
    if not path.is_file():
        pytest.skip(f"{path} not found (set PLIES_SHARED to the shared folder)")
    lines = [line for line in path.read_text().splitlines() if len(line.split()[0]) >= stones]
    return read_set(GAME, lines[:count])


@dataclass
class StubAgent:
    """Plays what ``choose`` picks among the legal moves; counts its resets."""

    choose: Callable[[Any, list[Any]], Any]
    name: str = "stub"
    last: SearchResult[Any] | None = None
    resets: int = 0
    played: list[Any] = field(default_factory=list)

    def __call__(self, game: Game[Any, Any], state: Any) -> Any:
        assert self.resets == len(self.played) + 1, "reset() comes before each position"
        action = self.choose(state, list(game.actions(state)))
        self.played.append(action)
        return action

    def reset(self, seed: int | None = None) -> None:
        self.resets += 1


@cache
def solver() -> PerfectSolver:
    """One Connect Four solver for the whole module, built on first use."""
    built = perfect_solver(GAME)
    assert built is not None
    return built


def worst_move(state: Any, actions: list[Any]) -> Any:
    """The move whose solved score is lowest for the mover."""
    scores = solver().analyze(state)
    return min(actions, key=lambda action: scores[action])


def outcome_by_search(state: Any, action: Any) -> int:
    """The outcome of ``action`` for the mover (1, 0, -1), by a textbook alpha-beta search."""
    mover = GAME.to_move(state)
    value = alphabeta(GAME, GAME.result(state, action), max_player=mover).value
    return (value > 0) - (value < 0)


def test_the_perfect_agent_makes_no_mistake_and_keeps_every_score() -> None:
    positions = end_game(12)
    verdicts = list(judge_moves(GAME, make_agent("perfect", GAME), positions))
    assert [v.line for v in verdicts] == [e.line for e in positions]
    assert [v.best_score for v in verdicts] == [e.score for e in positions]
    assert all(v.move in v.best_moves and v.score == v.best_score for v in verdicts)
    summary = summarise_verdicts(verdicts)
    assert (summary.positions, summary.mistakes, summary.exact) == (12, 0, 12)
    assert (summary.mistake_rate, summary.exact_rate) == (0.0, 1.0)


def test_the_worst_moves_are_judged_as_a_brute_force_search_judges_them() -> None:
    positions = end_game(10, stones=37)
    agent = StubAgent(worst_move)
    verdicts = list(judge_moves(GAME, agent, positions))
    for entry, action, verdict in zip(positions, agent.played, verdicts, strict=True):
        state = entry.state
        outcomes = {a: outcome_by_search(state, a) for a in GAME.actions(state)}
        assert verdict.mistake == (outcomes[action] < max(outcomes.values())), entry.moves
        best = solver().decide(state).moves  # the null-window test, not the per-move analysis
        assert verdict.best_moves == [GAME.format_action(state, a) for a in best]
        assert verdict.exact == (action in best)
        assert verdict.move == GAME.format_action(state, action)
    summary = summarise_verdicts(verdicts)
    assert summary.mistakes == sum(v.mistake for v in verdicts) > 0
    assert summary.exact == sum(v.exact for v in verdicts) < len(verdicts)
    assert summary.mistake_rate == summary.mistakes / len(verdicts)


def test_a_slower_win_is_inexact_but_no_mistake() -> None:
    first = StubAgent(lambda state, actions: actions[0])
    verdicts = list(judge_moves(GAME, first, end_game(100)))
    slower = [v for v in verdicts if 0 < v.score < v.best_score]
    assert slower, "the set has a position where some win is slower than the best"
    assert not any(v.mistake or v.exact for v in slower)


def test_bad_positions_are_refused_before_any_move() -> None:
    agent = StubAgent(lambda state, actions: actions[0])
    good, bad = read_set(GAME, ["4455", "4444444"])
    with pytest.raises(ParseError, match="line 2: position '4444444'"):
        judge_moves(GAME, agent, [good, bad])
    finished = GAME.parse_position("1212121")
    with pytest.raises(GameOverError, match="line 7: position '1212121'"):
        judge_moves(GAME, agent, [SetEntry(7, "1212121", None, finished)])
    backgammon = make_game("backgammon")
    with pytest.raises(MissingCapabilityError, match="no perfect solver"):
        judge_moves(backgammon, agent, [])
    assert agent.resets == 0


def test_the_judge_imports_no_game_and_no_kernel() -> None:
    source = (REPO / "src" / "plies" / "mistakes.py").read_text(encoding="utf-8")
    imported = {
        node.module
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.ImportFrom) and node.module is not None
    }
    assert not [name for name in imported if name.startswith("plies.games") or "_kernel" in name]


def test_verdict_json_has_every_field() -> None:
    verdict = MoveVerdict(3, "4455", "2", ["2", "5"], False, True, 18, 18)
    assert verdict.to_json() == {
        "line": 3,
        "moves": "4455",
        "move": "2",
        "best_moves": ["2", "5"],
        "mistake": False,
        "exact": True,
        "score": 18,
        "best_score": 18,
    }


@pytest.fixture
def late_set(tmp_path: Path) -> Path:
    path = tmp_path / "late.txt"
    path.write_text("\n".join(LATE) + "\n")
    return path


def test_cli_json_prints_a_verdict_a_position_then_the_summary(
    run_cli: Run, late_set: Path
) -> None:
    result = run_cli("evaluate", "connect4", "perfect", "--set", str(late_set), "--json")
    assert result.code == 0, result
    records = [json.loads(line) for line in result.out.splitlines()]
    assert len(records) == len(LATE) + 1
    for record, line in zip(records, LATE, strict=False):
        moves, score = line.split()
        assert {"moves", "move", "best_moves", "mistake", "exact", "score", "best_score"} <= set(
            record
        )
        assert record["moves"] == moves and record["best_score"] == int(score)
        assert record["move"] in record["best_moves"] and not record["mistake"]
    summary = records[-1]
    assert summary["positions"] == 3 and summary["mistakes"] == 0
    assert summary["mistake_rate"] == 0.0 and summary["exact_rate"] == 1.0
    assert summary["agent"] == "perfect" and summary["complete"] is True


def test_cli_limit_and_human_summary(run_cli: Run, late_set: Path) -> None:
    result = run_cli("evaluate", "connect4", "random", "--set", str(late_set), "--limit", "2")
    assert result.code == 0, result
    assert "on 2 positions of late.txt" in result.out
    assert "mistakes" in result.out and "exact" in result.out
    limited = run_cli(
        "evaluate", "connect4", "random", "--set", str(late_set), "--limit", "1", "--json"
    )
    assert json.loads(limited.out.splitlines()[-1])["positions"] == 1


def test_cli_seed_makes_a_random_agent_repeat(run_cli: Run, late_set: Path) -> None:
    def moves(seed: str) -> list[str]:
        args = ("evaluate", "connect4", "random", "--set", str(late_set), "--json", "--seed")
        out = run_cli(*args, seed).out.splitlines()[:-1]
        return [json.loads(line)["move"] for line in out]

    assert moves("5") == moves("5")


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (("connect4", "wizard"), "unknown agent 'wizard'"),
        (("connect4", "engine:depht=3"), "depht"),
        (("backgammon", "random"), "'backgammon' has no perfect solver"),
        (("connect4", "human"), "the agent judged is a program"),
        (("connect4", "random", "--limit", "0"), "--limit"),
        (("chess", "random", "--analyses", "a.jsonl"), "--analyses keeps a perfect solver's"),
    ],
)
def test_cli_user_errors(
    run_cli: Run, late_set: Path, args: tuple[str, ...], fragment: str
) -> None:
    result = run_cli("evaluate", *args, "--set", str(late_set))
    assert_one_line_error(result, fragment)
    assert result.out == ""


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("4455\n4444444\n", "line 2: position '4444444'"),
        ("1212121\n", "line 1: position '1212121': the game is already over"),
        ("4455 x\n", "line 1: score 'x'"),
    ],
)
def test_cli_bad_lines(run_cli: Run, tmp_path: Path, text: str, fragment: str) -> None:
    path = tmp_path / "bad.txt"
    path.write_text(text)
    result = run_cli("evaluate", "connect4", "random", "--set", str(path))
    assert_one_line_error(result, fragment)
    assert result.out == ""


def test_cli_missing_file(run_cli: Run, tmp_path: Path) -> None:
    missing = tmp_path / "missing.txt"
    result = run_cli("evaluate", "connect4", "random", "--set", str(missing))
    assert_one_line_error(result, "cannot read")
