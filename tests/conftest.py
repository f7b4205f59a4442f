"""Shared test helpers."""

from __future__ import annotations

import io
import sys
from collections.abc import Callable
from dataclasses import dataclass

import pytest

from plies.cli import main


@dataclass
class CliRun:
    code: int
    out: str
    err: str


@pytest.fixture
def run_cli(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> Callable[..., CliRun]:
    """Run ``plies ARGS`` in-process with optional stdin; returns exit code, stdout, stderr."""

    def run(*args: str, stdin: str | None = None) -> CliRun:
        if stdin is not None:
            monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
        with pytest.raises(SystemExit) as exit_info:
            main(list(args))
        captured = capsys.readouterr()
        code = exit_info.value.code
        return CliRun(code if isinstance(code, int) else 0, captured.out, captured.err)

    return run
