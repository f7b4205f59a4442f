"""Strength ladders: every game's levels, the calibration games and their figures, the ladder
files the web app reads, and ``plies ladder``."""

from __future__ import annotations

import json
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from plies.arena.ladder import (
    PERFECT,
    calibration,
    figures,
    move_judge,
    pairings,
    players,
    wilson_interval,
)
from plies.arena.records import PlayedGame, Records
from plies.arena.tournament import check_players, opening_line
from plies.cli import main
from plies.errors import MissingCapabilityError, ParseError, PliesError
from plies.ladder import (
    HasLadder,
    Ladder,
    Level,
    ladder_path,
    measured_levels,
    read_ladder_file,
    write_ladder_file,
)
from plies.registry import BUILT_IN, game_identity, make_game
from plies.search import minimax

LADDER_GAMES = [name for name in BUILT_IN if isinstance(make_game(name), HasLadder)]


def test_the_games_players_meet_have_ladders() -> None:
    assert {"chess", "go", "connect4", "othello", "checkers", "backgammon"} <= set(LADDER_GAMES)


@pytest.mark.parametrize("name", LADDER_GAMES)
def test_a_ladder_plays_and_ties_every_level_in(name: str) -> None:
    """Every level and the anchor build as agents, and the calibration's pairings link every
    level to the anchor (or the perfect opponent), so each figure rests on games."""
    ladder = make_game(name).ladder
    check_players(name, players(ladder))
    linked = {players(ladder)[-1]}
    meetings = pairings(ladder)
    for _ in meetings:
        linked |= {spec for pair in meetings if set(pair) & linked for spec in pair}
    assert linked == set(players(ladder))
    assert all(a != b for a, b in meetings)


@pytest.mark.parametrize("name", LADDER_GAMES)
def test_a_shipped_ladder_file_was_written_by_the_calibration(name: str) -> None:
    """The web app's figures come from ``plies ladder calibrate`` for the game as served, one
    for every level, each inside its interval."""
    game = make_game(name)
    path = ladder_path(game)
    assert path.exists(), f"run plies ladder calibrate {name} (no {path})"
    ladder_file = read_ladder_file(path)
    assert ladder_file.command.startswith(f"plies ladder calibrate {name} ")
    assert ladder_file.game == game_identity(game)
    specs = [figure.spec for figure in ladder_file.figures]
    references = [reference.spec for reference in game.ladder.references]
    assert specs == [level.spec for level in game.ladder.levels] + references
    assert [f.nominal is not None for f in ladder_file.figures] == [s in references for s in specs]
    for figure in ladder_file.figures:
        assert figure.low <= figure.value <= figure.high
        assert figure.games > 0
    assert all(row.figure for row in measured_levels(game))


def test_ladders_refuse_what_cannot_be_measured() -> None:
    level = Level("One", "random", "random moves")
    with pytest.raises(PliesError, match="needs an anchor"):
        Ladder((level,))
    with pytest.raises(PliesError, match="different specs"):
        Ladder((level, Level("Two", "random", "")), measure="mistakes")
    with pytest.raises(PliesError, match="at least one level"):
        Ladder((), measure="mistakes")
    with pytest.raises(PliesError, match="default level 3"):
        Ladder((level,), measure="mistakes", default=3)


def test_wilson_interval_matches_published_values() -> None:
    """Wilson (1927) score intervals at 95%, as tabled by Newcombe (1998), table I."""
    low, high = wilson_interval(0, 10)
    assert (round(low, 4), round(high, 4)) == (0.0, 0.2775)
    low, high = wilson_interval(15, 148)
    assert (round(low, 4), round(high, 4)) == (0.0624, 0.1605)
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_elo_calibration_round_trip(tmp_path: Path) -> None:
    """A small calibration of tic-tac-toe: played into a record, measured, written, read back
    and shown; the perfect level is rated above the weakest, and ahead of random play."""
    run = calibration("tictactoe", games=2, seed=1)
    assert len(run.planned) == 2 * len(pairings(run.ladder))
    records = Records(tmp_path / "games.sqlite", "tictactoe", "")
    try:
        played = list(run.run(records))
        assert len(played) == len(run.planned)
        assert list(run.run(records)) == []  # resumed: nothing left to play
        ladder_file = run.ladder_file(records, "plies ladder calibrate tictactoe --games 2")
    finally:
        records.close()
    path = write_ladder_file(run.game, ladder_file, tmp_path / "ladder.json")
    assert read_ladder_file(path) == ladder_file
    rows = measured_levels(run.game, path)
    assert [row.level for row in rows] == list(run.ladder.levels)
    assert all(row.figure and "Elo" in row.figure and row.source for row in rows)
    by_spec = {figure.spec: figure.value for figure in ladder_file.figures}
    assert by_spec["alphabeta"] > 0


def test_figures_are_left_out_for_another_game_or_a_changed_level(tmp_path: Path) -> None:
    run = calibration("tictactoe", games=2)
    records = Records(tmp_path / "games.sqlite", "tictactoe", "")
    try:
        list(run.run(records))
        ladder_file = run.ladder_file(records, "plies ladder calibrate tictactoe")
    finally:
        records.close()
    path = write_ladder_file(run.game, ladder_file, tmp_path / "ladder.json")
    assert all(row.figure is None for row in measured_levels(make_game("tictactoe:m=4"), path))
    text = json.loads(path.read_text())
    text["figures"][0]["spec"] = "mcts:iterations=4"
    path.write_text(json.dumps(text))
    rows = measured_levels(run.game, path)
    assert rows[0].figure is None and rows[1].figure is not None


@pytest.mark.parametrize(
    "damage",
    [
        "not json",
        '{"format": "other"}',
        '{"format": "plies-ladder-1", "game": "tictactoe"}',
        "[1, 2]",
    ],
)
def test_a_damaged_ladder_file_is_named_and_shows_no_figures(tmp_path: Path, damage: str) -> None:
    path = tmp_path / "ladder.json"
    path.write_text(damage)
    with pytest.raises(ParseError, match="not a ladder file"):
        read_ladder_file(path)
    assert all(row.figure is None for row in measured_levels(make_game("tictactoe"), path))


def test_a_figure_that_is_not_a_number_is_refused(tmp_path: Path) -> None:
    run = calibration("tictactoe", games=2)
    records = Records(tmp_path / "games.sqlite", "tictactoe", "")
    try:
        list(run.run(records))
        data = run.ladder_file(records, "plies ladder calibrate tictactoe").to_json()
    finally:
        records.close()
    data["figures"][0]["high"] = float("nan")
    path = tmp_path / "ladder.json"
    path.write_text(json.dumps(data))
    with pytest.raises(ParseError, match="not a finite number"):
        read_ladder_file(path)


ENDGAME = "243641127463452617621746242167773"
"""A Connect Four position with nine empty cells, O to move: two moves keep its outcome, the
third is a mistake."""


def _endgame(game: Any) -> Any:
    start, moves = opening_line(game, ENDGAME)
    state = start
    for move in moves:
        state = game.result(state, move)
    return state


def test_mistakes_are_judged_like_the_textbook_search() -> None:
    """The mistake judge agrees with minimax to the end on every move of a late position."""
    game = make_game("connect4")
    judge = move_judge(game)
    state = _endgame(game)
    mover = game.to_move(state)
    values = {
        a: minimax(game, game.result(state, a), max_player=mover).value for a in game.actions(state)
    }
    best = max(values.values())
    assert any(judge(state, a) for a in values), "the position offers a mistake"
    for action, value in values.items():
        assert judge(state, action) == (_sign(value) < _sign(best)), action
    after = game.result(state, next(a for a in values if judge(state, a)))
    lost = game.result(after, next(a for a in game.actions(after) if judge(after, a) is False))
    assert all(judge(lost, a) is None for a in game.actions(lost))  # nothing left to lose


def _sign(value: float) -> int:
    return (value > 0) - (value < 0)


def test_mistake_figures_count_only_the_levels_moves() -> None:
    """A hand-made game from a late position: the level (second player, to move) makes one
    mistake, then both sides play on; the figure counts the level's moves from positions it
    had not lost (none after its mistake, against perfect play) and that one mistake."""
    game = make_game("connect4")
    level = "engine:depth=1"
    ladder = Ladder((Level("Weak", level, "one move"),), measure="mistakes", default=1)
    judge = move_judge(game)
    state = _endgame(game)
    assert game.to_move(state) == game.players[1]
    line, judged = [], 0
    while not game.is_terminal(state):
        actions = sorted(game.actions(state))
        wanted = not line  # the level's first move is a mistake
        move = next(a for a in actions if bool(judge(state, a)) == wanted)
        if game.to_move(state) == game.players[1] and judge(state, move) is not None:
            judged += 1
        line.append(game.format_action(state, move))
        state = game.result(state, move)
    seconds = (0.0,) * len(line)
    record = PlayedGame("k", PERFECT, level, 0, 0, ENDGAME, tuple(line), seconds, 1.0, "", 0)
    [figure] = figures(game, ladder, [record])
    assert (figure.games, figure.moves) == (1, judged)
    assert figure.value == pytest.approx(1 / judged, abs=1e-5)


def test_calibration_refuses_a_game_without_a_ladder_or_odd_games() -> None:
    with pytest.raises(MissingCapabilityError, match="no strength ladder"):
        calibration("nim")
    with pytest.raises(PliesError, match="even number"):
        calibration("tictactoe", games=3)


def test_ladder_commands(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["ladder", "show", "chess", "--json"])
    assert stopped.value.code in (None, 0)
    shown = json.loads(capsys.readouterr().out)
    assert shown["levels"][0]["name"] == "Beginner"
    out = tmp_path / "ladder.json"
    with pytest.raises(SystemExit) as stopped:
        main(
            [
                "ladder",
                "calibrate",
                "tictactoe",
                "--games",
                "2",
                "--db",
                str(tmp_path / "g.db"),
                "--out",
                str(out),
            ]
        )
    assert stopped.value.code in (None, 0)
    assert "written to" in capsys.readouterr().out
    assert read_ladder_file(out).command == (
        "plies ladder calibrate tictactoe --games 2 --seed 0 --db g.db"
    )
    for words, message in [
        (["ladder", "calibrate", "nim", "--db", str(tmp_path / "n.db")], "no strength ladder"),
        (
            ["ladder", "calibrate", "tictactoe", "--games", "3", "--db", str(tmp_path / "x.db")],
            "even",
        ),
        (["ladder", "show", "kalah"], "unknown game"),
    ]:
        with pytest.raises(SystemExit) as stopped:
            main(words)
        assert stopped.value.code == 2
        error = capsys.readouterr().err
        assert message in error and len(error.strip().splitlines()) == 1, error


def test_openings_cycle_when_a_game_has_fewer_than_the_pairs() -> None:
    """Tic-tac-toe has nine first moves: twenty pairs a pairing reuse them in turn."""
    run = calibration("tictactoe", games=40)
    assert len(run.planned) == 40 * len(pairings(run.ladder))
    first = [task.opening for task in run.planned[:40:2]]
    assert len(set(first)) == 9 and first[:9] == first[9:18]


def test_calibration_on_a_ray_cluster_is_checked_first(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A cluster that cannot be reached is one line before any game (the record not made)."""
    with pytest.raises(SystemExit) as stopped:
        main(
            [
                "ladder",
                "calibrate",
                "tictactoe",
                "--db",
                str(tmp_path / "g.db"),
                "--ray",
                "nowhere:1",
            ]
        )
    assert stopped.value.code == 2
    assert "cannot reach the Ray cluster" in capsys.readouterr().err
    assert not (tmp_path / "g.db").exists()


def test_a_stopped_calibration_keeps_its_games_and_goes_on(tmp_path: Path) -> None:
    """SIGTERM (as Ctrl-C): exit 130 with where the games are, no ladder file written; the
    same command plays only what is missing and writes the figures."""
    database, out = tmp_path / "g.sqlite", tmp_path / "ladder.json"
    words = [sys.executable, "-m", "plies", "ladder", "calibrate", "othello", "--games", "2"]
    words += ["--db", str(database), "--out", str(out)]
    running = subprocess.Popen(words, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and running.poll() is None:
        if database.exists() and _games_kept(database) >= 1:
            break
        time.sleep(0.1)
    running.send_signal(signal.SIGTERM)
    _, error = running.communicate(timeout=60)
    assert running.returncode == 130, error
    assert f"kept in {database}" in error and not out.exists()
    kept = _games_kept(database)
    finished = subprocess.run(words, capture_output=True, text=True, timeout=600)
    assert finished.returncode == 0, finished.stderr
    assert _games_kept(database) == 24 > kept and read_ladder_file(out).games == 24


def _games_kept(database: Path) -> int:
    with sqlite3.connect(database) as connection:
        try:
            return int(connection.execute("SELECT count(*) FROM games").fetchone()[0])
        except sqlite3.OperationalError:  # the table is not made yet
            return 0
