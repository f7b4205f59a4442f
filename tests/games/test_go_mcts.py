"""Go's compiled MCTS with RAVE (plies.native.go_mcts): the tree's bookkeeping, the rules it
leaves to Python (superko at the root), the ends of games (passes), the options, and play."""

from __future__ import annotations

import random

import pytest

from plies.agents import make_agent
from plies.errors import SpecError
from plies.games.connect4.rules import ConnectFour
from plies.games.go.rules import PASS, Go
from plies.native.go_mcts import EXPAND_AFTER, GoNode
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
    # on the empty board, black's pass is proven lost (white would pass): never played
    mcts.forget()
    start = mcts.search(game.initial_state(), iterations=5000)
    assert start.action != PASS and not start.solved
    root = mcts._native_root
    assert root is not None
    passing = [child for child in root.children if child.action == PASS]
    assert passing and passing[0].outcome == (-1, 1)


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
