"""max^n against the paranoid search on three-player tic-tac-toe: nodes, time and the move each
chooses, from a few fixed positions (they often differ: max^n expects each opponent to look
after itself, the paranoid search expects both to play against the mover).

Usage (from the repository root)::

    PYTHONPATH=src .venv/bin/python benchmarks/maxn_paranoid.py
"""

from __future__ import annotations

import sys
import time

from plies.games import make_game
from plies.search import maxn, paranoid

CASES = [  # (game spec, position or None for the start, depth or None for the end of the game)
    ("tictactoe3", None, 3),
    ("tictactoe3", None, 4),
    ("tictactoe3", "..../.XO./..Y./....", 4),
    ("tictactoe3", "X.../.OY./.X../....", 5),
    ("tictactoe3", "XO../YX../.OY./X...", None),
    ("tictactoe3:m=5,n=5", None, 3),
    ("tictactoe3:m=3,n=3", "X../.O./...", None),
]


def main() -> int:
    header = f"{'game':<20} {'position':<22} {'depth':>5} | {'max^n nodes':>12} {'move':>5} "
    print(header + f"{'time':>7} | {'paranoid nodes':>14} {'move':>5} {'time':>7}")
    try:
        for spec, position, depth in CASES:
            game = make_game(spec)
            state = game.initial_state() if position is None else game.parse_position(position)
            row = f"{spec:<20} {position or 'start':<22} {depth or 'end'!s:>5}"
            for search, width in ((maxn, 12), (paranoid, 14)):
                began = time.perf_counter()
                result = search(game, state, depth=depth)
                seconds = time.perf_counter() - began
                move = game.format_action(state, result.action)
                row += f" | {result.stats.nodes:>{width},} {move:>5} {seconds:>6.2f}s"
            print(row, flush=True)
    except KeyboardInterrupt:
        print("interrupted: the rows above are complete", file=sys.stderr)
        return 130
    return 0


if __name__ == "__main__":
    sys.exit(main())
