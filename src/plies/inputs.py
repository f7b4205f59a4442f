"""Reading what a user hands plies, bounded before it is parsed: a file, or standard input,
larger than the limit (or endless, such as ``/dev/zero``) is refused in one line after reading
no more than the limit. And writing a file atomically (:func:`write_atomically`), so a reader
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

from plies.errors import PliesError, SpecError

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
