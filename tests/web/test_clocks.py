"""A web game's clocks on a hand-driven wall clock: running, increments, flag falls, and the
clocks kept and restored."""

from __future__ import annotations

import pytest

from plies.clock import parse_time_control
from plies.errors import SpecError
from plies.web.clocks import PRESETS, GameClocks, web_time_control


class Wall:
    def __init__(self) -> None:
        self.at = 1000.0

    def __call__(self) -> float:
        return self.at


def test_the_movers_clock_runs_and_gains_its_increment() -> None:
    wall = Wall()
    clocks = GameClocks(parse_time_control("30+1"), ("X", "O"), now=wall)
    clocks.begin("X")
    wall.at += 4
    assert clocks.to_json() == {"control": "30+1", "left": {"X": 26.0, "O": 30.0}, "running": "X"}
    assert clocks.end("X") is None
    clocks.begin("O")
    wall.at += 10
    assert clocks.end("O") is None
    assert clocks.to_json()["left"] == {"X": 27.0, "O": 21.0}


def test_a_flag_falls_while_nobody_moves() -> None:
    wall = Wall()
    clocks = GameClocks(parse_time_control("5"), ("X", "O"), now=wall)
    clocks.begin("X")
    wall.at += 4.5
    assert clocks.flag() is None and clocks.seconds_to_flag() == pytest.approx(0.5)
    wall.at += 1
    loss = clocks.flag()
    assert loss is not None and loss.player == "X" and "time" in loss.why
    assert clocks.to_json()["left"]["X"] == 0 and clocks.running is None


def test_a_move_after_the_flag_loses() -> None:
    wall = Wall()
    clocks = GameClocks(parse_time_control("5+3"), ("X", "O"), now=wall)
    clocks.begin("X")
    wall.at += 6
    loss = clocks.end("X")
    assert loss is not None and loss.player == "X"


def test_kept_clocks_run_on_after_a_restart() -> None:
    wall = Wall()
    clocks = GameClocks(parse_time_control("60+2"), ("X", "O"), now=wall)
    clocks.begin("X")
    wall.at += 5
    kept = clocks.saved()
    wall.at += 20  # the server was down
    again = GameClocks.restored(kept, ("X", "O"), now=wall)
    assert again.left("X") == pytest.approx(35.0) and again.running == "X"


def test_time_controls_from_the_page() -> None:
    assert web_time_control(None) is None and web_time_control(" ") is None
    assert str(web_time_control("180+2")) == "180+2"
    assert all(web_time_control(control) for control in PRESETS.values())
    for bad, message in [
        ("nan", "over 0"),
        ("fast", "BASE"),
        ("-5", "over 0"),
        ("20000", "three hours"),
        ("5+9", "increment"),
    ]:
        with pytest.raises(SpecError, match=message):
            web_time_control(bad)
