"""Texel tuning (plies.learn.tune): the fit recovers known weights, the folder resumes, the
weights it writes play through ``engine:weights=``, and bad input is one line."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from plies.agents import make_agent
from plies.arena.records import Records, stored_game
from plies.arena.tournament import opening_state
from plies.errors import PliesError, RunFolderError, SpecError
from plies.games import make_game
from plies.games.chess.evaluation import TABLE_WEIGHTS, WEIGHTS
from plies.learn import tune
from tests.conftest import CliRun

Run = Callable[..., CliRun]


def _synthetic(weights: np.ndarray, count: int, seed: int) -> tune.Positions:
    """Positions of random sparse features whose labels are drawn from
    ``sigmoid(0.01 * weights . features)``: what the fit should find again."""
    rng = np.random.default_rng(seed)
    per_row = 5
    indices = rng.integers(0, len(weights), count * per_row).astype(np.int32)
    values = rng.normal(0, 3, count * per_row).astype(np.float32)
    scores = (values * weights[indices]).reshape(count, per_row).sum(axis=1)
    chance = 1 / (1 + np.exp(-0.01 * scores))
    labels = (rng.random(count) < chance).astype(np.float32)
    starts = np.arange(0, count * per_row + 1, per_row, dtype=np.int64)
    held = rng.random(count) < 0.1
    return tune.Positions(starts, indices, values, labels, held, count)


def test_the_fit_recovers_known_weights() -> None:
    """From a start far off, Adam on the squared error of the sigmoid finds weights whose
    direction is the true one's (K and the weights' scale trade off)."""
    truth = np.array([100.0, -50.0, 30.0, 0.0, 80.0, -120.0])
    positions = _synthetic(truth, 40_000, seed=1)
    model = tune.Model(positions.part(False), len(truth))
    start = np.full(len(truth), 10.0)
    scale = tune.fit_scale(model, start)
    state = tune.State.fresh(start, scale, model.loss(start, scale))
    for _ in range(400):
        tune.adam_step(state, model.gradient(state.weights, scale), 2.0)
    found = state.weights * scale / 0.01
    cosine = found @ truth / np.linalg.norm(found) / np.linalg.norm(truth)
    assert cosine > 0.99
    assert model.loss(state.weights, scale) < model.loss(start, scale)


def test_the_gradient_is_the_loss_slope() -> None:
    """The analytic gradient against finite differences of the loss."""
    truth = np.array([40.0, -20.0, 10.0])
    model = tune.Model(_synthetic(truth, 2_000, seed=2), len(truth))
    weights, scale = np.array([5.0, 3.0, -2.0]), 0.02
    gradient = model.gradient(weights, scale)
    for i in range(len(truth)):
        step = np.zeros(len(truth))
        step[i] = 1e-4
        slope = (model.loss(weights + step, scale) - model.loss(weights - step, scale)) / 2e-4
        assert gradient[i] == pytest.approx(slope, rel=1e-4, abs=1e-9)


def _tournament(path: Path, game: str, options: str, *settings: str) -> Path:
    """Six games of ``game`` between engines of depth 1 and 2 with ``options`` in ``path``."""
    command = [sys.executable, "-m", "plies", "tournament", "run", game,
               f"engine:depth=1{options}", f"engine:depth=2{options}", "--db", str(path),
               "--games", "6", "--concurrency", "1", *settings]  # fmt: skip
    finished = subprocess.run(command, capture_output=True, text=True, timeout=300)
    assert finished.returncode == 0, finished.stderr
    return path


@pytest.fixture(scope="module")
def record(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A small chess tournament of quick engines (random openings)."""
    path = tmp_path_factory.mktemp("tune") / "games.sqlite"
    return _tournament(path, "chess", "", "--openings", "random:6")


@pytest.fixture(scope="module")
def othello_record(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A small Othello tournament of quick engines with the hand-written evaluation (random
    openings; seed 2 has a game whose result is not the one perfect play from 8 empties gives,
    which the solver's labels must show)."""
    path = tmp_path_factory.mktemp("tune") / "othello.sqlite"
    return _tournament(path, "othello", ",evaluation=hand", "--openings", "random:4", "--seed", "2")


def test_tune_writes_weights_that_play_and_resumes(record: Path, tmp_path: Path, run: Run) -> None:
    """``plies learn tune`` reads the games, fits, writes weights.json; the same command with
    more steps goes on from the saved step; ``engine:weights=`` plays the weights."""
    out = tmp_path / "tuned"
    first = run("learn", "tune", "chess", "--records", str(record), "--out", str(out),
                "--steps", "20", "--min-ply", "6")  # fmt: skip
    assert first.code == 0, first.err
    assert "step 20" in first.out
    written = json.loads((out / "weights.json").read_text())
    assert written["how"]["steps"] == 20 and written["how"]["games"] == 6
    assert written["how"]["labels"] == "game results" and written["how"]["fitted"] == "all weights"
    assert len(written["weights"]) == WEIGHTS
    again = run("learn", "tune", "chess", "--records", str(record), "--out", str(out),
                "--steps", "30", "--min-ply", "6")  # fmt: skip
    assert again.code == 0 and "step 30" in again.out
    lines = (out / "metrics.jsonl").read_text().splitlines()
    assert [json.loads(line)["step"] for line in lines] == [10, 20, 30]
    other = run("learn", "tune", "chess", "--records", str(record), "--out", str(out),
                "--min-ply", "7")  # fmt: skip
    assert other.code == 2 and "other data" in other.err
    game = make_game("chess")
    agent = make_agent(f"engine:depth=2,weights={out / 'weights.json'}", game)
    state = game.initial_state()
    assert agent(game, state) in game.actions(state)


def test_only_fits_the_chosen_weights(record: Path, tmp_path: Path, run: Run) -> None:
    """--only fits the weights whose names match and leaves the others as they were; a
    pattern that matches no name is refused before any work."""
    out = tmp_path / "terms"
    args = ("learn", "tune", "chess", "--records", str(record), "--out", str(out), "--steps",
            "20", "--min-ply", "6", "--lr", "5")  # fmt: skip
    fitted = run(*args, "--only", "* passed pawn *", "--only", "*mobility")
    assert fitted.code == 0, fitted.err
    written = json.loads((out / "weights.json").read_text())
    assert written["how"]["fitted"] == ["* passed pawn *", "*mobility"]
    weights = written["weights"]
    start = make_game("chess").evaluation_weights()  # type: ignore[attr-defined]
    names = make_game("chess").evaluation_names()  # type: ignore[attr-defined]
    moved = {name for name, w, s in zip(names, weights, start, strict=True) if w != s}
    assert moved and all("passed pawn" in name or "mobility" in name for name in moved)
    assert weights[:TABLE_WEIGHTS] == list(start[:TABLE_WEIGHTS])
    none = run(*args, "--only", "no such weight")
    assert none.code == 2 and "no weight's name matches 'no such weight'" in none.err


def test_weights_files_are_checked(tmp_path: Path) -> None:
    game = make_game("chess")
    bad = tmp_path / "bad.json"
    for content, message in [
        ("{", "weights file"),
        ('{"format": "plies-weights-1", "game": "chess", "weights": [1, 2]}', str(WEIGHTS)),
        ('{"format": "plies-weights-1", "game": "othello", "weights": []}', "othello"),
        ('{"format": "x", "game": "chess", "weights": []}', "format"),
    ]:
        bad.write_text(content)
        with pytest.raises(SpecError, match=message):
            make_agent(f"engine:depth=1,weights={bad}", game)
    with pytest.raises(PliesError, match="cannot read weights file"):
        make_agent(f"engine:depth=1,weights={tmp_path / 'missing.json'}", game)


def test_tune_refuses_bad_input(record: Path, tmp_path: Path, run: Run) -> None:
    missing = run("learn", "tune", "chess", "--records", str(tmp_path / "none.sqlite"),
                  "--out", str(tmp_path / "a"))  # fmt: skip
    assert missing.code == 2 and "no tournament file" in missing.err
    other_game = run("learn", "tune", "tictactoe", "--records", str(record),
                     "--out", str(tmp_path / "b"))  # fmt: skip
    assert other_game.code == 2 and "linear evaluation" in other_game.err
    busy = tmp_path / "busy"
    busy.mkdir()
    (busy / "something").write_text("x")
    taken = run("learn", "tune", "chess", "--records", str(record), "--out", str(busy))
    assert taken.code == 2 and "not empty" in taken.err
    with pytest.raises(RunFolderError):
        tune.open_tuning(busy, make_game("chess"), tune.TuneConfig((str(record),)))
    nan_rate = run("learn", "tune", "chess", "--records", str(record), "--out",
                   str(tmp_path / "c"), "--lr", "nan")  # fmt: skip
    assert nan_rate.code == 2


@pytest.fixture
def run(run_cli: Run) -> Run:
    return run_cli


def test_othello_tunes_too(othello_record: Path, tmp_path: Path, run: Run) -> None:
    """Any game with a linear evaluation tunes: Othello's four weights, from a few games."""
    path = othello_record
    out = tmp_path / "tuned"
    tuned = run("learn", "tune", "othello", "--records", str(path), "--out", str(out),
                "--steps", "10", "--held-out", "0", "--evaluation", "hand")  # fmt: skip
    assert tuned.code == 0, tuned.err
    written = json.loads((out / "weights.json").read_text())
    assert written["names"] == ["mobility", "corners", "exposure", "anchored"]
    assert written["how"]["start"] == "the game's weights (hand)"
    game = make_game("othello")
    weights = out / "weights.json"
    agent = make_agent(f"engine:depth=2,evaluation=hand,weights={weights}", game)
    state = game.initial_state()
    assert agent(game, state) in game.actions(state)
    with pytest.raises(SpecError, match="4 weights, othello has 383817"):
        make_agent(f"engine:depth=2,weights={weights}", game)  # the patterns' weights

    zeroed = tmp_path / "patterns"
    tuned = run("learn", "tune", "othello", "--records", str(path), "--out", str(zeroed),
                "--steps", "20", "--lr", "50", "--start", "zero")  # fmt: skip
    assert tuned.code == 0, tuned.err
    assert "scale K 0.000977" in tuned.out  # fixed: the tables are in 1/1024 logits
    fitted = json.loads((zeroed / "weights.json").read_text())
    assert fitted["how"]["held_out_loss"] < fitted["how"]["loss_at_start"]
    assert fitted["how"]["start"] == "zero weights"
    assert fitted["names"][0] == "4 discs: edge+2X .........."
    agent = make_agent(f"engine:depth=2,weights={zeroed / 'weights.json'}", game)
    assert agent(game, state) in game.actions(state)


def _perfect_share(game: Any, state: Any) -> float:
    """The first player's result with perfect play from ``state`` (plain negamax)."""

    def negamax(position: Any) -> float:
        if game.is_terminal(position):
            return float(game.utility(position, game.to_move(position)))
        return max(-negamax(game.result(position, a)) for a in game.actions(position))

    outcome = float(np.sign(negamax(state)))
    if game.to_move(state) != game.players[0]:
        outcome = -outcome
    return (1 + outcome) / 2


def test_solver_labels_are_the_games_played_out_perfectly(
    othello_record: Path, tmp_path: Path, run: Run
) -> None:
    """--solve-within labels each game's positions, from the first the solver reaches, with
    their own results under perfect play and the earlier ones with that first position's (a
    plain negamax judges them); the labels resume from solved.npy; bad settings are one line."""
    path = othello_record
    out = tmp_path / "solved"
    args = ("learn", "tune", "othello", "--records", str(path), "--out", str(out), "--steps",
            "1", "--held-out", "0", "--min-ply", "0", "--solve-within", "0.0001")  # fmt: skip
    tuned = run(*args)
    assert tuned.code == 0, tuned.err
    with np.load(out / "data.npz") as data:
        labels = data["labels"]
    game = make_game("othello")
    solver = game.endgame_solver()
    records = Records(str(path), stored_game(str(path)), None)
    expected: list[float] = []
    for record in records.games():
        state = opening_state(game, record.opening)
        own: list[float | None] = []  # None before the solver's reach
        for text in record.moves:
            reached = (bool(own) and own[-1] is not None) or solver.reaches(state, 1e-4, weak=True)
            own.append(_perfect_share(game, state) if reached else None)
            state = game.result(state, game.parse_action(state, text))
        first = next(share for share in own if share is not None)
        assert own[0] is None  # some positions before the solver's reach
        expected.extend(first if share is None else share for share in own)
    records.close()
    np.testing.assert_array_equal(labels, expected)
    config = tune.TuneConfig((str(path),), min_ply=0, held_out=0)
    played = tune.extract_positions(game, config).labels
    assert not np.array_equal(played, expected)  # a shallow engine throws a won end away
    assert json.loads((out / "weights.json").read_text())["how"]["labels"].startswith(
        "game results, played out perfectly"
    )

    solved = np.load(out / "solved.npy")
    assert not np.isnan(solved).any() and len(solved) < len(labels)
    solved[0] = 0.25  # not a result: the resumed run takes the file's labels as they are
    np.save(out / "solved.npy", solved)
    (out / "data.npz").unlink()
    assert run(*args).code == 0
    with np.load(out / "data.npz") as data:
        assert 0.25 in data["labels"].tolist()

    for bad, message in (
        (("--solve-within", "0"), "--solve-within"),
        (("--solve-within", "nan"), "--solve-within"),
        (("--solve-within", "1", "--teacher", "engine:depth=1"), "not both"),
    ):
        failed = run("learn", "tune", "othello", "--records", str(path), "--out",
                     str(tmp_path / "bad"), *bad)  # fmt: skip
        assert failed.code == 2 and message in failed.err and "Traceback" not in failed.err
    chess = run("learn", "tune", "chess", "--records", str(path), "--out", str(tmp_path / "c"),
                "--solve-within", "1")  # fmt: skip
    assert chess.code == 2 and "no endgame solver" in chess.err


def test_a_teacher_labels_a_sample(record: Path, tmp_path: Path, run: Run) -> None:
    """With --teacher the labels are the teacher's values of a --sample of the positions
    (kept in teacher.npy as they come, so a stopped tuning goes on with them)."""
    out = tmp_path / "taught"
    args = ("learn", "tune", "chess", "--records", str(record), "--out", str(out), "--steps",
            "10", "--sample", "0.5", "--teacher", "engine:depth=1", "--l2", "1e-6")  # fmt: skip
    taught = run(*args)
    assert taught.code == 0, taught.err
    with np.load(out / "data.npz") as data:
        labels = data["labels"]
    everything = tune.extract_positions(make_game("chess"), tune.TuneConfig((str(record),)))
    assert 0 < len(labels) < everything.size
    assert np.all((labels >= 0) & (labels <= 1)) and len(set(labels.tolist())) > 5
    assert set(labels.tolist()) - {0.0, 0.5, 1.0}  # values, not game results
    np.testing.assert_array_equal(np.load(out / "teacher.npy"), labels)
    (out / "data.npz").unlink()
    (out / "state.npz").unlink()
    again = run(*args)
    assert again.code == 0
    with np.load(out / "data.npz") as data:
        np.testing.assert_array_equal(data["labels"], labels)
    bad = run("learn", "tune", "chess", "--records", str(record), "--out", str(tmp_path / "x"),
              "--teacher", "nosuchagent")  # fmt: skip
    assert bad.code == 2 and "nosuchagent" in bad.err


def test_teachers_in_worker_processes_and_on_ray_give_the_same_labels(
    record: Path, tmp_path: Path, run: Run, ray_cluster: Any
) -> None:
    """One teacher here, two in worker processes, two as actors of the test session's Ray
    cluster: the same labels, in the same order."""
    labels = []
    for seats in (("1",), ("2",), ("2", "--ray", ray_cluster.address)):
        out = tmp_path / f"workers-{len(labels)}"
        args = ("learn", "tune", "chess", "--records", str(record), "--out", str(out),
                "--steps", "1", "--sample", "0.3", "--teacher", "engine:depth=1",
                "--workers", *seats)  # fmt: skip
        taught = run(*args)
        assert taught.code == 0, taught.err
        labels.append(np.load(out / "teacher.npy"))
    assert len(labels[0]) > 10
    np.testing.assert_array_equal(labels[0], labels[1])
    np.testing.assert_array_equal(labels[0], labels[2])
