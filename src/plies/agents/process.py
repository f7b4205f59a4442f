"""What the agents that run an outside engine (``uci``, ``gtp``) share: their time limits and
the option that names the engine's command line (found by
:func:`plies.processes.engine_command`; a failing engine raises
:class:`plies.errors.EngineFailure`)."""

from __future__ import annotations

from plies.agents.registry import Option

START_SECONDS = 10.0
"""Seconds an engine has to start and answer its first command."""
QUIT_SECONDS = 1.0
"""Seconds an engine has to quit (or to die once killed) before it is left alone."""
COMMAND = Option("cmd", "text", "the engine's command line (PATH, then /usr/games)")
"""The option that names the engine's command line (the kinds' positional one)."""
