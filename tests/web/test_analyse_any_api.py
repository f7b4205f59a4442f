"""The Analyse API for any game (``POST /api/analyse``): the analyser chosen by capability,
the solver's move scores checked against the solver called directly, the engine's completed
iterations checked against the engine run to a fixed depth, bad input answered 4xx in one
line."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from plies.games.connect4.rules import ConnectFour
from plies.games.connect4.solver import Connect4Solver
from plies.registry import make_game
from plies.search import Limits, iterate
from plies.web.boards import board_view, move_paths

ANY = "/api/analyse"
SMALL = "connect4:width=6,height=5"


def error(response: Any) -> str:
    assert response.status_code in (400, 422), response.text
    message = response.json()["error"]
    assert isinstance(message, str) and message and "\n" not in message
    return message


@pytest.mark.parametrize("position", ["", "3344", "3443"])
def test_a_solvable_game_gets_every_moves_exact_score(client: TestClient, position: str) -> None:
    answer = client.post(ANY, json={"game": SMALL, "position": position, "seconds": 30}).json()
    solver = Connect4Solver(ConnectFour(width=6, height=5), book=False)
    game = solver.game
    state = game.parse_position(position) if position else game.initial_state()
    assert answer["analyser"] == "solver" and answer["complete"] and answer["message"] is None
    assert answer["score"] == solver.solve(state).score
    assert answer["meaning"] == solver.meaning(answer["score"])
    expected = {game.format_action(state, a): -solver.solve(game.result(state, a)).score
                for a in game.actions(state)}  # fmt: skip
    assert {m["move"]: m["score"] for m in answer["scored"]} == expected
    best = sorted(game.format_action(state, a) for a in solver.best_moves(state))
    assert (
        sorted(answer["best"]) == best == sorted(m["move"] for m in answer["scored"] if m["best"])
    )
    assert answer["evaluation"] is None and answer["pv"] == []
    assert answer["view"] == board_view(game, state) and answer["moves"] == move_paths(game, state)


@pytest.mark.parametrize(
    ("spec", "position"),
    [
        ("othello", "f5d6c3"),
        ("checkers", ""),
        ("chess", "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"),
        ("tictactoe:m=4,n=4,k=3", ""),
    ],
)
def test_a_game_with_an_evaluation_gets_the_engines_iterations(
    client: TestClient, spec: str, position: str
) -> None:
    answer = client.post(ANY, json={"game": spec, "position": position, "seconds": 1}).json()
    game = make_game(spec)
    state = game.parse_position(position) if position else game.initial_state()
    assert answer["analyser"] == "engine" and answer["scored"] == [] and answer["score"] is None
    done = [i for i in answer["iterations"] if i["complete"]]
    assert done and answer["depth"] == done[-1]["depth"]
    fixed = list(iterate(game, state, Limits(depth=answer["depth"])))
    for iteration, report in zip(done, fixed, strict=True):
        assert iteration["depth"] == report.depth
        if report.mate is None:
            assert iteration["score"]["value"] == pytest.approx(report.score)
        else:
            assert iteration["score"]["forced"] == report.mate
        assert iteration["nodes"] == report.stats.nodes
    legal = {game.format_action(state, a) for a in game.actions(state)}
    assert answer["best"] == answer["pv"][:1] and answer["best"][0] in legal
    assert answer["evaluation"] == answer["iterations"][-1]["score"]
    assert answer["view"] == board_view(game, state)


def test_chess_scores_read_in_pawns_and_mates_in_moves(client: TestClient) -> None:
    start = client.post(ANY, json={"game": "chess", "seconds": 0.3}).json()
    assert start["evaluation"]["pawns"] is not None and start["evaluation"]["forced"] is None
    mate = "7k/8/6K1/8/8/8/8/R7 w - - 0 1"
    found = client.post(ANY, json={"game": "chess", "position": mate, "seconds": 1}).json()
    assert found["evaluation"]["text"] == "mate in 1" and found["best"] == ["Ra8#"]


def test_a_won_line_reads_in_plies_where_the_game_has_no_pawns(client: TestClient) -> None:
    body = {"game": "tictactoe", "position": "X../.O./..X", "seconds": 2}
    answer = client.post(ANY, json=body).json()
    assert answer["iterations"][-1]["complete"]
    assert answer["evaluation"]["value"] == 0 and answer["evaluation"]["text"] == "+0.00"
    won = client.post(ANY, json={**body, "position": "XX./OO./..."}).json()
    assert won["evaluation"]["forced"] == 1 and won["evaluation"]["text"] == "win in 1 plies"
    game = make_game("tictactoe")
    state = game.parse_position("XX./OO./...")
    winning = [a for a in game.actions(state) if game.is_terminal(game.result(state, a))]
    assert won["best"] == [game.format_action(state, a) for a in winning]


def test_a_move_first_and_the_board_alone(client: TestClient) -> None:
    after = client.post(ANY, json={"game": "othello", "move": "f5", "analyse": False}).json()
    game = make_game("othello")
    state = game.initial_state()
    moved = game.result(state, game.parse_action(state, "f5"))
    assert after["position"] == game.format_position(moved)
    assert after["iterations"] == [] and after["evaluation"] is None and after["nodes"] == 0
    assert after["view"] == board_view(game, moved, game.parse_action(state, "f5"))
    over = client.post(ANY, json={"game": "tictactoe", "position": "XXX/OO./..."}).json()
    assert over["over"] and over["to_move"] is None and over["moves"] == []


@pytest.mark.parametrize(
    ("body", "fragment"),
    [
        ({"game": "nosuch"}, "unknown game 'nosuch'"),
        ({"game": "backgammon"}, "chance moves"),
        ({"game": "nim"}, "neither a perfect solver nor an evaluation"),
        ({"game": "othello", "position": "garbage"}, "position 'garbage'"),
        ({"game": "othello", "move": "z9"}, "move 'z9'"),
        ({"game": "othello", "move": "a1"}, "a1"),
        ({"game": "othello", "seconds": 0}, "seconds"),
        ({"game": "othello", "seconds": 1e9}, "seconds"),
        ({"game": "othello", "seconds": "NaN"}, "seconds"),
        ({"game": "x" * 201}, "game"),
        ({"game": "chess", "position": "8/8/8/8/8/8/8/8 w - - 0 1"}, "king"),
    ],
)
def test_bad_requests_are_answered_4xx_in_one_line(
    client: TestClient, body: dict[str, Any], fragment: str
) -> None:
    assert fragment.lower() in error(client.post(ANY, json=body)).lower()


def test_the_games_list_says_what_analyses_each_game(client: TestClient) -> None:
    games = {entry["name"]: entry["analyser"] for entry in client.get("/api/games").json()}
    assert games["connect4"] == games["othello"] == "solver" and games["chess"] == "engine"
    assert games["nim"] is None and games["backgammon"] is None
    for name, analyser in games.items():
        answer = client.post(ANY, json={"game": name, "analyse": False})
        assert (answer.status_code == 200) == (analyser is not None), name
        at_start = "engine" if name == "othello" else analyser  # its solver reaches the end
        assert analyser is None or answer.json()["analyser"] == at_start
    late = "XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXOOOOOOOOOOOOOOOOOOOOOOOOOO--- X"
    answer = client.post(ANY, json={"game": "othello", "position": late, "seconds": 1}).json()
    assert answer["analyser"] == "solver" and answer["complete"], answer
