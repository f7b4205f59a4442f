"""Matches: Elo arithmetic, paired openings with swapped colours, determinism, strength, errors."""

from __future__ import annotations

import json
import math
from typing import Any

import pytest

from plies.agents.registry import AGENTS, AgentKind
from plies.arena.match import (
    GameOutcome,
    MatchResult,
    default_opening_plies,
    elo_difference,
    run_match,
    summarise,
    to_json,
)
from plies.arena.tournament import opening_state
from plies.errors import PliesError, SpecError, UnknownNameError
from plies.games import make_game
from plies.openings import random_openings
from plies.testing import take_away


def outcomes_of(results: list[float]) -> list[GameOutcome]:
    return [
        GameOutcome(index=i, opening=i // 2, a_player="XO"[i % 2], result=r, moves=5, seconds=0.0)
        for i, r in enumerate(results)
    ]


# Elo arithmetic --------------------------------------------------------------------------------


def test_even_score_is_zero_elo() -> None:
    result = MatchResult(wins=3, draws=4, losses=3)
    assert result.games == 10
    assert result.score == 0.5
    assert result.elo == 0.0
    assert result.elo_low == pytest.approx(-result.elo_high)


def test_three_quarters_is_190_8() -> None:
    # -400 log10(1/0.75 - 1) = 400 log10(3) = 190.85
    result = MatchResult(wins=10, draws=4, losses=2)
    assert result.score == 0.75
    assert result.elo == pytest.approx(400 * math.log10(3))
    assert to_json(result)["elo"] == 190.8
    assert elo_difference(0.25) == pytest.approx(-190.85, abs=0.01)


def test_interval_by_hand() -> None:
    # Wilson, W=10, D=4, L=2: N=16, p=0.75, z^2=3.8416; centre 0.75 + 3.8416/32 = 0.87005,
    # spread 1.96 sqrt(0.1875/16 + 3.8416/1024) = 0.24379, divisor 1 + 3.8416/16 = 1.2401:
    # 0.50501 .. 0.89818, i.e. +3.5 .. +378.2 Elo.
    result = MatchResult(wins=10, draws=4, losses=2)
    assert to_json(result)["elo_low"] == 3.5
    assert to_json(result)["elo_high"] == 378.2


@pytest.mark.parametrize("wdl", [(5, 2, 1), (3, 0, 7), (1, 8, 1), (40, 10, 50)])
def test_interval_contains_elo(wdl: tuple[int, int, int]) -> None:
    result = MatchResult(*wdl)
    assert result.elo_low <= result.elo <= result.elo_high
    assert result.elo_low < result.elo_high


def test_interval_narrows_with_more_games() -> None:
    few, many = MatchResult(6, 2, 2), MatchResult(60, 20, 20)
    assert few.elo == pytest.approx(many.elo)
    assert few.elo_high - few.elo_low > many.elo_high - many.elo_low
    assert few.elo_low < many.elo_low and many.elo_high < few.elo_high


def test_perfect_scores_are_clamped_to_half_a_game() -> None:
    perfect = MatchResult(wins=10, draws=0, losses=0)
    # As if 9.5 of 10: 400 log10(0.95 / 0.05) = 511.5
    assert perfect.score == 1.0
    assert perfect.elo == pytest.approx(400 * math.log10(19))
    # The Wilson interval stays informative: 10 of 10 proves at least p = 0.7225 (+166.2).
    assert to_json(perfect)["elo_low"] == 166.2
    assert perfect.elo_high == perfect.elo
    zero = MatchResult(wins=0, draws=0, losses=10)
    assert zero.elo == pytest.approx(-perfect.elo)
    # Nearly perfect: the upper end of the interval is clamped too.
    nearly = MatchResult(wins=9, draws=1, losses=0)
    assert nearly.elo_high == pytest.approx(perfect.elo)
    for result in (perfect, zero, nearly, MatchResult(1, 0, 0)):
        data = to_json(result)
        assert all(math.isfinite(data[key]) for key in ("elo", "elo_low", "elo_high"))
        json.dumps(data, allow_nan=False)
    assert MatchResult(1, 0, 0).elo == 0.0


def test_no_games_is_all_zero() -> None:
    data = to_json(summarise([]), complete=False)
    assert data == {
        "games": 0,
        "wins": 0,
        "draws": 0,
        "losses": 0,
        "score": 0.5,
        "elo": 0.0,
        "elo_low": 0.0,
        "elo_high": 0.0,
        "clamped": False,
        "complete": False,
    }


def test_summarise_counts_results() -> None:
    result = summarise(outcomes_of([1.0, 0.5, 0.0, 1.0, 1.0, 0.5]))
    assert (result.games, result.wins, result.draws, result.losses) == (6, 3, 2, 1)
    data = to_json(result, complete=True)
    assert set(data) == {
        "games",
        "wins",
        "draws",
        "losses",
        "score",
        "elo",
        "elo_low",
        "elo_high",
        "clamped",
        "complete",
    }
    assert data["score"] == 0.6667
    assert data["complete"] is True
    even = to_json(MatchResult(3, 0, 3))
    assert even["elo"] == 0.0 and math.copysign(1, even["elo"]) == 1  # 0.0, never -0.0


# Openings ------------------------------------------------------------------------------------


def test_openings_are_distinct_live_and_reproducible() -> None:
    game = make_game("connect4")
    openings = random_openings(game, 10, 2, seed=7)
    assert len(openings) == 10
    assert len({o.text for o in openings}) == 10
    assert not any(game.is_terminal(o.state) for o in openings)
    assert random_openings(game, 10, 2, seed=7) == openings
    assert random_openings(game, 10, 2, seed=8) != openings


def test_openings_give_up_when_there_are_too_few() -> None:
    game = make_game("tictactoe")
    assert len(random_openings(game, 50, 1, seed=0)) == 9
    assert [(o.text, o.state) for o in random_openings(game, 5, 0, seed=0)] == [
        ("", game.initial_state())
    ]


def test_openings_skip_walks_that_end_the_game() -> None:
    # Nim with one heap of 2: a walk of 2 plies can end the game (take 2 at once) or not (1, 1).
    game = make_game("nim:heaps=3")
    openings = random_openings(game, 5, 2, seed=0)
    assert openings and not any(game.is_terminal(o.state) for o in openings)
    with pytest.raises(SpecError, match="no opening of 3 random plies"):
        random_openings(game, 5, 3, seed=0)


def test_openings_replay_to_their_state_and_draw_nature_unwritten() -> None:
    # The text is what a tournament record stores; nature's outcomes are drawn, not written.
    game = make_game("connect4")
    for opening in random_openings(game, 4, 3, seed=2):
        assert opening_state(game, opening.text) == opening.state
    backgammon = make_game("backgammon")
    for opening in random_openings(backgammon, 3, 2, seed=0):
        assert len(opening.text.split("/")) > 1 and not backgammon.is_terminal(opening.state)


def test_default_opening_plies() -> None:
    assert default_opening_plies(make_game("tictactoe")) == 1
    assert default_opening_plies(make_game("checkers")) == 4
    other = take_away(5)
    assert default_opening_plies(other) == 2
    # Not a WinLossDrawGame: scored by comparing utilities. Take-away from 5 is a first-player
    # win, so perfect play wins as A plays first and loses as A plays second.
    outcomes = list(run_match(other, "alphabeta", "alphabeta", 4, opening_plies=0))
    assert [(o.a_player, o.result) for o in outcomes] == [("A", 1.0), ("B", 0.0)] * 2


# Matches -------------------------------------------------------------------------------------


def test_colours_alternate_and_pairs_share_openings() -> None:
    game = make_game("connect4")
    outcomes = list(run_match(game, "random", "random", 7, seed=3))
    assert [o.index for o in outcomes] == list(range(7))
    assert [o.a_player for o in outcomes] == ["X", "O", "X", "O", "X", "O", "X"]
    assert [o.opening for o in outcomes] == [0, 0, 1, 1, 2, 2, 3]
    assert all(o.result in (0.0, 0.5, 1.0) and o.moves > 0 for o in outcomes)
    # Random agents are seeded per game: the games differ.
    assert len({(o.moves, o.result) for o in outcomes}) > 1


def test_openings_are_reused_when_the_game_has_few() -> None:
    outcomes = list(run_match(make_game("nim"), "random", "random", 6, seed=0))
    assert [o.opening for o in outcomes] == [0] * 6
    assert {o.a_player for o in outcomes} == {"A", "B"}


def test_same_seed_same_match() -> None:
    game = make_game("tictactoe")

    def played(seed: int) -> list[tuple[int, int, str, float, int]]:
        return [
            (o.index, o.opening, o.a_player, o.result, o.moves)
            for o in run_match(game, "random", "random", 12, seed=seed)
        ]

    assert played(5) == played(5)
    assert played(5) != played(6)


def test_alphabeta_never_loses_to_random_at_tictactoe() -> None:
    outcomes = list(run_match(make_game("tictactoe"), "alphabeta", "random", 10, seed=0))
    result = summarise(outcomes)
    assert result.games == 10
    assert result.losses == 0
    assert result.wins + result.draws == 10
    assert result.elo > 0


def test_partial_match_is_summarised() -> None:
    match = run_match(make_game("tictactoe"), "random", "random", 100, seed=0)
    first = [next(match) for _ in range(3)]
    assert summarise(first).games == 3


# Errors --------------------------------------------------------------------------------------


@pytest.mark.parametrize("games", [0, -1])
def test_too_few_games(games: int) -> None:
    with pytest.raises(SpecError, match="at least 1 game"):
        run_match(make_game("tictactoe"), "random", "random", games)


def test_negative_opening_plies() -> None:
    with pytest.raises(SpecError, match="opening plies"):
        run_match(make_game("tictactoe"), "random", "random", 2, opening_plies=-1)
    with pytest.raises(SpecError, match="opening plies"):
        random_openings(make_game("tictactoe"), 2, -1, seed=0)


def test_bad_specs_fail_before_the_first_game() -> None:
    game = make_game("tictactoe")
    with pytest.raises(UnknownNameError, match="unknown agent 'alfabeta'"):
        run_match(game, "random", "alfabeta", 2)
    with pytest.raises(SpecError, match="depth"):
        run_match(game, "alphabeta:depth=zero", "random", 2)


def test_too_many_opening_plies() -> None:
    with pytest.raises(SpecError, match="no opening of 20 random plies"):
        run_match(make_game("tictactoe"), "random", "random", 2, opening_plies=20)


@pytest.mark.parametrize(("games", "opening_plies"), [(0, None), (2, -3), (2, 20)])
def test_errors_are_one_line(games: int, opening_plies: int | None) -> None:
    with pytest.raises(SpecError) as error:
        run_match(make_game("tictactoe"), "random", "random", games, opening_plies=opening_plies)
    assert "\n" not in str(error.value)


# On the arena's machinery -----------------------------------------------------------------------


def test_a_failing_agent_forfeits_its_games(monkeypatch: pytest.MonkeyPatch) -> None:
    class Failing:
        name, last = "failing", None

        def __call__(self, game: Any, state: Any) -> Any:
            raise PliesError("engine crashed")

        def reset(self, seed: int | None = None) -> None:
            pass

    monkeypatch.setitem(AGENTS, "failing", AgentKind("failing", "fails", (), lambda *_: Failing()))
    outcomes = list(run_match(make_game("tictactoe"), "random", "failing", 4, seed=1))
    assert [o.result for o in outcomes] == [1.0] * 4


def test_a_chance_game_is_played_from_random_openings() -> None:
    outcomes = list(run_match(make_game("backgammon"), "random", "random", 2, seed=0))
    assert [o.a_player for o in outcomes] == ["White", "Black"]
    assert all(o.moves > 0 and o.result in (0.0, 1.0) for o in outcomes)
