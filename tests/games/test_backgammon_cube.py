"""Backgammon's doubling cube and match play: the rules (who may double, take and drop, the
Jacoby rule, beavers, the Crawford rule, a match as one game), their notation, Janowski's
cubeful equities against the textbook take points, the Kazaross XG2 match equity table against
its published entries, and the engine's cube decisions on clear positions."""

from __future__ import annotations

import random
import re

import pytest

from plies.agents import make_agent
from plies.errors import IllegalMoveError, InvalidPositionError, SpecError
from plies.game import CHANCE
from plies.games.backgammon import cube
from plies.games.backgammon import engine_native as engine
from plies.games.backgammon.rules import (
    BLACK,
    DOUBLED,
    MAX_CUBE,
    ROLLING,
    WHITE,
    Backgammon,
    BackgammonState,
    Roll,
)
from plies.registry import game_identity, game_spec, make_game
from plies.search.expectimax import expectiminimax
from plies.testing import check_game

MONEY, JACOBY = Backgammon(cube=True), Backgammon(cube=True, jacoby=True, beavers=True)
MATCH = Backgammon(match=5)
START = "W 24:2 13:5 8:3 6:5 / B 24:2 13:5 8:3 6:5"
RACE = "W 6:2 5:2 4:2 3:1 off:8 / B 6:2 5:2 4:2 3:2 off:7"
"""A bear-off White wins 76% of the time (the exact two-sided database's chance, whatever the
network): a double and a take in money play."""
CERTAIN = "W 6:2 5:2 4:2 3:2 2:2 1:2 off:3 / B 6:3 5:3 4:3 3:3 2:2 off:1"
"""A bear-off White wins 94% of the time, no gammon left: a double and a drop."""
HOPELESS = "W 24:2 13:5 8:3 6:5 / B 6:3 5:3 4:3 3:3 2:3"
"""White is far behind with gammons against it."""


def _play(game: Backgammon, state: BackgammonState, *moves: str) -> BackgammonState:
    for text in moves:
        state = game.result(state, game.parse_action(state, text))
    return state


def _after_opening(game: Backgammon) -> BackgammonState:
    """White has played its opening 3-1; Black is to roll."""
    return _play(game, game.initial_state(), "White 3-1", "8/5 6/5")


# Options -----------------------------------------------------------------------------------------


def test_the_defaults_are_money_play_without_the_cube() -> None:
    game = make_game("backgammon")
    assert isinstance(game, Backgammon) and not game.cubeful
    assert game.value_bounds == (-3.0, 3.0)
    state = _after_opening(game)
    assert game.to_move(state) == CHANCE
    assert game.format_position(state).endswith("/ B to roll")
    with pytest.raises(IllegalMoveError, match="no doubling cube"):
        game.parse_action(state, "double")
    with pytest.raises(InvalidPositionError, match="no doubling cube"):
        game.parse_position(f"{START} / W to roll / cube 1")


def test_options_are_read_written_and_checked() -> None:
    assert (
        game_spec(make_game("backgammon")) == game_identity(make_game("backgammon")) == "backgammon"
    )
    assert game_spec(make_game("backgammon:match=7,cube=false")) == "backgammon:match=7"
    assert make_game("backgammon:cube=true").value_bounds == (-3 * MAX_CUBE, 3 * MAX_CUBE)
    assert make_game("backgammon:match=7").value_bounds == (-1, 1)
    assert repr(JACOBY) == "Backgammon(cube=True, jacoby=True, beavers=True)"
    for spec, message in (
        ("backgammon:match=26", "match must be at most 25"),
        ("backgammon:match=-1", "match must be at least 0"),
        ("backgammon:jacoby=true", "jacoby=true is for money play with the cube"),
        ("backgammon:match=5,beavers=true", "beavers=true is for money play with the cube"),
    ):
        with pytest.raises(SpecError, match=message):
            make_game(spec)
    with pytest.raises(SpecError, match="1 to 25 points"):
        Backgammon(match=30)
    assert MONEY.with_evaluation("hand").cube and MATCH.with_evaluation("hand").match == 5


# Who may double ----------------------------------------------------------------------------------


def test_the_centred_cube_is_a_decision_before_the_roll_not_before_the_opening() -> None:
    assert MONEY.to_move(MONEY.initial_state()) == CHANCE
    state = _after_opening(MONEY)
    assert MONEY.to_move(state) == "Black"
    assert MONEY.actions(state) == ["roll", "double"]
    assert MONEY.chance_outcomes(state) == []
    rolling = MONEY.result(state, "roll")
    assert rolling.stage == ROLLING and MONEY.to_move(rolling) == CHANCE
    assert len(MONEY.chance_outcomes(rolling)) == 21
    rolled = MONEY.result(rolling, Roll(6, 5))
    assert MONEY.to_move(rolled) == "Black" and rolled.dice == (6, 5)


def test_a_take_gives_the_cube_to_the_taker_who_alone_may_redouble() -> None:
    state = MONEY.result(_after_opening(MONEY), "double")
    assert state.stage == DOUBLED and MONEY.to_move(state) == "White"
    assert MONEY.actions(state) == ["take", "drop"]
    taken = MONEY.result(state, "take")
    assert (taken.cube, taken.owner, taken.stage) == (2, WHITE, ROLLING)
    assert MONEY.to_move(taken) == CHANCE  # Black, the doubler, rolls
    black_moved = _play(MONEY, taken, "6-5", "24/13")
    assert MONEY.to_move(black_moved) == "White" and MONEY.actions(black_moved) == [
        "roll",
        "double",
    ]
    white_moved = _play(MONEY, black_moved, "roll", "2-1", "13/11 6/5")
    assert MONEY.to_move(white_moved) == CHANCE  # Black does not own the cube
    redoubled = _play(MONEY, black_moved, "double", "take")
    assert (redoubled.cube, redoubled.owner) == (4, BLACK)


def test_a_drop_ends_the_game_for_the_cube_before_the_double() -> None:
    state = _play(MONEY, _after_opening(MONEY), "double", "take", "6-5", "24/13", "double")
    dropped = MONEY.result(state, "drop")
    assert MONEY.is_terminal(dropped) and MONEY.winner(dropped) == "White"
    assert MONEY.points_won(dropped) == 2
    assert MONEY.utility(dropped, "White") == 2 and MONEY.utility(dropped, "Black") == -2
    assert MONEY.format_position(dropped).endswith("/ B drops / cube 2 W")
    assert "Black drops, White wins 2" in MONEY.display(dropped)


def test_points_are_multiplied_by_the_cube_and_jacoby_counts_single_until_it_turns() -> None:
    gammon = "W off:15 / B 24:15 / B to roll"
    for game, cube_part, points in (
        (MONEY, "cube 1", 3),
        (MONEY, "cube 4 B", 12),
        (JACOBY, "cube 1", 1),
        (JACOBY, "cube 2 W", 6),
    ):
        state = game.parse_position(f"{gammon} / {cube_part}")
        assert game.is_terminal(state) and game.points_won(state) == points
        assert game.utility(state, "Black") == -points


def test_the_cube_stops_at_64_and_beavers_at_16() -> None:
    top = MONEY.parse_position(f"{START} / W to roll / cube 64 W")
    assert MONEY.to_move(top) == CHANCE and "highest" in MONEY._no_double(top)
    below = MONEY.parse_position(f"{START} / W to roll / cube 32 W")
    assert MONEY.actions(below) == ["roll", "double"]
    assert JACOBY.actions(JACOBY.parse_position(f"{START} / W doubles / cube 32 W")) == [
        "take",
        "drop",
    ]
    beaver = JACOBY.parse_position(f"{START} / W doubles / cube 1")
    assert JACOBY.actions(beaver) == ["take", "drop", "beaver"]
    after = JACOBY.result(beaver, "beaver")
    assert (after.cube, after.owner, after.stage, JACOBY.to_move(after)) == (4, BLACK, 1, CHANCE)
    assert after.mover == WHITE  # the doubler rolls


# Matches -----------------------------------------------------------------------------------------


def test_a_match_is_one_game_with_the_scores_carried_to_the_next_opening() -> None:
    state = _play(MATCH, _after_opening(MATCH), "double", "drop")
    assert not MATCH.is_terminal(state)
    assert state._replace(score=(0, 0)) == MATCH.initial_state()
    assert state.score == (0, 1) and MATCH.to_move(state) == CHANCE  # Black's double dropped
    won = MATCH.parse_position("W 1:1 off:14 / B 23:15 / W 2-1 / cube 2 B / match 5 W 2 B 3")
    final = MATCH.result(won, ((1, 0),))
    assert MATCH.is_terminal(final) and final.score == (2 + 3 * 2, 3)  # a backgammon at 2
    assert MATCH.utility(final, "White") == 1 and MATCH.utility(final, "Black") == -1
    assert MATCH.format_position(final).endswith("match 5 W 8 B 3")
    assert "match over: White wins a backgammon (6)" in MATCH.display(final)


def test_the_crawford_game_has_no_doubles_and_the_leader_never_doubles_after_it() -> None:
    state = MATCH.parse_position("W 1:1 off:14 / B 6:14 off:1 / W 2-1 / cube 1 / match 5 W 3 B 0")
    crawford = MATCH.result(state, ((1, 0),))  # a single game: White reaches 4, one short
    assert crawford.score == (4, 0) and crawford.crawford
    assert MATCH.format_position(crawford).endswith("/ opening / cube 1 / match 5 W 4 B 0 Crawford")
    in_it = _play(MATCH, crawford, "White 3-1", "8/5 6/5")
    assert MATCH.to_move(in_it) == CHANCE and "Crawford" in MATCH._no_double(in_it)
    lost = MATCH.parse_position(
        "W 6:14 off:1 / B 1:1 off:14 / B 2-1 / cube 1 / match 5 W 4 B 0 Crawford"
    )
    after = MATCH.result(lost, ((1, 0),))
    assert after.score == (4, 1) and not after.crawford  # post-Crawford
    black = MATCH.parse_position(f"{START} / B to roll / cube 1 / match 5 W 4 B 1")
    white = MATCH.parse_position(f"{START} / W to roll / cube 1 / match 5 W 4 B 1")
    assert MATCH.actions(black) == ["roll", "double"]
    assert MATCH.to_move(white) == CHANCE and "pointless" in MATCH._no_double(white)


def test_a_double_that_would_make_the_match_is_not_offered() -> None:
    state = MATCH.parse_position(f"{START} / W to roll / cube 2 W / match 5 W 2 B 0")
    assert MATCH.to_move(state) == "White"  # 2 + 2 is short of 5: a double to 4 is worth it
    state = MATCH.parse_position(f"{START} / W to roll / cube 2 W / match 5 W 3 B 0")
    assert MATCH.to_move(state) == CHANCE  # 3 + 2 makes the match already


def test_reaching_one_short_from_after_the_crawford_game_is_no_second_crawford() -> None:
    state = MATCH.parse_position("W 6:14 off:1 / B 1:1 off:14 / B 2-1 / cube 1 / match 5 W 4 B 3")
    after = MATCH.result(state, ((1, 0),))
    assert after.score == (4, 4) and not after.crawford
    assert MATCH.to_move(_play(MATCH, after, "White 3-1", "8/5 6/5")) == CHANCE  # both 1 away


# Notation ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("spec", "playouts"), [("backgammon:cube=true", 30), ("backgammon:match=5", 8)]
)
def test_conformance(spec: str, playouts: int) -> None:
    check_game(make_game(spec), seed=7, playouts=playouts, samples=150, max_plies=5000)


def test_positions_and_cube_actions_round_trip_in_random_games() -> None:
    rng = random.Random(3)
    for game in (MONEY, JACOBY, MATCH, Backgammon(match=1)):
        state = game.initial_state()
        for _ in range(600):
            if game.is_terminal(state):
                state = game.initial_state()
            text = game.format_position(state)
            assert game.format_position(game.parse_position(text)) == text
            actions = game.actions(state)
            for action in actions:
                if isinstance(action, str):
                    assert game.parse_action(state, f" {action.upper()} ") == action
            weights = [3.0 if action in ("take", "roll") else 1.0 for action in actions]
            state = game.result(state, rng.choices(actions, weights)[0])


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (f"{START} / W to roll / cube 3 W", "not the cube like"),
        (f"{START} / W to roll / cube 2", "not the cube like"),
        (f"{START} / W to roll / cube 1 W", "not the cube like"),
        (f"{START} / W to roll / cube 1 / cube 1", "given once"),
        (f"{START} / W to roll / match 7 W 0 B 0", "a match to 5 points, not 7"),
        (f"{START} / W to roll / match 5 W 1 B 0 crawford", "the Crawford game has a side at 4"),
        (f"{START} / W doubles / cube 2 B / match 5 W 0 B 0", "Black owns the cube"),
        (f"{START} / W doubles / cube 1 / match 5 W 4 B 0 crawford", "Crawford game"),
        (f"{START} / B drops / cube 1 / match 5 W 0 B 0", "next game's opening"),
        ("W off:15 / B 24:15 / B to roll / cube 1 / match 5 W 0 B 0", "but not the match"),
        (f"{START} / W to roll / cube 1 / match 5 W 5 B 0", "a match over ends"),
        (f"{START} / opening / cube 2 W / match 5 W 0 B 0", "the opening roll comes only"),
        (f"{START} / W sleeps", "'W rolls', 'W doubles', 'B drops'"),
        (f"{START} / W to roll / score 3", "is not the cube"),
    ],
)
def test_bad_positions_name_the_problem(text: str, message: str) -> None:
    with pytest.raises(InvalidPositionError, match=message) as caught:
        MATCH.parse_position(text)
    assert "\n" not in str(caught.value)


def test_cube_actions_are_refused_in_one_line_when_not_legal() -> None:
    decision = _after_opening(MONEY)
    rolling = MONEY.result(decision, "roll")
    rolled = MONEY.result(rolling, Roll(3, 1))
    for state, text, words in (
        (decision, "take", "Black chooses roll, double"),
        (decision, "3-1", "Black chooses roll, double"),
        (rolling, "double", "the roll is next (the cube is decided)"),
        (rolled, "Double", "Black moves the checkers with 3-1"),
        (MONEY.initial_state(), "double", "nobody doubles before the opening roll"),
        (MONEY.result(decision, "double"), "beaver", "White chooses take, drop"),
    ):
        with pytest.raises(IllegalMoveError, match=re.escape(words)) as caught:
            MONEY.parse_action(state, text)
        assert text in str(caught.value) and "\n" not in str(caught.value)
    with pytest.raises(IllegalMoveError, match="is not legal"):
        MONEY.result(decision, "drop")
    with pytest.raises(IllegalMoveError, match="Black chooses roll, double"):
        MONEY.result(decision, Roll(3, 1))


# Janowski's cubeful equity -----------------------------------------------------------------------


def _take_point(x: float, gammons: float = 0.0, losses: float = 0.0) -> float:
    """The taker's chance of winning where double/take equals double/drop, found by
    bisection on the doubler's chance: gammons ``gammons`` of the doubler's wins and
    ``losses`` of its losses."""
    low, high = 0.5, 1.0
    for _ in range(60):
        p = (low + high) / 2
        decision = cube.money_decision((p, gammons * p, 0, losses * (1 - p), 0), x, "centred")
        low, high = (p, high) if decision.double_take < decision.double_drop else (low, p)
    return 1 - low


def test_take_points_are_the_textbook_ones() -> None:
    """Without gammons a dead cube's take point is 25% and a fully live one's 20% (Janowski
    1993; Woolsey's and Robertie's books); at efficiency 0.68 Janowski's formula gives
    (1 - 1/2) / (1 + 1 + 0.34) = 21.37%."""
    assert _take_point(0.0) == pytest.approx(0.25, abs=1e-9)
    assert _take_point(1.0) == pytest.approx(0.20, abs=1e-9)
    assert _take_point(0.68) == pytest.approx(0.5 / 2.34, abs=1e-9) == pytest.approx(0.2137, 1e-3)
    # gammons: the doubler wins 20% of its wins and loses 10% of its losses as gammons
    assert _take_point(0.68, 0.2, 0.1) == pytest.approx(
        cube.janowski_take_point(1.1, 1.2, 0.68), abs=1e-9
    )


def test_money_equities_at_the_corners() -> None:
    no_gammons = (0.5, 0, 0, 0, 0)
    assert cube.money_equity(no_gammons, 0.68, "centred") == pytest.approx(0.0)
    assert cube.money_equity((1.0, 0, 0, 0, 0), 0.68, "theirs") == 1.0
    # a live cube's owner cashes from its cash point, 80% without gammons
    assert cube.live_equity((0.8, 0, 0, 0, 0), "mine") == pytest.approx(1.0)
    assert cube.live_equity((0.2, 0, 0, 0, 0), "theirs") == pytest.approx(-1.0)
    # too good to double: gammons make no double worth more than the drop
    assert not cube.money_decision((0.95, 0.7, 0.0, 0.0, 0.0), 0.68, "centred").double
    assert cube.money_decision((0.82, 0.0, 0, 0.0, 0), 0.68, "centred").double
    note = cube.money_decision((0.7, 0.1, 0, 0.05, 0), 0.68, "centred").note()
    assert note.startswith("no double +0.") and note.endswith("double/drop +1.000")


def test_jacoby_counts_gammons_single_while_centred() -> None:
    outputs = (0.6, 0.3, 0.0, 0.1, 0.0)
    assert cube.money_equity(outputs, 0.0, "centred", jacoby=True) == pytest.approx(0.2)
    assert cube.money_equity(outputs, 0.0, "centred") == pytest.approx(0.4)


# The match equity table --------------------------------------------------------------------------


def test_the_shipped_table_is_kazaross_xg2_with_its_published_entries() -> None:
    table = cube.match_table()
    assert table.name == "Kazaross XG2 25 point MET" and table.length == 25
    assert "Kazaross-XG2.xml" in table.source
    # (away, other away): the table's published chances, in percent as printed by gnubg
    assert table.equity(2, 3, False) == pytest.approx(0.59947)
    assert table.equity(2, 4, False) == pytest.approx(0.66870)
    assert table.equity(3, 2, False) == pytest.approx(1 - 0.59947)
    assert table.equity(1, 2, False) == pytest.approx(0.67736)  # the Crawford game's leader
    assert table.equity(2, 1, True) == pytest.approx(0.48803)  # post-Crawford trailer
    assert table.equity(7, 7, False) == pytest.approx(0.5)
    assert table.equity(0, 3, False) == 1.0 and table.equity(3, 0, True) == 0.0
    for away in range(1, 26):
        for other in range(1, 26):
            assert table.equity(away, other, False) + table.equity(other, away, False) == (
                pytest.approx(1, abs=1e-4)
            )


def test_scores_after_a_game_know_the_crawford_rule() -> None:
    table = cube.match_table()
    score = cube.MatchScore(5, 2, 0)
    assert score.equity_after(2) == pytest.approx(table.equity(1, 5, False))  # Crawford next
    assert cube.MatchScore(5, 4, 0, crawford=True).equity_after(-1) == pytest.approx(
        table.equity(1, 4, True)  # post-Crawford next
    )
    assert score.equity_after(3) == 1.0 and score.equity_after(-5) == 0.0
    assert score.equity_now() == pytest.approx(table.equity(3, 5, False))
    money = cube.money_form((1, 2, 3), (-1, -2, -3))
    assert money == cube.MONEY_WEIGHTS == (-1, 2, 1, 1, -1, -1)
    outputs = (0.6, 0.2, 0.01, 0.1, 0.005)
    assert cube.weighted(money, outputs) == pytest.approx(cube.cubeless_equity(outputs))
    weights = cube.match_weights(score, 1)
    assert cube.weighted(weights, (1, 0, 0, 0, 0)) == pytest.approx(2 * score.equity_after(1) - 1)
    assert cube.weighted(weights, (0, 0, 0, 1, 1)) == pytest.approx(2 * score.equity_after(-3) - 1)


# The engine --------------------------------------------------------------------------------------


def _decide(game: Backgammon, text: str) -> tuple[str, str]:
    result = engine.backgammon_engine(game).cube_result(game.parse_position(text))
    assert result.note is not None and result.note.startswith("no double ")
    return str(result.action), result.note


@pytest.mark.parametrize("game", [MONEY, Backgammon(match=7)], ids=["money", "match"])
def test_the_engine_doubles_clear_positions_and_not_the_start(game: Backgammon) -> None:
    score = " / cube 1 / match 7 W 0 B 0" if game.match else ""
    assert _decide(game, f"{START} / W to roll{score}")[0] == "roll"
    assert _decide(game, f"{START} / W doubles{score}")[0] == "take"
    assert _decide(game, f"{CERTAIN} / W to roll{score}")[0] == "double"
    assert _decide(game, f"{CERTAIN} / W doubles{score}")[0] == "drop"
    assert _decide(game, f"{HOPELESS} / W to roll{score}")[0] == "roll"
    assert _decide(game, f"{HOPELESS} / B doubles{score}".replace("W to", "B to"))[0] == "drop"


def test_the_engine_doubles_and_takes_a_middling_race_in_money_play() -> None:
    action, note = _decide(MONEY, f"{RACE} / W to roll")
    assert action == "double" and "double/drop +1.000" in note
    assert _decide(MONEY, f"{RACE} / W doubles")[0] == "take"
    assert _decide(JACOBY, f"{START} / W doubles")[0] == "beaver"  # a needless double


def test_the_engine_agent_answers_cube_decisions_as_expectiminimax_does() -> None:
    agent = make_agent("engine:depth=2", MONEY)
    for text in (f"{RACE} / W to roll", f"{RACE} / W doubles", f"{START} / W to roll"):
        state = MONEY.parse_position(text)
        chosen = agent(MONEY, state)
        textbook = expectiminimax(MONEY, state, depth=1)
        assert chosen == textbook.action
        assert agent.last is not None and agent.last.value == pytest.approx(textbook.value)


def test_the_engines_checker_play_in_a_match_is_expectiminimax_on_the_match_chances() -> None:
    """In the Crawford game nobody doubles: the engine's values at depths 1 and 2 are the
    textbook search's on the match's EVAL (2 MWC - 1 of the dead cube)."""
    search = engine.backgammon_engine(MATCH)
    texts = (
        "W 24:2 13:4 8:3 6:5 5:1 / B 24:2 13:5 8:3 6:5 / W 6-4 / cube 1 / match 5 W 4 B 2 Crawford",
        "W 1:2 off:13 / B 6:5 5:5 4:5 / W 6-5 / cube 1 / match 5 W 1 B 4 Crawford",
    )
    for text, depths in zip(texts, ((1, 2), (1,)), strict=True):  # (the second's game ends:
        state = MATCH.parse_position(text)  # the textbook search goes on into the next one)
        for depth in depths:
            result = list(search.iterate(state, depth, None))[-1]
            textbook = expectiminimax(MATCH, state, depth=depth, max_player="White")
            assert result.value == pytest.approx(textbook.value, abs=1e-9)


def test_evaluations_of_cube_games_stay_inside_the_bounds() -> None:
    rng = random.Random(5)
    for game in (MONEY, MATCH):
        low, high = game.value_bounds
        state = game.initial_state()
        for _ in range(300):
            if game.is_terminal(state):
                state = game.initial_state()
            value = game.evaluate(state, "White")
            assert low <= value <= high and value == pytest.approx(-game.evaluate(state, "Black"))
            state = game.result(state, rng.choice(game.actions(state)))


def test_the_gnubg_agent_refuses_cube_games() -> None:
    for spec, why in (("backgammon:cube=true", "cube=true"), ("backgammon:match=3", "match to 3")):
        with pytest.raises(SpecError, match=f"without the doubling cube.*{why}"):
            make_agent("gnubg", make_game(spec))
