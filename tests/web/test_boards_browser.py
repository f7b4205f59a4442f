"""The boards in Chromium: every game drawn by static/boards.js from board_view, moves entered
by clicking the targets of move_paths, and a screenshot of each board to look at."""

from __future__ import annotations

from typing import Any

import pytest

from plies.games import make_game
from plies.web.boards import board_view, move_paths

RENDER = """async ([view, legal, lastMove]) => {
  const boards = await import('/static/boards.js');
  if (!document.getElementById('box')) {
    document.head.append(Object.assign(document.createElement('link'),
      {rel: 'stylesheet', href: '/static/boards.css'}));
    const box = Object.assign(document.createElement('div'), {id: 'box'});
    document.querySelector('main').replaceChildren(box);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  window.played = [];
  boards.renderBoard(document.getElementById('box'), view, legal,
    {onMove: (notation) => { window.played.push(notation); }, lastMove});
}"""


def show(page: Any, game: Any, state: Any, last: Any = None, last_text: str | None = None) -> None:
    """Draw ``state`` with its legal moves in the page."""
    page.evaluate(RENDER, [board_view(game, state, last), move_paths(game, state), last_text])


def click(page: Any, *targets: str) -> None:
    for target in targets:
        page.locator(f'#box [data-target="{target}"]').first.click()


def played(page: Any) -> list[str]:
    return list(page.evaluate("window.played"))


@pytest.fixture()
def board_page(page: Any, server: str) -> Any:
    page.goto(server + "/")
    return page


def test_tictactoe(board_page: Any, screenshot: Any) -> None:
    game = make_game("tictactoe")
    state = game.parse_position("XO./.X./..O")
    show(board_page, game, state, last=8, last_text="c3")
    assert board_page.locator('#box [data-board="tictactoe"] [data-piece]').count() == 4
    click(board_page, "c1")
    assert played(board_page) == ["c1"]
    click(board_page, "a1")  # taken: no move
    assert played(board_page) == ["c1"]
    screenshot(board_page, "board-tictactoe")


def test_tictactoe3_on_a_larger_board(board_page: Any, screenshot: Any) -> None:
    game = make_game("tictactoe3:m=5,n=6,k=4")
    state = game.parse_position("X...../.O..../..Y.../....../......")
    show(board_page, game, state)
    assert board_page.locator('#box [data-piece="Y"]').count() == 1
    click(board_page, "f5")
    assert played(board_page) == ["f5"]
    screenshot(board_page, "board-tictactoe3")


def test_connect4_column_click(board_page: Any, screenshot: Any) -> None:
    game = make_game("connect4")
    state = game.parse_position("44453")
    show(board_page, game, state, last=2, last_text="3")
    assert board_page.locator('#box [data-board="connect4"] [data-piece]').count() == 5
    assert board_page.locator("#box .last").count() == 1
    box = board_page.locator('#box [data-target="col6"]').bounding_box()
    board_page.mouse.click(box["x"] + box["width"] / 2, box["y"] + 10)  # the top of column 6
    assert played(board_page) == ["6"]
    screenshot(board_page, "board-connect4")


def test_othello_moves_and_pass(board_page: Any, screenshot: Any) -> None:
    game = make_game("othello")
    state = game.parse_position("f5d6c3")
    show(board_page, game, state, last=game.parse_action(game.parse_position("f5d6"), "c3"))
    starts = board_page.locator("#box .start")
    assert sorted(starts.evaluate_all("nodes => nodes.map(n => n.dataset.target)")) == sorted(
        m["notation"] for m in move_paths(game, state)
    )
    screenshot(board_page, "board-othello")
    click(board_page, "d3")
    assert played(board_page) == ["d3"]
    passing = game.parse_position(
        "OOOOXO-XOOOOOOOXOOOOOOOXOOOOOOOXOXOOOXOXOXOOOOOXOOOOOOOXOOOOOOOX O"
    )
    show(board_page, game, passing)
    click(board_page, "pass")
    assert played(board_page) == ["pass"]


def test_checkers_multi_jump(board_page: Any, screenshot: Any) -> None:
    game = make_game("checkers")
    state = game.parse_position("W:W30,K9:B18,19,26,K1")
    show(board_page, game, state)
    assert board_page.locator('#box [data-king="true"]').count() == 2
    click(board_page, "30", "23")
    targets = board_page.locator("#box .target").evaluate_all(
        "nodes => nodes.map(n => n.dataset.target)"
    )
    assert sorted(targets) == ["14", "16"]
    screenshot(board_page, "board-checkers")
    click(board_page, "16")
    assert played(board_page) == ["30x23x16"]


def test_checkers_click_elsewhere_or_escape_resets(board_page: Any) -> None:
    game = make_game("checkers")
    state = game.initial_state()
    show(board_page, game, state)
    click(board_page, "11")
    assert board_page.locator("#box .selected").count() == 1
    board_page.keyboard.press("Escape")
    assert board_page.locator("#box .selected").count() == 0
    click(board_page, "11")
    board_page.locator("header").click()
    assert board_page.locator("#box .selected").count() == 0
    click(board_page, "11", "12", "16")  # another piece starts afresh
    assert played(board_page) == ["12-16"]


def test_chess_move_and_promotion_chooser(board_page: Any, screenshot: Any) -> None:
    game = make_game("chess")
    state = game.parse_position("8/4P2k/8/8/8/8/8/K7 w - - 0 1")
    show(board_page, game, state)
    click(board_page, "e7", "e8")
    assert played(board_page) == []
    choices = board_page.locator("#box [data-choice]")
    assert sorted(choices.all_inner_texts()) == ["e8=B", "e8=N", "e8=Q", "e8=R"]
    board_page.locator('#box [data-choice="e8=N"]').click()
    assert played(board_page) == ["e8=N"]
    start = game.parse_position("rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2")
    last = game.parse_action(
        game.parse_position("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"), "Nf3"
    )
    show(board_page, game, start, last=last, last_text="Nf3")
    assert board_page.locator("#box [data-piece]").count() == 32
    click(board_page, "b8", "c6")
    assert played(board_page) == ["Nc6"]
    screenshot(board_page, "board-chess")


def test_nim_takes_from_the_clicked_object(board_page: Any, screenshot: Any) -> None:
    game = make_game("nim:heaps=3-7-12")
    state = game.initial_state()
    show(board_page, game, state)
    assert board_page.locator('#box [data-piece="stick"]').count() == 22
    board_page.locator('#box [data-target="h3o9"]').hover()
    assert board_page.locator("#box .taking").count() == 4
    screenshot(board_page, "board-nim")
    click(board_page, "h3o9")
    assert played(board_page) == ["3:4"]


def test_tiles_move_and_stay(board_page: Any, screenshot: Any) -> None:
    game = make_game("tiles:length=6")
    state = game.parse_position(".A..B.")
    show(board_page, game, state)
    screenshot(board_page, "board-tiles")
    click(board_page, "3")
    click(board_page, "stay")
    assert played(board_page) == ["3", "stay"]


def test_backgammon_turn_in_any_order_and_from_the_list(board_page: Any, screenshot: Any) -> None:
    game = make_game("backgammon")
    state = game.parse_position("W 24:2 13:5 8:3 6:5 / B 24:2 13:5 8:3 6:5 / W 6-5")
    show(board_page, game, state)
    assert board_page.locator('#box [data-board="backgammon"] [data-piece]').count() == 30
    assert board_page.locator("#box [data-die]").count() == 2
    screenshot(board_page, "board-backgammon")
    click(board_page, "p8", "p3", "p24", "p18")  # 24/18 8/3, the second checker first
    assert played(board_page) == ["24/18 8/3"]
    click(board_page, "p24", "p13")
    assert played(board_page) == ["24/18 8/3", "24/13"]
    board_page.locator("#box [data-moves]").select_option("13/2")
    board_page.locator("#box .board-list button").click()
    assert played(board_page)[-1] == "13/2"


def test_backgammon_black_entering_and_bearing_off(board_page: Any, screenshot: Any) -> None:
    game = make_game("backgammon")
    state = game.parse_position("W 6:2 4:1 off:12 / B bar:1 20:14 / B 6-4")
    show(board_page, game, state)
    click(board_page, "bar")
    targets = board_page.locator("#box .target").evaluate_all(
        "nodes => nodes.map(n => n.dataset.target)"
    )
    assert targets == ["p4"]  # Black enters on its 21 point, White's 4
    screenshot(board_page, "board-backgammon-black")
    click(board_page, "p4", "p4", "p10")  # Black's 21 and 15 are White's 4 and 10
    assert played(board_page) == ["bar/21*/15"]
    click(board_page, "bar", "p4", "p5", "p11")
    assert played(board_page) == ["bar/21*/15", "bar/21* 20/14"]


def test_disabled_board_takes_no_clicks(board_page: Any) -> None:
    game = make_game("connect4")
    state = game.initial_state()
    page = board_page
    page.evaluate(
        RENDER.replace("lastMove}", "lastMove, disabled: true}"),
        [board_view(game, state), move_paths(game, state), None],
    )
    click(page, "col4")
    assert played(page) == []
    assert page.locator("#box .start").count() == 0


def test_unknown_game_falls_back_to_text(board_page: Any, screenshot: Any) -> None:
    from plies.games.tree import parse_tree, tree_game

    game = tree_game(parse_tree("[[3, 12], [2, 4]]"))
    state = game.initial_state()
    show(board_page, game, state)
    assert board_page.locator('#box [data-kind="text"] pre').count() == 1
    first = move_paths(game, state)[0]
    click(board_page, first["path"][0])
    assert played(board_page) == [first["notation"]]


def test_go_stones_clicks_illegal_points_and_pass(board_page: Any, screenshot: Any) -> None:
    game = make_game("go")
    before = game.parse_position("E5 A2 D4 B1 C3 D5 E4")
    last = game.parse_action(before, "E6")
    show(board_page, game, game.result(before, last), last=last, last_text="E6")
    box = board_page.locator('#box [data-board="go"]')
    assert box.locator('[data-piece="B"]').count() == box.locator('[data-piece="W"]').count() == 4
    assert box.locator(".star").count() == 5
    assert box.locator(".last").evaluate_all("nodes => nodes.map(n => n.dataset.target)") == ["E6"]
    assert box.locator(".start").count() == 9 * 9 - 8 - 1 + 1  # A1 is suicide; and pass
    screenshot(board_page, "board-go")
    click(board_page, "G7", "D4", "A1", "pass")  # D4 is taken, A1 suicide
    assert played(board_page) == ["G7", "D4", "A1", "pass"]  # sent: the game says why


def test_go_19_and_the_final_score(board_page: Any, screenshot: Any) -> None:
    game = make_game("go:size=19")
    state = game.parse_position("Q16 D4 Q4 D16 R10 C10 K17 K3 K10 pass")
    show(board_page, game, state)
    box = board_page.locator('#box [data-board="go"]')
    assert box.locator(".star").count() == 9
    columns = box.locator("svg > text.coord").all_text_contents()
    assert columns[:19] == list("ABCDEFGHJKLMNOPQRST")
    screenshot(board_page, "board-go-19")
    over = game.parse_position("C3 G7 pass pass")
    show(board_page, game, over)
    assert board_page.inner_text("#box .board-status") == "game over: White wins (W+7.5)"
    assert board_page.locator('#box [data-target="pass"]').count() == 0
