"""The Play page's API: sessions that survive a reload, agents thinking in threads (followed
live, stopped, held to a time limit), every class of bad input answered 4xx with a message."""

from __future__ import annotations

import io
import random
import threading
import time
from collections.abc import Callable
from typing import Any

import chess.pgn
import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from plies.agents.registry import AGENTS, AgentKind
from plies.game_texts import game_text
from plies.games import make_game, registered_games
from plies.play import play_game, seat_agents
from plies.web import sessions as sessions_module
from plies.web.app import create_app
from plies.web.workload import Budgets
from tests.conftest import register_resigner
from tests.web.conftest import OwnerClient


@pytest.fixture(autouse=True)
def no_pace(monkeypatch: pytest.MonkeyPatch) -> None:
    """Agents playing each other move at once (the page waits between their moves)."""
    monkeypatch.setattr(sessions_module, "PACE", 0.0)


def create(client: TestClient, game: str, **players: str) -> dict[str, Any]:
    answer = client.post("/api/sessions", json={"game": game, "players": players, "seed": 7})
    assert answer.status_code == 201, answer.text
    return answer.json()  # type: ignore[no-any-return]


def wait_for(
    client: TestClient, session_id: str, done: Callable[[dict[str, Any]], bool], seconds: float = 30
) -> dict[str, Any]:
    """Poll the session until ``done`` holds."""
    deadline = time.monotonic() + seconds
    while True:
        session: dict[str, Any] = client.get(f"/api/sessions/{session_id}").json()
        if done(session):
            return session
        assert time.monotonic() < deadline, f"timed out: {session}"
        time.sleep(0.02)


def idle(session: dict[str, Any]) -> bool:
    return session["thinking"] is None


def error(answer: Any, status: int = 400) -> str:
    assert answer.status_code == status, answer.text
    message = answer.json()["error"]
    assert isinstance(message, str) and message and "\n" not in message
    return message


def test_games_and_agents_are_listed(client: TestClient) -> None:
    games = {g["name"]: g for g in client.get("/api/games").json()}
    assert games["chess"]["players"] == ["White", "Black"]
    assert games["tictactoe3"]["players"] == ["X", "O", "Y"]
    agents = {a["name"]: a for a in client.get("/api/agents").json()}
    assert {"engine", "mcts", "alphabeta", "perfect", "human"} <= set(agents)
    assert "time=X" in [option["usage"] for option in agents["engine"]["options"]]
    assert games["go"]["agents"] == ["human", "mcts:time=1", "mcts:time=5", "random"]
    assert games["tictactoe"]["agents"][:2] == ["human", "alphabeta"]
    assert {"minimax", "alphabeta:depth=4", "az"} <= set(games["tictactoe"]["agents"])
    assert "perfect" in games["connect4"]["agents"] and "minimax" not in games["connect4"]["agents"]
    assert "maxn:depth=3" in games["tictactoe3"]["agents"]
    assert "expectiminimax:depth=2" in games["backgammon"]["agents"]


def test_every_suggested_agent_is_seated_and_none_past_the_think_time() -> None:
    """Each agent the Play page suggests for a game is one the server seats against a person
    (none is refused as too slow, as alphabeta:depth=4 on Go would be); a server with a
    shorter think time suggests no longer move."""
    budgets = Budgets(new_games_per_minute=10_000, think_seconds=2)
    with OwnerClient(create_app(budgets=budgets)) as client:
        games = client.get("/api/games").json()
        for entry in games:
            person, opponent = entry["players"][:2]
            assert entry["agents"][0] == "human" and entry["agents"][-1] == "random"
            for spec in entry["agents"][1:]:
                players = {person: "human", opponent: spec}
                answer = client.post(
                    "/api/sessions", json={"game": entry["name"], "players": players}
                )
                assert answer.status_code == 201, (entry["name"], spec, answer.text)
                assert not spec.endswith("time=5")


def test_a_human_plays_alphabeta_and_the_game_survives_a_reload(client: TestClient) -> None:
    session = create(client, "tictactoe", X="human", O="alphabeta")
    assert session["to_move"] == "X" and len(session["legal"]) == 9
    assert {m["notation"] for m in session["legal"]} == {f"{c}{r}" for c in "abc" for r in "123"}
    game = make_game("tictactoe")
    answer = client.post(f"/api/sessions/{session['id']}/move", json={"move": "b2"})
    assert answer.status_code == 200
    session = wait_for(client, session["id"], idle)
    assert [m["player"] for m in session["moves"]] == ["X", "O"]
    reply = session["moves"][1]
    assert reply["search"]["algorithm"] == "alphabeta" and reply["search"]["solved"]
    state = game.initial_state()
    for move in ("b2", reply["notation"]):
        state = game.result(state, game.parse_action(state, move))
    assert session["position"] == game.format_position(state)
    again = client.get(f"/api/sessions/{session['id']}").json()  # a reload, or a second tab
    assert again["moves"] == session["moves"] and again["board"] == session["board"]


def test_a_game_is_played_to_its_end_and_announced(client: TestClient) -> None:
    session = create(client, "tictactoe", X="alphabeta", O="alphabeta")
    session = wait_for(client, session["id"], lambda s: s["finished"])
    assert session["result"] == "draw" and len(session["moves"]) == 9
    assert session["legal"] == [] and session["thinking"] is None
    message = error(client.post(f"/api/sessions/{session['id']}/move", json={"move": "a1"}))
    assert "game is over" in message


def test_undo_takes_back_the_human_move_and_the_reply(client: TestClient) -> None:
    session = create(client, "connect4", X="human", O="engine:depth=2")
    assert not session["can_undo"]
    assert "nothing to undo" in error(client.post(f"/api/sessions/{session['id']}/undo"))
    client.post(f"/api/sessions/{session['id']}/move", json={"move": "4"})
    session = wait_for(client, session["id"], lambda s: idle(s) and len(s["moves"]) == 2)
    client.post(f"/api/sessions/{session['id']}/move", json={"move": "3"})
    wait_for(client, session["id"], lambda s: idle(s) and len(s["moves"]) == 4)
    undone = client.post(f"/api/sessions/{session['id']}/undo").json()
    assert [m["notation"] for m in undone["moves"]] == [m["notation"] for m in session["moves"]]
    assert undone["to_move"] == "X" and len(undone["legal"]) == 7
    restarted = client.post(f"/api/sessions/{session['id']}/new").json()
    assert restarted["moves"] == [] and restarted["position"] == ""


def test_undo_while_the_agent_thinks_discards_its_move(client: TestClient) -> None:
    session = create(client, "connect4", X="human", O="engine:depth=40")
    client.post(f"/api/sessions/{session['id']}/move", json={"move": "4"})
    thinking = client.get(f"/api/sessions/{session['id']}").json()
    assert thinking["thinking"]["player"] == "O" and thinking["legal"] == []
    assert "not your move" in error(
        client.post(f"/api/sessions/{session['id']}/move", json={"move": "3"})
    )
    undone = client.post(f"/api/sessions/{session['id']}/undo").json()
    assert undone["moves"] == [] and undone["thinking"] is None
    time.sleep(0.3)
    assert client.get(f"/api/sessions/{session['id']}").json()["moves"] == []


def test_stop_makes_the_engine_move_at_once(client: TestClient) -> None:
    session = create(client, "connect4", X="engine:depth=40", O="human")
    time.sleep(0.3)
    began = time.monotonic()
    stopped = client.post(f"/api/sessions/{session['id']}/stop")
    assert stopped.status_code == 200
    session = wait_for(client, session["id"], lambda s: len(s["moves"]) == 1, seconds=5)
    assert time.monotonic() - began < 3
    assert session["moves"][0]["search"]["algorithm"] == "engine"
    assert "no agent is thinking" in error(client.post(f"/api/sessions/{session['id']}/stop"))


def test_the_web_time_limit_stops_a_search_without_one() -> None:
    with OwnerClient(create_app(budgets=Budgets(think_seconds=0.5))) as client:
        session = create(client, "othello", B="mcts:iterations=100000000", W="human")
        session = wait_for(client, session["id"], lambda s: len(s["moves"]) == 1, seconds=10)
        assert session["moves"][0]["seconds"] < 5
        asked = client.post(
            "/api/sessions", json={"game": "othello", "players": {"B": "mcts:time=0.6"}}
        )
        assert "mcts:time=0.6: a move may take 0.5 s at most here" in error(asked)


def test_stopping_a_textbook_search_abandons_it_and_new_game_goes_on() -> None:
    # minimax walks all of tic-tac-toe: about 2 s here, many more on a loaded machine, so the
    # server's time limit is set far beyond it (the limit would stop the search as Stop does)
    with OwnerClient(create_app(budgets=Budgets(think_seconds=600))) as client:
        session = create(client, "tictactoe", X="minimax", O="human")
        assert client.post(f"/api/sessions/{session['id']}/stop").status_code == 200
        stopped = wait_for(client, session["id"], lambda s: s["error"] is not None)
        assert "stopped before its search ended" in stopped["error"] and stopped["moves"] == []
        assert stopped["thinking"] is None and stopped["legal"] == []
        client.post(f"/api/sessions/{session['id']}/new")
        again = wait_for(client, session["id"], lambda s: len(s["moves"]) == 1, seconds=300)
        assert again["error"] is None and again["to_move"] == "O"


def test_the_session_survives_a_stop_between_two_agents_moves(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sessions_module, "PACE", 1.0)
    session = create(client, "connect4", X="engine:depth=2", O="engine:depth=2")
    wait_for(client, session["id"], lambda s: len(s["moves"]) == 1)
    client.post(f"/api/sessions/{session['id']}/stop")  # during the pause before O thinks
    wait_for(client, session["id"], lambda s: len(s["moves"]) >= 3, seconds=10)


def test_undo_while_the_perfect_agent_thinks_is_safe(client: TestClient) -> None:
    """The agent thinks in one thread at a time: the one told to stop is waited for."""
    session = create(client, "connect4", X="human", O="perfect:nodes=10000000000")
    for _ in range(3):
        client.post(f"/api/sessions/{session['id']}/move", json={"move": "4"})
        client.post(f"/api/sessions/{session['id']}/undo")
    client.post(f"/api/sessions/{session['id']}/move", json={"move": "4"})
    client.post(f"/api/sessions/{session['id']}/stop")
    done = wait_for(client, session["id"], lambda s: len(s["moves"]) == 2, seconds=20)
    assert done["error"] is None


def test_the_search_behind_a_move(client: TestClient) -> None:
    session = create(client, "tictactoe", X="mcts:iterations=3000", O="engine:depth=4")
    session = wait_for(client, session["id"], lambda s: len(s["moves"]) >= 2)
    mcts = client.get(f"/api/sessions/{session['id']}/moves/0/search").json()
    tree = mcts["tree"]
    assert tree and sum(node["visits"] for node in tree) <= 3000
    assert tree[0]["move"] == mcts["notation"]  # the most visited is the move played
    assert tree[0]["children"] and all(
        c["visits"] <= tree[0]["visits"] for c in tree[0]["children"]
    )
    engine = client.get(f"/api/sessions/{session['id']}/moves/1/search").json()
    assert [line["depth"] for line in engine["lines"]] == [1, 2, 3, 4]
    assert engine["search"]["pv"][0] == engine["notation"]
    message = error(client.get(f"/api/sessions/{session['id']}/moves/99/search"))
    assert "no move 99" in message


def test_the_solver_scores_every_column(client: TestClient) -> None:
    answer = client.post(
        "/api/sessions",
        json={
            "game": "connect4",
            "players": {"X": "perfect:time=5", "O": "human"},
            "position": "44444453",
        },
    )
    assert answer.status_code == 201, answer.text
    session = wait_for(client, answer.json()["id"], lambda s: len(s["moves"]) == 1)
    search = session["moves"][0]["search"]
    assert search["solved"] and len(search["move_scores"]) == 6  # column 4 is full
    best = max(m["score"] for m in search["move_scores"])
    assert best == search["solver_score"]
    assert all(
        "draw" in m["meaning"] or "wins" in m["meaning"] or "loses" in m["meaning"]
        for m in search["move_scores"]
    )


def test_dice_are_rolled_for_chance_games(client: TestClient) -> None:
    session = create(client, "backgammon", White="human", Black="expectiminimax")
    assert session["moves"][0]["player"] == "chance"
    assert session["to_move"] == "White" and session["legal"]
    move = session["legal"][0]["notation"]
    client.post(f"/api/sessions/{session['id']}/move", json={"move": move})
    session = wait_for(client, session["id"], lambda s: idle(s) and s["to_move"] == "White")
    assert [m["player"] for m in session["moves"]][:4] == ["chance", "White", "chance", "Black"]


def test_three_players(client: TestClient) -> None:
    session = create(client, "tictactoe3", X="human", O="maxn:depth=2", Y="paranoid:depth=2")
    client.post(f"/api/sessions/{session['id']}/move", json={"move": "b2"})
    session = wait_for(client, session["id"], lambda s: idle(s) and s["to_move"] == "X")
    assert [m["player"] for m in session["moves"]] == ["X", "O", "Y"]


def test_the_live_socket_streams_changes_and_the_search(client: TestClient) -> None:
    session = create(client, "connect4", X="human", O="engine:time=0.5")
    with client.websocket_connect(f"/api/sessions/{session['id']}/live") as socket:
        first = socket.receive_json()
        assert first["type"] == "state" and first["session"]["id"] == session["id"]
        client.post(f"/api/sessions/{session['id']}/move", json={"move": "4"})
        kinds, reports = [], []
        while not reports or kinds[-1] != "state" or len(kinds) < 4:
            event = socket.receive_json()
            kinds.append(event["type"])
            if event["type"] == "search":
                reports.append(event["report"])
            elif len(event["session"]["moves"]) == 2:
                break
        assert reports and all(r["algorithm"] == "engine" for r in reports)
        assert [r["depth"] for r in reports] == sorted(r["depth"] for r in reports)
    with client.websocket_connect(f"/api/sessions/{session['id']}/live") as socket:
        socket.receive_json()
        socket.send_bytes(b"\x00\xff")  # whatever a page sends is ignored
        socket.send_text("hello")
        client.post(f"/api/sessions/{session['id']}/undo")
        assert socket.receive_json()["type"] == "state"
    with client.websocket_connect("/api/sessions/nope/live") as socket:
        frame = socket.receive_json()
        assert frame == {"type": "error", "error": "no game session 'nope' on this server"}


@pytest.mark.parametrize(
    ("address", "fragment"),
    [
        ("/api/sessions/" + "x" * 5000 + "/live", "no game session 'xxx"),
        ("/api/games/nope/live", "no WebSocket at '/api/games/nope/live'"),
        ("/api/sessions/nope/live/more", "no WebSocket at '/api/sessions/nope/live/more'"),
        ("/live", "no WebSocket at '/live'"),
    ],
)
def test_a_socket_to_an_unknown_game_gets_an_error_frame_then_the_close(
    client: TestClient, address: str, fragment: str
) -> None:
    with client.websocket_connect(address) as socket:
        frame = socket.receive_json()
        assert frame["type"] == "error" and fragment in frame["error"], frame
        assert len(frame["error"]) <= 200  # a huge address is cut, not echoed
        with pytest.raises(WebSocketDisconnect) as closed:
            socket.receive_json()
        assert closed.value.code == 4404


def test_eight_sessions_at_once(client: TestClient) -> None:
    """Eight browsers, each against its own engine, all moving at the same time."""
    made = [create(client, "connect4", X="human", O="engine:time=0.3") for _ in range(8)]
    answers: list[int] = []

    def play(session: dict[str, Any]) -> None:
        answers.append(
            client.post(f"/api/sessions/{session['id']}/move", json={"move": "4"}).status_code
        )

    threads = [threading.Thread(target=play, args=(s,)) for s in made]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert answers == [200] * 8
    for session in made:
        done = wait_for(client, session["id"], lambda s: idle(s) and len(s["moves"]) == 2)
        assert done["moves"][0]["notation"] == "4" and done["to_move"] == "X"
    ids = {s["id"] for s in made}
    assert len(ids) == 8


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"game": "shogi"}, "unknown game 'shogi'"),
        ({"game": "tictactoe:m=0"}, "m"),
        ({"game": "connect4", "players": {"X": "wizard"}}, "unknown agent 'wizard'"),
        ({"game": "connect4", "players": {"X": "engine:time=-1"}}, "time"),
        ({"game": "connect4", "players": {"X": "engine:time=nan"}}, "time"),
        ({"game": "connect4", "players": {"X": "mcts:iterations=1e99"}}, "iterations"),
        ({"game": "connect4", "players": {"X": "engine:colour=red"}}, "colour"),
        ({"game": "connect4", "players": {"Z": "human"}}, "no player 'Z'"),
        ({"game": "connect4", "players": {"O": "minimax"}}, "too slow"),
        ({"game": "chess", "players": {"Black": "alphabeta"}}, "can reach: give alphabeta:depth=N"),
        ({"game": "chess", "players": {"Black": "alphabeta:depth=30"}}, "to depth 30"),
        ({"game": "backgammon", "players": {"Black": "expectiminimax:depth=4"}}, "too slow"),
        ({"game": "nim", "players": {"B": "perfect"}}, "perfect"),
        ({"game": "connect4", "position": "4444444"}, "column"),
        ({"game": "tictactoe", "position": "XXX/OO./..."}, "over"),
        ({"game": "tictactoe", "players": {"X": "human"}, "position": "X/O"}, "position"),
        ({"game": "connect4", "players": {"O": "engine:tt=1000"}, "position": ""}, "tt=64"),
        ({"game": "chess", "players": {"Black": "uci:cmd=/bin/true"}}, "does not run programs"),
        ({"game": "go:size=5", "players": {"W": "gtp:cmd=/bin/true"}}, "does not run programs"),
    ],
)
def test_bad_sessions_are_refused_with_a_reason(
    client: TestClient, body: dict[str, Any], words: str
) -> None:
    assert words in error(client.post("/api/sessions", json=body))


def test_bad_requests_are_answered_4xx(client: TestClient) -> None:
    assert "no game session" in error(client.get("/api/sessions/nope"), 404)
    assert "no game session" in error(
        client.post("/api/sessions/nope/move", json={"move": "4"}), 404
    )
    assert "game" in error(client.post("/api/sessions", json={}), 422)
    assert "seed" in error(client.post("/api/sessions", json={"game": "nim", "seed": -1}), 422)
    malformed = client.post(
        "/api/sessions", content=b"{not json", headers={"Content-Type": "application/json"}
    )
    error(malformed, 422)
    session = create(client, "connect4", X="human", O="human")
    for move, words in [("8", "column"), ("x", "column"), ("", "move")]:
        assert (
            words
            in error(
                client.post(f"/api/sessions/{session['id']}/move", json={"move": move})
            ).lower()
        )
    assert "move" in error(client.post(f"/api/sessions/{session['id']}/move", json={}), 422)
    # the session is intact after all of it
    assert client.get(f"/api/sessions/{session['id']}").json()["moves"] == []


def test_the_api_is_documented_with_its_error_shape(client: TestClient) -> None:
    paths = client.get("/openapi.json").json()["paths"]
    for route in ("/api/sessions", "/api/trees/analyse", "/api/analyse/solved"):
        responses = paths[route]["post"]["responses"]
        assert {"400", "422"} <= set(responses)
        assert responses["422"]["content"]["application/json"]["schema"]["$ref"].endswith(
            "/Problem"
        )
    assert client.get("/docs").status_code == 200


@pytest.mark.parametrize("name", sorted(registered_games()))
def test_every_game_seats_its_default_opponent_against_a_person(
    client: TestClient, name: str
) -> None:
    """A person who names no opponent gets the game's own (a clocked engine or MCTS where a
    textbook search could not finish), and the web app accepts it."""
    game = make_game(name)
    answer = client.post(
        "/api/sessions", json={"game": name, "players": {game.players[0]: "human"}}
    )
    assert answer.status_code == 201, answer.text
    seated = {seat["player"]: seat["spec"] for seat in answer.json()["players"]}
    assert seated[game.players[1]] == game.default_opponent
    if not game.searchable_to_end:
        assert "time=" in game.default_opponent or "depth=" in game.default_opponent


def test_an_agents_illegal_move_is_the_sessions_error(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Moves go through the library's step (plies.play.GameRecord.play), which checks them."""

    class Cheat:
        name, last = "cheat", None

        def __call__(self, game: Any, state: Any) -> Any:
            return 99

        def reset(self, seed: int | None = None) -> None:
            pass

    kind = AgentKind("cheat", "plays off the board", (), lambda *_: Cheat())
    monkeypatch.setitem(AGENTS, "cheat", kind)
    session = create(client, "tictactoe", X="cheat", O="human")
    failed = wait_for(client, session["id"], lambda s: s["error"] is not None)
    assert "cheat (X) could not move: illegal move 99" in failed["error"]
    assert failed["moves"] == [] and failed["thinking"] is None


def test_an_agent_that_resigns_ends_the_game(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An agent that resigns at its second move: the game is over with its loss (no error),
    the person can play no more, and Undo takes the resignation back with the move."""

    register_resigner(monkeypatch, after=3)
    session = create(client, "go:size=5", B="human", W="resigner")
    moves = f"/api/sessions/{session['id']}/move"
    client.post(moves, json={"move": "C3"})
    wait_for(client, session["id"], lambda s: idle(s) and len(s["moves"]) == 2)
    client.post(moves, json={"move": "D4"})
    over = wait_for(client, session["id"], lambda s: s["finished"])
    assert over["result"] == "W resigns: B wins" and over["error"] is None
    assert len(over["moves"]) == 3 and over["to_move"] is None and over["legal"] == []
    assert "the game is over: W resigns: B wins" in error(client.post(moves, json={"move": "E5"}))
    undone = client.post(f"/api/sessions/{session['id']}/undo").json()
    assert not undone["finished"] and undone["result"] is None and len(undone["moves"]) == 2


def test_browsers_name_only_shipped_models_and_the_operators_folder(tmp_path: Any) -> None:
    """No file on the server is opened as a model unless the operator's folder holds it; every
    other name gets the same answer, whether such a file exists or not."""
    from pathlib import Path

    from plies.web.app import create_app

    folder = Path(tmp_path) / "models"
    folder.mkdir()
    (Path(tmp_path) / "secret.pt").write_bytes(b"he")
    (folder / "mine.pt").write_bytes(b"he")  # inside the folder: opened, and refused as no model
    with OwnerClient(create_app(models=folder)) as client:
        answers = {}
        for model in ["../secret.pt", str(Path(tmp_path) / "secret.pt"), "/etc/passwd",
                      "~/.bashrc", "nothing", "mine.pt", "tictactoe"]:  # fmt: skip
            players = {"X": "human", "O": f"az:model={model}"}
            answers[model] = client.post(
                "/api/sessions", json={"game": "tictactoe", "players": players}
            )
    refused = [answers[m] for m in ["../secret.pt", "/etc/passwd", "~/.bashrc", "nothing"]]
    refused.append(answers[str(Path(tmp_path) / "secret.pt")])
    messages = {error(answer).partition(" here ")[2] for answer in refused}
    assert len(messages) == 1 and "mine.pt" in messages.pop()  # one answer, listing the models
    assert "is not a plies network checkpoint" in error(answers["mine.pt"])
    assert answers["tictactoe"].status_code == 201


def test_request_bodies_are_bounded_before_they_are_read(client: TestClient) -> None:
    """A 300 MB body took about 900 MB of memory; now anything over 1 MiB is a 413, whether it
    says its length or streams in chunks."""
    big = b'{"game": "' + b"x" * (2 << 20) + b'"}'
    headers = {"content-type": "application/json"}
    assert "over 1,048,576 bytes" in error(
        client.post("/api/sessions", content=big, headers=headers), 413
    )
    chunks = (b"x" * 65536 for _ in range(40))
    assert "over 1,048,576" in error(
        client.post("/api/sessions", content=chunks, headers=headers), 413
    )
    assert create(client, "tictactoe", X="random")["game"] == "tictactoe"


def test_an_error_answer_quoting_a_huge_input_stays_short(client: TestClient) -> None:
    answer = client.post("/api/sessions", json={"game": "connect4", "position": "4" * 500_000})
    assert answer.status_code in (400, 422) and len(error(answer, answer.status_code)) < 500


def test_a_game_downloads_as_its_players_texts(client: TestClient) -> None:
    session = create(client, "chess", White="human", Black="human")
    assert session["records"] == ["json", "pgn"]
    for move in ("e4", "e5", "Nf3"):
        session = client.post(f"/api/sessions/{session['id']}/move", json={"move": move}).json()
    pgn = client.get(f"/api/sessions/{session['id']}/record.pgn")
    assert pgn.status_code == 200 and pgn.headers["content-type"].startswith(
        "application/x-chess-pgn"
    )
    assert pgn.headers["content-disposition"] == (
        f'attachment; filename="plies-chess-{session["id"][:8]}.pgn"'
    )
    read = chess.pgn.read_game(io.StringIO(pgn.text))
    assert read is not None and [m.uci() for m in read.mainline_moves()] == ["e2e4", "e7e5", "g1f3"]
    assert read.headers["White"] == "human" and read.headers["Result"] == "*"
    document = client.get(f"/api/sessions/{session['id']}/record.json").json()
    assert [turn["move"] for turn in document["moves"]] == ["e4", "e5", "Nf3"]
    assert document["final"] == session["position"]
    assert "written as json, pgn, not 'sgf'" in error(
        client.get(f"/api/sessions/{session['id']}/record.sgf")
    )
    assert client.get("/api/sessions/nosuchgame/record.json").status_code == 404
    go = create(client, "go:size=9", B="human", W="human")
    assert go["records"] == ["json", "sgf"]
    sgf = client.get(f"/api/sessions/{go['id']}/record.sgf")
    assert sgf.status_code == 200 and sgf.text.startswith("(;") and "SZ[9]" in sgf.text


def test_a_game_goes_on_from_its_downloaded_record(client: TestClient) -> None:
    first = create(client, "chess", White="human", Black="human")
    for move in ("e4", "e5", "Nf3"):
        client.post(f"/api/sessions/{first['id']}/move", json={"move": move})
    record = client.get(f"/api/sessions/{first['id']}/record.json").text
    body = {"game": "chess", "players": {"White": "human", "Black": "human"}, "record": record}
    again = client.post("/api/sessions", json=body)
    assert again.status_code == 201, again.text
    session = again.json()
    assert [m["notation"] for m in session["moves"]] == ["e4", "e5", "Nf3"]
    assert session["position"] == client.get(f"/api/sessions/{first['id']}").json()["position"]
    assert session["can_undo"]  # the replayed moves are the game's own


def test_a_record_with_dice_replays_its_rolls() -> None:
    game = make_game("backgammon")
    agents = seat_agents(game, dict.fromkeys(game.players, "random"), seed=4)
    played = play_game(game, agents, chance=random.Random(4), max_plies=30)
    text = game_text(played, "json", dict.fromkeys(game.players, "random"), "test")
    with OwnerClient(create_app()) as client:
        body = {"game": "backgammon", "players": dict.fromkeys(game.players, "human")}
        answer = client.post("/api/sessions", json={**body, "record": text})
        assert answer.status_code == 201, answer.text
        session = answer.json()
    replayed, after = session["moves"][: len(played.turns)], session["moves"][len(played.turns) :]
    assert [m["notation"] for m in replayed] == [t.notation for t in played.turns]
    assert [m["player"] for m in after] in ([], ["chance"])  # the session rolls the next dice


@pytest.mark.parametrize(
    ("record", "fragment"),
    [
        ("{not json", "record: not JSON"),
        ("not a record", "bad FEN 'not a record'"),
        ('{"format": "other"}', "not a plies game record"),
        ('{"format": "plies-game-1", "game": "chess", "moves": [1]}', "'moves' are not a list"),
        ('{"format": "plies-game-1", "game": "othello", "moves": []}', "a game of 'othello'"),
        (
            '{"format": "plies-game-1", "game": "chess", "moves": [{"move": "e4"}, {"move": "e4"}'
            "]}",
            "record: move 2 ('e4')",
        ),
    ],
)
def test_a_bad_record_is_refused_in_one_line(
    client: TestClient, record: str, fragment: str
) -> None:
    body = {"game": "chess", "players": {"White": "human"}, "record": record}
    assert fragment in error(client.post("/api/sessions", json=body))
