"""Games kept in the server's database: a restarted server (a new app on the same file) shows
the games it had, in progress and finished, and an agent that was thinking thinks again; only
the browser holding a game's token plays in it, anyone else watches; ids cannot be guessed;
a games file that cannot be used is refused at the start, never overwritten."""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from plies.web import sessions as sessions_module
from plies.web.app import create_app
from plies.web.play import TOKEN_HEADER
from plies.web.store import GameStore, StoreError
from plies.web.workload import Budgets
from tests.conftest import register_resigner
from tests.web.conftest import OwnerClient
from tests.web.test_play_api import error, wait_for


@pytest.fixture(autouse=True)
def no_pace(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sessions_module, "PACE", 0.0)


@contextmanager
def serving(db: Path, tokens: dict[str, str] | None = None, **budgets: Any) -> Iterator[Any]:
    """A server keeping its games in ``db``, through a browser holding ``tokens``; the server
    is stopped (its sessions closed, the file closed) when the block ends."""
    app = create_app(db=db, budgets=Budgets(new_games_per_minute=1000, **budgets))
    try:
        with OwnerClient(app) as client:
            client.tokens.update(tokens or {})
            yield client
    finally:
        app.state.sessions.close()


def start(client: TestClient, game: str, **players: str) -> dict[str, Any]:
    answer = client.post("/api/sessions", json={"game": game, "players": players, "seed": 3})
    assert answer.status_code == 201, answer.text
    return answer.json()  # type: ignore[no-any-return]


def move(client: TestClient, session_id: str, notation: str) -> dict[str, Any]:
    answer = client.post(f"/api/sessions/{session_id}/move", json={"move": notation})
    assert answer.status_code == 200, answer.text
    return answer.json()  # type: ignore[no-any-return]


def test_a_restarted_server_shows_the_games_it_had(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite"
    with serving(db) as client:
        chess = start(client, "chess", White="human", Black="human")
        for notation in ("e4", "e5", "Nf3"):
            before = move(client, chess["id"], notation)
        dice = start(client, "backgammon", White="human", Black="random")
        dice = move(client, dice["id"], dice["legal"][0]["notation"])
        dice = wait_for(client, dice["id"], lambda s: s["thinking"] is None and s["legal"])
        over = start(client, "tictactoe", X="alphabeta", O="alphabeta")
        over = wait_for(client, over["id"], lambda s: s["finished"])
        record = client.get(f"/api/sessions/{chess['id']}/record.json").json()
        tokens = dict(client.tokens)
    assert before["kept"] and before["keep_error"] is None
    with serving(db, tokens) as client:
        again = client.get(f"/api/sessions/{chess['id']}").json()
        assert [m["notation"] for m in again["moves"]] == ["e4", "e5", "Nf3"]
        assert again["position"] == before["position"] and again["to_move"] == "Black"
        assert client.get(f"/api/sessions/{chess['id']}/record.json").json() == record
        rolled = client.get(f"/api/sessions/{dice['id']}").json()
        assert rolled["moves"] == [{**m, "search": None, "lines": []} for m in dice["moves"]]
        assert rolled["position"] == dice["position"] and rolled["legal"] == dice["legal"]
        finished = client.get(f"/api/sessions/{over['id']}").json()
        assert finished["finished"] and finished["result"] == "draw"
        assert [m["notation"] for m in finished["moves"]] == [m["notation"] for m in over["moves"]]
        assert move(client, chess["id"], "Nc6")["to_move"] == "White"  # its owner plays on
    with serving(db, tokens) as client:  # and that move was kept too
        assert len(client.get(f"/api/sessions/{chess['id']}").json()["moves"]) == 4


def test_an_agent_thinking_when_the_server_stopped_thinks_again(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite"
    with serving(db) as client:
        game = start(client, "connect4", X="human", O="engine:depth=40")
        thinking = move(client, game["id"], "4")
        assert thinking["thinking"]["player"] == "O"
        tokens = dict(client.tokens)
    with serving(db, tokens) as client:
        back = client.get(f"/api/sessions/{game['id']}").json()
        assert back["thinking"]["player"] == "O" and len(back["moves"]) == 1
        assert client.post(f"/api/sessions/{game['id']}/stop").status_code == 200
        done = wait_for(client, game["id"], lambda s: len(s["moves"]) == 2, seconds=10)
        assert done["to_move"] == "X" and done["kept"]


def test_undo_new_game_an_agreed_draw_and_a_resignation_are_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "games.sqlite"
    register_resigner(monkeypatch, after=1)
    with serving(db) as client:
        undone = start(client, "tictactoe", X="human", O="human")
        for notation in ("b2", "a1", "c3"):
            move(client, undone["id"], notation)
        client.post(f"/api/sessions/{undone['id']}/undo")
        again = start(client, "connect4", X="human", O="human")
        move(client, again["id"], "4")
        client.post(f"/api/sessions/{again['id']}/new")
        drawn = start(client, "connect4", X="human", O="human")
        move(client, drawn["id"], "4")
        client.post(f"/api/sessions/{drawn['id']}/draw")
        resigned = start(client, "go:size=5", B="human", W="resigner")
        move(client, resigned["id"], "C3")
        wait_for(client, resigned["id"], lambda s: s["finished"])
    with serving(db) as client:
        kept = client.get(f"/api/sessions/{undone['id']}").json()["moves"]
        assert [m["notation"] for m in kept] == ["b2", "a1"]
        assert client.get(f"/api/sessions/{again['id']}").json()["moves"] == []
        agreed = client.get(f"/api/sessions/{drawn['id']}").json()
        assert agreed["finished"] and agreed["result"] == "draw by agreement"
        over = client.get(f"/api/sessions/{resigned['id']}").json()
        assert over["finished"] and over["result"] == "W resigns: B wins"
        assert over["thinking"] is None and len(over["moves"]) == 1


def test_only_the_browser_that_started_a_game_plays_in_it(client: TestClient, app: Any) -> None:
    mine = start(client, "connect4", X="human", O="human")
    other = start(client, "connect4", X="human", O="human")
    token = client.tokens[mine["id"]]  # type: ignore[attr-defined]
    assert "token" not in client.get(f"/api/sessions/{mine['id']}").json()
    with TestClient(app) as watcher:
        base = f"/api/sessions/{mine['id']}"
        for path, body in [("move", {"move": "4"}), ("undo", None), ("new", None), ("stop", None)]:
            refused = watcher.post(f"{base}/{path}", json=body)
            assert "only the browser that started this game" in error(refused, 403)
            assert "without its token" in refused.json()["error"]
        wrong = {TOKEN_HEADER: client.tokens[other["id"]]}  # type: ignore[attr-defined]
        refused = watcher.post(f"{base}/move", json={"move": "4"}, headers=wrong)
        assert "with another game's token" in error(refused, 403)
        mine = watcher.post(f"{base}/move", json={"move": "4"}, headers={TOKEN_HEADER: token})
        assert mine.status_code == 200  # the token is the key, whoever holds it
        seen = watcher.get(base).json()  # the others watch: the game, its records, live
        assert [m["notation"] for m in seen["moves"]] == ["4"]
        assert watcher.get(f"{base}/record.json").status_code == 200
        with watcher.websocket_connect(f"{base}/live") as live:
            assert live.receive_json()["session"]["moves"] == seen["moves"]
            client.post(f"{base}/move", json={"move": "3"})
            assert len(live.receive_json()["session"]["moves"]) == 2


def test_ids_cannot_be_guessed_and_tokens_are_kept_as_hashes(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite"
    with serving(db) as client:
        made = [start(client, "tictactoe", X="human", O="human") for _ in range(20)]
        tokens = dict(client.tokens)
    ids = {game["id"] for game in made}
    assert len(ids) == 20 and all(len(i) >= 22 for i in ids)  # 128 random bits each
    assert len(set(tokens.values())) == 20 and all(len(t) >= 32 for t in tokens.values())
    with sqlite3.connect(db) as kept:
        owners = {row[0] for row in kept.execute("SELECT owner FROM games")}
    assert len(owners) == 20 and not owners & set(tokens.values())
    contents = db.read_bytes() + b"".join(p.read_bytes() for p in tmp_path.glob("*-wal"))
    assert not any(token.encode() in contents for token in tokens.values())


def test_an_unknown_game_is_404_naming_it(client: TestClient) -> None:
    answer = client.get("/api/sessions/NoSuchGameEver")
    assert error(answer, 404) == "no game session 'NoSuchGameEver' on this server"
    assert "'" + "x" * 30 in error(client.get("/api/sessions/" + "x" * 5000), 404)
    answer = client.post("/api/sessions/NoSuchGameEver/move", json={"move": "1"})
    assert "NoSuchGameEver" in error(answer, 404)


def test_a_finished_game_reopens_read_only_for_others(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite"
    with serving(db) as client:
        over = start(client, "tictactoe", X="alphabeta", O="alphabeta")
        over = wait_for(client, over["id"], lambda s: s["finished"])
    with serving(db) as client:
        client.tokens.clear()  # another browser, given the link
        seen = client.get(f"/api/sessions/{over['id']}").json()
        assert seen["finished"] and seen["result"] == "draw" and seen["legal"] == []
        assert seen["moves"] and seen["records"] == ["json"]
        base = f"/api/sessions/{over['id']}"
        assert client.get(f"{base}/record.json").json()["result"] == "draw"
        for path in ("move", "undo", "new"):
            error(client.post(f"{base}/{path}", json={"move": "a1"}), 403)


def test_games_left_idle_leave_memory_and_come_back(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite"
    with serving(db, idle_minutes=0.01) as client:  # 0.6 s; swept every 0.15 s
        game = start(client, "connect4", X="human", O="human")
        move(client, game["id"], "4")
        sessions = client.app.state.sessions  # type: ignore[attr-defined]
        deadline = time.monotonic() + 10
        while game["id"] in sessions.sessions:
            assert time.monotonic() < deadline
            time.sleep(0.05)
        back = move(client, game["id"], "5")
        assert [m["notation"] for m in back["moves"]] == ["4", "5"]


def test_a_failed_write_is_shown_retried_and_the_game_not_dropped(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "games.sqlite"
    with serving(db, tokens=None, idle_minutes=0.01) as client:
        game = start(client, "connect4", X="human", O="human")
        real = GameStore.write

        def full(*args: Any) -> None:
            raise StoreError("cannot write the games file (database or disk is full)")

        monkeypatch.setattr(GameStore, "write", full)
        failed = move(client, game["id"], "4")
        assert not failed["kept"] and "disk is full" in failed["keep_error"]
        time.sleep(1.0)  # idle, but not kept: it stays in memory
        assert game["id"] in client.app.state.sessions.sessions  # type: ignore[attr-defined]
        monkeypatch.setattr(GameStore, "write", real)
        kept = move(client, game["id"], "5")
        assert kept["kept"] and kept["keep_error"] is None
        tokens = dict(client.tokens)
    with serving(db, tokens) as client:
        moves = client.get(f"/api/sessions/{game['id']}").json()["moves"]
        assert [m["notation"] for m in moves] == ["4", "5"]


def test_a_kept_game_that_cannot_be_reopened_says_why(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite"
    with serving(db) as client:
        game = start(client, "connect4", X="human", O="human")
    with sqlite3.connect(db) as kept:
        kept.execute("UPDATE games SET players = ? WHERE id = ?", ('{"X": "wizard"}', game["id"]))
    with serving(db) as client:
        message = error(client.get(f"/api/sessions/{game['id']}"))
        assert f"game {game['id']!r} is kept here but cannot be reopened" in message
        assert "unknown agent 'wizard'" in message


@pytest.mark.parametrize(
    ("contents", "fragment"),
    [
        (b"these are not the games you are looking for" * 100, "is not a plies games file"),
        ("foreign", "is not a plies games file (it holds other tables)"),
        ("newer", "holds games of schema '99'"),
    ],
)
def test_a_games_file_that_is_not_plies_is_refused_and_left_alone(
    tmp_path: Path, contents: bytes | str, fragment: str
) -> None:
    db = tmp_path / "games.sqlite"
    if contents == "foreign":
        with sqlite3.connect(db) as foreign:
            foreign.execute("CREATE TABLE accounts (name TEXT)")
    elif contents == "newer":
        GameStore(db).close()
        with sqlite3.connect(db) as newer:
            newer.execute("UPDATE meta SET value = '99' WHERE key = 'schema'")
    else:
        assert isinstance(contents, bytes)
        db.write_bytes(contents)
    before = db.read_bytes()
    with pytest.raises(StoreError, match=fragment.replace("(", r"\(").replace(")", r"\)")):
        create_app(db=db)
    assert db.read_bytes() == before


def test_a_games_file_where_none_can_be_written_is_refused(tmp_path: Path) -> None:
    with pytest.raises(StoreError, match="is a folder, not a games file"):
        GameStore(tmp_path)
    with pytest.raises(StoreError, match="no such folder"):
        GameStore(tmp_path / "nowhere" / "games.sqlite")
