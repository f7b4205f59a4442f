"""The one game loop (:func:`plies.play.play_game`): its per-move step, clocks, forfeits,
resignations, a ply limit, a record's scores and take-backs."""

from __future__ import annotations

import time
from typing import Any

import pytest

from plies.agents import make_agent
from plies.clock import TimeControl
from plies.errors import IllegalMoveError, PliesError, Resigns, SpecError
from plies.games import make_game
from plies.play import RESIGNS, GameRecord, Loss, play_game, seat_agents

TICTACTOE = make_game("tictactoe")


class Scripted:
    """Plays the first legal move, or does what it is told to instead."""

    name, last = "scripted", None

    def __init__(self, fail: Exception | None = None, move: Any = None, sleep: float = 0.0):
        self.fail, self.move, self.sleep = fail, move, sleep
        self.clock: tuple[float, float] | None = None

    def __call__(self, game: Any, state: Any) -> Any:
        time.sleep(self.sleep)
        if self.fail is not None:
            raise self.fail
        return self.move if self.move is not None else min(game.actions(state))

    def reset(self, seed: int | None = None) -> None:
        pass

    def set_clock(self, remaining: float, increment: float) -> None:
        self.clock = (remaining, increment)


def test_a_game_is_played_to_its_end_and_scored() -> None:
    agents = {p: make_agent("alphabeta", TICTACTOE) for p in TICTACTOE.players}
    record = play_game(TICTACTOE, agents)
    assert record.finished and record.loss is None
    assert [record.score(p) for p in TICTACTOE.players] == [0.5, 0.5]
    assert all(turn.search is not None for turn in record.turns)


def test_an_error_propagates_unless_it_forfeits() -> None:
    agents = {"X": Scripted(), "O": Scripted(fail=PliesError("engine crashed"))}
    with pytest.raises(PliesError, match="engine crashed"):
        play_game(TICTACTOE, agents)
    record = play_game(TICTACTOE, agents, forfeits=True)
    assert record.loss == Loss("O", "forfeits: engine crashed")
    assert len(record.turns) == 1 and record.finished
    assert (record.score("X"), record.score("O")) == (1.0, 0.0)


@pytest.mark.parametrize("forfeits", [False, True])
def test_a_resignation_is_a_loss_with_or_without_forfeits(forfeits: bool) -> None:
    agents = {"X": Scripted(), "O": Scripted(fail=Resigns("scripted resigns"))}
    record = play_game(TICTACTOE, agents, forfeits=forfeits)
    assert record.loss == Loss("O", RESIGNS) == Loss("O", "resigns")
    assert len(record.turns) == 1 and record.finished
    assert (record.score("X"), record.score("O")) == (1.0, 0.0)
    assert record.outcome() == "O resigns: X wins"
    agents = {"X": Scripted(fail=Resigns("scripted resigns")), "O": Scripted()}
    record = play_game(TICTACTOE, agents, forfeits=forfeits)
    assert record.loss == Loss("X", "resigns") and record.turns == []
    assert record.outcome() == "X resigns: O wins"
    three = make_game("tictactoe3")
    agents = {"X": Scripted(), "O": Scripted(), "Y": Scripted(fail=Resigns("scripted resigns"))}
    record = play_game(three, agents, forfeits=forfeits)
    assert record.outcome() == "Y resigns" and [record.score(p) for p in "XOY"] == [1, 1, 0]


def test_an_illegal_move_is_refused_or_forfeits() -> None:
    agents = {"X": Scripted(move=4), "O": Scripted(move=4)}
    with pytest.raises(IllegalMoveError):
        play_game(TICTACTOE, agents)
    record = play_game(TICTACTOE, agents, forfeits=True)
    assert record.loss is not None and record.loss.player == "O"
    assert record.loss.why.startswith("forfeits: illegal move")


def test_a_clock_is_told_and_a_clock_that_runs_out_loses() -> None:
    quick, slow = Scripted(), Scripted(sleep=0.06)
    record = play_game(TICTACTOE, {"X": quick, "O": slow}, time_control=TimeControl(0.1, 0.01))
    assert record.loss == Loss("O", "loses on time (0.1+0.01 s)")
    assert [turn.player for turn in record.turns] == ["X", "O", "X"]  # the overrun is not played
    assert slow.clock is not None and slow.clock[1] == 0.01 and slow.clock[0] < 0.1
    assert quick.clock is not None and quick.clock[0] > 0.1  # the increments went on


def test_a_ply_limit_stops_the_game_and_a_record_takes_back() -> None:
    record = play_game(TICTACTOE, {p: Scripted() for p in TICTACTOE.players}, max_plies=3)
    assert len(record.turns) == 3 and not record.finished
    record.take_back(1)
    assert len(record.turns) == 1
    fresh = GameRecord(TICTACTOE, TICTACTOE.initial_state(), TICTACTOE.initial_state())
    turn = fresh.play("X", record.turns[0].action, 0.5)
    assert fresh.state == record.state and turn == record.turns[0].__class__(
        "X", fresh.start, turn.action, turn.notation, 0.5
    )


def test_a_move_budget_refuses_longer_times_when_the_agents_are_seated() -> None:
    """A caller with a budget (a server's think time) hands it to the seating: a ``time``
    longer than it is refused with the agent's other checks, a shorter one or none seats."""
    game = make_game("othello")
    with pytest.raises(SpecError, match=r"^mcts:time=2: a move may take 1 s at most here$"):
        seat_agents(game, {"B": "mcts:time=2"}, most_seconds=1)
    seated = seat_agents(game, {"B": "mcts:time=0.5", "W": "alphabeta:depth=2"}, most_seconds=1)
    assert set(seated) == {"B", "W"}
    assert make_agent("engine:time=30", game).name == "engine:time=30"  # no budget, no limit
