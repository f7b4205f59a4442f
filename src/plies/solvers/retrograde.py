"""Retrograde analysis: every position of a finite set solved backwards from the ends of the
game, the other half of how games get solved (Thompson 1986 for chess endings; the endgame
databases of Schaeffer et al.'s Chinook for checkers).

Each position gets an outcome for the side to move (win, loss or draw) and, for a win or a
loss, its distance: the plies to the end with perfect play, the winner ending the game as soon
as it can and the loser as late as it can. The positions are numbered ``0..n-1`` and their moves
form a graph (:class:`MoveGraph`); :func:`solve_graph` decides them in rounds, round ``r``
deciding exactly the positions at distance ``r``:

- a position is won in ``r`` plies if one of its moves leads to a position lost in ``r - 1``;
- it is lost in ``r`` plies if every move leads to a position won in at most ``r - 1`` and it
  was not decided earlier (so some move leads to one won in exactly ``r - 1``);
- positions still open when a round decides nothing (and no outcome fixed beforehand is still
  to come) are draws: neither side can force an end.

Positions whose outcome is known before the rounds (finished games, and positions of other
sets already solved, such as an endgame database with fewer pieces) are fixed with their
distance; a fixed outcome at distance ``d`` acts in round ``d + 1``. Every round is a pass over
the moves in NumPy, so a set of millions of positions is solved in seconds once its graph is
built.

:class:`EnumeratedPositions` numbers every position reachable from a start (a small game's
whole state space, indexed by a dictionary), builds its graph with the game's own rules and
solves it (:func:`solve_positions`): the cross-check of the forward solvers on tic-tac-toe,
Nim, the tile game and Connect Four on small boards. A game whose positions come in classes
numbered densely (:class:`~plies.capabilities.HasPositionClasses`: checkers' sub-databases) is
solved class by class, size after size (:func:`solve_classes`): the endgame databases.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from plies.capabilities import (
    DRAW,
    LOSS,
    OPEN,
    WIN,
    ClassMoves,
    HasClassMoves,
    HasPositionClasses,
    optional,
    require,
)
from plies.errors import SpecError, UnsupportedGameError
from plies.game import Game, require_two_player_zero_sum

OUTCOME_NAMES = {WIN: "win", LOSS: "loss", DRAW: "draw"}
NO_DISTANCE = -1
"""The distance of a draw (and of a position not decided yet)."""
MAX_POSITIONS = 20_000_000
"""The most positions :class:`EnumeratedPositions` numbers (a dictionary and a list of states
in memory: about 2 GB at that size)."""


@dataclass(frozen=True)
class MoveGraph:
    """The moves of ``n`` positions: the successors of position ``i`` are
    ``children[starts[i]:starts[i + 1]]``; ``fixed`` holds the outcomes known beforehand
    (``OPEN`` elsewhere) and ``fixed_distances`` their distances. Every move changes the side
    to move, so a successor's outcome is for the other player."""

    starts: np.ndarray
    children: np.ndarray
    fixed: np.ndarray
    fixed_distances: np.ndarray

    def __post_init__(self) -> None:
        n = len(self.fixed)
        if len(self.starts) != n + 1 or len(self.fixed_distances) != n:
            raise ValueError("a move graph needs n + 1 starts and n fixed outcomes")
        degree = np.diff(self.starts)
        stuck = np.flatnonzero((degree == 0) & (self.fixed == OPEN))
        if len(stuck):
            raise ValueError(f"position {int(stuck[0])} has no move and no fixed outcome")

    def __len__(self) -> int:
        return len(self.fixed)


@dataclass(frozen=True)
class Solved:
    """The outcome of every position for its side to move (``WIN``, ``LOSS``, ``DRAW``) and
    its distance in plies (:data:`NO_DISTANCE` for a draw); ``rounds`` the rounds run."""

    outcomes: np.ndarray
    distances: np.ndarray
    rounds: int

    def counts(self) -> dict[str, int]:
        """How many positions are wins, draws and losses for the side to move."""
        return {name: int((self.outcomes == o).sum()) for o, name in OUTCOME_NAMES.items()}


def solve_graph(graph: MoveGraph, progress: Callable[[int, int], None] | None = None) -> Solved:
    """Every position of ``graph`` decided by rounds (this module's docstring);
    ``progress(round, decided)`` after each round."""
    n = len(graph)
    outcomes = graph.fixed.astype(np.uint8)
    distances = np.where(outcomes == OPEN, NO_DISTANCE, graph.fixed_distances).astype(np.int32)
    degree = np.diff(graph.starts)
    parents = np.repeat(np.arange(n), degree)
    children = graph.children
    last_fixed = int(distances.max()) if n else 0
    decided = int((outcomes != OPEN).sum())
    rounds = 0
    while True:
        rounds += 1
        ending = rounds - 1
        open_now = outcomes == OPEN
        lost_at = (outcomes == LOSS) & (distances == ending)
        won_by = (outcomes == WIN) & (distances <= ending) & (distances >= 0)
        to_lost = np.bincount(parents, weights=lost_at[children], minlength=n) > 0
        to_won = np.bincount(parents, weights=won_by[children], minlength=n)
        wins = open_now & to_lost
        losses = open_now & ~to_lost & (to_won == degree)
        outcomes[wins], distances[wins] = WIN, rounds
        outcomes[losses], distances[losses] = LOSS, rounds
        fresh = int(wins.sum() + losses.sum())
        decided += fresh
        if progress is not None:
            progress(rounds, decided)
        if fresh == 0 and ending >= last_fixed:
            break
    outcomes[outcomes == OPEN] = DRAW
    return Solved(outcomes, distances, rounds)


def plies_text(distance: int) -> str:
    """``"in 1 ply"``, ``"in 7 plies"``; empty for :data:`NO_DISTANCE`."""
    if distance == NO_DISTANCE:
        return ""
    return f"in {distance} ply" if distance == 1 else f"in {distance} plies"


def end_outcome(game: Game[Any, Any], state: Any) -> int:
    """The outcome of a finished game for the player who would move next: a win, a loss or a
    draw by the players' utilities."""
    mover = game.to_move(state)
    other = next(p for p in game.players if p != mover)
    mine, theirs = game.utility(state, mover), game.utility(state, other)
    return WIN if mine > theirs else LOSS if mine < theirs else DRAW


class EnumeratedPositions:
    """Every position reachable from ``roots`` (the game's start by default), numbered in the
    order a breadth-first search meets them: ``position(i)`` and ``index(state)`` (a
    dictionary), and the :class:`MoveGraph` of their moves, built with the game's rules. For
    two-player zero-sum games without chance whose moves always pass the turn; raises
    :class:`SpecError` past ``limit`` positions."""

    def __init__(
        self,
        game: Game[Any, Any],
        roots: Iterable[Any] | None = None,
        limit: int = MAX_POSITIONS,
        progress: Callable[[int], None] | None = None,
    ) -> None:
        require_two_player_zero_sum(game, "retrograde analysis")
        self.game = game
        self.states: list[Any] = []
        self.numbers: dict[Hashable, int] = {}
        starts, children, fixed, fixed_distances = [0], [], [], []
        for state in [game.initial_state()] if roots is None else roots:
            self._number(state, limit)
        done = 0
        while done < len(self.states):
            state = self.states[done]
            done += 1
            if game.is_terminal(state):
                fixed.append(end_outcome(game, state))
                fixed_distances.append(0)
            else:
                mover = game.to_move(state)
                for action in game.actions(state):
                    child = game.result(state, action)
                    if game.to_move(child) == mover:
                        raise UnsupportedGameError(
                            f"retrograde analysis needs moves that pass the turn; in "
                            f"'{game.name}' {mover} moves again after {action!r}"
                        )
                    children.append(self._number(child, limit))
                fixed.append(OPEN)
                fixed_distances.append(NO_DISTANCE)
            starts.append(len(children))
            if progress is not None and not done % 10_000:
                progress(done)
        self.graph = MoveGraph(
            np.array(starts, np.int64),
            np.array(children, np.int64),
            np.array(fixed, np.uint8),
            np.array(fixed_distances, np.int32),
        )

    def _number(self, state: Any, limit: int) -> int:
        number = self.numbers.get(state)
        if number is None:
            if len(self.states) >= limit:
                raise SpecError(
                    f"'{self.game.name}' has more than {limit:,} positions: too many to "
                    "enumerate for retrograde analysis"
                )
            number = self.numbers[state] = len(self.states)
            self.states.append(state)
        return number

    def __len__(self) -> int:
        return len(self.states)

    def position(self, index: int) -> Any:
        return self.states[index]

    def index(self, state: Any) -> int:
        """The number of ``state``; raises :class:`SpecError` for one not in the set."""
        number = self.numbers.get(state)
        if number is None:
            raise SpecError("the position is not among those enumerated")
        return number


@dataclass(frozen=True)
class SolvedPositions:
    """A set of positions (:class:`EnumeratedPositions`) with every outcome and distance."""

    positions: EnumeratedPositions
    solved: Solved

    def outcome(self, state: Any) -> tuple[str, int]:
        """``state``'s outcome for its side to move (``"win"``, ``"loss"`` or ``"draw"``) and
        its distance in plies (:data:`NO_DISTANCE` for a draw)."""
        index = self.positions.index(state)
        return (
            OUTCOME_NAMES[int(self.solved.outcomes[index])],
            int(self.solved.distances[index]),
        )

    def best_moves(self, state: Any) -> Sequence[Any]:
        """The moves that keep ``state``'s outcome at its distance (the winner's quickest
        wins, the loser's longest defences, every drawing move of a draw)."""
        game, solved = self.positions.game, self.solved
        outcome, distance = self.outcome(state)
        wanted = {
            "win": (LOSS, distance - 1),
            "loss": (WIN, distance - 1),
            "draw": (DRAW, NO_DISTANCE),
        }[outcome]
        chosen = []
        for action in game.actions(state):
            index = self.positions.index(game.result(state, action))
            if (int(solved.outcomes[index]), int(solved.distances[index])) == wanted:
                chosen.append(action)
        return chosen


def solve_positions(
    game: Game[Any, Any],
    roots: Iterable[Any] | None = None,
    limit: int = MAX_POSITIONS,
) -> SolvedPositions:
    """Every position reachable from ``roots`` (the start by default) solved by retrograde
    analysis."""
    positions = EnumeratedPositions(game, roots, limit)
    return SolvedPositions(positions, solve_graph(positions.graph))


Tables = dict[Hashable, Solved]
"""Solved classes: each class's outcomes and distances, by position number."""


def solve_classes(
    game: Game[Any, Any],
    size: int,
    solved: Tables | None = None,
    progress: Callable[[Hashable, int, int], None] | None = None,
    compiled: bool = True,
) -> Tables:
    """Every class of ``size`` (:class:`~plies.capabilities.HasPositionClasses`), one after
    another in the game's order, the moves into other classes looked up in ``solved`` and in
    the classes solved before (solve the sizes in increasing order); returns the new classes'
    tables. ``progress(class, done, classes)`` after each class; ``compiled=False`` takes the
    moves from the rules even where the game has compiled ones."""
    require_two_player_zero_sum(game, "retrograde analysis")
    classes = require(game, HasPositionClasses, "retrograde analysis")
    known = dict(solved or {})
    batch = list(classes.position_classes(size))
    new: Tables = {}
    for done, position_class in enumerate(batch, 1):
        table = solve_class(game, position_class, known, compiled)
        new[position_class] = known[position_class] = table
        if progress is not None:
            progress(position_class, done, len(batch))
    return new


def solve_class(
    game: Game[Any, Any],
    position_class: Hashable,
    solved: Mapping[Hashable, Solved],
    compiled: bool = True,
) -> Solved:
    """Every position of ``position_class`` decided by rounds, the moves into other classes
    looked up in ``solved`` (:class:`~plies.errors.UnsupportedGameError` where one is
    missing). The moves come from the game's :class:`~plies.capabilities.HasClassMoves` where
    it has it (and ``compiled``), else from its rules, position by position."""
    kernel = optional(game, HasClassMoves, compiled)
    moves = (
        kernel.class_moves(position_class)
        if kernel is not None
        else class_moves(game, position_class)
    )
    own = list(moves.classes).index(position_class)
    positions = len(moves.ends)
    outside = np.flatnonzero(moves.child_classes != own)
    fixed = np.zeros(len(outside), np.uint8)
    fixed_distances = np.zeros(len(outside), np.int32)
    for class_number in np.unique(moves.child_classes[outside]):
        child_class = moves.classes[int(class_number)]
        table = solved.get(child_class)
        if table is None:
            raise UnsupportedGameError(
                f"retrograde analysis: a move of {position_class} leads to {child_class}, "
                "which is not solved yet"
            )
        chosen = moves.child_classes[outside] == class_number
        numbers = moves.child_numbers[outside[chosen]]
        fixed[chosen] = table.outcomes[numbers]
        fixed_distances[chosen] = table.distances[numbers]
    children = np.asarray(moves.child_numbers, np.int64).copy()
    children[outside] = positions + np.arange(len(outside))
    ends = np.asarray(moves.ends, np.uint8)
    graph = MoveGraph(
        np.concatenate([moves.starts, np.full(len(outside), moves.starts[-1])]),
        children,
        np.concatenate([ends, fixed]),
        np.concatenate([np.where(ends == OPEN, NO_DISTANCE, 0), fixed_distances]).astype(np.int32),
    )
    whole = solve_graph(graph)
    return Solved(whole.outcomes[:positions], whole.distances[:positions], whole.rounds)


def class_moves(game: Game[Any, Any], position_class: Hashable) -> ClassMoves:
    """The moves of every position of ``position_class`` from the game's rules, one position
    at a time."""
    classes = require(game, HasPositionClasses, "retrograde analysis")
    ids: dict[Hashable, int] = {position_class: 0}
    starts, child_classes, child_numbers = [0], [], []
    count = classes.class_positions(position_class)
    ends = np.zeros(count, np.uint8)
    for number in range(count):
        state = classes.class_position(position_class, number)
        if game.is_terminal(state):
            ends[number] = end_outcome(game, state)
        for action in game.actions(state):
            child = game.result(state, action)
            child_class = classes.position_class(child)
            child_number = classes.position_number(child_class, child)
            child_classes.append(ids.setdefault(child_class, len(ids)))
            child_numbers.append(child_number)
        starts.append(len(child_numbers))
    return ClassMoves(
        np.array(starts, np.int64),
        np.array(child_classes, np.int64),
        np.array(child_numbers, np.int64),
        list(ids),
        ends,
    )
