"""What plies' worker processes share: they leave Ctrl-C to the process that started them,
and they end when that process is gone (killed with ``kill -9``, say) instead of running on
with nobody to take their results; a Ray cluster's address is checked, within seconds, before
any work is sent there."""

from __future__ import annotations

import multiprocessing
import os
import shlex
import shutil
import signal
import socket
import threading
import time

from plies.errors import SpecError

ENGINE_FOLDER = "/usr/games"
"""Where engines not on PATH are looked for (Debian's ``stockfish`` and ``gnugo`` are there)."""

PARENT_POLL_SECONDS = 1.0
"""How often a worker looks whether its parent is still there."""


def start_worker() -> None:
    """Ready this process as a worker: Ctrl-C ignored (the driver stops its workers itself,
    so an interrupted run prints no traceback per worker), and a daemon thread that ends the
    process once its parent is gone (on Linux the orphan gets another parent)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    spawner = multiprocessing.parent_process()  # known even if it died while this one started
    parent = os.getppid() if spawner is None or spawner.pid is None else spawner.pid

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_POLL_SECONDS)
        os._exit(1)

    threading.Thread(target=watch, name="plies-parent-watch", daemon=True).start()


REACH_SECONDS = 5.0
"""How long a cluster's address may take to answer before the run gives up (Ray itself would
wait for minutes)."""


def check_ray_address(address: str) -> None:
    """A :class:`SpecError` when ``address`` (``HOST:PORT``, ``ray://HOST:PORT``) is not
    answering; ``auto`` and ``local`` are Ray's to find or start."""
    host, _, port = address.removeprefix("ray://").rpartition(":")
    if address in ("auto", "local"):
        return
    if not host or not port.isdigit():
        raise SpecError(f"--ray {address!r}: give HOST:PORT, auto or local")
    try:
        socket.create_connection((host, int(port)), timeout=REACH_SECONDS).close()
    except OSError as error:
        raise SpecError(f"cannot reach the Ray cluster at {address!r}: {error}") from None


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
