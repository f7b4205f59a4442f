"""Imitation (plies.learn.imitate): the examples are the chosen player's moves of a tournament
file, the network learns them (better than chance on held-out games), the folder resumes, the
model plays through ``policy:model=`` and ``az:model=``, and bad input is one line."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
import torch

from plies.agents import make_agent
from plies.arena.records import Records
from plies.games import make_game
from plies.learn import imitate
from plies.learn.checkpoint import load_checkpoint
from plies.learn.evaluator import one_thread
from tests.conftest import CliRun

Run = Callable[..., CliRun]
GAME = "tictactoe"


@pytest.fixture(scope="module")
def record(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Tic-tac-toe between alphabeta (perfect play) and random moves, random openings."""
    path = tmp_path_factory.mktemp("imitate") / "games.sqlite"
    command = [sys.executable, "-m", "plies", "tournament", "run", GAME, "alphabeta",
               "random", "--db", str(path), "--games", "160", "--openings", "random:1",
               "--concurrency", "1", "--seed", "3"]  # fmt: skip
    finished = subprocess.run(command, capture_output=True, text=True, timeout=300)
    assert finished.returncode == 0, finished.stderr
    return path


def test_the_examples_are_the_chosen_players_moves(record: Path) -> None:
    game = make_game(GAME)
    records = Records(record, GAME, None)
    games = records.games()
    records.close()
    config = imitate.ImitationConfig((str(record),), player="alphabeta", held_out=0.25)
    examples = imitate.extract_examples(game, config)
    by_alphabeta = sum(
        len(g.moves[0::2]) if g.first == "alphabeta" else len(g.moves[1::2]) for g in games
    )
    assert len(examples.moves) == by_alphabeta and examples.games == len(games)
    assert set(examples.results.tolist()) <= {-1.0, 0.0, 1.0}
    assert 0 < examples.held.mean() < 0.6
    everyone = imitate.extract_examples(game, imitate.ImitationConfig((str(record),)))
    assert len(everyone.moves) == sum(len(g.moves) for g in games)


def test_the_network_learns_the_moves(record: Path, tmp_path: Path) -> None:
    """Trained on alphabeta's moves (no symmetries: alphabeta breaks ties by move order), the
    network ranks first far more of the moves it saw than a random choice would."""
    game = make_game(GAME)
    config = imitate.ImitationConfig(
        (str(record),), "alphabeta", 0.25, 1, None, None, 20, 16, 3e-3, augment=False
    )
    with one_thread():
        lines = imitate.imitate(game, config, tmp_path, torch.device("cpu"))
    assert [line["epoch"] for line in lines] == list(range(1, 21))
    assert {"val_policy_loss", "val_value_loss", "agreement"} <= set(lines[-1])
    examples = imitate.extract_examples(game, config)
    seen = examples.take(np.flatnonzero(~examples.held))
    network = load_checkpoint(tmp_path / "model.pt", game, "policy-value").network
    assert imitate.evaluate(network, seen, torch.device("cpu"))["agreement"] > 0.45  # chance: 0.2
    assert lines[-1]["loss"] < lines[0]["loss"] - 0.3


def test_imitate_resumes_and_plays(record: Path, tmp_path: Path, run_cli: Run) -> None:
    out = tmp_path / "net"
    options = ("--player", "alphabeta", "--held-out", "0.25", "--device", "cpu")
    first = run_cli("learn", "imitate", GAME, "--records", str(record), "--out", str(out),
                    "--epochs", "2", *options)  # fmt: skip
    assert first.code == 0, first.err
    again = run_cli("learn", "imitate", GAME, "--records", str(record), "--out", str(out),
                    "--epochs", "3", *options)  # fmt: skip
    assert again.code == 0, again.err
    lines = [json.loads(line) for line in (out / "metrics.jsonl").read_text().splitlines()]
    assert [line["epoch"] for line in lines] == [1, 2, 3]
    game = make_game(GAME)
    state = game.initial_state()
    for spec in (f"policy:model={out / 'model.pt'}", f"az:model={out / 'model.pt'},simulations=20"):
        assert make_agent(spec, game)(game, state) in game.actions(state)


def test_imitate_refuses_bad_input(record: Path, tmp_path: Path, run_cli: Run) -> None:
    missing = run_cli("learn", "imitate", GAME, "--records", str(tmp_path / "none.sqlite"),
                  "--out", str(tmp_path / "a"))  # fmt: skip
    assert missing.code == 2 and "no tournament file" in missing.err
    nobody = run_cli("learn", "imitate", GAME, "--records", str(record),
                     "--out", str(tmp_path / "b"), "--player", "stockfish")  # fmt: skip
    assert nobody.code == 2 and "no move of a player matching 'stockfish'" in nobody.err
    other = run_cli("learn", "imitate", "connect4", "--records", str(record),
                "--out", str(tmp_path / "c"))  # fmt: skip
    assert other.code == 2 and "holds games of tictactoe, not of connect4" in other.err
    out = tmp_path / "d"
    small = run_cli("learn", "imitate", GAME, "--records", str(record), "--out", str(out),
                "--epochs", "1", "--blocks", "1", "--device", "cpu")  # fmt: skip
    assert small.code == 0, small.err
    bigger = run_cli("learn", "imitate", GAME, "--records", str(record), "--out", str(out),
                 "--epochs", "2", "--blocks", "2", "--device", "cpu")  # fmt: skip
    assert bigger.code == 2 and "use another --out" in bigger.err
