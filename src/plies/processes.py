"""What plies' worker processes share: they leave Ctrl-C to the process that started them,
and they end when that process is gone (killed with ``kill -9``, say) instead of running on
with nobody to take their results."""

from __future__ import annotations

import multiprocessing
import os
import signal
import threading
import time

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
