"""Helpers of the outside engines' tests: which engine processes are still around."""

from __future__ import annotations

import os
from pathlib import Path


def children(marker: str) -> list[int]:
    """This process's children running ``marker`` (in their command line), and its zombies."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            cmdline = (entry / "cmdline").read_bytes()
        except OSError:
            continue
        state, parent = stat.rpartition(")")[2].split()[:2]
        if int(parent) == os.getpid() and (state == "Z" or marker.encode() in cmdline):
            found.append(int(entry.name))
    return found


def alive(pid: int) -> bool:
    """Whether process ``pid`` exists (a zombie counts)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True
