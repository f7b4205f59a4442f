"""The engine's chess refinements, measured: each switched off in turn from the full set.

Refinements (``EngineOptions``): check extension, null-move pruning, late-move reductions,
repetitions as draws, and the captures-only generator in quiescence. Every variant searches the
same positions (the start, Kiwipete, two middlegames, three endgames) by iterative deepening to
a fixed depth with a fresh table; the table gives nodes and seconds summed over them and how
many best moves agree with the full set's. Then a tactical check: puzzles with a known best
move (mates found by check after check, a queen sacrifice), searched to a fixed nominal depth,
solved or not per variant.

Usage (from the repository root)::

    PYTHONPATH=src .venv/bin/python benchmarks/chess_engine_ladder.py [--depth 4]
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
import time

from plies.games.chess.rules import Chess, ChessState
from plies.search.engine import EngineOptions, Limits, iterate

POSITIONS = {
    "start": "startpos",
    "kiwipete": "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "dragon": "r1bq1rk1/pp2ppbp/2np1np1/8/3NP3/2N1BP2/PPPQ2PP/R3KB1R w KQ - 3 9",
    "queen's gambit": "r2q1rk1/pp1nbppp/2p1pn2/3p4/2PP4/2NBPN2/PP3PPP/R2Q1RK1 w - - 0 10",
    "rook ending": "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "pawn ending": "8/5pk1/6p1/8/8/6P1/5PK1/8 w - - 0 1",
    "rook and pawns": "6k1/5ppp/8/8/8/8/r4PPP/1R4K1 w - - 0 1",
}

LEGAL_TRAP = "e2e4 e7e5 g1f3 d7d6 f1c4 c8g4 b1c3 b8c6 f3e5 g4d1"
"""Legal's trap: 6. Bxf7+ Ke7 7. Nd5# (UCI moves from the start)."""

PUZZLES: list[tuple[str, str, str, int]] = [
    # name, position (FEN or UCI moves from the start), best move (SAN), nominal depth
    ("back rank mate in 1", "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", "Rd8#", 1),
    ("Legal's trap, mate in 2", LEGAL_TRAP, "Bxf7+", 2),
    (
        "Nf6+ gxf6 Bxf7#, mate in 2",
        "r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1",
        "Nf6+",
        2,
    ),
    (
        "Qd8+ Bxd8 Re8#, mate in 2",
        "r1b2k1r/ppp1bppp/8/1B1Q4/5q2/2P5/PPP2PPP/R3R1K1 w - - 1 1",
        "Qd8+",
        2,
    ),
    (
        "Scholar's mate",
        "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4",
        "Qxf7#",
        1,
    ),
]

FULL = EngineOptions(
    captures=True, check_extension=True, null_move=True, reductions=True, repetition=True
)
SWITCHES = ("check_extension", "null_move", "reductions", "repetition", "captures")
VARIANTS: list[tuple[str, EngineOptions]] = [
    ("all five", FULL),
    *((f"- {name}", dataclasses.replace(FULL, **{name: False})) for name in SWITCHES),
    ("none (issue 4 engine)", dataclasses.replace(FULL, **dict.fromkeys(SWITCHES, False))),
]


def position(game: Chess, text: str) -> ChessState:
    """A FEN, ``startpos``, or UCI moves from the start."""
    if "/" in text or text == "startpos":
        return game.parse_position(text)
    return game.from_uci_moves(game.initial_state(), text.split())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--depth", type=int, default=4)
    args = parser.parse_args()
    game = Chess()
    states = {name: position(game, text) for name, text in POSITIONS.items()}
    print(f"{len(states)} positions ({', '.join(states)}), depth {args.depth}")
    print(f"{'variant':<24} {'nodes':>10} {'seconds':>8} {'nodes/s':>8} {'vs all':>7} same move")
    reference: dict[str, str] = {}
    full_nodes = 0
    for name, options in VARIANTS:
        nodes, started, same = 0, time.perf_counter(), 0
        for label, state in states.items():
            final = list(iterate(game, state, Limits(depth=args.depth), options))[-1]
            nodes += final.stats.nodes
            move = game.format_action(state, final.action)
            reference.setdefault(label, move)
            same += move == reference[label]
        seconds = time.perf_counter() - started
        full_nodes = full_nodes or nodes
        print(
            f"{name:<24} {nodes:>10,} {seconds:>8.2f} {nodes / seconds:>8,.0f} "
            f"{nodes / full_nodes:>7.3f} {same}/{len(states)}"
        )
        sys.stdout.flush()
    print("\ntactics: solved (the known move and, for a mate, the mate score) at a fixed depth")
    print(f"{'variant':<24} " + " ".join(f"{index + 1:>3}" for index in range(len(PUZZLES))))
    for name, options in VARIANTS:
        marks = []
        for puzzle, text, best, depth in PUZZLES:
            state = position(game, text)
            final = list(iterate(game, state, Limits(depth=depth), options))[-1]
            solved = game.format_action(state, final.action) == best
            if "mate" in puzzle:
                solved = solved and final.mate is not None and final.mate > 0
            marks.append("yes" if solved else "no")
        print(f"{name:<24} " + " ".join(f"{mark:>3}" for mark in marks))
    for index, (puzzle, _, best, depth) in enumerate(PUZZLES, start=1):
        print(f"  {index}: {puzzle} ({best}, depth {depth})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
