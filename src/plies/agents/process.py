"""What the agents that run an outside engine (``uci``, ``gtp``) share: reading the engine's
command line, finding its program, and the error an engine that fails raises."""

from __future__ import annotations

import os
import shlex
import shutil

from plies.agents.registry import Option
from plies.errors import PliesError, SpecError

START_SECONDS = 10.0
"""Seconds an engine has to start and answer its first command."""
QUIT_SECONDS = 1.0
"""Seconds an engine has to quit (or to die once killed) before it is left alone."""
ENGINE_FOLDER = "/usr/games"
"""Where engines not on PATH are looked for (Debian's ``stockfish`` and ``gnugo`` are there)."""
COMMAND = Option("cmd", "text", "the engine's command line (PATH, then /usr/games)")
"""The option that names the engine's command line (the kinds' positional one)."""


class EngineFailure(PliesError):
    """An engine crashed, ran past its time, or answered with an illegal move or none: it
    loses the game. ``reason`` says which (``crashed``, ``timed out after 1.1 s``, ``illegal
    move e2e5``, ``no move``)."""

    def __init__(self, name: str, reason: str) -> None:
        super().__init__(name, reason)
        self.name, self.reason = name, reason

    def __str__(self) -> str:
        return f"{self.name}: {self.reason}"


def engine_command(kind: str, text: str | None, example: str) -> tuple[str, ...]:
    """The command line of a ``kind`` agent's engine from its ``cmd=``, the program found (a
    :class:`SpecError` if missing or not executable; ``example`` is a command to suggest)."""
    if text is None:
        raise SpecError(f"{kind}: give the engine's command, e.g. {kind}:{example}")
    try:
        words = shlex.split(text)
    except ValueError as error:
        raise SpecError(f"{kind}: cmd={text!r}: {error}") from None
    program = words[0] if words else ""
    if os.sep in program:
        if not (os.path.isfile(program) and os.access(program, os.X_OK)):
            raise SpecError(f"{kind}: engine {program!r} is not an executable file")
        return (program, *words[1:])
    found = shutil.which(program) or shutil.which(program, path=ENGINE_FOLDER)
    if found is None:
        raise SpecError(f"{kind}: engine {program!r} not found on PATH or in {ENGINE_FOLDER}")
    return (found, *words[1:])
