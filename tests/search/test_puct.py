"""PUCT search (plies.search.puct): selection by hand-computed cases, virtual loss, noise, tree
reuse, the policy target, the uniform-prior evaluator over MCTS leaf estimates, and the one PUCT
behind both mcts:selection=puct and az."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pytest

from plies.agents import PUCTAgent, make_agent
from plies.errors import MissingCapabilityError, SpecError, UnsupportedGameError
from plies.game import define_game
from plies.games import make_game
from plies.search.mcts import random_playout
from plies.search.puct import (
    DEFAULT_C_PUCT,
    Priors,
    PUCTConfig,
    Tree,
    UniformEvaluator,
    UniformPriorEvaluator,
    run_simulations,
)
from plies.testing import Oracle, random_positions

TICTACTOE = make_game("tictactoe")
WIN_AT_C1 = TICTACTOE.parse_position("XX./OO./...")  # X to move; c1 (cell 2) wins at once
ORACLE = Oracle(TICTACTOE)


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


def test_a_game_without_a_tensor_encoding_indexes_moves_by_their_place() -> None:
    game = make_game("nim")
    tree = Tree(game, game.initial_state(), PUCTConfig(), np.random.default_rng(0))
    run_simulations([tree], UniformEvaluator(), 5)
    assert tree.root.indices == list(range(len(game.actions(game.initial_state()))))
    with pytest.raises(MissingCapabilityError, match="policy target"):
        tree.policy()


# The uniform-prior evaluator over MCTS leaf estimates ---------------------------------------


def test_uniform_prior_evaluator_scales_the_movers_utility_to_minus_one_one() -> None:
    o_to_move = TICTACTOE.parse_position("XX./OO./X..")
    evaluator = UniformPriorEvaluator(TICTACTOE, lambda g, s, r: (1.0, -1.0), seed=1)
    priors, values = evaluator([WIN_AT_C1, o_to_move], [[2, 5, 6], [2, 5]])
    assert [p.tolist() for p in priors] == [[1 / 3] * 3, [0.5, 0.5]]
    assert values.tolist() == [1.0, -1.0]  # X's utility for X, then for O
    assert (evaluator.calls, evaluator.positions) == (1, 2)
    wide = UniformPriorEvaluator(TICTACTOE, lambda g, s, r: (5.0, -5.0), seed=1)
    assert wide([WIN_AT_C1], [[2]])[1].tolist() == [1.0]  # clipped to the value bounds


def test_uniform_prior_evaluator_needs_value_bounds() -> None:
    unbounded = define_game(
        name="unbounded",
        players=("A", "B"),
        initial_state=lambda: 0,
        to_move=lambda s: "AB"[s % 2],
        actions=lambda s: [1],
        result=lambda s, a: s + a,
        is_terminal=lambda s: s == 2,
        utility=lambda s, p: 0,
    )
    with pytest.raises(UnsupportedGameError, match="needs value bounds"):
        UniformPriorEvaluator(unbounded, random_playout, seed=1)


class _Guided:
    """Playout values with priors 10:1 towards ``favoured`` at ``state``, uniform elsewhere."""

    def __init__(self, state: Any, favoured: set[int]) -> None:
        self.state, self.favoured = state, favoured
        self.inner = UniformPriorEvaluator(TICTACTOE, random_playout, seed=1)

    def __call__(
        self, states: Sequence[Any], indices: Sequence[Sequence[int]]
    ) -> tuple[Priors, np.ndarray]:
        priors, values = self.inner(states, indices)
        for n, state in enumerate(states):
            if state == self.state:
                weights = np.array([10.0 if i in self.favoured else 1.0 for i in indices[n]])
                priors[n] = weights / weights.sum()
        return priors, values


def test_puct_follows_its_prior() -> None:
    state = TICTACTOE.parse_position("XO./.X./..O")
    winning = set(ORACLE.best_moves(state))  # the prior points there
    assert ORACLE.value(state) == 1 and len(winning) < len(TICTACTOE.actions(state))
    guided = Tree(TICTACTOE, state, PUCTConfig(), np.random.default_rng(0))
    plain = Tree(TICTACTOE, state, PUCTConfig(), np.random.default_rng(0))
    run_simulations([guided], _Guided(state, winning), 300)
    run_simulations([plain], UniformPriorEvaluator(TICTACTOE, random_playout, seed=1), 300)
    assert guided.choose(0.0) in winning and plain.choose(0.0) in winning

    def share(tree: Tree) -> float:
        return sum(
            n for a, n in zip(tree.root.actions, tree.root.visits, strict=True) if a in winning
        )

    assert share(guided) > share(plain)


# mcts:selection=puct -----------------------------------------------------------------------


def test_mcts_selection_puct_agrees_with_minimax() -> None:
    states = random_positions(TICTACTOE, 15, seed=6, plies=range(3, 7))
    for index, state in enumerate(states):
        agent = make_agent("mcts:selection=puct,iterations=3000", TICTACTOE, seed=index)
        assert agent(TICTACTOE, state) in ORACLE.best_moves(state), TICTACTOE.display(state)


def test_mcts_selection_puct_searches_with_the_one_puct_and_reports_it() -> None:
    agent = make_agent("mcts:selection=puct,iterations=200,evaluator=eval", TICTACTOE, seed=1)
    assert isinstance(agent, PUCTAgent) and agent.config.c_puct == DEFAULT_C_PUCT
    assert agent(TICTACTOE, WIN_AT_C1) == 2
    assert isinstance(agent.tree, Tree)
    last = agent.last
    assert last is not None and last.algorithm == "mcts" and last.stats.iterations == 200
    assert last.value == 1.0 and last.root is not None and last.root[0].prior == 0.2
    assert last.tree and last.tree[0].action == 2 and last.tree[0].proved
    agent.reset(seed=1)
    assert agent.tree is None and agent(TICTACTOE, WIN_AT_C1) == 2


@pytest.mark.parametrize(
    ("game", "spec", "error", "message"),
    [
        ("tictactoe3", "", UnsupportedGameError, "not 'tictactoe3': use selection=ucb1"),
        ("backgammon", "", UnsupportedGameError, "without chance, not 'backgammon'"),
        ("tictactoe", ",rave=10", SpecError, "rave needs selection=ucb1"),
        ("tictactoe", ",c=0", SpecError, "c is c_puct, above 0"),
    ],
)
def test_mcts_selection_puct_refuses_what_it_cannot_search(
    game: str, spec: str, error: type[Exception], message: str
) -> None:
    with pytest.raises(error, match=message):
        make_agent(f"mcts:selection=puct{spec}", make_game(game))
