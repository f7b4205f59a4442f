"""Backgammon with the doubling cube in the web app's API: the cube and the match's score on the
board, the cube's actions as buttons and moves, and the match file among the downloads."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from plies.web import sessions as sessions_module
from tests.web.test_play_api import create, idle, wait_for


@pytest.fixture(autouse=True)
def no_pace(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sessions_module, "PACE", 0)


def _until_a_double_may_be(client: TestClient, session: dict[str, Any]) -> dict[str, Any]:
    """Play the first legal move until the side to move may double."""
    for _ in range(20):
        notations = [move["notation"] for move in session["legal"]]
        if "double" in notations:
            return session
        client.post(f"/api/sessions/{session['id']}/move", json={"move": notations[0]})
        session = wait_for(client, session["id"], lambda s: idle(s) and bool(s["legal"]))
    raise AssertionError("no double came")


def test_a_person_doubles_and_takes_and_the_board_shows_the_cube(client: TestClient) -> None:
    session = create(client, "backgammon:match=3", White="human", Black="human")
    board = session["board"]
    assert board["cube"] == {"value": 1, "owner": None}
    assert board["score"] == {"length": 3, "crawford": False, "points": {"White": 0, "Black": 0}}
    assert ["match", "to 3: White 0, Black 0"] in board["facts"]
    session = _until_a_double_may_be(client, session)
    doubler = session["to_move"]
    assert [b["id"] for b in session["board"]["buttons"]] == ["roll", "double"]
    assert {"notation": "double", "path": ["double"]} in session["legal"]
    client.post(f"/api/sessions/{session['id']}/move", json={"move": "double"})
    session = wait_for(client, session["id"], lambda s: idle(s) and s["to_move"] != doubler)
    taker = session["to_move"]
    assert [move["notation"] for move in session["legal"]] == ["take", "drop"]
    assert session["board"]["status"] == f"{doubler} doubles to 2: {taker} to take or drop"
    client.post(f"/api/sessions/{session['id']}/move", json={"move": "TAKE"})
    session = wait_for(client, session["id"], lambda s: idle(s) and s["to_move"] == doubler)
    assert session["board"]["cube"] == {"value": 2, "owner": taker}
    assert "mat" in session["records"]
    text = client.get(f"/api/sessions/{session['id']}/record.mat").text
    assert text.startswith(" 3 point match\n") and " Doubles => 2" in text and " Takes" in text
