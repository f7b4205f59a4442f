"""Where self-play runs: in this process, in worker processes on this machine, or in Ray actors
on a cluster (:class:`plies.pool.Pool`). Each runs the same task, a :class:`Chunk` of games
with fixed seeds, and hands its data back to the driver, which alone writes the run folder.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any, Protocol

import numpy as np
import torch

from plies.errors import SpecError
from plies.game import Game
from plies.learn.evaluator import NetworkEvaluator, one_thread
from plies.learn.network import NetShape, build_network
from plies.learn.selfplay import SelfPlayConfig, SelfPlayData, play_games
from plies.pool import Pool
from plies.registry import make_game

MAX_WORKERS = 256


@dataclass(frozen=True)
class Chunk:
    """Games ``seeds`` of generation ``generation``, played with the network ``weights``."""

    index: int
    generation: int
    seeds: tuple[int, ...]


@dataclass(frozen=True)
class Network:
    """What a worker needs to rebuild the game and the network: the game's spec
    (:func:`~plies.registry.game_spec`: a worker in another process imports a developer's
    game from it), the network's shape and its weights, as NumPy arrays: plain pickles, where
    tensors would be passed to worker processes as shared files whose handover a stopped pool
    breaks (with a traceback on stderr)."""

    game: str
    shape: NetShape
    weights: dict[str, np.ndarray]
    generation: int


_BUILT: dict[str, Any] = {}


def play_chunk(network: Network, chunk: Chunk, config: SelfPlayConfig, device: str) -> SelfPlayData:
    """Play ``chunk`` with ``network``; the network is built once per worker and generation."""
    if _BUILT.get("generation") != (network.generation, device):
        model = build_network(network.shape)
        model.load_state_dict({k: torch.from_numpy(v) for k, v in network.weights.items()})
        model.to(device).eval()
        _BUILT.update(generation=(network.generation, device), model=model)
    game = _game(network.game)
    evaluator = NetworkEvaluator(game, _BUILT["model"], torch.device(device))  # type: ignore[arg-type]
    return play_games(game, evaluator, chunk.seeds, config)


@cache
def _game(spec: str) -> Game[Any, Any]:
    """The game of ``spec``, built once per process."""
    return make_game(spec)


class SelfPlayPool(Protocol):
    """Plays chunks and yields ``(chunk, data)`` as each finishes, in any order."""

    def play(
        self, network: Network, chunks: Sequence[Chunk], config: SelfPlayConfig
    ) -> Iterator[tuple[Chunk, SelfPlayData]]: ...

    def close(self) -> None: ...


class SelfPlayWorkers:
    """Self-play in a :class:`~plies.pool.Pool`: in this process on ``device`` (the only
    place a GPU is used) when ``workers`` is 1, else in ``workers`` processes of this machine
    or, with ``ray_address``, Ray actors of that cluster, on one CPU thread each. Closing it
    stops them at once, chunks in flight included."""

    def __init__(
        self, workers: int = 1, device: torch.device | str = "cpu", ray_address: str | None = None
    ) -> None:
        if not 1 <= workers <= MAX_WORKERS:
            raise SpecError(f"workers={workers} must be 1 to {MAX_WORKERS}")
        here = workers == 1 and ray_address is None
        self.device = str(device) if here else "cpu"
        self.pool = Pool(workers, setup=None if here else _one_thread, ray_address=ray_address)

    def play(
        self, network: Network, chunks: Sequence[Chunk], config: SelfPlayConfig
    ) -> Iterator[tuple[Chunk, SelfPlayData]]:
        tasks = ((network, chunk, config, self.device) for chunk in chunks)
        for _, played in self.pool.results(_play_task, tasks):
            yield played

    def close(self) -> None:
        self.pool.close()
        _BUILT.clear()


def _one_thread() -> None:
    """A worker's setup: PyTorch on one thread (:func:`~plies.learn.evaluator.one_thread`)."""
    torch.set_num_threads(1)


def _play_task(
    task: tuple[Network, Chunk, SelfPlayConfig, str],
) -> tuple[Chunk, SelfPlayData]:
    """A chunk played where the pool runs it."""
    network, chunk, config, device = task
    with one_thread():
        return chunk, play_chunk(network, chunk, config, device)
