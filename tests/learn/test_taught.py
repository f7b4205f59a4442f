"""Distillation from a teacher (Ruoss et al. 2024 with an engine as the teacher): labels checked
against the Connect Four solver and Stockfish's mates, a teacher that dies mid-run stopping in
one line with its chunks kept, a policy-value network that plays chess with no search, and the
``plies learn distill --teacher`` command's bad input."""

from __future__ import annotations

import shutil
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import chess
import numpy as np
import pytest
import torch

from plies.agents import make_agent
from plies.errors import SpecError
from plies.games import make_game
from plies.learn import taught
from plies.learn.checkpoint import load_checkpoint
from plies.learn.distill import TrainConfig
from plies.learn.evaluator import one_thread
from plies.learn.network import POLICY_VALUE
from tests.conftest import CliRun, assert_one_line_error
from tests.games.test_uci_agent import FAKE_ENGINE

Run = Callable[..., CliRun]
CONNECT4 = make_game("connect4")
CHESS = make_game("chess")
STOCKFISH = shutil.which("stockfish") or shutil.which("stockfish", path="/usr/games")
needs_stockfish = pytest.mark.skipif(
    STOCKFISH is None, reason="Stockfish is not installed (apt-get install stockfish)"
)


class _Recording:
    """A teacher that remembers each position it was asked about, by its encoding."""

    def __init__(self, game: Any, spec: str) -> None:
        self.agent = make_agent(spec, game)
        self.asked: dict[bytes, Any] = {}

    def __call__(self, game: Any, state: Any) -> Any:
        self.asked[game.encode(state).astype(np.float16).tobytes()] = state
        move = self.agent(game, state)
        self.last = self.agent.last
        return move


def test_labels_are_the_teachers_moves_and_the_solvers_outcomes() -> None:
    """Taught by the perfect player: every label's move is one of the solver's best moves,
    and its value the sign of the solver's score."""
    data = taught.TaughtData(positions=40, teacher="perfect", min_ply=18, chunk_size=40)
    teacher = _Recording(CONNECT4, "perfect")
    chunk = taught.taught_chunk(CONNECT4, teacher, data, 0)
    assert len(chunk) == 40 and chunk.planes.dtype == np.float16
    solver = CONNECT4.perfect_solver()
    signs = set()
    for planes, index, value in zip(chunk.planes, chunk.moves, chunk.values, strict=True):
        state = teacher.asked[planes.tobytes()]
        assert np.count_nonzero(planes[:2]) >= 18  # stones on the board: the ply
        scores = solver.analyze(state)
        best = max(s for s in scores if s is not None)
        assert scores[CONNECT4.index_action(state, int(index))] == best
        assert value == np.sign(best)
        signs.add(int(value))
    assert len(signs) >= 2  # wins and losses (or draws) both met


@needs_stockfish
def test_stockfish_labels_a_mate_in_one_as_a_win_with_the_mating_move() -> None:
    state = CHESS.parse_position("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1")
    teacher = make_agent("uci:stockfish,depth=6", CHESS)
    try:
        move = teacher(CHESS, state)
        share = taught.expected_share(CHESS, teacher.last)
    finally:
        teacher.close()  # type: ignore[attr-defined]
    assert move == chess.Move.from_uci("a1a8") and share == 1.0


@needs_stockfish
def test_a_network_taught_by_stockfish_learns_and_plays_chess(tmp_path: Path) -> None:
    data = taught.TaughtData(
        positions=256, teacher="uci:stockfish,depth=4", chunk_size=128, opening=4
    )
    folder = taught.open_taught(tmp_path, CHESS, "chess", data)
    assert taught.label_chunks(folder, workers=2) == 256
    assert taught.label_chunks(folder, workers=2) == 0
    loaded = taught.load_positions(folder)
    assert len(loaded) <= 256 and len({p.tobytes() for p in loaded.planes}) == len(loaded)
    assert np.all(np.abs(loaded.values) <= 1) and loaded.values.std() > 0.05
    training = TrainConfig(
        epochs=6, kind=POLICY_VALUE, blocks=1, filters=16, batch_size=32, learning_rate=3e-3
    )
    with one_thread():
        lines = taught.train_taught(folder, training, torch.device("cpu"))
    assert lines[-1]["loss"] < lines[0]["loss"], lines
    assert {"accuracy", "val_policy_loss", "val_value_loss"} <= set(lines[-1])
    checkpoint = load_checkpoint(folder.model_file, CHESS, POLICY_VALUE)
    assert checkpoint.info["teacher"] == "uci:stockfish,depth=4"
    policy = make_agent(f"policy:model={folder.model_file}", CHESS)
    state = CHESS.initial_state()
    for _ in range(6):
        move = policy(CHESS, state)
        assert move in list(CHESS.actions(state))
        state = CHESS.result(state, move)
    by_value = make_agent(f"policy:model={folder.model_file},by=value", CHESS)
    mate = CHESS.parse_position("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1")
    assert by_value(CHESS, mate) == chess.Move.from_uci("a1a8")  # a won end beats any estimate
    moves = list(CHESS.actions(state))
    children = np.stack([CHESS.encode(CHESS.result(state, m)) for m in moves])
    with torch.inference_mode():
        _, values = checkpoint.network(torch.from_numpy(children))
    assert by_value(CHESS, state) == moves[int(np.argmin(values.numpy()))]


def test_a_teacher_that_dies_stops_in_one_line_and_the_rerun_goes_on(
    run_cli: Run, tmp_path: Path
) -> None:
    """The fake engine crashes at its 40th search in each process: the first worker's engine
    labels two chunks of 16 and dies in the third; the run stops with one line, exit 2, the
    two chunks kept; the rerun's fresh engine labels the rest."""
    script = tmp_path / "fake_engine.py"
    script.write_text(FAKE_ENGINE)
    teacher = f"uci:cmd={sys.executable} {script},mode=crash,failat=40"
    out = tmp_path / "run"
    command = ("learn", "distill", "chess", "--out", str(out), "--teacher", teacher)
    settings = ("--positions", "64", "--chunk-size", "16", "--workers", "1", "--only", "label")
    stopped = run_cli(*command, *settings)
    assert_one_line_error(stopped, "crashed")
    assert "the 32 positions labelled are kept" in stopped.err
    assert sorted(p.name for p in (out / "data").iterdir()) == [
        "chunk-0000.npz",
        "chunk-0001.npz",
    ]
    again = run_cli(*command[:-2], *settings)  # the teacher is read back from the folder
    assert again.code == 0, again
    assert "labelled 32 new positions" in again.err


def test_the_teachers_labels_train_only_a_policy_value_network(tmp_path: Path) -> None:
    data = taught.TaughtData(positions=8, teacher="perfect", min_ply=24, chunk_size=8)
    folder = taught.open_taught(tmp_path, CONNECT4, "connect4", data)
    taught.label_chunks(folder)
    with pytest.raises(SpecError, match="policy-value network, not action-value"):
        taught.train_taught(folder, TrainConfig(epochs=1), torch.device("cpu"))


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (("--teacher", "uci:no-such-engine"), "UCI engines play chess, not 'connect4'"),
        (("--teacher", "uci:no-such-engine", "--game", "chess"), "not found"),
        (("--teacher", "random"), "reports no value"),
        (("--teacher", "perfect", "--max-ply", "20"), "--max-ply is for the perfect solver"),
        (("--teacher", "perfect", "--kind", "action-value"), "policy-value"),
        (("--teacher", "perfect", "--positions", "0"), "--positions"),
        (("--teacher", "perfect", "--only", "train"), "holds no labelled positions"),
        (("--teacher", "perfect", "--with", "{distilled}"), "another kind of run"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(
    run_cli: Run, tmp_path: Path, args: tuple[str, ...], fragment: str
) -> None:
    distilled = tmp_path / "distilled"
    distilled.mkdir()
    (distilled / "config.json").write_text('{"format": "plies-distill-1"}')
    given = [a.format(distilled=distilled) for a in args]
    game = "connect4"
    if "--game" in given:
        game = given.pop(given.index("--game") + 1)
        given.remove("--game")
    if "--positions" not in given:
        given += ["--positions", "4"]
    out = ("--out", str(tmp_path / "new"), "--device", "cpu", "--workers", "1")
    result = run_cli("learn", "distill", game, *out, *given)
    assert_one_line_error(result, fragment)
    assert not (tmp_path / "new" / "data").exists()
