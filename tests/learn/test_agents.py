"""The az and policy agents, and every way a model, device or option can be wrong."""

from __future__ import annotations

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

from plies.agents import PUCTAgent, make_agent
from plies.errors import (
    CheckpointError,
    DeviceError,
    MissingCapabilityError,
    SpecError,
    UnsupportedGameError,
)
from plies.games import make_game
from plies.learn.checkpoint import load_checkpoint, save_checkpoint
from plies.learn.network import ACTION_VALUE, POLICY_VALUE, NetShape, build_network
from plies.learn.players import ValueEvaluation, model_path
from plies.play import play_game
from plies.search.puct import DEFAULT_C_PUCT, Tree

TICTACTOE = make_game("tictactoe")
CONNECT4 = make_game("connect4")


def _save(path: Path, game: Any, kind: str = POLICY_VALUE, seed: int = 0) -> Path:
    torch.manual_seed(seed)
    shape = NetShape.for_game(
        game, kind, blocks=1, filters=8, bins=8 if kind == ACTION_VALUE else 0
    )
    save_checkpoint(path, build_network(shape), shape, game, generation=0)
    return path


@pytest.fixture(scope="module")
def models(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("models")
    return {
        "tictactoe": _save(folder / "ttt.pt", TICTACTOE),
        "connect4": _save(folder / "c4.pt", CONNECT4),
        "connect4-values": _save(folder / "c4-values.pt", CONNECT4, ACTION_VALUE),
        "tictactoe-4x4": _save(folder / "ttt44.pt", make_game("tictactoe:m=4,n=4")),
        "go5": _save(folder / "go5.pt", make_game("go:size=5")),
    }


def test_alphago_searches_with_the_networks_prior(models: dict[str, Path]) -> None:
    """``alphago`` is ``mcts`` with the network's policy given to its compiled tree: the root
    and the nodes that earn it have the prior, and it plays legal moves to the end."""
    game = make_game("go:size=5")
    agent = make_agent(f"alphago:model={models['go5']},iterations=400,after=8", game, seed=1)
    result = play_game(game, {"B": agent, "W": make_agent("random", game, seed=2)}, max_plies=8)
    assert len(result.turns) == 8
    tree = agent.mcts._native  # type: ignore[attr-defined]
    assert tree.learned is not None and tree.learned.after == 8 and len(tree.learned_nodes) > 1


def test_az_plays_whole_games_of_legal_moves_and_reports_its_search(
    models: dict[str, Path],
) -> None:
    az = make_agent(f"az:model={models['connect4']},simulations=40", CONNECT4, seed=1)
    record = play_game(CONNECT4, {"X": az, "O": make_agent("random", CONNECT4, seed=2)})
    assert record.finished
    assert az.last is not None and az.last.algorithm == "az"
    assert az.last.stats.iterations == 40
    visits = [move.visits for move in az.last.root or ()]
    assert visits == sorted(visits, reverse=True) and az.last.action == az.last.root[0].action  # type: ignore[index]
    assert -1 <= az.last.value <= 1


def test_az_keeps_its_tree_between_moves(models: dict[str, Path]) -> None:
    az: Any = make_agent(f"az:model={models['connect4']},simulations=50", CONNECT4, seed=1)
    state = CONNECT4.initial_state()
    state = CONNECT4.result(state, az(CONNECT4, state))
    state = CONNECT4.result(state, CONNECT4.actions(state)[0])
    az(CONNECT4, state)
    assert az.tree.root.state == state
    assert az.tree.root.visited > 49  # the visits it had from the first search stayed


def test_az_with_a_time_limit_searches_about_that_long(models: dict[str, Path]) -> None:
    az = make_agent(f"az:model={models['tictactoe']},time=0.05", TICTACTOE)
    az(TICTACTOE, TICTACTOE.initial_state())
    assert az.last is not None and 0.05 <= az.last.stats.time < 1
    assert az.last.stats.iterations >= 8


def test_policy_plays_the_networks_most_probable_legal_move(models: dict[str, Path]) -> None:
    checkpoint = load_checkpoint(models["tictactoe"], TICTACTOE, POLICY_VALUE)
    state = TICTACTOE.parse_position("X../.O./...")
    planes = torch.from_numpy(TICTACTOE.encode(state)[None])
    logits = checkpoint.network(planes)[0][0].detach().numpy()
    legal = list(TICTACTOE.actions(state))
    expected = legal[int(np.argmax(logits[legal]))]
    agent = make_agent(f"policy:model={models['tictactoe']}", TICTACTOE)
    assert agent(TICTACTOE, state) == expected


def test_policy_plays_an_action_value_network_too(models: dict[str, Path]) -> None:
    agent = make_agent(f"policy:model={models['connect4-values']}", CONNECT4)
    assert agent(CONNECT4, CONNECT4.initial_state()) in CONNECT4.actions(CONNECT4.initial_state())


def test_netengine_at_depth_one_plays_the_move_to_the_position_valued_best(
    models: dict[str, Path],
) -> None:
    """One ply of the engine with the network's value as EVAL chooses what ``policy:by=value``
    chooses (the same network, computed apart), on random Connect Four positions."""
    engine = make_agent(f"netengine:model={models['connect4']},depth=1", CONNECT4)
    by_value = make_agent(f"policy:model={models['connect4']},by=value", CONNECT4)
    rng = np.random.default_rng(3)
    for _ in range(40):
        state = CONNECT4.initial_state()
        for _ in range(int(rng.integers(0, 20))):
            state = CONNECT4.result(state, rng.choice(list(CONNECT4.actions(state))))
            if CONNECT4.is_terminal(state):
                state = CONNECT4.initial_state()
        assert engine(CONNECT4, state) == by_value(CONNECT4, state)


@pytest.mark.parametrize(("game", "depth"), [(TICTACTOE, 4), (CONNECT4, 3)])
def test_netengine_values_equal_a_brute_force_negamax_over_the_same_eval(
    models: dict[str, Path], game: Any, depth: int
) -> None:
    """The engine's value at a fixed depth (table and pruning on) is a plain depth-limited
    negamax's over the network's value, finished games scored by UTILITY."""
    model = models["tictactoe" if game is TICTACTOE else "connect4"]
    evaluation = ValueEvaluation(game, load_checkpoint(model, game, POLICY_VALUE))

    def negamax(state: Any, left: int) -> float:
        mover = game.to_move(state)
        if game.is_terminal(state) or left == 0:
            return float(evaluation(state, mover))
        return max(-negamax(game.result(state, a), left - 1) for a in game.actions(state))

    engine = make_agent(f"netengine:model={model},depth={depth},deeper=false", game)
    state = game.initial_state()
    for move in list(game.actions(state))[:2]:
        state = game.result(state, move)
        engine(game, state)
        assert engine.last is not None and engine.last.depth == depth
        assert engine.last.value == pytest.approx(negamax(state, depth))


def test_a_value_evaluation_needs_a_policy_value_network(models: dict[str, Path]) -> None:
    checkpoint = load_checkpoint(models["connect4-values"], CONNECT4, ACTION_VALUE)
    with pytest.raises(CheckpointError, match="needs a policy-value network"):
        ValueEvaluation(CONNECT4, checkpoint)


@pytest.mark.parametrize(
    ("spec", "game", "error", "message"),
    [
        ("az:model=/no/such/file.pt", "connect4", CheckpointError, "neither a file nor a shipped"),
        ("az:model={tictactoe}", "connect4", CheckpointError, "is for tictactoe:m=3"),
        ("policy:model={tictactoe}", "tictactoe:m=4,n=4", CheckpointError, "not tictactoe:m=4"),
        ("az:model={tictactoe-4x4}", "tictactoe", CheckpointError, "is for tictactoe:m=4"),
        ("az:model={connect4-values}", "connect4", CheckpointError, "this needs policy-value"),
        ("az:model={tictactoe},simulations=0", "tictactoe", SpecError, "simulations"),
        ("az:model={tictactoe},c=nan", "tictactoe", SpecError, "finite"),
        ("az:model={tictactoe},leaves=1000", "tictactoe", SpecError, "at most 256"),
        ("az:model={tictactoe},device=tpu", "tictactoe", SpecError, "device"),
        ("policy:model={tictactoe}", "nim", MissingCapabilityError, "tensor encoding"),
        ("alphago:model={connect4}", "connect4", SpecError, "takes no learned prior"),
        ("alphago:model={go5}", "go:size=7", CheckpointError, "is for go:size=5"),
        ("alphago:model={go5},net=-1", "go:size=5", SpecError, "net"),
        ("netengine:model={connect4-values}", "connect4", CheckpointError, "needs policy-value"),
        ("netengine:model={tictactoe}", "nim", MissingCapabilityError, "tensor encoding"),
        ("netengine:model={tictactoe}", "backgammon", UnsupportedGameError, "chance nodes"),
        ("netengine:model={tictactoe},depth=0", "tictactoe", SpecError, "depth"),
        ("netengine:model={tictactoe},time=inf", "tictactoe", SpecError, "time"),
    ],
)
def test_bad_models_and_options_are_refused_with_one_line(
    models: dict[str, Path], spec: str, game: str, error: type[Exception], message: str
) -> None:
    with pytest.raises(error) as raised:
        make_agent(spec.format(**models), make_game(game))
    assert message in str(raised.value) and "\n" not in str(raised.value)


@pytest.mark.skipif(torch.cuda.is_available(), reason="this machine has a GPU")
def test_cuda_without_a_gpu_is_refused(models: dict[str, Path]) -> None:
    with pytest.raises(DeviceError, match="no CUDA GPU"):
        make_agent(f"policy:model={models['tictactoe']},device=cuda", TICTACTOE)


@pytest.mark.parametrize(
    "content",
    [b"", b"not a checkpoint at all", b"PK\x03\x04 broken zip", b"he", b"hello\n", b"\x80\x02}q"],
    ids=["empty", "text", "broken-zip", "pickle-like-he", "pickle-like-hello", "pickle-head"],
)
def test_corrupt_checkpoints_are_refused(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "bad.pt"
    path.write_bytes(content)
    with pytest.raises(CheckpointError, match="is not a plies network checkpoint"):
        load_checkpoint(path, TICTACTOE, POLICY_VALUE)


def test_a_foreign_torch_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "foreign.pt"
    torch.save({"model": torch.zeros(3)}, path)
    with pytest.raises(CheckpointError, match="is not a plies network checkpoint"):
        load_checkpoint(path, TICTACTOE, POLICY_VALUE)


def test_weights_that_do_not_fit_their_recorded_shape_are_refused(
    tmp_path: Path, models: dict[str, Path]
) -> None:
    payload = torch.load(models["tictactoe"], weights_only=True)
    payload["shape"]["filters"] = 16
    torch.save(payload, tmp_path / "lying.pt")
    with pytest.raises(CheckpointError, match="weights do not fit"):
        load_checkpoint(tmp_path / "lying.pt", TICTACTOE, POLICY_VALUE)


CliRun = Callable[..., Any]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["train", "nim", "--out", "{tmp}/a"], "tensor encoding"),
        (["train", "tictactoe"], "give either --out DIR"),
        (["train", "--resume", "{tmp}/nothing"], "no config.json"),
        (["train", "tictactoe", "--out", "{tmp}/b", "--simulations", "0"], "--simulations"),
        (["train", "tictactoe", "--out", "{tmp}/c", "--lr", "inf"], "--lr"),
        (["train", "tictactoe", "--out", "{tmp}/d", "--device", "tpu"], "tpu"),
        (["play", "tictactoe", "--first", "az:model={tmp}/none.pt"], "neither a file"),
        (["train", "tictactoe", "--out", "{tmp}/e", "--seed=-1"], "at least 0"),
        (["train", "tictactoe", "--out", "{tmp}/f", "--seed", "9" * 20], "at most"),
        (["train", "tictactoe", "--out", "{tmp}/a-file"], "is a file"),
        (["train", "tictactoe", "--out", "{tmp}/a-file/run"], "a-file' is not a directory"),
        (["train", "tictactoe", "--out", "/proc/nonexistent/run"], "cannot write '/proc/"),
        (["train", "--resume", "{tmp}/a-file"], "is a file, not a folder"),
        (["learn", "export", "{tmp}/a-file", "--out", "{tmp}"], "it is a directory"),
        (["learn", "export", "{tmp}/a-file", "--out", "{tmp}/a-file/m.pt"], "is not a directory"),
        (["learn", "export", "{tmp}/a-file", "--out", "/proc/nonexistent/m.pt"], "'/proc/"),
        (["learn", "distill", "connect4", "--out", "{tmp}/g", "--seed=-5"], "at least 0"),
        (["train", "tictactoe", "--out", "{tmp}/e", "--ray", ""], "give HOST:PORT"),
        (["train", "tictactoe", "--out", "{tmp}/f", "--ray", "127.0.0.1:1"], "cannot reach"),
    ],
)
def test_cli_refuses_bad_training_input_with_one_line(
    run_cli: CliRun, tmp_path: Path, args: list[str], message: str
) -> None:
    (tmp_path / "a-file").write_text("not a folder")
    result = run_cli(*(a.format(tmp=tmp_path) for a in args))
    assert result.code == 2
    assert message in result.err and len(result.err.strip().splitlines()) == 1
    assert "Traceback" not in result.err
    assert not any((tmp_path / name).exists() for name in "efg")  # checked before any work


def test_cli_trains_resumes_and_plots(run_cli: CliRun, tmp_path: Path) -> None:
    folder = str(tmp_path / "run")
    settings = ["--games", "4", "--parallel", "2", "--simulations", "8", "--eval-games", "2"]
    settings += ["--workers", "1"]
    first = run_cli("train", "tictactoe", "--out", folder, "--generations", "1", *settings)
    assert first.code == 0, first.err
    assert "generation 1 of 1 saved" in first.out
    again = run_cli("train", "tictactoe", "--out", folder, "--generations", "1")
    assert again.code == 2 and "--resume" in again.err
    resumed = run_cli("train", "--resume", folder, "--generations", "2")
    assert resumed.code == 0, resumed.err
    assert (tmp_path / "run" / "checkpoints" / "gen-0002.pt").is_file()
    assert len((tmp_path / "run" / "metrics.jsonl").read_text().splitlines()) == 2
    plotted = run_cli("learn", "plot", folder)
    assert plotted.code == 0 and (tmp_path / "run" / "curves.png").stat().st_size > 1000


def test_export_drops_the_optimiser_and_keeps_a_loadable_model(
    run_cli: CliRun, tmp_path: Path
) -> None:
    folder = tmp_path / "run"
    trained = run_cli(
        "train",
        "tictactoe",
        "--out",
        str(folder),
        "--generations",
        "1",
        "--games",
        "2",
        "--simulations",
        "4",
        "--eval-games",
        "0",
    )
    assert trained.code == 0, trained.err
    source = folder / "checkpoints" / "gen-0001.pt"
    target = tmp_path / "model.pt"
    exported = run_cli("learn", "export", str(source), "--out", str(target), "--note", "tiny")
    assert exported.code == 0, exported.err
    assert target.stat().st_size < source.stat().st_size / 2
    checkpoint = load_checkpoint(target, TICTACTOE, POLICY_VALUE)
    assert checkpoint.info == {"generation": 1, "note": "tiny"}
    original = load_checkpoint(source, TICTACTOE, POLICY_VALUE)
    for key, value in original.network.state_dict().items():
        assert torch.equal(value, checkpoint.network.state_dict()[key])


def test_sigterm_stops_training_as_ctrl_c_does(tmp_path: Path) -> None:
    """A background run (which ignores Ctrl-C) is stopped by kill: exit 130, the resume
    command, and every finished generation kept."""
    folder = tmp_path / "run"
    command = [sys.executable, "-m", "plies", "train", "tictactoe", "--out", str(folder)]
    command += ["--generations", "1000", "--games", "4", "--simulations", "4", "--workers", "1"]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    first = folder / "checkpoints" / "gen-0001.pt"
    deadline = time.monotonic() + 120
    while not first.is_file() and time.monotonic() < deadline and process.poll() is None:
        time.sleep(0.2)
    process.send_signal(signal.SIGTERM)
    out, err = process.communicate(timeout=60)
    assert process.returncode == 130, err
    assert "resume with: plies train --resume" in err and "Traceback" not in err
    saved = int(out.split("generation ")[1].split(" of")[0])
    assert saved >= 1 and (folder / "checkpoints" / f"gen-{saved:04d}.pt").is_file()


def test_a_run_can_start_from_a_shipped_model(run_cli: CliRun, tmp_path: Path) -> None:
    folder = tmp_path / "run"
    settings = ["--games", "2", "--simulations", "4", "--eval-games", "0", "--workers", "1"]
    started = run_cli(
        "train",
        "tictactoe",
        "--out",
        str(folder),
        "--init",
        "tictactoe",
        "--generations",
        "1",
        *settings,
    )
    assert started.code == 0, started.err
    shipped = load_checkpoint(model_path("tictactoe"), TICTACTOE, POLICY_VALUE)
    first = load_checkpoint(folder / "checkpoints" / "gen-0000.pt", TICTACTOE, POLICY_VALUE)
    for key, value in shipped.network.state_dict().items():
        assert torch.equal(value, first.network.state_dict()[key])
    assert "initial" in (folder / "config.json").read_text()
    sized = run_cli(
        "train", "tictactoe", "--out", str(tmp_path / "b"), "--init", "tictactoe", "--blocks", "3"
    )
    assert sized.code == 2 and "--init takes the network's size" in sized.err
    foreign = run_cli("train", "tictactoe", "--out", str(tmp_path / "c"), "--init", "connect4")
    assert foreign.code == 2 and "is for ConnectFour" in foreign.err


def test_az_reports_priors_while_watched_and_stops_when_told(models: dict[str, Path]) -> None:
    from plies.agents.live import Watch, choose_move

    reports: list[Any] = []

    def stop_after_three(result: Any) -> None:
        reports.append(result)
        if len(reports) == 3:
            watch.stop.set()

    watch = Watch(report=stop_after_three)
    az = make_agent(f"az:model={models['connect4']},simulations=100000", CONNECT4, seed=1)
    move = choose_move(az, CONNECT4, CONNECT4.initial_state(), watch)
    final = reports[-1]
    assert move == final.action and final.stats.iterations < 100000
    priors = [m.prior for m in final.root]
    assert all(p is not None and 0 <= p <= 1 for p in priors)
    assert abs(sum(priors) - 1) < 1e-4  # every root move is listed with its prior


def test_az_and_mcts_selection_puct_search_with_the_same_puct(models: dict[str, Path]) -> None:
    az = make_agent(f"az:model={models['connect4']},simulations=20", CONNECT4, seed=1)
    mcts = make_agent("mcts:selection=puct,iterations=20", CONNECT4, seed=1)
    for agent in (az, mcts):
        assert isinstance(agent, PUCTAgent) and type(agent).think is PUCTAgent.think
        assert agent.config.c_puct == DEFAULT_C_PUCT  # one set of constants
        agent(CONNECT4, CONNECT4.initial_state())
        assert type(agent.tree) is Tree and agent.last is not None
        assert agent.last.stats.iterations == 20
