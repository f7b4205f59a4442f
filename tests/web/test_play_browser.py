"""The Play page in headless Chromium: games played by clicking, the search shown live, the
game kept across a reload and a restart of the server, watched from another browser, bad input
shown in the page."""

from __future__ import annotations

import io
import json
import re
import urllib.request
from pathlib import Path
from typing import Any

import chess.pgn
import pytest

from plies.web import sessions as sessions_module
from plies.web.app import create_app
from tests.conftest import register_resigner
from tests.web.conftest import _free_port, serving


@pytest.fixture(autouse=True)
def quick_pace(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sessions_module, "PACE", 0.05)


def session_of(page: Any, server: str) -> dict[str, Any]:
    """The session the page shows, read from the API (what the page's URL names)."""
    match = re.search(r"session=([\w-]+)", page.url)
    assert match, page.url
    with urllib.request.urlopen(f"{server}/api/sessions/{match.group(1)}") as answer:
        return json.loads(answer.read())  # type: ignore[no-any-return]


def choose_players(page: Any, game: str, **players: str) -> None:
    """On the Play page, choose ``game``'s picture and custom players (agent specs)."""
    page.click(f'#games [data-game="{game}"]')
    page.select_option("#opponent", "custom")
    for player, spec in players.items():
        page.fill(f'#seats input[data-player="{player}"]', spec)


def start(page: Any, game: str, **players: str) -> None:
    """Open the Play page and start ``game`` with these players."""
    page.goto("/play")
    choose_players(page, game, **players)
    page.click("#start")
    page.wait_for_url(re.compile(r"session="))


def wait_for_my_move(page: Any) -> None:
    page.wait_for_function(
        "() => /your move|Game over/.test(document.getElementById('status').textContent)"
    )


def test_tictactoe_to_the_end_against_alphabeta_by_clicking(
    page: Any, server: str, screenshot: Any
) -> None:
    start(page, "tictactoe", X="human", O="alphabeta")
    suggested = page.eval_on_selector_all("#agent-specs option", "nodes => nodes.map(n => n.value)")
    assert "alphabeta:depth=4" in suggested and "mcts:time=5" in suggested
    for _ in range(5):
        wait_for_my_move(page)
        session = session_of(page, server)
        if session["finished"]:
            break
        target = session["legal"][0]["path"][0]
        page.click(f'#board [data-target="{target}"]')
        page.wait_for_function(
            "n => document.querySelectorAll('#moves li').length > n", arg=len(session["moves"])
        )
    page.wait_for_function("() => /Game over/.test(document.getElementById('status').textContent)")
    session = session_of(page, server)
    assert session["finished"] and session["result"] in ("O wins", "draw")  # never X
    assert page.inner_text("#status") == f"Game over: {session['result']}"
    assert page.locator("#moves li").count() == len(session["moves"])
    screenshot(page, "play-tictactoe")


def test_connect4_against_the_engine_with_the_live_search(
    page: Any, server: str, screenshot: Any
) -> None:
    start(page, "connect4", X="human", O="engine:time=0.2")
    for ply, column in enumerate(["4", "3", "5"]):
        wait_for_my_move(page)
        updates = int(page.get_attribute("#live", "data-updates") or 0)
        page.click(f'#board [data-target="col{column}"]')
        page.wait_for_function(
            "n => document.querySelectorAll('#moves li').length >= n", arg=2 * ply + 2
        )
        assert int(page.get_attribute("#live", "data-updates") or 0) > updates
    wait_for_my_move(page)
    assert page.get_attribute("#live", "data-algorithm") == "engine"
    assert page.locator('#live [data-panel="iterations"] tr').count() > 2  # header + depths
    session = session_of(page, server)
    assert [m["notation"] for m in session["moves"][::2]] == ["4", "3", "5"]
    screenshot(page, "play-connect4")
    page.locator("#moves li.searched").first.click()
    page.wait_for_selector("#tree-dialog[open]")
    assert "engine's best line" in page.inner_text("#tree-body")
    screenshot(page, "play-search-behind-a-move")


def test_go_against_random_by_clicking_with_illegal_clicks_explained(
    page: Any, server: str, screenshot: Any
) -> None:
    page.goto("/play")
    choose_players(page, "go")  # the seats suggest the agents that play Go
    suggested = page.eval_on_selector_all("#agent-specs option", "nodes => nodes.map(n => n.value)")
    assert suggested == ["human", "mcts:time=1", "mcts:time=5", "random"]
    start(page, "go", B="human", W="random")
    wait_for_my_move(page)
    page.click('#board [data-target="E5"]')
    page.wait_for_function("() => document.querySelectorAll('#moves li').length === 2")
    wait_for_my_move(page)
    assert page.locator('#board [data-cell="E5"] [data-piece="B"]').count() == 1
    reply = session_of(page, server)["moves"][1]["notation"]
    if reply != "pass":
        assert page.locator(f'#board [data-cell="{reply}"] [data-piece="W"]').count() == 1
        assert page.locator("#board .last").evaluate("node => node.dataset.cell") == reply
    page.click('#board [data-target="E5"]')  # taken: the server says so
    page.wait_for_selector("#error:not([hidden])")
    assert "E5" in page.inner_text("#error") and "taken" in page.inner_text("#error")
    assert page.locator("#moves li").count() == 2
    screenshot(page, "play-go")
    page.click('#board [data-target="pass"]')
    page.wait_for_function("() => document.querySelectorAll('#moves li').length >= 3")
    assert page.is_hidden("#error")
    assert session_of(page, server)["moves"][2]["notation"] == "pass"


def test_an_agent_that_resigns_ends_the_game_in_the_page(
    page: Any, server: str, monkeypatch: pytest.MonkeyPatch
) -> None:

    register_resigner(monkeypatch)
    start(page, "go", B="human", W="resigner")
    wait_for_my_move(page)
    page.click('#board [data-target="E5"]')
    page.wait_for_function("() => /Game over/.test(document.getElementById('status').textContent)")
    assert page.inner_text("#status") == "Game over: W resigns: B wins"
    assert page.is_hidden("#error") and page.locator("#moves li").count() == 1


def test_a_reload_finds_the_game_intact(page: Any, server: str) -> None:
    start(page, "connect4", X="human", O="engine:depth=3")
    wait_for_my_move(page)
    page.click('#board [data-target="col4"]')
    page.wait_for_function("() => document.querySelectorAll('#moves li').length === 2")
    wait_for_my_move(page)
    before = session_of(page, server)
    moves = page.inner_text("#moves")
    page.reload()
    page.wait_for_function("() => document.querySelectorAll('#moves li').length === 2")
    assert page.inner_text("#moves") == moves
    assert session_of(page, server)["position"] == before["position"]
    assert page.locator('#seats input[data-player="O"]').input_value() == "engine:depth=3"
    page.click('#board [data-target="col3"]')  # and the game goes on
    page.wait_for_function("() => document.querySelectorAll('#moves li').length === 4")


def test_mcts_shows_visits_per_move_and_its_tree(page: Any, server: str, screenshot: Any) -> None:
    start(page, "othello", B="mcts:time=1", W="human")
    page.wait_for_selector('#live [data-panel="root"]')
    wait_for_my_move(page)
    screenshot(page, "play-othello")
    page.locator("#moves li.searched").first.click()
    page.wait_for_selector('#tree-dialog[open] [data-panel="tree"] details')
    screenshot(page, "play-mcts-tree")


def test_bad_input_is_shown_in_the_page(page: Any, server: str) -> None:
    start_page = "/play"
    page.goto(start_page)
    choose_players(page, "connect4", O="wizard")
    page.click("#start")
    page.wait_for_selector("#error:not([hidden])")
    assert "unknown agent 'wizard'" in page.inner_text("#error")
    page.fill('#seats input[data-player="O"]', "minimax")
    page.click("#start")
    page.wait_for_function("() => /too slow/.test(document.getElementById('error').textContent)")
    page.fill('#seats input[data-player="O"]', "engine:depth=2")
    page.click("#start")  # the page still works
    page.wait_for_url(re.compile(r"session="))
    wait_for_my_move(page)
    page.fill("#move-input", "9")
    page.click("#type-move button")
    page.wait_for_selector("#error:not([hidden])")
    assert "9" in page.inner_text("#error")
    page.fill("#move-input", "4")
    page.click("#type-move button")
    page.wait_for_function("() => document.querySelectorAll('#moves li').length === 2")
    assert page.is_hidden("#error")
    page.goto("/play?session=gone")
    page.wait_for_selector("#error:not([hidden])")
    assert "no game session" in page.inner_text("#error")


@pytest.mark.parametrize(
    ("game", "players"),
    [
        ("chess", {"White": "human", "Black": "engine:depth=2"}),
        ("backgammon", {"White": "human", "Black": "expectiminimax"}),
        ("checkers", {"B": "human", "W": "engine:depth=2"}),
        ("nim", {"A": "human", "B": "alphabeta"}),
        ("tictactoe3", {"X": "human", "O": "maxn:depth=2", "Y": "paranoid:depth=2"}),
    ],
)
def test_every_board_is_playable_by_clicking(
    page: Any, server: str, screenshot: Any, game: str, players: dict[str, str]
) -> None:
    start(page, game, **players)
    wait_for_my_move(page)
    session = session_of(page, server)
    move = session["legal"][0]
    board = page.locator("#board")
    for target in move["path"]:
        board.locator(f'[data-target="{target}"]').first.click()
    choice = board.locator(f'[data-choice="{move["notation"]}"]')
    if choice.count():
        choice.click()
    page.wait_for_function(
        "n => document.querySelectorAll('#moves li').length > n", arg=len(session["moves"])
    )
    wait_for_my_move(page)
    after = session_of(page, server)
    human = [m for m in after["moves"] if m["player"] == session["to_move"]]
    assert human[0]["notation"] == move["notation"]
    screenshot(page, f"play-{game}")


def test_another_browser_given_the_link_watches_live(
    page: Any, browser: Any, server: str, screenshot: Any
) -> None:
    start(page, "connect4", X="human", O="engine:depth=2")
    wait_for_my_move(page)
    assert page.is_hidden("#watching")
    other = browser.new_context(base_url=server).new_page()  # no token: it watches
    try:
        other.goto(page.url)
        other.wait_for_selector("#watching:not([hidden])")
        page.click('#board [data-target="col4"]')  # played in the first browser...
        other.wait_for_function(  # ...seen in the second, with the engine's reply
            "() => document.querySelectorAll('#moves li').length === 2"
        )
        other.wait_for_function(
            "() => /X \\(a person\\) to move/.test(document.getElementById('status').textContent)"
        )
        for control in ("#undo", "#restart", "#stop", "#move-input"):
            assert other.is_disabled(control), control
        other.click('#board [data-target="col3"]')  # nothing happens: it only watches
        screenshot(other, "play-watching")
        page.click('#board [data-target="col5"]')
        other.wait_for_function("() => document.querySelectorAll('#moves li').length === 4")
        assert [m["notation"] for m in session_of(page, server)["moves"][::2]] == ["4", "5"]
        assert other.is_hidden("#error")
    finally:
        other.context.close()


def test_a_finished_games_link_reopens_it_read_only(page: Any, browser: Any, server: str) -> None:
    start(page, "tictactoe", X="alphabeta", O="alphabeta")
    page.wait_for_function("() => /Game over/.test(document.getElementById('status').textContent)")
    link = page.get_attribute("#game-link", "href")
    assert link == f"/play?session={session_of(page, server)['id']}"
    other = browser.new_context(base_url=server).new_page()
    try:
        other.goto(link)
        other.wait_for_function(
            "() => document.getElementById('status').textContent === 'Game over: draw'"
        )
        assert other.locator("#moves li").count() == 9 and other.is_visible("#watching")
        assert other.is_disabled("#undo") and other.is_disabled("#restart")
        assert other.locator("#downloads a[download]").all_inner_texts() == ["JSON"]
    finally:
        other.context.close()


def test_a_server_restarted_mid_game_and_the_game_resumed(
    browser: Any, tmp_path: Path, screenshot: Any
) -> None:
    """The server stops between two moves and a new one starts on the same games file: the
    open page goes on (its next move reopens the game, its live socket reconnects), and a
    reload finds every move."""
    db, port = tmp_path / "games.sqlite", _free_port()
    context = browser.new_context(base_url=f"http://127.0.0.1:{port}")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.set_default_timeout(15_000)
    first = create_app(db=db)
    try:
        with serving(first, port):
            start(page, "connect4", X="human", O="engine:depth=2")
            for column, played in (("4", 2), ("3", 4)):
                wait_for_my_move(page)
                page.click(f'#board [data-target="col{column}"]')
                page.wait_for_function(
                    "n => document.querySelectorAll('#moves li').length === n", arg=played
                )
            wait_for_my_move(page)
            moves = page.inner_text("#moves")
        first.state.sessions.close()
        second = create_app(db=db)
        with serving(second, port):
            page.click('#board [data-target="col5"]')  # the page as it was: the game goes on
            page.wait_for_function("() => document.querySelectorAll('#moves li').length === 6")
            wait_for_my_move(page)
            page.reload()
            page.wait_for_function("() => document.querySelectorAll('#moves li').length === 6")
            assert page.inner_text("#moves").startswith(moves)
            assert page.is_hidden("#watching") and page.is_hidden("#error")
            wait_for_my_move(page)
            screenshot(page, "play-after-restart")
            page.click('#board [data-target="col2"]')  # and on, after the reload
            page.wait_for_function("() => document.querySelectorAll('#moves li').length === 8")
        second.state.sessions.close()
    finally:
        context.close()
    assert not errors, f"JavaScript errors on the page: {errors}"


def test_stop_makes_the_thinking_agent_move_now(page: Any, server: str) -> None:
    start(page, "connect4", X="human", O="engine:depth=40")
    wait_for_my_move(page)
    page.click('#board [data-target="col4"]')
    page.wait_for_selector("#stop:not([disabled])")
    page.wait_for_function("() => document.getElementById('live').dataset.algorithm === 'engine'")
    page.click("#stop")
    page.wait_for_function(
        "() => document.querySelectorAll('#moves li').length === 2", timeout=5_000
    )
    assert page.is_disabled("#stop")


def test_undo_and_new_game_buttons(page: Any, server: str) -> None:
    start(page, "tictactoe", X="human", O="alphabeta")
    wait_for_my_move(page)
    assert page.is_disabled("#undo")
    page.click('#board [data-target="a1"]')
    page.wait_for_function("() => document.querySelectorAll('#moves li').length === 2")
    wait_for_my_move(page)
    page.click("#undo")
    page.wait_for_function("() => document.querySelectorAll('#moves li').length === 0")
    assert session_of(page, server)["moves"] == []
    page.click('#board [data-target="b2"]')
    page.wait_for_function("() => document.querySelectorAll('#moves li').length === 2")
    wait_for_my_move(page)
    page.click("#restart")
    page.wait_for_function("() => document.querySelectorAll('#moves li').length === 0")
    assert page.is_hidden("#error")


def test_a_game_is_downloaded_as_pgn_and_json_and_goes_on_from_it(
    page: Any, server: str, screenshot: Any
) -> None:
    start(page, "chess", White="human", Black="random")
    wait_for_my_move(page)
    page.fill("#move-input", "e4")
    page.press("#move-input", "Enter")
    page.wait_for_function("() => document.querySelectorAll('#moves li').length >= 2")
    wait_for_my_move(page)
    assert page.locator("#downloads a[download]").all_inner_texts() == ["JSON", "PGN"]
    with page.expect_download() as waiting:
        page.click("#download-pgn")
    download = waiting.value
    assert download.suggested_filename.endswith(".pgn")
    played = chess.pgn.read_game(io.StringIO(Path(download.path()).read_text()))
    session = session_of(page, server)
    assert played is not None and played.headers["White"] == "human"
    board = played.board()
    sans = []
    for move in played.mainline_moves():
        sans.append(board.san(move))
        board.push(move)
    assert sans == [m["notation"] for m in session["moves"]] and sans[0] == "e4"
    with page.expect_download() as waiting:
        page.click("#download-json")
    document = json.loads(Path(waiting.value.path()).read_text())
    assert document["final"] == session["position"]
    screenshot(page, "play-downloads")

    page.click('#games [data-game="othello"]')  # the record's game is set from the file
    before = page.url
    page.set_input_files("#record-file", waiting.value.path())
    page.wait_for_function("url => location.href !== url", arg=before)
    wait_for_my_move(page)
    again = session_of(page, server)
    assert again["game_name"] == "chess" and again["position"] == session["position"]
    assert [m["notation"] for m in again["moves"]] == sans
    assert page.get_attribute('#games [data-game="chess"]', "aria-pressed") == "true"
