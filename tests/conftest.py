"""Shared test helpers."""

from __future__ import annotations

import io
import random
import signal
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from plies.agents.live import Watch
from plies.capabilities import HasInformationSets
from plies.cli import main
from plies.game import Game
from plies.search import SearchResult, SearchStats


@dataclass
class CliRun:
    code: int
    out: str
    err: str


@pytest.fixture
def run_cli(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> Callable[..., CliRun]:
    """Run ``plies ARGS`` in-process with optional stdin; returns exit code, stdout, stderr."""

    def run(*args: str, stdin: str | None = None) -> CliRun:
        if stdin is not None:
            monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
        with pytest.raises(SystemExit) as exit_info:
            main(list(args))
        captured = capsys.readouterr()
        code = exit_info.value.code
        return CliRun(code if isinstance(code, int) else 0, captured.out, captured.err)

    return run


class Resigner:
    """An agent that plays the first legal move until the game has ``after`` moves, then
    resigns."""

    name, last = "resigner", None

    def __init__(self, after: int = 0) -> None:
        self.after = after

    def __call__(self, game: Any, state: Any) -> Any:
        from plies.errors import Resigns

        if len(state.moves) >= self.after:
            raise Resigns("resigner resigns")
        return game.actions(state)[0]

    def reset(self, seed: int | None = None) -> None:
        pass


def register_resigner(monkeypatch: pytest.MonkeyPatch, after: int = 0) -> None:
    """The agent spec ``resigner`` (a :class:`Resigner`) while the test runs."""
    from plies.agents.registry import AGENTS, AgentKind

    kind = AgentKind("resigner", "resigns", (), lambda *_: Resigner(after))
    monkeypatch.setitem(AGENTS, "resigner", kind)


SECRET = "the peeker's own information:"
"""What the peeker's search notes say, before its information key (its card among it)."""


class Peeker:
    """A random player of a game of imperfect information whose search reports and notes its
    information key (its own card): what a person must never be shown of an agent's
    thinking."""

    name = "peeker"

    def __init__(self, seed: int | None) -> None:
        self.rng = random.Random(seed)
        self.last: SearchResult[Any] | None = None

    def reset(self, seed: int | None = None) -> None:
        self.last = None

    def think(self, game: Game[Any, Any], state: Any, watch: Watch) -> Any:
        assert isinstance(game, HasInformationSets)
        player = game.to_move(state)
        action = self.rng.choice(list(game.actions(state)))
        note = f"{SECRET} {game.information_key(state, player)}"
        stats = SearchStats(nodes=1)
        self.last = SearchResult(0.0, action, (action,), stats, "peeker", player, note=note)
        watch.report(self.last)
        return action

    def __call__(self, game: Game[Any, Any], state: Any) -> Any:
        return self.think(game, state, Watch())


def register_peeker(monkeypatch: pytest.MonkeyPatch) -> None:
    """The agent spec ``peeker`` (a :class:`Peeker`, which plays games of imperfect
    information) while the test runs."""
    from plies.agents.registry import AGENTS, AgentKind

    kind = AgentKind(
        "peeker",
        "a random player whose notes name its card",
        (),
        lambda game, values, context: Peeker(context.seed),
        hidden_information=True,
    )
    monkeypatch.setitem(AGENTS, "peeker", kind)


def default_ctrl_c() -> None:
    """A child process's ``preexec_fn``: SIGINT back to its default action, so that the child
    Python turns it into KeyboardInterrupt even when the tests run as a background job (whose
    SIGINT a non-interactive shell sets to ignored, and children inherit that)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def assert_one_line_error(result: CliRun, fragment: str) -> None:
    """A user error: exit status 2 and one line on stderr, naming ``fragment``, no traceback."""
    assert result.code == 2, result
    assert result.err.startswith("plies: error: ")
    assert result.err.count("\n") == 1, result.err
    assert fragment in result.err
    assert "Traceback" not in result.err + result.out


@pytest.fixture(scope="session", autouse=True)
def _session_endgames(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Databases built on first use (backgammon's bear-off database, for the learned
    evaluation's races) go to a folder of the test session's own, never the user's."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("PLIES_ENDGAMES", str(tmp_path_factory.mktemp("session-endgames")))
        yield


@pytest.fixture(scope="session")
def ray_cluster() -> Iterator[Any]:
    """A Ray cluster of two nodes of one CPU each on 127.0.0.1 (:func:`plies.pool.ray_on_loopback`),
    started once per test session (it costs seconds): two actors needing a CPU each land on
    different nodes. Runs connect to it by its ``address`` and let go when done. Skips where
    Ray (the extra 'distributed') is not installed."""
    pytest.importorskip("ray", reason="Ray is in the 'distributed' extra")
    cluster_utils = pytest.importorskip("ray.cluster_utils")
    from plies.pool import ray_on_loopback

    with ray_on_loopback():  # for the session: drivers connecting later must be on it too
        two_nodes = cluster_utils.Cluster(initialize_head=True, head_node_args={"num_cpus": 1})
        two_nodes.add_node(num_cpus=1)
        two_nodes.wait_for_nodes()
        assert two_nodes.address.startswith("127.0.0.1:"), two_nodes.address
        yield two_nodes
        two_nodes.shutdown()
