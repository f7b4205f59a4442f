"""Random openings: distinct lines of K random plies from the initial state, drawn from one
seed; the one generator behind ``plies match`` and ``plies tournament --openings random:K``
(openings read from a file are :func:`plies.arena.tournament.read_openings`'), whose walk
:func:`plies.testing.random_position` takes too.

>>> from plies.registry import make_game
>>> game = make_game("tictactoe")
>>> [opening.text for opening in random_openings(game, 3, 1, seed=1)]
['c1', 'b1', 'b2']
"""

from __future__ import annotations

import random
from collections.abc import Hashable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from plies.errors import SpecError
from plies.game import CHANCE, Game, random_move, sample_outcome

S = TypeVar("S", bound=Hashable)

TRIES_PER_OPENING = 20
""":func:`random_openings` gives up after ``TRIES_PER_OPENING * count`` random walks."""


@dataclass(frozen=True)
class Opening(Generic[S]):
    """A random opening: the players' moves in the game's notation, joined by spaces (nature's
    outcomes are drawn, not written: a tournament record stores this text), and the state the
    whole line, nature's outcomes included, leads to."""

    text: str
    state: S
    plies: int
    """The plies played, nature's included: fewer than asked when the game ended first."""


def random_walk(
    game: Game[S, Any], plies: int, rng: random.Random, *, written: bool = True
) -> Opening[S]:
    """``plies`` random plies from the initial state (uniform legal moves, nature's outcomes
    with their probabilities) drawn from ``rng``, stopping early where the game ends; the text
    is left empty unless ``written`` (writing moves can cost more than choosing them)."""
    state, moves = game.initial_state(), list[str]()
    for ply in range(plies):
        if game.is_terminal(state):
            return Opening(" ".join(moves), state, ply)
        if game.to_move(state) == CHANCE:
            action = sample_outcome(game, state, rng)
        else:
            action = random_move(game, state, rng)
            if written:
                moves.append(game.format_action(state, action))
        state = game.result(state, action)
    return Opening(" ".join(moves), state, plies)


def random_openings(game: Game[S, Any], count: int, plies: int, seed: int) -> list[Opening[S]]:
    """Up to ``count`` openings of ``plies`` random plies with distinct move lines, drawn with
    ``random.Random(seed)`` alone, in the order found.

    A walk that ends the game or repeats a line already found is thrown away; after
    ``TRIES_PER_OPENING * count`` walks the search gives up with what it found, possibly fewer
    than ``count`` (tic-tac-toe has 9 openings of one ply). With ``plies == 0`` the one opening
    is the initial state. :class:`SpecError` for ``count < 1``, ``plies < 0``, or when no
    walk leaves a game to play.
    """
    if count < 1:
        raise SpecError(f"the number of openings must be at least 1, got {count}")
    if plies < 0:
        raise SpecError(f"opening plies must be at least 0, got {plies}")
    rng = random.Random(seed)
    found: dict[str, Opening[S]] = {}
    for _ in range(TRIES_PER_OPENING * count if plies else 1):
        opening = random_walk(game, plies, rng)
        if not game.is_terminal(opening.state) and opening.text not in found:
            found[opening.text] = opening
            if len(found) == count:
                break
    if not found:
        raise SpecError(
            f"no opening of {plies} random plies in '{game.name}' leaves a game to play"
        )
    return list(found.values())
