"""Tournaments on Ray: a cluster of two Ray nodes on this machine, started once for the
module, plays the same games as the process pool, and a killed actor costs only its game."""

from __future__ import annotations

import os
import signal
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from plies.arena.records import Records
from plies.arena.tournament import run, schedule
from plies.errors import SpecError
from tests.conftest import assert_one_line_error

ray = pytest.importorskip("ray", reason="Ray is not installed: pip install 'plies[distributed]'")

SPECS = ["random", "alphabeta:depth=2", "mcts:iterations=200"]


@pytest.fixture
def cluster(ray_cluster: Any) -> Any:
    """The session's cluster of two nodes (tests/conftest.py)."""
    return ray_cluster


def _planned(games: int = 4) -> list[Any]:
    return schedule("connect4", SPECS, games=games, openings=["4 4", "3 5"], seed=9)


def _table(path: Path) -> list[tuple[Any, ...]]:
    with sqlite3.connect(path) as db:
        return sorted(db.execute("SELECT key, moves, result, reason, seed FROM games"))


def _actor_processes() -> list[int]:
    """The processes of this machine running a tournament worker as a Ray actor."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                title = (entry / "cmdline").read_bytes()
            except OSError:
                continue
            if title.startswith(b"ray::PoolWorker"):
                found.append(int(entry.name))
    return found


def test_the_cluster_plays_the_same_games_as_the_process_pool(cluster: Any, tmp_path: Path) -> None:
    pool, on_ray = tmp_path / "pool.sqlite", tmp_path / "ray.sqlite"
    list(run(Records(pool, "connect4"), _planned(), 2))
    played = list(run(Records(on_ray, "connect4"), _planned(), 2, ray_address=cluster.address))
    assert len(played) == 12 and _table(on_ray) == _table(pool)
    assert not ray.is_initialized()  # the run let go of the cluster it connected to


def test_a_killed_actor_costs_only_its_game(cluster: Any, tmp_path: Path) -> None:
    whole, killed = tmp_path / "whole.sqlite", tmp_path / "killed.sqlite"
    list(run(Records(whole, "connect4"), _planned(8), 1))
    games = run(Records(killed, "connect4"), _planned(8), 2, ray_address=cluster.address)
    finished = [next(games), next(games)]
    os.kill(_actor_processes()[0], signal.SIGKILL)
    finished += list(games)
    assert len(finished) == 24 and _table(killed) == _table(whole)


def test_more_actors_than_the_cluster_has_cpus_is_refused(cluster: Any, tmp_path: Path) -> None:
    games = run(
        Records(tmp_path / "t.sqlite", "connect4"), _planned(), 3, ray_address=cluster.address
    )
    with pytest.raises(SpecError, match="has 2 CPUs: give --concurrency 2 or fewer"):
        next(games)
    assert not ray.is_initialized()


def test_the_command_line_runs_on_the_cluster(
    cluster: Any, run_cli: Callable[..., Any], tmp_path: Path
) -> None:
    path = tmp_path / "t.sqlite"
    args = ["tournament", "tictactoe", "random", "alphabeta", "--games", "4"]
    result = run_cli(*args, "--db", str(path), "--ray", cluster.address, "--json")
    assert result.code == 0, result
    assert '"games": 4' in result.out and len(_table(path)) == 4
    assert not ray.is_initialized()


def test_an_unreachable_cluster_is_one_line(run_cli: Callable[..., Any], tmp_path: Path) -> None:
    path = tmp_path / "t.sqlite"
    args = ["tournament", "tictactoe", "random", "alphabeta", "--db", str(path)]
    assert_one_line_error(run_cli(*args, "--ray", "127.0.0.1:9"), "Ray cluster")
    assert not path.exists()  # checked before the file is made
