"""plies train stopped by Ctrl-C or SIGTERM while PyTorch loads ends in one line."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

GENERATIONS = 3
TINY = ["--games", "6", "--parallel", "2", "--simulations", "8", "--blocks", "1", "--filters", "8"]
SETTINGS = [*TINY, "--eval-games", "4", "--eval-positions", "0", "--seed", "5"]


def _train(*args: str, threads: int = 2) -> subprocess.Popen[str]:
    """``plies train`` in its own process, its PyTorch on ``threads`` threads."""
    command = [sys.executable, "-m", "plies", "train", *args, "--generations", str(GENERATIONS)]
    environment = {**os.environ, "OMP_NUM_THREADS": str(threads)}
    return subprocess.Popen(
        command, env=environment, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )


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
