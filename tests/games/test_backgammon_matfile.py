"""Backgammon match files (``.mat``, :mod:`plies.games.backgammon.matfile`): their layout, and
GNU Backgammon reading them back with the same games, moves, cube actions and score."""

from __future__ import annotations

import random
import re
import shutil
import subprocess
import textwrap
from collections.abc import Callable
from pathlib import Path

import pytest

from plies.agents import make_agent
from plies.errors import (
    IllegalMoveError,
    InvalidPositionError,
    ParseError,
    PliesError,
    RenderError,
)
from plies.game_texts import MOST_RECORD_CHARACTERS, game_text, read_record, text_formats
from plies.games.backgammon import matfile
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


def _replayed(game: Backgammon, start: str | None, moves: list[str]) -> object:
    state = game.initial_state() if start is None else game.parse_position(start)
    for move in moves:
        state = game.result(state, game.parse_action(state, move))
    return state


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
def test_a_match_file_reads_back_its_moves(spec: str, seed: int) -> None:
    record = _played(spec, seed)
    game = record.game
    assert isinstance(game, Backgammon)
    text = game_text(record, "mat", NAMES, "test")
    start, moves = game.match_moves(text)
    assert start is None
    assert moves == [turn.notation for turn in record.turns]
    assert _replayed(game, start, moves) == record.state
    read = read_record(game, text)  # pasted: the web's Start from
    assert (read.game, read.start, read.moves) == (spec, None, moves)


def test_the_docstrings_sample_reads() -> None:
    doc = matfile.__doc__
    assert doc is not None
    sample = textwrap.dedent(doc.split("::\n\n")[1].split("\n\n:func:")[0])
    game = Backgammon(match=3)
    start, moves = game.match_moves(sample)
    assert start is None
    assert moves[:5] == ["Black 6-1", "13/7 8/7", "roll", "6-2", "24/16"]
    assert moves[-6:] == ["3-1", "bar/24 13/10", "double", "take", "4-2", "8/4 6/4"]
    assert game.match_moves("Game 1\n 1) 21: 13/11 6/5")[1][0] == "White 2-1"  # no header


def test_a_first_game_at_a_score_starts_there_and_money_reads_one_game() -> None:
    game = Backgammon(match=5)
    text = " 5 point match\n\n Game 4\n a : 4    b : 2\n  1) 31: 8/5 6/5\n"
    start, moves = game.match_moves(text.replace("Game 4", "Game 1"))
    assert start is not None and start.endswith("match 5 W 4 B 2 Crawford")
    assert moves == ["White 3-1", "8/5 6/5"]
    money = " 0 point match\n Game 1\n a : 0  b : 0\n 1) 31: 8/5 6/5\n Game 2\n junk\n"
    assert Backgammon().match_moves(money) == (None, ["White 3-1", "8/5 6/5"])
    resigned = " 0 point match\n Game 1\n a : 0  b : 0\n 1) 31: 8/5 6/5\n  Wins 2 points\n"
    assert Backgammon().match_moves(resigned)[1] == ["White 3-1", "8/5 6/5"]
    with pytest.raises(ParseError, match="line 6: the game was resigned"):
        Backgammon(match=3).match_moves(
            resigned.replace(" 0 point", " 3 point") + " Game 2\n a : 2  b : 0\n"
        )


HEAD = " 3 point match\n\n Game 1\n White : 0                      Black : 0\n"


@pytest.mark.parametrize(
    ("spec", "text", "error", "fragment"),
    [
        ("backgammon:match=3", "three point match\n Game 1\n", ParseError, "line 1: 'three"),
        ("backgammon:match=3", HEAD + "  1) 31: 8/5 6/5 hi", ParseError, "'hi' is not a roll"),
        ("backgammon:match=3", HEAD + "  1) 31: 13/7", IllegalMoveError, "row 1): '13/7' is not"),
        ("backgammon:match=3", HEAD + "  1) 71: 8/1", IllegalMoveError, "roll 'White 7-1'"),
        ("backgammon:match=3", HEAD + "  1) 33: 8/5 6/3", IllegalMoveError, "ties are rerolled"),
        ("backgammon:match=3", HEAD + "  1) 311: 8/5", IllegalMoveError, "'311:' is not two dice"),
        ("backgammon:match=3", HEAD + "  1)  Doubles => 2", IllegalMoveError, "before the opening"),
        ("backgammon:match=5", HEAD, ParseError, "line 1: the file is a 3 point match and this"),
        ("backgammon:cube=true", HEAD, ParseError, "backgammon:match=3 reads it"),
        ("backgammon:match=3", "0 point match\n", ParseError, "backgammon:cube=true reads it"),
        ("backgammon:match=3", HEAD + "  1) 31: 8/5 6/5  Doubles => 4", InvalidPositionError,
         "not 4"),
        ("backgammon:match=3", HEAD + " 1) 31: 8/5 6/5 Doubles => 2 Drops\n Wins 2 points",
         InvalidPositionError, "line 6: 'Wins 2 points', and the game's end scores 1"),
        ("backgammon:match=3", HEAD + " Game 2\n", ParseError, "'Game 2' before game 1 is over"),
        ("backgammon:match=3", " 3 point match\n", ParseError, "no ' Game 1' line"),
        ("backgammon:match=3", HEAD.replace("Black : 0", "Black"), ParseError, "scores"),
        ("backgammon:match=3", "x" * (MOST_RECORD_CHARACTERS + 1), ParseError, "more than"),
    ],
)  # fmt: skip
def test_a_bad_match_file_is_one_line(
    spec: str, text: str, error: type[ParseError], fragment: str
) -> None:
    game = make_game(spec)
    assert isinstance(game, Backgammon)
    with pytest.raises(error) as raised:
        game.match_moves(text)
    assert fragment in str(raised.value)
    assert "\n" not in str(raised.value)
    assert matfile.MOST_CHARACTERS == MOST_RECORD_CHARACTERS


def test_a_double_without_the_cube_is_refused() -> None:
    text = HEAD.replace(" 3 point", " 0 point") + "  1) 31: 8/5 6/5  Doubles => 2\n"
    with pytest.raises(IllegalMoveError, match="row 1\\): 'double' is not legal: this game has "):
        Backgammon().match_moves(text)
    assert Backgammon(cube=True).match_moves(text)[1][-1] == "double"
    with pytest.raises(PliesError, match="more than"):
        read_record(Backgammon(), " 0 point match\n" + " " * MOST_RECORD_CHARACTERS)


@needs_gnubg
@pytest.mark.parametrize(("length", "seed"), [(3, 7), (5, 8)])
def test_a_match_gnubg_played_reads_back(length: int, seed: int, tmp_path: Path) -> None:
    """GNU Backgammon plays itself a match (0 plies, quick) and exports it; plies replays every
    game of it (a game ended by a resignation, gnubg's ``Wins`` before the end, ends it)."""
    path = tmp_path / "gnubg.mat"
    settings = [
        f"set player {side} {what}"
        for side in (0, 1)
        for what in ("gnubg", "chequerplay evaluation plies 0", "cubedecision evaluation plies 0")
    ]
    commands = [*settings, f"set seed {seed}", f"new match {length}", f"export match mat {path}"]
    assert GNUBG is not None
    subprocess.run(
        [GNUBG, "-t", "-q", "-r"], input="\n".join(commands) + "\n", capture_output=True,
        text=True, timeout=300,
    )  # fmt: skip
    text = path.read_text(encoding="utf-8")
    game = Backgammon(match=length)
    try:
        start, moves = game.match_moves(text)
    except ParseError as error:  # a game resigned before the match's last: plies cannot go on
        assert "the game was resigned" in str(error) and "\n" not in str(error)
        return
    state = _replayed(game, start, moves)
    assert start is None
    assert len(re.findall(r"\b\d\d:", text)) == sum(
        bool(re.fullmatch(r".*\d-\d", m)) for m in moves
    )
    games = text.count(" Game ")
    last_score = re.findall(r":\s*(\d+)\s+\S.*?:\s*(\d+)\s*$", text, re.MULTILINE)[-1]
    assert isinstance(state, tuple)
    if not game.is_terminal(state):  # the last game was resigned
        assert state.score == tuple(map(int, last_score))
    assert games >= 1
