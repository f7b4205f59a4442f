"""The sequential probability ratio test (Wald 1945) on game pairs, with pentanomial statistics,
as fishtest and fastchess run it to decide whether A is stronger than B with few games.

Games come in pairs on one opening with the colours swapped; a pair's score for A is the mean
of its two games, one of ``0, 1/4, 1/2, 3/4, 1``, and the test counts the pairs of each score
(the *pentanomial* counts: LL, LD, DD or WL, WD, WW). Scoring pairs rather than games keeps
the correlation a shared opening brings, which the game (trinomial) counts would mistake for
noise and so take more games to decide.

H0 says A is ``elo0`` logistic Elo stronger than B, H1 ``elo1``: a mean score of
``s_k = 1 / (1 + 10^(-elo_k / 400))`` (:func:`~plies.arena.ratings.expected_score`). The test
statistic is the generalized log-likelihood ratio (GSPRT) of M. Van den Bergh, as fishtest
(``LLRcalc.LLR_logistic``) and fastchess (``getLLR_logistic``) compute it: with ``N`` pairs and
``p_i`` the share of pairs of score ``a_i``, the most likely pentanomial distribution of mean
``s`` is ``q_i = p_i / (1 + theta (a_i - s))``, where ``theta`` solves
``sum_i p_i (a_i - s) / (1 + theta (a_i - s)) = 0`` (Van den Bergh, ``support_MLE_multinomial.pdf``
at cantate.be/Fishtest, Proposition 1.1), and

    LLR = N sum_i p_i ln(q1_i / q0_i)

for the ``q0`` and ``q1`` of ``s0`` and ``s1``. (Its second-order approximation
``N/2 ln(sum p_i (a_i - s0)^2 / sum p_i (a_i - s1)^2)``, fishtest's ``LLR_alt``, accepted H0 up to
twice as often as ``beta`` allows when H1 held, in our simulations with bounds 40 Elo apart.) A zero
count weighs as 0.001 (fishtest's and fastchess's regularisation), so the LLR is finite from the
first pair, and 0 before it.

The test accepts H1 once ``LLR >= ln((1 - beta) / alpha)`` and H0 once
``LLR <= ln(beta / (1 - alpha))`` (Wald's bounds): when H0 holds it accepts H1 with a
probability of about ``alpha``, and when H1 holds H0 with about ``beta`` (a little less, as the
LLR overshoots the bounds).

>>> test = parse_sprt("0,10")
>>> round(test.lower, 3), round(test.upper, 3)
(-2.944, 2.944)
>>> test.status([10, 50, 100, 40, 8]).state, round(test.llr([10, 50, 100, 40, 8]), 3)
('continue', -1.459)
>>> test.status([5, 60, 200, 90, 15]).state
'accepted H1'
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np
from numpy.typing import NDArray

from plies.arena.ratings import expected_score
from plies.errors import SpecError

PAIR_SCORES = (0.0, 0.25, 0.5, 0.75, 1.0)
"""A's mean score in a pair, for each place of the pentanomial counts."""

REGULARISATION = 1e-3
"""What a zero pentanomial count weighs in the LLR (fishtest's and fastchess's value)."""

MAX_ELO = 1000.0
"""The largest Elo difference a hypothesis may name (an expected score of 0.3% to 99.7%)."""

_ROOT_STEPS = 100
_ROOT_TOLERANCE = 1e-14
"""Root finding stops when no ``theta`` moved more than this."""

State = Literal["accepted H1", "accepted H0", "continue"]


@dataclass(frozen=True)
class SPRTStatus:
    """Where a test stands: its decision, or ``continue``, and the LLR it rests on."""

    state: State
    llr: float


def pentanomial(pairs: Iterable[tuple[float, float]]) -> tuple[int, int, int, int, int]:
    """The pentanomial counts of game pairs, each given as A's two scores (1, 0.5 or 0).

    >>> pentanomial([(1, 0), (0.5, 0.5), (1, 0.5), (1, 1)])
    (0, 0, 2, 1, 1)
    """
    counts = [0] * len(PAIR_SCORES)
    for pair in pairs:
        if len(pair) != 2 or any(score not in (0, 0.5, 1) for score in pair):
            raise SpecError(f"a pair is two scores of 0, 0.5 or 1, got {pair!r}")
        counts[round(2 * (pair[0] + pair[1]))] += 1
    return counts[0], counts[1], counts[2], counts[3], counts[4]


def _secular_root(shares: NDArray[np.float64], gaps: NDArray[np.float64]) -> NDArray[np.float64]:
    """The root ``theta`` of ``f(theta) = sum_i shares_i gaps_i / (1 + theta gaps_i)`` for each
    row of ``shares`` (all positive; ``gaps`` of both signs): ``f`` falls from +inf to -inf
    between its poles ``-1/max(gaps)`` and ``-1/min(gaps)``, so Newton's method, falling back
    on bisection whenever it would leave the bracket, finds it."""
    rows = shares.reshape(-1, len(gaps))
    low = np.full(len(rows), -1 / gaps.max())
    high = np.full(len(rows), -1 / gaps.min())
    theta = np.zeros(len(rows))
    active = np.arange(len(rows))  # the rows still moving
    for _ in range(_ROOT_STEPS):
        if not len(active):
            break
        now, share = theta[active], rows[active]
        ratios = gaps / (1 + now[:, None] * gaps)
        value = (share * ratios).sum(axis=1)
        low[active] = np.where(value > 0, now, low[active])
        high[active] = np.where(value > 0, high[active], now)
        newton = now + value / (share * ratios**2).sum(axis=1)
        inside = ((low[active] < newton) & (newton < high[active])) | (newton == now)
        theta[active] = np.where(inside, newton, (low[active] + high[active]) / 2)
        active = active[np.abs(theta[active] - now) > _ROOT_TOLERANCE]
    return theta.reshape(shares.shape[:-1])


def _check_elo(value: float, what: str) -> None:
    if not -MAX_ELO <= value <= MAX_ELO:  # NaN too
        raise SpecError(f"{what} must be a number from -{MAX_ELO:g} to {MAX_ELO:g}, got {value}")


@dataclass(frozen=True)
class SPRT:
    """A test of H0: A is ``elo0`` Elo stronger than B, against H1: ``elo1`` (logistic Elo),
    accepting H1 wrongly with probability about ``alpha`` and H0 wrongly about ``beta``.

    >>> SPRT(10, 0)
    Traceback (most recent call last):
    ...
    plies.errors.SpecError: elo0 must be below elo1, got elo0=10 and elo1=0
    """

    elo0: float
    elo1: float
    alpha: float = 0.05
    beta: float = 0.05

    def __post_init__(self) -> None:
        _check_elo(self.elo0, "elo0")
        _check_elo(self.elo1, "elo1")
        if not self.elo0 < self.elo1:
            raise SpecError(f"elo0 must be below elo1, got elo0={self.elo0} and elo1={self.elo1}")
        for name, value in (("alpha", self.alpha), ("beta", self.beta)):
            if not 0 < value < 1:
                raise SpecError(f"{name} must lie strictly between 0 and 1, got {value}")
        if self.alpha + self.beta >= 1:
            raise SpecError(f"alpha + beta must be below 1, got {self.alpha} + {self.beta}")

    @property
    def lower(self) -> float:
        """Wald's lower bound, ``ln(beta / (1 - alpha))``: H0 is accepted at or below it."""
        return math.log(self.beta / (1 - self.alpha))

    @property
    def upper(self) -> float:
        """Wald's upper bound, ``ln((1 - beta) / alpha)``: H1 is accepted at or above it."""
        return math.log((1 - self.beta) / self.alpha)

    def llrs(self, counts: NDArray[np.float64]) -> NDArray[np.float64]:
        """The LLR (see the module's docstring) of every row of pentanomial ``counts``, an array
        of shape ``(..., 5)``: vectorised, to follow many tests or every step of one.

        >>> SPRT(0, 10).llrs(np.array([[0, 0, 0, 0, 0], [0, 0, 100, 0, 0]])).round(2)
        array([ 0.  , -2.91])
        """
        weights = np.where(counts == 0, REGULARISATION, counts)
        shares = weights / weights.sum(axis=-1, keepdims=True)
        logs = []
        for elo in (self.elo0, self.elo1):
            gaps = np.array(PAIR_SCORES) - expected_score(elo)
            theta = _secular_root(shares, gaps)
            logs.append((shares * np.log1p(theta[..., None] * gaps)).sum(axis=-1))
        llr: NDArray[np.float64] = counts.sum(axis=-1) * (logs[0] - logs[1]) + 0.0  # no -0.0
        return llr

    def llr(self, counts: Sequence[float]) -> float:
        """The LLR of pentanomial ``counts`` (pairs scored 0, 1/4, 1/2, 3/4 and 1 by A): 0 with
        no pairs; :class:`SpecError` unless they are 5 finite numbers, none negative."""
        array = np.asarray(counts, dtype=float)
        if array.shape != (len(PAIR_SCORES),) or not np.all(np.isfinite(array) & (array >= 0)):
            raise SpecError(f"pentanomial counts are 5 numbers, none negative, got {counts!r}")
        return float(self.llrs(array))

    def status(self, counts: Sequence[float]) -> SPRTStatus:
        """The test's decision on pentanomial ``counts``: H1 at or above :attr:`upper`, H0 at or
        below :attr:`lower`, otherwise ``continue``."""
        llr = self.llr(counts)
        if llr >= self.upper:
            return SPRTStatus("accepted H1", llr)
        if llr <= self.lower:
            return SPRTStatus("accepted H0", llr)
        return SPRTStatus("continue", llr)


def parse_sprt(text: str) -> SPRT:
    """The test ``ELO0,ELO1`` or ``ELO0,ELO1,ALPHA,BETA`` (alpha and beta default to 0.05).

    >>> parse_sprt("-5, 5, 0.1, 0.2")
    SPRT(elo0=-5.0, elo1=5.0, alpha=0.1, beta=0.2)
    >>> parse_sprt("0,x")
    Traceback (most recent call last):
    ...
    plies.errors.SpecError: SPRT bounds are ELO0,ELO1[,ALPHA,BETA]: 'x' is not a number
    """
    parts = [part.strip() for part in text.split(",")]
    if len(parts) not in (2, 4):
        raise SpecError(f"SPRT bounds are ELO0,ELO1[,ALPHA,BETA], got {text!r}")
    numbers = []
    for part in parts:
        try:
            numbers.append(float(part))
        except ValueError:
            raise SpecError(
                f"SPRT bounds are ELO0,ELO1[,ALPHA,BETA]: {part!r} is not a number"
            ) from None
    return SPRT(*numbers)
