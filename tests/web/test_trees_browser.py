"""The Trees page in headless Chromium: the lecture's alpha-beta stepped through to its
cutoffs and back, a quiz with a mistake, a shared link restored, bad input shown in the banner,
editing by clicking, random trees and every export."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any
from urllib.parse import quote

from plies.lectures.random_tree import random_tree, tree_text

LECTURE = "[[3,12,8],[2,4,6],[14,5,2]]"
CHANCE = "[{1/2: [3, 12], 1/2: [2, 4]}, {1/4: 5, 3/4: 1}]"


def open_tree(page: Any, tree: str, **query: str) -> None:
    """Open the page on ``tree`` with these settings, and wait for its drawing."""
    extra = "".join(f"&{key}={quote(value)}" for key, value in query.items())
    page.goto(f"/trees?tree={quote(tree)}{extra}")
    page.wait_for_selector("#tree-svg [data-path='']")


def pruned_edges(page: Any) -> list[str]:
    return sorted(
        page.eval_on_selector_all('[data-pruned="true"]', "es => es.map(e => e.dataset.edge)")
    )


def step_text(page: Any) -> str:
    return str(page.text_content("#step-count"))


def node_value(page: Any, path: str) -> str:
    return str(page.get_attribute(f'#tree-svg [data-path="{path}"]', "data-value") or "")


def test_step_through_alpha_beta_to_the_cutoffs_and_back(page: Any, screenshot: Any) -> None:
    open_tree(page, LECTURE, algorithm="alphabeta")
    assert step_text(page) == "step 0 of 16" and pruned_edges(page) == []
    labels = page.eval_on_selector_all("#tree-svg .node", "ns => ns.map(n => n.dataset.label)")
    assert labels == ["A", "B", "b1", "b2", "b3", "C", "c1", "c2", "c3", "D", "d1", "d2", "d3"]
    kinds = [page.get_attribute(f'[data-path="{p}"]', "data-kind") for p in ["", "0", "0.0"]]
    assert kinds == ["MAX", "MIN", "leaf"]
    page.click("#step-last")
    assert step_text(page) == "step 16 of 16: done"
    assert pruned_edges(page) == ["1.1", "1.2"]
    assert [node_value(page, p) for p in ["", "0", "1", "2"]] == ["3", "3", "<=2", "2"]
    assert "α=3" in page.text_content('[data-path="1"]')
    screenshot(page, "trees-step")
    cutoff = page.get_attribute('#trace li[data-kind="cutoff"]', "data-step")
    assert cutoff == "9"
    assert "cutoff at C: v=2 ≤ α=3, prune c2, c3" in page.text_content('#trace li[data-step="9"]')
    page.click('#trace li[data-step="9"]')
    assert pruned_edges(page) == ["1.1", "1.2"] and "step=9" in page.url
    assert page.get_attribute('#trace li[data-step="9"]', "class") == "current"
    page.click("#step-back")  # c1 = 2 is back, the cut not yet made
    assert step_text(page) == "step 8 of 16" and pruned_edges(page) == []
    assert node_value(page, "1") == "2"  # C's v so far
    page.keyboard.press("ArrowRight")
    assert pruned_edges(page) == ["1.1", "1.2"]
    page.click("#step-first")
    assert node_value(page, "") == "" and pruned_edges(page) == []
    page.select_option("#speed", "250")
    page.click("#step-play")
    page.wait_for_function(
        "() => document.getElementById('step-count').textContent.endsWith('done')",
        timeout=10_000,
    )
    assert pruned_edges(page) == ["1.1", "1.2"] and page.text_content("#step-play") == "Play"


def test_chance_nodes_with_star1(page: Any, screenshot: Any) -> None:
    open_tree(page, CHANCE, algorithm="star1")
    assert page.is_visible("#bound-low")
    page.click("#step-last")
    probabilities = page.eval_on_selector_all(
        "#tree-svg .edge text", "ts => ts.map(t => t.textContent)"
    )
    assert probabilities == ["1/2", "1/2", "1/4", "3/4"]
    assert page.get_attribute('[data-path="1"]', "data-kind") == "chance"
    assert node_value(page, "") == "2.5" and node_value(page, "0") == "2.5"
    assert "Star1" in page.text_content("#summary")
    screenshot(page, "trees-chance")


def test_a_quiz_with_one_mistake(page: Any, screenshot: Any) -> None:
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url))
    open_tree(page, LECTURE, mode="quiz")
    assert not any("/analyse" in url for url in asked)  # the answer is not in the page
    assert page.get_attribute("#mode-quiz", "aria-selected") == "true"
    assert node_value(page, "1") == "" and "<=2" not in page.content()
    for path, value in {"": "3", "0": "3", "1": "2", "2": "5"}.items():
        page.fill(f'[data-value-path="{path}"]', value)
    page.click('[data-edge="1.1"]')
    page.click('[data-edge="1.2"]')
    assert pruned_edges(page) == ["1.1", "1.2"]
    assert page.is_disabled('[data-value-path="0"]') is False
    page.click("#quiz-check")
    page.wait_for_selector("#quiz-feedback:not([hidden])")
    assert page.text_content("#quiz-feedback") == (
        "15 of 16 right. First mistake: D = 2: the minimum of 14, 5, 2"
    )
    assert "wrong" in page.get_attribute('[data-value-path="2"]', "class")
    assert "right" in page.get_attribute('[data-value-path="1"]', "class")
    assert page.get_attribute('[data-value-path="2"]', "title") == "D = 2: the minimum of 14, 5, 2"
    assert page.get_attribute('[data-edge="1.1"]', "data-mark") == "right"
    screenshot(page, "trees-quiz")
    page.click('[data-edge="1.2"]')  # unmark a pruned edge: a missed prune
    page.fill('[data-value-path="2"]', "2")
    page.click("#quiz-check")
    page.wait_for_function("() => /First mistake: C is cut/.test(document.body.textContent)")
    assert "C is cut after c1: v=2 ≤ α=3, so c2, c3 are pruned" in page.text_content(
        "#quiz-feedback"
    )
    assert page.get_attribute('[data-edge="1.2"]', "data-mark") == "wrong"
    page.click("#quiz-solution")
    page.wait_for_selector(".quiz-value.solution")
    values = {p: page.input_value(f'[data-value-path="{p}"]') for p in ["", "0", "1", "2"]}
    assert values == {"": "3", "0": "3", "1": "<=2", "2": "2"}
    assert pruned_edges(page) == ["1.1", "1.2"]
    assert "Pruned: c2, c3." in page.text_content("#quiz-feedback")
    screenshot(page, "trees-solution")


def test_a_marked_edge_hides_the_values_below_it(page: Any) -> None:
    open_tree(page, "[[3, [4, 5]], 2]", mode="quiz")
    page.click('[data-edge="0.1"]')
    assert page.is_disabled('[data-value-path="0.1"]')
    assert page.get_attribute('[data-edge="0.1.0"]', "opacity") == "0.35"
    page.click('[data-edge="0.1"]')
    assert not page.is_disabled('[data-value-path="0.1"]')


def test_a_shared_link_restores_the_tree_and_its_settings(
    page: Any, browser: Any, server: str
) -> None:
    page.goto("/trees")
    page.wait_for_selector("#tree-svg")
    page.select_option("#example", label="CS188: two ghosts")
    page.wait_for_function("() => /MAX,MIN,MIN/.test(decodeURIComponent(location.search))")
    page.select_option("#order", "rtl")
    page.wait_for_function("() => location.search.includes('order=rtl')")
    page.check("#strict")
    page.wait_for_function("() => location.search.includes('strict=1')")
    page.click("#step-forward")
    page.click("#step-forward")
    page.wait_for_function("() => location.search.includes('step=2')")
    link = page.url
    drawn = page.inner_html("#tree-svg")
    fresh = browser.new_context(base_url=server, viewport={"width": 1400, "height": 900}).new_page()
    fresh.goto(link)
    fresh.wait_for_selector("#tree-svg [data-path='']")
    assert fresh.input_value("#tree-text") == "[[[3, 9], [8, 2]], [[4, 7], [1, 5]]]"
    assert fresh.input_value("#players") == "MAX,MIN,MIN" and fresh.is_disabled("#root")
    assert fresh.input_value("#order") == "rtl" and fresh.is_checked("#strict")
    assert fresh.text_content("#step-count") == page.text_content("#step-count")
    assert fresh.inner_html("#tree-svg") == drawn
    fresh.click("#mode-quiz")
    fresh.wait_for_function("() => location.search.includes('mode=quiz')")
    quiz = fresh.url
    fresh.goto(quiz)
    fresh.wait_for_selector(".quiz-value")
    assert fresh.get_attribute("#mode-quiz", "aria-selected") == "true"
    kinds = fresh.eval_on_selector_all("#tree-svg .node", "ns => ns.map(n => n.dataset.kind)")
    assert kinds[:3] == ["MAX", "MIN", "MIN"]
    fresh.context.close()


def test_bad_input_shows_in_the_banner_and_the_page_goes_on(page: Any, screenshot: Any) -> None:
    open_tree(page, LECTURE)
    page.fill("#tree-text", "[[3, 12, 8], [2, 4")
    page.click("#draw")
    page.wait_for_selector("#error:not([hidden])")
    assert "tree: unbalanced brackets" in page.text_content("#error")
    assert page.is_visible("#tree-svg [data-path='2.2']")  # the last good tree stays
    screenshot(page, "trees-error")
    page.fill("#tree-text", "[1, nan]")
    page.click("#draw")
    page.wait_for_function(
        "() => /not a finite number/.test(document.getElementById('error').textContent)"
    )
    page.click("#random-box summary")
    page.fill("#random-depth", "12")
    page.click("#generate")
    page.wait_for_function(
        "() => /depth must be 1 to 8/.test(document.getElementById('error').textContent)"
    )
    page.fill("#random-depth", "")
    page.click("#generate")
    page.wait_for_function(
        "() => /depth: Input should be/.test(document.getElementById('error').textContent)"
    )
    page.fill("#random-depth", "6")
    page.fill("#random-most", "4")
    page.click("#generate")
    page.wait_for_function(
        "() => /the limit is 400/.test(document.getElementById('error').textContent)"
    )
    page.fill("#tree-text", CHANCE)
    page.select_option("#algorithm", "alphabeta")
    page.wait_for_function(
        "() => /chance nodes/.test(document.getElementById('error').textContent)"
    )
    page.select_option("#algorithm", "star1")
    page.wait_for_selector("#error", state="hidden")
    page.fill("#bound-low", "9")
    page.fill("#bound-high", "0")
    page.press("#bound-high", "Tab")
    page.wait_for_function(
        "() => /lower <= upper/.test(document.getElementById('error').textContent)"
    )
    page.fill("#bound-low", "0")
    page.fill("#bound-high", "20")
    page.press("#bound-high", "Tab")
    page.wait_for_function("() => location.search.includes('bounds=0%2C20')")
    assert page.is_hidden("#error")
    page.click("#step-last")
    assert node_value(page, "") == "2.5"


def test_edit_by_clicking(page: Any, screenshot: Any) -> None:
    open_tree(page, LECTURE, mode="edit")
    text = lambda: page.input_value("#tree-text")  # noqa: E731
    page.click('[data-path="1"]')
    assert page.text_content("#edit-selected") == "C (MIN)"
    page.click("#edit-add")
    page.wait_for_function("() => document.getElementById('tree-text').value.includes('6, 0]')")
    assert text() == "[[3, 12, 8], [2, 4, 6, 0], [14, 5, 2]]"
    page.click('[data-path="1.3"]')
    page.fill("#edit-value", "7")
    page.press("#edit-value", "Enter")
    page.wait_for_function("() => document.getElementById('tree-text').value.includes('6, 7]')")
    page.click('[data-path="1"]')
    page.click("#edit-chance")
    page.wait_for_function("() => document.getElementById('tree-text').value.includes('{')")
    assert text() == "[[3, 12, 8], {1/4: 2, 1/4: 4, 1/4: 6, 1/4: 7}, [14, 5, 2]]"
    page.click('[data-path="1.0"]')
    page.fill("#edit-probability", "1/2")
    page.press("#edit-probability", "Enter")
    page.wait_for_function("() => document.getElementById('tree-text').value.includes('1/2')")
    assert text() == "[[3, 12, 8], {1/2: 2, 1/6: 4, 1/6: 6, 1/6: 7}, [14, 5, 2]]"
    page.fill("#edit-probability", "2")
    page.press("#edit-probability", "Enter")
    page.wait_for_selector("#error:not([hidden])")
    assert "not a number from 0 to 1" in page.text_content("#error")
    page.click('[data-path="0.1"]')
    page.click("#edit-delete")
    page.wait_for_function("() => document.getElementById('tree-text').value.startsWith('[[3, 8]')")
    assert page.get_attribute('[data-path="0.1"]', "data-label") == "b2"  # named afresh
    assert "tree=%5B%5B3%2C+8%5D" in page.url
    screenshot(page, "trees-edit")
    page.click("#mode-step")
    page.click("#step-last")
    assert step_text(page).endswith("done")


def test_random_trees(page: Any) -> None:
    open_tree(page, LECTURE)
    page.click("#random-box summary")
    for field, value in {"depth": "2", "fewest": "3", "most": "3", "low": "1", "high": "9"}.items():
        page.fill(f"#random-{field}", value)
    page.fill("#random-seed", "4")
    page.click("#generate")
    expected = tree_text(random_tree(2, 3, 1, 9, seed=4))
    page.wait_for_function(
        "text => document.getElementById('tree-text').value === text", arg=expected
    )
    assert page.get_attribute("#random-seed", "placeholder") == "any (last: 4)"
    assert page.locator("#tree-svg .node").count() == 13
    page.check("#random-chance")
    page.fill("#random-seed", "")
    page.click("#generate")
    page.wait_for_function("() => document.getElementById('tree-text').value.includes('{')")
    page.wait_for_selector('#tree-svg [data-path="0"][data-kind="chance"]')  # once redrawn
    assert re.match(r"any \(last: \d+\)", page.get_attribute("#random-seed", "placeholder"))


def _download(page: Any, button: str, tmp_path: Path) -> Path:
    with page.expect_download() as download:
        page.click(button)
    target = tmp_path / download.value.suggested_filename
    download.value.save_as(target)
    return target


def test_export_svg_png_and_json(page: Any, tmp_path: Path) -> None:
    open_tree(page, LECTURE)
    page.click("#step-last")
    picture = _download(page, "#export-svg", tmp_path).read_text(encoding="utf-8")
    assert picture.startswith('<?xml version="1.0" encoding="UTF-8"?>\n<svg')
    assert 'xmlns="http://www.w3.org/2000/svg"' in picture and 'data-edge="1.1"' in picture
    assert 'class="hit"' not in picture and "≤2" in picture
    png = _download(page, "#export-png", tmp_path).read_bytes()
    assert png.startswith(b"\x89PNG\r\n\x1a\n") and len(png) > 5000
    data = json.loads(_download(page, "#export-json", tmp_path).read_text(encoding="utf-8"))
    assert data["tree"] == "[[3, 12, 8], [2, 4, 6], [14, 5, 2]]"
    assert data["settings"]["algorithm"] == "alphabeta" and data["mode"] == "step"
    assert data["report"]["pruned_leaf_labels"] == ["c2", "c3"]
    assert data["trace"][8] == "cutoff at C: v=2 <= alpha=3, prune c2, c3"
    page.click("#mode-quiz")
    page.wait_for_selector(".quiz-value")
    quiz = json.loads(_download(page, "#export-json", tmp_path).read_text(encoding="utf-8"))
    assert "report" not in quiz and quiz["mode"] == "quiz"  # no answer before the solution
