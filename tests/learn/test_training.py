"""Self-play and training: data that follows the rules, a tiny run that learns, runs that resume
exactly (made, trained and scored the same whatever the process's threads, wherever the folder),
and the same games from every kind of worker pool."""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import torch

from plies.arena.match import run_match, summarise
from plies.errors import RunFolderError
from plies.games import game_spec, make_game
from plies.learn import training
from plies.learn.assess import assess_generation
from plies.learn.network import NetShape
from plies.learn.selfplay import SelfPlayConfig, SelfPlayData, play_games
from plies.learn.training import Run, TrainingConfig, create_run, open_run, train
from plies.learn.workers import Chunk, Network, SelfPlayWorkers
from plies.search.puct import UniformEvaluator

CPU = torch.device("cpu")
TICTACTOE = make_game("tictactoe")


def test_self_play_positions_carry_the_search_policy_and_the_result_for_the_mover() -> None:
    data = play_games(TICTACTOE, UniformEvaluator(), [1, 2, 3, 4], SelfPlayConfig(simulations=20))
    assert data.games == 4 and data.first_wins + data.second_wins + data.draws == 4
    assert data.planes.shape == (len(data.outcomes), 2, 3, 3)
    assert np.allclose(data.policies.sum(axis=1), 1)
    stones = data.planes.sum(axis=(1, 2, 3))
    assert np.all(np.isin(data.outcomes, [-1.0, 0.0, 1.0]))
    starts = np.flatnonzero(stones == 0)  # each game starts from the empty board
    assert len(starts) == 4
    for start, end in zip(starts, [*starts[1:], len(stones)], strict=True):
        outcomes = data.outcomes[start:end]
        assert np.all(outcomes[::2] == outcomes[0]) and np.all(outcomes[1::2] == -outcomes[0])
        # the mover's stones never exceed the opponent's (X moves first, planes are the mover's)
        planes = data.planes[start:end]
        assert np.all(planes[:, 0].sum(axis=(1, 2)) <= planes[:, 1].sum(axis=(1, 2)))


def test_a_game_does_not_depend_on_the_games_played_beside_it() -> None:
    config = SelfPlayConfig(simulations=16)
    together = play_games(TICTACTOE, UniformEvaluator(), [5, 6, 7], config)
    alone = SelfPlayData.concatenate(
        [play_games(TICTACTOE, UniformEvaluator(), [s], config) for s in (5, 6, 7)]
    )
    assert sorted(map(bytes, together.planes)) == sorted(map(bytes, alone.planes))
    assert together.outcomes.sum() == alone.outcomes.sum()


def _run(directory: Path, games: int = 8, parallel: int = 4, **training: object) -> Run:
    return create_run(
        directory,
        TICTACTOE,
        "tictactoe",
        NetShape.for_game(TICTACTOE, blocks=1, filters=8),
        SelfPlayConfig(simulations=8),
        TrainingConfig(games=games, parallel=parallel, eval_games=0, **training),  # type: ignore[arg-type]
        seed=7,
    )


def _files(run: Run) -> dict[str, bytes]:
    """Every replay chunk's arrays and every checkpoint's weights, by name."""
    found: dict[str, bytes] = {}
    for path in sorted((run.directory / "replay").rglob("*.npz")):
        with np.load(path) as arrays:
            for key in ("planes", "policies", "outcomes", "values"):
                found[f"{path.parent.name}/{path.name}/{key}"] = arrays[key].tobytes()
    for path in sorted((run.directory / "checkpoints").glob("*.pt")):
        weights = torch.load(path, weights_only=True)["weights"]
        for key, tensor in weights.items():
            found[f"{path.name}/{key}"] = tensor.numpy().tobytes()
    return found


class _StopAfterOneChunk(SelfPlayWorkers):
    """A pool that is interrupted (as by Ctrl-C) once it has delivered one chunk."""

    def play(
        self, network: Network, chunks: Sequence[Chunk], config: SelfPlayConfig
    ) -> Iterator[tuple[Chunk, SelfPlayData]]:
        yield from list(super().play(network, chunks, config))[:1]
        raise KeyboardInterrupt


def test_a_run_stopped_and_resumed_has_exactly_the_data_and_networks_of_one_not_stopped(
    tmp_path: Path,
) -> None:
    straight = _run(tmp_path / "straight")
    train(straight, 3, SelfPlayWorkers(1, CPU), CPU)
    stopped = _run(tmp_path / "stopped")
    train(stopped, 1, SelfPlayWorkers(1, CPU), CPU)
    with pytest.raises(KeyboardInterrupt):
        train(stopped, 3, _StopAfterOneChunk(1, CPU), CPU)
    assert stopped.last_generation() == 1
    assert len(list((tmp_path / "stopped" / "replay" / "gen-0002").glob("*.npz"))) == 1
    resumed = open_run(tmp_path / "stopped", make_game)
    train(resumed, 3, SelfPlayWorkers(1, CPU), CPU)
    assert _files(resumed) == _files(straight)
    assert [m["generation"] for m in resumed.metrics()] == [1, 2, 3]
    assert [m["policy_loss"] for m in resumed.metrics()] == [
        m["policy_loss"] for m in straight.metrics()
    ]


def test_worker_processes_play_the_same_games_as_this_process(tmp_path: Path) -> None:
    run = _run(tmp_path / "run", games=6, parallel=3)
    network = Network(game_spec(TICTACTOE), run.shape, _weights(run), 0)
    chunks = run.chunks(1)
    here = dict(SelfPlayWorkers(1, CPU).play(network, chunks, run.selfplay))
    pool = SelfPlayWorkers(2)
    try:
        there = dict(pool.play(network, chunks, run.selfplay))
    finally:
        pool.close()
    assert sum(d.games for d in there.values()) == 6
    for chunk in chunks:
        assert np.array_equal(here[chunk].planes, there[chunk].planes)


def _weights(run: Run) -> dict[str, np.ndarray]:
    weights = torch.load(run.checkpoint(0), weights_only=True)["weights"]
    return {key: tensor.numpy() for key, tensor in weights.items()}


def test_ray_actors_play_the_same_games_as_this_process(tmp_path: Path, ray_cluster: Any) -> None:
    run = _run(tmp_path / "run", games=6, parallel=3)
    network = Network(game_spec(TICTACTOE), run.shape, _weights(run), 0)
    pool = SelfPlayWorkers(2, ray_address=ray_cluster.address)
    try:
        there = dict(pool.play(network, run.chunks(1), run.selfplay))
    finally:
        pool.close()
    here = dict(SelfPlayWorkers(1, CPU).play(network, run.chunks(1), run.selfplay))
    assert sum(d.games for d in there.values()) == sum(d.games for d in here.values()) == 6
    for chunk, data in here.items():
        assert np.array_equal(data.planes, there[chunk].planes)


def test_a_tiny_tictactoe_run_learns_to_beat_random_moves_with_its_network_alone(
    tmp_path: Path,
) -> None:
    """10 generations of 64 games at 48 simulations (moves drawn by visits all game long):
    the untrained network alone scores about 0.5 against random moves, the trained one at
    least 0.9 (it scored 0.94 and 0.95 with seeds 0 and 1 when this test was written)."""
    run = create_run(
        tmp_path / "run",
        TICTACTOE,
        "tictactoe",
        NetShape.for_game(TICTACTOE),
        SelfPlayConfig(simulations=48, temperature_plies=9),
        TrainingConfig(games=64, parallel=64, eval_games=0, learning_rate=3e-3),
        seed=0,
    )
    train(run, 10, SelfPlayWorkers(1, CPU), CPU)
    scores = [
        summarise(run_match(TICTACTOE, f"policy:model={run.checkpoint(g)}", "random", 100)).score
        for g in (0, 10)
    ]
    assert 0.3 <= scores[0] <= 0.7
    assert scores[1] >= 0.9


def test_run_folders_refuse_what_they_cannot_be(tmp_path: Path) -> None:
    taken = tmp_path / "taken"
    taken.mkdir()
    (taken / "notes.txt").write_text("mine")
    with pytest.raises(RunFolderError, match="already exists and is not empty"):
        _run(taken)
    with pytest.raises(RunFolderError, match=r"no config\.json"):
        open_run(tmp_path / "nowhere", make_game)
    broken = tmp_path / "broken"
    broken.mkdir()
    (broken / "config.json").write_text("{not json")
    with pytest.raises(RunFolderError, match="not a readable run configuration"):
        open_run(broken, make_game)


def test_a_run_stopped_while_it_is_made_is_made_again_in_its_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """config.json comes last: a stop before it leaves no run (not one that cannot resume),
    and the folder, holding only generation 0's files, takes the run when asked again."""
    written = training.write_atomically

    def stopped_at_config(path: Path, write: Any) -> None:
        if path.name == "config.json":
            raise KeyboardInterrupt
        written(path, write)

    folder = tmp_path / "run"
    monkeypatch.setattr(training, "write_atomically", stopped_at_config)
    with pytest.raises(KeyboardInterrupt):
        _run(folder)
    monkeypatch.undo()
    (folder / "checkpoints" / ".gen-0000.pt.k9x.tmp").write_bytes(b"half")  # left by kill -9
    with pytest.raises(RunFolderError, match=r"no config\.json"):
        open_run(folder, make_game)
    _run(folder)
    assert open_run(folder, make_game).last_generation() == 0
    other = tmp_path / "other"
    (other / "checkpoints").mkdir(parents=True)
    (other / "checkpoints" / "gen-0001.pt").write_bytes(b"")
    with pytest.raises(RunFolderError, match="not empty"):
        _run(other)


def test_training_runs_on_the_threads_recorded_with_the_run(tmp_path: Path) -> None:
    """Another thread count sums in another order and trains another network, so a run trains
    on the count it recorded when it was made, whatever this process is set to."""
    threads = torch.get_num_threads()
    try:
        torch.set_num_threads(2)
        made_on_two, two_more = _run(tmp_path / "two"), _run(tmp_path / "two-again")
        one = _run(tmp_path / "one", threads=1)
        config = json.loads((made_on_two.directory / "config.json").read_text())
        assert config["training"]["threads"] == 2
        train(made_on_two, 1, SelfPlayWorkers(1, CPU), CPU)
        train(one, 1, SelfPlayWorkers(1, CPU), CPU)
        torch.set_num_threads(1)
        train(two_more, 1, SelfPlayWorkers(1, CPU), CPU)
    finally:
        torch.set_num_threads(threads)
    assert _files(two_more) == _files(made_on_two)
    assert _files(one) != _files(made_on_two)


def test_a_generation_scores_the_same_wherever_its_run_folder_is(tmp_path: Path) -> None:
    """The games against random moves come from the seed alone, not from the checkpoint's path
    (which a match's seeds would include)."""
    run = _run(tmp_path / "run")
    paths = [run.checkpoint(0)]
    for folder in ("a", "b", "elsewhere/c"):
        paths.append(tmp_path / folder / "model.pt")
        paths[-1].parent.mkdir(parents=True)
        shutil.copy(run.checkpoint(0), paths[-1])
    scores = [assess_generation(TICTACTOE, path, 40, [], 8, 3) for path in paths]
    assert scores == [scores[0]] * len(paths)
