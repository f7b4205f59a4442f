"""The Analyse API: Connect Four scores checked against the solver called directly, chess
evaluations checked against the rules, budgets, and every kind of bad input answered 4xx
with a message (the test client raises on any 500)."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest
from fastapi.testclient import TestClient

from plies.errors import BudgetExhaustedError
from plies.games.chess.rules import Chess
from plies.games.connect4.solver import Connect4Solver
from plies.web import analyse
from plies.web.app import create_app
from plies.web.boards import board_view, move_paths
from plies.web.workload import Budgets

C4 = "/api/analyse/solved"
CHESS = "/api/analyse/evaluated"
QUICK = "52753311433677442422121"
"""Connect Four positions the solver answers in well under a second."""
FULL_COLUMNS = "2252576253462244111563365343671351441"
MATE_IN_ONE = "7k/8/6K1/8/8/8/8/R7 w - - 0 1"


@pytest.fixture(scope="module")
def solver() -> Connect4Solver:
    return Connect4Solver()


def error(response: Any, status: int) -> str:
    assert response.status_code == status, response.text
    message = response.json()["error"]
    assert isinstance(message, str) and message
    return message


@pytest.mark.parametrize("position", [QUICK, "44455554221", "44455533126", FULL_COLUMNS])
def test_connect4_scores_agree_with_the_solver(
    client: TestClient, solver: Connect4Solver, position: str
) -> None:
    answer = client.post(C4, json={"position": position, "seconds": 30}).json()
    game = solver.game
    state = game.parse_position(position)
    assert answer["solved"] and answer["complete"] and answer["message"] is None
    assert answer["score"] == solver.solve(state).score
    assert answer["meaning"] == solver.meaning(answer["score"])
    scores = solver.analyze(state)
    assert [c["score"] for c in answer["columns"]] == scores
    assert [c["playable"] for c in answer["columns"]] == [s is not None for s in scores]
    assert [c["meaning"] for c in answer["columns"]] == [
        None if s is None else solver.meaning(s) for s in scores
    ]
    assert answer["best"] == [str(c + 1) for c in solver.best_moves(state)]
    assert [c["column"] for c in answer["columns"] if c["best"]] == answer["best"]
    assert answer["stones"] == state.moves and answer["to_move"] == game.to_move(state)
    assert answer["view"] == board_view(game, state, int(position[-1]) - 1)
    assert answer["moves"] == move_paths(game, state)
    assert answer["nodes"] > 0 and answer["seconds"] >= 0


def test_connect4_finished_game_and_board_only(client: TestClient) -> None:
    won = client.post(C4, json={"position": " 1212121 "}).json()
    assert won["position"] == "1212121"
    assert won["over"] and won["status"] == "game over: X wins" and won["to_move"] is None
    assert not won["solved"] and won["columns"] == [] and won["moves"] == []
    empty = client.post(C4, json={"solve": False}).json()
    assert empty["position"] == "" and empty["stones"] == 0 and not empty["solved"]
    assert [m["notation"] for m in empty["moves"]] == ["4", "3", "5", "2", "6", "1", "7"]
    assert empty["view"]["status"] == "X to move"


def test_connect4_not_solved_in_time(client: TestClient) -> None:
    answer = client.post(C4, json={"position": "12", "seconds": 0.2}).json()  # not in the book
    assert not answer["solved"] and answer["score"] is None and answer["best"] == []
    assert answer["message"].startswith("not solved within 0.2 s: try a position with more")
    assert [c["score"] for c in answer["columns"]] == [None] * 7
    assert answer["seconds"] < 5 and len(answer["moves"]) == 7


def test_connect4_columns_left_unsolved_are_said(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    def exhausted(*args: Any, **kwargs: Any) -> Any:
        raise BudgetExhaustedError("out of time")

    monkeypatch.setattr(Connect4Solver, "solve", exhausted)
    answer = client.post(C4, json={"position": QUICK, "seconds": 1}).json()
    assert answer["solved"] and not answer["complete"]
    assert answer["message"].startswith("not every column solved within 1 s")
    scored = [c for c in answer["columns"] if c["score"] is not None]
    assert scored and all(c["best"] and c["score"] == answer["score"] for c in scored)


@pytest.mark.parametrize(
    ("body", "status", "words"),
    [
        ({"position": "4449"}, 400, "move 4 '9' is not a column 1 to 7"),
        ({"position": "44x"}, 400, "'x' is not a column"),
        ({"position": "4444444"}, 400, "overflows column 4"),
        ({"position": "12121212"}, 400, "comes after the game ended"),
        ({"position": "4" * 101}, 422, "position"),
        ({"position": 44}, 422, "position"),
        ({"position": "4", "seconds": 0}, 422, "seconds"),
        ({"position": "4", "seconds": -1}, 422, "seconds"),
        ({"position": "4", "seconds": 1e308}, 422, "less than or equal to 60"),
        ({"position": "4", "seconds": "soon"}, 422, "seconds"),
        ({"position": "4", "solve": "maybe"}, 422, "solve"),
    ],
)
def test_connect4_bad_input(client: TestClient, body: Any, status: int, words: str) -> None:
    assert words in error(client.post(C4, json=body), status)


@pytest.mark.parametrize("raw", ["NaN", "Infinity", "-Infinity"])
def test_non_finite_budgets_are_refused(client: TestClient, raw: str) -> None:
    for path, field in ((C4, "position"), (CHESS, "fen")):
        content = f'{{"{field}": "", "seconds": {raw}}}'
        response = client.post(path, content=content, headers={"content-type": "application/json"})
        assert "finite" in error(response, 422)


def test_malformed_bodies(client: TestClient) -> None:
    for path in (C4, CHESS):
        bad = client.post(path, content="{", headers={"content-type": "application/json"})
        assert "bad request" in error(bad, 422)
        assert "bad request" in error(client.post(path, json=[1, 2]), 422)


def test_concurrent_connect4_requests_are_safe(client: TestClient, solver: Connect4Solver) -> None:
    positions = [QUICK, "44455554221", FULL_COLUMNS, QUICK[:-1], QUICK[:-2]]
    answers: dict[str, Any] = {}

    def ask(position: str) -> None:
        answers[position] = client.post(C4, json={"position": position, "seconds": 30}).json()

    threads = [threading.Thread(target=ask, args=(p,)) for p in positions]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for position in positions:
        state = solver.game.parse_position(position)
        assert [c["score"] for c in answers[position]["columns"]] == solver.analyze(state)


def test_analyses_past_the_waiting_room_are_answered_busy_with_a_retry_time() -> None:
    """With every thinker taken and the waiting room full, an analysis is refused at once
    (503, Retry-After) instead of holding a thread; light requests are answered meanwhile."""
    app = create_app(budgets=Budgets(thinkers=1, waiting_analyses=0))
    with TestClient(app) as client:
        workload = app.state.sessions.workload
        with workload.slot():
            for path, body in [(C4, {"position": QUICK}), (CHESS, {"fen": MATE_IN_ONE})]:
                answer = client.post(path, json={**body, "seconds": 0.2})
                assert "busy" in error(answer, 503)
                assert int(answer.headers["Retry-After"]) >= 1
            assert client.post(C4, json={"position": QUICK, "solve": False}).status_code == 200
            assert client.get("/api/games").status_code == 200
        assert client.post(C4, json={"position": QUICK, "seconds": 5}).json()["solved"]


def test_an_analysis_waits_its_turn_for_a_thinker() -> None:
    app = create_app(budgets=Budgets(thinkers=1, waiting_analyses=2))
    with TestClient(app) as client:
        workload = app.state.sessions.workload
        answers: list[Any] = []
        with workload.slot():
            asking = threading.Thread(
                target=lambda: answers.append(client.post(C4, json={"position": QUICK}))
            )
            asking.start()
            while workload.waiting() == 0:
                time.sleep(0.01)
            assert answers == []  # it waits while the thinker is taken
        asking.join()
        assert answers[0].json()["solved"]


def test_analyses_are_held_to_the_servers_time() -> None:
    with TestClient(create_app(budgets=Budgets(analysis_seconds=2))) as client:
        message = error(client.post(C4, json={"position": QUICK, "seconds": 5}), 400)
        assert "2 s at most on this server" in message
        message = error(client.post(CHESS, json={"fen": MATE_IN_ONE, "seconds": 3}), 400)
        assert "plies serve --analysis-seconds" in message


# Chess -------------------------------------------------------------------------------------


def test_chess_mates_and_points_of_view(client: TestClient) -> None:
    white = client.post(CHESS, json={"fen": MATE_IN_ONE, "seconds": 1}).json()
    assert white["best"] == "Ra8#" and white["pv"] == ["Ra8#"] and white["line"] == "1. Ra8#"
    assert white["score"] == {"pawns": None, "mate": 1, "text": "mate in 1"}
    assert white["white"] == white["score"]
    black = client.post(CHESS, json={"fen": MATE_IN_ONE.replace(" w ", " b "), "seconds": 1})
    answer = black.json()
    assert answer["to_move"] == "Black"
    assert answer["score"] == {"pawns": None, "mate": -1, "text": "mated in 1"}
    assert answer["white"] == {"pawns": None, "mate": 1, "text": "mate in 1"}
    assert answer["line"].startswith("1...")


def test_chess_evaluation_line_and_statistics(client: TestClient) -> None:
    fen = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 3 3"
    answer = client.post(CHESS, json={"fen": fen, "seconds": 0.5}).json()
    game = Chess()
    state = game.parse_position(fen)
    assert [m["notation"] for m in answer["moves"]] == [
        game.format_action(state, move) for move in state.moves
    ]
    assert answer["fen"] == fen and answer["to_move"] == "Black" and not answer["over"]
    assert answer["depth"] >= 2 and answer["seldepth"] >= answer["depth"]
    for san in answer["pv"]:  # a legal line in SAN
        state = game.result(state, game.parse_action(state, san))
    assert answer["best"] == answer["pv"][0]
    assert answer["score"]["pawns"] == -answer["white"]["pawns"]
    assert answer["score"]["text"] == f"{answer['score']['pawns']:+.2f}"
    assert answer["nodes"] > 0 and answer["nps"] > 0 and 0.3 < answer["seconds"] < 5
    depths = [it["depth"] for it in answer["iterations"]]
    assert depths[:2] == [1, 2] and answer["iterations"][-1]["nodes"] == answer["nodes"]
    assert answer["view"]["kind"] == "picture"


def test_chess_move_played_first_and_startpos(client: TestClient) -> None:
    answer = client.post(CHESS, json={"fen": "startpos", "move": "e2e4", "seconds": 0.2}).json()
    assert answer["fen"] == "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
    assert answer["view"]["last"] == ["e2", "e4"]
    san = client.post(CHESS, json={"move": "Nf3", "seconds": 0.2}).json()
    assert san["fen"].startswith("rnbqkbnr/pppppppp/8/8/8/5N2/")


def test_chess_finished_games_are_not_searched(client: TestClient) -> None:
    mate = client.post(CHESS, json={"fen": MATE_IN_ONE, "move": "Ra8"}).json()
    assert mate["over"] and mate["status"] == "game over: White wins (checkmate)"
    assert mate["score"] is None and mate["pv"] == [] and mate["moves"] == []
    stalemate = client.post(CHESS, json={"fen": "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"}).json()
    assert stalemate["status"] == "game over: draw (stalemate)"


@pytest.mark.parametrize(
    ("body", "status", "words"),
    [
        ({"fen": "not a fen"}, 400, "bad FEN"),
        ({"fen": "8/8/8/8/8/8/8/8 w - - 0 1"}, 400, "impossible position"),
        ({"fen": "4k3/8/8/8/8/8/8/4K2P w - - 0 1"}, 400, "pawns on the first or last rank"),
        ({"fen": "startpos", "move": "e5"}, 400, "not legal"),
        ({"fen": "startpos", "move": "Zz9"}, 400, "neither SAN"),
        ({"fen": "x" * 201}, 422, "fen"),
        ({"fen": "startpos", "move": "e2e4" * 4}, 422, "move"),
        ({"fen": "startpos", "seconds": 0}, 422, "seconds"),
        ({"fen": "startpos", "seconds": 31}, 422, "less than or equal to 30"),
        ({"fen": None}, 422, "fen"),
    ],
)
def test_chess_bad_input(client: TestClient, body: Any, status: int, words: str) -> None:
    assert words in error(client.post(CHESS, json=body), status)


def test_the_endpoints_are_documented(client: TestClient) -> None:
    schema = client.get("/openapi.json").json()
    for path in (C4, CHESS):
        operation = schema["paths"][path]["post"]
        assert operation["summary"] and operation["description"]
    fields = schema["components"]["schemas"]["Connect4Analysis"]["properties"]
    assert "description" in fields["score"] and "description" in fields["columns"]
    assert analyse.CONNECT4_MAX_SECONDS == 60 and analyse.CHESS_MAX_SECONDS == 30


def test_default_budgets_apply(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[float | None] = []
    decide = Connect4Solver.decide

    def spy(self: Connect4Solver, state: Any, **kwargs: Any) -> Any:
        seen.append(kwargs.get("seconds"))
        return decide(self, state, **kwargs)

    monkeypatch.setattr(Connect4Solver, "decide", spy)
    client.post(C4, json={"position": QUICK})
    assert seen and 4 < seen[0] <= analyse.CONNECT4_SECONDS


def test_the_earlier_addresses_still_answer(client: TestClient) -> None:
    """/api/analyse/connect4 and /api/analyse/chess, the addresses the README gave before the
    routes were named for their capabilities, answer as the new ones do."""
    solved = client.post("/api/analyse/connect4", json={"position": "44", "solve": False})
    assert solved.status_code == 200, solved.text
    again = client.post(C4, json={"position": "44", "solve": False}).json()
    assert {**solved.json(), "seconds": 0} == {**again, "seconds": 0}
    start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    evaluated = client.post("/api/analyse/chess", json={"fen": start, "seconds": 0.1})
    assert evaluated.status_code == 200, evaluated.text
    assert evaluated.json()["fen"] == start
