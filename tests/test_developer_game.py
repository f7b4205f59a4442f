"""A developer's own game, written in a temporary module against the public API only (the
formal game, an evaluation, a tensor encoding, typed options), works wherever a built-in game
does: checked by check_game, named by module path or file path, played in ``plies play``, in a
two-worker tournament and in the web app, trained for a generation by ``plies train``, and its
model loaded in a new process; an installed package's game is found through the ``plies.games``
entry points."""

from __future__ import annotations

import ast
import importlib.metadata
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from plies.errors import PliesError, SpecError
from plies.games import game_identity, game_spec, make_game, registered_games
from plies.registry import BUILT_IN, GAMES, PLUGINS, GameOption
from plies.testing import check_game

KALAH = '''"""Kalah with a few pits a side: sow counter-clockwise, a last seed in your store
moves again, a last seed in your own empty pit captures the pit opposite."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from plies.capabilities import Symmetry
from plies.game import WinLossDrawGame
from plies.games import GameOption
from plies.spec import NumberRange


class KalahState(NamedTuple):
    pits: tuple[int, ...]  # pits of A, A's store, pits of B, B's store
    mover: str


class Kalah(WinLossDrawGame[KalahState, int]):
    """Kalah: sow the seeds of a pit; the fuller store wins."""

    name = "kalah"
    players = ("A", "B")
    searchable_to_end = False
    options = (
        GameOption("pits", "int", "pits a side", 3, NumberRange(1, 6, integer=True)),
        GameOption("seeds", "int", "seeds a pit", 2, NumberRange(1, 6, integer=True)),
    )

    def __init__(self, pits: int = 3, seeds: int = 2) -> None:
        self.pits, self.seeds = pits, seeds

    def initial_state(self) -> KalahState:
        side = (self.seeds,) * self.pits + (0,)
        return KalahState(side + side, "A")

    def to_move(self, state: KalahState) -> str:
        return state.mover

    def _base(self, player: str) -> int:
        return 0 if player == "A" else self.pits + 1

    def actions(self, state: KalahState) -> list[int]:
        if self.is_terminal(state):
            return []
        base = self._base(state.mover)
        return [i for i in range(self.pits) if state.pits[base + i]]

    def result(self, state: KalahState, action: int) -> KalahState:
        pits, base, size = list(state.pits), self._base(state.mover), 2 * (self.pits + 1)
        other_store = self._base(self.opponent(state.mover)) + self.pits
        where, seeds = base + action, pits[base + action]
        pits[where] = 0
        while seeds:
            where = (where + 1) % size
            if where != other_store:
                pits[where] += 1
                seeds -= 1
        store = base + self.pits
        mover = state.mover if where == store else self.opponent(state.mover)
        if base <= where < store and pits[where] == 1:
            opposite = 2 * self.pits - where
            if pits[opposite]:
                pits[store] += pits[opposite] + 1
                pits[where] = pits[opposite] = 0
        for player in self.players:
            first = self._base(player)
            if not any(pits[first : first + self.pits]):
                for other in self.players:
                    start = self._base(other)
                    pits[start + self.pits] += sum(pits[start : start + self.pits])
                    pits[start : start + self.pits] = [0] * self.pits
        return KalahState(tuple(pits), mover)

    def is_terminal(self, state: KalahState) -> bool:
        return not any(state.pits[: self.pits]) and not any(state.pits[self.pits + 1 : -1])

    def _lead(self, state: KalahState, player: str) -> int:
        mine = state.pits[self._base(player) + self.pits]
        return mine - state.pits[self._base(self.opponent(player)) + self.pits]

    def winner(self, state: KalahState) -> str | None:
        lead = self._lead(state, "A")
        return "A" if lead > 0 else "B" if lead < 0 else None

    def evaluate(self, state: KalahState, player: str) -> float:
        if self.is_terminal(state):
            return self.utility(state, player)
        return self.estimate(self._lead(state, player) / (2 * self.pits * self.seeds + 1), player)

    def tensor_shape(self) -> tuple[int, int, int]:
        return 2, 1, self.pits + 1

    def action_count(self) -> int:
        return self.pits

    def encode(self, state: KalahState) -> np.ndarray:
        mine, theirs = self._base(state.mover), self._base(self.opponent(state.mover))
        planes = np.zeros(self.tensor_shape(), np.float32)
        planes[0, 0] = state.pits[mine : mine + self.pits + 1]
        planes[1, 0] = state.pits[theirs : theirs + self.pits + 1]
        return planes / (2 * self.pits * self.seeds)

    def action_index(self, state: KalahState, action: int) -> int:
        return action

    def index_action(self, state: KalahState, index: int) -> int:
        return index

    def symmetries(self) -> list[Symmetry]:
        return [Symmetry(tuple(range(self.pits + 1)), tuple(range(self.pits)))]
'''
"""Kalah with a few pits a side, as a developer would write it."""


@pytest.fixture()
def kalah(tmp_path: Path) -> Path:
    path = tmp_path / "kalah.py"
    path.write_text(KALAH, encoding="utf-8")
    return path


def _cli(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "plies", *args]
    return subprocess.run(command, cwd=cwd, capture_output=True, text=True, timeout=240)


def test_a_game_file_shadows_no_library(kalah: Path) -> None:
    """A file called json.py is loaded under a private name: the library stays as it was."""
    import json as library

    shadow = kalah.parent / "json.py"
    shadow.write_text(KALAH, encoding="utf-8")
    game = make_game(f"{shadow}:Kalah")
    assert sys.modules["json"] is library and game_identity(game) == "json:Kalah:pits=3,seeds=2"


def test_a_game_in_a_file_is_checked_and_written_back_as_its_spec(kalah: Path) -> None:
    game = make_game(f"{kalah}:Kalah:pits=4")
    check_game(game)
    assert game_spec(game) == f"{kalah.resolve()}:Kalah:pits=4,seeds=2"
    assert game_identity(game) == "kalah:Kalah:pits=4,seeds=2"  # the same in any folder
    assert game_spec(make_game(game_spec(game))) == game_spec(game)


@pytest.mark.parametrize(
    ("spec", "error", "words"),
    [
        ("{path}:Kalah:pits=9", SpecError, "at most 6"),
        ("{path}:Kalah:holes=2", SpecError, "unknown option 'holes'"),
        ("{path}:Mancala", PliesError, "has no 'Mancala'"),
        ("{folder}/nothing.py:Kalah", PliesError, "does not exist"),
        ("no_such_module_here:Kalah", PliesError, "no module named"),
        ("{path}", SpecError, "module:Class"),
    ],
)
def test_bad_module_paths_are_named(
    kalah: Path, spec: str, error: type[Exception], words: str
) -> None:
    with pytest.raises(error, match=words):
        make_game(spec.format(path=kalah, folder=kalah.parent))


def test_plies_play_takes_a_module_or_a_file(kalah: Path) -> None:
    for spec in ("kalah:Kalah", "kalah.py:Kalah:seeds=3"):
        done = _cli(
            "play", spec, "--first", "random", "--second", "engine:depth=2", cwd=kalah.parent
        )
        assert done.returncode == 0, done.stderr
        assert "game over after" in done.stdout


def test_a_two_worker_tournament_plays_it(kalah: Path, tmp_path: Path) -> None:
    db, elsewhere = tmp_path / "t.sqlite", tmp_path / "elsewhere"
    elsewhere.mkdir()  # the workers import the game from its file, wherever they run
    args = ["tournament", "run", f"{kalah}:Kalah", "random", "engine:depth=2"]
    done = _cli(*args, "--games", "4", "--concurrency", "2", "--db", str(db), cwd=elsewhere)
    assert done.returncode == 0, done.stderr
    with sqlite3.connect(db) as connection:
        (games,) = connection.execute("SELECT COUNT(*) FROM games").fetchone()
    assert games == 4


def test_it_trains_a_generation_and_the_model_loads_in_a_new_process(
    kalah: Path, tmp_path: Path
) -> None:
    run = tmp_path / "run"
    train = ["train", f"{kalah}:Kalah", "--out", str(run), "--generations", "1", "--games", "4"]
    small = ["--simulations", "8", "--workers", "2", "--eval-games", "2", "--eval-positions", "4"]
    done = _cli(*train, *small, "--steps", "4", "--batch-size", "8", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    model = run / "checkpoints" / "gen-0001.pt"
    assert model.is_file()
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    agent = f"az:model={model},simulations=8"
    done = _cli("play", f"{kalah}:Kalah", "--first", agent, "--second", "random", cwd=elsewhere)
    assert done.returncode == 0, done.stderr
    assert "game over after" in done.stdout
    other = _cli("play", f"{kalah}:Kalah:pits=4", "--first", agent, cwd=elsewhere)
    assert other.returncode == 2 and "is for kalah:Kalah:pits=3,seeds=2" in other.stderr


def test_the_web_app_serves_it_when_its_operator_names_it(kalah: Path) -> None:
    pytest.importorskip("fastapi", reason="the web extra is not installed")
    from fastapi.testclient import TestClient

    from plies.web.app import create_app

    spec = f"{kalah}:Kalah"
    with TestClient(create_app(games=[spec])) as client:
        listed = {game["name"]: game for game in client.get("/api/games").json()}
        assert listed[spec]["options"] == "pits=3,seeds=2" and listed[spec]["players"] == ["A", "B"]
        players = {"A": "random", "B": "engine:depth=2"}
        answer = client.post("/api/sessions", json={"game": f"{spec}:pits=2", "players": players})
        assert answer.status_code == 201, answer.text
        assert answer.json()["board"]["kind"] == "text"  # no board of its own: its display
    with TestClient(create_app()) as client:
        refused = client.post("/api/sessions", json={"game": spec, "players": {}})
        assert refused.status_code == 400 and "plies serve --game" in refused.json()["error"]


def test_an_installed_package_registers_its_game(
    kalah: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.syspath_prepend(str(kalah.parent))
    point = importlib.metadata.EntryPoint("kalah", "kalah:Kalah", PLUGINS)
    real = importlib.metadata.entry_points

    def entry_points(**selection: Any) -> Any:
        found = list(real(**selection))
        return [*found, point] if selection.get("group") == PLUGINS else found

    monkeypatch.setattr(importlib.metadata, "entry_points", entry_points)
    monkeypatch.delitem(GAMES, "kalah", raising=False)
    try:
        game = make_game("kalah:seeds=1")
        assert game.name == "kalah" and game_spec(game) == "kalah:pits=3,seeds=1"
        assert "kalah" in registered_games()
    finally:
        GAMES.pop("kalah", None)


def test_the_built_in_games_declare_themselves_as_a_developers_game_does() -> None:
    """Each built-in class carries its summary and typed options; the registry names the class
    once (``BUILT_IN``) and reads them from it."""
    assert list(BUILT_IN) == list(GAMES)[: len(BUILT_IN)]
    for name, path in BUILT_IN.items():
        entry = GAMES[name]
        assert entry.factory == path
        cls = entry.load()
        assert (cls.summary, cls.options) == (entry.summary, entry.options), name
        assert all(isinstance(option, GameOption) for option in cls.options)


def test_asking_for_one_game_loads_that_game_alone() -> None:
    """Reading one game's summary and options imports its room alone."""
    code = (
        "import sys; from plies.registry import game_entry; e = game_entry('go'); "
        "e.summary, e.usage(); "
        "print(sorted({m.split('.')[2] for m in sys.modules if m.startswith('plies.games.')}))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert set(ast.literal_eval(done.stdout)) - {"grid"} == {"go"}
