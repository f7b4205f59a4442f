"""Fixtures of the web tests: the API's test client, a live server in a thread, and headless
Debian Chromium driven by Playwright, with screenshots saved under ``screenshots/``."""

from __future__ import annotations

import os
import shutil
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi", reason="the web extra is not installed (pip install 'plies[web]')")

from fastapi.testclient import TestClient

from plies.web.app import create_app

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


@pytest.fixture(scope="session")
def app() -> Any:
    return create_app()


@pytest.fixture()
def client(app: Any) -> Iterator[TestClient]:
    with TestClient(app) as test_client:
        yield test_client


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture(scope="session")
def server(app: Any) -> Iterator[str]:
    """The app served by uvicorn in a thread; its base address."""
    import uvicorn

    port = _free_port()
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning")
    runner = uvicorn.Server(config)
    thread = threading.Thread(target=runner.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not runner.started:
        if time.monotonic() > deadline or not thread.is_alive():
            pytest.fail("the web app did not start")
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    runner.should_exit = True
    thread.join(timeout=10)


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
