"""PUCT search with a policy-value network: batching across trees changes nothing."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from plies.games import make_game
from plies.learn.evaluator import NetworkEvaluator
from plies.learn.network import NetShape, build_network
from plies.search.puct import PUCTConfig, Tree, run_simulations
from plies.testing import random_positions


def _network(game: object, seed: int = 1) -> NetworkEvaluator:
    torch.manual_seed(seed)
    network = build_network(NetShape.for_game(game, blocks=1, filters=8)).eval()  # type: ignore[arg-type]
    return NetworkEvaluator(game, network, torch.device("cpu"))  # type: ignore[arg-type]


@pytest.mark.parametrize("name", ["tictactoe", "connect4"])
def test_batched_and_unbatched_search_give_identical_visit_counts(name: str) -> None:
    game = make_game(name)
    evaluator = _network(game)
    states = random_positions(game, 4, seed=3, plies=range(0, 5))
    config = PUCTConfig()
    together = [Tree(game, s, config, np.random.default_rng(i)) for i, s in enumerate(states)]
    calls = run_simulations(together, evaluator, 60)
    alone = [Tree(game, s, config, np.random.default_rng(i)) for i, s in enumerate(states)]
    alone_calls = sum(run_simulations([tree], evaluator, 60) for tree in alone)
    for a, b in zip(together, alone, strict=True):
        assert a.root.visits.tolist() == b.root.visits.tolist()
        assert a.root.visits.sum() == 59
    assert calls < alone_calls  # the leaves of all trees went in shared calls
