"""The README's command-line examples, run: what it shows is what the program does.

An example is a line ``$ plies ...`` in a fenced code block (a line ending in ``\\`` goes on
on the next); the lines under it up to the next ``$`` or the block's end are its output. Each
runs as ``python -m plies ...`` in one temporary folder shared by all, in the README's order
(``> FILE`` sends the output to FILE there; ``../shared/`` is read from ``$PLIES_SHARED``).
It must exit with status 0, and its standard output must match the output shown:

- a line ``...`` stands for any number of lines, and ``...`` within a line for any text;
- runs of spaces match any run of spaces (tables are aligned to the widths of their numbers);
- measurements match any number: a number followed by a unit of time or speed (``s``, ``ms``,
  ``/s``, ``nodes/s``), or after the word ``time`` or ``nps``;
- an output shown as a JSON object (on the line, or in the comment after the command, as in
  ``$ plies solve ... --json   # {"score": 1, ...}``) is compared as JSON: each key shown has
  the value shown (``[...]``: any list; ``time`` and ``nps``: any number), ``...`` standing
  for the keys left out;
- the output of an example limited by time (``--time``, ``time=``) is not compared: how far it
  searches depends on the machine's speed.

Examples are skipped by rule, where a person plays (a ``human`` seat) or a server runs (``plies
serve``), and by name, in :data:`SKIPPED` (never run here) and :data:`SLOW` (more than about 5
s each: run with ``PLIES_README_SLOW=1``), each with its reason.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[1]
README = REPO / "README.md"
SHARED = Path(os.environ.get("PLIES_SHARED", REPO.parent / "shared"))
RUN_SLOW = bool(os.environ.get("PLIES_README_SLOW"))

SKIPPED = {
    "plies book build connect4 --plies 10 --out book.sqlite": "builds a book: hours",
    "plies solve phantom --solver mccfr-outcome --iterations 1000000 --save ph.json": (
        "samples a million games: about four minutes"
    ),
    "plies ladder calibrate chess --db chess-ladder.sqlite": (
        "350 games against Stockfish: two hours of play"
    ),
    "plies tournament chess engine:time=0.1 uci:stockfish,UCI_LimitStrength=true,UCI_Elo=1350,"
    "time=0.1 --db chess.sqlite --games 40 --sprt 0,50": "needs Stockfish; minutes of games",
    "plies tournament chess engine mcts uci:stockfish --db blitz.sqlite --time-control 10+0.1": (
        "needs Stockfish; minutes of games"
    ),
    "plies tournament othello engine:depth=4 mcts:time=0.2 --db o.sqlite --games 400 --ray auto": (
        "needs a Ray cluster; 400 games"
    ),
    "plies train tictactoe --out runs/ttt --generations 15 --simulations 48": "trains: minutes",
    "plies endgames build checkers --pieces 5": "builds 297 million positions: half an hour",
    "plies train --resume runs/ttt --generations 30": "resumes the training above: minutes",
    "plies train connect4 --out runs/c4 --init connect4": "trains: hours",
    "plies learn plot runs/ttt": "plots the training run above, not made here",
    "plies learn td backgammon --out runs/bg --games 1000000": "trains: an hour",
    "plies learn plot runs/bg": "plots the training run above, not made here",
    "plies evaluate connect4 az --set ../shared/data/connect4/Test_L2_R2 --limit 100 --json": (
        "100 searches of the network: a minute"
    ),
    "plies learn distill connect4 --out runs/distilled --positions 20000": "trains: minutes",
    "plies learn distill chess --out runs/sf8 --teacher uci:stockfish,depth=8 "
    "--positions 100000": "labels with Stockfish, then trains: an hour",
    "plies evaluate chess policy:model=runs/sf8/model.pt,by=value --set positions.fen": (
        "judges the network taught above, not made here"
    ),
    "plies match chess netengine:model=runs/sf8/model.pt,time=1 engine:native=false,time=1 "
    "--games 20": "plays the network taught above, not made here: 40 minutes",
    "plies tournament chess engine:depth=4 engine:depth=4,tt=8 --db selfplay.sqlite --games 2000 "
    "--openings random:8": "2,000 games: about 15 minutes",
    "plies learn tune chess --records selfplay.sqlite --out runs/tuned --steps 500": (
        "tunes on the games above, not played here"
    ),
    "plies match chess engine:time=0.1,weights=runs/tuned/weights.json engine:time=0.1 "
    "--games 100": "plays the weights tuned above: minutes",
    'plies tournament go:size=9 "gtp:gnugo --mode gtp --level 10 --seed 1" "gtp:gnugo --mode gtp '
    '--level 10 --seed 2" --db gnugo.sqlite --games 1000 --openings random:4': (
        "needs GNU Go; 1,000 games: about five hours"
    ),
    "plies learn imitate go:size=9 --records gnugo.sqlite --out runs/gnugo-policy --epochs 10": (
        "learns from the games above, not played here"
    ),
    'plies play go:size=9 --position "$(cat game.sgf)"': (
        "goes on from the game.sgf of the game played by a person above"
    ),
    'plies match go:size=9 mcts:time=5 "gtp:gnugo --mode gtp --level 10 --chinese-rules '
    '--capture-all-dead --never-resign" --games 20': "needs GNU Go; 20 games of 5 s moves",
    'plies tournament go:size=9 mcts:time=5 "gtp:gnugo --mode gtp --level 1 ..." '
    '"gtp:gnugo --mode gtp --level 10 ..." --format gauntlet --db go.sqlite --sgf games.sgf': (
        "needs GNU Go (and the options the '...' leaves out); games of 5 s moves"
    ),
    'plies tournament run othello engine:time=1 "gtp:gtp-rhino --level 5,timeout=900" '
    "--format gauntlet --db grhino.sqlite --games 40 --concurrency 1": (
        "needs GRhino; 40 games: hours"
    ),
    "plies tournament run othello engine:time=0.1 engine:time=0.1,evaluation=hand --db "
    "eval.sqlite --games 100 --openings random:6": "100 games of 0.1 s moves: ten minutes",
}
"""Examples never run here, by their command, with the reason."""

SLOW = {
    "plies solve connect4 4455 --analyze": "7 s",
    "plies solve connect4 4453 --weak --json": "9 s",
    "plies effort tictactoe --plot effort.png": "8 s",
    "plies match connect4 engine:time=0.05 alphabeta:depth=2 --games 20": "10 s",
    "plies match othello engine:depth=4 engine:depth=2 --games 50 --json": "2 to 7 s",
    "plies tournament connect4 engine:depth=4 mcts:time=0.1 perfect:time=0.1 --db c4.sqlite "
    "--games 20": "35 s",
    "plies tournament report c4.sqlite": "reads the standings of the tournament above",
}
"""Examples run only with ``PLIES_README_SLOW=1``, by their command, with the time they take
on a 2-core machine."""

FILES = {"tree.txt": "[{0.5: [3, 12], 0.5: [2, 4]}, {0.25: [5, 1], 0.75: [8, 2]}]\n"}
"""Files the examples read that the README does not write: ``tree.txt``, the chance tree of the
example before the one that reads it."""


@dataclass
class Example:
    """One ``$ plies`` line of the README and the output shown under it."""

    line: int
    """The README's line of the ``$``."""
    command: str
    """The command, less the ``$`` and a comment."""
    comment: str = ""
    output: list[str] = field(default_factory=list)


def split_comment(command: str) -> tuple[str, str]:
    """``command`` and the text of its shell comment (a ``#`` after a space, out of quotes)."""
    quote = ""
    for index, char in enumerate(command):
        if quote:
            quote = "" if char == quote else quote
        elif char in "'\"":
            quote = char
        elif char == "#" and (index == 0 or command[index - 1].isspace()):
            return command[:index].rstrip(), command[index + 1 :].strip()
    return command.rstrip(), ""


def examples(text: str) -> list[Example]:
    """The ``$ plies`` examples of the README's fenced code blocks, with their output."""
    found: list[Example] = []
    current: Example | None = None
    in_block = continued = False
    for number, line in enumerate(text.splitlines(), start=1):
        if line.startswith("```"):
            in_block, current = not in_block, None
        elif not in_block:
            continue
        elif continued:
            continued = line.endswith("\\")
            if current is not None:
                current.command = current.command[:-1].rstrip() + " " + line.strip()
                if not continued:
                    current.command, current.comment = split_comment(current.command)
        elif line.startswith("$ "):
            continued = line.endswith("\\")
            command, comment = (line[2:], "") if continued else split_comment(line[2:])
            current = Example(number, command, comment) if command.startswith("plies ") else None
            if current is not None:
                found.append(current)
        elif current is not None:
            current.output.append(line.rstrip())
    return found


EXAMPLES = examples(README.read_text(encoding="utf-8"))

NUMBER = r"[-+]?\d[\d,]*(?:\.\d+)?(?:e[-+]?\d+)?"
UNIT = re.compile(r"\s?(?:s|ms|/s|nodes/s)\b")
MEASURED_KEYS = ("time", "nps")


def is_measurement(line: str, start: int, end: int) -> bool:
    """Whether the number at ``line[start:end]`` is a time or a speed."""
    before = line[:start].rstrip().rstrip(":").rstrip('"')
    return bool(UNIT.match(line, end)) or before.endswith(MEASURED_KEYS)


def line_pattern(expected: str) -> str:
    """The regular expression an output line must match for the README's ``expected`` line."""
    parts: list[str] = []
    position = 0
    for match in re.finditer(rf"\.\.\.|\s+|(?<![\w.]){NUMBER}(?![\w])", expected):
        parts.append(re.escape(expected[position : match.start()]))
        token = match.group()
        if token == "...":
            parts.append(".*")
        elif token.isspace():
            parts.append(r"[ \t]+")
        elif is_measurement(expected, match.start(), match.end()):
            parts.append(NUMBER)
        else:
            parts.append(re.escape(token))
        position = match.end()
    parts.append(re.escape(expected[position:]))
    return "".join(parts)


def output_matches(expected: list[str], output: list[str]) -> bool:
    """Whether ``output`` matches the ``expected`` lines (``...`` alone: any lines)."""
    pattern = "".join(
        r"(?:[^\n]*\n)*?" if line == "..." else line_pattern(line) + r"\n" for line in expected
    )
    return re.fullmatch(pattern, "".join(line + "\n" for line in output)) is not None


ANY_LIST = "<any list>"


def shown_json(text: str) -> dict[str, Any]:
    """The JSON object the README shows, less the ``...`` of keys left out."""
    text = text.replace("[...]", json.dumps(ANY_LIST))
    text = re.sub(r",\s*\.\.\.(?=\s*[,}])", "", text)
    loaded: dict[str, Any] = json.loads(text)
    return loaded


def json_matches(shown: dict[str, Any], output: dict[str, Any]) -> list[str]:
    """The keys whose values differ from those shown."""
    return [
        key
        for key, value in shown.items()
        if key not in output
        or not (
            (value == ANY_LIST and isinstance(output[key], list))
            or (key in MEASURED_KEYS and isinstance(output[key], int | float))
            or output[key] == value
        )
    ]


def skip_reason(example: Example) -> str | None:
    """Why ``example`` is not run here, or None."""
    words = shlex.split(example.command)
    if words[1] == "serve":
        return "a server: it runs until Ctrl-C"
    if any(word == "human" or word.startswith("human:") for word in words):
        return "a person plays: interactive"
    if example.command in SKIPPED:
        return SKIPPED[example.command]
    if "--draw" in words and shutil.which("dot") is None:
        return "Graphviz's dot is not installed (make test installs it with apt-get)"
    if example.command in SLOW and not RUN_SLOW:
        return f"slow ({SLOW[example.command]}): set PLIES_README_SLOW=1 to run it"
    return None


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The folder every example runs in, with :data:`FILES`."""
    path = tmp_path_factory.mktemp("readme")
    for name, text in FILES.items():
        (path / name).write_text(text)
    return path


def run_example(example: Example, folder: Path) -> subprocess.CompletedProcess[str]:
    """Run ``example`` in ``folder`` as ``python -m plies``; skips when it needs ``../shared/``
    data that is not there."""
    words = shlex.split(example.command)
    sink = None
    if ">" in words:
        words, sink = words[: words.index(">")], folder / words[words.index(">") + 1]
    for index, word in enumerate(words):
        if word.startswith("../shared/"):
            path = SHARED / word.removeprefix("../shared/")
            if not path.exists():
                pytest.skip(f"{path} not found (set PLIES_SHARED to the shared folder)")
            words[index] = str(path)
    source = os.pathsep.join(filter(None, [str(REPO / "src"), os.environ.get("PYTHONPATH")]))
    done = subprocess.run(
        [sys.executable, "-m", "plies", *words[1:]],
        cwd=folder,
        env={**os.environ, "PYTHONPATH": source, "MPLBACKEND": "Agg"},
        capture_output=True,
        text=True,
        timeout=600,
    )
    if sink is not None:
        sink.write_text(done.stdout)
    return done


@pytest.mark.parametrize(
    "example", EXAMPLES, ids=[f"line {e.line}: {e.command[6:50]}" for e in EXAMPLES]
)
def test_readme_example(example: Example, folder: Path) -> None:
    reason = skip_reason(example)
    if reason is not None:
        pytest.skip(reason)
    done = run_example(example, folder)
    assert done.returncode == 0, (example.command, done.stderr[-2000:])
    if re.search(r"--time\b|\btime=", example.command):
        return
    if example.comment.startswith("{"):
        shown = [example.comment]
        assert not example.output, example
    else:
        shown = example.output
    output = done.stdout.splitlines()
    if shown[:1] and shown[0].startswith("{"):
        assert len(shown) == 1 and len(output) == 1, (shown, output)
        wrong = json_matches(shown_json(shown[0]), json.loads(output[0]))
        assert not wrong, (example.command, wrong, output[0])
    elif shown:
        lines = [line.rstrip() for line in output]
        assert output_matches(shown, lines), "\n".join([example.command, *lines])


def test_the_readme_has_its_examples() -> None:
    """The parser finds the examples, and every one named in a list is still in the README."""
    commands = {example.command for example in EXAMPLES}
    assert len(EXAMPLES) > 40
    assert not (set(SKIPPED) | set(SLOW)) - commands
    assert sum(bool(example.output) for example in EXAMPLES) >= 10


def test_the_matching_rules() -> None:
    """The rules above, on lines of the README's kind: they accept what varies and nothing
    else."""
    shown = ["value: 3 (for MAX)", "...", "549,946 nodes, 0 cutoffs, 2.016 s (272,836 nodes/s)"]
    assert output_matches(
        shown, [shown[0], "x", "y", "549,946 nodes, 0 cutoffs, 9.5 s (1 nodes/s)"]
    )
    assert output_matches(shown, [shown[0], "549,946  nodes, 0 cutoffs, 0.1 s (3 nodes/s)"])
    assert not output_matches(shown, [shown[0], "549,947 nodes, 0 cutoffs, 2.016 s (272 nodes/s)"])
    assert not output_matches(shown, ["value: 4 (for MAX)", shown[2]])
    assert not output_matches(shown, [shown[0], shown[2], "one line more"])
    assert output_matches(["a ... b"], ["a anything b"])
    assert not output_matches(["a b"], ["a", "b"]) and not output_matches(["a ... b"], ["a", "b"])
    assert output_matches(
        ["depth  1  nps     1,509  time   0.005  pv 4"], ["depth 1 nps 9 time 1 pv 4"]
    )
    assert not output_matches(["depth  1  nps 1  time 0.005  pv 4"], ["depth 2 nps 9 time 1 pv 4"])
    json_shown = shown_json('{"score": 1, "best_moves": [...], ..., "time": 0.1, "book": true}')
    assert json_shown == {"score": 1, "best_moves": ANY_LIST, "time": 0.1, "book": True}
    output = {"moves": "", "score": 1, "best_moves": [4], "time": 3.2, "book": True}
    assert json_matches(json_shown, output) == []
    assert json_matches(json_shown, {**output, "score": -1, "best_moves": 4}) == [
        "score",
        "best_moves",
    ]
    assert split_comment("plies solve '#x' --json   # {\"a\": 1}") == (
        "plies solve '#x' --json",
        '{"a": 1}',
    )
