"""plies gtp: the protocol's commands and errors, SGF files, dead stones and the final score,
resigning, and whole games against GNU Go through a small GTP referee."""

from __future__ import annotations

import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from plies.errors import PliesError
from plies.games.go.rules import Go
from plies.gtp import COMMANDS, GtpEngine
from tests.conftest import register_resigner

GNUGO = shutil.which("gnugo") or ("/usr/games/gnugo" if Path("/usr/games/gnugo").exists() else None)


def _session(commands: list[str], agent: str = "random") -> list[str]:
    answers: list[str] = []
    engine = GtpEngine(agent, answers.append, seed=1)
    for command in commands:
        if not engine.handle(command):
            break
    return answers


def test_identity_and_command_list() -> None:
    answers = _session(["protocol_version", "name", "list_commands", "known_command genmove",
                        "known_command fly", "version"])  # fmt: skip
    assert answers[:2] == ["= 2", "= plies"]
    assert answers[2] == "= " + "\n".join(COMMANDS)
    assert answers[3:5] == ["= true", "= false"]
    assert answers[5].startswith("= 0.")


def test_ids_comments_and_empty_lines() -> None:
    answers = _session(["7 name", "# only a comment", "", "8 boardsize 5 # a comment", "9 fly"])
    assert answers == ["=7 plies", "=8 ", "?9 unknown command"]


def test_a_game_with_undo_and_score() -> None:
    answers = _session(["boardsize 5", "komi 0.5", "play b C3", "play w C2", "undo", "undo",
                        "undo", "play B c3", "genmove white", "final_score"])  # fmt: skip
    assert answers[:6] == ["= ", "= ", "= ", "= ", "= ", "= "]
    assert answers[6] == "? cannot undo"
    assert answers[7] == "= "
    assert answers[8].startswith("= ") and len(answers[8]) > 2
    assert answers[9].startswith(("= B+", "= W+", "= 0"))


@pytest.mark.parametrize(
    ("command", "reason"),
    [
        ("boardsize 4", "unacceptable size"),
        ("boardsize 20", "unacceptable size"),
        ("boardsize x", "syntax error"),
        ("komi abc", "syntax error"),
        ("komi nan", "syntax error"),
        ("komi 6.25", "half points"),
        ("komi 1e308", "half points"),
        ("komi -1e308", "half points"),
        ("boardsize 99999999999999999999", "syntax error"),
        ("time_settings 1e308 1 1", "at most 1,000,000 s"),
        ("time_left b 1e300 0", "at most 1,000,000 s"),
        ("play b", "syntax error"),
        ("play red D4", "syntax error"),
        ("play w D4", "white is not to move"),
        ("play b Z4", "illegal move"),
        ("play b J10", "illegal move"),
        ("genmove w", "white is not to move"),
        ("time_settings 10 0", "syntax error"),
        ("time_left b -1 0", "must not be negative"),
        ("boardsize " + "9" * 5000, "syntax error"),
        ("play b D" + "4" * 5000, "illegal move"),
        ("boardsize ９", "syntax error"),
        ("boardsize 1000000000000", "syntax error"),
        ("komi inf", "syntax error"),
        ("komi -inf", "syntax error"),
        ("play B Z99", "illegal move"),
        ("genmove X", "syntax error"),
        ("final_status_list foo", "unknown status 'foo'"),
        ("final_status_list", "syntax error"),
        ("final_status_list dead alive", "syntax error"),
        ("time_settings -1 5 5", "must not be negative"),
        ("fixed_handicap 2", "handicap stones are not supported"),
        ("loadsgf", "syntax error"),
        ("loadsgf /no/such/file.sgf", "cannot read SGF file '/no/such/file.sgf'"),
        ("loadsgf /no/such/file.sgf x", "syntax error"),
        ("play b " + "A" * 100_000, "illegal move"),
        ("known_command " + "x" * 100_000, ""),
        ("x" * 100_000, "unknown command"),
    ],
)
def test_bad_commands_are_answered_with_a_reason(command: str, reason: str) -> None:
    answers = _session(["play b C3", "play w G7", command, "play b E5", "showboard"])
    if command.startswith("known_command"):
        assert answers[2] == "= false"
    else:
        assert answers[2].startswith("? ") and reason in answers[2]
    assert "\n" not in answers[2] and len(answers[2]) < 500
    assert answers[3] == "= "  # the game goes on, as it was
    board = answers[4].split("\n")
    assert board[4:9:2] == [" 7 . . . . . . O . .", " 5 . . . . X . . . .", " 3 . . X . . . . . ."]
    assert "white (O) to move" in board[-1] and "komi 7.5" in board[-1]


SGF = "(;GM[1]FF[4]SZ[7]KM[5.5];B[dd];W[cc];B[ee];W[])"


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("(;GM[1]SZ[9]HA[2]AB[cc][gg];W[ee])", "2 handicap stones are not supported"),
        ("(;GM[1]SZ[9];B[ee];W[dd]AB[cc])", "setup stones (AB, AW, AE) at node 2"),
        ("(;GM[1]SZ[9];W[ee])", "white moves out of turn"),
        ("(;GM[1]SZ[9];B[ee];B[dd])", "black moves out of turn"),
        ("(;GM[1]SZ[9];B[ee];W[ee])", "the point is taken"),
        ("(;GM[1]SZ[25];B[aa])", "size=25"),
        ("(;GM[1]SZ[4];B[aa])", "a 4x4 board: unacceptable size"),
        ("(;GM[1]SZ[9]KM[6.25])", "komi=6.25 must be a multiple of 0.5"),
        ("(;GM[1]SZ[9]KM[nan])", "not a readable game record"),
        ("not an SGF file", "not a readable game record"),
        ("(;GM[1]SZ[9];B[ee]", "not a readable game record"),
        (b"(;GM[1]SZ[9]C[\xff\xfe])", "not UTF-8 text"),
        ("(;GM[1]SZ[9]C[" + "x" * 2_000_000 + "])", "longer than 1,048,576 bytes"),
    ],
)
def test_loadsgf_refuses_a_bad_record_and_keeps_the_game(
    tmp_path: Path, text: str | bytes, reason: str
) -> None:
    path = tmp_path / "game.sgf"
    path.write_bytes(text if isinstance(text, bytes) else text.encode())
    kept = _session(["boardsize 5", "komi 0.5", "play b C3", "showboard"])[-1]
    answers = _session(["boardsize 5", "komi 0.5", "play b C3", f"loadsgf {path}", "showboard"])
    assert answers[3].startswith("? ") and reason in answers[3], answers[3]
    assert "\n" not in answers[3] and answers[4] == kept


def test_loadsgf_reads_the_board_komi_and_moves(tmp_path: Path) -> None:
    """The whole game (its size, komi and four moves, the last a pass), or the position
    before a move number; the game goes on from there, undo back to the empty board."""
    path = tmp_path / "game.sgf"
    path.write_text(SGF)
    answers = _session(["boardsize 9", f"loadsgf {path}", "showboard", f"loadsgf {path} 3",
                        "showboard", "play b E5", f"loadsgf {path} 99", "play b A1",
                        *["undo"] * 6])  # fmt: skip
    assert answers[:2] == ["= ", "= "] and answers[3] == "= "
    whole, before_3 = answers[2].split("\n"), answers[4].split("\n")
    assert whole[4:7] == [" 5 . . O . . . .", " 4 . . . X . . .", " 3 . . . . X . ."]
    assert whole[-1] == "black (X) to move; area scoring (Tromp-Taylor), komi 5.5"
    assert before_3[4:7] == [" 5 . . O . . . .", " 4 . . . X . . .", " 3 . . . . . . ."]
    assert before_3[-1].startswith("black (X) to move")
    assert answers[5:8] == ["= ", "= ", "= "]
    assert answers[8:13] == ["= "] * 5 and answers[13] == "? cannot undo"


def test_final_status_and_score_count_dead_stones_off_the_board() -> None:
    """Two walls on a finished 9x9 board, each side with a dead stone in the other's area:
    both are listed dead, and the score counts them off (black 9 + 27, white 9 + 36, komi
    7.5), where Tromp-Taylor's count, the game's own, leaves both areas open."""
    black = [f"D{row}" for row in range(1, 10)] + ["H5"]
    white = [f"E{row}" for row in range(1, 10)] + ["B5"]
    moves = [*(m for pair in zip(black, white, strict=True) for m in pair), "pass", "pass"]
    setup = [f"play {'bw'[i % 2]} {move}" for i, move in enumerate(moves)]
    commands = ["final_status_list dead", "final_status_list alive", "final_status_list seki",
                "final_score", "FINAL_STATUS_LIST Dead", "final_score"]  # fmt: skip
    answers = _session([*setup, *commands])[len(setup) :]
    assert answers[0] == answers[4] == "= B5\nH5"
    assert answers[1] == "= D1 D2 D3 D4 D5 D6 D7 D8 D9\nE1 E2 E3 E4 E5 E6 E7 E8 E9"
    assert answers[2] == "= "
    assert answers[3] == answers[5] == "= W+16.5"
    game = Go(9, 7.5)
    assert game.result_text(game.parse_position(" ".join(moves))) == "W+7.5"


def test_occupied_suicide_and_superko_are_illegal() -> None:
    answers = _session(["boardsize 5", "play b E5", "play w A2", "play b E4", "play w B1",
                        "play b A1", "play b e5"])  # fmt: skip
    assert "suicide" in answers[5] and "taken" in answers[6]


def test_the_clock_budgets_a_clocked_agent() -> None:
    """30 s a move by the spec, but 0.5 s left for 5 stones of byo-yomi: the clock wins."""
    _session(["boardsize 5", "genmove b"], agent="mcts:iterations=10")  # compiled before timing
    started = time.monotonic()
    answers = _session(["boardsize 5", "time_settings 0 1 5", "time_left b 0.5 5", "genmove b"],
                       agent="mcts:time=30")  # fmt: skip
    assert answers[-1].startswith("= ") and len(answers[-1]) > 2
    assert time.monotonic() - started < 10


def test_the_command_line_speaks_gtp() -> None:
    script = "boardsize 5\nplay b C3\ngenmove w\nfinal_score\nquit\n"
    done = subprocess.run(
        [sys.executable, "-m", "plies", "gtp", "--agent", "random"],
        input=script, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    blocks = done.stdout.split("\n\n")
    assert blocks[:2] == ["= ", "= "] and blocks[2].startswith("= ")
    bad = subprocess.run(
        [sys.executable, "-m", "plies", "gtp", "--agent", "nonsense"],
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert bad.returncode == 2 and "unknown agent 'nonsense'" in bad.stderr


class _Player:
    """A GTP program on pipes."""

    def __init__(self, command: list[str]) -> None:
        self.process = subprocess.Popen(
            command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
        )

    def ask(self, command: str) -> str:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(command + "\n")
        self.process.stdin.flush()
        lines = []
        while (line := self.process.stdout.readline().rstrip("\n")) or not lines:
            lines.append(line)
        assert lines[0].startswith("="), f"{command!r}: {lines}"
        return "\n".join(lines)[1:].strip()

    def close(self) -> None:
        self.ask("quit")
        self.process.wait(timeout=30)


@pytest.mark.skipif(GNUGO is None, reason="GNU Go (Debian's gnugo) is not installed")
@pytest.mark.parametrize("plies_colour", ["b", "w"])
def test_whole_games_against_gnu_go_score_alike(plies_colour: str) -> None:
    """A 9x9 game between plies (random moves) and GNU Go 3.8 at level 1 with Chinese rules,
    capturing every dead stone before it passes; once both pass, plies' Tromp-Taylor score
    and GNU Go's final_score agree."""
    assert GNUGO is not None
    gnugo = _Player([GNUGO, "--mode", "gtp", "--level", "1", "--chinese-rules",
                     "--capture-all-dead"])  # fmt: skip
    plies = _Player([sys.executable, "-m", "plies", "gtp", "--agent", "random"])
    players = {"b": plies, "w": gnugo} if plies_colour == "b" else {"b": gnugo, "w": plies}
    try:
        for player in (gnugo, plies):
            player.ask("boardsize 9")
            player.ask("clear_board")
            player.ask("komi 7.5")
        passes, colour, moves = 0, "b", 0
        while passes < 2 and moves < 600:
            move = players[colour].ask(f"genmove {colour}")
            other = players["w" if colour == "b" else "b"]
            other.ask(f"play {colour} {move}")
            passes = passes + 1 if move.lower() == "pass" else 0
            colour, moves = ("w" if colour == "b" else "b"), moves + 1
        assert passes == 2, "the game did not end in 600 moves"
        assert moves > 20  # a real game, not two passes
        assert plies.ask("final_score") == gnugo.ask("final_score")
    finally:
        gnugo.close()
        plies.close()


class _InProcess:
    """plies' GTP engine in this process, seeded, asked as a :class:`_Player`."""

    def __init__(self, agent: str) -> None:
        self.answers: list[str] = []
        self.engine = GtpEngine(agent, self.answers.append, seed=1)

    def ask(self, command: str) -> str:
        self.engine.handle(command)
        answer = self.answers.pop()
        assert answer.startswith("="), f"{command!r}: {answer}"
        return answer[1:].strip()

    def close(self) -> None:
        self.ask("quit")


def _to_two_passes(players: dict[str, Any], programs: list[Any]) -> list[str]:
    """The moves of a 9x9 game between ``players`` (a GTP program by colour) until two passes
    in a row, each move told to the other ``programs`` (all of them, set up alike first)."""
    for program in programs:
        for command in ("boardsize 9", "clear_board", "komi 7.5"):
            program.ask(command)
    moves, colour = [], "b"
    while moves[-2:] != ["pass", "pass"] and len(moves) < 400:
        move = players[colour].ask(f"genmove {colour}").lower()
        for program in programs:
            if program is not players[colour]:
                program.ask(f"play {colour} {move}")
        moves.append(move)
        colour = "w" if colour == "b" else "b"
    assert moves[-2:] == ["pass", "pass"], "the game did not end in 400 moves"
    return moves


@pytest.mark.skipif(GNUGO is None, reason="GNU Go (Debian's gnugo) is not installed")
def test_final_score_and_dead_stones_agree_with_gnu_go() -> None:
    """9x9 games that GNU Go 3.8 (level 1, Chinese rules, dead stones left on the board, no
    resigning) plays against itself (seeded) and against plies' MCTS, to two passes: plies'
    final_score names the same winner as GNU Go's in every game, and the same score and the
    same dead stones in all but at most one (GNU Go reads life and death; plies judges it by
    playouts)."""
    assert GNUGO is not None
    argv = [GNUGO, "--mode", "gtp", "--level", "1", "--chinese-rules", "--never-resign"]
    scores, dead = [], []
    for seed, plies_colour in ((2, None), (4, None), (6, None), (8, None), (1, "b"), (1, "w")):
        gnugo = _Player([*argv, "--seed", str(seed)])
        plies = _InProcess("mcts:iterations=300")
        players = {"b": gnugo, "w": gnugo}
        if plies_colour is not None:
            players[plies_colour] = plies
        try:
            moves = _to_two_passes(players, [plies, gnugo])
            assert len(moves) > 20  # a real game, not two passes
            scores.append((plies.ask("final_score"), gnugo.ask("final_score")))
            dead.append(tuple(sorted(_vertices(p.ask("final_status_list dead")))
                              for p in (plies, gnugo)))  # fmt: skip
        finally:
            gnugo.close()
            plies.close()
    assert all(ours[0] == theirs[0] for ours, theirs in scores), scores
    assert sum(ours == theirs for ours, theirs in scores) >= len(scores) - 1, scores
    assert sum(ours == theirs for ours, theirs in dead) >= len(dead) - 1, dead
    assert sum(bool(theirs) for _, theirs in dead) >= 3  # dead stones left on the board


def _vertices(answer: str) -> list[str]:
    return [vertex.upper() for vertex in answer.split()]


def test_an_agent_that_resigns_is_answered_resign(monkeypatch: pytest.MonkeyPatch) -> None:
    """An agent that raises Resigns: genmove answers resign, plays nothing, and the game goes
    on (the controller decides)."""

    register_resigner(monkeypatch)
    answers = _session(["play b C3", "genmove w", "genmove white", "play w D4", "showboard"],
                       agent="resigner")  # fmt: skip
    assert answers[:4] == ["= ", "= resign", "= resign", "= "]
    board = answers[4].split("\n")
    assert board[7:9] == [" 4 . . . O . . . . .", " 3 . . X . . . . . ."]
    assert board[-1].startswith("black (X) to move")


def test_resigns_when_the_search_sees_no_chance() -> None:
    """White on a 5x5 board walled off by black: an MCTS agent's search gives it no chance,
    so with --resign it resigns (the game unchanged), and without it plays on."""
    setup = ["boardsize 5", "komi 0.5", "play b B2", "play w pass", "play b D4", "play w pass",
             "play b B4", "play w pass", "play b D2", "play w pass", "play b C3"]  # fmt: skip
    agent = "mcts:iterations=2000"
    answers: list[str] = []
    engine = GtpEngine(agent, answers.append, seed=1, resign=0.1)
    for command in [*setup, "genmove w", "genmove w"]:
        engine.handle(command)
    assert answers[-2:] == ["= resign", "= resign"] and len(engine.states) == 10
    played = _session([*setup, "genmove w"], agent)[-1]
    assert played.startswith("= ") and played != "= resign"
    with pytest.raises(PliesError, match="resign"):
        GtpEngine(agent, answers.append, resign=1.0)
    result = subprocess.run(
        [sys.executable, "-m", "plies", "gtp", "--resign", "2"],
        input="quit\n", capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert result.returncode == 2 and "resign" in result.stderr and "Traceback" not in result.stderr
