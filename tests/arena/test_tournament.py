"""Tournaments: the schedule, the same games whoever plays them, resuming after a stop or a
killed worker, forfeits, resignations, and bad input that never damages a file."""

from __future__ import annotations

import hashlib
import os
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from plies.agents import AgentKind
from plies.agents.registry import AGENTS
from plies.arena.records import RecordError, Records
from plies.arena.tournament import (
    Worker,
    pairings,
    play,
    read_openings,
    run,
    schedule,
)
from plies.clock import parse_time_control
from plies.errors import PliesError, SpecError
from plies.games import make_game
from plies.openings import random_openings
from tests.conftest import CliRun, assert_one_line_error, default_ctrl_c, register_resigner

SPECS = ["random", "alphabeta:depth=1", "mcts:iterations=60"]


def _planned(games: int = 4, specs: list[str] = SPECS) -> list[Any]:
    game = make_game("tictactoe")
    return schedule(
        "tictactoe",
        specs,
        games=games,
        openings=random_openings(game, max(1, games // 2), 1, 5),
        seed=3,
    )


def _table(path: Path) -> list[tuple[Any, ...]]:
    with sqlite3.connect(path) as db:
        return sorted(db.execute("SELECT key, moves, result, reason, seed FROM games"))


def _finished(path: Path) -> int:
    """Games recorded so far (0 while the file is being made), for polling a running driver."""
    try:
        return len(_table(path))
    except sqlite3.OperationalError:
        return 0


def test_the_schedule() -> None:
    assert pairings(["a", "b", "c"], "round-robin") == [("a", "b"), ("a", "c"), ("b", "c")]
    assert pairings(["a", "b", "c"], "gauntlet") == [("a", "b"), ("a", "c")]
    planned = _planned(games=6)
    assert len(planned) == 3 * 6 and len({task.key for task in planned}) == 18
    legs = [(t.first, t.second, t.opening) for t in planned if t.pair == 1]
    assert legs[0][:2] == legs[1][:2][::-1] and legs[0][2] == legs[1][2]  # colours swapped
    for bad, words in [(3, "even"), (0, "even")]:
        with pytest.raises(SpecError, match=words):
            _planned(games=bad)
    with pytest.raises(SpecError, match="twice"):
        pairings(["a", "a"], "round-robin")


def test_the_same_games_in_one_process_or_two(tmp_path: Path) -> None:
    one, two = tmp_path / "one.sqlite", tmp_path / "two.sqlite"
    list(run(Records(one, "tictactoe"), _planned(), 1))
    list(run(Records(two, "tictactoe"), _planned(), 2))
    assert _table(one) == _table(two) and len(_table(one)) == 12


def test_a_worker_builds_each_agent_once_and_plays_the_same_games_as_new_agents(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    built: list[str] = []
    for name in ("random", "mcts"):
        kind = AGENTS[name]

        def counted(game: Any, values: Any, context: Any, factory: Any = kind.factory) -> Any:
            built.append(context.name)
            return factory(game, values, context)

        monkeypatch.setitem(AGENTS, name, AgentKind(name, kind.summary, kind.options, counted))
    planned = _planned(games=6, specs=["random", "mcts:iterations=60,evaluator=eval"])
    fresh = [play(task) for task in planned]  # new agents for every game
    assert len(built) == 2 * len(planned)
    built.clear()
    worker = Worker()
    reused = [worker.play(task) for task in planned]
    assert sorted(built) == ["mcts:iterations=60,evaluator=eval", "random"]
    assert [(g.moves, g.result) for g in reused] == [(g.moves, g.result) for g in fresh]
    assert len({g.moves for g in reused}) > 2  # the seeds differ from game to game


def test_batches_grow_with_cheap_games() -> None:
    from plies.arena.tournament import _Queue

    planned = _planned(games=20)  # 60 games
    queue = _Queue(planned, workers=2)
    first = queue.take()
    assert len(first) == 1  # nothing known yet
    cheap = [play(task) for task in first]
    queue.finished(cheap)
    assert len(queue.take()) == 2  # at most twice the last size
    queue.finished(cheap)
    assert len(queue.take()) == 4
    queue.size = 1000
    left = len(queue.pending)
    assert len(queue.take()) == -(-left // 4)  # a fair share of what is left at most


def test_a_stopped_tournament_resumes_without_losing_or_repeating_a_game(tmp_path: Path) -> None:
    whole, stopped = tmp_path / "whole.sqlite", tmp_path / "stopped.sqlite"
    list(run(Records(whole, "tictactoe"), _planned(), 1))
    games = run(Records(stopped, "tictactoe"), _planned(), 1)
    for _ in range(5):
        next(games)
    games.close()  # as Ctrl-C would
    assert len(_table(stopped)) == 5
    again = list(run(Records(stopped, "tictactoe"), _planned(), 1))
    assert len(again) == 7 and _table(stopped) == _table(whole)


def test_a_failing_agent_forfeits_and_the_tournament_goes_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    class Failing:
        name, last = "failing", None

        def __call__(self, game: Any, state: Any) -> Any:
            raise PliesError("engine crashed")

        def reset(self, seed: int | None = None) -> None:
            pass

    kind = AgentKind("failing", "always fails", (), lambda g, v, c: Failing())
    monkeypatch.setitem(AGENTS, "failing", kind)  # gone again after the test
    path = tmp_path / "t.sqlite"
    list(run(Records(path, "tictactoe"), _planned(specs=["random", "failing"]), 1))
    rows = _table(path)
    assert len(rows) == 4
    for key, _, result, reason, _ in rows:
        assert reason.startswith("failing (") and "forfeits: engine crashed" in reason
        assert result == (0.0 if key.startswith("failing|") else 1.0)


def test_a_resignation_is_a_result_written_to_sgf_and_rated(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, run_cli: Callable[..., Any]
) -> None:
    """Two games of Go against an agent that resigns at its third move: each is recorded as
    its loss (``resigns``, no forfeit), written as ``W+R`` or ``B+R`` in SGF, and rated."""
    from sgfmill import sgf, sgf_grammar

    from plies.arena.export import write_notation, write_sgf

    register_resigner(monkeypatch, after=4)
    path, out = tmp_path / "go.sqlite", tmp_path / "games.sgf"
    game = make_game("go:size=5")
    tasks = schedule("go:size=5", ["resigner", "random"], games=2, openings=[""], seed=3)
    records = Records(path, "go:size=5")
    played = list(run(records, tasks, 1))
    assert len(played) == 2
    for one in played:
        loser = "B" if one.first == "resigner" else "W"
        assert one.reason == f"resigner ({loser}) resigns"
        assert one.result == (0.0 if loser == "B" else 1.0)
        assert len(one.moves) == (4 if loser == "B" else 5)  # two moves each, then it resigns
    assert write_sgf(records, out) == 2 and write_notation(records, tmp_path / "g.txt") == 2
    trees = sgf_grammar.parse_sgf_collection(out.read_bytes())
    results = set()
    for tree in trees:
        text = sgf_grammar.serialise_game_tree(tree).decode()
        root = sgf.Sgf_game.from_string(text).get_root()
        results.add((root.get("PB"), root.get("RE"), root.get("GC")))
        assert not game.is_terminal(game.parse_position(text))
    assert results == {
        ("resigner", "W+R", "resigner (B) resigns"),
        ("random", "B+R", "resigner (W) resigns"),
    }
    records.close()
    report = run_cli("tournament", "report", str(path))
    assert report.code == 0 and "forfeit" not in report.out and "resigner" in report.out


def _children(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                found.append(int(entry.name))
    return found


def _cli(*args: str) -> list[str]:
    return [sys.executable, "-m", "plies", "tournament", *args]


def test_a_killed_worker_costs_only_its_game(tmp_path: Path) -> None:
    args = ["connect4", "mcts:iterations=300", "engine:depth=2", "--games", "24", "--seed", "1"]
    whole = tmp_path / "whole.sqlite"
    subprocess.run(
        _cli(*args, "--db", str(whole), "--concurrency", "1"), check=True, capture_output=True
    )
    killed = tmp_path / "killed.sqlite"
    driver = subprocess.Popen(
        _cli(*args, "--db", str(killed), "--concurrency", "2"),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    deadline = time.monotonic() + 30
    workers: list[int] = []
    while not workers and time.monotonic() < deadline:
        workers = [
            p
            for p in _children(driver.pid)
            if "spawn" in Path(f"/proc/{p}/cmdline").read_text(errors="ignore")
        ]
        time.sleep(0.05)
    while _finished(killed) < 2 and time.monotonic() < deadline:
        time.sleep(0.05)  # games are under way
    os.kill(workers[0], signal.SIGKILL)
    driver.communicate(timeout=120)
    assert driver.returncode == 0
    assert _table(killed) == _table(whole)


def test_ctrl_c_keeps_the_finished_games_and_the_rerun_finishes(tmp_path: Path) -> None:
    # games of a second or more: SIGINT comes while most of the 6 are still to play
    args = ["connect4", "mcts:time=0.1", "random", "--games", "6", "--concurrency", "1"]
    path = tmp_path / "t.sqlite"
    driver = subprocess.Popen(
        _cli(*args, "--db", str(path)),
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=default_ctrl_c,
    )
    deadline = time.monotonic() + 60
    while _finished(path) < 1 and time.monotonic() < deadline:
        time.sleep(0.05)
    driver.send_signal(signal.SIGINT)
    _, err = driver.communicate(timeout=60)
    assert driver.returncode == 130 and "run the same command to resume" in err
    kept = len(_table(path))
    assert 0 < kept < 6
    subprocess.run(_cli(*args, "--db", str(path)), check=True, capture_output=True)
    assert len(_table(path)) == 6


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.mark.skipif(not os.path.isfile("/proc/version"), reason="needs Linux's /proc")
def test_a_file_that_cannot_be_a_record_is_one_line(
    run_cli: Callable[..., Any], tmp_path: Path
) -> None:
    """/proc/version reads as an empty database and takes no write: refused before the games
    by the option's check, and by the records themselves (for any caller of the library)."""
    args = ("tournament", "tictactoe", "random", "alphabeta", "--games", "2", "--db")
    assert_one_line_error(run_cli(*args, "/proc/version"), "cannot write '/proc/version'")
    assert_one_line_error(run_cli(*args, str(tmp_path)), "it is a directory")
    assert_one_line_error(run_cli(*args, str(tmp_path / "no" / "t.sqlite")), "no directory")
    with pytest.raises(PliesError, match="'/proc/version'"):
        Records("/proc/version", "tictactoe")


def test_bad_input_is_one_line_and_never_damages_a_file(
    run_cli: Callable[..., Any], tmp_path: Path
) -> None:
    db = tmp_path / "c4.sqlite"
    records = Records(db, "connect4")
    list(
        run(
            records,
            schedule("connect4", ["random", "engine:depth=1"], games=2, openings=[""], seed=0),
            1,
        )
    )
    records.close()  # its write-ahead log goes into the file now, not when it is collected
    before = _digest(db)
    assert_one_line_error(
        run_cli("tournament", "tictactoe", "random", "alphabeta", "--db", str(db)),
        "holds a tournament of connect4",
    )
    assert_one_line_error(
        run_cli(
            "tournament", "connect4", "random", "alphabeta", "--db", str(db), "--time-control", "5"
        ),
        "holds games at time control none, not 5",
    )
    other = tmp_path / "other.sqlite"
    with sqlite3.connect(other) as foreign:
        foreign.execute("CREATE TABLE notes (text TEXT)")
    foreign_digest = _digest(other)
    assert_one_line_error(
        run_cli("tournament", "tictactoe", "random", "alphabeta", "--db", str(other)),
        "not a plies tournament file",
    )
    text = tmp_path / "notes.txt"
    text.write_text("hello " * 100)
    assert_one_line_error(run_cli("tournament", "report", str(text)), "not a plies tournament file")
    assert (
        _digest(db) == before
        and _digest(other) == foreign_digest
        and text.read_text() == "hello " * 100
    )
    openings = tmp_path / "openings.txt"
    openings.write_text("4 4\n# a comment\n4 4 4 4 4 4 4\n")
    assert_one_line_error(
        run_cli(
            "tournament",
            "connect4",
            "random",
            "engine:depth=1",
            "--db",
            str(tmp_path / "n.sqlite"),
            "--openings",
            str(openings),
        ),
        "line 3",
    )
    for args, words in [
        (["--concurrency", "0"], "concurrency"),
        (["--games", "3"], "even"),
        (["--format", "swiss"], "swiss"),
        (["--time-control", "nan"], "time control 'nan'"),
        (["--time-control", "10+20"], "increment"),
        (["--time-control", "fast"], "BASE[+INCREMENT]"),
        (["--ray", "nowhere"], "HOST:PORT"),
    ]:
        assert_one_line_error(
            run_cli(
                "tournament",
                "connect4",
                "random",
                "engine:depth=1",
                "--db",
                str(tmp_path / "x.sqlite"),
                *args,
            ),
            words,
        )
    assert_one_line_error(
        run_cli("tournament", "connect4", "random", "wizard", "--db", str(tmp_path / "x.sqlite")),
        "unknown agent 'wizard'",
    )
    assert_one_line_error(
        run_cli("tournament", "connect4", "random", "random", "--db", str(tmp_path / "x.sqlite")),
        "twice",
    )
    with pytest.raises(RecordError):
        Records(tmp_path, "connect4")
    assert read_openings(make_game("connect4"), _ok(tmp_path)) == ["4 4", "3"]


def _ok(tmp_path: Path) -> Path:
    path = tmp_path / "ok.txt"
    path.write_text("4 4\n\n3  # centre-left\n")
    return path


def test_a_clock_that_runs_out_loses_and_clocked_agents_keep_to_theirs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    class Slow:
        """Takes a tenth of a second a move and knows nothing of clocks."""

        name, last = "slow", None

        def __call__(self, game: Any, state: Any) -> Any:
            time.sleep(0.1)
            return next(iter(game.actions(state)))

        def reset(self, seed: int | None = None) -> None:
            pass

    monkeypatch.setitem(AGENTS, "slow", AgentKind("slow", "slow", (), lambda g, v, c: Slow()))
    control = parse_time_control("0.25+0.01")
    planned = schedule(
        "connect4", ["slow", "engine:time=5"], games=2, openings=[""], time_control=control
    )
    games = list(run(Records(tmp_path / "t.sqlite", "connect4", str(control)), planned, 1))
    for game in games:
        slow_first = game.first == "slow"
        assert game.result == (0.0 if slow_first else 1.0)
        assert game.reason.startswith("slow (") and "loses on time (0.25+0.01 s)" in game.reason
        assert len(game.moves) == (4 if slow_first else 5)  # the third move overran the clock
        engine_moves = game.seconds[1::2] if slow_first else game.seconds[0::2]
        assert sum(engine_moves) < 2.5  # budgeted from its clock: never near its 5 s a move


def test_the_report_rates_every_player_with_an_interval(
    run_cli: Callable[..., Any], tmp_path: Path
) -> None:
    db = str(tmp_path / "t.sqlite")
    result = run_cli(
        "tournament",
        "tictactoe",
        "random",
        "alphabeta:depth=1",
        "--db",
        db,
        "--games",
        "20",
        "--concurrency",
        "1",
        "--json",
    )
    assert result.code == 0, result
    again = run_cli("tournament", "report", db, "--json", "--anchor", "random")
    players = {p["spec"]: p for p in __import__("json").loads(again.out)["players"]}
    assert players["random"]["elo"] == 0 and players["alphabeta:depth=1"]["elo"] > 100
    strong = players["alphabeta:depth=1"]
    assert strong["elo_low"] <= strong["elo"] <= strong["elo_high"] and strong["games"] == 20
    assert_one_line_error(run_cli("tournament", "report", db, "--anchor", "nobody"), "nobody")
    shifted = run_cli("tournament", "report", db, "--json", "--anchor", "random", "--anchor-elo")
    assert shifted.code == 2  # the option needs its number
    assert_one_line_error(
        run_cli("tournament", "report", db, "--anchor", "random", "--anchor-elo", "nan"),
        "--anchor-elo must be a finite number",
    )
    level = run_cli(
        "tournament", "report", db, "--json", "--anchor", "random", "--anchor-elo", "1350"
    )
    moved = {p["spec"]: p for p in __import__("json").loads(level.out)["players"]}
    assert moved["random"]["elo"] == 1350
    assert moved["alphabeta:depth=1"]["elo"] == pytest.approx(strong["elo"] + 1350, abs=0.2)
    plot = tmp_path / "ratings.png"
    assert run_cli("tournament", "report", db, "--plot", str(plot)).code == 0
    assert plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    svg = run_cli("tournament", "report", db, "--plot", str(tmp_path / "r.svg"))
    assert_one_line_error(svg, "name a .png file")
    assert "random" not in svg.out  # refused before the report


def test_sprt_stops_once_it_decides(run_cli: Callable[..., Any], tmp_path: Path) -> None:
    db = str(tmp_path / "s.sqlite")
    result = run_cli(
        "tournament",
        "tictactoe",
        "alphabeta:depth=1",
        "random",
        "--db",
        db,
        "--games",
        "400",
        "--sprt",
        "0,200",
        "--concurrency",
        "1",
    )
    assert result.code == 0 and "accepted H1" in result.out
    assert len(_table(Path(db))) < 400
    for bad, words in [("200,0", "elo0"), ("0,x", "number"), ("0,50,1.5,0.05", "alpha")]:
        assert_one_line_error(
            run_cli(
                "tournament", "tictactoe", "alphabeta:depth=1", "random", "--db", db, "--sprt", bad
            ),
            words,
        )
    assert_one_line_error(
        run_cli(
            "tournament",
            "tictactoe",
            "alphabeta:depth=1",
            "random",
            "minimax",
            "--db",
            db,
            "--sprt",
            "0,10",
        ),
        "exactly two",
    )


def test_games_are_written_as_pgn_and_in_the_games_notation(
    run_cli: Callable[..., Any], tmp_path: Path
) -> None:
    import io

    import chess.pgn

    db, pgn = tmp_path / "ch.sqlite", tmp_path / "games.pgn"
    result = run_cli(
        "tournament",
        "chess",
        "engine:depth=1",
        "random",
        "--db",
        str(db),
        "--games",
        "2",
        "--concurrency",
        "1",
        "--pgn",
        str(pgn),
    )
    assert result.code == 0 and "2 games written" in result.out
    stream = io.StringIO(pgn.read_text())
    read = [chess.pgn.read_game(stream) for _ in range(2)]
    recorded = {(g[0].split("|")[2], g[0].split("|")[3]): g for g in _table(db)}
    assert all(game is not None and not game.errors for game in read)
    assert {game.headers["White"] for game in read if game} == {"engine:depth=1", "random"}
    for game in read:
        assert game is not None
        assert (
            game.end().board().is_game_over(claim_draw=True)
            or "forfeits" in game.headers["Termination"]
        )
    assert len(recorded) == 2
    lines = tmp_path / "c4.txt"
    c4 = tmp_path / "c4.sqlite"
    run_cli(
        "tournament",
        "connect4",
        "engine:depth=1",
        "random",
        "--db",
        str(c4),
        "--games",
        "2",
        "--concurrency",
        "1",
    )
    assert run_cli("tournament", "report", str(c4), "--export", str(lines)).code == 0
    assert len(lines.read_text().splitlines()) == 2
    assert_one_line_error(
        run_cli("tournament", "report", str(c4), "--pgn", str(tmp_path / "x.pgn")), "no PGN"
    )
    assert_one_line_error(
        run_cli("tournament", "report", str(db), "--pgn", str(tmp_path / "no" / "x.pgn")),
        "no directory",
    )


def test_go_games_are_written_as_one_sgf_collection(
    run_cli: Callable[..., Any], tmp_path: Path
) -> None:
    from sgfmill import sgf, sgf_grammar

    from plies.games.go.rules import Go

    db, out = tmp_path / "go.sqlite", tmp_path / "games.sgf"
    arguments = ("go:size=5,komi=0.5", "mcts:iterations=30", "random", "--db", str(db))
    result = run_cli("tournament", *arguments, "--games", "2", "--concurrency", "1")
    assert result.code == 0
    assert run_cli("tournament", "report", str(db), "--sgf", str(out)).code == 0
    trees = sgf_grammar.parse_sgf_collection(out.read_bytes())
    assert len(trees) == 2
    game, players = Go(size=5, komi=0.5), set()
    for tree in trees:
        text = sgf_grammar.serialise_game_tree(tree).decode()
        root = sgf.Sgf_game.from_string(text).get_root()
        players.add((root.get("PB"), root.get("PW")))
        final = game.parse_position(text)  # every move legal under plies' rules
        assert game.is_terminal(final) and root.get("RE") == game.result_text(final)
    assert players == {("mcts:iterations=30", "random"), ("random", "mcts:iterations=30")}
    assert_one_line_error(
        run_cli("tournament", "report", str(db), "--sgf", str(tmp_path / "no" / "x.sgf")),
        "no directory",
    )
    chess_db = tmp_path / "c.sqlite"
    assert_one_line_error(
        run_cli(
            "tournament", "chess", "random", "random", "--db", str(chess_db), "--sgf", str(out)
        ),
        "SGF",
    )


@pytest.mark.parametrize(
    ("tamper", "words"),
    [
        (
            "ALTER TABLE games RENAME TO old; CREATE TABLE games (x)",
            "its games table is not plies'",
        ),
        ("UPDATE games SET moves = 'not json'", "holds a damaged game"),
        ("UPDATE games SET seconds = '[1, 2'", "holds a damaged game"),
    ],
)
def test_a_tampered_record_is_refused_in_one_line(
    run_cli: Callable[..., CliRun], tmp_path: Path, tamper: str, words: str
) -> None:
    path = tmp_path / "t.sqlite"
    done = run_cli("tournament", "tictactoe", "random", "mcts", "--games", "2", "--db", str(path))
    assert done.code == 0, done.err
    with sqlite3.connect(path) as db:
        db.executescript(tamper)
    db.close()
    assert_one_line_error(run_cli("tournament", "report", str(path)), words)


def test_workers_end_when_their_driver_is_killed(tmp_path: Path) -> None:
    """kill -9 of the driver leaves no worker running (they stayed, 381 MB each, before)."""
    args = ["connect4", "mcts:time=0.2", "random", "--games", "40", "--concurrency", "2"]
    driver = subprocess.Popen(
        _cli(*args, "--db", str(tmp_path / "t.sqlite")),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 60
    workers: list[int] = []
    while len(workers) < 2 and time.monotonic() < deadline:
        workers = [
            p
            for p in _children(driver.pid)
            if "spawn" in Path(f"/proc/{p}/cmdline").read_text(errors="ignore")
        ]
        time.sleep(0.1)
    assert workers, "the driver started no worker"
    driver.kill()
    driver.wait(timeout=30)
    deadline = time.monotonic() + 20
    while any(Path(f"/proc/{p}").exists() for p in workers) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not [p for p in workers if Path(f"/proc/{p}").exists()], "workers outlived the driver"


def test_the_standings_do_not_depend_on_the_order_games_finished_in(tmp_path: Path) -> None:
    """Workers finish games in any order; the intervals and LOS come out the same."""
    from plies.arena.ratings import rating_intervals
    from plies.arena.records import results_of

    games = list(run(Records(tmp_path / "t.sqlite", "tictactoe"), _planned(4), 1))
    forward = rating_intervals(results_of(games), samples=200)
    backward = rating_intervals(results_of(games[::-1]), samples=200)
    assert forward == backward
