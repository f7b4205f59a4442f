"""A policy-value network as PUCT's evaluator (:class:`plies.search.puct.PolicyValueEvaluator`:
one call gives the priors over the legal moves and the value of a batch of states, AlphaZero's
f(s) = (p, v), Silver et al. 2018), answered by one forward pass over the whole batch.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from typing import Any

import numpy as np
import torch
from torch import nn

from plies.capabilities import HasTensorEncoding
from plies.search.puct import Priors


@contextmanager
def torch_threads(count: int) -> Iterator[None]:
    """PyTorch on ``count`` CPU threads inside the block."""
    threads = torch.get_num_threads()
    torch.set_num_threads(count)
    try:
        yield
    finally:
        torch.set_num_threads(threads)


def one_thread() -> AbstractContextManager[None]:
    """PyTorch on one CPU thread inside the block. Search evaluates small batches, for which
    a second thread costs more than it gives (measured: tic-tac-toe self-play at 5,800
    simulations/s on 2 threads, 17,600 on one)."""
    return torch_threads(1)


def masked_softmax(logits: np.ndarray, indices: Sequence[int]) -> np.ndarray:
    """Softmax of ``logits`` restricted to ``indices`` (in that order), in float64."""
    chosen = logits[list(indices)].astype(np.float64)
    chosen = np.exp(chosen - chosen.max())
    return chosen / chosen.sum()  # type: ignore[no-any-return]


class NetworkEvaluator:
    """A policy-value network as a :class:`~plies.search.puct.PolicyValueEvaluator`: the states
    are encoded, evaluated in one forward pass on the network's device, and the policy is
    renormalised over each state's legal moves. ``calls`` and ``positions`` count the forward
    passes and states."""

    def __init__(self, game: HasTensorEncoding, network: nn.Module, device: torch.device) -> None:
        self.encoding = game
        self.network = network
        self.device = device
        self.calls = 0
        self.positions = 0

    def __call__(
        self, states: Sequence[Any], indices: Sequence[Sequence[int]]
    ) -> tuple[Priors, np.ndarray]:
        logits, values = self.forward(states)
        return [masked_softmax(row, moves) for row, moves in zip(logits, indices, strict=True)], (
            values.astype(np.float64)
        )

    def forward(self, states: Sequence[Any]) -> tuple[np.ndarray, np.ndarray]:
        """Raw policy logits over every action index and values, as NumPy arrays."""
        planes = np.stack([self.encoding.encode(state) for state in states])
        with torch.inference_mode():
            logits, values = self.network(torch.from_numpy(planes).to(self.device))
        self.calls += 1
        self.positions += len(states)
        return logits.float().cpu().numpy(), values.float().cpu().numpy()
