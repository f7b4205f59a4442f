"""What the agents that run an outside engine (``uci``, ``gtp``, ``gnubg``) share: their time
limits, the option that names the engine's command line (found by
:func:`plies.processes.engine_command`; a failing engine raises
:class:`plies.errors.EngineFailure`), and a program spoken to a line at a time
(:class:`LineProgram`), quit when Python exits."""

from __future__ import annotations

import atexit
import contextlib
import os
import queue
import subprocess
import sys
import threading
import time
from typing import IO

from plies.agents.registry import Option
from plies.errors import EngineFailure

START_SECONDS = 10.0
"""Seconds an engine has to start and answer its first command."""
QUIT_SECONDS = 1.0
"""Seconds an engine has to quit (or to die once killed) before it is left alone."""
COMMAND = Option("cmd", "text", "the engine's command line (PATH, then /usr/games)")
"""The option that names the engine's command line (the kinds' positional one)."""


class LineProgram:
    """A running program, started by process ``owner`` (a forked child must not use it), told
    a line at a time on its standard input; a thread reads its output into ``lines`` (None
    once the output ends). ``name`` names it in its failures; ``farewell`` is the line that
    asks it to quit."""

    farewell = "quit"

    def __init__(self, argv: tuple[str, ...], name: str) -> None:
        self.name, self.owner = name, os.getpid()
        self.process = subprocess.Popen(
            argv,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            errors="replace",
            bufsize=1,
        )
        assert self.process.stdin is not None and self.process.stdout is not None
        self.stdin: IO[str] = self.process.stdin
        self.lines: queue.SimpleQueue[str | None] = queue.SimpleQueue()
        reader = threading.Thread(
            target=self._read, args=(self.process.stdout,), name="plies-engine-output", daemon=True
        )
        reader.start()
        RUNNING.add(self)

    def _read(self, output: IO[str]) -> None:
        with output:
            for line in output:
                self.lines.put(line)
        self.lines.put(None)

    def send(self, line: str) -> None:
        """Write ``line`` to the program; an :class:`EngineFailure` if it has crashed."""
        try:
            self.stdin.write(line + "\n")
            self.stdin.flush()
        except (OSError, ValueError):
            raise self.crashed() from None

    def receive(self, deadline: float, late: str) -> str:
        """The program's next line of output, its end of line stripped; an
        :class:`EngineFailure` if its output ends, or, with the reason ``late``, if no line
        comes by ``deadline`` (a :func:`time.monotonic` time)."""
        try:
            line = self.lines.get(timeout=max(0.0, deadline - time.monotonic()))
        except queue.Empty:
            raise EngineFailure(self.name, late) from None
        if line is None:
            raise self.crashed()
        return line.rstrip("\r\n")

    def crashed(self) -> EngineFailure:
        """The failure of a program whose pipes closed, with its exit status when it has one."""
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.wait(QUIT_SECONDS)
        code = self.process.returncode
        return EngineFailure(
            self.name, "crashed" if code is None else f"crashed (exit status {code})"
        )

    def stop(self, *, kill: bool = False) -> None:
        """Quit the program (``kill``: at once) and wait until it is reaped."""
        if not kill:
            with contextlib.suppress(OSError, ValueError):
                self.stdin.write(self.farewell + "\n")
                self.stdin.flush()
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.process.wait(QUIT_SECONDS)
        self.process.kill()  # nothing if it has quit
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.wait(QUIT_SECONDS)
        with contextlib.suppress(OSError, ValueError):
            self.stdin.close()
        RUNNING.discard(self)

    def stop_soon(self) -> None:
        """Quit the program without waiting (it counts as running until it is gone); nothing
        once Python is finalizing, when no thread starts (the programs were quit at exit)."""
        if not sys.is_finalizing():
            threading.Thread(target=self.stop, name="plies-engine-quit", daemon=True).start()


RUNNING: set[LineProgram] = set()
"""The programs this process runs (set operations are atomic: no lock)."""


def _stop_all() -> None:
    """Quit every program still running (at exit)."""
    for program in list(RUNNING):
        program.stop()


os.register_at_fork(after_in_child=RUNNING.clear)
atexit.register(_stop_all)
