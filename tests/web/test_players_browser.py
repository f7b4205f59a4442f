"""The Play page as a player meets it, in headless Chromium at desktop and phone sizes: a board
on arrival, opponents from the strength ladder, moves by clicks and by dragging, a game on the
clock lost on time, the PGN downloaded and played on from, a checkmate's result, Connect Four
against the perfect level, Go on 9x9 passed to its scored end, and a finished game's review.
Screenshots go to ``screenshots/`` (kept by the test run as artefacts); any JavaScript error
fails a test (the ``page`` fixture)."""

from __future__ import annotations

import io
import re
from pathlib import Path
from typing import Any

import chess.pgn
import pytest

from plies.web import sessions as sessions_module

PHONE = {"width": 390, "height": 844}
ORDER = ("a2", "c3", "c1", "a3", "b3", "c2", "b2", "a1")
"""The cells a person takes in the review's tic-tac-toe game, first open first."""
LOWEST_CHESS = "engine:depth=1"


@pytest.fixture(autouse=True)
def quick_pace(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sessions_module, "PACE", 0.05)


def open_play(page: Any) -> None:
    """The Play page, its games listed and the chosen one's start drawn."""
    page.goto("/play")
    page.wait_for_selector("#games .game-card")
    page.wait_for_selector("#board .board")


def moves_shown(page: Any, count: int) -> None:
    page.wait_for_function(
        "n => document.querySelectorAll('#moves li').length >= n", arg=count, timeout=30_000
    )


def your_move(page: Any) -> None:
    """Wait until the board offers the person a move, or the game is over."""
    page.wait_for_function(
        "() => document.querySelector('#board [data-target].start, #board button.start')"
        " || /Game over/.test(document.getElementById('status').textContent)",
        timeout=90_000,
    )


def play_and_wait(page: Any, selector: str) -> None:
    """Click ``selector`` on the board (a move), then wait for the agent's answer (two more
    moves listed) or the game's end."""
    before = page.locator("#moves li").count()
    page.click(selector)
    page.wait_for_function(
        "n => document.querySelectorAll('#moves li').length >= n"
        " || /Game over/.test(document.getElementById('status').textContent)",
        arg=before + 2,
        timeout=90_000,
    )
    your_move(page)


def choose(page: Any, game: str, level: str | None = None, clock: str | None = None) -> None:
    page.click(f'#games [data-game="{game}"]')
    if level is not None:
        page.select_option("#opponent", level)
    if clock is not None:
        page.select_option("#clock", clock)


def test_arrival_shows_a_board_and_a_ready_opponent_from_the_ladder(
    page: Any, screenshot: Any
) -> None:
    """A first visit: the games as pictures, a board to move on at once, a named level with
    its figure; the choice is remembered for the next visit."""
    open_play(page)
    assert page.locator("#games .game-card").count() >= 10
    assert page.locator("#board [data-target]").count() > 0  # a move starts the game
    assert page.is_visible("#opponent") and page.is_hidden("#seats")
    note = page.inner_text("#level-note")
    assert "Measured:" in note or "Not measured yet" in note
    screenshot(page, "players-arrival")
    choose(page, "go")  # options as fields with names a player knows
    assert page.get_attribute('[data-option="size"]', "title") == "lines of the board"
    assert page.input_value('[data-option="komi"]') == "7.5"
    choose(page, "chess", LOWEST_CHESS)
    assert "Beginner" in page.inner_text("#level-note")
    page.reload()
    page.wait_for_selector("#games .game-card")
    assert page.get_attribute('#games [data-game="chess"]', "aria-pressed") == "true"
    assert page.input_value("#opponent") == LOWEST_CHESS


def test_chess_by_clicks_and_drags_then_on_from_its_pgn(page: Any, screenshot: Any) -> None:
    """Against the lowest level: the first move clicked on the arrival board starts the game,
    the next one dragged; the PGN downloaded and pasted starts a game at the same place; a
    resignation ends it with the reason."""
    open_play(page)
    choose(page, "chess", LOWEST_CHESS)
    page.click('#board [data-target="e2"]')
    page.click('#board [data-target="e4"]')
    page.wait_for_url(re.compile(r"session="))
    moves_shown(page, 2)
    your_move(page)
    page.drag_and_drop('#board [data-target="g1"]', '#board [data-target="f3"]')
    moves_shown(page, 4)
    your_move(page)
    played = page.locator("#moves li").all_inner_texts()
    assert played[0] == "e4" and played[2] == "Nf3"
    with page.expect_download() as waiting:
        page.click("#download-pgn")
    pgn = Path(waiting.value.path()).read_text()
    read = chess.pgn.read_game(io.StringIO(pgn))
    assert read is not None and len(list(read.mainline_moves())) == 4
    screenshot(page, "players-chess")
    first_game = page.url
    page.click("#more summary")
    page.fill("#record-text", pgn)
    page.click("#start")
    page.wait_for_function("url => location.href !== url", arg=first_game)
    moves_shown(page, 4)
    assert page.locator("#moves li").all_inner_texts()[:4] == played
    your_move(page)
    page.once("dialog", lambda dialog: dialog.accept())
    page.click("#resign")
    page.wait_for_function("() => /resigns/.test(document.getElementById('status').textContent)")
    assert page.inner_text("#status") == "Game over: White resigns: Black wins"


def test_a_pasted_position_played_to_checkmate(page: Any) -> None:
    open_play(page)
    choose(page, "chess", LOWEST_CHESS)
    page.click("#more summary")
    page.fill("#record-text", "7k/5Q2/6K1/8/8/8/8/8 w - - 0 1")
    page.click("#start")
    page.wait_for_url(re.compile(r"session="))
    your_move(page)
    page.drag_and_drop('#board [data-target="f7"]', '#board [data-target="f8"]')
    page.wait_for_function(  # the move, the mate and the review's start: slow on a busy machine
        "() => /Game over/.test(document.getElementById('status').textContent)", timeout=60_000
    )
    assert page.inner_text("#status") == "Game over: White wins: checkmate"
    assert page.is_visible("#review")


def test_a_clocked_game_lost_on_time(page: Any, screenshot: Any) -> None:
    """Both clocks shown, the person's running down on the page; when it runs out the server
    ends the game, whoever watches."""
    open_play(page)
    choose(page, "tictactoe", clock="custom")
    page.fill("#clock-minutes", "0.05")  # three seconds
    page.fill("#clock-increment", "0")
    page.click("#start")
    page.wait_for_url(re.compile(r"session="))
    assert page.locator("#clocks .clock").count() == 2
    assert page.locator("#clocks .clock.running").inner_text().startswith("X")
    page.wait_for_function(
        "() => /time/.test(document.getElementById('status').textContent)", timeout=20_000
    )
    assert page.inner_text("#status") == "Game over: X loses on time (3 s): O wins"
    screenshot(page, "players-lost-on-time")


def test_a_draw_offered_and_agreed(page: Any, screenshot: Any) -> None:
    """After a move at tic-tac-toe (drawn or worse for the agent), the draw offered is accepted
    with the reason shown, and the game ends drawn by agreement."""
    open_play(page)
    choose(page, "tictactoe")
    play_and_wait(page, '#board [data-target="b2"]')
    page.click("#offer-draw")
    page.wait_for_function("() => /agreement/.test(document.getElementById('status').textContent)")
    # The game's end reaches the page by its stream, the reason by the offer's answer: either first.
    page.wait_for_function(
        "() => !/offered/.test(document.getElementById('draw-text').textContent)"
    )
    assert page.inner_text("#status") == "Game over: draw by agreement"
    assert page.inner_text("#draw-text").startswith("Draw agreed: O accepts: it expects")
    assert page.is_disabled("#offer-draw") and page.is_visible("#review")
    screenshot(page, "players-draw-agreed")


def drop_in_a_column(page: Any) -> None:
    """Drop in the first column still open, and wait for the answer (the perfect solver's
    first move loads it, which takes a while on a busy machine)."""
    column = page.locator("#board .column-target.start").first.get_attribute("data-target")
    play_and_wait(page, f'#board [data-target="{column}"]')


def test_connect4_against_the_perfect_level(page: Any) -> None:
    open_play(page)
    choose(page, "connect4", "perfect")
    drop_in_a_column(page)  # the first move starts the game
    for _ in range(21):
        your_move(page)
        if "Game over" in page.inner_text("#status"):
            break
        drop_in_a_column(page)
    your_move(page)
    status = page.inner_text("#status")
    assert status.startswith("Game over: ") and ("O wins" in status or "draw" in status)


def test_go_passed_to_its_scored_end(page: Any) -> None:
    open_play(page)
    choose(page, "go")
    play_and_wait(page, '#board [data-target="E5"]')  # the first move starts the game
    for _ in range(60):
        if "Game over" in page.inner_text("#status"):
            break
        play_and_wait(page, '#board button[data-target="pass"]')
    status = page.inner_text("#status")
    assert re.fullmatch(r"Game over: [BW] wins: black \d+, white \d+ \+ komi 7\.5", status), status
    assert "pass" in page.inner_text("#moves")


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_a_finished_game_reviewed_with_its_graph(page: Any, screenshot: Any, size: str) -> None:
    """Tic-tac-toe lost on purpose: the review marks the losing move a blunder, its graph's
    points show the board after each move, and a summary counts each player's marks."""
    if size == "phone":
        page.set_viewport_size(PHONE)
    open_play(page)
    choose(page, "tictactoe", "alphabeta")
    play_and_wait(page, '#board [data-target="b1"]')  # the first move starts the game
    for _ in range(4):  # then the first open cell of this order, until the game ends
        your_move(page)
        if "Game over" in page.inner_text("#status"):
            break
        open_cells = page.eval_on_selector_all(
            "#board [data-target].start", "nodes => nodes.map(n => n.dataset.target)"
        )
        play_and_wait(page, f'#board [data-target="{next(c for c in ORDER if c in open_cells)}"]')
    page.wait_for_function("() => /Game over/.test(document.getElementById('status').textContent)")
    lost = "O wins" in page.inner_text("#status")
    page.click("#review")
    page.wait_for_selector("#review-body svg.review-graph", timeout=120_000)
    if lost:  # against perfect play, a lost game had a move that turned a draw into a loss
        assert page.locator("#moves li.mark-blunder").count() >= 1
    assert page.locator("#review-body table tr").count() == 3
    screenshot(page, f"players-review-{size}")
    page.locator("#review-body circle[data-ply='1']").click()
    page.wait_for_function(
        "() => /After move 1/.test(document.getElementById('status').textContent)"
    )
