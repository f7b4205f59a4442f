"""Searches for games of any number of players: max^n and the paranoid reduction.

* max^n (Luckhardt and Irani, "An algorithmic solution of N-person games", AAAI-86; AIMA 4th
  ed., section 5.2.2 and Figure 5.4) backs up a vector of values, one per player: the player to
  move takes the child whose vector is largest in its own component. In a two-player zero-sum
  game (with a zero-sum EVAL) that is exactly minimax.
* The paranoid search (Sturtevant and Korf, "On pruning techniques for multi-player games",
  AAAI-2000) assumes that every other player has joined a coalition against the root player.
  That makes the game two-player zero-sum (MAX is the root player, every other player minimises
  its utility), which alpha-beta searches. :class:`ParanoidGame` is the reduction written as a
  game, so the textbook tier's alpha-beta searches it unchanged and its minimax is the oracle.

Both refuse games with chance nodes. Depth-limited, both use EVAL(s, p) at the cutoff: max^n for
every player p, the paranoid search for the root player.

Three players A, B, C on a two-ply tree: A moves at the root, B at its children. Under max^n A
expects B to take what is best for B; the paranoid A expects B to take what is worst for A:

>>> from plies.game import define_game
>>> leaves = {"LL": (1, 2, 3), "LR": (4, 0, 5), "RL": (6, 3, 0), "RR": (0, 1, 5)}
>>> game = define_game(
...     name="two-ply", players=("A", "B", "C"),
...     initial_state=lambda: "",
...     to_move=lambda s: "ABC"[len(s)],
...     actions=lambda s: ["L", "R"],
...     result=lambda s, a: s + a,
...     is_terminal=lambda s: len(s) == 2,
...     utility=lambda s, p: leaves[s]["ABC".index(p)],
... )
>>> result = maxn(game, "")
>>> result.values, result.pv
((6, 3, 0), ('R', 'L'))
>>> result = paranoid(game, "")
>>> result.value, result.pv
(1, ('L', 'L'))
"""

from __future__ import annotations

import time
from collections.abc import Callable, Hashable, Sequence
from dataclasses import replace
from typing import Any, Generic, TypeVar

from plies.capabilities import HasEvaluation, require
from plies.errors import GameDefinitionError
from plies.game import Game, refuse_chance
from plies.search.result import Path, SearchResult, SearchStats
from plies.search.textbook import alphabeta

S = TypeVar("S", bound=Hashable)
A = TypeVar("A", bound=Hashable)

Vector = tuple[float, ...]
"""One value per player, in the order of the game's ``players``."""
Line = tuple[Any, ...]


def _mover(game: Game[S, A], state: S, path: Path) -> str:
    """TO-MOVE(s), checked to be one of the game's players."""
    mover = game.to_move(state)
    if mover not in game.players:
        raise GameDefinitionError(
            f"game '{game.name}': TO-MOVE gave {mover!r}, not one of its players "
            f"{game.players} (after moves {list(path)})"
        )
    return mover


class _MaxN(Generic[S, A]):
    """One max^n search: the game, the depth limit and the counters."""

    def __init__(self, game: Game[S, A], depth: int | None) -> None:
        self.game = game
        self.index = {player: i for i, player in enumerate(game.players)}
        self.depth_limit = depth
        self.evaluate: Callable[[S, str], float] | None = (
            None
            if depth is None
            else require(game, HasEvaluation, "maxn with a depth limit").evaluate
        )
        self.stats = SearchStats()

    def value(self, state: S, path: Path) -> tuple[Vector, Line]:
        """The max^n vector of ``state`` and the line that leads to it."""
        self.stats.nodes += 1
        self.stats.max_depth = max(self.stats.max_depth, len(path))
        if self.game.is_terminal(state):
            self.stats.leaves += 1
            return self.game.payoffs(state), ()
        if self.depth_limit is not None and len(path) >= self.depth_limit:
            assert self.evaluate is not None
            self.stats.leaves += 1
            return tuple(self.evaluate(state, p) for p in self.game.players), ()
        mover = self.index[_mover(self.game, state, path)]
        best: Vector | None = None
        line: Line = ()
        for a in self.legal_actions(state, path):
            vector, rest = self.value(self.game.result(state, a), (*path, a))
            if best is None or vector[mover] > best[mover]:
                best, line = vector, (a, *rest)
        assert best is not None
        return best, line

    def legal_actions(self, state: S, path: Path) -> Sequence[A]:
        actions = self.game.actions(state)
        if not actions:
            raise GameDefinitionError(
                f"game '{self.game.name}' has a non-terminal state with no legal actions "
                f"(after moves {list(path)})"
            )
        return actions


def maxn(game: Game[S, A], state: S, *, depth: int | None = None) -> SearchResult[A]:
    """MAX^N (Luckhardt and Irani 1986; AIMA 4th ed., section 5.2.2); depth-limited with EVAL
    for every player when ``depth`` is set.

    A terminal state's vector is UTILITY(s, p) for every player p, a cut-off state's EVAL(s, p);
    an inner node's is the vector of the child that is best for the player to move there. Ties
    go to the first such child in the order of ``game.actions``: a later child replaces the
    best only when it is strictly better for the mover. No pruning: every node down to ``depth``
    is visited, as minimax visits them.

    ``value`` is the root mover's component, ``values`` the whole vector in the order of
    ``game.players``, ``pv`` the line of best replies.
    """
    refuse_chance(game, "maxn")
    player = _mover(game, state, ())
    search: _MaxN[S, A] = _MaxN(game, depth)
    started = time.perf_counter()
    values, line = search.value(state, ())
    search.stats.time = time.perf_counter() - started
    return SearchResult(
        value=values[search.index[player]],
        action=line[0] if line else None,
        pv=line,
        stats=search.stats,
        algorithm="maxn",
        max_player=player,
        depth=depth,
        solved=depth is None,
        values=values,
    )


class ParanoidGame(Game[S, A]):
    """The paranoid reduction of ``game`` for ``player`` (Sturtevant and Korf 2000): ``player``
    against the coalition of all the others, a two-player zero-sum game.

    States, actions and the rules are ``game``'s. TO-MOVE is ``player`` where it moves and the
    coalition (named by its members joined with ``+``, e.g. ``O+Y``) wherever another player
    moves; UTILITY and EVAL are ``game``'s for ``player`` and their negation for the coalition.
    """

    zero_sum = True

    def __init__(self, game: Game[S, A], player: str) -> None:
        self.game, self.player = game, player
        self.name = game.name
        self.coalition = "+".join(p for p in game.players if p != player)
        self.players = (player, self.coalition)

    def initial_state(self) -> S:
        return self.game.initial_state()

    def to_move(self, state: S) -> str:
        return self.player if self.game.to_move(state) == self.player else self.coalition

    def actions(self, state: S) -> Sequence[A]:
        return self.game.actions(state)

    def result(self, state: S, action: A) -> S:
        return self.game.result(state, action)

    def is_terminal(self, state: S) -> bool:
        return self.game.is_terminal(state)

    def utility(self, state: S, player: str) -> float:
        value = self.game.utility(state, self.player)
        return value if player == self.player else -value

    def evaluate(self, state: S, player: str) -> float:
        value = require(self.game, HasEvaluation, "the paranoid search").evaluate(
            state, self.player
        )
        return value if player == self.player else -value

    def format_action(self, state: S, action: A) -> str:
        return self.game.format_action(state, action)


def paranoid(game: Game[S, A], state: S, *, depth: int | None = None) -> SearchResult[A]:
    """The paranoid search (Sturtevant and Korf 2000): ALPHA-BETA-SEARCH (AIMA 4th ed.,
    Figure 5.7) on :class:`ParanoidGame`, the root player against all the others; depth-limited
    with the root player's EVAL when ``depth`` is set.

    ``value`` is the root player's utility when everyone else plays to minimise it: a value
    the root player can guarantee whatever the others do. Pruning follows the lectures' rule
    (stop on v >= beta at MAX, v <= alpha at MIN); the value and the root's move (the first
    best in the order of ``game.actions``) equal those of plain minimax on the same reduction.
    """
    refuse_chance(game, "paranoid")
    player = _mover(game, state, ())
    if depth is not None:
        require(game, HasEvaluation, "paranoid with a depth limit")
    result = alphabeta(ParanoidGame(game, player), state, depth=depth)
    return replace(result, algorithm="paranoid")
