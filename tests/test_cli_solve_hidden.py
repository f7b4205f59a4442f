"""``plies solve`` for games of imperfect information: the JSON contract, saving, measuring
and resuming strategies, Ctrl-C, and one-line errors for bad input."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import CliRun, assert_one_line_error, default_ctrl_c

Run = Callable[..., CliRun]


def test_kuhn_json_contract(run_cli: Run) -> None:
    result = run_cli("solve", "kuhn", "--json")
    assert result.code == 0, result.err
    data = json.loads(result.out)
    assert (data["game"], data["solver"], data["iterations"], data["sets"]) == (
        "kuhn",
        "cfr+",
        1000,
        12,
    )
    assert data["value"]["P1"] == pytest.approx(-1 / 18, abs=1e-4)
    assert round(data["exploitability"], 6) == 0.000087
    assert data["nash_conv"] == pytest.approx(2 * data["exploitability"])
    assert data["strategy"]["P2"]["K:b"]["bet"] == pytest.approx(1.0)
    assert data["interrupted"] is False


def test_leduc_text_lists_every_set_then_the_figures(run_cli: Run) -> None:
    result = run_cli("solve", "leduc", "--solver", "cfr", "--iterations", "10")
    assert result.code == 0, result.err
    lines = result.out.splitlines()
    assert sum(line.startswith(("P1 ", "P2 ")) for line in lines) == 288
    assert "exploitability: 0.888579" in result.out
    assert lines[-3].startswith("leduc: cfr, 10 iterations in ")


def test_save_measure_and_resume(run_cli: Run, tmp_path: Path) -> None:
    path = tmp_path / "kuhn.json"
    assert run_cli("solve", "kuhn", "--iterations", "400", "--save", str(path)).code == 0
    measured = json.loads(run_cli("solve", "kuhn", "--strategy", str(path), "--json").out)
    resumed = run_cli("solve", "kuhn", "--iterations", "600", "--resume", str(path), "--json")
    again = json.loads(resumed.out)
    whole = json.loads(run_cli("solve", "kuhn", "--json").out)
    assert measured["iterations"] == 400 and measured["missing_sets"] == 0
    assert again["iterations"] == 1000 and again["iterations_run"] == 600
    assert again["exploitability"] == pytest.approx(whole["exploitability"], abs=1e-15)


def test_sampling_solver_on_kuhn(run_cli: Run) -> None:
    data = json.loads(run_cli("solve", "kuhn", "--solver", "mccfr", "--iterations", "3000",
                              "--seed", "2", "--json").out)  # fmt: skip
    assert data["solver"] == "mccfr" and data["exploitability"] < 0.05


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (("kuhn", "pb"), "POSITION is not for a game of imperfect information"),
        (("kuhn", "--depth", "3"), "--depth is not for a game of imperfect information"),
        (("nim", "--solver", "cfr"), "--solver is for a game of imperfect information"),
        (("nim", "--iterations", "5"), "--iterations is for a game of imperfect information"),
        (("kuhn", "--iterations", "0"), "--iterations must be at least 1"),
        (("kuhn", "--iterations", "inf"), "'inf' is not a valid integer"),
        (("kuhn", "--solver", "dcfr"), "'dcfr' is not one of"),
        (("kuhn", "--strategy", "/no/such/file.json"), "cannot read strategy file"),
        (("kuhn", "--resume", "/no/such/file.json"), "cannot read strategy file"),
    ],
)
def test_bad_input_is_one_line(run_cli: Run, args: tuple[str, ...], fragment: str) -> None:
    assert_one_line_error(run_cli("solve", *args), fragment)


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("{not json", "is not JSON"),
        ('{"plies": "strategy", "version": 1, "game": "leduc", "strategy": {}}', "'leduc'"),
        (
            '{"plies": "strategy", "version": 1, "game": "kuhn", '
            '"strategy": {"P1": {"K:": {"pass": 0.3, "bet": 0.3}}}}',
            "sum to 0.6, not 1",
        ),
    ],
)
def test_damaged_strategy_files_are_one_line(
    run_cli: Run, tmp_path: Path, text: str, fragment: str
) -> None:
    path = tmp_path / "strategy.json"
    path.write_text(text)
    assert_one_line_error(run_cli("solve", "kuhn", "--strategy", str(path)), fragment)


def test_another_solvers_tables_cannot_be_resumed(run_cli: Run, tmp_path: Path) -> None:
    path = tmp_path / "kuhn.json"
    run_cli("solve", "kuhn", "--solver", "cfr", "--iterations", "5", "--save", str(path))
    assert_one_line_error(
        run_cli("solve", "kuhn", "--resume", str(path)), "cfr+ cannot go on from it"
    )


def test_a_game_too_large_to_walk_says_so_and_suggests_sampling(
    run_cli: Run, tmp_path: Path
) -> None:
    module = tmp_path / "hugekuhn.py"
    module.write_text(
        "from plies.games.kuhn.rules import KuhnPoker\n\n"
        "class Huge(KuhnPoker):\n    searchable_to_end = False\n"
    )
    spec = f"{module}:Huge"
    assert_one_line_error(run_cli("solve", spec), "too large to walk whole")
    assert_one_line_error(run_cli("solve", spec, "--solver", "cfr"), "mccfr")
    sampled = run_cli("solve", spec, "--solver", "mccfr", "--iterations", "50")
    assert sampled.code == 0, sampled.err
    assert "not computed (the game is too large to walk)" in sampled.out


def test_ctrl_c_keeps_the_strategy_so_far(tmp_path: Path) -> None:
    path = tmp_path / "leduc.json"
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "plies",
            "solve",
            "leduc",
            "--solver",
            "mccfr",
            "--iterations",
            "10000000",
            "--save",
            str(path),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=default_ctrl_c,
    )
    time.sleep(4)
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=60)
    assert process.returncode == 130, err
    assert "plies: interrupted" in err and "saved in" in err
    assert "exploitability:" in out
    assert json.loads(path.read_text())["iterations"] > 0


def test_kill_9_loses_at_most_a_checkpoint_and_the_run_resumes(tmp_path: Path) -> None:
    path = tmp_path / "phantom.json"
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "plies",
            "solve",
            "phantom",
            "--solver",
            "mccfr-outcome",
            "--iterations",
            "10000000",
            "--save",
            str(path),
            "--checkpoint",
            "0.5",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 60
    while not path.exists() and time.monotonic() < deadline:
        time.sleep(0.2)
    time.sleep(1)
    process.kill()
    process.wait(timeout=30)
    saved = json.loads(path.read_text())
    assert saved["solver"] == "mccfr-outcome" and saved["iterations"] > 0
    more = subprocess.run(
        [
            sys.executable,
            "-m",
            "plies",
            "solve",
            "phantom",
            "--solver",
            "mccfr-outcome",
            "--iterations",
            "20",
            "--resume",
            str(path),
            "--json",
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert more.returncode == 0, more.stderr
    assert json.loads(more.stdout)["iterations"] == saved["iterations"] + 20
