"""plies serve: it serves the app at the address it prints; bad addresses are one line."""

from __future__ import annotations

import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable
from typing import Any

import pytest

from tests.conftest import assert_one_line_error, default_ctrl_c
from tests.web.conftest import _free_port


def test_serve_prints_the_address_serves_the_pages_and_stops_on_ctrl_c() -> None:
    port = _free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "plies", "serve", "--port", str(port)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=default_ctrl_c,
    )
    try:
        line = server.stdout.readline() if server.stdout else ""
        assert f"http://127.0.0.1:{port}/" in line
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
