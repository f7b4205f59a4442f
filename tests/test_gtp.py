"""plies gtp: the protocol's commands and errors, and whole games against GNU Go through a
small GTP referee."""

from __future__ import annotations

import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from plies.errors import PliesError
from plies.gtp import COMMANDS, GtpEngine

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
    ],
)
def test_bad_commands_are_answered_with_a_reason(command: str, reason: str) -> None:
    answers = _session([command, "play b E5", "showboard"])
    assert answers[0].startswith("? ") and reason in answers[0]
    assert answers[1] == "= "  # the game goes on
    assert "X" in answers[2]


def test_occupied_suicide_and_superko_are_illegal() -> None:
    answers = _session(["boardsize 5", "play b E5", "play w A2", "play b E4", "play w B1",
                        "play b A1", "play b e5"])  # fmt: skip
    assert "suicide" in answers[5] and "taken" in answers[6]


def test_the_clock_budgets_a_clocked_agent() -> None:
    """30 s a move by the spec, but 0.5 s left for 5 stones of byo-yomi: the clock wins."""
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
