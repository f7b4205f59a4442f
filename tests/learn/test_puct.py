"""PUCT search: selection by hand-computed cases, batching that changes nothing, virtual loss,
noise and tree reuse."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from plies.games import make_game
from plies.learn.evaluator import NetworkEvaluator, UniformEvaluator
from plies.learn.network import NetShape, build_network
from plies.learn.puct import PUCTConfig, Tree, run_simulations
from plies.testing import random_positions

TICTACTOE = make_game("tictactoe")
WIN_AT_C1 = TICTACTOE.parse_position("XX./OO./...")  # X to move; c1 (cell 2) wins at once


def _tree(state: object, c: float = 1.5, **settings: object) -> Tree:
    config = PUCTConfig(c_puct=c, **settings)  # type: ignore[arg-type]
    return Tree(TICTACTOE, state, config, np.random.default_rng(0))


def test_the_first_simulation_expands_the_root_and_ties_go_to_the_first_move() -> None:
    tree = _tree(WIN_AT_C1)
    run_simulations([tree], UniformEvaluator(), 1)
    assert list(tree.root.actions) == [2, 5, 6, 7, 8]
    assert tree.root.visits.tolist() == [0, 0, 0, 0, 0]
    run_simulations([tree], UniformEvaluator(), 1)
    assert tree.root.visits.tolist() == [1, 0, 0, 0, 0]
    assert tree.root.totals.tolist() == [1, 0, 0, 0, 0]  # the win, for X


def test_selection_follows_q_plus_u_computed_by_hand() -> None:
    """c = 12, priors 1/5: U = 2.4 sqrt(N) / (1 + n); the win's Q is 1, the others' 0 (the
    uniform evaluator values every new state 0). By hand: N=0 all U=2.4, move 0 (the win);
    N=1: win 1 + 1.2 = 2.2 < 2.4, move 1; N=2: unvisited 3.39 > win 2.70, move 2; N=3: move 3
    (4.16); N=4: move 4 (4.8 > 3.4); N=5: win 1 + 2.68 = 3.68 > 2.68 for the visited others."""
    tree = _tree(WIN_AT_C1, c=12)
    expected = [
        [1, 0, 0, 0, 0],
        [1, 1, 0, 0, 0],
        [1, 1, 1, 0, 0],
        [1, 1, 1, 1, 0],
        [1, 1, 1, 1, 1],
        [2, 1, 1, 1, 1],
    ]
    run_simulations([tree], UniformEvaluator(), 1)
    for visits in expected:
        run_simulations([tree], UniformEvaluator(), 1)
        assert tree.root.visits.tolist() == visits


def test_a_small_c_puts_every_visit_on_the_win() -> None:
    tree = _tree(WIN_AT_C1)
    run_simulations([tree], UniformEvaluator(), 10)
    assert tree.root.visits.tolist() == [9, 0, 0, 0, 0]
    assert tree.choose(0.0) == 2
    assert tree.value() == 1.0


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


def test_virtual_loss_batches_leaves_of_one_tree_and_still_counts_every_simulation() -> None:
    game = make_game("connect4")
    tree = Tree(game, game.initial_state(), PUCTConfig(leaves_per_tree=8), np.random.default_rng(0))
    evaluator = UniformEvaluator()
    run_simulations([tree], evaluator, 200)
    assert tree.root.visits.sum() == tree.root.visited == 199
    assert evaluator.calls < 60  # about 200 / 8 calls, not 200
    assert np.all(tree.root.totals == 0)  # every virtual loss was taken back


def test_root_noise_changes_the_priors_and_keeps_them_a_distribution() -> None:
    game = make_game("connect4")
    plain = Tree(game, game.initial_state(), PUCTConfig(), np.random.default_rng(0))
    noisy = Tree(game, game.initial_state(), PUCTConfig(noise_alpha=1.0), np.random.default_rng(0))
    for tree in (plain, noisy):
        run_simulations([tree], UniformEvaluator(), 1)
    assert np.allclose(plain.root.priors, 1 / 7)
    assert not np.allclose(noisy.root.priors, 1 / 7)
    assert noisy.root.priors.sum() == pytest.approx(1.0)


def test_advance_keeps_the_subtree_of_the_move_played() -> None:
    game = make_game("connect4")
    tree = Tree(game, game.initial_state(), PUCTConfig(), np.random.default_rng(0))
    run_simulations([tree], UniformEvaluator(), 100)
    i = int(np.argmax(tree.root.visits))
    kept = tree.root.visits[i]
    action = tree.root.actions[i]
    tree.advance(action)
    assert tree.root.state == game.result(game.initial_state(), action)
    assert tree.root.visited == kept - 1  # the visit that expanded it is not below it


def test_policy_is_the_visit_distribution_over_action_indices() -> None:
    tree = _tree(WIN_AT_C1, c=12)
    run_simulations([tree], UniformEvaluator(), 7)
    policy = tree.policy()
    assert policy.shape == (9,)
    assert policy.sum() == pytest.approx(1.0)
    assert policy[[2, 5, 6, 7, 8]].tolist() == pytest.approx([2 / 6, 1 / 6, 1 / 6, 1 / 6, 1 / 6])
