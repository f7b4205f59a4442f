"""Ratings of many players from their games: maximum-likelihood Elo with a first-move advantage,
95% intervals by bootstrapping game pairs, and the likelihood of superiority.

**The model** is Bradley and Terry's (1952) on Elo's logistic scale: the first player of a
game expects the score ``E = 1 / (1 + 10^(-(r_first - r_second + w) / 400))`` (see
:func:`expected_score`), where ``w`` is the advantage of moving first. A draw counts as half a
win and half a loss, as in Ordo (M. Ballicora): a game the first player scored ``s`` adds
``s ln E + (1 - s) ln(1 - E)`` to the log-likelihood. At the maximum each player's expected
points equal its points, so two players who score ``p`` against each other end
``400 log10(p / (1 - p))`` apart, as :func:`plies.arena.match.elo_difference` has it; draws
weigh exactly as half points and need no parameter of their own (as Davidson's 1970 model
would).

**A weak prior keeps every rating finite.** A player who won every game, or a group that beat
every outsider, has no finite maximum (Zermelo 1929; Hunter 2004, Assumption 1). So each
player also plays :data:`PRIOR_DRAWS` virtual draw against a virtual pool player, whose rating
is fitted with the others: it pulls each rating towards the pool by about ``1/N`` of its
distance for a player of ``N`` games, and is the only evidence for how far beyond the others a
perfect score lies (:attr:`Standing.clamped` marks those players). Likewise a virtual draw
between equals bounds the first-move advantage when the first player won every game.

**The fit** maximises this concave log-likelihood by Newton's method with step halving, on the
logit scale ``ln(10)/400`` per Elo point; it converges in a few steps, where the MM iterations
of Hunter (2004) take many. Ratings are then shifted to put the anchor player, or else the
players' mean, at ``anchor_elo``.

>>> pairs = [(1.0, 0.5), (0.5, 1.0)] * 25  # a's score as first, then as second
>>> games = [
...     game
...     for pair, (first, second) in enumerate(pairs)
...     for game in (Result("a", "b", first, pair), Result("b", "a", 1 - second, pair))
... ]
>>> ratings = fit_ratings(games, anchor="b")
>>> round(ratings.elo["a"], 1), ratings.elo["b"], round(ratings.first_move)
(189.6, 0.0, 0)
"""

from __future__ import annotations

import math
import os
from collections.abc import Hashable, Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from plies.errors import PliesError, RenderError, SpecError, UnknownNameError
from plies.inputs import check_output

Array = NDArray[np.float64]

PRIOR_DRAWS = 1.0
"""Virtual draws each player plays against the pool (the prior that keeps ratings finite)."""

LEVEL = 0.95
"""The probability the rating intervals are meant to cover."""

LOGIT_PER_ELO = math.log(10) / 400
"""One Elo point on the natural logit scale of the expected score."""

_NEWTON_STEPS = 100
_HALVINGS = 40
_DONE = 1e-12
"""Newton stops after a step whose decrement (twice the log-likelihood it expected to gain)
was below this share of the log-likelihood for every sample: the next would gain ~its square."""
_BLOCK = 64
"""Bootstrap samples fitted at once (bounds the memory the batched fit needs)."""


def expected_score(difference: float) -> float:
    """The expected score of a player ``difference`` Elo points stronger than its opponent,
    ``1 / (1 + 10^(-difference / 400))``: the logistic Elo curve, inverse of
    :func:`plies.arena.match.elo_difference`.

    >>> expected_score(0.0), round(expected_score(400 * math.log10(3)), 6)
    (0.5, 0.75)
    """
    return 1 / (1 + 10 ** (-difference / 400))


@dataclass(frozen=True)
class Result:
    """One game: its first player, its second, the first player's score (1, 0.5 or 0), and
    the pair it belongs to. Games with the same ``pair_id`` (the two games of a pair, on one
    opening with the colours swapped) are resampled together by :func:`rating_intervals`."""

    first: str
    second: str
    score: float
    pair_id: Hashable

    def __post_init__(self) -> None:
        if self.first == self.second:
            raise SpecError(f"a player cannot play itself: {self.first!r}")
        if self.score not in (0, 0.5, 1):
            raise SpecError(f"a game's score must be 0, 0.5 or 1, got {self.score!r}")


@dataclass(frozen=True)
class Ratings:
    """Maximum-likelihood ratings: Elo per player (in order of first appearance) and the Elo
    the first player gains by moving first."""

    elo: dict[str, float]
    first_move: float


@dataclass(frozen=True)
class _Games:
    """The results as arrays: the players, the ordered pairings ``(first[c], second[c])`` that
    occurred, and for each game its pairing, the first player's score and its pair."""

    names: tuple[str, ...]
    first: NDArray[np.intp]
    second: NDArray[np.intp]
    pairing: NDArray[np.intp]
    score: Array
    pair: NDArray[np.intp]
    pairs: int


def _aggregate(results: Sequence[Result]) -> _Games:
    if not results:
        raise PliesError("there are no games to rate")
    players: dict[str, int] = {}
    pairings: dict[tuple[int, int], int] = {}
    pairs: dict[Hashable, int] = {}
    rows = []
    for result in results:
        first = players.setdefault(result.first, len(players))
        second = players.setdefault(result.second, len(players))
        pairing = pairings.setdefault((first, second), len(pairings))
        rows.append((pairing, result.score, pairs.setdefault(result.pair_id, len(pairs))))
    ends = np.array(list(pairings), dtype=np.intp)
    pairing_of, score, pair_of = (np.array(column) for column in zip(*rows, strict=True))
    games = _Games(tuple(players), ends[:, 0], ends[:, 1], pairing_of, score, pair_of, len(pairs))
    _check_connected(games)
    return games


def _check_connected(games: _Games) -> None:
    """Ratings compare only players linked by a chain of games: an error for a pool that falls
    apart into groups that never met."""
    neighbours: list[set[int]] = [set() for _ in games.names]
    for a, b in zip(games.first.tolist(), games.second.tolist(), strict=True):
        neighbours[a].add(b)
        neighbours[b].add(a)
    seen, todo = {0}, [0]
    while todo:
        for other in neighbours[todo.pop()] - seen:
            seen.add(other)
            todo.append(other)
    if len(seen) < len(games.names):
        apart = ", ".join(repr(games.names[i]) for i in range(len(games.names)) if i not in seen)
        raise PliesError(
            f"{apart} never met {games.names[0]!r} or its opponents, so their ratings cannot "
            "be compared"
        )


def _design(games: _Games, first_move: bool) -> Array:
    """One row per pairing, one per player against the pool and (with ``first_move``) one for
    a game between equals, such that ``row @ theta`` is the logit of the first side's expected
    score; ``theta`` holds the players' ratings, the pool's, then (with ``first_move``) the
    first-move advantage, all in logits."""
    n, m = len(games.names), len(games.first)
    design = np.zeros((m + n + int(first_move), n + 1 + int(first_move)))
    design[np.arange(m), games.first] = 1
    design[np.arange(m), games.second] = -1
    design[m + np.arange(n), np.arange(n)] = 1
    design[m + np.arange(n), n] = -1
    if first_move:
        design[:m, n + 1] = 1
        design[m + n, n + 1] = 1
    return design


def _log_likelihood(logits: Array, played: Array, points: Array) -> Array:
    """``sum points ln E + (played - points) ln(1 - E)`` per sample, with ``E = sigma(logit)``."""
    loss = points * np.logaddexp(0, -logits) + (played - points) * np.logaddexp(0, logits)
    value: Array = -loss.sum(axis=-1)
    return value


def _newton(design: Array, played: Array, points: Array, shift: Array) -> Array:
    """The maximum-likelihood ``theta`` of each sample (row of ``played`` and ``points``),
    by Newton's method with step halving. The likelihood is flat along ``shift`` (every rating
    moved alike), so each step solves ``(I + shift shift^T) step = gradient`` with ``I`` the
    observed information (minus the Hessian): positive definite for a connected pool, and the
    step keeps the sum of the ratings (the pool's included) at 0."""
    theta = np.zeros((len(played), design.shape[1]))
    value = _log_likelihood(theta @ design.T, played, points)
    for _ in range(_NEWTON_STEPS):
        expected = 0.5 * (1 + np.tanh(0.5 * (theta @ design.T)))
        gradient = (points - played * expected) @ design
        curvature = played * expected * (1 - expected)
        information = (design.T * curvature[:, None, :]) @ design
        step = np.linalg.solve(information + np.outer(shift, shift), gradient[..., None])[..., 0]
        decrement = np.einsum("sp,sp->s", gradient, step)
        size = np.ones(len(theta))
        for _ in range(_HALVINGS):
            trial = theta + size[:, None] * step
            trial_value = _log_likelihood(trial @ design.T, played, points)
            worse = trial_value < value
            if not worse.any():
                break
            size[worse] /= 2
        theta = np.where(worse[:, None], theta, trial)
        value = np.where(worse, value, trial_value)
        if np.all(decrement < _DONE * (1 + np.abs(value))):
            break
    return theta


def _fit(
    games: _Games, first_move: bool, weights: Array, anchor: int | None, anchor_elo: float
) -> tuple[Array, Array]:
    """Ratings (samples, players) and first-move advantages (samples,) in Elo, for each row of
    ``weights`` (samples, games): how many times each game counts."""
    n, m, samples = len(games.names), len(games.first), len(weights)
    cells = (np.arange(samples)[:, None] * m + games.pairing).ravel()

    def tally(counts: Array) -> Array:  # per sample and pairing
        return np.asarray(np.bincount(cells, counts.ravel(), samples * m), dtype=float)

    virtual = np.full((samples, n + int(first_move)), PRIOR_DRAWS)
    played = np.hstack([tally(weights).reshape(samples, m), virtual])
    points = np.hstack([tally(weights * games.score).reshape(samples, m), virtual / 2])
    shift = np.append(np.ones(n + 1), np.zeros(int(first_move)))
    theta = _newton(_design(games, first_move), played, points, shift) / LOGIT_PER_ELO
    elo = theta[:, :n]
    centre = elo.mean(axis=1) if anchor is None else elo[:, anchor]
    advantage = theta[:, n + 1] if first_move else np.zeros(samples)
    return elo - centre[:, None] + anchor_elo, advantage


def _anchor_index(games: _Games, anchor: str | None, anchor_elo: float) -> int | None:
    if not math.isfinite(anchor_elo):
        raise SpecError(f"the anchor's rating must be a finite number, got {anchor_elo}")
    if anchor is None:
        return None
    if anchor not in games.names:
        raise UnknownNameError(
            f"the anchor {anchor!r} played no game (players: {', '.join(games.names)})"
        )
    return games.names.index(anchor)


def fit_ratings(
    results: Sequence[Result],
    anchor: str | None = None,
    anchor_elo: float = 0.0,
    *,
    first_move: bool = True,
) -> Ratings:
    """Maximum-likelihood Elo ratings of the players of ``results`` (model, prior and method:
    see the module's docstring), with ``anchor`` at ``anchor_elo``, or, with no anchor, the
    players' mean at ``anchor_elo``.

    ``first_move`` fits an advantage for moving first (0 otherwise). It is told apart from the
    players' strengths only when players meet with both colours, as pairs do; for pairings
    always played the same way round the prior decides between the two.

    Raises :class:`PliesError` for no games or a pool that falls apart into groups that never
    met, :class:`UnknownNameError` for an anchor who played no game, and :class:`SpecError`
    for a rating that is not a finite number.
    """
    games = _aggregate(results)
    index = _anchor_index(games, anchor, anchor_elo)
    elo, advantage = _fit(games, first_move, np.ones((1, len(games.score))), index, anchor_elo)
    return Ratings(dict(zip(games.names, elo[0].tolist(), strict=True)), float(advantage[0]))


@dataclass(frozen=True)
class Standing:
    """One player's line of the table."""

    name: str
    games: int
    points: float
    elo: float
    low: float
    """The lower end of the 95% interval of :attr:`elo`."""
    high: float
    """The upper end of the 95% interval of :attr:`elo`."""
    los: float | None
    """The likelihood of superiority over the next player of the table (None for the last):
    the share of bootstrap fits rating this player higher, ties counting half."""
    clamped: bool
    """Whether the player won or lost every game. Its rating then rests on the prior, and every
    bootstrap sample is as one-sided, so its interval understates the uncertainty: the true
    rating may lie well beyond either end."""

    @property
    def score(self) -> float:
        """The mean score per game."""
        return self.points / self.games


@dataclass(frozen=True)
class Standings:
    """The table of a pool, best first, and the first-move advantage with its interval."""

    players: tuple[Standing, ...]
    first_move: float
    first_move_low: float
    first_move_high: float
    samples: int
    """The number of bootstrap fits behind the intervals."""


def _interval(samples: Array) -> tuple[Array, Array]:
    tail = (1 - LEVEL) / 2
    low, high = np.quantile(samples, [tail, 1 - tail], axis=0)
    return low, high


def _bootstrap(
    games: _Games,
    first_move: bool,
    anchor: int | None,
    anchor_elo: float,
    samples: int,
    seed: int,
) -> tuple[Array, Array]:
    """``samples`` refits, each on as many pairs as there are, drawn with replacement."""
    rng = np.random.default_rng(seed)
    elo, advantage = [], []
    for start in range(0, samples, _BLOCK):
        block = min(_BLOCK, samples - start)
        drawn = rng.multinomial(games.pairs, np.full(games.pairs, 1 / games.pairs), size=block)
        block_elo, block_advantage = _fit(
            games, first_move, drawn[:, games.pair].astype(float), anchor, anchor_elo
        )
        elo.append(block_elo)
        advantage.append(block_advantage)
    return np.vstack(elo), np.concatenate(advantage)


def rating_intervals(
    results: Sequence[Result],
    anchor: str | None = None,
    anchor_elo: float = 0.0,
    *,
    first_move: bool = True,
    samples: int = 1000,
    seed: int = 0,
) -> Standings:
    """The table of :func:`fit_ratings`' ratings with 95% intervals and the likelihood of
    superiority of each player over the next, best first.

    The intervals are percentile bootstrap intervals (Efron and Tibshirani 1993, ch. 13):
    ``samples`` times, as many pairs as there are are drawn with replacement (games sharing a
    ``pair_id`` stay together, so the correlation a shared opening brings is kept) and the
    ratings refitted with the same anchor; each interval runs from the 2.5th to the 97.5th
    percentile of its player's refits. Relative to an anchor, the anchor's own interval is a
    point. The draws come from ``seed`` alone. Raises what :func:`fit_ratings` raises, and
    :class:`SpecError` for fewer than 1 sample or a negative seed.
    """
    if samples < 1:
        raise SpecError(f"the bootstrap needs at least 1 sample, got {samples}")
    if seed < 0:
        raise SpecError(f"the bootstrap's seed must be at least 0, got {seed}")
    games = _aggregate(results)
    index = _anchor_index(games, anchor, anchor_elo)
    elo, advantage = _fit(games, first_move, np.ones((1, len(games.score))), index, anchor_elo)
    refit_elo, refit_advantage = _bootstrap(games, first_move, index, anchor_elo, samples, seed)
    low, high = _interval(refit_elo)
    advantage_low, advantage_high = _interval(refit_advantage)
    played = np.bincount(games.first[games.pairing], minlength=len(games.names))
    played += np.bincount(games.second[games.pairing], minlength=len(games.names))
    points = np.bincount(games.first[games.pairing], games.score, len(games.names))
    points += np.bincount(games.second[games.pairing], 1 - games.score, len(games.names))
    order = sorted(range(len(games.names)), key=lambda i: (-elo[0, i], games.names[i]))
    table = []
    for place, i in enumerate(order):
        los = None
        if place + 1 < len(order):
            ahead = refit_elo[:, i] - refit_elo[:, order[place + 1]]
            los = float(np.mean(ahead > 0) + np.mean(ahead == 0) / 2)
        table.append(
            Standing(
                name=games.names[i],
                games=int(played[i]),
                points=float(points[i]),
                elo=float(elo[0, i]),
                low=float(low[i]),
                high=float(high[i]),
                los=los,
                clamped=points[i] in (0, played[i]),
            )
        )
    return Standings(
        tuple(table),
        float(advantage[0]),
        float(advantage_low),
        float(advantage_high),
        samples,
    )


STANDINGS_HEADER = ("#", "player", "games", "points", "score", "elo", "95% interval", "LOS")
"""The column titles of :func:`standings_rows`."""


def standings_rows(standings: Standings) -> list[tuple[str, ...]]:
    """The table's cells as text, one tuple per player under :data:`STANDINGS_HEADER`; a
    clamped player's Elo is marked ``*`` (see :attr:`Standing.clamped`)."""
    return [
        (
            str(place),
            row.name,
            str(row.games),
            f"{row.points:g}",
            f"{100 * row.score:.1f}%",
            f"{row.elo:+z.1f}" + ("*" if row.clamped else ""),
            f"[{row.low:+z.1f}, {row.high:+z.1f}]",
            "" if row.los is None else f"{100 * row.los:.1f}%",
        )
        for place, row in enumerate(standings.players, 1)
    ]


def format_standings(standings: Standings) -> str:
    """The table as aligned plain text: the header, a rule, a line per player, and the
    first-move advantage.

    >>> games = [Result("a", "b", 1.0, pair_id=0), Result("b", "a", 0.5, pair_id=0)]
    >>> print(format_standings(rating_intervals(games, samples=10)))
    #  player  games  points  score  elo    95% interval    LOS
    -  ------  -----  ------  -----  -----  --------------  ------
    1  a           2     1.5  75.0%  +81.2  [+81.2, +81.2]  100.0%
    2  b           2     0.5  25.0%  -81.2  [-81.2, -81.2]
    first-move advantage: +137.1 Elo [+137.1, +137.1]

    With a single pair every bootstrap sample is that pair, so the intervals are points.
    """
    rows = [STANDINGS_HEADER, *standings_rows(standings)]
    widths = [max(len(row[column]) for row in rows) for column in range(len(STANDINGS_HEADER))]
    numeric = {0, 2, 3}
    lines = [
        "  ".join(
            cell.rjust(width) if column in numeric and place else cell.ljust(width)
            for column, (cell, width) in enumerate(zip(row, widths, strict=True))
        ).rstrip()
        for place, row in enumerate(rows)
    ]
    lines.insert(1, "  ".join("-" * width for width in widths))
    lines.append(
        f"first-move advantage: {standings.first_move:+z.1f} Elo "
        f"[{standings.first_move_low:+z.1f}, {standings.first_move_high:+z.1f}]"
    )
    return "\n".join(lines)


def check_plot_target(path: str | os.PathLike[str]) -> str:
    """``path`` if a ratings plot can be written there (a .png in a writable directory), else
    :class:`RenderError`; nothing is written."""
    target = os.fspath(path)
    if not target.lower().endswith(".png"):
        raise RenderError(f"cannot write {target!r}: the ratings plot is a PNG; name a .png file")
    check_output(target)
    return target


def plot_ratings(standings: Standings, path: str | os.PathLike[str]) -> None:
    """A PNG of the ratings, best at the top, each with its 95% interval as an error bar.

    Needs matplotlib (``pip install 'plies[plot]'``); drawn with the Agg backend without
    touching pyplot's global state. Raises :class:`RenderError` when matplotlib is missing, the
    path does not end in ``.png``, or the file cannot be written.
    """
    target = check_plot_target(path)
    try:
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure
    except ImportError:
        raise RenderError("matplotlib is not installed: pip install 'plies[plot]'") from None
    players = standings.players[::-1]
    figure = Figure(figsize=(6.4, 1.2 + 0.4 * len(players)), layout="constrained")
    FigureCanvasAgg(figure)
    axes = figure.add_subplot()
    elo = [row.elo for row in players]
    spread = [[row.elo - row.low for row in players], [row.high - row.elo for row in players]]
    axes.errorbar(elo, range(len(players)), xerr=spread, fmt="o", capsize=4)
    axes.set_yticks(range(len(players)), [row.name for row in players])
    axes.set_xlabel(f"Elo ({LEVEL:.0%} interval from {standings.samples} bootstrap fits)")
    axes.grid(True, axis="x", alpha=0.4)
    try:
        figure.savefig(target, format="png", dpi=100)
    except OSError as error:
        raise RenderError(f"cannot write {target!r}: {error.strerror or error}") from None
