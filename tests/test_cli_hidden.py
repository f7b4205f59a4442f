"""plies play in games of imperfect information: a person at the terminal is shown what their
seat sees. Many hands of Kuhn and Leduc poker against an agent that notes its own card: the
other card is printed as ``?`` until a showdown, its deal as ``deals P2 a card``, no agent's
search is printed, and an abandoned game lists the moves as the seat saw them; agents against
each other are shown whole. Phantom tic-tac-toe: the other's marks printed only where the
person bumped into them, the other's moves as ``O moves``."""

from __future__ import annotations

import importlib
import itertools
import random
import re
from collections.abc import Callable
from typing import Any

import pytest

from plies.play import GameRecord
from tests.conftest import SECRET, CliRun, register_peeker

cli_play = importlib.import_module("plies.cli.play")  # the package's `play` is the command

HOLDS = re.compile(r"^P1 holds (\S+), P2 holds (\S+?),?(?: public card (\S+))?$", re.MULTILINE)
"""A line of the poker games' display: each player's card (``?`` hidden, ``-`` not dealt)."""


@pytest.fixture()
def records(monkeypatch: pytest.MonkeyPatch) -> list[GameRecord]:
    """The records of the games ``plies play`` plays while the test runs (the true deals),
    with the ``peeker`` agent registered."""
    register_peeker(monkeypatch)
    played: list[GameRecord] = []
    real = cli_play.play_game

    def keeping(*args: Any, **options: Any) -> GameRecord:
        record = real(*args, **options)
        played.append(record)
        return record

    monkeypatch.setattr(cli_play, "play_game", keeping)
    return played


def showdown(record: GameRecord) -> bool:
    """Whether the hand ended with the cards shown (not by a fold)."""
    state = record.state
    if record.game.name == "leduc":
        return bool(record.game.showdown(state))  # type: ignore[attr-defined]
    return state.bets in ("pp", "bb", "pbb")


def check_seen(result: CliRun, record: GameRecord, seat: str) -> None:
    """``result`` printed ``record`` as ``seat`` sees it."""
    assert result.code == 0, result
    other = 1 - record.game.players.index(seat)
    hands = HOLDS.findall(result.out)
    assert hands, result.out
    for number, hand in enumerate(hands):
        shown = showdown(record) and number == len(hands) - 1
        assert hand[other] in ("?", "-") or shown, result.out
        assert hand[1 - other] in ("-", record.state.cards[1 - other]), result.out
    assert f"chance: deals P{other + 1} a card" in result.out
    assert f"chance: deals you {record.state.cards[1 - other]}" in result.out
    assert SECRET not in result.out + result.err and "[" not in result.out


@pytest.mark.parametrize("name", ["kuhn", "leduc"])
@pytest.mark.parametrize("seat", ["P1", "P2"])
def test_a_person_at_the_terminal_sees_only_their_seat(
    run_cli: Callable[..., CliRun], records: list[GameRecord], name: str, seat: str
) -> None:
    first, second = ("human", "peeker") if seat == "P1" else ("peeker", "human")
    rng, showdowns = random.Random(2), 0
    for seed in range(25):
        moves = "".join(f"{rng.choice(['check', 'bet', 'call', 'fold'])}\n" for _ in range(8))
        result = run_cli(
            "play", name, "--first", first, "--second", second, "--seed", str(seed), stdin=moves
        )
        check_seen(result, records[-1], seat)
        showdowns += showdown(records[-1])
    assert len(records) == 25 and 0 < showdowns < 25


def test_an_abandoned_hand_lists_the_moves_as_the_seat_saw_them(
    run_cli: Callable[..., CliRun], records: list[GameRecord]
) -> None:
    result = run_cli("play", "leduc", "--second", "peeker", "--seed", "3", stdin="")
    assert result.code != 0
    assert re.search(
        r"game abandoned after 2 moves: deals you [JQK], deals P2 a card$", result.err, re.M
    )
    assert "resume with" not in result.err


@pytest.mark.parametrize("name", ["kuhn", "leduc"])
def test_agents_against_each_other_are_shown_whole(
    run_cli: Callable[..., CliRun], records: list[GameRecord], name: str
) -> None:
    result = run_cli("play", name, "--first", "peeker", "--second", "random", "--seed", "1")
    assert result.code == 0, result
    cards = records[-1].state.cards
    assert f"1. chance: {cards[0]}\n2. chance: {cards[1]}\n" in result.out
    assert f"P1 holds {cards[0]}, P2 holds {cards[1]}" in result.out
    assert SECRET in result.out  # the agent's search note, as for any other game


BOARD_ROW = re.compile(r"^([123])  ([XO.]) ([XO.]) ([XO.])$", re.MULTILINE)
"""A row of phantom tic-tac-toe's board as a seat sees it (one board)."""


@pytest.mark.parametrize("seat", ["X", "O"])
def test_a_person_at_the_terminal_sees_only_their_marks(
    run_cli: Callable[..., CliRun], records: list[GameRecord], seat: str
) -> None:
    """Phantom tic-tac-toe: the other's marks are printed only where the person bumped into
    them (before the end), the other's moves as ``O moves``, no search."""
    first, second = ("human", "peeker") if seat == "X" else ("peeker", "human")
    other = "O" if seat == "X" else "X"
    cells = [f"{column}{row}" for row in "123" for column in "abc"]
    for seed in range(15):
        moves = "".join(f"{cell}\n" for cell in random.Random(seed).sample(cells, 9))
        result = run_cli(
            "play",
            "phantom",
            "--first",
            first,
            "--second",
            second,
            "--seed",
            str(seed),
            stdin=moves,
        )
        assert result.code == 0, result
        record = records[-1]
        before_end = result.out[: result.out.rindex("board")]
        headers = re.findall(r"^board.*$", before_end, re.MULTILINE)
        assert headers and set(headers) == {"board"}, result.out  # the seen board alone
        rows = BOARD_ROW.findall(before_end)
        assert len(rows) == 3 * len(headers), result.out
        for row, *marks in rows:
            for column, mark in zip("abc", marks, strict=True):
                cell = (int(row) - 1) * 3 + "abc".index(column)
                if mark == other:  # seen only by bumping into it
                    assert cell in record.state.tries[record.game.players.index(seat)], result.out
        assert f". {other} moves\n" in result.out
        moves = re.findall(r"(?:^|> )(\d+)\. (.+)$", result.out, re.MULTILINE)
        assert [int(number) for number, _ in moves] == list(range(1, len(moves) + 1))
        said = [move for _, move in moves]
        assert f"{other} moves" not in [a for a, b in itertools.pairwise(said) if a == b], said
        assert SECRET not in result.out and "[" not in result.out
