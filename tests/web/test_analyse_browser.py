"""The Analyse page in Chromium: Connect Four positions entered by clicking and by pasting,
solved column by column; a chess FEN evaluated and played on; bad input shown in the banner
while the page keeps working; any game analysed by what it has."""

from __future__ import annotations

from typing import Any

import pytest

from plies.games.connect4.rules import ConnectFour
from plies.games.connect4.solver import Connect4Solver
from plies.registry import make_game
from plies.web.boards import move_paths

QUICK = "52753311433677442422"
"""A Connect Four position the solver answers in well under a second."""


@pytest.fixture()
def analyse(page: Any, server: str) -> Any:
    page.goto(server + "/analyse")
    page.locator('[data-board="connect4"]').wait_for()
    return page


def column_scores(page: Any) -> list[str]:
    return page.locator("#solved-columns tbody td:nth-child(2)").all_inner_texts()


def expected_scores(position: str) -> list[str]:
    game = ConnectFour()
    scores = Connect4Solver(game).analyze(game.parse_position(position))
    return ["full" if s is None else f"+{s}" if s > 0 else str(s) for s in scores]


def test_connect4_by_clicking_and_pasting(analyse: Any, screenshot: Any) -> None:
    page = analyse
    assert page.locator("header a.here").inner_text() == "Analyse"
    page.locator("#solved-auto").uncheck()
    for column in "44":  # quick clicks: the second plays on from the first, answered or not
        page.locator(f'#solved-board [data-target="col{column}"]').click()
    page.wait_for_function("document.getElementById('solved-position').value === '44'")
    assert page.locator('#solved-board [data-piece="O"]').count() == 1
    assert "press Solve" in page.locator("#solved-result").inner_text()
    assert "position=44" in page.url
    page.locator("#solved-undo").click()
    page.wait_for_function("document.getElementById('solved-position').value === '4'")

    page.locator("#solved-position").fill(QUICK)
    page.locator("#solved-analyse").click()
    page.locator("#solved-columns").wait_for()
    assert column_scores(page) == expected_scores(QUICK)
    page.locator("#solved-auto").check()
    page.locator('#solved-board [data-target="col1"]').click()
    page.wait_for_function(
        f"document.getElementById('solved-position').value === '{QUICK}1'"
        " && document.getElementById('solved-columns') !== null"
    )
    assert column_scores(page) == expected_scores(QUICK + "1")
    headline = page.locator("#solved-headline").inner_text()
    assert headline.startswith("O to move: score +") and "O wins with its stone number" in headline
    assert page.locator("#solved-columns tr.best").count() >= 1
    assert "position=" + QUICK + "1" in page.url
    screenshot(page, "analyse-connect4")


def test_connect4_position_from_the_url_and_time_running_out(page: Any, server: str) -> None:
    page.goto(server + f"/analyse?tab=solved&position={QUICK}&seconds=1")
    page.locator("#solved-columns").wait_for()
    assert page.locator("#solved-time").input_value() == "1"
    assert column_scores(page) == expected_scores(QUICK)
    page.locator("#solved-position").fill("12")  # early, and not in the opening book
    page.locator("#solved-analyse").click()
    page.locator("#solved-message").wait_for(timeout=20_000)
    assert "not solved within 1 s" in page.locator("#solved-message").inner_text()
    assert page.locator("#error").is_hidden()


def test_bad_input_shows_the_banner_and_the_page_goes_on(analyse: Any) -> None:
    page = analyse
    page.locator("#solved-position").fill("4449")
    page.locator("#solved-analyse").click()
    page.locator("#error").wait_for()
    assert "'9' is not a column" in page.locator("#error").inner_text()
    page.locator("#solved-position").fill(QUICK)
    page.locator("#solved-analyse").click()
    page.locator("#solved-columns").wait_for()
    assert page.locator("#error").is_hidden()

    page.evaluate("document.getElementById('evaluated-time').value = '1'")
    page.locator("#tab-evaluated").click()
    page.locator('#evaluated-board [data-kind="picture"]').wait_for()
    page.locator("#fen").fill("8/8/8/8/8/8/8/8 w - - 0 1")
    page.locator("#evaluated-analyse").click()
    page.wait_for_function("!document.getElementById('error').hidden")
    assert "impossible position" in page.locator("#error").inner_text()
    assert page.locator('#evaluated-board [data-kind="picture"]').count() == 1


def test_chess_fen_evaluated_and_played_on(page: Any, server: str, screenshot: Any) -> None:
    page.goto(server + "/analyse?tab=evaluated&seconds=1&fen=7k/8/6K1/8/8/8/8/R7 w - - 0 1")
    page.locator("#evaluated-headline").wait_for()
    assert page.locator("#evaluated-headline").inner_text() == "Evaluation White mates in 1"
    assert page.locator("#evaluated-best").inner_text() == "Ra8#"

    fen = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"
    page.locator("#fen").fill(fen)
    page.locator("#evaluated-analyse").click()
    page.wait_for_function(
        "document.querySelector('#evaluated-line') !== null"
        " && document.getElementById('fen').value.startsWith('r1bqkbnr/pppp1ppp/2n5')"
    )
    assert "(White's view)" in page.locator("#evaluated-headline").inner_text()
    assert page.locator("#evaluated-line").inner_text().startswith("3. ")
    assert page.locator("#evaluated-iterations tbody tr").count() >= 2
    assert "tab=evaluated" in page.url and "fen=" in page.url
    screenshot(page, "analyse-chess")

    page.locator('#evaluated-board [data-target="f1"]').click()
    page.locator('#evaluated-board [data-target="b5"]').click()
    page.wait_for_function("document.getElementById('fen').value.includes(' b KQkq')")
    last = page.locator("#evaluated-board .last").evaluate_all(
        "ns => ns.map(n => n.dataset.target)"
    )
    assert sorted(last) == ["b5", "f1"]
    assert "Black to move" in page.locator("#evaluated-result").inner_text()
    page.locator("#evaluated-back").click()
    page.wait_for_function(f"document.getElementById('fen').value === '{fen}'")


def test_any_game_analysed_by_what_it_has(page: Any, server: str, screenshot: Any) -> None:
    """Othello by the engine, played on by clicking; a small Connect Four by the solver,
    typed with its options; a bad position in the banner; the URL reopens the analysis."""
    page.goto(server + "/analyse?tab=any&game=othello&seconds=1")
    page.locator("#any-iterations").wait_for()
    assert page.locator("#any-game").input_value() == "othello"
    assert page.locator("#any-iterations tbody tr").count() >= 2
    othello = make_game("othello")
    start = othello.initial_state()
    best = page.locator("#any-best").inner_text()
    assert best in {othello.format_action(start, a) for a in othello.actions(start)}
    f5 = next(m for m in move_paths(othello, start) if m["notation"] == "f5")
    for target in f5["path"]:
        page.locator(f'#any-board [data-target="{target}"]').click()
    after = othello.format_position(othello.result(start, othello.parse_action(start, "f5")))
    page.wait_for_function(f"document.getElementById('any-position').value === '{after}'")
    page.locator("#any-iterations").wait_for()
    assert "tab=any" in page.url and "game=othello" in page.url
    screenshot(page, "analyse-any-othello")

    page.locator("#any-spec").fill("connect4:width=6,height=5")
    page.locator("#any-position").fill("3344")
    page.locator("#any-analyse").click()
    page.locator("#any-moves").wait_for()
    game = make_game("connect4:width=6,height=5")
    solver = Connect4Solver(game, book=False)
    state = game.parse_position("3344")
    rows = page.locator("#any-moves tbody tr").all_inner_texts()
    expected = {
        game.format_action(state, a): -solver.solve(game.result(state, a)).score
        for a in game.actions(state)
    }
    assert {row.split()[0]: int(row.split()[1]) for row in rows} == expected
    assert page.locator('#any-board [data-board="connect4"]').count() == 1

    page.locator("#any-position").fill("99")
    page.locator("#any-analyse").click()
    page.wait_for_function("!document.getElementById('error').hidden")
    assert "9" in page.locator("#error").inner_text()
    assert page.locator("#any-position").input_value() == game.format_position(state)
