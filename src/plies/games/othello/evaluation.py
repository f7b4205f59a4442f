"""Othello's pattern evaluation (Buro, "Experiments with Multi-ProbCut and a New High-Quality
Evaluation Function for Othello", 1997; the pattern set of :mod:`.patterns`): the log-odds that
the mover wins, as a sum of table entries, one per pattern instance, read at the instance's
configuration, plus the :data:`~.patterns.SCALARS` times their weights.

Tables are fitted at :data:`~.patterns.ANCHORS` disc counts (4, 14, ..., 64) and a position's
value interpolates linearly between the two anchors around its disc count, so each position
teaches both. Configurations that a pattern's own symmetry maps onto each other (an edge read
from either end) share one weight. As a linear evaluation (:mod:`plies.learn.tune`) the
weights are, anchor by anchor, each pattern's shared weights then the scalars'; a feature is an
interpolation share (``(STEP - r) / STEP`` or ``r / STEP``) times the count of instances in that
configuration, from Black's view (negated when White is to move, as the tables are the
mover's). The weights are in :data:`~.patterns.SCALE` units per logit and are rounded to whole
numbers to play, so the Python and compiled evaluations add the same integers.

The fitted tables ship as ``patterns.npz`` beside this module (packed from ``plies learn tune``'s
``weights.json`` by ``benchmarks/pack_othello_patterns.py``).
"""

from __future__ import annotations

import json
import math
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from plies.errors import SpecError
from plies.games.othello import patterns as P

SHIPPED = "patterns.npz"
FORMAT = "plies-othello-patterns-1"


def _canonical_maps() -> tuple[list[NDArray[np.int64]], tuple[int, ...]]:
    """Per pattern, each configuration's shared weight (0.. the pattern's count of classes)."""
    maps, counts = [], []
    for size, group, found in zip(P.SIZES, P.SYMMETRIES, P.INSTANCES_BY_PATTERN, strict=True):
        length = len(found[0])
        configurations = np.arange(size, dtype=np.int64)
        digits = (configurations[:, None] // P.POWERS[None, :length]) % 3
        least = configurations.copy()
        for permutation in group:
            least = np.minimum(least, digits[:, list(permutation)] @ P.POWERS[:length])
        _, shared = np.unique(least, return_inverse=True)
        maps.append(shared.astype(np.int64))
        counts.append(int(shared.max()) + 1)
    return maps, tuple(counts)


CANONICAL, CLASSES = _canonical_maps()
OFFSETS = tuple(int(x) for x in np.concatenate([[0], np.cumsum(CLASSES)[:-1]]))
PER_ANCHOR = sum(CLASSES) + len(P.SCALARS)
"""Weights per anchor: the patterns' shared weights, then the scalars'."""
WEIGHTS = P.ANCHORS * PER_ANCHOR
RAW_TO_SHARED = np.concatenate(
    [offset + shared for offset, shared in zip(OFFSETS, CANONICAL, strict=True)]
    + [np.arange(len(P.SCALARS), dtype=np.int64) + sum(CLASSES)]
)
"""An anchor's row of tables (by raw configuration) as indices of its shared weights."""
_INSTANCE_BITS = [
    [(int(square), 3**j) for j, square in enumerate(row) if square >= 0]
    for row in P.INSTANCE_SQUARES
]
_INSTANCE_PLACES = list(zip(P.INSTANCE_PATTERNS.tolist(), P.INSTANCE_OFFSETS.tolist(), strict=True))


def configurations(p: int, o: int) -> list[int]:
    """Each instance's configuration for the mover of discs ``p`` against ``o``."""
    found = []
    for bits in _INSTANCE_BITS:
        total = 0
        for square, power in bits:
            total += power * ((p >> square & 1) + 2 * (o >> square & 1))
        found.append(total)
    return found


def stage(p: int, o: int) -> tuple[int, int]:
    """(anchor, r): the position lies ``r`` of :data:`~.patterns.STEP` discs past ``anchor``."""
    return divmod((p | o).bit_count() - 4, P.STEP)


def scalar_terms(p: int, o: int, moves: int, replies: int) -> tuple[int, int, int]:
    """The scalars' values (:data:`~.patterns.SCALARS`); ``moves`` and ``replies`` are the
    mover's and the opponent's counts of legal moves."""
    empty = 64 - (p | o).bit_count()
    return 1, moves - replies, 1 if empty % 2 else -1


@dataclass(frozen=True)
class PatternWeights:
    """Fitted pattern weights: ``shared`` (:data:`WEIGHTS` numbers in table units) and where
    they come from; ``rows`` are the anchors' tables by raw configuration, whole numbers."""

    shared: NDArray[np.float64]
    source: str
    rows: NDArray[np.int64] = field(init=False, repr=False, compare=False)
    lists: list[list[int]] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.shared.shape != (WEIGHTS,):
            raise SpecError(
                f"othello pattern weights {self.source}: {self.shared.size} weights, "
                f"expected {WEIGHTS}"
            )
        if not np.all(np.isfinite(self.shared)):
            raise SpecError(f"othello pattern weights {self.source}: a weight is not finite")
        whole = np.rint(self.shared).astype(np.int64).reshape(P.ANCHORS, PER_ANCHOR)
        rows = np.ascontiguousarray(whole[:, RAW_TO_SHARED])
        object.__setattr__(self, "rows", rows)
        object.__setattr__(self, "lists", rows.tolist())

    def mover_sum(self, p: int, o: int, moves: int, replies: int) -> int:
        """The mover's value in table units times :data:`~.patterns.STEP` (whole numbers)."""
        anchor, r = stage(p, o)
        low = self.lists[anchor]
        high = self.lists[anchor + 1] if r else low
        scalars = P.ROW - len(P.SCALARS)
        total = 0
        for (_, offset), configuration in zip(_INSTANCE_PLACES, configurations(p, o), strict=True):
            index = offset + configuration
            total += (P.STEP - r) * low[index] + r * high[index]
        for k, value in enumerate(scalar_terms(p, o, moves, replies)):
            total += ((P.STEP - r) * low[scalars + k] + r * high[scalars + k]) * value
        return total

    def lead(self, p: int, o: int, moves: int, replies: int) -> float:
        """The mover's lead in (-1, 1): ``2 * sigmoid(logit) - 1``, written as ``tanh``."""
        return lead_of(self.mover_sum(p, o, moves, replies))

    def features(self, p: int, o: int, moves: int, replies: int, sign: int) -> dict[int, float]:
        """The linear evaluation's features of the position (``sign`` -1 when the mover is
        White, whose tables they are)."""
        anchor, r = stage(p, o)
        shares = [(anchor * PER_ANCHOR, (P.STEP - r) / P.STEP * sign)]
        if r:
            shares.append(((anchor + 1) * PER_ANCHOR, r / P.STEP * sign))
        found: dict[int, float] = {}
        for (pattern, _), configuration in zip(_INSTANCE_PLACES, configurations(p, o), strict=True):
            shared = OFFSETS[pattern] + int(CANONICAL[pattern][configuration])
            for base, share in shares:
                found[base + shared] = found.get(base + shared, 0.0) + share
        for k, value in enumerate(scalar_terms(p, o, moves, replies)):
            for base, share in shares:
                found[base + sum(CLASSES) + k] = share * value
        return found


def lead_of(total: int) -> float:
    """The lead of a :meth:`PatternWeights.mover_sum` (the compiled kernel computes the same)."""
    return math.tanh(total / (P.STEP * P.SCALE) / 2)


@cache
def weight_names() -> tuple[str, ...]:
    """Each weight's name: ``"14 discs: edge+2X xo..x.o..."`` (a configuration read in the
    pattern's square order, ``x`` the mover's disc, ``o`` the opponent's) or
    ``"14 discs: mobility"``."""
    names = []
    for anchor in range(P.ANCHORS):
        discs = 4 + anchor * P.STEP
        for pattern, name in enumerate(P.NAMES):
            length = len(P.INSTANCES_BY_PATTERN[pattern][0])
            _, first = np.unique(CANONICAL[pattern], return_index=True)
            for configuration in first:
                cells = "".join(".xo"[int(configuration) // 3**j % 3] for j in range(length))
                names.append(f"{discs} discs: {name} {cells}")
        names.extend(f"{discs} discs: {scalar}" for scalar in P.SCALARS)
    return tuple(names)


def zero_weights() -> PatternWeights:
    """Tables of zeros: every position even (a fit's starting point)."""
    return PatternWeights(np.zeros(WEIGHTS), "zero")


def read_weights(path: Path | str, source: str) -> PatternWeights:
    """The weights packed in the ``.npz`` file ``path``; :class:`SpecError` naming what is wrong
    with it."""
    try:
        with np.load(path, allow_pickle=False) as data:
            meta = json.loads(str(data["meta"]))
            shared = data["shared"].astype(np.float64)
        if meta.get("format") != FORMAT:
            raise ValueError(f"format {meta.get('format')!r} is not {FORMAT}")
    except (OSError, ValueError, KeyError, TypeError, EOFError) as error:
        raise SpecError(f"othello pattern weights {source}: unreadable ({error})") from None
    return PatternWeights(shared, source)


def write_weights(path: Path | str, shared: Sequence[float], how: dict[str, Any]) -> None:
    """Pack ``shared`` weights (rounded to whole numbers, int16) with ``how`` they were got."""
    whole = np.rint(np.asarray(shared, np.float64))
    if whole.shape != (WEIGHTS,):
        raise SpecError(f"{len(whole)} othello pattern weights, expected {WEIGHTS}")
    limit = np.iinfo(np.int16).max
    if not np.all(np.abs(whole) <= limit):
        raise SpecError(f"an othello pattern weight is beyond {limit} table units")
    meta = json.dumps({"format": FORMAT, "how": how})
    np.savez_compressed(path, shared=whole.astype(np.int16), meta=np.array(meta))


@cache
def shipped_weights() -> PatternWeights | None:
    """The fitted tables shipped with plies; None (said once on stderr: the hand-written
    evaluation then plays) when the file is missing or damaged."""
    try:
        source = resources.files(__package__).joinpath(SHIPPED)
        with resources.as_file(source) as path:
            return read_weights(path, f"file {SHIPPED}")
    except (SpecError, OSError) as error:
        print(f"plies: {error}; Othello plays with its hand-written evaluation", file=sys.stderr)
        return None
