"""The SPRT: Wald's bounds, the GSPRT's LLR, the designed error rates on simulated matches,
pentanomial counting, parsing, and errors."""

from __future__ import annotations

import math

import numpy as np
import pytest

from plies.arena.ratings import expected_score
from plies.arena.sprt import SPRT, SPRTStatus, parse_sprt, pentanomial
from plies.errors import SpecError

PAIRS = np.array([0.0, 0.25, 0.5, 0.75, 1.0])


def pentanomial_probabilities(elo: float, draws: float = 0.4) -> np.ndarray:
    """The five pair outcomes of two independent games, each scoring ``expected_score(elo)``
    with ``draws`` of them drawn."""
    score = expected_score(elo)
    game = np.array([1 - score - draws / 2, draws, score - draws / 2])  # loss, draw, win
    return np.convolve(game, game)


def decisions(test: SPRT, elo: float, runs: int, most: int, seed: int) -> tuple[float, float]:
    """The shares of ``runs`` simulated tests (at most ``most`` pairs each) of A ``elo`` points
    stronger that accept H1 and H0, each test stopping at the first bound its LLR reaches."""
    rng = np.random.default_rng(seed)
    outcomes = rng.choice(5, size=(runs, most), p=pentanomial_probabilities(elo))
    llr = test.llrs(np.cumsum(np.eye(5)[outcomes], axis=1))
    firsts = []
    for crossed in (llr >= test.upper, llr <= test.lower):
        firsts.append(np.where(crossed.any(axis=1), crossed.argmax(axis=1), most))
    h1, h0 = firsts
    assert np.all(np.minimum(h1, h0) < most), "a test ran out of pairs"
    return float(np.mean(h1 < h0)), float(np.mean(h0 < h1))


def test_wald_s_bounds() -> None:
    test = SPRT(0, 5, alpha=0.05, beta=0.1)
    assert test.lower == pytest.approx(math.log(0.1 / 0.95))
    assert test.upper == pytest.approx(math.log(0.9 / 0.05))
    assert SPRT(0, 5).upper == pytest.approx(-SPRT(0, 5).lower) == pytest.approx(2.944, abs=1e-3)


def test_no_pairs_no_evidence() -> None:
    test = SPRT(-5, 5)
    assert test.llr([0, 0, 0, 0, 0]) == 0.0
    assert test.status([0, 0, 0, 0, 0]) == SPRTStatus("continue", 0.0)


def test_the_llr_points_the_right_way() -> None:
    test = SPRT(0, 10)
    equal = pentanomial_probabilities(0.0) * 5000
    stronger = pentanomial_probabilities(20.0) * 5000
    assert test.llr(equal.tolist()) < test.lower
    assert test.llr(stronger.tolist()) > test.upper
    assert test.status(equal.tolist()).state == "accepted H0"
    assert test.status(stronger.tolist()).state == "accepted H1"
    assert test.status((pentanomial_probabilities(5.0) * 100).tolist()).state == "continue"
    # at the halfway point the evidence is balanced: the LLR stays near 0
    assert abs(test.llr((pentanomial_probabilities(5.0) * 2000).tolist())) < 0.1


def test_the_llr_is_the_exact_gsprt() -> None:
    # fishtest's LLR_logistic for the same counts (regularised, N = the real number of pairs)
    counts = [10, 50, 100, 40, 8]
    shares = np.array(counts) / sum(counts)
    llr = 0.0
    for sign, elo in ((-1, 0.0), (1, 50.0)):
        gaps = PAIRS - expected_score(elo)
        low, high = -1 / gaps.max(), -1 / gaps.min()
        for _ in range(200):  # bisection on the secular equation
            theta = (low + high) / 2
            if np.sum(shares * gaps / (1 + theta * gaps)) > 0:
                low = theta
            else:
                high = theta
        llr += sign * sum(counts) * float(np.sum(shares * np.log(shares / (1 + theta * gaps))))
    assert SPRT(0, 50).llr(counts) == pytest.approx(llr, abs=1e-6)
    assert SPRT(0, 50).llrs(np.array([counts, counts], dtype=float)) == pytest.approx([llr, llr])


@pytest.mark.parametrize("nominal", [0.05, 0.1])
def test_error_rates_are_as_designed(nominal: float) -> None:
    runs = 400
    test = SPRT(0, 40, alpha=nominal, beta=nominal)
    false_h1, _ = decisions(test, 0.0, runs, most=1000, seed=1)
    _, false_h0 = decisions(test, 40.0, runs, most=1000, seed=2)
    noise = 3 * math.sqrt(nominal * (1 - nominal) / runs)
    for observed in (false_h1, false_h0):
        assert nominal / 3 <= observed <= nominal + noise, (false_h1, false_h0)
    strong, _ = decisions(test, 80.0, runs, most=1000, seed=3)
    assert strong >= 0.99


def test_pentanomial_counts() -> None:
    pairs = [(0, 0), (0, 0.5), (0.5, 0), (1, 0), (0.5, 0.5), (0.5, 1), (1, 1)]
    assert pentanomial(pairs) == (1, 2, 2, 1, 1)
    assert pentanomial([]) == (0, 0, 0, 0, 0)
    with pytest.raises(SpecError, match=r"two scores of 0, 0\.5 or 1"):
        pentanomial([(1, 0.25)])


def test_parse_sprt() -> None:
    assert parse_sprt("0,5") == SPRT(0.0, 5.0, 0.05, 0.05)
    assert parse_sprt(" -2.5 , 2.5 , 0.1 , 0.2 ") == SPRT(-2.5, 2.5, 0.1, 0.2)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "ELO0,ELO1"),
        ("5", "ELO0,ELO1"),
        ("0,5,0.1", "ELO0,ELO1"),
        ("0,5,0.1,0.1,0.1", "ELO0,ELO1"),
        ("0,five", "'five' is not a number"),
        ("0,,", "ELO0,ELO1"),
        ("nan,5", "elo0 must be a number from -1000 to 1000"),
        ("0,inf", "elo1 must be a number from -1000 to 1000"),
        ("0,2000", "elo1 must be a number from -1000 to 1000"),
        ("5,0", "elo0 must be below elo1"),
        ("5,5", "elo0 must be below elo1"),
        ("0,5,0,0.05", "alpha must lie strictly between 0 and 1"),
        ("0,5,0.05,1", "beta must lie strictly between 0 and 1"),
        ("0,5,nan,0.05", "alpha must lie strictly between 0 and 1"),
        ("0,5,0.6,0.5", "alpha \\+ beta must be below 1"),
    ],
)
def test_bad_sprt(text: str, message: str) -> None:
    with pytest.raises(SpecError, match=message):
        parse_sprt(text)


@pytest.mark.parametrize("counts", [[1, 2, 3, 4], [1, 2, 3, 4, -5], [1, 2, 3, 4, math.nan]])
def test_bad_counts(counts: list[float]) -> None:
    with pytest.raises(SpecError, match="pentanomial counts are 5 numbers"):
        SPRT(0, 5).llr(counts)
