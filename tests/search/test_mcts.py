"""MCTS against exhaustive search: minimax, max^n and expectiminimax written out here, and the
Connect Four kernel's playouts against the rules' own."""

from __future__ import annotations

import functools
import itertools
import math
import random
from collections.abc import Sequence
from typing import Any

import pytest

from plies.agents import make_agent
from plies.errors import (
    GameDefinitionError,
    GameOverError,
    MissingCapabilityError,
    SpecError,
    UnsupportedGameError,
)
from plies.game import CHANCE, Game, WinLossDrawGame, define_game
from plies.games.checkers.rules import Checkers
from plies.games.connect4.rules import ConnectFour
from plies.games.nim.rules import Nim
from plies.games.othello.rules import Othello
from plies.games.tictactoe.rules import TicTacToe
from plies.play import play_game
from plies.search import alphabeta, minimax
from plies.search.mcts import (
    MCTS,
    default_evaluator,
    heuristic_evaluator,
    random_playout,
)
from plies.testing import (
    Oracle,
    OracleAgent,
    path_game,
    random_agent,
    random_positions,
    take_away,
)

TICTACTOE = TicTacToe()


# Oracles ----------------------------------------------------------------------------------


ORACLE = Oracle(TICTACTOE)


def best_tictactoe_moves(state: Any) -> set[int]:
    return set(ORACLE.best_moves(state))


def test_tictactoe_oracle_agrees_with_minimax() -> None:
    for text in ["XO./.X./...", "X.O/.../...", "XOX/.O./...", "X../.O./..X"]:
        state = TICTACTOE.parse_position(text)
        assert ORACLE.value(state) == minimax(TICTACTOE, state).value


def reachable_tictactoe_states(min_marks: int) -> list[Any]:
    """Every non-terminal tic-tac-toe state with at least ``min_marks`` marks, in a fixed order."""
    seen: dict[Any, None] = {}
    layer = [TICTACTOE.initial_state()]
    while layer:
        following = []
        for state in layer:
            if state in seen or TICTACTOE.is_terminal(state):
                continue
            seen[state] = None
            following += [TICTACTOE.result(state, a) for a in TICTACTOE.actions(state)]
        layer = following
    return [s for s in seen if 9 - s.cells.count(".") >= min_marks]


def maxn_values(game: Game[Any, Any], state: Any) -> tuple[float, ...]:
    """max^n: each player picks the child best for itself (first on ties)."""
    if game.is_terminal(state):
        return game.payoffs(state)
    mover = game.players.index(game.to_move(state))
    return max(
        (maxn_values(game, game.result(state, a)) for a in game.actions(state)),
        key=lambda values: values[mover],
    )


def expectimax_value(game: Game[Any, Any], state: Any, player: str) -> float:
    """Expectiminimax from ``player``'s point of view (two players, zero-sum)."""
    if game.is_terminal(state):
        return game.utility(state, player)
    if game.to_move(state) == CHANCE:
        return sum(
            p * expectimax_value(game, game.result(state, o), player)
            for o, p in game.chance_outcomes(state)  # type: ignore[attr-defined]
        )
    values = [expectimax_value(game, game.result(state, a), player) for a in game.actions(state)]
    return max(values) if game.to_move(state) == player else min(values)


# Small games --------------------------------------------------------------------------------


THREE_PLAYERS = path_game(
    {
        "LLL": (3, 1, 2), "LLR": (1, 2, 3), "LRL": (2, 3, 1), "LRR": (0, 3, 4),
        "RLL": (1, 1, 1), "RLR": (2, 0, 2), "RRL": (4, 2, 3), "RRR": (0, 1, 1),
    },
    ("A", "B", "C"),
)  # fmt: skip
"""A three-ply tree: A, then B, then C choose; leaves pay each player differently."""


class Gamble(WinLossDrawGame[tuple[str, ...], str]):
    """MAX plays ``safe`` (a draw) or ``gamble``s on a coin that comes up heads with probability
    ``p``: tails, MAX loses; heads, MIN chooses to ``fold`` (MAX wins) or ``fight`` on a second
    coin, heads with probability 3/4 (MAX wins), else MIN wins. Expectiminimax: safe 0, gamble
    ``p * (3/4 - 1/4) - (1 - p)`` (MIN fights)."""

    name = "gamble"
    players = ("MAX", "MIN")

    def __init__(self, p: float) -> None:
        self.p = p

    def initial_state(self) -> tuple[str, ...]:
        return ()

    def to_move(self, state: tuple[str, ...]) -> str:
        return ("MAX", CHANCE, "MIN", CHANCE)[len(state)]

    def actions(self, state: tuple[str, ...]) -> Sequence[str]:
        if self.is_terminal(state):
            return []
        return (["safe", "gamble"], ["heads", "tails"], ["fold", "fight"], ["heads", "tails"])[
            len(state)
        ]

    def chance_outcomes(self, state: tuple[str, ...]) -> Sequence[tuple[str, float]]:
        p = self.p if len(state) == 1 else 0.75
        return [("heads", p), ("tails", 1 - p)]

    def result(self, state: tuple[str, ...], action: str) -> tuple[str, ...]:
        return (*state, action)

    def is_terminal(self, state: tuple[str, ...]) -> bool:
        return len(state) == 4 or state in {
            ("safe",),
            ("gamble", "tails"),
            ("gamble", "heads", "fold"),
        }

    def winner(self, state: tuple[str, ...]) -> str | None:
        if state == ("safe",):
            return None
        return "MIN" if state[-1] == "tails" else "MAX"


# Tree invariants ----------------------------------------------------------------------------


def check_tree(mcts: MCTS[Any, Any]) -> None:
    """Visits add up, means stay within the utility range [-1, 1], proven means are exact."""
    root = mcts._root
    assert root is not None
    stack = [root]
    while stack:
        node = stack.pop()
        opened = [c for c in node.children if c.state is not None]
        below = sum(c.visits for c in node.children)
        assert all(c.visits >= 1 for c in opened)
        assert below == sum(c.visits for c in opened)
        if node is not root:
            assert -1 <= node.total / node.visits <= 1
            if node.outcome is None:
                assert node.visits == below + 1  # its own evaluation, then a child a visit
            else:  # terminal or proven: later visits stop at it
                assert node.visits >= below + 1
                assert node.total == node.outcome[node.owner] * node.visits
        stack += opened


def tree_signature(mcts: MCTS[Any, Any]) -> list[tuple[Any, ...]]:
    root = mcts._root
    assert root is not None
    signature, stack = [], [(root, ())]
    while stack:
        node, path = stack.pop()
        signature.append((path, node.visits, node.total, node.outcome))
        stack += [(c, (*path, c.action)) for c in node.children if c.state is not None]
    return signature


@pytest.mark.parametrize("solver", [False, True])
def test_statistics_are_consistent(solver: bool) -> None:
    for game, state in [
        (TICTACTOE, TICTACTOE.initial_state()),
        (TICTACTOE, TICTACTOE.parse_position("X../.O./...")),
        (ConnectFour(), ConnectFour().parse_position("4453")),
    ]:
        mcts = MCTS(game, seed=7, solver=solver, native=False)
        result = mcts.search(state, iterations=1500)
        root = mcts._root
        assert root is not None
        done = result.stats.iterations
        assert result.stats.nodes <= done  # at most one position added per iteration
        assert done == 1500 or (solver and root.outcome is not None and done < 1500)
        assert root.visits == done == sum(c.visits for c in root.children)
        check_tree(mcts)
        assert result.algorithm == "mcts"
        assert result.max_player == game.to_move(state)
        assert result.stats.leaves <= done
        assert result.stats.max_depth >= len(result.pv) >= 1
        assert result.root is not None
        visits = [move.visits for move in result.root]
        assert visits == sorted(visits, reverse=True)
        assert sum(visits) == done
        assert {move.action for move in result.root} <= set(game.actions(state))
        assert result.action == result.pv[0]
        assert -1 <= result.value <= 1


def test_same_seed_same_tree_and_move() -> None:
    for game, state in [
        (TICTACTOE, TICTACTOE.initial_state()),
        (ConnectFour(), ConnectFour().initial_state()),
        (Gamble(0.7), Gamble(0.7).initial_state()),
        (THREE_PLAYERS, ""),
    ]:
        runs = []
        for _ in range(2):
            mcts = MCTS(game, seed=11, native=False)
            result = mcts.search(state, iterations=800)
            runs.append((result.action, result.pv, result.root, result.value, tree_signature(mcts)))
        assert runs[0] == runs[1]
    other = MCTS(TICTACTOE, seed=12).search(TICTACTOE.initial_state(), iterations=800)
    again = MCTS(TICTACTOE, seed=11).search(TICTACTOE.initial_state(), iterations=800)
    assert other.root != again.root


def test_tree_reuse_keeps_the_subtree() -> None:
    game = ConnectFour()
    mcts = MCTS(game, seed=3, native=False)
    start = game.initial_state()
    first = mcts.search(start, iterations=3000)
    root = mcts._root
    assert root is not None
    mine = next(c for c in root.children if c.action == first.action)
    reply = max(mine.children, key=lambda c: c.visits)
    before = {c.action: c.visits for c in reply.children}
    kept = reply.visits
    state = game.result(game.result(start, first.action), reply.action)
    result = mcts.search(state, iterations=500)
    assert mcts._root is reply
    assert reply.visits == kept + 500
    assert all(c.visits >= before.get(c.action, 0) for c in reply.children)
    assert result.stats.nodes == 500
    check_tree(mcts)
    # a state the tree does not hold starts afresh
    elsewhere = game.parse_position("1111")
    result = mcts.search(elsewhere, iterations=200)
    assert mcts._root is not reply and mcts._root.visits == 200


def test_reuse_across_chance_outcomes() -> None:
    game = Gamble(0.5)
    mcts = MCTS(game, seed=5)
    mcts.search((), iterations=400)
    root = mcts._root
    assert root is not None
    target = ("gamble", "heads")
    node = next(c for c in root.children if c.action == "gamble")
    heads = next(c for c in node.children if c.action == "heads")
    kept = heads.visits
    assert kept > 0
    mcts.search(target, iterations=100)
    assert mcts._root is heads and heads.visits == kept + 100


# Agreement with exhaustive search --------------------------------------------------------


def test_uct_without_solver_agrees_with_minimax_on_tictactoe() -> None:
    rng = random.Random(4)
    states = rng.sample(reachable_tictactoe_states(min_marks=3), 25)
    for index, state in enumerate(states):
        result = MCTS(TICTACTOE, seed=index, solver=False).search(state, iterations=3000)
        assert result.action in best_tictactoe_moves(state), TICTACTOE.display(state)
        assert abs(result.value - ORACLE.value(state)) < 0.35, TICTACTOE.display(state)


def test_uct_finds_the_nim_move_bouton_prescribes() -> None:
    for heaps in [(1, 2, 4), (2, 3, 3), (1, 4, 4), (3, 5)]:
        game = Nim(heaps)
        state = game.initial_state()
        result = MCTS(game, seed=1, solver=False).search(state, iterations=4000)
        heap, count = result.action
        after = list(heaps)
        after[heap] -= count
        assert functools.reduce(int.__xor__, after) == 0, (heaps, result.action)
        assert result.value > 0  # the mover wins, less what exploration costs


def test_solver_proves_endgames_like_minimax() -> None:
    rng = random.Random(8)
    for state in rng.sample(reachable_tictactoe_states(min_marks=4), 40):
        result = MCTS(TICTACTOE, seed=1).search(state, iterations=20000)
        assert result.note is not None and result.note.startswith("the solver proved")
        assert result.value == ORACLE.value(state) == minimax(TICTACTOE, state).value
        assert result.action in best_tictactoe_moves(state)
    for heaps in [(1, 2, 3), (2, 2, 3), (1, 3, 4)]:
        game = Nim(heaps)
        result = MCTS(game, seed=1).search(game.initial_state(), iterations=20000)
        assert result.note is not None
        assert result.value == minimax(game, game.initial_state()).value


def test_solver_proves_connect4_endgames_like_alphabeta() -> None:
    game = ConnectFour()
    values = set()
    for state in random_positions(game, 6, seed=3, plies=42 - 8):  # 8 empty cells
        exact = alphabeta(game, state)
        result = MCTS(game, seed=1).search(state, iterations=20000)
        assert result.note is not None, game.format_position(state)
        assert result.value == exact.value, game.format_position(state)
        after, mover = game.result(state, result.action), game.to_move(state)
        if game.is_terminal(after):
            assert game.utility(after, mover) == exact.value
        else:  # the move keeps the value
            assert alphabeta(game, after, max_player=mover).value == exact.value
        values.add(exact.value)
    assert len(values) > 1


def test_solver_plays_a_proven_win_at_once_and_avoids_proven_losses() -> None:
    win = TICTACTOE.parse_position("XX./OO./...")  # X completes the top row
    result = MCTS(TICTACTOE, seed=2).search(win, iterations=2000)
    assert result.action == 2 and result.value == 1
    assert result.stats.nodes < 20
    block = TICTACTOE.parse_position("XX./O../...")  # O must block at c1
    result = MCTS(TICTACTOE, seed=2).search(block, iterations=2000)
    assert result.action == 2
    assert result.root is not None
    for move in result.root:  # every other move lets X complete the row
        if move.action != 2:
            assert move.value == -1


def test_solver_needs_two_player_zero_sum_without_chance() -> None:
    assert MCTS(TICTACTOE).solving
    assert not MCTS(TICTACTOE, solver=False).solving
    assert not MCTS(Gamble(0.5)).solving
    assert not MCTS(THREE_PLAYERS).solving


def test_a_restarted_search_is_a_new_one_with_that_seed() -> None:
    """What an arena's worker relies on: an MCTS restarted with a seed searches as a new one
    built with it, the tree, the random state and the value range seen all forgotten."""
    draw = random.Random(0)
    leaves = {  # payoffs within 3 under L, within 100 under R
        "".join(path): (value, -value)
        for path in itertools.product("LR", repeat=4)
        for value in [draw.randint(-3, 3) if path[0] == "L" else draw.randint(-100, 100)]
    }
    unbounded = path_game(leaves, ("A", "B"))  # no declared bounds: the range is learnt
    for game, first, state in [
        (TICTACTOE, TICTACTOE.initial_state(), TICTACTOE.initial_state()),
        (unbounded, "", "L"),  # the range seen from the root is far wider than from L
    ]:
        used = MCTS(game, seed=1, solver=False)
        used.search(first, iterations=300)
        used.restart(7)
        again = used.search(state, iterations=300)
        new = MCTS(game, seed=7, solver=False).search(state, iterations=300)
        assert (again.action, again.root, again.value) == (new.action, new.root, new.value)


def test_values_normalised_by_the_range_seen() -> None:
    game = take_away(12, most=3, win=5)  # no declared bounds: MCTS normalises by those seen
    for pile in range(1, 13):
        state = (pile, "A")
        expected = minimax(game, state).value
        result = MCTS(game, seed=pile).search(state, iterations=3000)
        assert result.value * expected > 0 and abs(result.value) <= 5
        if expected > 0:
            assert (pile - result.action) % 4 == 0
        if pile <= 4:  # without bounds no child is known to be a win: proofs need every child
            assert result.note is not None and result.value == expected


def test_declared_bounds_let_the_solver_prove_wins() -> None:
    game = take_away(12, most=3, win=5)
    game.value_bounds = (-5, 5)  # type: ignore[attr-defined]
    for pile in range(1, 13):
        state = (pile, "A")
        result = MCTS(game, seed=pile).search(state, iterations=3000)
        assert result.note is not None and result.value == minimax(game, state).value
    game.value_bounds = (5, 5)  # type: ignore[attr-defined]
    with pytest.raises(GameDefinitionError, match="need lower < upper"):
        MCTS(game)


def test_three_players_follow_maxn() -> None:
    game = THREE_PLAYERS
    mcts = MCTS(game, seed=1)
    result = mcts.search("", iterations=3000)
    values = maxn_values(game, "")
    assert values == (4, 2, 3)  # C takes L after RR, B takes R after R, A takes R
    assert result.pv == ("R", "R", "L")
    assert abs(result.value - values[0]) < 0.3
    root = mcts._root
    assert root is not None
    right = next(c for c in root.children if c.action == "R")
    right_right = next(c for c in right.children if c.action == "R")
    assert right_right.owner == 1  # B chose it: its mean is B's payoff
    assert abs(right_right.total / right_right.visits - values[1]) < 0.3


@pytest.mark.parametrize("p", [0.2, 0.9])
def test_chance_nodes_average_sampled_outcomes(p: float) -> None:
    game = Gamble(p)
    safe = expectimax_value(game, ("safe",), "MAX")
    gamble = expectimax_value(game, ("gamble",), "MAX")
    mcts = MCTS(game, seed=3)
    result = mcts.search((), iterations=6000)
    assert result.action == ("safe" if safe > gamble else "gamble")
    assert abs(result.value - max(safe, gamble)) < 0.1
    root = mcts._root
    assert root is not None
    coin = next(c for c in root.children if c.action == "gamble")
    heads = next(c for c in coin.children if c.action == "heads")
    share = heads.visits / (coin.visits - 1)  # the coin's first visit evaluated it
    spread = 4 * math.sqrt(p * (1 - p) / (coin.visits - 1))
    assert abs(share - p) < spread


def test_search_refuses_a_chance_root_and_a_finished_game() -> None:
    with pytest.raises(UnsupportedGameError, match="nature moves"):
        MCTS(Gamble(0.5)).search(("gamble",), iterations=10)
    with pytest.raises(GameOverError):
        MCTS(TICTACTOE).search(TICTACTOE.parse_position("XXX/OO./..."), iterations=10)


# Options, evaluators -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("options", "limits", "message"),
    [
        ({}, {}, "give a limit"),
        ({}, {"iterations": 0}, "iterations must be at least 1"),
        ({}, {"seconds": 0}, "seconds must be positive"),
        ({"c": -1}, {"iterations": 1}, "exploration constant"),
        ({"c": math.nan}, {"iterations": 1}, "exploration constant"),
        ({"evaluator": lambda g, s, r: (0.0,)}, {"iterations": 5}, "gave 1 values for 2"),
    ],
)
def test_bad_options_name_the_problem(
    options: dict[str, Any], limits: dict[str, Any], message: str
) -> None:
    with pytest.raises(SpecError, match=message):
        MCTS(TICTACTOE, **options).search(TICTACTOE.initial_state(), **limits)


def test_broken_games_are_named() -> None:
    stuck = define_game(
        name="stuck",
        players=("A", "B"),
        initial_state=lambda: 0,
        to_move=lambda s: "A" if s == 0 else "Z",
        actions=lambda s: [1],
        result=lambda s, a: s + a,
        is_terminal=lambda s: False,
        utility=lambda s, p: 0,
    )
    with pytest.raises(GameDefinitionError, match="'Z' is to move"):
        MCTS(stuck).search(0, iterations=3)


def test_heuristic_evaluator_agrees_with_minimax() -> None:
    evaluator = heuristic_evaluator(TICTACTOE)
    assert evaluator(TICTACTOE, TICTACTOE.initial_state(), random.Random()) == (0.0, 0.0)
    for index, state in enumerate(random.Random(5).sample(reachable_tictactoe_states(4), 10)):
        mcts = MCTS(TICTACTOE, seed=index, evaluator=evaluator, solver=False)
        result = mcts.search(state, iterations=3000)
        assert result.action in best_tictactoe_moves(state), TICTACTOE.display(state)
    with pytest.raises(MissingCapabilityError, match="evaluation function"):
        heuristic_evaluator(Nim())


def test_iterate_reports_progress_and_seconds_stop_the_search() -> None:
    game = ConnectFour()
    reports = list(MCTS(game, seed=1).iterate(game.initial_state(), iterations=2500, every=1000))
    assert [r.stats.nodes for r in reports] == [1000, 2000, 2500]
    final = MCTS(game, seed=1).search(game.initial_state(), iterations=2500)
    assert (final.action, final.pv, final.value, final.root) == (
        reports[-1].action,
        reports[-1].pv,
        reports[-1].value,
        reports[-1].root,
    )
    result = MCTS(game, seed=1).search(game.initial_state(), seconds=0.05)
    assert result.stats.nodes >= 1 and result.stats.time >= 0.05
    with pytest.raises(SpecError, match="every must be at least 1"):
        MCTS(game).iterate(game.initial_state(), iterations=10, every=0)  # at once, not at next


def test_an_interrupted_search_forgets_its_tree() -> None:
    calls = 0

    def interrupting(game: Game[Any, Any], state: Any, rng: random.Random) -> Sequence[float]:
        nonlocal calls
        calls += 1
        if calls == 50:
            raise KeyboardInterrupt
        return random_playout(game, state, rng)

    mcts = MCTS(TICTACTOE, evaluator=interrupting, seed=1)
    with pytest.raises(KeyboardInterrupt):
        mcts.search(TICTACTOE.initial_state(), iterations=100)
    assert mcts._root is None
    result = mcts.search(TICTACTOE.initial_state(), iterations=100)
    assert result.stats.nodes == 100


# Connect Four's compiled playout ----------------------------------------------------------


def test_connect4_compiled_playout_is_the_default_and_repeatable() -> None:
    game = ConnectFour()
    evaluator = default_evaluator(game)
    assert evaluator is not random_playout
    assert default_evaluator(TICTACTOE) is random_playout
    state = game.parse_position("4453")
    assert game.random_playout(state, random.Random(9)) == game.random_playout(
        state, random.Random(9)
    )


def test_connect4_compiled_playout_ends_like_the_rules() -> None:
    rng = random.Random(2)
    one_in_a_row = ConnectFour(width=3, height=2, k=1)  # the first stone wins
    assert one_in_a_row.random_playout(one_in_a_row.initial_state(), rng) == (1, -1)
    column = ConnectFour(width=1, height=6, k=4)  # stones alternate up one column: a draw
    assert column.random_playout(column.parse_position("11"), rng) == (0, 0)
    game = ConnectFour()
    won = game.parse_position("1212121")
    assert game.random_playout(won, rng) == game.payoffs(won) == (1, -1)
    tiny = ConnectFour(width=2, height=2, k=2)  # after 1, 2: X must take a diagonal
    assert tiny.random_playout(tiny.parse_position("12"), rng) == (1, -1)


def test_connect4_compiled_playout_has_the_rules_distribution() -> None:
    game = ConnectFour(width=5, height=4, k=4)
    rng = random.Random(13)
    for position in ["", "33", "3322"]:
        state = game.parse_position(position)
        games = 4000
        compiled = [game.random_playout(state, rng) for _ in range(games)]
        python = [random_playout(game, state, rng) for _ in range(games)]
        for outcome in [(1, -1), (0, 0), (-1, 1)]:
            a, b = compiled.count(outcome) / games, python.count(outcome) / games
            pooled = (a + b) / 2
            assert abs(a - b) <= 4 * math.sqrt(2 * pooled * (1 - pooled) / games) + 1e-9


# Strength, sampled (benchmarks/mcts_strength.py plays the full matches) -----------------


def test_tictactoe_draws_against_perfect_play() -> None:
    for index in range(4):
        mcts = make_agent("mcts:iterations=2000", TICTACTOE, seed=index)
        perfect = OracleAgent(ORACLE, random.Random(index))
        agents = {"X": mcts, "O": perfect} if index % 2 == 0 else {"X": perfect, "O": mcts}
        record = play_game(TICTACTOE, agents)
        assert TICTACTOE.winner(record.state) is None


@pytest.mark.parametrize(
    ("game", "iterations"), [(ConnectFour(), 1000), (Othello(), 300), (Checkers(), 300)]
)
def test_beats_random(game: WinLossDrawGame[Any, Any], iterations: int) -> None:
    for index in range(2):
        mcts = make_agent(f"mcts:iterations={iterations}", game, seed=index)
        mover = random_agent(index)
        first, second = game.players
        agents = {first: mcts, second: mover} if index % 2 == 0 else {first: mover, second: mcts}
        record = play_game(game, agents, chance=random.Random(index))
        assert game.winner(record.state) == (first if index % 2 == 0 else second)
