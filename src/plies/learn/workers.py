"""Where self-play runs: in this process, in worker processes on this machine, or in Ray actors
on a cluster. Each runs the same task, a :class:`Chunk` of games with fixed seeds, and hands its
data back to the driver, which alone writes the run folder.
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any, Protocol

import numpy as np
import torch

from plies.errors import PliesError, SpecError
from plies.game import Game
from plies.learn.evaluator import NetworkEvaluator, one_thread
from plies.learn.network import NetShape, build_network
from plies.learn.selfplay import SelfPlayConfig, SelfPlayData, play_games
from plies.processes import start_worker
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


class InProcessPool:
    """Self-play in this process, on ``device`` (the only pool that uses a GPU)."""

    def __init__(self, device: torch.device) -> None:
        self.device = str(device)

    def play(
        self, network: Network, chunks: Sequence[Chunk], config: SelfPlayConfig
    ) -> Iterator[tuple[Chunk, SelfPlayData]]:
        for chunk in chunks:
            with one_thread():
                data = play_chunk(network, chunk, config, self.device)
            yield chunk, data

    def close(self) -> None:
        _BUILT.clear()


def _one_thread() -> None:
    torch.set_num_threads(1)


def _worker_start() -> None:
    """A worker process (:func:`plies.processes.start_worker`) with one PyTorch thread."""
    start_worker()
    _one_thread()


def _play_task(task: tuple[Network, Chunk, SelfPlayConfig]) -> tuple[Chunk, SelfPlayData]:
    """A chunk played in a worker process, which ends at once, silently, when the driver is
    gone (killed with ``kill -9``) by the time the chunk is done: sending the result would
    print a broken pipe's traceback."""
    network, chunk, config = task
    data = play_chunk(network, chunk, config, "cpu")
    driver = multiprocessing.parent_process()
    if driver is not None and not driver.is_alive():
        os._exit(1)
    return chunk, data


class ProcessPool:
    """``workers`` processes on this machine (spawned, one PyTorch thread each); closing it
    stops them at once, chunks in flight included."""

    def __init__(self, workers: int) -> None:
        if not 1 <= workers <= MAX_WORKERS:
            raise SpecError(f"workers={workers} must be 1 to {MAX_WORKERS}")
        self.pool = multiprocessing.get_context("spawn").Pool(workers, initializer=_worker_start)

    def play(
        self, network: Network, chunks: Sequence[Chunk], config: SelfPlayConfig
    ) -> Iterator[tuple[Chunk, SelfPlayData]]:
        tasks = [(network, chunk, config) for chunk in chunks]
        yield from self.pool.imap_unordered(_play_task, tasks)

    def close(self) -> None:
        self.pool.terminate()
        self.pool.join()


class RayPool:
    """``workers`` Ray actors on the cluster at ``address`` (``auto``: the running one, or a
    local instance when there is none); the driver alone writes results."""

    def __init__(self, address: str, workers: int) -> None:
        if not 1 <= workers <= MAX_WORKERS:
            raise SpecError(f"workers={workers} must be 1 to {MAX_WORKERS}")
        try:
            import ray
        except ImportError:
            raise PliesError("--ray needs Ray: pip install 'plies[distributed]'") from None
        if not ray.is_initialized():
            ray.init(address=None if address == "auto" else address, log_to_driver=False)
        actor = ray.remote(num_cpus=1)(_RayWorker)
        self.ray = ray
        self.actors: list[Any] = [actor.remote() for _ in range(workers)]

    def play(
        self, network: Network, chunks: Sequence[Chunk], config: SelfPlayConfig
    ) -> Iterator[tuple[Chunk, SelfPlayData]]:
        shared = self.ray.put(network)
        pending = {
            self.actors[i % len(self.actors)].play.remote(shared, chunk, config): chunk
            for i, chunk in enumerate(chunks)
        }
        while pending:
            done, _ = self.ray.wait(list(pending), num_returns=1)
            for reference in done:
                yield pending.pop(reference), self.ray.get(reference)

    def close(self) -> None:
        for actor in self.actors:
            self.ray.kill(actor)


class _RayWorker:
    """A Ray actor playing chunks on its CPU."""

    def __init__(self) -> None:
        _one_thread()

    def play(self, network: Network, chunk: Chunk, config: SelfPlayConfig) -> SelfPlayData:
        return play_chunk(network, chunk, config, "cpu")
