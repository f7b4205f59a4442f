"""Fixtures of the web tests: the API's test client (a browser that keeps the owner tokens of
the games it starts), a live server in a thread, and headless Debian Chromium driven by
Playwright, with screenshots saved under ``screenshots/``. The session's app keeps its games
in a temporary file, and nothing is written in the user's data folder."""

from __future__ import annotations

import os
import re
import shutil
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi", reason="the web extra is not installed (pip install 'plies[web]')")

from fastapi.testclient import TestClient

from plies.web.app import create_app
from plies.web.play import TOKEN_HEADER

CHROMIUM = os.environ.get("PLIES_CHROMIUM", "/usr/bin/chromium")
SCREENSHOTS = Path(__file__).resolve().parents[2] / "screenshots"
CHROMIUM_FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@pytest.fixture(scope="session", autouse=True)
def no_data_folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """The user's data folder (where ``plies serve`` keeps its games by default) is a
    temporary one for the whole test session."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("XDG_DATA_HOME", str(tmp_path_factory.mktemp("data")))
        yield


@pytest.fixture(scope="session")
def app(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """The app of most tests, keeping its games in a temporary file."""
    return create_app(db=tmp_path_factory.mktemp("db") / "web-games.sqlite")


class OwnerClient(TestClient):
    """A test client that, as the Play page does, keeps the owner token of each game it
    starts and sends it with every request about that game."""

    def __init__(self, app: Any, **options: Any) -> None:
        super().__init__(app, **options)
        self.tokens: dict[str, str] = {}

    def request(self, method: str, url: Any, **options: Any) -> Any:
        found = re.match(r"/api/sessions/([^/]+)/", str(url))
        if found and found.group(1) in self.tokens and options.get("headers") is None:
            options["headers"] = {TOKEN_HEADER: self.tokens[found.group(1)]}
        answer = super().request(method, url, **options)
        if str(url) == "/api/sessions" and answer.status_code == 201:
            started = answer.json()
            self.tokens[started["id"]] = started["token"]
        return answer


@pytest.fixture()
def client(app: Any) -> Iterator[TestClient]:
    with OwnerClient(app) as test_client:
        yield test_client


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextmanager
def serving(app: Any, port: int) -> Iterator[str]:
    """``app`` served by uvicorn in a thread on ``port``; its base address."""
    import uvicorn

    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning")
    runner = uvicorn.Server(config)
    thread = threading.Thread(target=runner.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not runner.started:
        if time.monotonic() > deadline or not thread.is_alive():
            pytest.fail("the web app did not start")
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        runner.should_exit = True
        thread.join(timeout=10)


@pytest.fixture(scope="session")
def server(app: Any) -> Iterator[str]:
    """The app served by uvicorn in a thread; its base address."""
    with serving(app, _free_port()) as address:
        yield address


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """Headless Debian Chromium (Playwright's own browser download cannot work here)."""
    if shutil.which(CHROMIUM) is None:
        pytest.skip(
            f"no Chromium at {CHROMIUM}: make test installs Debian's chromium with apt-get "
            "when it runs as root; else install it, or set PLIES_CHROMIUM"
        )
    playwright_api = pytest.importorskip("playwright.sync_api")
    with playwright_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=CHROMIUM_FLAGS
        )
        yield chromium
        chromium.close()


@pytest.fixture()
def page(browser: Any, server: str) -> Iterator[Any]:
    """A fresh page (its own context: no shared storage) with the server as its base URL;
    any JavaScript error on the page fails the test."""
    context = browser.new_context(base_url=server, viewport={"width": 1400, "height": 900})
    new_page = context.new_page()
    errors: list[str] = []
    new_page.on("pageerror", lambda error: errors.append(str(error)))
    new_page.set_default_timeout(15_000)
    yield new_page
    context.close()
    assert not errors, f"JavaScript errors on the page: {errors}"


@pytest.fixture()
def screenshot() -> Any:
    """``screenshot(page, name)`` saves ``screenshots/NAME.png`` (ignored by git)."""

    def take(target: Any, name: str) -> Path:
        SCREENSHOTS.mkdir(exist_ok=True)
        path = SCREENSHOTS / f"{name}.png"
        target.screenshot(path=str(path), full_page=True)
        return path

    return take
