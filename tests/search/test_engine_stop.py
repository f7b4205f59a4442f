"""Stopping a running engine search from another thread (``Limits.stop``)."""

from __future__ import annotations

import threading
from typing import Any

from plies.games import make_game
from plies.search import SearchResult
from plies.search.engine import Limits, iterate, search


def test_a_set_stop_ends_the_search_at_the_first_check() -> None:
    """The first iteration always completes (every search scores a move); then the event is
    read every 16 nodes, where the clock is: a search told to stop before it starts ends at
    the first check of the second iteration, with depth 1's move."""
    game = make_game("connect4")
    stop = threading.Event()
    stop.set()
    first, last = list(iterate(game, game.initial_state(), Limits(stop=stop)))
    assert (first.depth, first.complete) == (1, True)
    assert (last.depth, last.complete) == (1, False)
    assert first.stats.nodes < last.stats.nodes <= first.stats.nodes + 16
    assert last.action in game.actions(game.initial_state())
    stopped = search(game, game.initial_state(), Limits(stop=stop))
    assert stopped.stats.nodes == last.stats.nodes and stopped.depth == 1


def test_stop_from_another_thread_ends_an_unlimited_search() -> None:
    """With no other limit the search would run for hours; the main thread sets the event
    while the worker holds iteration 4, which then ends with the best move so far."""
    game = make_game("connect4")
    stop, third_done = threading.Event(), threading.Event()
    reports: list[SearchResult[Any]] = []

    def run() -> None:
        for report in iterate(game, game.initial_state(), Limits(stop=stop)):
            reports.append(report)
            if report.depth == 3:
                third_done.set()
                stop.wait()

    worker = threading.Thread(target=run)
    worker.start()
    assert third_done.wait(timeout=60)
    stop.set()
    worker.join(timeout=60)
    assert not worker.is_alive()
    assert [r.depth for r in reports] == [1, 2, 3, 3]  # the depth completed
    assert [r.complete for r in reports] == [True, True, True, False]
    assert reports[-1].action in game.actions(game.initial_state())


def test_stop_is_not_part_of_the_limits_value() -> None:
    assert Limits(depth=3, stop=threading.Event()) == Limits(depth=3)
    assert hash(Limits(seconds=1.0, stop=threading.Event())) == hash(Limits(seconds=1.0))
