"""Endgame databases on disk: a build equals the tables solved in memory, goes on after an
interruption, and every bad file or folder is one line; the compiled moves equal the rules'."""

from __future__ import annotations

import functools
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from plies.agents import make_agent
from plies.capabilities import DRAW, LOSS, WIN
from plies.errors import EndgameError
from plies.games import make_game
from plies.games.checkers.endgame import Material, Slice, slices
from plies.search.engine import endgame_score
from plies.solvers.endgames import (
    Endgames,
    build,
    check_target,
    class_file,
    endgames_for,
    load_class,
    pack,
    plan_build,
    unpack,
)
from plies.solvers.retrograde import Tables, class_moves, solve_class, solve_classes

CHECKERS = make_game("checkers")
KINGS = Slice(Material(0, 1, 0, 1), 0, 0)
"""King against king: the one slice of its material."""
THREE = [s for s in slices(3) if s.material in (Material(1, 0, 1, 1), Material(0, 2, 1, 0))][::2]
"""Slices of two three-piece materials: moves into the same slice, other slices of the same
material, smaller materials and the crowning row."""


@functools.cache
def _tables(pieces: int, compiled: bool = True) -> Tables:
    tables: Tables = {}
    for size in range(1, pieces + 1):
        tables.update(solve_classes(CHECKERS, size, tables, compiled=compiled))
    return tables


@pytest.fixture(autouse=True)
def _own_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Builds and probes without a folder given use a fresh one, never the user's."""
    monkeypatch.setenv("PLIES_ENDGAMES", str(tmp_path / "home"))


def test_compiled_moves_equal_the_rules_moves() -> None:
    """Every position of several three-piece slices: the same children, slice and
    number, from the kernel as from ``actions`` and ``result``."""
    for material in THREE:
        compiled, ruled = CHECKERS.class_moves(material), class_moves(CHECKERS, material)
        assert np.array_equal(compiled.starts, ruled.starts)
        assert np.array_equal(compiled.ends, ruled.ends)
        for i in range(len(compiled.ends)):
            rows = slice(compiled.starts[i], compiled.starts[i + 1])
            got = sorted(
                (compiled.classes[c], n)
                for c, n in zip(
                    compiled.child_classes[rows], compiled.child_numbers[rows], strict=True
                )
            )
            want = sorted(
                (ruled.classes[c], n)
                for c, n in zip(ruled.child_classes[rows], ruled.child_numbers[rows], strict=True)
            )
            assert got == want


def test_the_rules_and_the_kernel_solve_alike() -> None:
    """Every class of up to two pieces, and two of three, solved from the rules' moves equals
    the class solved from the kernel's."""
    compiled, ruled = _tables(3), _tables(2, compiled=False)
    for material, table in ruled.items():
        assert np.array_equal(table.outcomes, compiled[material].outcomes)
        assert np.array_equal(table.distances, compiled[material].distances)
    for material in THREE:
        table = solve_class(CHECKERS, material, compiled, compiled=False)
        assert np.array_equal(table.outcomes, compiled[material].outcomes)
        assert np.array_equal(table.distances, compiled[material].distances)


def test_outcomes_pack_into_two_bits() -> None:
    outcomes = np.random.default_rng(1).integers(1, 4, 1001).astype(np.uint8)
    packed = pack(outcomes)
    assert len(packed) == 251
    assert np.array_equal(unpack(packed, 1001), outcomes)


def test_a_build_equals_the_tables_and_answers_probes(tmp_path: Path) -> None:
    folder = tmp_path / "db"
    plan = plan_build(CHECKERS, 3, folder)
    assert plan.positions == 2 * (120 + 6972 + 261224) and plan.to_build == plan.positions
    check_target(folder, plan)
    steps = list(build(CHECKERS, plan, folder))
    assert [s.position_class for s in steps] == plan.classes and not any(s.reused for s in steps)
    endgames = Endgames(CHECKERS, [folder])
    for material, table in _tables(3).items():
        stored = load_class(CHECKERS, class_file(folder, material), material)
        assert np.array_equal(stored.outcomes, table.outcomes)
        assert np.array_equal(stored.distances, table.distances)
    table = _tables(2)[KINGS]
    for number in range(0, len(table.outcomes), 97):
        state = CHECKERS.class_position(KINGS, number)
        expected = (int(table.outcomes[number]), int(table.distances[number]))
        assert endgames.probe(state) == expected
    assert endgames.probe(CHECKERS.initial_state()) is None
    assert not endgames.problems


def test_best_moves_keep_the_outcome_at_its_distance(tmp_path: Path) -> None:
    """From a position won in 11 plies, both sides playing the databases' best moves (the
    quickest win, the longest defence), the game ends in exactly 11 plies."""
    folder = tmp_path / "db"
    list(build(CHECKERS, plan_build(CHECKERS, 2, folder), folder))
    endgames = Endgames(CHECKERS, [folder])
    table = _tables(2)[KINGS]
    number = int(np.flatnonzero((table.outcomes == WIN) & (table.distances == 11))[0])
    state = CHECKERS.class_position(KINGS, number)
    for ply in range(11):
        assert not CHECKERS.is_terminal(state)
        probed = endgames.probe(state)
        assert probed is not None and probed[1] == 11 - ply
        assert probed[0] == (WIN if ply % 2 == 0 else LOSS)
        state = CHECKERS.result(state, endgames.best_moves(state)[0])._replace(quiet=0)
    assert CHECKERS.is_terminal(state) and CHECKERS.winner(state) is not None
    draw = CHECKERS.parse_position("W:WK14:BK23")
    assert endgames.probe(draw) == (DRAW, -1) and endgames.best_moves(draw)


def test_a_stopped_build_goes_on_from_its_files(tmp_path: Path) -> None:
    folder = tmp_path / "db"
    plan = plan_build(CHECKERS, 3, folder)
    steps = build(CHECKERS, plan, folder)
    for _ in range(12):
        next(steps)
    steps.close()
    assert len(list(folder.glob("*.npz"))) == 12 and not list(folder.glob(".*"))
    again = plan_build(CHECKERS, 3, folder)
    assert again.to_build < plan.positions
    finished = list(build(CHECKERS, again, folder))
    assert sum(s.reused for s in finished) == 12
    material = plan.classes[-1]
    stored = load_class(CHECKERS, class_file(folder, material), material)
    assert np.array_equal(stored.outcomes, _tables(3)[material].outcomes)


@pytest.mark.parametrize(
    ("damage", "message"),
    [
        (lambda p: p.write_bytes(p.read_bytes()[:100]), "not a readable endgame table"),
        (lambda p: p.write_text("hello"), "not a readable endgame table"),
        (lambda p: p.rename(p.with_name("0.1-0.2_0.0.npz")), "holds 0.1-0.1_0.0"),
        (lambda p: _rewrite_meta(p, game="tictactoe:m=3,n=3,k=3"), "not a checkers"),
    ],
)
def test_a_bad_file_is_one_problem_and_left_out(
    tmp_path: Path, damage: Callable[[Path], Any], message: str
) -> None:
    folder = tmp_path / "db"
    list(build(CHECKERS, plan_build(CHECKERS, 2, folder), folder))
    path = class_file(folder, KINGS)
    damage(path)
    endgames = Endgames(CHECKERS, [folder])
    material = Slice(Material(0, 1, 0, 2), 0, 0) if "holds" in message else KINGS
    assert endgames.table(material) is None
    assert len(endgames.problems) == 1 and message in endgames.problems[0]
    assert "\n" not in endgames.problems[0]
    with pytest.raises(EndgameError, match=r"not a readable|holds|not a checkers"):
        load_class(CHECKERS, folder / f"{material}.npz", material)


def _rewrite_meta(path: Path, **changes: Any) -> None:
    with np.load(path) as arrays:
        contents = {name: arrays[name] for name in arrays.files}
    meta = json.loads(bytes(contents["meta"]).decode()) | changes
    contents["meta"] = np.frombuffer(json.dumps(meta).encode(), np.uint8)
    with path.open("wb") as stream:
        np.savez_compressed(stream, **contents)


def test_an_unwritable_folder_or_a_full_disk_is_refused_before_the_work(tmp_path: Path) -> None:
    blocked = tmp_path / "file"
    blocked.write_text("")
    plan = plan_build(CHECKERS, 2, blocked / "db")
    with pytest.raises(EndgameError, match="cannot write endgame tables"):
        check_target(blocked / "db", plan)
    huge = plan_build(CHECKERS, 2, tmp_path / "db").__class__([], 1, 1, 10**18, 1.0, 0)
    with pytest.raises(EndgameError, match="MB free"):
        check_target(tmp_path / "db", huge)


def test_cli_builds_then_answers_from_the_databases(run_cli: Any, tmp_path: Path) -> None:
    folder = tmp_path / "db"
    built = run_cli("endgames", "build", "checkers", "--pieces", "2", "--out", str(folder))
    assert built.code == 0 and "110 classes solved" in built.out
    assert "14,184 positions" in built.err and "about" in built.err and "moved" not in built.err
    again = run_cli("solve", "checkers", "--build-db", "--pieces", "2", "--out", str(folder))
    assert again.code == 0 and "0 classes solved" in again.out  # the flags of old still build
    assert again.err.startswith("note: endgame builds moved to 'plies endgames build checkers")
    answer = run_cli("solve", "checkers", "W:WK14:BK23", "--db", str(folder), "--json")
    data = json.loads(answer.out)
    assert data["outcome"] == "draw" and data["distance"] is None and data["class"] == "0.1-0.1_0.0"
    assert set(data["best_moves"]) <= {"14-9", "14-10", "14-17", "14-18"}
    table = _tables(2)[KINGS]
    number = int(np.flatnonzero((table.outcomes == WIN) & (table.distances == 1))[0])
    position = CHECKERS.format_position(CHECKERS.class_position(KINGS, number))
    won = run_cli("solve", "checkers", position, "--db", str(folder))
    mover = position[0]
    assert won.code == 0 and f"{mover} wins in 1 ply" in won.out and "x" in won.out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--build-db"], "--build-db needs --pieces N"),
        (["--build-db", "--pieces", "9"], "at most 5"),
        (["--build-db", "--pieces", "2", "--out", "/proc/plies"], "cannot write '/proc/plies'"),
        (["--pieces", "2"], "--pieces goes with --build-db"),
        (["--out", "x"], "--out goes with"),
        (["W:WK14:BK23", "--db", "/no/such/folder"], "no such folder"),
        (["W:W21,22,23,K14:B18,19"], "no endgame database holds this position (2.0-3.1_5.3)"),
        (["B:W1:B18"], "would have been crowned"),
    ],
)
def test_cli_bad_endgame_input_is_one_line(run_cli: Any, args: list[str], message: str) -> None:
    result = run_cli("solve", "checkers", *args)
    assert result.code == 2 and message in result.err and result.err.count("\n") == 1


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["checkers"], "Missing option '--pieces'"),
        (["checkers", "--pieces", "9"], "at most 5"),
        (["checkers", "--pieces", "2", "--out", "/proc/plies"], "cannot write '/proc/plies'"),
        (["checkers", "--pieces", "2", "--out", "/etc/passwd"], "it is a file, not a folder"),
        (["connect4", "--pieces", "2"], "'connect4' has none"),
    ],
)
def test_endgames_build_refuses_bad_input_in_one_line(
    run_cli: Any, args: list[str], message: str
) -> None:
    result = run_cli("endgames", "build", *args)
    assert result.code == 2 and message in result.err and result.err.count("\n") == 1


def test_the_engine_answers_a_held_root_at_once_and_without_databases_searches() -> None:
    state = CHECKERS.parse_position("W:W21,K14:B18,19")
    for spec in ("engine:time=0.2", "engine:native=false,time=0.2", "perfect"):
        agent = make_agent(spec, CHECKERS)
        assert CHECKERS.format_action(state, agent(CHECKERS, state)) == "14x23x16"
        assert agent.last.algorithm == "endgame databases" and agent.last.solved
        assert agent.last.note == "endgame databases: win in 1 ply"
    plain = make_agent("engine:time=0.2,endgames=false", CHECKERS)
    plain(CHECKERS, state)
    assert plain.last.algorithm == "engine"


def test_the_python_engine_ends_lines_with_the_databases_values(tmp_path: Path) -> None:
    """Three pieces, one forced capture into two: with only the two-piece tables, one ply
    of search gives the three-piece table's exact value and distance."""
    folder = tmp_path / "db"
    list(build(CHECKERS, plan_build(CHECKERS, 2, folder), folder))
    state = CHECKERS.parse_position("B:W22,K10:B18")
    agent = make_agent("engine:native=false,depth=1,endgames=false", CHECKERS)
    agent.endgames = Endgames(CHECKERS, [folder])  # two pieces only: the root is searched
    agent(CHECKERS, state)
    material = CHECKERS.position_class(state)
    number = CHECKERS.position_number(material, state)
    table = _tables(3)[material]
    outcome, distance = int(table.outcomes[number]), int(table.distances[number])
    assert agent.last.algorithm == "engine" and agent.last.solved
    assert agent.last.score == endgame_score(outcome, distance, 0)


def test_a_win_the_draw_count_would_cut_short_is_not_trusted() -> None:
    endgames = endgames_for(CHECKERS)
    table = _tables(2)[KINGS]
    number = int(np.flatnonzero((table.outcomes == WIN) & (table.distances == 11))[0])
    state = CHECKERS.class_position(KINGS, number)
    assert endgames.trusted(state) == (WIN, 11)
    assert endgames.trusted(state._replace(quiet=68)) == (WIN, 11)
    assert endgames.trusted(state._replace(quiet=69)) is None
    assert endgames.probe(state._replace(quiet=70)) == (WIN, 11)
    draw = CHECKERS.parse_position("W:WK14:BK23")._replace(quiet=79)
    assert endgames.trusted(draw) == (DRAW, -1)
    agent = make_agent("engine:time=0.1", CHECKERS)
    agent(CHECKERS, state._replace(quiet=69))
    assert agent.last.algorithm == "endgame databases" and not agent.last.solved
    assert (
        agent.last.note == "endgame databases: win in 11 plies, longer than the draw count allows"
    )


def test_the_engine_tells_of_a_bad_file_once_and_plays_on(tmp_path: Path) -> None:
    """A truncated file where builds go: the first move's note names it (one line), later
    notes do not, and the engine still answers from the shipped tables."""
    folder = tmp_path / "home" / "checkers"
    folder.mkdir(parents=True)
    packed = CHECKERS.packed_endgame(CHECKERS.shipped_endgames(), KINGS)
    assert packed is not None
    np.savez_compressed(folder / f"{KINGS}.npz", **packed[1])
    (folder / f"{KINGS}.npz").write_bytes((folder / f"{KINGS}.npz").read_bytes()[:300])
    agent = make_agent("engine:time=0.1", CHECKERS)
    state = CHECKERS.parse_position("W:WK14:BK23")
    agent(CHECKERS, state)
    assert agent.last.algorithm == "endgame databases"
    note = agent.last.note
    assert note.startswith("endgame databases: draw; endgame table left out: ")
    assert f"{KINGS}.npz' is not a readable endgame table" in note and "\n" not in note
    agent(CHECKERS, state)
    assert agent.last.note == "endgame databases: draw"


def test_the_shipped_databases_are_the_solved_tables() -> None:
    """Up to four pieces ship in the package; those of up to two pieces equal a fresh solve
    (and King v King its published figures, through them)."""
    endgames = endgames_for(CHECKERS)
    for material, table in _tables(2).items():
        shipped = endgames.table(material)
        assert shipped is not None and np.array_equal(shipped.outcomes, table.outcomes)
        assert np.array_equal(shipped.distances, table.distances)
    assert all(endgames.table(m) is not None for m in slices(4))
    assert all(endgames.table(m) is None for m in slices(5))


def test_worker_processes_build_the_same_tables(tmp_path: Path) -> None:
    """Two workers solve the classes side by side (each waits for the files of the classes
    it needs): byte for byte the tables of one process."""
    one, two = tmp_path / "one", tmp_path / "two"
    list(build(CHECKERS, plan_build(CHECKERS, 3, one), one))
    steps = list(build(CHECKERS, plan_build(CHECKERS, 3, two), two, workers=2))
    assert len(steps) == 394 and not any(s.reused for s in steps)
    for path in sorted(one.glob("*.npz")):
        with np.load(path) as first, np.load(two / path.name) as second:
            assert all(np.array_equal(first[k], second[k]) for k in first.files)


def test_a_ray_cluster_builds_the_same_tables_as_worker_processes(
    ray_cluster: Any, tmp_path: Path
) -> None:
    """Two actors on the test session's cluster of two nodes, the folder shared (one
    machine): byte for byte the files of two local processes."""
    local, on_ray = tmp_path / "local", tmp_path / "ray"
    list(build(CHECKERS, plan_build(CHECKERS, 2, local), local, workers=2))
    address = ray_cluster.address
    list(build(CHECKERS, plan_build(CHECKERS, 2, on_ray), on_ray, 2, ray_address=address))
    names = sorted(path.name for path in local.glob("*.npz"))
    assert names and names == sorted(path.name for path in on_ray.glob("*.npz"))
    assert all((local / name).read_bytes() == (on_ray / name).read_bytes() for name in names)


@pytest.mark.parametrize("position", ["B:W22,26,K10:B11,15,K3", "W:W13,K30:B9,K1,K3"])
def test_the_compiled_engine_probes_as_the_python_engine(position: str) -> None:
    """Five and six pieces, the shipped tables of up to four: at depth 6 the compiled engine
    and the Python engine, both probing, give the same move, score and node count."""
    state = CHECKERS.parse_position(position)
    found = []
    for native in ("true", "false"):
        agent = make_agent(f"engine:depth=6,native={native}", CHECKERS)
        move = agent(CHECKERS, state)
        found.append((move, agent.last.score, agent.last.stats.nodes, agent.last.solved))
    assert found[0] == found[1]
    without = make_agent("engine:depth=6,endgames=false", CHECKERS)
    without(CHECKERS, state)
    assert without.last.stats.nodes != found[0][2]
