"""Checkers endgame tables packed a file a piece count: how the shipped tables travel.

A build (``plies solve checkers --build-db``) writes a file a slice, ``<slice>.npz`` (the
format of :mod:`plies.solvers.endgames`); the package ships the same arrays packed, one
``<pieces>.npz`` for each number of pieces (``1.npz`` to ``4.npz``), each slice's arrays under
its name: ``2.0-0.0_7.0/outcomes``, ``2.0-0.0_7.0/distances``, ``2.0-0.0_7.0/meta``. The
arrays are copied as they are, so a packed slice probes exactly as its own file does; a
folder's own slice file comes first, so a build folder loads as it always did.

:func:`pack_endgames` makes the packs from a build folder (``benchmarks/pack_checkers_endgames.py``
runs it); :func:`packed_arrays` reads a slice's arrays back, a pack read whole on first use and
kept while its file is unchanged.
"""

from __future__ import annotations

import io
import zipfile
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import numpy as np

from plies.errors import EndgameError
from plies.games.checkers.endgame import Slice, slices
from plies.inputs import write_atomically

ARRAYS = ("outcomes", "distances", "meta")
"""The arrays of a slice's table, in a pack as in the slice's own file."""
STAMP = (1980, 1, 1, 0, 0, 0)
"""Every member's date in a pack, so that packing the same tables writes the same bytes."""


def pack_file(folder: Path, pieces: int) -> Path:
    """The pack of the slices of ``pieces`` pieces in ``folder``: ``<pieces>.npz``."""
    return folder / f"{pieces}.npz"


def pack_endgames(source: Path, target: Path, pieces: Iterable[int] = range(1, 5)) -> list[Path]:
    """Pack the slice files (``<slice>.npz``) of each number of ``pieces`` in ``source`` into
    ``target``'s packs (:func:`pack_file`), each written whole and renamed into place; the
    packs written. :class:`EndgameError` names a slice whose file is missing or unreadable."""
    written = []
    for count in pieces:
        members: list[tuple[str, np.ndarray]] = []
        for chosen in slices(count):
            path = source / f"{chosen}.npz"
            try:
                with np.load(path) as arrays:
                    found = {name: arrays[name] for name in ARRAYS if name in arrays.files}
            except (OSError, ValueError, zipfile.BadZipFile, EOFError) as error:
                message = f"{str(path)!r} is not a readable endgame table ({error})"
                raise EndgameError(message) from None
            members += [(f"{chosen}/{name}", array) for name, array in found.items()]
        out = pack_file(target, count)
        write_atomically(out, lambda stream, members=members: _write_pack(stream, members))
        written.append(out)
    return written


def _write_pack(stream: Any, members: list[tuple[str, np.ndarray]]) -> None:
    """An ``.npz`` (a zip of ``.npy`` files, deflated, as :func:`numpy.savez_compressed`
    writes) whose members carry :data:`STAMP` rather than the time of writing."""
    with zipfile.ZipFile(stream, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, array in members:
            info = zipfile.ZipInfo(f"{name}.npy", date_time=STAMP)
            info.compress_type = zipfile.ZIP_DEFLATED
            buffer = io.BytesIO()
            np.lib.format.write_array(buffer, np.asanyarray(array), allow_pickle=False)
            archive.writestr(info, buffer.getvalue())


_PACKS: dict[Path, tuple[tuple[int, int], Any, frozenset[str]]] = {}
"""Packs read so far: the file's modification time and size when read, its arrays (None for
a file that could not be read), their names."""


def _pack(path: Path) -> tuple[Any, frozenset[str]] | None:
    """The arrays of the pack at ``path`` and their names, read whole (a forked process keeps
    its own copy, no file shared); None where there is no such file. A file that cannot be
    read raises :class:`EndgameError` once, then counts as absent until it changes."""
    try:
        stat = path.stat()
    except OSError:
        return None
    version = (stat.st_mtime_ns, stat.st_size)
    cached = _PACKS.get(path)
    if cached is None or cached[0] != version:
        try:
            arrays = np.load(io.BytesIO(path.read_bytes()))
            names = frozenset(arrays.files)
        except (OSError, ValueError, zipfile.BadZipFile, EOFError) as error:
            _PACKS[path] = (version, None, frozenset())
            raise EndgameError(f"{str(path)!r} is not a readable endgame pack ({error})") from None
        _PACKS[path] = cached = (version, arrays, names)
    return None if cached[1] is None else (cached[1], cached[2])


def packed_arrays(folder: Path, chosen: Slice) -> tuple[Path, dict[str, np.ndarray]] | None:
    """The pack in ``folder`` that holds ``chosen`` and the slice's arrays there (named as in
    its own file), or None where no pack there holds it; :class:`EndgameError` for a pack or
    a member that cannot be read."""
    path = pack_file(folder, chosen.material.pieces)
    pack = _pack(path)
    if pack is None:
        return None
    arrays, names = pack
    wanted = [name for name in ARRAYS if f"{chosen}/{name}" in names]
    if not wanted:
        return None
    try:
        return path, {name: arrays[f"{chosen}/{name}"] for name in wanted}
    except (OSError, ValueError, zipfile.BadZipFile, EOFError) as error:
        message = f"{str(path)!r} holds an unreadable table of {chosen} ({error})"
        raise EndgameError(message) from None
