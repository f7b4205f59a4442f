"""Matches: two agent specs play a series of games, and the score becomes an Elo difference.

Games come in pairs on the same opening with the colours swapped, so that neither agent gets the
better side of an opening more often than the other: in the first game of a pair agent A plays
the first player (``game.players[0]``: X, Black...), in the second game the other one. An odd
number of games ends with a single game in which A plays first. Each opening is reached by a few
uniformly random legal moves from the initial state (:func:`plies.openings.random_openings`),
the number depending on the game (:func:`default_opening_plies`). The games are played by the
arena's machinery, as a tournament's pairing is (:mod:`plies.arena.tournament`).

:func:`run_match` yields a :class:`GameOutcome` after every game, so the caller owns the clock,
the progress bar and Ctrl-C; :func:`summarise` turns any prefix of them into a
:class:`MatchResult` with the score from A's point of view, its Elo difference and a 95%
interval (see :class:`MatchResult`):

>>> outcomes = [
...     GameOutcome(index=i, opening=i // 2, a_player="XO"[i % 2], result=r, moves=9, seconds=0.1)
...     for i, r in enumerate([1.0, 1.0, 0.5, 1.0, 0.0, 0.5, 1.0, 1.0])
... ]
>>> result = summarise(outcomes)
>>> result.wins, result.draws, result.losses, result.score
(5, 2, 1, 0.75)
>>> round(result.elo, 1), round(result.elo_low, 1), round(result.elo_high, 1)
(189.3, -46.0, 547.3)
>>> to_json(result, complete=True)["elo"]
189.3
"""

from __future__ import annotations

import math
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from plies.arena.ratings import Result, rating_intervals
from plies.arena.tournament import Scheduled, Worker, pair_games
from plies.errors import SpecError, UnsupportedGameError
from plies.game import Game
from plies.openings import random_openings
from plies.play import seat_agents

Z_95 = 1.96
"""The two-sided 95% quantile of the standard normal distribution (to two decimals)."""


def default_opening_plies(game: Game[Any, Any]) -> int:
    """Random plies played before each opening of a match of ``game`` (its ``opening_plies``).

    >>> from plies.registry import make_game
    >>> default_opening_plies(make_game("othello")), default_opening_plies(make_game("nim"))
    (4, 0)
    """
    return game.opening_plies


@dataclass(frozen=True)
class GameOutcome:
    """One game of a match, seen from agent A."""

    index: int
    """The game's number in the match, from 0."""
    opening: int
    """Which opening it started from (the index into the match's openings; pairs share one)."""
    a_player: str
    """The player A played (``game.players[0]`` in the first game of each pair)."""
    result: float
    """A's result: 1 for a win, 0.5 for a draw, 0 for a loss."""
    moves: int
    """Moves the agents played, not counting the opening's random ones."""
    seconds: float
    """Wall-clock time of the game."""


def run_match(
    game: Game[Any, Any],
    spec_a: str,
    spec_b: str,
    games: int,
    *,
    opening_plies: int | None = None,
    seed: int = 0,
) -> Iterator[GameOutcome]:
    """Play ``games`` games of A (``spec_a``) against B (``spec_b``), yielding each outcome.

    Everything is checked before this returns, so a bad count, game or agent spec raises here
    rather than at the first ``next``: ``games < 1`` and ``opening_plies < 0`` raise
    :class:`SpecError`, a bad spec whatever :func:`make_agent` raises (both agents are built
    once), a game without exactly two players :class:`UnsupportedGameError`, and too many
    opening plies for every random walk to survive :class:`SpecError`.

    The games are a tournament's pairing (:func:`plies.arena.tournament.pair_games`), played
    in this process by the arena's :class:`~plies.arena.tournament.Worker`: game ``i`` is leg
    ``i % 2`` of pair ``i // 2``, from opening ``(i // 2) % len(openings)``
    (:func:`~plies.openings.random_openings`, reused in turn when the game has fewer distinct
    ones than pairs); A plays ``game.players[0]`` when ``i`` is even. Every game is seeded from
    ``seed`` and its pair, so the whole match is reproducible from ``seed``
    (``opening_plies`` defaults to :func:`default_opening_plies`); an agent that fails forfeits
    the game. Stopping the iteration (or Ctrl-C) leaves the outcomes yielded so far valid:
    :func:`summarise` them for a partial result.
    """
    if games < 1:
        raise SpecError(f"a match needs at least 1 game, got {games}")
    plies = default_opening_plies(game) if opening_plies is None else opening_plies
    if plies < 0:
        raise SpecError(f"opening plies must be at least 0, got {plies}")
    if len(game.players) != 2:
        raise UnsupportedGameError(
            f"a match needs a two-player game; '{game.name}' has {len(game.players)} players"
        )
    first, second = game.players
    specs, roles = {first: spec_a, second: spec_b}, {first: "A", second: "B"}
    seat_agents(game, specs, seed=seed, game_index=-1, roles=roles)  # check both specs now
    openings = random_openings(game, (games + 1) // 2, plies, seed)
    tasks = [
        task
        for pair in range((games + 1) // 2)
        for task in pair_games(
            game.name, (spec_a, spec_b), pair, openings[pair % len(openings)], seed
        )
    ]
    return _play_match(game, tasks[:games], len(openings))


def _play_match(
    game: Game[Any, Any], tasks: list[Scheduled], openings: int
) -> Iterator[GameOutcome]:
    """Each game played by one worker, as A sees it."""
    worker = Worker({game.name: game})
    try:
        for index, task in enumerate(tasks):
            began = time.perf_counter()
            played = worker.play(task)
            a_first = task.leg == 0
            yield GameOutcome(
                index=index,
                opening=task.pair % openings,
                a_player=game.players[0] if a_first else game.players[1],
                result=played.result if a_first else 1 - played.result,
                moves=len(played.moves),
                seconds=time.perf_counter() - began,
            )
    finally:
        worker.close()


def elo_difference(score: float) -> float:
    """The Elo difference that expects ``score`` per game: ``-400 * log10(1/p - 1)``.

    >>> elo_difference(0.5), round(elo_difference(0.75), 1), round(elo_difference(0.25), 1)
    (0.0, 190.8, -190.8)
    """
    # 400 * log10(p / (1 - p)) is the same number, and 0.0 rather than -0.0 at p = 0.5.
    return 400 * math.log10(score / (1 - score))


@dataclass(frozen=True)
class MatchResult:
    """Wins, draws and losses from A's point of view, and the Elo difference they imply.

    With the games themselves (``played``, as :func:`summarise` gives them), the Elo
    difference and its 95% interval are those of the arena's tables
    (:func:`plies.arena.ratings.rating_intervals`: maximum likelihood with a first-move
    advantage, a bootstrap over game pairs, a virtual draw keeping a perfect score finite), so
    ``plies match`` and ``plies tournament`` rate alike. From the counts alone they are these:

    With N games and score ``p = (W + D/2) / N``, A is ``elo = -400 * log10(1/p - 1)`` points
    stronger than B. The 95% interval is the Wilson score interval of ``p`` (Wilson 1927),
    ``(p + z^2/2N -/+ z sqrt(p(1-p)/N + z^2/4N^2)) / (1 + z^2/N)`` with z = 1.96, converted to
    Elo. Unlike ``p -/+ z sd`` it stays meaningful for a perfect or a one-sided series; it treats
    a draw as half a win, which overstates the variance when there are draws, so the interval is
    if anything too wide.

    A perfect or zero score would make the Elo infinite. To keep every figure a finite number
    (JSON has no infinity), ``p`` and the interval ends are clamped into
    ``[0.5/N, 1 - 0.5/N]``: a perfect score counts as if half a game had been lost, a zero score
    as if half a game had been won (so a single game always gives Elo 0). With no games every
    Elo figure is 0 and the score 0.5.
    """

    wins: int
    draws: int
    losses: int
    played: tuple[Result, ...] = field(default=(), repr=False, compare=False)
    """The games, A and B named ``A`` and ``B``, the two games of a pair sharing a pair id."""

    @cached_property
    def _fitted(self) -> tuple[float, float, float] | None:
        """A's Elo, low and high relative to B from the arena's fit of :attr:`played`."""
        if not self.played:
            return None
        standings = rating_intervals(self.played, anchor="B")
        a = next(row for row in standings.players if row.name == "A")
        return a.elo, a.low, a.high

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def score(self) -> float:
        """A's mean score per game, ``(W + D/2) / N`` (unclamped; 0.5 with no games)."""
        if self.games == 0:
            return 0.5
        return (self.wins + self.draws / 2) / self.games

    def _clamped_elo(self, score: float) -> float:
        low = 0.5 / self.games
        return elo_difference(min(max(score, low), 1 - low))

    def _wilson(self, sign: int) -> float:
        """The lower (sign -1) or upper (+1) end of the Wilson 95% interval of the score."""
        n, p, z2 = self.games, self.score, Z_95**2
        spread = Z_95 * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
        return (p + z2 / (2 * n) + sign * spread) / (1 + z2 / n)

    @property
    def clamped(self) -> bool:
        """Whether the score is perfect or zero, so that :attr:`elo` and the interval's open
        end are the clamp's figures: the true difference may lie further out."""
        return self.games > 0 and self.losses + self.draws / 2 in (0, self.games)

    @property
    def elo(self) -> float:
        """How many Elo points A is stronger than B (0 with no games)."""
        if self._fitted is not None:
            return self._fitted[0]
        return self._clamped_elo(self.score) if self.games else 0.0

    @property
    def elo_low(self) -> float:
        """The lower end of the 95% interval of :attr:`elo`."""
        if self._fitted is not None:
            return self._fitted[1]
        return self._clamped_elo(self._wilson(-1)) if self.games else 0.0

    @property
    def elo_high(self) -> float:
        """The upper end of the 95% interval of :attr:`elo`."""
        if self._fitted is not None:
            return self._fitted[2]
        return self._clamped_elo(self._wilson(+1)) if self.games else 0.0


def summarise(outcomes: Iterable[GameOutcome]) -> MatchResult:
    """Count A's wins (result 1), draws (1/2) and losses (0) in ``outcomes``, and keep the
    games for the arena's statistics (A moves first in the even games, B in the odd ones;
    game ``i`` belongs to pair ``i // 2``)."""
    wins = draws = losses = 0
    played = []
    for outcome in outcomes:
        if outcome.result == 1:
            wins += 1
        elif outcome.result == 0:
            losses += 1
        else:
            draws += 1
        if outcome.index % 2 == 0:
            played.append(Result("A", "B", outcome.result, outcome.index // 2))
        else:
            played.append(Result("B", "A", 1 - outcome.result, outcome.index // 2))
    return MatchResult(wins, draws, losses, tuple(played))


def _rounded(value: float, digits: int) -> float:
    return round(value, digits) + 0.0  # + 0.0 turns -0.0 into 0.0


def to_json(result: MatchResult, complete: bool = True) -> dict[str, Any]:
    """The result as a JSON-ready dict: counts, Elo figures to 0.1, score to 4 decimals, and
    ``complete`` (False when the match was interrupted).

    >>> to_json(MatchResult(wins=3, draws=0, losses=1), complete=False)["score"]
    0.75
    """
    return {
        "games": result.games,
        "wins": result.wins,
        "draws": result.draws,
        "losses": result.losses,
        "score": _rounded(result.score, 4),
        "elo": _rounded(result.elo, 1),
        "elo_low": _rounded(result.elo_low, 1),
        "elo_high": _rounded(result.elo_high, 1),
        "clamped": result.clamped,
        "complete": complete,
    }
