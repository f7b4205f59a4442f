"""Othello's pattern evaluation: the pattern set against Burnside's count, the compiled
evaluation against the Python one, its symmetry, its features as a linear evaluation, the
shipped tables and what a damaged file does."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from plies.agents import make_agent
from plies.errors import MissingCapabilityError, SpecError
from plies.games import make_game
from plies.games.othello import Othello, OthelloState
from plies.games.othello import evaluation as E
from plies.games.othello import patterns as P
from plies.games.othello.rules import legal_moves
from plies.native import native_search
from plies.native.engine import to_word
from plies.native.kernels import lead as compiled_lead
from plies.search.engine import EngineOptions, Limits, search
from plies.testing import random_positions
from tests.conftest import CliRun


@pytest.fixture(scope="module")
def noisy() -> Othello:
    """Othello with random tables (every entry used, none zero)."""
    weights = np.random.default_rng(7).normal(0, 400, E.WEIGHTS)
    return Othello().with_evaluation_weights(weights, "random")


def test_the_patterns_are_logistellos() -> None:
    """38 instances; a pattern's configurations share a weight with their mirror images, so
    each pattern has (3**n + 3**fixed) / 2 classes (Burnside: its symmetry fixes the squares on
    its axis and pairs the rest)."""
    assert P.INSTANCES == 38
    squares = dict(zip(P.NAMES, (len(found[0]) for found in P.INSTANCES_BY_PATTERN), strict=True))
    on_axis = {"edge+2X": 0, "corner 3x3": 3, "diagonal 7": 1, "diagonal 5": 1}
    for pattern, name in enumerate(P.NAMES):
        n = squares[name]
        fixed = on_axis.get(name, 0) + (n - on_axis.get(name, 0)) // 2
        assert E.CLASSES[pattern] == (3**n + 3**fixed) // 2, name
    assert sum(E.CLASSES) + 3 == E.PER_ANCHOR and E.WEIGHTS == 7 * E.PER_ANCHOR


def _row(game: Othello, state: OthelloState) -> np.ndarray:
    return np.array([to_word(w) for w in game.compiled_rules().encode(state)], np.int64)


def test_compiled_evaluation_adds_the_same_integers(noisy: Othello) -> None:
    kernel = native_search(noisy)
    assert kernel is not None
    checked = 0
    for state in random_positions(noisy, 40, seed=3, plies=range(60)):
        if noisy.is_terminal(state):
            continue
        lead = compiled_lead(kernel.params, _row(noisy, state))
        assert noisy.estimate(lead, state.to_move) == noisy.evaluate(state, state.to_move)
        checked += 1
    assert checked > 30


def _images(state: OthelloState) -> list[OthelloState]:
    grid = np.arange(64).reshape(8, 8)
    views = [grid, grid[:, ::-1], grid[::-1, :], grid[::-1, ::-1]]
    found = []
    for view in views + [v.T for v in views]:
        cells = view.ravel()
        black = sum(1 << i for i, c in enumerate(cells) if state.black >> int(c) & 1)
        white = sum(1 << i for i, c in enumerate(cells) if state.white >> int(c) & 1)
        found.append(OthelloState(black, white, state.to_move))
    return found


def test_the_evaluation_is_blind_to_the_board_symmetries(noisy: Othello) -> None:
    for state in random_positions(noisy, 25, seed=11, plies=range(4, 55)):
        if noisy.is_terminal(state):
            continue
        values = {noisy.evaluate(image, "B") for image in _images(state)}
        assert len(values) == 1


def test_the_features_weigh_to_the_log_odds(noisy: Othello) -> None:
    """Black's features times the weights, in 1/SCALE logits, are Black's log-odds: the
    evaluation is 2 * sigmoid(log-odds) - 1 (the weights rounded as they play)."""
    weights = np.rint(np.array(noisy.evaluation_weights()))
    assert noisy.evaluation_scale == 1 / P.SCALE
    for state in random_positions(noisy, 30, seed=5, plies=range(2, 58)):
        features = noisy.evaluation_features(state)
        if features is None:
            assert noisy.is_terminal(state)
            continue
        logit = sum(weights[i] * v for i, v in features.items()) * noisy.evaluation_scale
        assert noisy.evaluate(state, "B") == pytest.approx(2 / (1 + np.exp(-logit)) - 1)


def test_the_engine_searches_it_compiled_as_in_python(noisy: Othello) -> None:
    for state in random_positions(noisy, 3, seed=8, plies=range(10, 40)):
        native = search(noisy, state, Limits(depth=3))
        python = search(noisy, state, Limits(depth=3), EngineOptions(native=False))
        assert (native.value, native.pv, native.stats.nodes) == (
            python.value,
            python.pv,
            python.stats.nodes,
        )


def test_the_shipped_tables_play_and_know_the_opening() -> None:
    """The default evaluation is the shipped fitted tables; searches of six plies see the start
    and the first moves as nearly even (the tables alone stray there: the data they were fitted
    to holds no position with fewer than 12 discs)."""
    game = Othello()
    assert game.evaluations() == ("patterns", "hand") and repr(game) == "Othello()"
    assert game.patterns is E.shipped_weights() is not None
    start = game.initial_state()
    for opening in ("", "f5", "f5d6", "f5d6c3"):
        state = game.parse_position(opening) if opening else start
        assert abs(search(game, state, Limits(depth=6)).value) < 0.2, opening
    assert Othello(evaluation="hand").evaluations() == ("hand", "patterns")


def test_engine_option_chooses_the_evaluation() -> None:
    game = make_game("othello")
    state = game.initial_state()
    for spec in ("engine:depth=2,evaluation=hand", "engine:depth=2,evaluation=patterns"):
        assert make_agent(spec, game)(game, state) in game.actions(state)
    with pytest.raises(SpecError, match=r"no evaluation 'x' .*patterns, hand"):
        make_agent("engine:depth=2,evaluation=x", game)
    with pytest.raises(
        MissingCapabilityError, match=r"no choice of evaluations.*evaluation= needs one"
    ):
        make_agent("engine:depth=2,evaluation=hand", make_game("connect4"))


def test_damaged_tables_are_named_in_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "patterns.npz"
    bad.write_bytes(b"not a pack")
    with pytest.raises(SpecError, match="unreadable"):
        E.read_weights(bad, "a test")
    short = tmp_path / "short.npz"
    np.savez(short, shared=np.zeros(5, np.int16), meta=np.array(json.dumps({"format": E.FORMAT})))
    with pytest.raises(SpecError, match="5 weights, expected 383817"):
        E.read_weights(short, "a test")
    with pytest.raises(SpecError, match="beyond"):
        E.write_weights(tmp_path / "big.npz", np.full(E.WEIGHTS, 1e6), {})

    monkeypatch.setattr(E, "SHIPPED", "missing.npz")
    assert E.shipped_weights.__wrapped__() is None
    said = capsys.readouterr().err.strip().splitlines()
    assert len(said) == 1 and "hand-written evaluation" in said[0]


def test_mobility_is_a_scalar_term() -> None:
    """The scalars are 1, the mover's moves less the opponent's, and +-1 by the parity of the
    empty squares."""
    game = Othello()
    state = game.parse_position("f5d6c3")
    p, o = state.white, state.black  # white to move
    moves, replies = legal_moves(p, o).bit_count(), legal_moves(o, p).bit_count()
    assert E.scalar_terms(p, o, moves, replies) == (1, moves - replies, 1)  # 57 empty


def test_tuning_refuses_an_unknown_evaluation_or_start(
    tmp_path: Path, run_cli: Callable[..., CliRun]
) -> None:
    """One line each, exit 2, and no folder made."""
    records = tmp_path / "none.sqlite"
    for option, value, said in (
        ("--evaluation", "x", "othello has no evaluation 'x' (it has patterns, hand)"),
        ("--start", str(tmp_path / "missing.json"), "cannot read weights file"),
    ):
        out = tmp_path / option.strip("-")
        ran = run_cli("learn", "tune", "othello", "--records", str(records), "--out", str(out),
                      option, value)  # fmt: skip
        assert ran.code == 2 and said in ran.err and len(ran.err.strip().splitlines()) == 1
        assert not out.exists()
