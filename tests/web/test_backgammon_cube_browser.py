"""Backgammon with the doubling cube on the Play page: the cube option set in its field, the
cube drawn on the board, a double and a take by the buttons, the cube moved to the taker."""

from __future__ import annotations

import re
from typing import Any

import pytest

from plies.web import sessions as sessions_module
from tests.web.test_play_browser import choose_players, session_of, wait_for_my_move


@pytest.fixture(autouse=True)
def quick_pace(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sessions_module, "PACE", 0.05)


def _moved(page: Any, count: int) -> None:
    page.wait_for_function("n => document.querySelectorAll('#moves li').length > n", arg=count)
    wait_for_my_move(page)


def test_a_double_and_a_take_by_the_buttons(page: Any, server: str, screenshot: Any) -> None:
    page.goto("/play")
    choose_players(page, "backgammon", White="human", Black="human")
    page.check('#fields [data-option="cube"]')
    page.click("#start")
    page.wait_for_url(re.compile(r"session="))
    wait_for_my_move(page)
    board = page.locator("#board")
    assert board.locator(".cube").get_attribute("data-cube") == "1"
    session = session_of(page, server)
    assert session["game"] == "backgammon:cube=true"
    move = session["legal"][0]  # the opening's first play, clicked point by point
    for target in move["path"]:
        board.locator(f'[data-target="{target}"]').first.click()
    choice = board.locator(f'[data-choice="{move["notation"]}"]')
    if choice.count():
        choice.click()
    _moved(page, len(session["moves"]))
    session = session_of(page, server)
    doubler = session["to_move"]
    assert [m["notation"] for m in session["legal"]] == ["roll", "double"]
    board.locator('.board-buttons [data-target="double"]').click()
    _moved(page, len(session["moves"]))
    session = session_of(page, server)
    taker = session["to_move"]
    assert taker != doubler and [m["notation"] for m in session["legal"]] == ["take", "drop"]
    screenshot(page, "play-backgammon-double")
    board.locator('.board-buttons [data-target="take"]').click()
    page.wait_for_function(
        "() => document.querySelector('#board .cube')?.getAttribute('data-cube') === '2'"
    )
    assert board.locator(".cube").get_attribute("data-owner") == taker
    assert "cube 2 (" + taker + ")" in page.inner_text("#board")
    screenshot(page, "play-backgammon-cube-taken")
