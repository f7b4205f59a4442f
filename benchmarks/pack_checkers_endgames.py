"""Pack checkers endgame tables a file a number of pieces, as the package ships them, and check
that the packs probe exactly as the slice files they were made from.

``SOURCE`` is a build folder, one file a slice (``plies solve checkers --build-db --pieces 4
--out SOURCE``); the packs (``1.npz`` to ``4.npz``, :mod:`plies.games.checkers.endgame_pack`)
go to ``--out``, by default the package's ``games/checkers/endgames``. Packing the same tables
writes the same bytes. Then ``--probes`` random positions of each number of pieces (every
position equally likely, seeded) are probed in the packs and in the slice files: every
outcome and distance must agree, and every slice's table must be equal array for array.

Usage (from the repository root)::

    PYTHONPATH=src python benchmarks/pack_checkers_endgames.py SOURCE [--out DIR] \\
        [--pieces 4] [--probes 5000]
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path

import numpy as np

from plies.games import make_game
from plies.games.checkers.endgame import slice_index, slices
from plies.games.checkers.endgame_pack import pack_endgames
from plies.solvers.endgames import Endgames

SHIPPED = Path(__file__).resolve().parents[1] / "src/plies/games/checkers/endgames"


def compare(source: Path, packed: Path, pieces: int, probes: int) -> int:
    """Every table and ``probes`` random probes a number of pieces, from ``source``'s slice
    files and from ``packed``'s packs; the probes made. Raises AssertionError at the first
    difference."""
    if any(packed.glob("*_*.npz")):
        raise SystemExit(f"{packed} holds slice files: they would be read before its packs")
    game = make_game("checkers")
    files, packs = Endgames(game, [source]), Endgames(game, [packed])
    rng, made = random.Random(11), 0
    for count in range(1, pieces + 1):
        chosen = slices(count)
        for piece in chosen:
            one, other = files.table(piece), packs.table(piece)
            assert one is not None and other is not None, piece
            assert np.array_equal(one.outcomes, other.outcomes), piece
            assert np.array_equal(one.distances, other.distances), piece
        weights = [slice_index(s).positions for s in chosen]
        for piece in rng.choices(chosen, weights, k=probes):
            index = slice_index(piece)
            state = index.position(rng.randrange(index.positions))
            assert files.probe(state) == packs.probe(state) is not None, state
            made += 1
    assert not files.problems and not packs.problems, files.problems + packs.problems
    return made


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("source", type=Path, help="a build folder: one file a slice")
    parser.add_argument("--out", type=Path, default=SHIPPED, help="where the packs go")
    parser.add_argument("--pieces", type=int, default=4, help="pack 1 to N pieces")
    parser.add_argument("--probes", type=int, default=5000, help="random probes a piece count")
    args = parser.parse_args()
    written = pack_endgames(args.source, args.out, range(1, args.pieces + 1))
    for path in written:
        print(f"{path}: {path.stat().st_size:,} bytes")
    made = compare(args.source, args.out, args.pieces, args.probes)
    print(f"{made:,} random probes and every table: the packs equal the slice files")


if __name__ == "__main__":
    main()
