"""max^n and the paranoid search against a published tree, brute force and minimax."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from functools import cache
from typing import Any

import pytest

from plies.errors import GameDefinitionError, MissingCapabilityError, UnsupportedGameError
from plies.game import FunctionGame, Game, GameFunctions, Scoring
from plies.games.tictactoe.rules import TicTacToe
from plies.games.tictactoe.three import TicTacToe3
from plies.search import alphabeta, maxn, minimax, paranoid
from plies.search.maxn import ParanoidGame
from plies.testing import path_game, random_positions

# AIMA 2nd ed., Figure 6.4, as given in MIT 6.034's recitation notes (fall 2004,
# web.mit.edu/6.034/wwwbob/L4/node21.html): three plies of a three-player game, players
# 1, 2, 3 moving in turn, with the backed-up vector of every node.
FIGURE_PLAYERS = ("1", "2", "3")
FIGURE_LEAVES = {
    "LLL": (1, 2, 3),
    "LLR": (4, 2, 1),
    "LRL": (6, 1, 2),
    "LRR": (7, 4, -1),
    "RLL": (5, -1, -1),
    "RLR": (-1, 5, 2),
    "RRL": (7, 7, -1),
    "RRR": (5, 4, 5),
}
FIGURE_BACKED_UP = {
    "": (1, 2, 3),
    "L": (1, 2, 3),
    "R": (-1, 5, 2),
    "LL": (1, 2, 3),
    "LR": (6, 1, 2),
    "RL": (-1, 5, 2),
    "RR": (5, 4, 5),
}


def test_published_three_player_tree() -> None:
    game = path_game(FIGURE_LEAVES, FIGURE_PLAYERS)
    for node, vector in FIGURE_BACKED_UP.items():
        result = maxn(game, node)
        assert result.values == vector, node
        assert result.value == vector[len(node) % 3]
        assert result.max_player == FIGURE_PLAYERS[len(node) % 3]
    root = maxn(game, "")
    assert root.pv == ("L", "L", "L")
    assert (root.stats.nodes, root.stats.leaves, root.stats.max_depth) == (15, 8, 3)
    assert root.algorithm == "maxn"


def test_ties_go_to_the_first_child_in_move_order() -> None:
    leaves = {"L": (1, 0, 9), "R": (1, 5, 0)}
    game = path_game(leaves, ("A", "B", "C"))
    assert maxn(game, "").values == (1, 0, 9)
    mirrored = path_game({"L": leaves["R"], "R": leaves["L"]}, ("A", "B", "C"))
    assert maxn(mirrored, "").values == (1, 5, 0)


# An independent max^n and paranoid value: memoised recursions written from the definitions.

Vector = tuple[float, ...]


def brute_force_maxn(game: Game[Any, Any]) -> Callable[[Any, int | None], Vector]:
    """The max^n vector of a state searched ``remaining`` plies deep (None: to the end), ties
    to the first action."""

    @cache
    def vector(state: Hashable, remaining: int | None) -> Vector:
        if game.is_terminal(state):
            return tuple(game.utility(state, p) for p in game.players)
        if remaining == 0:
            return tuple(game.evaluate(state, p) for p in game.players)  # type: ignore[attr-defined]
        mover = game.players.index(game.to_move(state))
        below = None if remaining is None else remaining - 1
        children = [vector(game.result(state, a), below) for a in game.actions(state)]
        best = max(child[mover] for child in children)
        return next(child for child in children if child[mover] == best)

    return vector


def brute_force_paranoid(game: Game[Any, Any], player: str, depth: int | None) -> Any:
    """``player``'s value when every other player minimises it, EVAL below ``depth`` plies."""

    @cache
    def value(state: Hashable, remaining: int | None) -> float:
        if game.is_terminal(state):
            return game.utility(state, player)
        if remaining == 0:
            return game.evaluate(state, player)  # type: ignore[attr-defined, no-any-return]
        below = None if remaining is None else remaining - 1
        children = [value(game.result(state, a), below) for a in game.actions(state)]
        return max(children) if game.to_move(state) == player else min(children)

    return lambda state: value(state, depth)


def tree_size(game: Game[Any, Any], state: Any, depth: int | None) -> tuple[int, int]:
    """Nodes and leaves of the game tree below ``state``, down to ``depth`` plies."""
    if game.is_terminal(state) or depth == 0:
        return 1, 1
    nodes, leaves = 1, 0
    for action in game.actions(state):
        below = tree_size(game, game.result(state, action), None if depth is None else depth - 1)
        nodes, leaves = nodes + below[0], leaves + below[1]
    return nodes, leaves


# (game, marks already played, depth limit, positions)
CASES = [
    (TicTacToe3(3, 3, 3), 0, 4, 1),
    (TicTacToe3(3, 3, 3), 2, None, 6),
    (TicTacToe3(3, 4, 3), 5, None, 6),
    (TicTacToe3(4, 4, 3), 0, 3, 1),
    (TicTacToe3(4, 4, 3), 4, 3, 6),
    (TicTacToe3(4, 4, 3), 9, None, 6),
    (TicTacToe3(4, 4, 4), 6, 3, 4),
]
CASE_IDS = [f"{g.m}x{g.n}k{g.k}-after{marks}-depth{depth}" for g, marks, depth, _ in CASES]


@pytest.mark.parametrize(("game", "marks", "depth", "count"), CASES, ids=CASE_IDS)
def test_maxn_matches_brute_force(
    game: TicTacToe3, marks: int, depth: int | None, count: int
) -> None:
    oracle = brute_force_maxn(game)
    below = None if depth is None else depth - 1
    for state in random_positions(game, count, seed=marks, plies=marks):
        result = maxn(game, state, depth=depth)
        mover = game.players.index(game.to_move(state))
        assert result.values == oracle(state, depth)
        assert result.value == result.values[mover]
        children = [oracle(game.result(state, a), below) for a in game.actions(state)]
        best = max(c[mover] for c in children)
        first_best = next(
            a for a, c in zip(game.actions(state), children, strict=True) if c[mover] == best
        )
        assert result.action == first_best
        assert (result.stats.nodes, result.stats.leaves) == tree_size(game, state, depth)
        line_end = state
        for action in result.pv:
            line_end = game.result(line_end, action)
        assert game.is_terminal(line_end) or len(result.pv) == depth


@pytest.mark.parametrize(("game", "marks", "depth", "count"), CASES, ids=CASE_IDS)
def test_paranoid_matches_brute_force_and_plain_minimax(
    game: TicTacToe3, marks: int, depth: int | None, count: int
) -> None:
    paranoid_nodes = minimax_nodes = 0
    for state in random_positions(game, count, seed=marks + 1, plies=marks):
        player = game.to_move(state)
        result = paranoid(game, state, depth=depth)
        plain = minimax(ParanoidGame(game, player), state, depth=depth)
        assert result.value == plain.value == brute_force_paranoid(game, player, depth)(state)
        assert result.action == plain.action
        assert (result.algorithm, result.max_player) == ("paranoid", player)
        assert result.stats.nodes <= plain.stats.nodes
        paranoid_nodes += result.stats.nodes
        minimax_nodes += plain.stats.nodes
    assert paranoid_nodes < minimax_nodes


def test_paranoid_value_never_exceeds_maxn() -> None:
    """The coalition's minimum is a lower bound on what the root player gets under max^n."""
    game = TicTacToe3(4, 4, 3)
    for state in random_positions(game, 10, seed=7, plies=5):
        assert paranoid(game, state, depth=3).value <= maxn(game, state, depth=3).value


# Two players: max^n is minimax.


@pytest.mark.parametrize("scoring", list(Scoring))
@pytest.mark.parametrize(("marks", "depth"), [(0, 3), (0, 4), (3, None), (4, None)])
def test_maxn_is_minimax_on_two_player_games(
    scoring: Scoring, marks: int, depth: int | None
) -> None:
    game = TicTacToe(scoring=scoring)
    for state in random_positions(game, 3, seed=marks, plies=marks):
        result = maxn(game, state, depth=depth)
        expected = minimax(game, state, depth=depth)
        assert (result.value, result.action, result.pv) == (
            expected.value,
            expected.action,
            expected.pv,
        )
        assert result.stats.nodes == expected.stats.nodes
        assert result.stats.leaves == expected.stats.leaves
        assert result.values is not None
        assert result.values[game.players.index(game.to_move(state))] == result.value


def test_paranoid_is_alphabeta_on_two_player_games() -> None:
    game = TicTacToe()
    for state in random_positions(game, 4, seed=3, plies=2):
        result = paranoid(game, state)
        expected = alphabeta(game, state)
        assert (result.value, result.pv, result.stats.nodes) == (
            expected.value,
            expected.pv,
            expected.stats.nodes,
        )


def test_paranoid_reduction() -> None:
    game = TicTacToe3(3, 3, 3)
    reduced = ParanoidGame(game, "O")
    assert (reduced.name, reduced.players, reduced.zero_sum) == ("tictactoe3", ("O", "X+Y"), True)
    state = game.parse_position("XOY/.O./X.Y")
    assert reduced.to_move(state) == "X+Y"
    assert reduced.to_move(game.result(state, 3)) == "O"
    assert reduced.evaluate(state, "O") == game.evaluate(state, "O")
    assert reduced.evaluate(state, "X+Y") == -game.evaluate(state, "O")
    x_won = game.result(state, 3)
    assert (reduced.utility(x_won, "O"), reduced.utility(x_won, "X+Y")) == (0, 0)
    assert ParanoidGame(game, "X").utility(x_won, "O+Y") == -1


# Errors.


class DiceGame(FunctionGame):
    """A game with a chance node at the root."""

    def chance_outcomes(self, state: Any) -> Sequence[tuple[Any, float]]:
        return [(1, 0.5), (2, 0.5)]


def _functions(**changes: Any) -> GameFunctions:
    rules: dict[str, Any] = {
        "initial_state": lambda: 0,
        "to_move": lambda s: "A",
        "actions": lambda s: [1],
        "result": lambda s, a: s + a,
        "is_terminal": lambda s: s >= 2,
        "utility": lambda s, p: 1,
    }
    rules.update(changes)
    return GameFunctions(**rules)


@pytest.mark.parametrize("search", [maxn, paranoid])
def test_errors(search: Callable[..., Any]) -> None:
    players = ("A", "B", "C")
    with pytest.raises(UnsupportedGameError, match="chance nodes"):
        search(DiceGame("dice", players, _functions()), 0)
    plain = FunctionGame("plain", players, _functions())
    with pytest.raises(MissingCapabilityError, match="evaluation function"):
        search(plain, 0, depth=1)
    stranger = FunctionGame("stranger", players, _functions(to_move=lambda s: "Z"))
    with pytest.raises(GameDefinitionError, match="'Z', not one of its players"):
        search(stranger, 0)
    stuck = FunctionGame("stuck", players, _functions(actions=lambda s: []))
    with pytest.raises(GameDefinitionError, match="no legal actions"):
        search(stuck, 0)
