"""Backgammon match files (``.mat``, :mod:`plies.games.backgammon.matfile`): their layout, and
GNU Backgammon reading them back with the same games, moves, cube actions and score."""

from __future__ import annotations

import random
import re
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from plies.agents import make_agent
from plies.errors import RenderError
from plies.game_texts import game_text, text_formats
from plies.games.backgammon.rules import Backgammon
from plies.play import GameRecord, play_game
from plies.registry import make_game
from tests.conftest import CliRun, assert_one_line_error

GNUBG = shutil.which("gnubg") or next(
    (path for path in ("/usr/games/gnubg",) if Path(path).exists()), None
)
needs_gnubg = pytest.mark.skipif(
    GNUBG is None, reason="GNU Backgammon (gnubg) is not installed (make engines installs it)"
)
NAMES = {"White": "White", "Black": "Black"}


def _played(spec: str, seed: int) -> GameRecord:
    """A game (or match) of random play, the dice from ``seed``."""
    game = make_game(spec)
    agents = {player: make_agent("random", game, seed=seed) for player in game.players}
    return play_game(game, agents, chance=random.Random(seed))


def test_the_layout_is_gnubgs() -> None:
    game = Backgammon(cube=True)
    state = game.initial_state()
    moves = ["White 6-2", "24/18 13/11", "roll", "5-4", "24/20 13/8", "double", "take"]
    moves += ["3-1", "8/5* 6/5", "roll", "5-5"]  # Black's 5-5 rolled, not played yet
    record = GameRecord(game, state, state)
    actions = []
    for text in moves:
        actions.append(game.parse_action(state, text))
        state = game.result(state, actions[-1])
    text = game.match_file(game.initial_state(), actions, ["Ann Lee", "bot:depth=2"])
    assert text.splitlines() == [
        " 0 point match",
        "",
        " Game 1",
        " Ann_Lee : 0                    bot_depth=2 : 0",
        "  1) 62: 24/18 13/11             54: 13/8 24/20",
        "  2)  Doubles => 2                Takes",
        "  3) 31: 8/5* 6/5",
    ]
    assert "mat" in text_formats(game) and "mat" not in text_formats(make_game("chess"))
    assert record.start == game.initial_state()


def test_a_dropped_double_and_a_match_won() -> None:
    game = Backgammon(match=3)
    state = game.parse_position("W 1:1 off:14 / B 23:15 / W 2-1 / cube 1 / match 3 W 1 B 0")
    with pytest.raises(RenderError, match="starts at a game's opening roll"):
        game.match_file(state, [], ["a", "b"])
    start = game.initial_state()
    moves = ["White 6-2", "24/18 13/11", "double", "drop", "Black 3-1", "8/5 6/5", "double", "drop"]
    actions, state = [], start
    for text in moves:  # Black doubles and White drops; White doubles and Black drops
        actions.append(game.parse_action(state, text))
        state = game.result(state, actions[-1])
    lines = game.match_file(start, actions, ["W", "B"]).splitlines()
    assert lines[3:6] == [
        " W : 0                          B : 0",
        "  1) 62: 24/18 13/11              Doubles => 2",
        "  2)  Drops                       Wins 1 point",
    ]
    assert lines[9:12] == [
        "  1)                             31: 8/5 6/5",
        "  2)  Doubles => 2                Drops",
        "      Wins 1 point",
    ]


def _rows(text: str) -> list[tuple[str, ...]]:
    """The lines of a match file as words, each turn's checker moves sorted (gnubg writes a
    turn's moves in its own order), comments and blank lines left out."""
    rows = []
    for line in text.splitlines():
        if not line.strip() or line.startswith(";"):
            continue
        words, run = [], []
        for word in [*line.split(), ""]:
            if "/" in word:
                run.append(word)
                continue
            words += sorted(run) + [word] * bool(word)
            run = []
        rows.append(tuple(words))
    return rows


@needs_gnubg
@pytest.mark.parametrize(
    ("spec", "seed"),
    [
        ("backgammon", 1),
        ("backgammon:cube=true", 2),
        ("backgammon:cube=true,beavers=true", 11),
        ("backgammon:cube=true,jacoby=true", 4),
        ("backgammon:match=5", 3),
        ("backgammon:match=7", 5),
    ],
)
def test_gnubg_reads_the_same_games_moves_and_score(spec: str, seed: int, tmp_path: Path) -> None:
    record = _played(spec, seed)
    game = record.game
    assert isinstance(game, Backgammon)
    text = game_text(record, "mat", NAMES, "test")
    ours, theirs = tmp_path / "plies.mat", tmp_path / "gnubg.mat"
    ours.write_text(text, encoding="utf-8")
    jacoby = "on" if game.jacoby else "off"
    commands = f"set jacoby {jacoby}\nimport mat {ours}\nshow score\nexport match mat {theirs}\n"
    assert GNUBG is not None
    output = subprocess.run(
        [GNUBG, "-t", "-q", "-r"], input=commands, capture_output=True, text=True, timeout=120
    ).stdout
    found = re.search(r"The score \(after (\d+) games?\) is: White (\d+), Black (\d+)", output)
    assert found is not None, output[-2000:]
    if game.match:
        score = record.state.score
    else:
        winner = game.winner(record.state)
        points = game.points_won(record.state)
        score = (points * (winner == "White"), points * (winner == "Black"))
    assert (int(found[1]), int(found[2]), int(found[3])) == (text.count(" Game "), *score)
    assert _rows(theirs.read_text(encoding="utf-8")) == _rows(text)


def test_play_writes_a_match_file(run_cli: Callable[..., CliRun], tmp_path: Path) -> None:
    path = tmp_path / "match.mat"
    result = run_cli(
        "play", "backgammon:match=1", "--first", "random", "--second", "random", "--seed", "3",
        "--quiet", "--mat", str(path),
    )  # fmt: skip
    assert result.code == 0, result.err
    assert path.read_text(encoding="utf-8").startswith(" 1 point match\n\n Game 1\n random : 0")
    assert_one_line_error(
        run_cli("play", "tictactoe", "--mat", str(tmp_path / "x.mat")), "writes no match files"
    )


def test_a_tournament_writes_a_match_file_a_game(tmp_path: Path) -> None:
    from plies.arena.driver import Tournament
    from plies.arena.export import mat_paths, write_mat

    tournament = Tournament(
        "backgammon:cube=true", ["random", "expectiminimax:depth=1"], games=2, seed=1,
        openings="random:0",  # a game's opening moves are written without their dice
    )  # fmt: skip
    with tournament.open(tmp_path / "t.db") as records:
        list(tournament.run(records))
        assert write_mat(records, tmp_path / "games.mat") == 2
    for path in mat_paths(tmp_path / "games.mat", 2):
        assert path.read_text(encoding="utf-8").startswith(" 0 point match\n")
    assert [p.name for p in mat_paths("x/games.mat", 2)] == ["games-1.mat", "games-2.mat"]
