"""Ratings: exact two-player cases, the prior, anchoring, the bootstrap's coverage of known
strengths on simulated pools, the table, the plot, and errors."""

from __future__ import annotations

import itertools
import math
from pathlib import Path

import numpy as np
import pytest

from plies.arena.match import elo_difference
from plies.arena.ratings import (
    STANDINGS_HEADER,
    Result,
    expected_score,
    fit_ratings,
    format_standings,
    plot_ratings,
    rating_intervals,
    standings_rows,
)
from plies.errors import OutputError, PliesError, RenderError, SpecError, UnknownNameError

TRUE_ELO = {"a": -300.0, "b": -180.0, "c": -60.0, "d": 60.0, "e": 180.0, "f": 300.0}
FIRST_MOVE = 35.0


def simulate(seed: int, pairs: int = 8, draws: float = 0.3) -> list[Result]:
    """A round robin of ``pairs`` game pairs per pairing, drawn from the logistic model with a
    first-move advantage; draws are likeliest between equals (``draws`` of the games then)."""
    rng = np.random.default_rng(seed)
    results = []
    for one, other in itertools.combinations(TRUE_ELO, 2):
        for pair in range(pairs):
            for first, second in ((one, other), (other, one)):
                expected = expected_score(TRUE_ELO[first] - TRUE_ELO[second] + FIRST_MOVE)
                draw = draws * 4 * expected * (1 - expected)
                u = rng.random()
                score = 1.0 if u < expected - draw / 2 else 0.5 if u < expected + draw / 2 else 0.0
                results.append(Result(first, second, score, (one, other, pair)))
    return results


def paired(scores: list[tuple[float, float]], a: str = "a", b: str = "b") -> list[Result]:
    """Pairs of ``a`` against ``b``, each given as a's score as first, then as second."""
    return [
        game
        for pair, (as_first, as_second) in enumerate(scores)
        for game in (Result(a, b, as_first, pair), Result(b, a, 1 - as_second, pair))
    ]


# Exact and obvious cases ----------------------------------------------------------------------


def test_expected_score_inverts_elo_difference() -> None:
    for score in (0.1, 0.25, 0.5, 0.75, 0.99):
        assert expected_score(elo_difference(score)) == pytest.approx(score)


def test_an_even_score_gives_equal_ratings() -> None:
    ratings = fit_ratings(paired([(1.0, 0.0), (0.5, 0.5), (0.0, 1.0)] * 5))
    assert ratings.elo["a"] == pytest.approx(0.0, abs=1e-9)
    assert ratings.elo["b"] == pytest.approx(0.0, abs=1e-9)
    assert ratings.first_move == pytest.approx(0.0, abs=1e-9)


def test_three_quarters_is_match_py_s_190_8() -> None:
    # a scores 75% with either colour; the prior's single draw moves 400 games by ~0.3 Elo
    ratings = fit_ratings(paired([(1.0, 0.5), (0.5, 1.0)] * 100), anchor="b")
    assert ratings.elo["a"] == pytest.approx(elo_difference(0.75), abs=0.5)
    assert ratings.elo["a"] < elo_difference(0.75)  # shrunk towards the pool, never away
    assert ratings.first_move == pytest.approx(0.0, abs=1e-6)


def test_the_first_move_advantage_is_fitted() -> None:
    # whoever moves first scores 75%: no one is stronger, the first move is worth 190.8
    ratings = fit_ratings(paired([(1.0, 0.0), (0.5, 0.5)] * 100))
    assert ratings.elo["a"] == pytest.approx(0.0, abs=1e-6)
    assert ratings.first_move == pytest.approx(elo_difference(0.75), abs=1.0)
    assert fit_ratings(paired([(1.0, 0.0), (0.5, 0.5)]), first_move=False).first_move == 0.0


def test_all_wins_and_all_losses_stay_finite() -> None:
    results = paired([(1.0, 1.0)] * 10, "top", "x") + paired([(1.0, 1.0)] * 10, "top", "y")
    results += paired([(0.5, 1.0), (0.0, 0.5)] * 5, "x", "y")
    ratings = fit_ratings(results)
    assert all(math.isfinite(elo) for elo in ratings.elo.values())
    assert ratings.elo["top"] > ratings.elo["x"] + 300
    # the first player winning every game bounds the first-move advantage too
    assert math.isfinite(fit_ratings(paired([(1.0, 0.0)] * 20)).first_move)
    table = rating_intervals(results, samples=50)
    assert [row.name for row in table.players if row.clamped] == ["top"]


def test_anchoring_shifts_every_rating_alike() -> None:
    results = simulate(seed=1)
    free = fit_ratings(results)
    assert sum(free.elo.values()) == pytest.approx(0.0, abs=1e-9)
    anchored = fit_ratings(results, anchor="c", anchor_elo=1500.0)
    assert anchored.elo["c"] == 1500.0
    for name, elo in free.elo.items():
        assert anchored.elo[name] - anchored.elo["a"] == pytest.approx(elo - free.elo["a"])
    pooled = fit_ratings(results, anchor_elo=1000.0)
    assert sum(pooled.elo.values()) / len(pooled.elo) == pytest.approx(1000.0)


# The bootstrap ---------------------------------------------------------------------------------


def test_intervals_cover_the_true_ratings_at_about_95_percent() -> None:
    covered = []
    for seed in range(20):
        table = rating_intervals(simulate(seed), anchor="a", anchor_elo=TRUE_ELO["a"], seed=seed)
        assert table.first_move_low <= table.first_move <= table.first_move_high
        for row in table.players:
            assert row.low <= row.elo <= row.high
            if row.name != "a":  # the anchor's interval is the point anchor_elo
                covered.append(row.low <= TRUE_ELO[row.name] <= row.high)
    coverage = sum(covered) / len(covered)
    assert 0.85 <= coverage <= 1.0, coverage


def test_the_table_is_ranked_with_likelihoods_of_superiority() -> None:
    results = simulate(seed=3, pairs=20)
    table = rating_intervals(results, samples=200, seed=3)
    assert [row.name for row in table.players] == ["f", "e", "d", "c", "b", "a"]
    assert table.players[-1].los is None
    assert all(row.los is not None and 0.5 <= row.los <= 1.0 for row in table.players[:-1])
    assert all(row.games == 200 for row in table.players)
    assert sum(row.points for row in table.players) == len(results)  # a point per game
    assert table.players[0].score == table.players[0].points / 200
    assert rating_intervals(results, samples=200, seed=3) == table  # the seed alone decides


def test_the_anchor_s_interval_is_its_rating() -> None:
    table = rating_intervals(simulate(seed=4), anchor="d", anchor_elo=10.0, samples=100)
    row = next(row for row in table.players if row.name == "d")
    assert row.low == row.elo == row.high == 10.0


# Output ----------------------------------------------------------------------------------------


def test_standings_rows_and_text() -> None:
    table = rating_intervals(simulate(seed=5, pairs=2), samples=50)
    rows = standings_rows(table)
    assert len(rows) == 6 and all(len(row) == len(STANDINGS_HEADER) for row in rows)
    assert rows[0][0] == "1" and rows[0][1] == table.players[0].name
    assert rows[-1][-1] == ""
    text = format_standings(table).splitlines()
    assert [cell.strip() for cell in text[0].split("  ") if cell.strip()] == [*STANDINGS_HEADER]
    assert len(text) == 2 + 6 + 1 and text[-1].startswith("first-move advantage:")


def test_plot_ratings_writes_a_png(tmp_path: Path) -> None:
    table = rating_intervals(simulate(seed=6, pairs=2), samples=50)
    target = tmp_path / "ratings.png"
    plot_ratings(table, target)
    assert target.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    with pytest.raises(RenderError, match=r"name a \.png file"):
        plot_ratings(table, tmp_path / "ratings.svg")
    with pytest.raises(OutputError, match="no directory"):
        plot_ratings(table, tmp_path / "missing" / "ratings.png")


# Errors ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("first", "second", "score", "message"),
    [
        ("a", "a", 1.0, "cannot play itself"),
        ("a", "b", 0.3, "must be 0, 0.5 or 1"),
        ("a", "b", math.nan, "must be 0, 0.5 or 1"),
        ("a", "b", 2.0, "must be 0, 0.5 or 1"),
    ],
)
def test_bad_results(first: str, second: str, score: float, message: str) -> None:
    with pytest.raises(SpecError, match=message):
        Result(first, second, score, 0)


def test_bad_requests() -> None:
    results = paired([(1.0, 0.5)])
    with pytest.raises(PliesError, match="no games"):
        fit_ratings([])
    with pytest.raises(UnknownNameError, match="'z' played no game"):
        fit_ratings(results, anchor="z")
    with pytest.raises(SpecError, match="finite"):
        fit_ratings(results, anchor_elo=math.inf)
    with pytest.raises(SpecError, match="finite"):
        rating_intervals(results, anchor="a", anchor_elo=math.nan)
    with pytest.raises(SpecError, match="at least 1 sample"):
        rating_intervals(results, samples=0)
    with pytest.raises(SpecError, match="seed must be at least 0"):
        rating_intervals(results, seed=-1)
    apart = results + paired([(1.0, 0.5)], "c", "d")
    with pytest.raises(PliesError, match="'c', 'd' never met 'a'"):
        fit_ratings(apart)
