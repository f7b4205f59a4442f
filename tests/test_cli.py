"""The ``plies`` command line: outputs, JSON contracts, and one-line errors with exit status 2."""

from __future__ import annotations

import json
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import CliRun, assert_one_line_error, default_ctrl_c, register_resigner

LECTURE = "[[3,12,8],[2,4,6],[14,5,2]]"
Run = Callable[..., CliRun]


def test_tree_json_contract(run_cli: Run) -> None:
    result = run_cli("tree", LECTURE, "--json")
    assert result.code == 0
    data = json.loads(result.out)
    assert data["value"] == 3
    assert data["best_path"] == [0]
    assert data["pv"] == [0, 0]
    assert data["pruned_leaves"] == [4, 5]
    assert data["leaf_count"] == 9
    assert data["nodes_visited"] == 11
    assert data["rule"] == "non-strict"
    values = {node["label"]: node["value"] for node in data["nodes"]}
    assert values["A"] == 3 and values["B"] == 3 and values["c2"] is None
    minimax = {node["label"]: node["minimax"] for node in data["nodes"]}
    assert (minimax["C"], minimax["D"]) == (2, 2)


def test_tree_strict_minimax_and_root_min(run_cli: Run) -> None:
    strict = json.loads(run_cli("tree", "[[3,5],[3,1]]", "--strict", "--json").out)
    loose = json.loads(run_cli("tree", "[[3,5],[3,1]]", "--json").out)
    assert (strict["rule"], strict["pruned_leaves"]) == ("strict", [])
    assert (loose["rule"], loose["pruned_leaves"]) == ("non-strict", [3])
    full = json.loads(run_cli("tree", LECTURE, "--algorithm", "minimax", "--json").out)
    assert (full["value"], full["pruned_leaves"], full["nodes_visited"]) == (3, [], 13)
    low = json.loads(run_cli("tree", LECTURE, "--root", "min", "--json").out)
    assert (low["root"], low["value"], low["best_path"]) == ("MIN", 6, [1])


def test_tree_human_output(run_cli: Run) -> None:
    result = run_cli("tree", "((3 12 8) (2 4 6) (14 5 2))", "--trace")
    assert result.code == 0
    out = result.out
    assert "value: 3" in out
    assert "A -> B -> b1" in out
    assert "in order: A B b1 b2 b3 C c1 D d1 d2 d3" in out
    assert "pruned at C (MIN, v=2 <= alpha=3): c2, c3" in out
    assert "pruned leaves: c2 c3 (leaf indices [4, 5])" in out
    assert "cutoff at C" in out


def test_tree_from_file_and_stdin(run_cli: Run, tmp_path: Path) -> None:
    source = tmp_path / "tree.txt"
    source.write_text('{"label": "R", "children": [{"label": "x", "value": 1}, 2]}')
    from_file = json.loads(run_cli("tree", str(source), "--json").out)
    assert (from_file["value"], from_file["best_path_labels"]) == (2, ["R", "r2"])
    from_stdin = json.loads(run_cli("tree", "--json", stdin=LECTURE).out)
    assert from_stdin["value"] == 3
    dash = json.loads(run_cli("tree", "-", "--json", stdin=LECTURE).out)
    assert dash["pruned_leaves"] == [4, 5]


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (("tree", "((3 12 8) (2 4 6)"), "never closed"),
        (("tree", ""), "empty input"),
        (("tree", "-"), "empty input"),
        (("tree", "[[3,a]]"), "is not a number"),
        (("tree", "no-such-file.txt"), "no such file"),
        (("tree", LECTURE, "--algorithm", "negamax"), "negamax"),
        (("tree", LECTURE, "--root", "middle"), "middle"),
        (("tree", LECTURE, "--draw", "tree.gif"), ".svg or .png"),
        (("tree", LECTURE, "--frobnicate"), "--frobnicate"),
        (("frobnicate",), "No such command"),
        (("solve", "shogi"), "unknown game 'shogi'"),
        (("solve", "chess"), "too deep for a search to the end"),
        (("solve", "tictactoe:m=x"), "not an integer"),
        (("solve", "tictactoe:q=1"), "unknown option 'q'"),
        (("solve", "tictactoe:k=9"), "k=9"),
        (("solve", "tictactoe", "XXO/..."), "squares"),
        (("solve", "tictactoe", "XXX/XO./..."), "X moves first"),
        (("solve", "tictactoe", "XXX/OOO/X.."), "both X and O"),
        (("solve", "tictactoe", "XZ./.../..."), "'Z'"),
        (("solve", "tictactoe", "--algorithm", "negamax"), "negamax"),
        (("solve", "nim", "3,x"), "x"),
        (("play", "tictactoe", "--first", "wizard"), "unknown agent 'wizard'"),
        (("play", "tictactoe", "--third", "random"), "--third: 'tictactoe' has only 2 players"),
        (("play", "tictactoe", "--first", "mcts:iterations=0"), "iterations must be at least 1"),
        (("play", "chess", "--first", "engine:lmr=maybe"), "lmr"),
        (("play", "chess", "--position", "8/8/8/8/8/8/8/8 w - - 0 1"), "position"),
        (("demo", "--game", "chess"), "the tour solves a two-player game"),
        (("demo", "--game", "nim"), "no evaluation function"),
        (
            ("search", "chess", "4k3/8/8/8/8/8/4P3/4K3 w - - 0 " + "9" * 20, "--depth", "1"),
            "fullmove",
        ),
        (
            ("play", "chess", "--position", "4k3/8/8/8/8/8/4P3/4K3 w - - " + "9" * 20 + " 1"),
            "halfmove",
        ),
        (("play", "chess", "--first", "perfect"), "no perfect solver for"),
        (("play", "othello", "--second", "alphabeta"), "give alphabeta:depth=N"),
        (("play", "tictactoe", "--first", "mcts:selection=best"), "not one of ucb1, puct"),
        (("play", "nim", "--first", "mcts:evaluator=eval"), "no evaluation function"),
        (("play", "nim", "--first", "maxn:depth=2"), "no evaluation function"),
        (("play", "tictactoe", "--first", "expectiminimax:prune=true"), "no value bounds"),
        (("play", "tictactoe3", "--first", "alphabeta"), "two-player zero-sum"),
        (("play", "backgammon", "--first", "alphabeta"), "chance nodes"),
        (("play", "backgammon", "--position", "W 24:2 / B"), "is not three parts like"),
        (("search", "tictactoe", "-a", "mcts", "--depth", "3"), "not --depth or --nodes"),
        (("search", "tictactoe", "--iterations", "30"), "--iterations is an MCTS option"),
        (("play", "tictactoe", "--second", "perfect"), "no perfect solver for"),
        (("play", "tictactoe", "--first", "alphabeta:depth=0"), "at least 1"),
        (("play", "tictactoe", "--first", "alphabeta:deep=3"), "unknown option 'deep'"),
        (("play", "tictactoe", "--first", "alphabeta:depth"), "malformed option"),
        (("play", "nim", "--first", "alphabeta:depth=2"), "no evaluation function"),
        (("play", "tictactoe", "--position", "XXX/OO./..."), "already over"),
        (("effort", "tictactoe", "--plies", "1,x"), "--plies"),
        (("effort", "tictactoe", "--plies", "2", "--algorithms", "foo"), "foo"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(
    run_cli: Run, args: tuple[str, ...], fragment: str
) -> None:
    assert_one_line_error(run_cli(*args, stdin=""), fragment)


def test_solve_json(run_cli: Run) -> None:
    data = json.loads(run_cli("solve", "tictactoe", "XO./.X./...", "--json").out)
    assert data["to_move"] == "O"
    assert data["value"] == 1 and data["value_for"] == "X"
    assert data["best_move"] == data["pv"][0]
    assert data["nodes"] > 0
    minimax = json.loads(
        run_cli("solve", "tictactoe", "XO./.X./...", "--algorithm", "minimax", "--json").out
    )
    assert minimax["value"] == 1 and minimax["nodes"] > data["nodes"]


def test_solve_nim_first_player_view(run_cli: Run) -> None:
    assert json.loads(run_cli("solve", "nim", "3,4,5", "--json").out)["value"] == 1
    assert json.loads(run_cli("solve", "nim", "1,2,3", "--json").out)["value"] == -1


def test_play_human_reprompts(run_cli: Run) -> None:
    moves = "zz\nb2\nb2\na2\nc2\na3\nb3\nc3\nc1\nb1\n"
    result = run_cli(
        "play", "tictactoe", "--first", "human", "--second", "alphabeta", "--quiet", stdin=moves
    )
    assert result.code == 0, result.err
    assert "'zz' is not a square" in result.out
    assert "that square is taken" in result.out
    assert "game over after" in result.out


def test_play_abandoned_keeps_the_game(run_cli: Run) -> None:
    result = run_cli("play", "tictactoe", "--quiet", stdin="b2\n")
    assert result.code == 1
    assert "game abandoned after 2 moves: b2 a1" in result.err
    assert "--position 'O../.X./...'" in result.err


@pytest.mark.parametrize("game", ["tictactoe", "tiles", "nim:heaps=2-3"])
def test_play_ai_against_random(run_cli: Run, game: str) -> None:
    result = run_cli("play", game, "--first", "random", "--second", "alphabeta", "--seed", "1")
    assert result.code == 0, result.err
    assert "game over after" in result.out


def test_play_connect4_against_the_perfect_agent(run_cli: Run) -> None:
    moves = "1\n2\n3\n4\n5\n6\n7\n" * 6  # full columns are refused and re-prompted
    result = run_cli(
        "play",
        "connect4",
        "--first",
        "human",
        "--second",
        "perfect",
        "--position",
        "52753311433677442422121",
        "--quiet",
        stdin=moves,
    )
    assert result.code == 0, result.err
    assert (
        "O plays 5  [solved: score 8, the side to move wins with its stone number 14;" in result.out
    )
    assert "game over after" in result.out and "O wins" in result.out
    args = ("play", "connect4", "--first", "perfect:nodes=4096,depth=2", "--second", "random")
    opening = run_cli(*args, "--seed", "3", "--quiet")
    assert opening.code == 0, opening.err
    assert "1. X plays 4  [from the opening book: score 1" in opening.out
    early = run_cli(*args, "--position", "12", "--seed", "3", "--quiet")  # off the book
    assert early.code == 0, early.err
    assert "1. X plays 5  [not solved within the budget" in early.out


def test_play_three_players(run_cli: Run) -> None:
    result = run_cli(
        "play",
        "tictactoe3:m=3,n=3",
        "--first",
        "random",
        "--second",
        "maxn",
        "--third",
        "paranoid:depth=2",
        "--seed",
        "5",
        "--quiet",
    )
    assert result.code == 0, result.err
    assert "X: random   O: maxn   Y: paranoid:depth=2" in result.out
    assert "2. O plays" in result.out and "3. Y plays" in result.out
    assert "game over after" in result.out


def test_search_mcts_reports_every_root_move(run_cli: Run) -> None:
    result = run_cli(
        "search",
        "tictactoe",
        "O../.X./...",
        "-a",
        "mcts",
        "--iterations",
        "600",
        "--seed",
        "3",
        "--json",
    )
    assert result.code == 0, result.err
    data = json.loads(result.out)
    assert set(data) >= {"move", "value", "iterations", "time", "pv", "root", "note"}
    assert data["iterations"] <= 600 and data["pv"][0] == data["move"]
    assert sum(move["visits"] for move in data["root"]) <= data["iterations"]
    assert data["root"][0]["move"] == data["move"]
    text = run_cli("search", "connect4", "-a", "mcts", "--iterations", "1000", "--seed", "1")
    assert text.code == 0, text.err
    assert "iterations     1,000" in text.out and "best move: " in text.out
    assert text.out.count("\n") >= 1 + 7 + 1  # a progress line, the seven columns, the move


@pytest.mark.parametrize(("spec", "options"), [("go:size=5", []), ("tictactoe", ["--c", "0.7"])])
def test_search_mcts_searches_as_the_mcts_agent_does(
    run_cli: Run, spec: str, options: list[str]
) -> None:
    """The command builds its search through the agent registry: the same exploration constant
    and RAVE as ``mcts`` (c = 0 with RAVE on Go, not sqrt 2) or as given."""
    from plies.agents import MCTSAgent, make_agent
    from plies.games import make_game

    result = run_cli("search", spec, "-a", "mcts", "--iterations", "50", "--json", *options)
    assert result.code == 0, result.err
    data = json.loads(result.out)
    agent = make_agent("mcts" + (f":c={options[1]}" if options else ""), make_game(spec))
    assert isinstance(agent, MCTSAgent)
    assert (data["c"], data["rave"]) == (agent.mcts.c, agent.mcts.rave)
    assert data["c"] == (0.0 if spec.startswith("go") else 0.7)


def test_play_backgammon_reprompts_on_illegal_moves(run_cli: Run) -> None:
    moves = "8/4 6/4\n13/10\nnonsense\n"  # the second roll is 6-2: 13/10 needs a 3
    result = run_cli(
        "play", "backgammon", "--first", "human", "--seed", "1", "--quiet", stdin=moves
    )
    assert "1. chance: White 4-2" in result.out
    assert "2. White plays 8/4 6/4" in result.out
    assert "wrong die: it needs 3 and the roll is 6-2; try again" in result.out
    assert "is not written like 24/18" in result.out
    assert result.code == 1 and "resume with: plies play backgammon --position" in result.err


def test_play_chess_writes_pgn(run_cli: Run, tmp_path: Path) -> None:
    import chess.pgn

    path = tmp_path / "game.pgn"
    fools_mate = "g4\n"  # after 1.f3 e5 the human plays White's 2.g4; the engine mates at once
    result = run_cli(
        "play",
        "chess",
        "--first",
        "human",
        "--second",
        "engine:depth=2",
        "--position",
        "rnbqkbnr/pppp1ppp/8/4p3/8/5P2/PPPPP1PP/RNBQKBNR w KQkq - 0 2",
        "--quiet",
        "--pgn",
        str(path),
        stdin=fools_mate,
    )
    assert result.code == 0, result.err
    assert "Black wins" in result.out
    with path.open(encoding="utf-8") as handle:
        record = chess.pgn.read_game(handle)
    assert record is not None and record.headers["Result"] == "0-1"
    assert record.headers["White"] == "human" and record.headers["Black"] == "engine:depth=2"
    assert [m.uci() for m in record.mainline_moves()] == ["g2g4", "d8h4"]
    assert record.end().board().is_checkmate()
    refused = run_cli("play", "tictactoe", "--pgn", str(path), stdin="")
    assert_one_line_error(refused, "--pgn: 'tictactoe' has no PGN notation")


def test_games_and_demo(run_cli: Run) -> None:
    listing = run_cli("games").out
    assert all(name in listing for name in ("tictactoe", "tiles", "nim"))
    demo = run_cli("demo")
    assert demo.code == 0
    assert "pruned leaves: c2 c3" in demo.out
    assert "549,946 nodes" in demo.out
    assert "game over: draw" in demo.out


@pytest.mark.skipif(shutil.which("dot") is None, reason="Graphviz's dot program is not installed")
@pytest.mark.parametrize("suffix", [".svg", ".png"])
def test_draw(run_cli: Run, tmp_path: Path, suffix: str) -> None:
    target = tmp_path / f"tree{suffix}"
    result = run_cli("tree", LECTURE, "--draw", str(target))
    assert result.code == 0, result.err
    assert target.stat().st_size > 0
    if suffix == ".svg":
        svg = target.read_text()
        assert "c2" in svg and "stroke-dasharray" in svg


def test_draw_without_dot(run_cli: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))
    assert_one_line_error(
        run_cli("tree", LECTURE, "--draw", str(tmp_path / "t.svg")), "not installed"
    )


def test_effort_json(run_cli: Run) -> None:
    data = json.loads(run_cli("effort", "tictactoe", "--plies", "6,8", "--json").out)
    rows = {row["plies"]: row for row in data["rows"]}
    assert rows[8]["positions"] == 222
    assert rows[8]["mean_nodes"]["minimax"] == 2.0


def test_solve_each_move_lists_all_best_moves(run_cli: Run) -> None:
    data = json.loads(run_cli("solve", "tictactoe", "X../.../...", "--moves", "--json").out)
    assert data["best_moves"] == ["b2"]  # every other reply to a corner loses
    assert len(data["moves"]) == 8
    empty = json.loads(run_cli("solve", "tictactoe", "--moves", "--json").out)
    assert len(empty["best_moves"]) == 9  # every first move draws
    assert data["value"] == empty["value"] == 0


def test_effort_interrupted_keeps_finished_rows(
    run_cli: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    import plies.lectures.effort

    original = plies.lectures.effort.ALGORITHMS["minimax"]
    calls = 0

    def interrupt_later(*args: object, **kwargs: object) -> object:
        nonlocal calls
        calls += 1
        if calls > 222:  # every 8-mark position done, then Ctrl-C during the next row
            raise KeyboardInterrupt
        return original(*args, **kwargs)

    monkeypatch.setitem(plies.lectures.effort.ALGORITHMS, "minimax", interrupt_later)
    result = run_cli("effort", "tictactoe", "--plies", "8,6", "--json")
    assert result.code == 130
    data = json.loads(result.out)
    assert data["complete"] is False
    assert [row["plies"] for row in data["rows"]] == [8]
    assert "interrupted" in result.err


def test_perft_json_and_divide(run_cli: Run) -> None:
    data = json.loads(run_cli("perft", "tictactoe", "6", "--json").out)
    assert data["nodes"] == 54_720 and data["time"] >= 0
    split = json.loads(run_cli("perft", "tictactoe", "6", "--divide", "--json").out)
    assert sum(split["divide"].values()) == 54_720
    corners = {split["divide"][m] for m in ("a1", "c1", "a3", "c3")}
    edges = {split["divide"][m] for m in ("b1", "a2", "c2", "b3")}
    assert len(corners) == len(edges) == 1  # the board's symmetry
    text = run_cli("perft", "nim", "2", "--position", "1,2", "--divide").out
    assert "1:1: 2" in text and "perft 2: 5 nodes" in text


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (("perft", "tictactoe", "x"), "'x' is not a valid integer"),
        (("perft", "shogi", "2"), "unknown game"),
        (("perft", "tictactoe", "2", "--position", "XXXX"), "squares"),
    ],
)
def test_perft_bad_input(run_cli: Run, args: tuple[str, ...], fragment: str) -> None:
    assert_one_line_error(run_cli(*args), fragment)


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (("solve", "connect4", "4444444"), "overflows column 4"),
        (("solve", "connect4", "12121212"), "after the game ended"),
        (("solve", "connect4", "4x5"), "is not a column"),
        (("perft", "othello", "2", "--position", "f5d6z9"), "z9"),
        (("perft", "othello", "2", "--position", "f5f5"), "taken"),
        (("perft", "checkers", "2", "--position", "B:W21:B33"), "33"),
        (("perft", "connect4:width=12", "2"), "width"),
        (("play", "othello", "--first", "alphabeta:depth=x"), "not an integer"),
    ],
)
def test_board_game_bad_input(run_cli: Run, args: tuple[str, ...], fragment: str) -> None:
    assert_one_line_error(run_cli(*args), fragment)


@pytest.mark.parametrize(
    ("game", "position", "moves", "complaint"),
    [
        ("connect4", "4444445", "4\n5\n", "column 4 is full"),
        ("othello", None, "a1\nd3\n", "turns over no disc"),
        ("checkers", "W:W21,22:B18", "21-17\n22x15\n", "a capture is compulsory: 22x15"),
    ],
)
def test_human_reprompts_on_illegal_board_moves(
    run_cli: Run, game: str, position: str | None, moves: str, complaint: str
) -> None:
    args = ["play", game, "--first", "human", "--second", "random", "--quiet"]
    if game == "checkers":  # White moves first in this position: the human plays White
        args = ["play", game, "--first", "random", "--second", "human", "--quiet"]
    if position is not None:
        args += ["--position", position]
    result = run_cli(*args, stdin=moves)
    assert complaint in result.out
    assert "Traceback" not in result.err


@pytest.mark.parametrize(
    ("game", "depth", "nodes"),
    [("connect4", 5, 16_807), ("othello", 5, 1_396), ("checkers", 5, 7_361)],
)
def test_perft_board_games(run_cli: Run, game: str, depth: int, nodes: int) -> None:
    assert json.loads(run_cli("perft", game, str(depth), "--json").out)["nodes"] == nodes


def test_search_json_contract(run_cli: Run) -> None:
    data = json.loads(run_cli("search", "connect4", "--depth", "5", "--json").out)
    for key in ("move", "score", "depth", "nodes", "time", "pv"):
        assert key in data
    assert data["depth"] == 5 and data["move"] == data["pv"][0]
    solved = json.loads(run_cli("search", "tictactoe", "--depth", "9", "--json").out)
    assert solved["score"] == 0 and solved["solved"] is True
    win = json.loads(run_cli("search", "tictactoe", "XX./OO./...", "--time", "1", "--json").out)
    assert (win["move"], win["mate"]) == ("c1", 1)


def test_search_native_on_and_off_agree(run_cli: Run) -> None:
    """The two engines search exactly the same nodes (their tables have as many slots)."""
    runs = [
        json.loads(run_cli("search", "othello", "--depth", "5", "--json", *flag).out)
        for flag in ((), ("--native", "off"))
    ]
    assert (runs[0]["native"], runs[1]["native"]) == (True, False)
    for key in ("move", "score", "pv", "nodes", "depth"):
        assert runs[0][key] == runs[1][key]
    chess = [
        json.loads(run_cli("search", "chess", "--depth", "4", "--json", *flag).out)
        for flag in ((), ("--native", "off"))
    ]
    assert (chess[0]["native"], chess[1]["native"]) == (True, False)
    for key in ("move", "score", "pv", "nodes", "depth"):
        assert chess[0][key] == chess[1][key]
    tiles = json.loads(run_cli("search", "tictactoe:m=7,n=7,k=4", "--depth", "1", "--json").out)
    assert tiles["native"] is False  # a board beyond the kernel's


def test_search_prints_a_line_per_iteration(run_cli: Run) -> None:
    out = run_cli("search", "othello", "--depth", "4").out
    assert [line.split()[1] for line in out.splitlines() if line.startswith("depth")] == [
        "1",
        "2",
        "3",
        "4",
    ]
    assert out.rstrip().endswith(
        ("best move: d3", "best move: c4", "best move: f5", "best move: e6")
    )


def test_match_json_contract(run_cli: Run) -> None:
    data = json.loads(
        run_cli("match", "tictactoe", "engine:depth=9", "random", "--games", "6", "--json").out
    )
    assert data["games"] == 6 and data["losses"] == 0
    assert data["wins"] + data["draws"] == 6
    assert data["elo_low"] <= data["elo"] <= data["elo_high"]
    assert data["complete"] is True


def test_engine_agent_plays(run_cli: Run) -> None:
    result = run_cli(
        "play",
        "checkers",
        "--first",
        "engine:nodes=3000,tt=1",
        "--second",
        "random",
        "--seed",
        "3",
        "--quiet",
    )
    assert result.code == 0, result.err
    assert "game over after" in result.out and "depth" in result.out


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (("search", "tictactoe"), "give a limit"),
        (("search", "tictactoe", "--depth", "0"), "--depth"),
        (("search", "tictactoe", "--time", "-1"), "--time"),
        (("search", "nim", "--depth", "3"), "no evaluation function"),
        (("search", "tictactoe", "XXX/OO./...", "--depth", "2"), "the game is over"),
        (("match", "tictactoe", "human", "random"), "plies play"),
        (("match", "tictactoe", "engine:speed=3", "random"), "unknown option 'speed'"),
        (("match", "tictactoe", "engine:time=0", "random"), "positive"),
        (("match", "tictactoe", "random", "random", "--games", "0"), "--games"),
        (("play", "tictactoe", "--first", "engine:tt=x"), "not a number"),
        (("match", "connect4", "engine:native=maybe", "random"), "native='maybe'"),
        (("match", "connect4", "mcts:native=2", "random"), "native='2'"),
        (("search", "connect4", "--depth", "2", "--native", "maybe"), "--native"),
    ],
)
def test_engine_bad_input(run_cli: Run, args: tuple[str, ...], fragment: str) -> None:
    assert_one_line_error(run_cli(*args), fragment)


@pytest.mark.parametrize(
    ("moves", "score"), [("4455", 18), ("44455554221", -15), ("1233722555341451114725221333", -1)]
)
def test_solve_connect4_perfectly(run_cli: Run, moves: str, score: int) -> None:
    data = json.loads(run_cli("solve", "connect4", moves, "--json").out)
    assert data["score"] == score
    assert data["nodes"] >= 0 and data["time"] >= 0 and data["best_moves"]


def test_solve_connect4_best_moves_and_analysis(run_cli: Run) -> None:
    data = json.loads(run_cli("solve", "connect4", "4455", "--analyze", "--json").out)
    # X has stones on 4 and 5: playing 3 or 6 makes a double threat (win with the 4th stone).
    assert data["best_moves"] == [3, 6]
    assert data["columns"][2] == data["columns"][5] == 18
    weak = json.loads(run_cli("solve", "connect4", "44455554221", "--weak", "--json").out)
    assert weak["score"] == -1
    text = run_cli("solve", "connect4", "4455", "--analyze").out
    assert "score 18" in text and "best moves: 3 6" in text


def test_solve_connect4_set_file(run_cli: Run, tmp_path: Path) -> None:
    source = tmp_path / "set.txt"
    source.write_text("4455 18\n44455554221 -15\n\n4444444 1\n1234 x\n4455 17\n")
    result = run_cli("solve", "connect4", "--file", str(source))
    assert result.code == 2
    assert result.out.splitlines() == ["4455 18", "44455554221 -15", "4455 18"]
    errors = [line for line in result.err.splitlines() if line.startswith("plies: error")]
    assert [e.split(": ")[3] for e in errors[:3]] == ["line 3", "line 4", "line 5"]
    assert "2 of 3 agree" in result.err
    lines = run_cli("solve", "connect4", "--file", "-", "--json", stdin="4455 18\n").out
    record = json.loads(lines.splitlines()[0])
    assert (record["moves"], record["score"], record["expected"]) == ("4455", 18, 18)
    assert record["nodes"] >= 0 and record["time"] >= 0


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (("solve", "connect4", "4448"), "not a column"),
        (("solve", "tictactoe", "--analyze"), "--analyze needs a perfect solver"),
        (("solve", "tictactoe", "--algorithm", "perfect"), "no perfect solver"),
        (("solve", "connect4", "4455", "--file", "x.txt"), "not both"),
        (("solve", "connect4", "--file", "no-such-file.txt"), "cannot read"),
    ],
)
def test_solve_connect4_bad_input(run_cli: Run, args: tuple[str, ...], fragment: str) -> None:
    assert_one_line_error(run_cli(*args), fragment)


def test_ctrl_c_stops_a_long_connect4_solve_at_once() -> None:
    """The solver returns to Python every 2^18 positions, so SIGINT is seen within moments."""
    process = subprocess.Popen(
        [sys.executable, "-m", "plies", "solve", "connect4", "12"],  # early, not in the book
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=default_ctrl_c,
    )
    assert process.stderr is not None
    assert "early positions (2 stones)" in process.stderr.readline()  # the solve has begun
    time.sleep(0.5)
    process.send_signal(signal.SIGINT)
    _, err = process.communicate(timeout=30)
    assert process.returncode == 130
    assert "plies: interrupted" in err


def test_a_resignation_ends_play_and_counts_as_a_loss_in_a_match(
    run_cli: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An agent that resigns at once: ``plies play`` says so and writes ``B+R`` to SGF, and
    ``plies match`` counts each of its games as a loss, not an error."""

    register_resigner(monkeypatch)
    path = tmp_path / "game.sgf"
    result = run_cli("play", "go:size=5", "--first", "random", "--second", "resigner",
                     "--seed", "1", "--quiet", "--sgf", str(path))  # fmt: skip
    assert result.code == 0, result.err
    assert result.out.splitlines()[-1] == "game over after 1 moves: W resigns: B wins"
    assert "RE[B+R]" in path.read_text()
    match = run_cli("match", "go:size=5", "random", "resigner", "--games", "2", "--json")
    assert match.code == 0, match.err
    assert json.loads(match.out)["wins"] == 2


def test_play_go_writes_sgf(run_cli: Run, tmp_path: Path) -> None:
    path = tmp_path / "game.sgf"
    result = run_cli(
        "play", "go:size=5", "--first", "random", "--second", "random", "--seed", "3",
        "--quiet", "--sgf", str(path),
    )  # fmt: skip
    assert result.code == 0, result.err
    text = path.read_text()
    assert text.startswith("(;") and "SZ[5]" in text and "PB[random]" in text
    assert "RE[B+" in text or "RE[W+" in text or "RE[0]" in text
    assert_one_line_error(run_cli("play", "connect4", "--sgf", str(path)), "no SGF notation")
    assert_one_line_error(run_cli("play", "go:size=4"), "at least 5")


def test_progress_goes_to_a_log_as_lines(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Where stderr is no terminal (a nohup run's log), progress comes as plain lines."""
    from rich.progress import TextColumn

    from plies.cli import output

    monkeypatch.setattr(output, "LOG_EVERY", 0.0)
    with output.progress_bar(TextColumn("{task.description}")) as bar:
        task = bar.add_task("labelling", total=10)
        bar.update(task, completed=3)
        bar.advance(task)
    lines = capsys.readouterr().err.splitlines()
    assert [line.split(",")[0] for line in lines] == ["labelling: 3 of 10", "labelling: 4 of 10"]
