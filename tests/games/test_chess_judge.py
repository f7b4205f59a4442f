"""Chess moves judged by Stockfish at a fixed depth (``plies evaluate chess``): forced and
mating moves agree and lose nothing, a hung queen loses hundreds of centipawns (capped) and
most of the expected score, the summary's rates are the verdicts', and bad sets, depths and
engines are one-line errors."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import chess
import pytest

from plies.errors import ParseError
from plies.games import make_game
from plies.games.chess import judge
from plies.mistakes import AgreementSummary
from tests.conftest import CliRun, assert_one_line_error

Run = Callable[..., CliRun]
STOCKFISH = shutil.which("stockfish") or shutil.which("stockfish", path="/usr/games")
pytestmark = pytest.mark.skipif(
    STOCKFISH is None, reason="Stockfish is not installed (apt-get install stockfish)"
)
GAME = make_game("chess")
FORCED = "7k/8/8/8/8/8/6q1/7K w - - 0 1"  # the king's one move: take the queen
MATE_IN_ONE = "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1"  # Ra8#
HANGS_QUEEN = "4k3/8/8/2p5/8/8/8/3QK3 w - - 0 1"  # Qd4?? cxd4


class _Plays:
    """An agent that plays a fixed UCI move."""

    name = "fixed"

    def __init__(self, move: str) -> None:
        self.move = chess.Move.from_uci(move)

    def __call__(self, game: Any, state: Any) -> chess.Move:
        return self.move


def _verdict(fen: str, move: str) -> Any:
    referee = GAME.engine_judge(None, 10)
    try:
        [verdict] = referee.verdicts(_Plays(move), referee.positions([fen]))
    finally:
        referee.close()
    return verdict


def test_forced_and_mating_moves_agree_and_lose_nothing() -> None:
    forced = _verdict(FORCED, "h1g2")
    assert forced.agrees and forced.loss == 0 and forced.expected_loss == 0
    mate = _verdict(MATE_IN_ONE, "a1a8")
    assert mate.agrees and mate.best_move == "a1a8" and mate.best_score > 9000


def test_a_hung_queen_loses_hundreds_of_centipawns_capped() -> None:
    hung = _verdict(HANGS_QUEEN, "d1d4")  # ...cxd4
    assert not hung.agrees and hung.best_move != "d1d4"
    assert 300 <= hung.loss <= judge.LOSS_CAP and hung.score < hung.best_score
    assert hung.expected_loss > 0.3


def test_the_summary_is_the_verdicts_means() -> None:
    verdicts = [_verdict(FORCED, "h1g2"), _verdict(HANGS_QUEEN, "d1d4")]
    summary = AgreementSummary()
    for verdict in verdicts:
        summary = summary.add(verdict)
    assert summary.positions == 2 and summary.agreements == 1 and summary.agreement_rate == 0.5
    assert summary.mean_loss == sum(v.loss for v in verdicts) / 2
    assert summary.mean_expected_loss == pytest.approx(sum(v.expected_loss for v in verdicts) / 2)


def test_a_set_names_its_bad_line() -> None:
    with pytest.raises(ParseError, match="line 3: bad FEN"):
        judge.read_positions(GAME, ["# comment", "", "not a fen"])
    with pytest.raises(ParseError, match="line 1: the game is over"):
        judge.read_positions(GAME, ["R5k1/5ppp/8/8/8/8/5PPP/6K1 b - - 1 1"])


def test_cli_judges_an_agent_in_json(run_cli: Run, tmp_path: Path) -> None:
    sets = tmp_path / "set.fen"
    sets.write_text(f"# two positions\n{FORCED}\n{MATE_IN_ONE}\n")
    result = run_cli("evaluate", "chess", "engine:depth=3", "--set", str(sets), "--depth", "8",
                     "--json")  # fmt: skip
    assert result.code == 0, result
    *lines, summary = [json.loads(line) for line in result.out.splitlines()]
    assert [line["line"] for line in lines] == [2, 3]
    assert [line["move"] for line in lines] == ["h1g2", "a1a8"]
    assert summary["positions"] == 2 and summary["agreement_rate"] == 1.0
    assert summary["complete"] and summary["depth"] == 8
    human = run_cli("evaluate", "chess", "engine:depth=3", "--set", str(sets), "--depth", "8")
    assert "agrees with the judge's move" in human.out and "100.0%" in human.out


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (("chess", "random", "--depth", "0"), "--depth"),
        (("chess", "random", "--depth", "nan"), "--depth"),
        (("chess", "random", "--engine", "no-such-engine"), "not found"),
        (("chess", "random", "--engine", "'unclosed"), "closing quotation"),
        (("connect4", "random", "--depth", "8"), "judged by its perfect solver"),
        (("chess", "random", "--set", "{bad}"), "line 1: bad FEN"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(
    run_cli: Run, tmp_path: Path, args: tuple[str, ...], fragment: str
) -> None:
    good, bad = tmp_path / "good.fen", tmp_path / "bad.fen"
    good.write_text(FORCED + "\n")
    bad.write_text("rnbqkbnr/pppppppp/8/8/8/8 w\n")
    given = [a.replace("{bad}", str(bad)) for a in args]
    if "--set" not in given:
        given += ["--set", str(good)]
    assert_one_line_error(run_cli("evaluate", *given), fragment)
