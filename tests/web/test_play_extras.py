"""The Play page's game on the clock, resignation, hints, the review after the game, and games
started from a pasted PGN, SGF or position (the JSON API)."""

from __future__ import annotations

import io
import time
from typing import Any

import chess.pgn
from fastapi.testclient import TestClient

from plies.web.app import create_app
from plies.web.workload import Budgets
from tests.web.conftest import OwnerClient


def _start(client: TestClient, **body: Any) -> dict[str, Any]:
    answer = client.post("/api/sessions", json=body)
    assert answer.status_code == 201, answer.text
    return dict(answer.json())


def _wait(client: TestClient, game: str, until: Any, seconds: float = 30) -> dict[str, Any]:
    ends = time.monotonic() + seconds
    while True:
        state = client.get(f"/api/sessions/{game}").json()
        if until(state) or time.monotonic() > ends:
            return dict(state)
        time.sleep(0.05)


def test_a_person_loses_on_time_while_nobody_moves(client: TestClient) -> None:
    game = _start(client, game="tictactoe", players={"X": "human", "O": "alphabeta"}, clock="0.5")
    clock = game["clock"]
    assert (clock["control"], clock["running"], clock["left"]["O"]) == ("0.5", "X", 0.5)
    assert 0 < clock["left"]["X"] <= 0.5
    over = _wait(client, game["id"], lambda s: s["finished"], 10)
    assert over["finished"] and "time" in over["result"] and over["result"].startswith("X")
    late = client.post(f"/api/sessions/{game['id']}/move", json={"move": "b2"})
    assert late.status_code == 400 and "over" in late.json()["error"]


def test_the_clock_runs_for_both_and_gains_the_increment(client: TestClient) -> None:
    game = _start(
        client, game="tictactoe", players={"X": "human", "O": "engine:depth=2"}, clock="60+2"
    )
    client.post(f"/api/sessions/{game['id']}/move", json={"move": "b2"})
    moved = _wait(client, game["id"], lambda s: len(s["moves"]) == 2)
    left = moved["clock"]["left"]
    assert 60 < left["X"] <= 62 and 60 < left["O"] <= 62 and moved["clock"]["running"] == "X"
    undo = client.post(f"/api/sessions/{game['id']}/undo")
    assert undo.status_code == 400 and "clock" in undo.json()["error"]


def test_bad_clocks_are_refused(client: TestClient) -> None:
    for clock, message in [("fast", "BASE"), ("nan", "over 0"), ("99999", "three hours")]:
        answer = client.post("/api/sessions", json={"game": "tictactoe", "clock": clock})
        assert answer.status_code == 400 and message in answer.json()["error"], answer.text


def test_a_person_resigns_and_the_game_is_reviewed(client: TestClient) -> None:
    game = _start(client, game="tictactoe", players={"X": "human", "O": "alphabeta"})
    first = client.post(f"/api/sessions/{game['id']}/review")
    assert first.status_code == 400 and "finished" in first.json()["error"]
    client.post(f"/api/sessions/{game['id']}/move", json={"move": "b1"})
    _wait(client, game["id"], lambda s: len(s["moves"]) == 2)
    resigned = client.post(f"/api/sessions/{game['id']}/resign").json()
    assert resigned["finished"] and resigned["result"] == "X resigns: O wins"
    client.post(f"/api/sessions/{game['id']}/review")
    done = _wait(client, game["id"], lambda s: s["review"] and s["review"]["result"], 60)
    review = done["review"]["result"]
    assert review["analyser"] == "engine" and len(review["moves"]) == 2
    assert [p["player"] for p in review["players"]] == ["X", "O"]
    again = client.post(f"/api/sessions/{game['id']}/review")
    assert again.status_code == 400 and "already" in again.json()["error"]


def test_a_watcher_may_ask_for_the_review_but_not_resign(app: Any, client: TestClient) -> None:
    game = _start(client, game="tictactoe", players={"X": "human", "O": "alphabeta"})
    with TestClient(app) as other:
        answer = other.post(f"/api/sessions/{game['id']}/resign")
        assert answer.status_code == 403


def test_a_draw_offer_is_answered_by_the_analyser() -> None:
    """Accepted at tic-tac-toe's start (a draw by minimax): the game ends drawn by agreement;
    declined where the agent has a won game; refused where the game has no draws, on the
    agent's turn, and after the end."""
    with OwnerClient(create_app(budgets=Budgets(think_seconds=1))) as client:
        game = _start(client, game="tictactoe", players={"X": "human", "O": "alphabeta"})
        assert game["draws"]
        answer = client.post(f"/api/sessions/{game['id']}/draw").json()
        assert answer["accepted"] and "O accepts" in answer["text"], answer
        over = client.get(f"/api/sessions/{game['id']}").json()
        assert over["finished"] and over["result"] == "draw by agreement"
        again = client.post(f"/api/sessions/{game['id']}/draw")
        assert again.status_code == 400 and "over" in again.json()["error"]
        lost = _start(
            client,
            game="tictactoe",
            players={"X": "engine:depth=1", "O": "human"},
            record="XOO/.../X.X",
        )
        answer = client.post(f"/api/sessions/{lost['id']}/draw").json()
        assert not answer["accepted"] and "X declines" in answer["text"], answer
        assert not client.get(f"/api/sessions/{lost['id']}").json()["finished"]
        thinking = _start(client, game="connect4", players={"X": "mcts:time=1", "O": "human"})
        refused = client.post(f"/api/sessions/{thinking['id']}/draw")
        assert refused.status_code == 400 and "own turn" in refused.json()["error"]
        client.post(f"/api/sessions/{thinking['id']}/stop")
        for spec, players in [("backgammon", {"White": "human"}), ("go:size=5", {"B": "human"})]:
            other = _start(client, game=spec, players=players)
            assert not other["draws"]
            refused = client.post(f"/api/sessions/{other['id']}/draw")
            assert refused.status_code == 400 and "cannot end drawn" in refused.json()["error"]
        people = _start(client, game="go:size=5,komi=6", players={"B": "human", "W": "human"})
        assert client.post(f"/api/sessions/{people['id']}/draw").json()["accepted"]


def test_hints_only_when_asked_for() -> None:
    with OwnerClient(create_app(budgets=Budgets(think_seconds=1))) as client:
        plain = _start(client, game="tictactoe", players={"X": "human", "O": "alphabeta"})
        refused = client.post(f"/api/sessions/{plain['id']}/hint")
        assert refused.status_code == 400 and "hints are off" in refused.json()["error"]
        game = _start(
            client, game="connect4", players={"X": "human", "O": "alphabeta:depth=2"}, hints=True
        )
        hint = client.post(f"/api/sessions/{game['id']}/hint").json()
        assert hint["analyser"] == "solver" and hint["move"] == "4", hint


def test_a_pasted_pgn_continues_the_game(client: TestClient) -> None:
    pgn = "1. e4 e5 2. Nf3 Nc6 *"
    game = _start(client, game="chess", players={"White": "human", "Black": "human"}, record=pgn)
    assert [m["notation"] for m in game["moves"]] == ["e4", "e5", "Nf3", "Nc6"]
    record = client.get(f"/api/sessions/{game['id']}/record.pgn").text
    read = chess.pgn.read_game(io.StringIO(record))
    assert read is not None and len(list(read.mainline_moves())) == 4
    fen = "8/8/8/4k3/8/8/8/4K2R w K - 0 1"
    from_fen = _start(client, game="chess", players={"White": "human"}, record=fen)
    assert from_fen["position"].startswith("8/8/8/4k3") and from_fen["moves"] == []
    bad = client.post(
        "/api/sessions", json={"game": "chess", "players": {}, "record": "1. e4 e5 2. Ke3 *"}
    )
    assert bad.status_code == 400 and "illegal san" in bad.json()["error"]
