"""The formal game: the six parts every algorithm and front end works on.

A game is defined by (AIMA 4th ed., section 5.1):

=================  ======================================  ==================================
formal part        meaning                                 method
=================  ======================================  ==================================
S0                 initial state                           :meth:`Game.initial_state`
TO-MOVE(s)         the player whose turn it is in s        :meth:`Game.to_move`
ACTIONS(s)         the legal moves in s                    :meth:`Game.actions`
RESULT(s, a)       the transition model                    :meth:`Game.result`
IS-TERMINAL(s)     is the game over                        :meth:`Game.is_terminal`
UTILITY(s, p)      final value of terminal s for player p  :meth:`Game.utility`
=================  ======================================  ==================================

States are immutable and hashable. Optional capabilities are small protocols an algorithm checks
for, all declared in :mod:`plies.capabilities`.

Example, a game written as six functions (take 1 or 2 from a pile; who takes the last wins):

>>> game = define_game(
...     name="take-away", players=("A", "B"),
...     initial_state=lambda: (5, "A"),
...     to_move=lambda s: s[1],
...     actions=lambda s: [n for n in (1, 2) if n <= s[0]],
...     result=lambda s, a: (s[0] - a, "B" if s[1] == "A" else "A"),
...     is_terminal=lambda s: s[0] == 0,
...     utility=lambda s, p: -1 if s[1] == p else 1,
... )
>>> from plies.search import alphabeta
>>> alphabeta(game, game.initial_state()).value
1
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any, Generic, TypeVar

from plies.capabilities import HasChance as HasChance
from plies.capabilities import HasPositionNotation as HasPositionNotation
from plies.capabilities import HasValueBounds as HasValueBounds
from plies.capabilities import require
from plies.errors import GameDefinitionError, IllegalMoveError, UnsupportedGameError

S = TypeVar("S", bound=Hashable)
A = TypeVar("A", bound=Hashable)


class Game(ABC, Generic[S, A]):
    """A game in the formal sense: subclass and write the six methods.

    Class attributes describe the game: ``name`` (registry name), ``players`` (names, in turn
    order of the initial state), ``zero_sum`` (the players' utilities always sum to the same
    constant, as with +1/0/-1 or payoff pairs (1,0)/(0.5,0.5)/(0,1)), ``default_opponent``
    (the agent a front end seats against a person unless told otherwise),
    ``opening_plies`` (random plies before each opening of a match) and
    ``searchable_to_end`` (False where no search to the end of the game can finish: such games
    are searched to a depth with EVAL, or by the engine under a clock) and ``leaf_estimate``
    (MCTS's leaf estimate unless told otherwise: ``playout``, or ``eval`` where EVAL is better
    than random playouts, as backgammon's learned network is).
    """

    name: str = "game"
    players: tuple[str, ...] = ("MAX", "MIN")
    zero_sum: bool = True
    default_opponent: str = "alphabeta:depth=4"
    opening_plies: int = 2
    searchable_to_end: bool = True
    leaf_estimate: str = "playout"

    @abstractmethod
    def initial_state(self) -> S:
        """S0: the state the game starts in."""

    @abstractmethod
    def to_move(self, state: S) -> str:
        """TO-MOVE(s): the player whose turn it is."""

    @abstractmethod
    def actions(self, state: S) -> Sequence[A]:
        """ACTIONS(s): the legal moves, in the order searches try them."""

    @abstractmethod
    def result(self, state: S, action: A) -> S:
        """RESULT(s, a): the new state after playing a legal action."""

    @abstractmethod
    def is_terminal(self, state: S) -> bool:
        """IS-TERMINAL(s): whether the game is over."""

    @abstractmethod
    def utility(self, state: S, player: str) -> float:
        """UTILITY(s, p): the final value of terminal state s for player p."""

    # Notation. Every game gets text moves through format_action; games override for speed.

    def format_action(self, state: S, action: A) -> str:
        """The action in the game's usual notation."""
        return str(action)

    def parse_action(self, state: S, text: str) -> A:
        """Read a legal action from text; raises :class:`IllegalMoveError` naming the move."""
        if self.is_terminal(state):
            raise IllegalMoveError(f"move {text.strip()!r}: the game is over")
        wanted = text.strip().lower()
        legal = self.actions(state)
        for action in legal:
            if self.format_action(state, action).lower() == wanted:
                return action
        shown = " ".join(self.format_action(state, a) for a in legal)
        raise IllegalMoveError(f"move {text.strip()!r} is not legal here; legal moves: {shown}")

    def display(self, state: S) -> str:
        """A human-readable picture of the state (a board), possibly several lines."""
        return repr(state)

    def opponent(self, player: str) -> str:
        """The other player of a two-player game."""
        first, second = self.players[0], self.players[1]
        return second if player == first else first

    def payoffs(self, state: S) -> tuple[float, ...]:
        """UTILITY(s, p) for every player p, in the order of :attr:`players`."""
        return tuple(self.utility(state, p) for p in self.players)


# Chance ------------------------------------------------------------------------------------


CHANCE = "chance"
"""TO-MOVE(s) of a chance state (AIMA 4th ed., section 5.5): nature moves next. ACTIONS(s) are
the outcomes, RESULT(s, r) applies outcome r, and :meth:`HasChance.chance_outcomes` gives each
outcome's probability. CHANCE is never one of :attr:`Game.players`."""


def has_chance(game: Game[Any, Any]) -> bool:
    """Whether ``game`` declares chance nodes."""
    return isinstance(game, HasChance)


def checked_outcomes(game: Game[S, A], state: S) -> Sequence[tuple[A, float]]:
    """The chance outcomes of ``state``, or a :class:`GameDefinitionError` when their
    probabilities are negative or do not sum to 1 (within 1e-9)."""
    outcomes = require(game, HasChance, "a chance node").chance_outcomes(state)
    total = 0.0
    for outcome, probability in outcomes:
        if not probability >= 0:
            raise GameDefinitionError(
                f"game '{game.name}': outcome {outcome!r} has probability {probability}"
            )
        total += probability
    if abs(total - 1) > 1e-9:
        raise GameDefinitionError(
            f"game '{game.name}': chance probabilities sum to {total:g}, not 1"
        )
    return outcomes


def sample_outcome(game: Game[S, A], state: S, rng: random.Random) -> A:
    """Nature's move in chance state ``state``: an outcome drawn with its probability."""
    outcomes = checked_outcomes(game, state)
    draw = rng.random()
    for outcome, probability in outcomes:
        draw -= probability
        if draw < 0:
            return outcome
    return outcomes[-1][0]  # rounding left a sliver of probability


def random_move(game: Game[S, A], state: S, rng: random.Random) -> A:
    """A uniformly random legal action of non-terminal ``state``; in a chance state, nature's
    outcome drawn with its probability (:func:`sample_outcome`)."""
    if game.to_move(state) == CHANCE:
        return sample_outcome(game, state, rng)
    return rng.choice(list(game.actions(state)))


def require_two_player_zero_sum(game: Game[Any, Any], algorithm: str, chance: bool = False) -> None:
    """Refuse games that two-player zero-sum algorithms cannot search, and games with chance
    nodes unless the algorithm handles ``chance``."""
    if len(game.players) != 2 or not game.zero_sum:
        raise UnsupportedGameError(
            f"{algorithm} needs a two-player zero-sum game; '{game.name}' has "
            f"{len(game.players)} players and is {'' if game.zero_sum else 'not '}zero-sum"
        )
    if not chance:
        refuse_chance(game, algorithm)


def refuse_chance(game: Game[Any, Any], algorithm: str) -> None:
    """Refuse games with chance nodes, for searches that have no chance nodes of their own."""
    if has_chance(game):
        raise UnsupportedGameError(
            f"{algorithm} cannot search '{game.name}': it has chance nodes "
            "(use expectiminimax or mcts)"
        )


# Utilities as the lectures give them -------------------------------------------------------


class Scoring(Enum):
    """How a finished game's outcome becomes utilities."""

    PLUS_MINUS = "plusminus"
    """Win +1, draw 0, loss -1 (utilities sum to 0)."""
    PAYOFF = "payoff"
    """Payoff pairs (1, 0), (0.5, 0.5), (0, 1) (utilities sum to 1)."""

    def utility(self, winner: str | None, player: str) -> float:
        """The utility for ``player`` when ``winner`` won (None: a draw)."""
        if winner is None:
            return 0 if self is Scoring.PLUS_MINUS else 0.5
        if winner == player:
            return 1
        return -1 if self is Scoring.PLUS_MINUS else 0


class WinLossDrawGame(Game[S, A]):
    """A two-player game whose end is a win for one player or a draw.

    Subclasses write :meth:`winner`; :meth:`utility` follows from :attr:`scoring`.
    """

    scoring: Scoring = Scoring.PLUS_MINUS

    @abstractmethod
    def winner(self, state: S) -> str | None:
        """The winner of a terminal state, or None for a draw (or an unfinished game)."""

    def utility(self, state: S, player: str) -> float:
        return self.scoring.utility(self.winner(state), player)

    def estimate(self, lead: float, player: str) -> float:
        """An EVAL value for ``player`` from ``lead`` in (-1, 1), kept strictly between the
        loss and win utilities of :attr:`scoring` (0 maps to a draw)."""
        draw = self.scoring.utility(None, player)
        return draw + (self.scoring.utility(player, player) - draw) * lead


# A game from six functions ----------------------------------------------------------------


class FunctionGame(Game[Any, Any]):
    """A game given as the six functions of the formal definition (see :func:`define_game`)."""

    def __init__(
        self,
        name: str,
        players: tuple[str, ...],
        functions: GameFunctions,
        zero_sum: bool = True,
    ) -> None:
        self.name, self.players, self.zero_sum = name, players, zero_sum
        self.functions = functions

    def initial_state(self) -> Any:
        return self.functions.initial_state()

    def to_move(self, state: Any) -> str:
        return self.functions.to_move(state)

    def actions(self, state: Any) -> Sequence[Any]:
        return self.functions.actions(state)

    def result(self, state: Any, action: Any) -> Any:
        return self.functions.result(state, action)

    def is_terminal(self, state: Any) -> bool:
        return self.functions.is_terminal(state)

    def utility(self, state: Any, player: str) -> float:
        return self.functions.utility(state, player)


class _EvaluatedFunctionGame(FunctionGame):
    def __init__(
        self,
        name: str,
        players: tuple[str, ...],
        functions: GameFunctions,
        zero_sum: bool,
        evaluate: Callable[[Any, str], float],
    ) -> None:
        super().__init__(name, players, functions, zero_sum)
        self._evaluate = evaluate

    def evaluate(self, state: Any, player: str) -> float:
        return self._evaluate(state, player)


@dataclass(frozen=True)
class GameFunctions:
    """The six functions of the formal definition."""

    initial_state: Callable[[], Any]
    to_move: Callable[[Any], str]
    actions: Callable[[Any], Sequence[Any]]
    result: Callable[[Any, Any], Any]
    is_terminal: Callable[[Any], bool]
    utility: Callable[[Any, str], float]


def define_game(
    *,
    name: str,
    players: tuple[str, ...],
    initial_state: Callable[[], Any],
    to_move: Callable[[Any], str],
    actions: Callable[[Any], Sequence[Any]],
    result: Callable[[Any, Any], Any],
    is_terminal: Callable[[Any], bool],
    utility: Callable[[Any, str], float],
    zero_sum: bool = True,
    evaluate: Callable[[Any, str], float] | None = None,
) -> FunctionGame:
    """Build a game from the six functions of the formal definition (plus an optional EVAL)."""
    functions = GameFunctions(initial_state, to_move, actions, result, is_terminal, utility)
    if evaluate is None:
        return FunctionGame(name, players, functions, zero_sum)
    return _EvaluatedFunctionGame(name, players, functions, zero_sum, evaluate)
