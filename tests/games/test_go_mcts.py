"""Go's compiled MCTS with RAVE (plies.games.go.mcts_native): the tree's bookkeeping, the rules it
leaves to Python (superko at the root), the ends of games (passes), the options, and play."""

from __future__ import annotations

import random

import numpy as np
import pytest

from plies.agents import make_agent
from plies.capabilities import LearnedPrior
from plies.errors import Resigns, SpecError
from plies.games.connect4.rules import ConnectFour
from plies.games.go import kernel
from plies.games.go.knowledge import KNOWLEDGE, PLAYOUT_RULES
from plies.games.go.mcts_native import (
    BANNED,
    EXPAND_AFTER,
    LEARNED_VISITS,
    PRIOR,
    PRIOR_VISITS,
    PRIOR_WINS,
    WINNER,
    GoNode,
    GoTree,
)
from plies.games.go.rules import PASS, Go
from plies.search.mcts import DEFAULT_C, DEFAULT_RAVE, DEFAULT_RAVE_C, MCTS


def _nodes(node: GoNode) -> list[GoNode]:
    found, frontier = [], [node]
    while frontier:
        here = frontier.pop()
        found.append(here)
        frontier.extend(here.children)
    return found


@pytest.mark.parametrize("rave", [0.0, DEFAULT_RAVE])
def test_each_visit_is_a_playout_below_the_node_or_one_before_its_children(rave: float) -> None:
    """Visits are conserved: a node with children was visited EXPAND_AFTER times before it
    had them (after a pass: none, the next pass would end the game), then once for each visit
    of a child; the root has children from the start; a proven node counts its visits without
    going further."""
    game = Go(size=7)
    mcts = MCTS(game, seed=3, rave=rave)
    state = game.parse_position("D4 C3")
    result = mcts.search(state, iterations=3000)
    assert result.stats.iterations == 3000
    root = mcts._native_root
    assert isinstance(root, GoNode)
    assert root.visits == sum(child.visits for child in root.children) == 3000
    inner = [n for n in _nodes(root) if n.children and n.index != root.index]
    assert inner, "the tree grew below the root"
    for node in inner:
        below = sum(child.visits for child in node.children)
        if node.outcome is not None:
            assert node.visits >= below
        else:
            assert node.visits == below + (0 if node.action == PASS else EXPAND_AFTER)
    for node in _nodes(root):  # a child's chooser is its parent's mover
        for child in node.children:
            assert child.owner == node.mover and child.mover == 1 - node.mover
    amaf = mcts._native.values[[c.index for c in root.children], 3]  # type: ignore[union-attr]
    assert (amaf.sum() > 0) == (rave > 0)  # AMAF samples only with RAVE
    assert amaf.max() <= 3000


def test_root_moves_the_rules_forbid_are_never_searched() -> None:
    """The tree knows the simple ko only at its own nodes; at the root, positional superko
    (here: retaking the ko at C2 at once) comes from the game's rules."""
    game = Go(size=5)
    state = game.parse_position("B1 C1 A2 D2 B3 C3 C2 B2")
    retake = game.parse_action(game.parse_position("B1 C1 A2 D2 B3 C3"), "C2")
    assert retake not in game.actions(state)
    mcts = MCTS(game, seed=1)
    result = mcts.search(state, iterations=2000)
    assert result.action in game.actions(state)
    assert retake not in [move.action for move in result.root]
    legal = set(game.actions(state))
    root = mcts._native_root
    assert root is not None
    searched = {child.action for child in root.children if child.visits}
    assert searched <= legal


def test_passing_ends_a_won_game_and_is_never_a_loss() -> None:
    game = Go(size=9, komi=7.5)
    mcts = MCTS(game, seed=2)
    # white passed with black ahead on the board: black's pass wins at once, proven
    ahead = game.parse_position("E5 pass")
    result = mcts.search(ahead, iterations=5000)
    assert result.action == PASS and result.solved
    # black passed on the empty board: white wins by komi if it passes too
    after_pass = game.parse_position("pass")
    assert mcts.search(after_pass, iterations=5000).action == PASS
    # on the empty board, black's pass is proven lost once tried (white would pass): never
    # played (the default search, whose prior gives a pass no win, does not even try it)
    for explore in (None, 1.0):
        mcts = MCTS(game, seed=2, c=explore)
        start = mcts.search(game.initial_state(), iterations=5000)
        assert start.action != PASS and not start.solved
        root = mcts._native_root
        assert root is not None
        passing = [child for child in root.children if child.action == PASS]
        assert passing and passing[0].outcome == ((-1, 1) if explore else None)


def test_the_tree_is_kept_below_the_root() -> None:
    game = Go(size=7)
    mcts = MCTS(game, seed=4)
    state = game.parse_position("D4")
    first = mcts.search(state, iterations=4000)
    reply = game.result(state, first.action)
    kept = next(c for c in mcts._native_root.children if c.action == first.action)  # type: ignore[union-attr]
    visits = kept.visits
    assert visits > 0
    mcts.search(reply, iterations=100)
    assert mcts._native_root is not None
    assert mcts._native_root.visits == visits + 100


def test_rave_and_c_defaults_and_bad_options() -> None:
    go = MCTS(Go(size=9))
    assert go.native and go.rave == DEFAULT_RAVE and go.c == DEFAULT_RAVE_C
    plain = MCTS(Go(size=9), rave=0)
    assert plain.rave == 0 and plain.c == DEFAULT_C
    assert MCTS(Go(size=9), c=0.5).c == 0.5
    assert MCTS(ConnectFour()).rave == 0
    with pytest.raises(SpecError, match="no AMAF"):
        MCTS(ConnectFour(), rave=100)
    with pytest.raises(SpecError, match="rave needs"):
        MCTS(Go(size=9), rave=100, native=False)
    with pytest.raises(SpecError, match="rave must be"):
        MCTS(Go(size=9), rave=float("nan"))
    with pytest.raises(SpecError, match="rave"):
        make_agent("mcts:rave=-1", Go(size=9))


def test_compiled_mcts_beats_random_play_on_a_small_board() -> None:
    game = Go(size=5, komi=0.5)
    rng = random.Random(7)
    for colour in ("B", "W"):
        mcts = MCTS(game, seed=5)
        state = game.initial_state()
        while not game.is_terminal(state):
            if state.to_move == colour:
                state = game.result(state, mcts.search(state, iterations=400).action)
            else:
                state = game.result(state, rng.choice(game.actions(state)))
        assert game.winner(state) == colour, game.display(state)


def test_knowledge_options_reach_the_compiled_tree_and_bad_ones_are_refused() -> None:
    """``mcts:capture=...,prior=...`` set the tree's playout rates and prior weight; a
    setting the game's compiled search lacks, or one out of range, is a one-line error."""
    game = Go(size=9)
    agent = make_agent("mcts:capture=0.5,pattern=0,selfatari=1,prior=2,iterations=10", game)
    tree = agent.mcts._native  # type: ignore[attr-defined]
    assert list(tree.work.rates) == [0.5, 0.0, 1.0] and tree.floats[PRIOR] == 2.0
    default = MCTS(game)._native
    assert list(default.work.rates) == [KNOWLEDGE[r] for r in PLAYOUT_RULES]  # type: ignore[union-attr]
    with pytest.raises(SpecError, match="capture"):
        make_agent("mcts:capture=1.5", game)
    with pytest.raises(SpecError, match="prior"):
        make_agent("mcts:prior=nan", game)
    with pytest.raises(SpecError, match="no setting capture"):
        MCTS(ConnectFour(), knowledge={"capture": 0.5})
    for spec in ("mcts:capture=0.5", "mcts:prior=1", "alphago:pattern=0"):  # Go's alone
        with pytest.raises(SpecError, match=r"unknown option '(capture|prior|pattern)'") as error:
            make_agent(spec, ConnectFour())
        assert "\n" not in str(error.value) and "selfatari" not in str(error.value)
    with pytest.raises(SpecError, match="prior needs"):
        MCTS(game, native=False, knowledge={"prior": 1.0})
    with pytest.raises(SpecError, match="no setting ladder"):
        MCTS(game, knowledge={"ladder": 1.0})


def test_priors_start_every_child_with_virtual_visits() -> None:
    """With priors, every child of the root has virtual visits (a capture more won ones than a
    move on the empty first line); without, none."""
    game = Go(size=7)
    state = game.parse_position("B1 A1")  # black to move may take A1 at A2
    for weight in (0.0, 1.0):
        mcts = MCTS(game, seed=1, knowledge={"prior": weight})
        mcts.search(state, iterations=20)
        root, values = mcts._native_root, mcts._native.values  # type: ignore[union-attr]
        assert root is not None
        prior = {
            c.action: (values[c.index, PRIOR_VISITS], values[c.index, PRIOR_WINS])
            for c in root.children
        }
        if not weight:
            assert all(v == w == 0 for v, w in prior.values())
            continue
        a2, g7 = game.parse_action(state, "A2"), game.parse_action(state, "G7")
        assert all(v >= 10 for v, _ in prior.values())
        assert prior[a2][1] / prior[a2][0] > 0.8 > 0.5 > prior[g7][1] / prior[g7][0]


def test_the_tree_bans_a_move_whose_board_the_game_has_seen() -> None:
    """Positional superko in the tree by Zobrist keys: a child whose board's key is among the
    game's (here one added by hand: a real repetition needs a long cycle) is banned when the
    descent reaches it, and never visited."""
    game = Go(size=5)
    state = game.parse_position("C3 D3")
    mcts = MCTS(game, seed=1, c=1.0)
    tree = mcts._native
    assert isinstance(tree, GoTree)
    root = tree.root_for(state, 0, 0)
    e1 = game.parse_action(state, "E1")
    board = kernel.board_for(5)
    kernel.copy_board(tree.work.root, board)
    kernel.place(board, e1, 1)
    assert board.key[0] not in tree.work.history
    keys = np.sort(np.append(tree.work.history, board.key[0]))
    tree.work = tree.work._replace(history=keys)
    tree.start()
    tree.run(3000)
    banned = [child for child in root.children if tree.nodes[child.index, WINNER] == BANNED]
    assert [child.action for child in banned] == [e1] and banned[0].visits == 0


def test_mcts_resigns_below_its_threshold_and_plays_on_above() -> None:
    """``mcts:resign=P`` raises Resigns when its search gives the mover less than P: black,
    with no stone against white's wall and komi, resigns; the opening does not, and the
    default never resigns."""
    game = Go(size=5, komi=7.5)
    lost = game.parse_position("pass C3 pass C2 pass C4 pass B3 pass D3")  # black has nothing
    agent = make_agent("mcts:iterations=2000,resign=0.2", game, seed=1)
    with pytest.raises(Resigns, match="resigns"):
        agent(game, lost)
    assert make_agent("mcts:iterations=2000", game, seed=1)(game, lost) in game.actions(lost)
    opening = make_agent("mcts:iterations=500,resign=0.2", game, seed=1)
    assert opening(game, game.initial_state()) in game.actions(game.initial_state())
    with pytest.raises(SpecError, match="resign"):
        make_agent("mcts:resign=0.9", game)


def test_a_learned_prior_reaches_the_nodes_that_earn_it() -> None:
    """A policy (here a fake one that likes the point E5 only) is asked about the root and
    about each node whose visits reach ``after``, once; each of their children gains its
    virtual visits, won by the probability; the search follows it."""
    game = Go(size=9)
    asked: list[int] = []
    favourite = game.parse_action(game.initial_state(), "E5")

    def policy(states: list, indices: list[list[int]]) -> list[list[float]]:
        asked.append(len(states))
        return [[0.9 if i == favourite else 0.1 / len(row) for i in row] for row in indices]

    learned = LearnedPrior(policy, game, 2.0, 16)
    mcts = MCTS(game, seed=1, learned=learned, knowledge={"prior": 0.0})
    tree = mcts._native
    assert isinstance(tree, GoTree)
    asked.clear()  # the tree's first load (before any clock) asked once
    state = game.parse_position("C3")
    result = mcts.search(state, iterations=2000)
    assert result.action == favourite
    root = mcts._native_root
    assert root is not None and root.index in tree.learned_nodes
    assert len(tree.learned_nodes) == sum(asked) > 1
    for node in tree.learned_nodes:
        first, count = tree.nodes[node, 2], tree.nodes[node, 3]
        virtual = tree.values[first : first + count, PRIOR_VISITS]
        assert set(virtual.tolist()) <= {0.0, 2.0 * LEARNED_VISITS}  # banned moves get none
    with pytest.raises(SpecError, match="no learned prior"):
        MCTS(ConnectFour(), learned=learned)
