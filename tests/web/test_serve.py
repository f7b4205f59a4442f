"""plies serve: it serves the app at the address it prints and keeps its games in a file that
a restarted server reads again; bad addresses and games files are one line."""

from __future__ import annotations

import json
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from plies.web.play import TOKEN_HEADER
from tests.conftest import assert_one_line_error, default_ctrl_c
from tests.web.conftest import _free_port


@contextmanager
def served(port: int, *options: str) -> Iterator[list[str]]:
    """``plies serve --port PORT OPTIONS`` in a process of its own, stopped by Ctrl-C when
    the block ends (its stderr checked for tracebacks); the lines it printed first."""
    server = subprocess.Popen(
        [sys.executable, "-m", "plies", "serve", "--port", str(port), *options],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=default_ctrl_c,
    )
    try:
        lines = [server.stdout.readline() for _ in range(2)] if server.stdout else []
        yield lines
    finally:
        server.send_signal(signal.SIGINT)
        _, err = server.communicate(timeout=20)
    assert "Traceback" not in err


def ask(port: int, path: str, body: Any = None, token: str = "") -> Any:
    """The JSON answer of a GET (or, with ``body``, a POST) to the server on ``port``,
    waiting for it to start."""
    data = None if body is None else json.dumps(body).encode()
    headers = {"Content-Type": "application/json", TOKEN_HEADER: token}
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data, headers)
    deadline = time.monotonic() + 20
    while True:
        try:
            with urllib.request.urlopen(request) as answer:
                return json.loads(answer.read())
        except urllib.error.HTTPError:
            raise
        except urllib.error.URLError:
            assert time.monotonic() < deadline, "the server did not answer"
            time.sleep(0.1)


def test_a_restarted_server_shows_the_games_it_had(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Kept in the user's data folder by default, and read again by the next server."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    kept = tmp_path / "plies" / "web-games.sqlite"
    port = _free_port()
    with served(port) as lines:
        assert lines[1] == f"games are kept in {kept} (0 so far)\n"
        game = ask(
            port, "/api/sessions", {"game": "connect4", "players": {"X": "human", "O": "human"}}
        )
        for column in ("4", "5"):
            ask(port, f"/api/sessions/{game['id']}/move", {"move": column}, game["token"])
    with served(port) as lines:
        assert lines[1] == f"games are kept in {kept} (1 so far)\n"
        again = ask(port, f"/api/sessions/{game['id']}")
        assert [m["notation"] for m in again["moves"]] == ["4", "5"]


def test_serve_prints_the_address_serves_the_pages_and_stops_on_ctrl_c(tmp_path: Path) -> None:
    port = _free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "plies", "serve", "--port", str(port), "--no-db"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=default_ctrl_c,
    )
    try:
        line = server.stdout.readline() if server.stdout else ""
        assert f"http://127.0.0.1:{port}/" in line
        line = server.stdout.readline() if server.stdout else ""
        assert line.startswith("games are kept in memory only (--no-db)")
        deadline = time.monotonic() + 20
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/play") as answer:
                    assert "plies" in answer.read().decode()
                break
            except OSError:
                assert time.monotonic() < deadline, "the server did not answer"
                time.sleep(0.1)
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/openapi.json") as answer:
            assert b"/api/sessions" in answer.read()
    finally:
        server.send_signal(signal.SIGINT)
        _, err = server.communicate(timeout=20)
    assert "Traceback" not in err


def test_a_taken_port_is_one_line(run_cli: Callable[..., Any]) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert_one_line_error(run_cli("serve", "--port", str(port)), f"port {port}")


def test_bad_addresses_are_one_line(run_cli: Callable[..., Any]) -> None:
    assert_one_line_error(run_cli("serve", "--port", "70000"), "--port")
    assert_one_line_error(run_cli("serve", "--host", "no.such.host.invalid"), "no such host")


@pytest.mark.parametrize(
    ("option", "value"),
    [
        ("--think-seconds", "0"),
        ("--think-seconds", "nan"),
        ("--think-seconds", "1e400"),
        ("--analysis-seconds", "61"),
        ("--thinkers", "0"),
        ("--thinkers", "99999999999999999999"),
        ("--idle-minutes", "-1"),
        ("--new-games-per-minute", "0"),
    ],
)
def test_budgets_out_of_range_are_one_line(
    run_cli: Callable[..., Any], option: str, value: str
) -> None:
    assert_one_line_error(run_cli("serve", option, value), option)


def test_a_games_file_that_cannot_be_used_is_one_line_and_left_alone(
    run_cli: Callable[..., Any], tmp_path: Path
) -> None:
    damaged = tmp_path / "games.sqlite"
    damaged.write_bytes(b"\x00 not SQLite \xff" * 500)
    port = str(_free_port())
    result = run_cli("serve", "--port", port, "--db", str(damaged))
    assert_one_line_error(result, "is not a plies games file")
    assert "--no-db to keep no games" in result.err
    assert damaged.read_bytes() == b"\x00 not SQLite \xff" * 500
    assert_one_line_error(run_cli("serve", "--port", port, "--db", str(tmp_path)), "a folder")
    missing = str(tmp_path / "nowhere" / "games.sqlite")
    assert_one_line_error(run_cli("serve", "--port", port, "--db", missing), "no such folder")
    both = run_cli("serve", "--port", port, "--db", str(damaged), "--no-db")
    assert_one_line_error(both, "give --db FILE or --no-db, not both")
