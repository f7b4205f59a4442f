"""Distillation of the Connect Four solver into an action-value network (Ruoss et al. 2024's
recipe): labels checked against the solver's own decisions and a brute-force oracle, positions
deduplicated up to the mirror, resumable folders, a trained network that errs less than an
untrained one, and the ``plies learn`` commands."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import torch

from plies.agents import make_agent
from plies.errors import CheckpointError, RunFolderError, SpecError
from plies.games import make_game
from plies.learn import distill
from plies.learn.checkpoint import Checkpoint, load_checkpoint, save_checkpoint
from plies.learn.evaluator import one_thread
from plies.learn.network import ACTION_VALUE, POLICY_VALUE, NetShape, build_network
from plies.learn.players import PolicyAgent
from plies.mistakes import judge_moves, summarise_verdicts
from plies.solvers.sets import read_set
from plies.testing import Oracle
from tests.conftest import CliRun, assert_one_line_error, default_ctrl_c

Run = Callable[..., CliRun]
GAME = make_game("connect4")
SOLVER = GAME.perfect_solver()
ENDGAME = distill.DataConfig(positions=1, min_ply=20, chunk_size=40)


def _positions(count: int, seed: int, min_ply: int = 20) -> list[Any]:
    config = distill.DataConfig(positions=count, min_ply=min_ply)
    return distill.generate_positions(GAME, count, seed, config, solver=SOLVER)


def test_top_labels_are_the_solvers_best_moves() -> None:
    states = _positions(8, seed=3, min_ply=14)
    labels = distill.label_positions(GAME, states, SOLVER)
    for state, scores in zip(states, labels.scores, strict=True):
        legal = set(GAME.actions(state))
        assert {int(i) for i in np.flatnonzero(scores != distill.ILLEGAL)} == legal
        top = {int(i) for i in np.flatnonzero(scores == distill.best_scores(scores[None])[0])}
        assert top == set(SOLVER.decide(state).moves)
    assert labels.planes.dtype == np.uint8 and labels.planes.shape == (8, 2, 6, 7)
    assert np.array_equal(labels.planes[5], GAME.encode(states[5]))


def test_label_outcomes_agree_with_a_brute_force_oracle() -> None:
    oracle = Oracle(GAME)
    states = _positions(6, seed=4, min_ply=35)
    labels = distill.label_positions(GAME, states, SOLVER)
    for state, scores in zip(states, labels.scores, strict=True):
        mover = GAME.to_move(state)
        for action in GAME.actions(state):
            value = oracle.value(GAME.result(state, action), mover)
            assert np.sign(scores[action]) == np.sign(value), (GAME.format_position(state), action)


def test_value_classes_keep_wins_draws_and_losses_apart() -> None:
    scores = np.array([[0, 1, -1, 18, -18, 40, distill.ILLEGAL]], np.int16)
    classes = distill.value_classes(scores, 21, 32)[0]
    draw, slow_win, slow_loss, fast_win, fast_loss, clipped, illegal = classes
    assert fast_loss < slow_loss < draw < slow_win < fast_win <= clipped == 31
    assert illegal == -1 and fast_loss >= 0
    assert distill.policy_targets(scores).tolist() == [[0, 0, 0, 0, 0, 1, 0]]
    assert distill.policy_targets(np.array([[3, 3, -2]], np.int16)).tolist() == [[0.5, 0.5, 0]]


def test_mirror_images_are_one_position() -> None:
    state, mirror = GAME.parse_position("4412"), GAME.parse_position("4476")
    key = distill.position_key(GAME, GAME.encode(state))
    assert key == distill.position_key(GAME, GAME.encode(mirror))
    assert key != distill.position_key(GAME, GAME.encode(GAME.parse_position("4413")))
    seen = {key}
    config = distill.DataConfig(positions=1, min_ply=4, solver_share=0)
    found = distill.generate_positions(GAME, 60, 7, config, seen=seen)
    keys = [distill.position_key(GAME, GAME.encode(s)) for s in found]
    assert len(set(keys)) == 60 and key not in keys and len(seen) == 61
    assert all(s.moves >= 4 and not GAME.is_terminal(s) for s in found)
    again = distill.generate_positions(GAME, 20, 7, config, seen=seen)  # the same games again
    assert not {distill.position_key(GAME, GAME.encode(s)) for s in again} & set(keys)


def test_a_game_with_too_few_positions_is_refused() -> None:
    tiny = make_game("connect4:width=4,height=1")
    config = distill.DataConfig(positions=1, min_ply=0, solver_share=0)
    with pytest.raises(SpecError, match="distinct positions"):
        distill.generate_positions(tiny, 40, 0, config)


def _folder(path: Path, positions: int = 100) -> distill.Distillation:
    data = distill.DataConfig(positions=positions, min_ply=20, chunk_size=40)
    return distill.open_distillation(path, GAME, "connect4", data)


def test_a_rerun_keeps_the_chunks_on_disk(tmp_path: Path) -> None:
    assert distill.label_chunks(_folder(tmp_path)) == 100
    chunks = sorted((tmp_path / "data").iterdir())
    assert [p.name for p in chunks] == ["chunk-0000.npz", "chunk-0001.npz", "chunk-0002.npz"]
    before = {p.name: (p.stat().st_mtime_ns, p.read_bytes()) for p in chunks}
    chunks[1].unlink()  # as if stopped while labelling it
    assert distill.label_chunks(_folder(tmp_path)) == 40
    after = {p.name: (p.stat().st_mtime_ns, p.read_bytes()) for p in chunks}
    assert after["chunk-0000.npz"] == before["chunk-0000.npz"]
    assert after["chunk-0002.npz"] == before["chunk-0002.npz"]
    assert after["chunk-0001.npz"][1] == before["chunk-0001.npz"][1]  # drawn again the same
    assert distill.label_chunks(_folder(tmp_path)) == 0
    data = distill.load_data(_folder(tmp_path))
    keys = {distill.position_key(GAME, planes) for planes in data.planes}
    assert len(data) == len(keys) == 100


def test_workers_label_the_same_chunks_as_one_process(tmp_path: Path) -> None:
    """Two labelling processes write the chunks one process writes, byte for byte, and a
    chunk lost to an interruption is drawn and labelled again the same."""
    assert distill.label_chunks(_folder(tmp_path / "one")) == 100
    assert distill.label_chunks(_folder(tmp_path / "two"), workers=2) == 100
    names = ["chunk-0000.npz", "chunk-0001.npz", "chunk-0002.npz"]
    for name in names:
        one = distill._load_chunk(tmp_path / "one" / "data" / name)
        two = distill._load_chunk(tmp_path / "two" / "data" / name)
        assert np.array_equal(one.planes, two.planes) and np.array_equal(one.scores, two.scores)
    for name in names[:2]:
        (tmp_path / "two" / "data" / name).unlink()
    assert distill.label_chunks(_folder(tmp_path / "two"), workers=2) == 80
    again = distill.load_data(_folder(tmp_path / "two"))
    assert np.array_equal(again.scores, distill.load_data(_folder(tmp_path / "one")).scores)


def test_a_ray_cluster_labels_the_same_chunks_as_worker_processes(
    ray_cluster: Any, tmp_path: Path
) -> None:
    """Two actors on a cluster of two nodes started here (127.0.0.1) write the chunks two
    local processes write, byte for byte; the run lets go of the cluster when done."""
    import ray

    assert distill.label_chunks(_folder(tmp_path / "local"), workers=2) == 100
    on_ray = _folder(tmp_path / "ray")
    assert distill.label_chunks(on_ray, workers=2, ray_address=ray_cluster.address) == 100
    assert not ray.is_initialized()
    names = ["chunk-0000.npz", "chunk-0001.npz", "chunk-0002.npz"]
    for name in names:
        local = (tmp_path / "local" / "data" / name).read_bytes()
        assert (tmp_path / "ray" / "data" / name).read_bytes() == local


def test_a_foreign_folder_is_refused(tmp_path: Path) -> None:
    _folder(tmp_path / "a")
    with pytest.raises(RunFolderError, match="positions 100, not 200"):
        _folder(tmp_path / "a", positions=200)
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "config.json").write_text('{"format": "plies-run-1"}')
    with pytest.raises(RunFolderError, match="another kind of run"):
        _folder(tmp_path / "b")
    (tmp_path / "c").mkdir()
    (tmp_path / "c" / "notes.txt").write_text("mine")
    with pytest.raises(RunFolderError, match="not empty"):
        _folder(tmp_path / "c")


def test_a_distilled_network_makes_fewer_mistakes_than_an_untrained_one(tmp_path: Path) -> None:
    folder = _folder(tmp_path, positions=400)
    distill.label_chunks(folder)
    training = distill.TrainConfig(
        epochs=12, blocks=1, filters=16, batch_size=64, learning_rate=3e-3
    )
    with one_thread():
        lines = distill.train_distillation(folder, training, torch.device("cpu"))
        trained = load_checkpoint(folder.model_file, GAME, ACTION_VALUE)
        torch.manual_seed(1)
        untrained = Checkpoint(build_network(trained.shape).eval(), trained.shape, "")
        entries = read_set(GAME, [GAME.format_position(s) for s in _positions(100, seed=99)])
        mistakes = {
            name: summarise_verdicts(
                judge_moves(GAME, PolicyAgent(GAME, checkpoint, name), entries)
            ).mistakes
            for name, checkpoint in (("trained", trained), ("untrained", untrained))
        }
    assert mistakes["trained"] < mistakes["untrained"] - 5, mistakes  # measured: 25 and 37
    assert [line["epoch"] for line in lines] == list(range(1, 13))
    assert lines[-1]["loss"] < lines[0]["loss"]
    assert trained.info["epoch"] == 12 and trained.shape.bins == distill.DEFAULT_BINS
    metrics = [json.loads(line) for line in folder.metrics_file.read_text().splitlines()]
    assert metrics == lines and {"val_loss", "accuracy", "mistake_rate"} <= set(metrics[0])


def test_cli_distills_then_plots(run_cli: Run, tmp_path: Path) -> None:
    out = tmp_path / "run"
    args = ("learn", "distill", "connect4", "--out", str(out), "--positions", "30")
    small = ("--epochs", "2", "--blocks", "1", "--filters", "8", "--min-ply", "24")
    result = run_cli(*args, *small, "--device", "cpu")
    assert result.code == 0, result
    assert f"plies play connect4 --second policy:model={out / 'model.pt'}" in result.out
    assert "labelled 30 new positions" in result.err
    assert "labelled 0 new positions" in run_cli(*args, *small).err
    load_checkpoint(out / "model.pt", GAME, ACTION_VALUE)
    plotted = run_cli("learn", "plot", str(out))
    assert plotted.code == 0 and (out / "curves.png").read_bytes()[:4] == b"\x89PNG"


def test_positions_keep_to_their_plies() -> None:
    config = distill.DataConfig(positions=60, min_ply=6, max_ply=9, solver_share=0)
    positions = distill.generate_positions(GAME, 60, 3, config)
    plies = {int(np.count_nonzero(GAME.encode(s)[:2])) for s in positions}
    assert plies <= set(range(6, 10)) and len(plies) >= 3
    with pytest.raises(SpecError, match="max ply=5 must be min ply"):
        distill.DataConfig(positions=1, min_ply=6, max_ply=5)


def test_a_player_guides_the_data_games() -> None:
    """Guided by an agent that always plays the leftmost column, every game is that agent's:
    one position of ply 3 exists, and asking for two is refused."""

    def leftmost(game: Any, state: Any) -> Any:
        return min(game.actions(state))

    config = distill.DataConfig(
        positions=1, min_ply=3, max_ply=3, solver_share=1, solver_moves=1, solver_from=0
    )
    [state] = distill.generate_positions(GAME, 1, 0, config, player=leftmost)  # type: ignore[arg-type]
    assert GAME.format_position(state) == "111"
    with pytest.raises(SpecError, match="only 1 new distinct positions"):
        distill.generate_positions(GAME, 2, 0, config, player=leftmost)  # type: ignore[arg-type]


def test_a_policy_value_network_trained_on_two_folders_plays_in_policy_and_az(
    run_cli: Run, tmp_path: Path
) -> None:
    """Label only, then train only on that folder and another (the data settings read back
    from the folder), into a model file of its own with its metrics beside it; the
    policy-value network plays in the policy agent and in PUCT search."""
    late, early = tmp_path / "late", tmp_path / "early"
    command = ("learn", "distill", "connect4", "--device", "cpu")
    labelled = run_cli(*command, "--out", str(late), "--positions", "40", "--min-ply", "26",
                       "--only", "label")  # fmt: skip
    assert labelled.code == 0 and not (late / "model.pt").exists(), labelled
    run_cli(*command, "--out", str(early), "--positions", "20", "--min-ply", "20",
            "--max-ply", "22", "--only", "label")  # fmt: skip
    model = tmp_path / "nets" / "pv.pt"
    small = ("--epochs", "2", "--blocks", "1", "--filters", "8", "--kind", "policy-value")
    trained = run_cli(*command, "--out", str(late), "--with", str(early), "--only", "train",
                      "--model", str(model), *small)  # fmt: skip
    assert trained.code == 0, trained
    assert "labelled" not in trained.err and f"policy:model={model}" in trained.out
    checkpoint = load_checkpoint(model, GAME, POLICY_VALUE)
    assert checkpoint.info["data"] == [str(late), str(early)]
    metrics = [json.loads(line) for line in model.with_suffix(".jsonl").read_text().splitlines()]
    assert metrics[-1]["positions"] + int(60 * 0.05) == 60 and "mistake_rate" in metrics[-1]
    assert not (late / "metrics.jsonl").exists()
    state = GAME.initial_state()
    for spec in (f"policy:model={model}", f"az:model={model},simulations=16"):
        assert make_agent(spec, GAME)(GAME, state) in GAME.actions(state)
    action_values = tmp_path / "nets" / "av.pt"
    shape = NetShape.for_game(GAME, ACTION_VALUE, 1, 8, 4)
    save_checkpoint(action_values, build_network(shape), shape, GAME)
    with pytest.raises(CheckpointError, match="by value needs a policy-value network"):
        make_agent(f"policy:model={action_values},by=value", GAME)
    played = tmp_path / "self-play"
    guided = run_cli(*command, "--out", str(played), "--positions", "10", "--min-ply", "20",
                     "--player", f"policy:model={model}", "--guided", "1", "--guide-from", "0",
                     "--only", "label")  # fmt: skip
    assert guided.code == 0 and "labelled 10 new positions" in guided.err, guided
    recorded = json.loads((played / "config.json").read_text())["data"]
    assert recorded["player"] == f"policy:model={model}" and recorded["solver_share"] == 1


def test_the_policy_value_loss_falls_toward_the_best_moves(tmp_path: Path) -> None:
    folder = _folder(tmp_path, positions=200)
    distill.label_chunks(folder)
    training = distill.TrainConfig(
        epochs=8,
        kind=POLICY_VALUE,
        blocks=1,
        filters=16,
        batch_size=32,
        learning_rate=3e-3,
        decay=True,
    )
    with one_thread():
        lines = distill.train_distillation(folder, training, torch.device("cpu"))
    assert lines[-1]["loss"] < lines[0]["loss"] - 0.2, lines
    assert load_checkpoint(folder.model_file, GAME, POLICY_VALUE).info["kind"] == POLICY_VALUE


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA GPU (--device cuda)")
@pytest.mark.parametrize("kind", [ACTION_VALUE, POLICY_VALUE])
def test_training_on_a_gpu_gives_a_network_that_plays_on_the_cpu(tmp_path: Path, kind: str) -> None:
    folder = _folder(tmp_path, positions=120)
    distill.label_chunks(folder)
    training = distill.TrainConfig(epochs=2, kind=kind, blocks=1, filters=16, batch_size=32)
    lines = distill.train_distillation(folder, training, torch.device("cuda"))
    assert lines[-1]["loss"] < lines[0]["loss"] and 0 <= lines[-1]["mistake_rate"] <= 1
    checkpoint = load_checkpoint(folder.model_file, GAME, kind, torch.device("cpu"))
    assert next(checkpoint.network.parameters()).device.type == "cpu"
    state = GAME.initial_state()
    agent = make_agent(f"policy:model={folder.model_file},device=cuda", GAME)
    assert agent(GAME, state) in GAME.actions(state)


def test_labelling_workers_stopped_keep_their_chunks(tmp_path: Path) -> None:
    """SIGTERM (a background job's stop; Ctrl-C goes the same way) while two workers label:
    exit 130 in one line, the finished chunks kept, and the same command labels the rest and
    trains."""
    out = tmp_path / "run"
    command = [sys.executable, "-m", "plies", "learn", "distill", "connect4", "--out", str(out)]
    command += ["--positions", "1024", "--min-ply", "18", "--workers", "2", "--epochs", "1"]
    command += ["--blocks", "1", "--filters", "8", "--device", "cpu"]
    process = subprocess.Popen(
        command, stderr=subprocess.PIPE, text=True, preexec_fn=default_ctrl_c
    )  # fmt: skip
    deadline = time.monotonic() + 120
    while not list(out.glob("data/chunk-*.npz")) and time.monotonic() < deadline:
        time.sleep(0.01)
    process.send_signal(signal.SIGTERM)
    _, err = process.communicate(timeout=120)
    assert process.returncode == 130, err
    kept = distill.load_data(_open(out)) if (out / "data").exists() else None
    assert kept is not None and 256 <= len(kept) < 1024, err
    assert (
        err.strip().splitlines()[-1].startswith("plies: interrupted; ") and "Traceback" not in err
    )
    done = subprocess.run(command, capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    data = distill.load_data(_open(out))
    assert len({distill.position_key(GAME, planes) for planes in data.planes}) == 1024


def _open(out: Path) -> distill.Distillation:
    return distill.open_distillation(
        out, GAME, "connect4", distill.DataConfig(positions=1024, min_ply=18)
    )


def test_plot_draws_a_training_runs_metrics(run_cli: Run, tmp_path: Path) -> None:
    lines = [
        {
            "generation": g,
            "policy_loss": 2.0 / g,
            "value_loss": 1.0 / g,
            "simulations_per_second": 900,
            "evaluation": {
                "policy_vs_random": 0.5 + g / 10,
                "policy_mistake_rate": 0.4 / g,
                "az_mistake_rate": 0.2 / g,
            },
        }
        for g in (1, 2, 3)
    ]
    (tmp_path / "metrics.jsonl").write_text("".join(json.dumps(line) + "\n" for line in lines))
    result = run_cli("learn", "plot", str(tmp_path), "--out", str(tmp_path / "c.png"))
    assert result.code == 0, result
    assert (tmp_path / "c.png").read_bytes()[:4] == b"\x89PNG"


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (("distill", "tictactoe", "--positions", "5"), "has no perfect solver"),
        (("distill", "nim", "--positions", "5"), "has no tensor encoding"),
        (("distill", "connect4:k=5", "--positions", "5"), "out of its perfect solver's reach"),
        (("distill", "connect4", "--positions", "0"), "--positions"),
        (("distill", "connect4", "--positions", "5", "--bins", "1"), "--bins"),
        (("distill", "connect4", "--positions", "5", "--workers", "0"), "--workers"),
        (("distill", "connect4", "--positions", "5", "--out", "{foreign}"), "another kind"),
        (("distill", "connect4"), "--positions is needed"),
        (("distill", "connect4", "--positions", "5", "--ray", "127.0.0.1:1"), "cannot reach"),
        (
            ("distill", "chess", "--positions", "5", "--teacher", "random", "--ray", "1.2.3:x"),
            "HOST:PORT",
        ),
        (
            ("distill", "connect4", "--positions", "5", "--min-ply", "9", "--max-ply", "8"),
            "max ply=8",
        ),
        (("distill", "connect4", "--positions", "5", "--with", "{empty}"), "holds no distill"),
        (("distill", "connect4", "--positions", "5", "--only", "test"), "--only"),
        (("distill", "connect4", "--positions", "5", "--kind", "value"), "--kind"),
        (("plot", "{empty}"), "has no metrics.jsonl"),
        (("plot", "{garbled}"), "line 2 is not JSON"),
        (("plot", "{plotted}", "--out", "{empty}/c.svg"), "name a .png file"),
        (("plot", "{plotted}", "--out", "{empty}/no/c.png"), "there is no directory"),
        (("plot", "{plotted}", "--out", "{empty}"), "it is a directory"),
        (("distill", "connect4", "--positions", "5", "--out", "{note}/run"), "is not a directory"),
        (("distill", "connect4", "--positions", "5", "--out", "/proc/none/run"), "'/proc/none"),
        (("distill", "connect4", "--positions", "5", "--model", "{empty}"), "it is a directory"),
        (("tune", "chess", "--records", "{note}", "--out", "{note}"), "not a folder"),
        (("imitate", "go:size=5", "--records", "{note}", "--out", "/proc/none/i"), "'/proc/"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(
    run_cli: Run, tmp_path: Path, args: tuple[str, ...], fragment: str
) -> None:
    names = ("foreign", "empty", "garbled", "plotted", "new")
    folders = {name: tmp_path / name for name in names}
    for folder in folders.values():
        folder.mkdir()
    (folders["foreign"] / "config.json").write_text('{"format": "plies-run-1"}')
    (folders["garbled"] / "metrics.jsonl").write_text('{"epoch": 1, "loss": 2}\n{oops\n')
    (folders["plotted"] / "metrics.jsonl").write_text('{"epoch": 1, "loss": 2}\n')
    folders["note"] = tmp_path / "note.txt"
    folders["note"].write_text("a file, not a folder")
    given = [a.format(**{k: str(v) for k, v in folders.items()}) for a in args]
    if given[0] == "distill" and "--out" not in given:
        given += ["--out", str(folders["new"])]
    assert_one_line_error(run_cli("learn", *given), fragment)
