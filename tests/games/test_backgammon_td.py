"""Backgammon's compiled plays and learned evaluation: the plays against the rules' turns, the
hand-written evaluation against the rules', the TD(lambda) traces against finite differences,
the network file and the self-play training run."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from pathlib import Path

import numpy as np
import pytest

from plies.errors import CheckpointError, RunFolderError
from plies.games.backgammon import bearoff, kernel, network, td_kernel
from plies.games.backgammon import rules as bg
from plies.games.backgammon.network import Network, load_network, side_board
from plies.learn.td import TdRun, TdSettings
from plies.registry import make_game
from tests.conftest import CliRun, assert_one_line_error

GAME = bg.Backgammon()
HAND = bg.Backgammon(evaluation="hand")


@pytest.fixture(scope="module", autouse=True)
def _endgames(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """The bear-off database built into a folder of the tests' own (never the user's)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(bearoff.ENDGAMES, str(tmp_path_factory.mktemp("endgames")))
        bearoff._default_database.cache_clear()
        yield
    bearoff._default_database.cache_clear()


def _positions(games: int, seed: int) -> list[bg.BackgammonState]:
    """The positions with dice of random games."""
    rng = random.Random(seed)
    found = []
    for _ in range(games):
        state = GAME.initial_state()
        while not GAME.is_terminal(state):
            if state.dice:
                found.append(state)
            state = GAME.result(state, rng.choice(GAME.actions(state)))
    return found


POSITIONS = _positions(12, 3)


def _key(board: np.ndarray) -> tuple[int, ...]:
    """A kernel board (the mover in row 0) as the rules' key of a turn's result."""
    view = [int(board[0, 0])]
    view += [int(board[0, p]) - int(board[1, 25 - p]) for p in range(1, 25)]
    return (*view, int(board[0, 25]), int(board[1, 25]))


def _plays(state: bg.BackgammonState) -> list[tuple[int, ...]]:
    work = network.Work(1)
    board = side_board(state.points, state.bar, state.off, state.mover)
    count = kernel.plays(board, state.dice[0], state.dice[1], *work.moves[:3], *work.moves[3:])
    return [_key(work.moves[0][index]) for index in range(count)]


EXTRA = (
    "W 6:2 4:1 off:12 / B bar:1 20:14 / B 6-4",  # must enter, then hit
    "W 6:3 5:2 4:2 3:2 2:2 1:2 off:2 / B bar:2 13:13 / B 4-4",  # closed out: pass
    "W 5:1 off:14 / B 24:15 / W 6-1",  # the larger die bears off from a lower point
    "W 8:1 3:1 off:13 / B 24:15 / W 6-5",  # one die moves home, the other bears off
    "W 24:1 off:14 / B 12:2 7:2 2:11 / W 6-5",  # only the smaller die can be played
    "W 13:15 / B 1:15 / W 1-1",
)


@pytest.mark.parametrize("text", EXTRA)
def test_the_plays_of_chosen_positions_are_the_rules_turns(text: str) -> None:
    state = GAME.parse_position(text)
    plays = _plays(state)
    assert len(plays) == len(set(plays))
    assert set(plays) == set(bg._legal_turns(state))


def test_the_plays_of_random_positions_are_the_rules_turns() -> None:
    for state in POSITIONS:
        plays = _plays(state)
        assert len(plays) == len(set(plays)), GAME.format_position(state)
        assert set(plays) == set(bg._legal_turns(state)), GAME.format_position(state)


def test_the_compiled_hand_evaluation_is_the_rules() -> None:
    assert np.array_equal(td_kernel.POINT_VALUE, bg.POINT_VALUE)
    assert np.array_equal(td_kernel.PRIME_VALUE, bg.PRIME_VALUE)
    assert np.array_equal(td_kernel.SHOTS, bg.SHOTS)
    assert np.array_equal(td_kernel.ENTER_PENALTY, bg.ENTER_PENALTY)
    constants = ("HIT_EXTRA", "TEMPO", "CONTACT_SCALE", "RACE_SCALE")
    assert all(getattr(td_kernel, name) == getattr(bg, name) for name in constants)
    for state in POSITIONS[::5]:
        rolled = state._replace(dice=())
        if GAME.is_terminal(rolled):
            continue
        for side, player in enumerate(bg.SIDES):
            board = side_board(rolled.points, rolled.bar, rolled.off, side)
            on_roll = 0 if rolled.mover == side else 1
            value = td_kernel.hand_value(board, 0, on_roll)
            assert value == pytest.approx(HAND.evaluate(rolled, player), abs=1e-12)


def test_the_inputs_turn_with_the_board() -> None:
    work = network.Work(4)
    inputs, active = work.scratch[0], work.scratch[1]
    for state in POSITIONS[::40]:
        board = side_board(state.points, state.bar, state.off, state.mover)
        count = td_kernel.encode(board, 1, inputs, active)
        other = inputs.copy()
        assert sorted(active[:count]) == sorted(np.flatnonzero(other))
        turned = board[::-1].copy()
        td_kernel.encode(turned, 0, inputs, active)
        assert np.array_equal(inputs, other)
        for side in (0, 1):
            units = other[side * td_kernel.SIDE_INPUTS : side * td_kernel.SIDE_INPUTS + 96]
            checkers = units.reshape(24, 4) @ np.array([1.0, 1.0, 1.0, 2.0])
            row = 1 - side  # row 1 is on roll here
            assert np.array_equal(checkers, board[row, 1:25])


def _outputs(net: Network, board: np.ndarray) -> np.ndarray:
    return net.outputs(board)


@pytest.mark.parametrize("turn", [0, 1])
def test_the_traces_are_the_gradients_of_the_quantities_followed(turn: int) -> None:
    net = Network.fresh(6, seed=4)
    state = POSITIONS[50]
    board = side_board(state.points, state.bar, state.off, state.mover)
    work = network.Work(6)
    inputs, active, hidden, outputs = work.scratch[:4]
    count = td_kernel.encode(board, 0, inputs, active)
    td_kernel.forward(*net.arrays, inputs, active, count, hidden, outputs)
    td_kernel._trace_gradient(*work.traces, net.weights_out, inputs, active, count, hidden,
                              outputs, turn, 0.0)  # fmt: skip

    def followed() -> np.ndarray:
        found = np.zeros(5)
        td_kernel._followed(_outputs(net, board), turn, found)
        return found

    step = 1e-6
    rows = active[:count].copy()  # the inputs' weights that matter: those of active inputs
    candidates = [np.array([row * 6 + unit for row in rows for unit in range(6)])]
    candidates += [np.arange(array.size) for array in net.arrays[1:]]
    checked = 0
    for array, traces, flats in zip(net.arrays, work.traces, candidates, strict=True):
        for flat in np.random.default_rng(turn).choice(flats, min(12, flats.size), replace=False):
            where = np.unravel_index(flat, array.shape)
            kept = array[where]
            array[where] = kept + step
            high = followed()
            array[where] = kept - step
            low = followed()
            array[where] = kept
            numeric = (high - low) / (2 * step)
            assert np.allclose(traces[(slice(None), *where)], numeric, atol=1e-7)
            checked += np.count_nonzero(np.abs(numeric) > 1e-4)
    assert checked > 40  # most of the derivatives checked are far from zero


def test_training_goes_on_after_a_stop_as_if_never_stopped(tmp_path: Path) -> None:
    settings = TdSettings(hidden=6, block=150, pairs=5, seed=9)
    whole = TdRun(tmp_path / "whole", GAME, settings)
    whole.run(300)
    parts = TdRun(tmp_path / "parts", GAME, settings)
    parts.run(150)
    again = TdRun(tmp_path / "parts", GAME, settings)
    assert again.network.games == 150
    again.run(300)
    ours, theirs = load_network(tmp_path / "whole/network.npz"), again.network
    assert all(np.array_equal(a, b) for a, b in zip(ours.arrays, theirs.arrays, strict=True))
    assert ours.games == 300 and not np.array_equal(ours.arrays[0], Network.fresh(6, 9).arrays[0])
    lines = (tmp_path / "parts/metrics.jsonl").read_text().splitlines()
    assert len(lines) == 2 and '"games_trained": 300' in lines[1]
    assert (tmp_path / "parts/curves.png").stat().st_size > 1000  # the curve, drawn


def test_a_run_folder_of_other_work_is_refused(tmp_path: Path) -> None:
    TdRun(tmp_path / "run", GAME, TdSettings(hidden=4, block=10, pairs=1)).run(10)
    with pytest.raises(RunFolderError, match="4 hidden units, not 5"):
        TdRun(tmp_path / "run", GAME, TdSettings(hidden=5))
    (tmp_path / "other").mkdir()
    (tmp_path / "other/notes.txt").write_text("mine")
    with pytest.raises(RunFolderError, match="not empty"):
        TdRun(tmp_path / "other", GAME, TdSettings(hidden=4))
    config = tmp_path / "run/config.json"
    config.write_text(config.read_text().replace('"backgammon"', '"othello"'))
    with pytest.raises(RunFolderError, match="trains 'othello', not backgammon"):
        TdRun(tmp_path / "run", GAME, TdSettings(hidden=4))


def test_training_learns_to_beat_the_hand_written_evaluation() -> None:
    """A small network after 6,000 self-play games against the same network untrained, each
    over the same 300 duplicate pairs against the hand-written evaluation."""
    net = Network.fresh(16, seed=2)
    before = net.against_hand(300, seed=5).mean()
    net.train(6000, 0.1, 0.7)
    after = net.against_hand(300, seed=5).mean()
    assert after > before + 0.3, (before, after)


@pytest.mark.parametrize(
    ("damage", "message"),
    [
        (lambda path: path.write_bytes(path.read_bytes()[:100]), "is not a network file"),
        (lambda path: path.write_text("hello"), "is not a network file"),
        (lambda path: np.savez(path, header=np.array("{}")), "not a plies backgammon network"),
    ],
)
def test_a_damaged_network_file_is_named(tmp_path: Path, damage, message: str) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "network.npz"
    Network.fresh(4, 1).save(path)
    assert load_network(path).hidden == 4
    damage(path)
    with pytest.raises(CheckpointError, match=message):
        load_network(path)


def test_a_network_with_weights_not_finite_or_of_another_shape_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "network.npz"
    net = Network.fresh(4, 1)
    net.weights_in[3, 2] = np.nan
    net.save(path)
    with pytest.raises(CheckpointError, match="weights_in holds weights that are not finite"):
        load_network(path)
    net = Network.fresh(4, 1)
    net.weights_out = np.zeros((4, 3))
    net.save(path)
    with pytest.raises(CheckpointError, match=r"weights_out is of shape \(4, 3\)"):
        load_network(path)


def test_a_broken_shipped_network_leaves_the_hand_written_evaluation(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    broken = tmp_path / "network.npz"
    broken.write_bytes(b"PK not really")
    monkeypatch.setattr(network, "SHIPPED", broken)
    network.shipped_network.cache_clear()
    network._warn_once.cache_clear()
    try:
        state = POSITIONS[30]._replace(dice=())
        assert GAME.evaluate(state, "White") == HAND.evaluate(state, "White")
        assert GAME.evaluate(state, "Black") == HAND.evaluate(state, "Black")
    finally:
        network.shipped_network.cache_clear()
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 1 and "hand-written evaluation plays instead" in lines[0]


def test_the_learned_evaluation_is_zero_sum_and_uses_the_bearoff_databases() -> None:
    from plies.games.backgammon.bearoff import race_win_probability, two_sided_win

    for state in POSITIONS[::60]:
        rolled = state._replace(dice=())
        white = GAME.evaluate(rolled, "White")
        assert white == pytest.approx(-GAME.evaluate(rolled, "Black"))
        assert -3 < white < 3
    race = GAME.parse_position("W 6:2 5:3 2:1 off:9 / B 4:3 3:3 1:1 off:8 / W to roll")
    win = two_sided_win((0, 1, 0, 0, 3, 2), (1, 0, 3, 3, 0, 0))  # exact: 8 checkers or fewer
    assert win is not None
    assert GAME.evaluate(race, "White") == pytest.approx(2 * win - 1)
    larger = GAME.parse_position("W 6:4 5:3 2:3 off:5 / B 4:3 3:3 1:4 off:5 / B to roll")
    win = race_win_probability((4, 0, 3, 3, 0, 0), (0, 3, 0, 0, 3, 4))  # the approximation
    assert GAME.evaluate(larger, "Black") == pytest.approx(2 * win - 1)


def test_the_game_offers_both_evaluations() -> None:
    assert GAME.evaluations() == ("learned", "hand")
    assert HAND.evaluations() == ("hand", "learned")
    assert repr(GAME.with_evaluation("hand")) == "Backgammon(evaluation='hand')"
    assert make_game("backgammon").evaluation == "learned"


@pytest.mark.parametrize(
    ("arguments", "fragment"),
    [
        (["--alpha", "nan"], "--alpha"),
        (["--alpha", "0"], "--alpha"),
        (["--lambda", "1.5"], "--lambda"),
        (["--hidden", "0"], "--hidden"),
        (["--games", "-1"], "--games"),
    ],
)
def test_bad_training_options_are_one_line(
    run_cli: Callable[..., CliRun], tmp_path: Path, arguments: list[str], fragment: str
) -> None:
    out = tmp_path / "run"
    result = run_cli("learn", "td", "backgammon", "--out", str(out), "--games", "10", *arguments)
    assert_one_line_error(result, fragment)
    assert not (out / "network.npz").exists()


def test_a_training_folder_of_another_game_or_size_is_one_line(
    run_cli: Callable[..., CliRun], tmp_path: Path
) -> None:
    out = str(tmp_path / "run")
    ok = run_cli("learn", "td", "backgammon", "--out", out, "--games", "20", "--hidden", "4",
                 "--block", "10", "--pairs", "1")  # fmt: skip
    assert ok.code == 0, ok.err
    assert_one_line_error(
        run_cli("learn", "td", "backgammon", "--out", out, "--games", "30", "--hidden", "5"),
        "4 hidden units, not 5",
    )
    assert_one_line_error(
        run_cli("learn", "td", "tictactoe", "--out", out, "--games", "30"), "TD(lambda)"
    )
