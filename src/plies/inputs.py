"""Reading what a user hands plies, bounded before it is parsed: a file, or standard input,
larger than the limit (or endless, such as ``/dev/zero``) is refused in one line after reading
no more than the limit. Where a command's output goes, checked before the work that fills it
(:func:`check_output`). And writing a file atomically (:func:`write_atomically`), so a reader
never sees half of one.

>>> import io
>>> read_text(io.BytesIO(b"[[3, 12], [2, 4]]"), "tree")
'[[3, 12], [2, 4]]'
>>> read_text(io.BytesIO(b"x" * 100), "tree", limit=10)
Traceback (most recent call last):
...
plies.errors.SpecError: the tree is longer than 10 bytes, the most plies reads
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import IO, Any

from plies.errors import OutputError, PliesError, SpecError

MAX_INPUT_BYTES = 16 * 1024 * 1024
"""The most plies reads of one input (a tree, a set file, openings, an SGF): 16 MiB."""


def read_text(source: str | Path | IO[Any], what: str, limit: int | None = None) -> str:
    """The UTF-8 text of ``source`` (a path, or a stream such as standard input: binary, or
    text read as characters), ``what`` naming it in errors; a :class:`SpecError` past
    ``limit`` bytes (:data:`MAX_INPUT_BYTES` by default), a :class:`PliesError` when it cannot
    be read or decoded."""
    limit = MAX_INPUT_BYTES if limit is None else limit
    if isinstance(source, str | Path):
        name = repr(str(source)[:80])
        try:
            with open(source, "rb") as stream:
                data = stream.read(limit + 1)
        except OSError as error:
            raise PliesError(f"cannot read {what} {name}: {error.strerror or error}") from None
    else:
        name, data = "", source.read(limit + 1)
    if len(data) > limit:
        where = f" {name}" if name else ""
        raise SpecError(f"the {what}{where} is longer than {limit:,} bytes, the most plies reads")
    if isinstance(data, str):
        return data
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise PliesError(f"the {what} {name} is not UTF-8 text ({error.reason})") from None


def check_output(
    path: str | os.PathLike[str], *, folder: bool = False, make_parents: bool = False
) -> Path:
    """``path`` as a place where plies can write an output, checked before the work that fills
    it starts; an :class:`OutputError` naming the problem otherwise. A file (the default) is no
    folder, and its folder exists (or, with ``make_parents``, is made by its writer, as
    :func:`write_atomically` does); a ``folder`` is no file, and the folders missing above it
    are made with it. The nearest folder that exists must take new files: it is tried with an
    empty file, removed at once (permissions alone say yes to root, even in ``/proc``).

    >>> check_output("/no/such/directory/effort.png")
    Traceback (most recent call last):
    ...
    plies.errors.OutputError: cannot write '/no/such/directory/effort.png': there is no \
directory '/no/such/directory'
    >>> check_output("/etc/passwd/runs/ttt", folder=True)
    Traceback (most recent call last):
    ...
    plies.errors.OutputError: cannot write '/etc/passwd/runs/ttt': '/etc/passwd' is not a \
directory
    """
    target = Path(path)
    problem = _output_problem(target, folder, make_parents or folder)
    if problem is not None:
        raise OutputError(f"cannot write {str(target)!r}: {problem}")
    return target


def _output_problem(target: Path, folder: bool, make_parents: bool) -> str | None:
    """What stops plies writing ``target``, None where nothing does."""
    if folder and os.path.exists(target) and not target.is_dir():
        return "it is a file, not a folder"
    if not folder and target.is_dir():
        return "it is a directory"
    base = target if folder else target.parent
    if make_parents:
        while not os.path.exists(base) and base != base.parent:
            base = base.parent  # the nearest folder that exists (or a file in the way)
    elif not os.path.exists(base):
        return f"there is no directory {str(base)!r}"
    if not base.is_dir():
        return f"{str(base)!r} is not a directory"
    writable = os.access(base, os.W_OK | os.X_OK)
    if not writable or (target.is_file() and not os.access(target, os.W_OK)):
        return "permission denied"
    try:
        handle, trial = tempfile.mkstemp(dir=base, prefix=".plies-check-")
    except OSError as error:
        return f"nothing can be created in {str(base)!r} ({error.strerror or error})"
    os.close(handle)
    os.unlink(trial)
    return None


def write_atomically(path: Path, write: Any) -> None:
    """Call ``write(file)`` on a temporary file beside ``path``, then rename it into place: a
    reader sees the old file or the whole new one, never half of it."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "wb") as file:
            write(file)
            file.flush()
            os.fsync(file.fileno())
        os.chmod(temporary, 0o644)  # mkstemp's 0600 would hide a shared model from others
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
