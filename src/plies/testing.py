"""What tests and benchmarks share: seeded random positions, tiny games, a seeded random agent,
and the conformance checks every game must pass.

Random positions come from random moves from the initial state (:func:`random_move`: uniform
among the legal actions, and nature's outcomes drawn with their probabilities), so they are
reachable, and the same seed gives the same positions:

>>> from plies.registry import make_game
>>> game = make_game("tictactoe")
>>> state = random_position(game, 7, plies=4)
>>> 9 - state.cells.count("."), state == random_position(game, 7, plies=4)
(4, True)
>>> len(random_positions(game, 5, seed=1, plies=range(2, 6)))
5

The conformance checks raise :class:`AssertionError` naming the game, the state and what is
wrong; :func:`check_game` runs them all on random games:

>>> check_game(take_away(7), seed=1)
>>> check_game(DiceRace(), seed=1)
"""

from __future__ import annotations

import math
import random
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from plies.agents import RandomAgent
from plies.capabilities import HasChance, HasInformationSets, HasPositionNotation, require
from plies.errors import IllegalMoveError
from plies.game import (
    CHANCE,
    FunctionGame,
    Game,
    define_game,
    has_chance,
    random_move,
    require_two_player_zero_sum,
    sample_outcome,
)
from plies.lectures.tree_report import TreeReport
from plies.openings import random_walk
from plies.search.result import Bound, SearchResult

S = TypeVar("S", bound=Hashable)
A = TypeVar("A", bound=Hashable)

Seed = int | random.Random
"""A seed, or a generator to draw from (and so advance)."""

TRIES = 100
""":func:`random_position` gives up after this many random walks end the game too soon."""

GARBAGE = ("xyzzy", "?!", "99-99 z")
"""Moves no game reads: :func:`check_illegal_moves` expects each refused by name."""


def _rng(seed: Seed) -> random.Random:
    return seed if isinstance(seed, random.Random) else random.Random(seed)


# Random positions ----------------------------------------------------------------------------


def random_game(game: Game[S, Any], seed: Seed, *, max_plies: int | None = None) -> list[S]:
    """The states of a game of random moves from the initial state, that state included: to
    the end of the game, or to ``max_plies`` moves if that comes first."""
    rng = _rng(seed)
    state = game.initial_state()
    states = [state]
    while not game.is_terminal(state) and (max_plies is None or len(states) <= max_plies):
        state = game.result(state, random_move(game, state, rng))
        states.append(state)
    return states


def random_position(
    game: Game[S, Any], seed: Seed, plies: int | range | None = None, *, terminal: bool = False
) -> S:
    """A state reached by random moves (:func:`random_move`) from the initial state (the walk
    of random openings, :func:`plies.openings.random_walk`).

    ``plies`` says how many moves: exactly that many (an int), a number drawn uniformly from a
    range, or, with None, as many as it takes to reach a state drawn uniformly from the states
    of one whole random game. The state is never terminal unless ``terminal`` is true: a walk
    that ends the game too soon (before its last move; or on it, unless ``terminal``) is thrown
    away and another drawn, with a new number of moves from a range; after :data:`TRIES` such
    walks, ValueError.
    """
    rng = _rng(seed)
    for _ in range(TRIES):
        if plies is None:
            states = random_game(game, rng)
            if not terminal and game.is_terminal(states[-1]):
                states.pop()
            if states:
                return rng.choice(states)
            continue
        count = plies if isinstance(plies, int) else rng.choice(plies)
        line = random_walk(game, count, rng, written=False)
        if line.plies == count and (terminal or not game.is_terminal(line.state)):
            return line.state
    walk = "a whole game" if plies is None else f"{plies} plies"
    wanted = "a state" if terminal else "a non-terminal state"
    raise ValueError(f"no random walk of {walk} in '{game.name}' left {wanted} in {TRIES} tries")


def random_positions(
    game: Game[S, Any],
    count: int,
    seed: Seed,
    plies: int | range | None = None,
    *,
    terminal: bool = False,
) -> list[S]:
    """``count`` states drawn one after another by :func:`random_position` from ``seed``."""
    rng = _rng(seed)
    return [random_position(game, rng, plies, terminal=terminal) for _ in range(count)]


class Oracle(Generic[S, A]):
    """Exact minimax values of a small two-player zero-sum game (tic-tac-toe, Nim), memoised
    over states: the oracle tests and benchmarks judge moves by."""

    def __init__(self, game: Game[S, A]) -> None:
        require_two_player_zero_sum(game, "the oracle")
        self.game = game
        self._values: dict[tuple[S, str], float] = {}

    def value(self, state: S, player: str | None = None) -> float:
        """MINIMAX(s) for ``player`` (the player to move by default)."""
        game = self.game
        player = game.to_move(state) if player is None else player
        known = self._values.get((state, player))
        if known is not None:
            return known
        if game.is_terminal(state):
            value = game.utility(state, player)
        else:
            values = [self.value(game.result(state, a), player) for a in game.actions(state)]
            value = max(values) if game.to_move(state) == player else min(values)
        self._values[(state, player)] = value
        return value

    def best_moves(self, state: S) -> list[A]:
        """Every move of non-terminal ``state`` that keeps its value for the player to move."""
        game, mover = self.game, self.game.to_move(state)
        value = self.value(state)
        return [a for a in game.actions(state) if self.value(game.result(state, a), mover) == value]


@dataclass
class OracleAgent:
    """Plays perfectly: uniformly at random among the oracle's best moves."""

    oracle: Oracle[Any, Any]
    rng: random.Random
    name: str = "perfect"
    last: SearchResult[Any] | None = None

    def __call__(self, game: Game[Any, Any], state: Any) -> Any:
        return self.rng.choice(self.oracle.best_moves(state))

    def reset(self, seed: int | None = None) -> None:
        """Nothing is kept between moves; a seed restarts the random choices."""
        if seed is not None:
            self.rng.seed(seed)


def random_agent(seed: int | None = None) -> RandomAgent:
    """The library's random agent (:class:`plies.agents.RandomAgent`), seeded."""
    return RandomAgent(random.Random(seed))


# Tiny games ----------------------------------------------------------------------------------


def take_away(pile: int = 5, most: int = 2, win: float = 1) -> FunctionGame:
    """Take-away: A and B in turn take 1 to ``most`` objects from a pile of ``pile``; who
    takes the last gets ``win``, the other ``-win``. States are ``(objects left, mover)``.

    With ``most=2`` the mover loses exactly when the pile is a multiple of 3, and the game tree
    has size(n) = 1 + size(n-1) + size(n-2) nodes.
    """
    return define_game(
        name="take-away",
        players=("A", "B"),
        initial_state=lambda: (pile, "A"),
        to_move=lambda s: s[1],
        actions=lambda s: [n for n in range(1, most + 1) if n <= s[0]],
        result=lambda s, a: (s[0] - a, "B" if s[1] == "A" else "A"),
        is_terminal=lambda s: s[0] == 0,
        utility=lambda s, p: -win if s[1] == p else win,
    )


def path_game(leaves: Mapping[str, Sequence[float]], players: tuple[str, ...]) -> FunctionGame:
    """A tree game for any number of players: states are the paths of ``L`` and ``R`` moves
    taken so far, the players move in turn, and the game ends at the paths of ``leaves`` (all of
    one length), paying each player its entry. Zero-sum when every leaf's payoffs have the
    same sum."""
    length = len(next(iter(leaves)))
    return define_game(
        name="path-game",
        players=players,
        initial_state=lambda: "",
        to_move=lambda s: players[len(s) % len(players)],
        actions=lambda s: [] if len(s) == length else ["L", "R"],
        result=lambda s, a: s + a,
        is_terminal=lambda s: len(s) == length,
        utility=lambda s, p: leaves[s][players.index(p)],
        zero_sum=len({sum(payoffs) for payoffs in leaves.values()}) == 1,
    )


RaceState = tuple[int, int, str, str]
"""(X's total, O's total, who moves: X, O or CHANCE, who stepped last)."""

COIN = ((0, 0.5), (1, 0.5))


class DiceRace(Game[RaceState, int]):
    """A race with chance nodes: first to ``goal`` wins (+1, the other -1). The mover steps 1
    or 2, then nature adds an outcome of ``die`` (with its probability) to that player's total.

    EVAL is X's lead scaled into (-1, 1). With ``bounds`` the game declares them as its value
    bounds (what Star1 and MCTS's normalisation need); without, it has none.
    """

    name = "dice-race"
    players: tuple[str, ...] = ("X", "O")
    value_bounds: tuple[float, float]

    def __init__(
        self,
        goal: int = 5,
        die: Sequence[tuple[int, float]] = COIN,
        bounds: tuple[float, float] | None = None,
    ) -> None:
        self.goal, self.die = goal, tuple(die)
        if bounds is not None:
            self.value_bounds = bounds

    def initial_state(self) -> RaceState:
        return (0, 0, "X", "O")

    def to_move(self, state: RaceState) -> str:
        return state[2]

    def actions(self, state: RaceState) -> Sequence[int]:
        if self.is_terminal(state):
            return []
        if state[2] == CHANCE:
            return [outcome for outcome, _ in self.die]
        return [1, 2]

    def chance_outcomes(self, state: RaceState) -> Sequence[tuple[int, float]]:
        return self.die

    def result(self, state: RaceState, action: int) -> RaceState:
        x, o, mover, last = state
        stepper = last if mover == CHANCE else mover
        x, o = (x + action, o) if stepper == "X" else (x, o + action)
        return (x, o, self.opponent(last) if mover == CHANCE else CHANCE, stepper)

    def is_terminal(self, state: RaceState) -> bool:
        return max(state[0], state[1]) >= self.goal

    def utility(self, state: RaceState, player: str) -> float:
        winner = "X" if state[0] >= self.goal else "O"
        return 1 if winner == player else -1

    def evaluate(self, state: RaceState, player: str) -> float:
        lead = (state[0] - state[1]) / (self.goal + 3)
        return lead if player == "X" else -lead


# Conformance ---------------------------------------------------------------------------------


def _show(game: Game[Any, Any], state: Any) -> str:
    """The state as the game writes it, for messages."""
    if isinstance(game, HasPositionNotation):
        return repr(game.format_position(state))
    return repr(state)


def check_state(game: Game[S, A], state: S) -> list[A]:
    """One state against the formal definition; returns its legal actions.

    The state is hashable; the mover is one of the players, or :data:`~plies.game.CHANCE` in a
    game with chance nodes; a non-terminal state has legal actions, all distinct, and a chance
    state's outcomes are its actions, in order, with probabilities that sum to 1; a terminal
    state has no actions and pays every player a finite number.
    """
    where = f"{game.name}: state {_show(game, state)}"
    hash(state)
    actions = list(game.actions(state))
    if game.is_terminal(state):
        assert not actions, f"{where} is terminal but has actions"
        payoffs = game.payoffs(state)
        assert len(payoffs) == len(game.players), f"{where} pays {payoffs} to {game.players}"
        assert all(math.isfinite(u) for u in payoffs), f"{where} pays {payoffs}"
        return actions
    mover = game.to_move(state)
    allowed = (*game.players, CHANCE) if has_chance(game) else game.players
    assert mover in allowed, f"{where}: {mover!r} is to move, not one of {allowed}"
    assert actions, f"{where} is not terminal but has no actions"
    assert len(set(actions)) == len(actions), f"{where} lists an action twice"
    if mover == CHANCE:
        outcomes = require(game, HasChance, "a chance state").chance_outcomes(state)
        assert [o for o, _ in outcomes] == actions, f"{where}: chance outcomes are not ACTIONS"
        total = sum(p for _, p in outcomes)
        assert all(p >= 0 for _, p in outcomes), f"{where}: a negative probability"
        assert abs(total - 1) <= 1e-9, f"{where}: chance probabilities sum to {total}"
    return actions


def check_playout(game: Game[S, Any], seed: Seed, max_plies: int = 1000) -> list[S]:
    """A random game from the initial state, moving as :func:`random_move` does: every state
    passes :func:`check_state` (so every move is one of ACTIONS(s)), and the game ends within
    ``max_plies`` moves. Returns its states."""
    rng = _rng(seed)
    state = game.initial_state()
    states = [state]
    while actions := check_state(game, state):
        assert len(states) <= max_plies, f"{game.name}: a random game lasted {max_plies} moves"
        if game.to_move(state) == CHANCE:
            action = sample_outcome(game, state, rng)
        else:
            action = rng.choice(actions)
        state = game.result(state, action)
        states.append(state)
    return states


def check_utilities(game: Game[S, Any], finals: Iterable[S]) -> None:
    """In a zero-sum game, the payoffs of every terminal state in ``finals`` have one sum."""
    if not game.zero_sum:
        return
    sums = {sum(game.payoffs(state)) for state in finals}
    assert len(sums) <= 1, f"{game.name} is declared zero-sum but its payoffs sum to {sums}"


def check_illegal_moves(game: Game[S, Any], state: S, texts: Iterable[str] = GARBAGE) -> None:
    """Each of ``texts`` is refused by ``parse_action`` with an :class:`IllegalMoveError` of one
    line that quotes it."""
    for text in texts:
        try:
            action = game.parse_action(state, text)
        except IllegalMoveError as error:
            message = str(error)
            assert text in message, f"{game.name}: {message!r} does not name the move {text!r}"
            assert "\n" not in message, f"{game.name}: {message!r} is more than one line"
            continue
        raise AssertionError(
            f"{game.name}: {text!r} read as the move {action!r} in {_show(game, state)}"
        )


def check_action_notation(game: Game[S, A], state: S) -> None:
    """Every legal action reads back from its notation: ``parse(format(a)) == a``."""
    for action in game.actions(state):
        text = game.format_action(state, action)
        back = game.parse_action(state, text)
        assert back == action, (
            f"{game.name}: {action!r} is written {text!r}, which reads back as {back!r} "
            f"in {_show(game, state)}"
        )


def check_position_notation(game: Game[S, Any], state: S) -> None:
    """The position reads back from its notation to one written the same; unless it is
    terminal (a history such as chess's repetitions may end a game that the notation does
    not), with the same mover and legal actions."""
    notation = require(game, HasPositionNotation, "check_position_notation")
    text = notation.format_position(state)
    copy = notation.parse_position(text)
    again = notation.format_position(copy)
    assert again == text, f"{game.name}: {text!r} reads back as {again!r}"
    if game.is_terminal(state):
        return
    assert game.to_move(copy) == game.to_move(state), f"{game.name}: mover of {text!r} changes"
    assert list(game.actions(copy)) == list(game.actions(state)), (
        f"{game.name}: {text!r} reads back with other legal actions"
    )


def check_information_sets(
    game: Game[S, A], states: Iterable[S], rng: random.Random, samples: int = 3
) -> None:
    """The contract of :class:`~plies.capabilities.HasInformationSets` on ``states``: the
    states in which the mover has one key have one mover and the same legal actions in the
    same order; every player's key and seen state can be taken and hashed; every action is
    seen by every player as one line; a determinisation for any player keeps that player's
    key, and for the mover the legal actions."""
    hidden = require(game, HasInformationSets, "check_information_sets")
    sets: dict[str, tuple[str, list[A], S]] = {}
    for state in states:
        for player in game.players:
            hash(hidden.seen_state(state, player))
            key = hidden.information_key(state, player)
            assert isinstance(key, str), f"{game.name}: information key {key!r} is not a string"
        if game.is_terminal(state):
            continue
        mover = game.to_move(state)
        actions = list(game.actions(state))
        for action in actions:
            for player in game.players:
                seen = hidden.seen_action(state, action, player)
                assert seen and "\n" not in seen, f"{game.name}: {player} sees {seen!r}"
        if mover == CHANCE:
            continue
        key = hidden.information_key(state, mover)
        mover_then, actions_then, first = sets.setdefault(key, (mover, actions, state))
        where = f"{game.name}: information set {key!r} holds {_show(game, first)} and "
        assert mover_then == mover, f"{where}{_show(game, state)} with other movers"
        assert actions_then == actions, f"{where}{_show(game, state)} with other actions"
        for _ in range(samples):
            for player in game.players:
                drawn = hidden.sample_state(state, player, rng)
                again = hidden.information_key(drawn, player)
                assert again == hidden.information_key(state, player), (
                    f"{game.name}: a determinisation of {_show(game, state)} for {player} "
                    f"has the key {again!r}"
                )
            drawn = hidden.sample_state(state, mover, rng)
            assert list(game.actions(drawn)) == actions, (
                f"{game.name}: a determinisation of {_show(game, state)} for {mover} has "
                "other actions"
            )


def check_game(
    game: Game[Any, Any],
    seed: int = 0,
    *,
    playouts: int = 20,
    samples: int = 20,
    max_plies: int = 1000,
) -> None:
    """Every conformance check on ``game``: ``playouts`` random games (:func:`check_playout`,
    :func:`check_utilities` on their ends), then on ``samples`` states drawn from them
    :func:`check_illegal_moves`, :func:`check_action_notation` and, for games with position
    notation, :func:`check_position_notation`; for games of imperfect information,
    :func:`check_information_sets` on every state visited."""
    rng = random.Random(seed)
    games = [check_playout(game, rng, max_plies) for _ in range(playouts)]
    check_utilities(game, [states[-1] for states in games])
    visited = [state for states in games for state in states]
    if isinstance(game, HasInformationSets):
        check_information_sets(game, visited, rng)
    for state in rng.sample(visited, min(samples, len(visited))):
        check_illegal_moves(game, state)
        check_action_notation(game, state)
        if isinstance(game, HasPositionNotation):
            check_position_notation(game, state)


def check_tree_bounds(report: TreeReport) -> None:
    """Every value a tree search reports is the node's true (minimax or expectimax) value
    when marked exact, else a bound on the side it claims."""
    for node in report.nodes:
        if node.value is None:
            continue
        claim = node.bound or Bound.EXACT
        holds = {
            Bound.EXACT: node.value == node.minimax,
            Bound.UPPER: node.minimax <= node.value,
            Bound.LOWER: node.minimax >= node.value,
        }[claim]
        assert holds, f"node {node.label}: value {node.value} is not {claim} for {node.minimax}"
