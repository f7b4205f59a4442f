"""Output files checked before the work that fills them starts."""

from __future__ import annotations

import os
from pathlib import Path

from plies.errors import RenderError


def check_writable(path: str | os.PathLike[str]) -> Path:
    """``path`` as a file that can be written: not a directory, in a directory that exists
    and lets us write; :class:`RenderError` naming the problem otherwise. Nothing is created.

    >>> check_writable("/no/such/directory/effort.png")
    Traceback (most recent call last):
    ...
    plies.errors.RenderError: cannot write '/no/such/directory/effort.png': there is no \
directory '/no/such/directory'
    """
    target = Path(path)
    directory = target.parent
    if target.is_dir():
        problem = "it is a directory"
    elif not directory.exists():
        problem = f"there is no directory {str(directory)!r}"
    elif not directory.is_dir():
        problem = f"{str(directory)!r} is not a directory"
    elif not os.access(directory, os.W_OK | os.X_OK) or (
        target.exists() and not os.access(target, os.W_OK)
    ):
        problem = "permission denied"
    else:
        return target
    raise RenderError(f"cannot write {str(target)!r}: {problem}")
