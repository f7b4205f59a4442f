"""The server's budgets: new games a minute per address (a storm of creations is answered 429,
never a 5xx), a full server that drops unwatched games first, games between agents that move
on only while someone watches, idle games dropped, and live pages that cannot make the server
queue for them."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest
from fastapi.testclient import TestClient

from plies.web import sessions as sessions_module
from plies.web.app import create_app
from plies.web.play import Latest
from plies.web.workload import Budgets, NewGameLimit, Workload


def created(client: TestClient, game: str = "tictactoe", **players: str) -> dict[str, Any]:
    answer = client.post("/api/sessions", json={"game": game, "players": players})
    assert answer.status_code == 201, answer.text
    return answer.json()  # type: ignore[no-any-return]


def test_a_storm_of_new_games_is_answered_429_and_other_addresses_still_play() -> None:
    app = create_app(budgets=Budgets(new_games_per_minute=5))
    with TestClient(app) as client:
        statuses = []
        for _ in range(300):
            answer = client.post("/api/sessions", json={"game": "tictactoe"})
            statuses.append(answer.status_code)
            if answer.status_code == 429:
                assert int(answer.headers["Retry-After"]) >= 1
                assert "at most 5 a minute" in answer.json()["error"]
        assert statuses.count(201) == 5 and statuses.count(429) == 295
        assert len(app.state.sessions.sessions) == 5
    with TestClient(app, client=("192.0.2.7", 4000)) as other:
        created(other)


def test_the_new_game_limit_refills_with_time(monkeypatch: pytest.MonkeyPatch) -> None:
    now = [1000.0]
    monkeypatch.setattr(time, "monotonic", lambda: now[0])
    limit = NewGameLimit(60)
    for _ in range(60):
        limit.take("a")
    with pytest.raises(Exception, match="try again in 1 s"):
        limit.take("a")
    now[0] += 2.0  # a token a second
    limit.take("a")
    limit.take("a")
    with pytest.raises(Exception, match="too many new games"):
        limit.take("a")


def test_a_full_server_drops_unwatched_games_first_and_refuses_when_all_are_watched() -> None:
    app = create_app(budgets=Budgets(max_sessions=2, watch_seconds=0.3))
    with TestClient(app) as client:
        first, second = created(client)["id"], created(client)["id"]
        time.sleep(0.4)
        client.get(f"/api/sessions/{second}")  # watched again; the first is not
        third = created(client)["id"]
        assert client.get(f"/api/sessions/{first}").status_code == 404
        with (
            client.websocket_connect(f"/api/sessions/{second}/live") as one,
            client.websocket_connect(f"/api/sessions/{third}/live") as other,
        ):
            one.receive_json()
            other.receive_json()
            time.sleep(0.4)  # requests forgotten: the live pages alone watch
            answer = client.post("/api/sessions", json={"game": "tictactoe"})
            assert answer.status_code == 503 and "every one watched" in answer.json()["error"]
            assert int(answer.headers["Retry-After"]) > 0


def test_a_game_between_agents_pauses_unwatched_and_goes_on_when_looked_at(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(sessions_module, "PACE", 0.15)
    app = create_app(budgets=Budgets(watch_seconds=0.5))
    with TestClient(app) as client:
        session_id = created(client, "connect4", X="engine:depth=2", O="engine:depth=2")["id"]
        session = app.state.sessions.sessions[session_id]
        deadline = time.monotonic() + 10
        while not session.paused:
            assert time.monotonic() < deadline
            time.sleep(0.05)
        played = len(session.record.turns)
        assert 0 < played < 42
        time.sleep(1.0)  # nobody looks: nothing is computed
        assert len(session.record.turns) == played and session.thinking is None
        looked = client.get(f"/api/sessions/{session_id}").json()
        assert looked["paused"] is False and looked["thinking"] is not None
        while len(session.record.turns) == played:
            assert time.monotonic() < deadline
            time.sleep(0.05)
        with client.websocket_connect(f"/api/sessions/{session_id}/live") as live:
            live.receive_json()
            while not session.game.is_terminal(session.record.state):  # a live page watches
                assert time.monotonic() < deadline + 20
                time.sleep(0.1)


def test_idle_games_are_dropped_and_live_ones_kept() -> None:
    app = create_app(budgets=Budgets(idle_minutes=0.01))  # 0.6 s
    with TestClient(app) as client:
        idle, followed = created(client)["id"], created(client)["id"]
        with client.websocket_connect(f"/api/sessions/{followed}/live") as live:
            live.receive_json()
            time.sleep(1.0)  # the sweeper looks every 0.15 s
            assert idle not in app.state.sessions.sessions
            assert followed in app.state.sessions.sessions
        assert client.get(f"/api/sessions/{idle}").status_code == 404


def test_the_workload_runs_jobs_first_come_first_served() -> None:
    workload = Workload(1, 1.0)
    order: list[int] = []
    with workload.slot():
        threads = []
        for index in range(4):
            thread = threading.Thread(
                target=lambda i=index: _run(workload, order, i), name=f"job{index}"
            )
            thread.start()
            threads.append(thread)
            while workload.waiting() < index + 1:
                time.sleep(0.005)
        with pytest.raises(Exception, match="busy"):
            workload.check_room(4)
    for thread in threads:
        thread.join()
    assert order == [0, 1, 2, 3] and workload.running == 0
    stop = threading.Event()
    with workload.slot():
        stop.set()
        with workload.slot(stop) as held:  # a stopped job stops waiting and holds nothing
            assert held is False and workload.running == 1


def test_an_interrupted_job_leaves_the_queue_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(Workload, "STOP_LOOK_SECONDS", 60.0)
    workload, stop, outcome = Workload(1, 1.0), threading.Event(), []

    def wait() -> None:
        with workload.slot(stop) as held:
            outcome.append(held)

    with workload.slot():
        waiter = threading.Thread(target=wait)
        waiter.start()
        while workload.waiting() == 0:
            time.sleep(0.005)
        workload.interrupt(stop)
        waiter.join(timeout=20)  # woken, not left to look at its flag a minute later
        assert outcome == [False] and workload.waiting() == 0 and workload.running == 1
    assert workload.running == 0


def _run(workload: Workload, order: list[int], index: int) -> None:
    with workload.slot() as held:
        assert held
        order.append(index)


def test_bad_frames_from_a_live_page_are_ignored(client: TestClient) -> None:
    session_id = created(client, X="human", O="human")["id"]
    with client.websocket_connect(f"/api/sessions/{session_id}/live") as live:
        assert live.receive_json()["type"] == "state"
        live.send_bytes(b"\xff\x00" * 1000)
        live.send_text("not json {")
        client.post(f"/api/sessions/{session_id}/move", json={"move": "b2"})
        event = live.receive_json()
        assert event["type"] == "state" and len(event["session"]["moves"]) == 1


def test_a_slow_page_is_sent_the_latest_state_and_search_only() -> None:
    def flood() -> list[list[dict[str, Any]]]:  # no loop needed: nothing waits on it here
        latest = Latest()
        for version in range(1000):
            latest.keep({"type": "search", "n": version})
            if version % 100 == 0:
                latest.keep({"type": "state", "n": version})
        first = latest.take()
        assert not latest.ready.is_set()
        latest.keep({"type": "search", "n": 1000})
        latest.keep({"type": "state", "n": 1001})  # a state makes the search before it stale
        return [first, latest.take(), latest.take()]

    first, second, third = flood()
    assert first == [{"type": "state", "n": 900}, {"type": "search", "n": 999}]
    assert second == [{"type": "state", "n": 1001}] and third == []
