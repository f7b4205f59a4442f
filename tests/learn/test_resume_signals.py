"""plies train stopped the user's ways (Ctrl-C, SIGTERM, kill -9) at seeded-random moments and
resumed, with other worker and thread counts each time, ends with the files of a run never
stopped, and every stop keeps the finished generations whole; Ctrl-C and SIGTERM while PyTorch
loads end the command in one line."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from plies.games import make_game
from plies.learn.training import open_run
from tests.conftest import default_ctrl_c

GENERATIONS = 3
TINY = ["--games", "6", "--parallel", "2", "--simulations", "8", "--blocks", "1", "--filters", "8"]
SETTINGS = [*TINY, "--eval-games", "4", "--eval-positions", "0", "--seed", "5"]
WALL_TIMES = {"selfplay_seconds", "simulations_per_second"}
FILES = 1 + GENERATIONS * 4
"""Checkpoints and replay chunks of a whole run (3 chunks a generation)."""


def _train(*args: str, threads: int = 2) -> subprocess.Popen[str]:
    """``plies train`` in its own process, its PyTorch on ``threads`` threads, Ctrl-C heard
    even where the tests run as a background job (which ignores it)."""
    command = [sys.executable, "-m", "plies", "train", *args, "--generations", str(GENERATIONS)]
    return subprocess.Popen(
        command,
        env={**os.environ, "OMP_NUM_THREADS": str(threads)},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=default_ctrl_c,
    )


def _written(folder: Path) -> int:
    """How many checkpoints and replay chunks are in place (temporary files not counted)."""
    return len([*folder.glob("checkpoints/gen-*.pt"), *folder.glob("replay/*/chunk-*.npz")])


def _contents(folder: Path) -> dict[tuple[int, str], bytes]:
    """What a run promises to repeat, by generation and name: config.json and the checkpoints
    byte for byte, every replay array but the wall time ``seconds``, and the metrics lines
    less their wall times."""
    found = {(0, "config.json"): (folder / "config.json").read_bytes()}
    for path in folder.glob("checkpoints/gen-*.pt"):
        found[int(path.stem[4:]), path.name] = path.read_bytes()
    for path in folder.glob("replay/*/chunk-*.npz"):
        with np.load(path) as arrays:
            for key in set(arrays.files) - {"seconds"}:
                name = f"{path.parent.name}/{path.name}/{key}"
                found[int(path.parent.name[4:]), name] = arrays[key].tobytes()
    for line in open_run(folder, make_game).metrics():
        metrics = {k: v for k, v in line.items() if k not in WALL_TIMES}
        found[metrics["generation"], "metrics"] = json.dumps(metrics).encode()
    return found


@pytest.fixture(scope="module")
def straight(tmp_path_factory: pytest.TempPathFactory) -> dict[tuple[int, str], bytes]:
    folder = tmp_path_factory.mktemp("straight") / "run"
    process = _train("tictactoe", "--out", str(folder), *SETTINGS, "--workers", "1")
    _, err = process.communicate(timeout=300)
    assert process.returncode == 0, err
    return _contents(folder)


def _stop(process: subprocess.Popen[str], folder: Path, target: int, how: signal.Signals) -> str:
    """Send ``how`` once ``target`` files are written (and up to 30 ms more); its stderr."""
    deadline = time.monotonic() + 120
    while _written(folder) < target and process.poll() is None and time.monotonic() < deadline:
        time.sleep(0.005)
    time.sleep(random.Random(f"{target}:{how}").uniform(0, 0.03))
    process.send_signal(how)
    _, err = process.communicate(timeout=120)
    return err


def test_a_run_stopped_by_signals_and_resumed_ends_as_one_never_stopped(
    straight: dict[tuple[int, str], bytes], tmp_path: Path
) -> None:
    """Three stops at seeded-random points of the work (counted in files written): SIGINT with
    2 workers, SIGTERM with self-play in the process itself, kill -9 with 2 workers; then a
    resume on one PyTorch thread instead of two. After each stop every finished generation is
    whole and every file written is the uninterrupted run's; at the end all of them are."""
    folder = tmp_path / "run"
    targets = sorted(random.Random(1).sample(range(2, FILES - 3), 3))
    stops = [(signal.SIGINT, "2"), (signal.SIGTERM, "1"), (signal.SIGKILL, "2")]
    for number, ((how, workers), target) in enumerate(zip(stops, targets, strict=True)):
        args = ["tictactoe", "--out", str(folder), *SETTINGS] if number == 0 else []
        process = _train(*(args or ["--resume", str(folder)]), "--workers", workers)
        err = _stop(process, folder, max(target, _written(folder) + 1), how)
        assert process.returncode == (-signal.SIGKILL if how == signal.SIGKILL else 130), err
        assert "Traceback" not in err
        if how != signal.SIGKILL:
            assert f"resume with: plies train --resume {folder}" in err
        last = open_run(folder, make_game).last_generation()
        assert last < GENERATIONS, f"the run ended before {how.name}"
        partial = _contents(folder)
        assert {k for k in straight if k[0] <= last} <= set(partial)
        assert partial == {k: straight.get(k) for k in partial}
    final = _train("--resume", str(folder), "--workers", "1", threads=1)
    _, err = final.communicate(timeout=300)
    assert final.returncode == 0, err
    assert _contents(folder) == straight


@pytest.mark.parametrize("how", [signal.SIGINT, signal.SIGTERM])
def test_a_run_stopped_while_pytorch_loads_says_to_give_the_command_again(
    tmp_path: Path, how: signal.Signals
) -> None:
    """Ctrl-C and SIGTERM alike while PyTorch loads (held until it has loaded: raised in its
    midst, they aborted the process, turned into other errors, or were lost; SIGTERM killed it
    silently): one line, exit 130, and no run folder."""
    folder = tmp_path / "run"
    process = _train("tictactoe", "--out", str(folder), *SETTINGS, "--workers", "1")
    maps = Path(f"/proc/{process.pid}/maps")
    deadline = time.monotonic() + 60
    while "libtorch" not in maps.read_text() and time.monotonic() < deadline:
        time.sleep(0.002)  # the command has begun: plies imports PyTorch in it
    process.send_signal(how)
    _, err = process.communicate(timeout=60)
    assert process.returncode == 130, err
    assert err == "plies: interrupted; nothing was trained; give the same command again\n"
    assert not folder.exists()
