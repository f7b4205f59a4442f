"""``plies effort --plot``: the file is checked before the searches, and a plot that still
fails is reported after the table."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

import plies.lectures.effort
from plies.errors import RenderError
from tests.conftest import CliRun, assert_one_line_error

Run = Callable[..., CliRun]


def _no_search(*args: object, **kwargs: object) -> None:
    raise AssertionError("the searches ran before the plot file was checked")


@pytest.mark.parametrize(
    ("target", "fragment"),
    [
        ("missing/effort.png", "there is no directory"),
        ("effort.svg", "the effort plot is a PNG; name a .png file"),
        (".", "is a directory"),  # click says so first
    ],
)
def test_the_plot_file_is_checked_before_the_searches(
    run_cli: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, target: str, fragment: str
) -> None:
    monkeypatch.setattr(plies.lectures.effort, "effort_rows", _no_search)
    path = str(tmp_path / target)
    result = run_cli("effort", "tictactoe", "--plot", path)
    assert_one_line_error(result, fragment)
    assert result.out == ""
    assert_one_line_error(run_cli("effort", "tictactoe", "--plot", path, "--json"), fragment)


def test_without_matplotlib_nothing_is_searched(
    run_cli: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(plies.lectures.effort, "effort_rows", _no_search)
    monkeypatch.setattr(plies.lectures.effort.importlib.util, "find_spec", lambda name: None)
    result = run_cli("effort", "tictactoe", "--plot", str(tmp_path / "effort.png"))
    assert_one_line_error(result, "matplotlib is not installed")


@pytest.mark.parametrize("as_json", [False, True])
def test_a_plot_that_fails_late_comes_after_the_table(
    run_cli: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, as_json: bool
) -> None:
    pytest.importorskip("matplotlib")

    def fail(*args: object, **kwargs: object) -> None:
        raise RenderError(f"cannot write {str(tmp_path / 'effort.png')!r}: No space left on device")

    monkeypatch.setattr(plies.lectures.effort, "plot_effort", fail)
    args = ["effort", "tictactoe", "--plies", "8", "--plot", str(tmp_path / "effort.png")]
    result = run_cli(*args, *(["--json"] if as_json else []))
    assert_one_line_error(result, "No space left on device")
    if as_json:
        assert json.loads(result.out)["rows"][0]["positions"] == 222
    else:
        assert result.out.splitlines()[2].split()[:2] == ["8", "222"]
        assert "plotted to" not in result.out


def test_the_plot_is_written_after_the_table(run_cli: Run, tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    target = tmp_path / "effort.png"
    result = run_cli("effort", "tictactoe", "--plies", "8", "--plot", str(target))
    assert result.code == 0 and result.out.endswith(f"plotted to {target}\n")
    assert target.read_bytes().startswith(b"\x89PNG")
