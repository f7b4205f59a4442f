"""What a network's size costs: parameters, checkpoint size, and the time of one forward pass
on this CPU (one thread, as the ``policy`` agent and each search worker run it), for one
position (the ``policy`` agent's move) and for a batch of 16 (PUCT's leaf batch), per trunk.

Random weights: the time and size depend on the shape alone.

Usage (from the repository root)::

    PYTHONPATH=src .venv/bin/python benchmarks/network_sizes.py [--game connect4] \\
        [--sizes 4x32,6x64,8x96,12x128] [--kind action-value]
"""

from __future__ import annotations

import argparse
import io
import time

import torch

from plies.capabilities import HasTensorEncoding
from plies.games import make_game
from plies.learn.network import ACTION_VALUE, NetShape, build_network

REPEATS = 200


def forward_ms(network: torch.nn.Module, planes: torch.Tensor) -> float:
    """The mean milliseconds of a forward pass on ``planes`` (after a warm-up)."""
    with torch.inference_mode():
        for _ in range(10):
            network(planes)
        began = time.perf_counter()
        for _ in range(REPEATS):
            network(planes)
    return (time.perf_counter() - began) / REPEATS * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="connect4")
    parser.add_argument("--sizes", default="4x32,6x64,8x96,12x128")
    parser.add_argument("--kind", default=ACTION_VALUE)
    parser.add_argument("--bins", type=int, default=32)
    args = parser.parse_args()
    torch.set_num_threads(1)
    game = make_game(args.game)
    assert isinstance(game, HasTensorEncoding)
    print(f"{args.game}, {args.kind}; one thread, {torch.__version__}")
    print(f"{'trunk':>8} {'parameters':>11} {'file MB':>8} {'1 position ms':>14} {'16 ms':>8}")
    for size in args.sizes.split(","):
        blocks, filters = (int(n) for n in size.split("x"))
        bins = args.bins if args.kind == ACTION_VALUE else 0
        shape = NetShape.for_game(game, args.kind, blocks, filters, bins)
        network = build_network(shape).eval()
        parameters = sum(p.numel() for p in network.parameters())
        buffer = io.BytesIO()
        torch.save(network.state_dict(), buffer)
        one = torch.zeros((1, *game.tensor_shape()))
        sixteen = torch.zeros((16, *game.tensor_shape()))
        print(
            f"{size:>8} {parameters:>11,} {len(buffer.getvalue()) / 1e6:>8.2f} "
            f"{forward_ms(network, one):>14.2f} {forward_ms(network, sixteen):>8.2f}"
        )


if __name__ == "__main__":
    main()
