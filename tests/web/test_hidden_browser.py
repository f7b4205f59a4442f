"""Games of imperfect information on the Play page, in headless Chromium: a Leduc hand (desktop)
and a Kuhn hand (phone) played by clicking the table's buttons against the game's own
opponent, the other card face down until a showdown and nowhere on the page; no search,
download, review or hint offered; two people at one screen, a curtain between their views; the
setup offering only the agents that play such games, a refused one with its reason; a game of
phantom tic-tac-toe by clicking (desktop and phone), the other's marks unseen until bumped into.
Screenshots: ``screenshots/hidden-*.png``."""

from __future__ import annotations

import re
from typing import Any

import pytest

from plies.web import sessions as sessions_module
from tests.web.test_play_browser import choose_players, session_of, start

PHONE = {"width": 390, "height": 844}


@pytest.fixture(autouse=True)
def quick_pace(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sessions_module, "PACE", 0.05)


def true_state(app: Any, page: Any) -> Any:
    """The true state the server keeps (both cards)."""
    match = re.search(r"session=([\w-]+)", page.url)
    assert match
    return app.state.sessions.get(match.group(1)).record.state


def wait_for_turn_or_end(page: Any) -> None:
    page.wait_for_function(
        "() => /your move|Game over/.test(document.getElementById('status').textContent)"
    )


def other_card_hidden(page: Any, other: str) -> bool:
    """Whether ``other``'s card is face down on the table, its rank nowhere on it."""
    seat = page.locator(f'#board .seat[data-player="{other}"]')
    return seat.locator(".card.down").count() == 1 and seat.locator(".card.up").count() == 0


def play_hand(page: Any, server: str, seat: str, choose: Any, shot: Any) -> dict[str, Any]:
    """Click the person's actions (``choose`` picks one of the enabled buttons' ids) until the
    hand ends, checking the table each turn (``shot()`` takes a screenshot at the first
    turn); the session at the end."""
    other = "P2" if seat == "P1" else "P1"
    for turn in range(8):
        wait_for_turn_or_end(page)
        if "Game over" in page.inner_text("#status"):
            break
        assert other_card_hidden(page, other)
        assert page.locator(f'#board .seat[data-player="{seat}"] .card.up').count() == 1
        assert page.locator(f'#board .seat[data-player="{seat}"] .you').count() == 1
        if turn == 0:
            shot()
        enabled = page.eval_on_selector_all(
            "#board .board-buttons button:not([disabled])",
            "nodes => nodes.map(n => n.dataset.target)",
        )
        moves = page.locator("#moves li").count()
        page.click(f'#board .board-buttons button[data-target="{choose(enabled)}"]')
        page.wait_for_function("n => document.querySelectorAll('#moves li').length > n", arg=moves)
    page.wait_for_function("() => /Game over/.test(document.getElementById('status').textContent)")
    return session_of(page, server)


def check_nothing_else_shown(page: Any, app: Any, other: str) -> None:
    """No search, download, review or hint on the page; the other card shown only after a
    showdown (both cards then face up)."""
    assert page.locator("#live [data-hidden-search]").count() == 1
    assert page.locator("#downloads a[download]").count() == 0
    assert page.is_hidden("#review") and page.is_hidden("#hint")
    assert page.is_disabled("#undo")
    moves = page.locator("#moves li").all_inner_texts()
    assert f"(deals {other} a card)" in moves, moves
    state = true_state(app, page)
    seat = page.locator(f'#board .seat[data-player="{other}"]')
    if seat.locator(".card.up").count():
        assert seat.locator(".card.up").get_attribute("data-card") == state.cards[int(other[1]) - 1]
        assert "folded" not in (seat.get_attribute("class") or "")


def test_a_leduc_hand_by_clicking(page: Any, server: str, app: Any, screenshot: Any) -> None:
    start(page, "leduc", P1="human", P2="cfr")
    assert page.locator("#board .card-table").count() == 1
    session = play_hand(
        page,
        server,
        "P1",
        lambda enabled: "call" if "call" in enabled else enabled[-1],
        lambda: screenshot(page, "hidden-leduc-hand"),
    )
    assert session["finished"] and session["seat"] == "P1"
    check_nothing_else_shown(page, app, "P2")
    screenshot(page, "hidden-leduc-end")


def test_a_kuhn_hand_on_a_phone(browser: Any, server: str, app: Any, screenshot: Any) -> None:
    context = browser.new_context(base_url=server, viewport=PHONE)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.set_default_timeout(15_000)
    try:
        start(page, "kuhn", P1="cfr", P2="human")
        session = play_hand(
            page,
            server,
            "P2",
            lambda enabled: enabled[-1],
            lambda: screenshot(page, "hidden-kuhn-phone-hand"),
        )
        assert session["finished"] and session["seat"] == "P2"
        check_nothing_else_shown(page, app, "P1")
        # the person plays the second seat: the table is turned, their seat at the bottom
        seats = page.eval_on_selector_all(
            "#board .seat", "nodes => nodes.map(n => n.dataset.player)"
        )
        assert seats == ["P1", "P2"]
        screenshot(page, "hidden-kuhn-phone-end")
    finally:
        context.close()
    assert not errors, errors


def test_two_people_pass_the_screen(page: Any, server: str, screenshot: Any) -> None:
    start(page, "leduc", P1="human", P2="human")
    page.wait_for_selector("#curtain:not([hidden])")
    assert page.inner_text("#curtain-show") == "Show P1's view"
    assert page.is_hidden("#board") and page.is_hidden("#moves-panel")
    screenshot(page, "hidden-two-people-curtain")
    page.click("#curtain-show")
    assert page.is_visible("#board") and other_card_hidden(page, "P2")
    page.click('#board .board-buttons button[data-target="raise"]')
    page.wait_for_function(
        "() => document.getElementById('curtain-show').textContent.includes('P2')"
    )
    assert page.is_hidden("#board")
    page.click("#curtain-show")
    assert other_card_hidden(page, "P1")
    assert page.locator('#board .seat[data-player="P2"] .card.up').count() == 1
    page.wait_for_function(  # the table turned: P2's seat at the bottom
        "() => [...document.querySelectorAll('#board .seat')].at(-1).dataset.player === 'P2'"
    )
    screenshot(page, "hidden-two-people-p2")


def test_the_setup_offers_the_agents_that_play_hidden_games(page: Any, server: str) -> None:
    page.goto("/play")
    choose_players(page, "kuhn", P1="human", P2="alphabeta")
    suggested = page.eval_on_selector_all("#agent-specs option", "nodes => nodes.map(n => n.value)")
    assert suggested[0] == "human" and "cfr" in suggested and "alphabeta" not in suggested
    assert page.is_hidden("#clock") and page.is_hidden("#hints")  # refused in such games
    page.click("#start")
    page.wait_for_selector("#error:not([hidden])")
    message = page.inner_text("#error")
    assert "needs perfect information" in message and "cfr" in message


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_a_phantom_game_by_clicking(
    browser: Any, server: str, app: Any, screenshot: Any, size: str
) -> None:
    """Phantom tic-tac-toe as X: the board shows X's marks and the O marks X bumped into,
    nothing else, until the end shows the whole board."""
    viewport = PHONE if size == "phone" else {"width": 1400, "height": 900}
    context = browser.new_context(base_url=server, viewport=viewport)
    page = context.new_page()
    page.set_default_timeout(15_000)
    try:
        start(page, "phantom", X="human", O="ismcts:iterations=300")
        for turn in range(12):
            wait_for_turn_or_end(page)
            if "Game over" in page.inner_text("#status"):
                break
            state = true_state(app, page)
            marks = page.eval_on_selector_all(
                '#board [data-piece="O"]',
                "nodes => nodes.map(n => n.closest('[data-cell]').dataset.cell)",
            )
            tried = {cell for cell in state.tries[0]}
            assert all(app_cell(cell) in tried for cell in marks), (marks, state)
            if turn == 2:
                screenshot(page, f"hidden-phantom-{size}")
            session = session_of(page, server)
            moves = page.locator("#moves li").count()
            page.click(f'#board [data-target="{session["legal"][0]["path"][0]}"]')
            page.wait_for_function(
                "n => document.querySelectorAll('#moves li').length > n", arg=moves
            )
        page.wait_for_function(
            "() => /Game over/.test(document.getElementById('status').textContent)"
        )
        assert page.locator("#live [data-hidden-search]").count() == 1
        assert "O moves" in page.locator("#moves").inner_text()
        screenshot(page, f"hidden-phantom-{size}-end")
    finally:
        context.close()


def app_cell(name: str) -> int:
    """A phantom cell's number from its name (``b2``: 4)."""
    return (int(name[1]) - 1) * 3 + "abc".index(name[0])
