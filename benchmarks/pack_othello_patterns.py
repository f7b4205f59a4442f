"""Pack fitted Othello pattern weights as the package ships them, and check that the pack plays
as the weights file it was made from.

``WEIGHTS`` is a ``weights.json`` of ``plies learn tune othello`` (the pattern evaluation's
weights, table units, :mod:`plies.games.othello.evaluation`); the pack (whole numbers as int16,
with how they were fitted) goes to ``--out``, by default the package's
``games/othello/patterns.npz``. Then ``--positions`` positions of random games are evaluated
with the pack and with the file's weights rounded: every value must agree.

Usage (from the repository root)::

    PYTHONPATH=src python benchmarks/pack_othello_patterns.py WEIGHTS [--out FILE] \\
        [--positions 2000]
"""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path

import numpy as np

from plies.games.othello import Othello
from plies.games.othello.evaluation import PatternWeights, read_weights, write_weights

SHIPPED = Path(__file__).resolve().parents[1] / "src/plies/games/othello/patterns.npz"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("weights", type=Path)
    parser.add_argument("--out", type=Path, default=SHIPPED)
    parser.add_argument("--positions", type=int, default=2000)
    args = parser.parse_args()
    record = json.loads(args.weights.read_text(encoding="utf-8"))
    if record.get("game") != "othello" or record.get("format") != "plies-weights-1":
        raise SystemExit(f"{args.weights} holds no weights of othello")
    weights = np.asarray(record["weights"], np.float64)
    write_weights(args.out, weights, record.get("how", {}))
    unpacked = Othello(evaluation="patterns", patterns=read_weights(args.out, str(args.out)))
    fitted = Othello(evaluation="patterns", patterns=PatternWeights(weights, str(args.weights)))
    rng = random.Random(0)
    checked = 0
    while checked < args.positions:
        state = fitted.initial_state()
        while not fitted.is_terminal(state) and checked < args.positions:
            assert unpacked.evaluate(state, "B") == fitted.evaluate(state, "B"), state
            checked += 1
            state = fitted.result(state, rng.choice(fitted.actions(state)))
    size = args.out.stat().st_size
    print(f"{args.out}: {size:,} bytes; {checked:,} positions evaluate as {args.weights}")


if __name__ == "__main__":
    main()
