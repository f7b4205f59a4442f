"""Games of imperfect information on the Play page's API: a person is sent only what their
seat sees. Many hands of Kuhn and Leduc poker are played against an agent that notes its own
card in its search; every answer of every route (the session, moves, the boards after each
move, the live socket) is checked against the true deal kept on the server: the other card
face down until a showdown, its deal written ``deals P2 a card``, no search, no position, no
record; downloads, searches, reviews, hints and undo are refused with the reason. Agents alone
are shown whole; two people at one screen see the seat to move. And what is sent does not
depend on the hidden card: the same JSON whatever the other card was. Phantom tic-tac-toe
likewise: the other's marks only where the person bumped into them, the other's moves written
``O moves``."""

from __future__ import annotations

import itertools
import json
import random
import time
from typing import Any

import pytest
from fastapi.testclient import TestClient

from plies.agents.registry import AGENTS, AgentKind
from plies.errors import IllegalMoveError
from plies.game import CHANCE
from plies.games import make_game
from plies.play import GameRecord, SeatView, seat_view
from plies.web import sessions as sessions_module
from plies.web.app import create_app
from plies.web.session_json import board_after, position_json
from plies.web.thinking import TurnNotes
from plies.web.workload import Budgets
from tests.conftest import SECRET, register_peeker

GAMES = ("kuhn", "leduc")


@pytest.fixture(scope="module")
def app() -> Any:
    """An app of its own: these tests start hundreds of hands a minute, past the shared
    app's limit of new games, which the next tests would then meet."""
    return create_app(budgets=Budgets(new_games_per_minute=10_000))


@pytest.fixture(autouse=True)
def peeker(monkeypatch: pytest.MonkeyPatch) -> None:
    """The agent spec ``peeker`` while a test runs; agents move at once."""
    register_peeker(monkeypatch)
    monkeypatch.setattr(sessions_module, "PACE", 0.0)


def create(client: TestClient, game: str, seed: int = 7, **players: str) -> dict[str, Any]:
    answer = client.post("/api/sessions", json={"game": game, "players": players, "seed": seed})
    assert answer.status_code == 201, answer.text
    return answer.json()  # type: ignore[no-any-return]


def true_record(client: TestClient, session_id: str) -> GameRecord:
    """The record the server keeps (what the browser must not see all of)."""
    session = client.app.state.sessions.get(session_id)  # type: ignore[attr-defined]
    assert session is not None
    return session.record  # type: ignore[no-any-return]


def as_answered(record: GameRecord, answer: dict[str, Any], seat: str) -> GameRecord:
    """The true record as it stood when ``answer`` was made (the game may have gone on
    since): its longest beginning that shows ``seat`` as many moves (those that show as many
    differ only in turns the seat cannot see)."""
    game, turns = record.game, list(record.turns)
    for plies in range(len(turns), -1, -1):
        if plies < len(turns):
            state = turns[plies].state
        else:
            state = game.result(turns[-1].state, turns[-1].action) if turns else record.start
        before = GameRecord(game, record.start, state, turns[:plies])
        if len(SeatView(game, seat).moves(before)) == len(answer["moves"]):
            return before
    raise AssertionError(f"no beginning of the record shows {len(answer['moves'])} moves")


def state_after(record: GameRecord, number: int, seat: str) -> Any:
    """The true state after the first ``number`` moves ``seat`` is shown (all: now)."""
    moves = SeatView(record.game, seat).moves(record)
    return record.state if number == len(moves) else record.turns[moves[number].start].state


def shown_turns(record: GameRecord, seat: str) -> list[Any]:
    """The turn ending each move ``seat`` is shown."""
    return [record.turns[move[-1]] for move in SeatView(record.game, seat).moves(record)]


def check_board(game: Any, board: dict[str, Any], state: Any, seat: str) -> None:
    """``board`` draws ``state`` as ``seat`` sees it: its own card, the other face down until
    a showdown, no position."""
    assert board["seat"] == seat and board["position"] is None
    shown = showdown(game, state)
    for drawn in board["seats"]:
        index = game.players.index(drawn["player"])
        dealt = list(state.cards[index : index + 1])
        if drawn["player"] == seat or shown:
            assert drawn["cards"] == dealt, (drawn, state)
        else:
            assert drawn["cards"] == [None] * len(dealt), (drawn, state)
    assert board["public"] == list(state.cards[2:])


def showdown(game: Any, state: Any) -> bool:
    """Whether the hand ended with both cards shown."""
    if not game.is_terminal(state):
        return False
    return game.showdown(state) if game.name == "leduc" else state.bets in ("pp", "bb", "pbb")


def check_seen(game: Any, answer: dict[str, Any], record: GameRecord, seat: str) -> None:
    """Every field of a session's JSON is what ``seat`` may see of the true ``record``."""
    record = as_answered(record, answer, seat)
    state = record.state
    other = next(player for player in game.players if player != seat)
    assert answer["seat"] == seat and answer["position"] is None and answer["records"] == []
    assert not answer["can_undo"] and not answer["draws"]
    check_board(game, answer["board"], state, seat)
    if not showdown(game, state):
        assert f"{other} holds ?" in answer["text"] or len(state.cards) < 2, answer["text"]
    for move, turn in zip(answer["moves"], shown_turns(record, seat), strict=True):
        assert move["search"] is None and move["lines"] == [] and not move["has_tree"]
        dealt = turn.player == CHANCE and len(turn.state.cards) < 2
        if dealt and game.players[len(turn.state.cards)] == other:
            assert move["notation"] == f"deals {other} a card"
        elif dealt:
            assert move["notation"] == f"deals you {turn.action}"
    thinking = answer.get("thinking")
    assert thinking is None or (thinking["report"] is None and thinking["lines"] == [])
    assert SECRET not in json.dumps(answer)


def check_grid(game: Any, board: dict[str, Any], state: Any, seat: str) -> None:
    """A phantom grid as ``seat`` sees it: its own marks, the other's only where it bumped
    into them until the game is over, no position."""
    assert board["seat"] == seat and board["position"] is None
    other = game.opponent(seat)
    tried = {game.format_action(state, cell) for cell in state.tries[game.players.index(seat)]}
    over = game.is_terminal(state)
    for r, row in enumerate(board["cells"]):
        for c, cell in enumerate(row):
            truth = state.cells[r * len(row) + c]
            assert (cell["piece"] or ".") == truth or (not over and cell["piece"] is None), cell
            if cell["piece"] == other and not over:
                assert cell["id"] in tried, (cell, state)
    assert set(board["last"]) <= tried


def check_grid_seen(game: Any, answer: dict[str, Any], record: GameRecord, seat: str) -> None:
    """Every field of a phantom game's JSON is what ``seat`` may see of the true ``record``:
    the other's moves written ``O moves``, no search, the text of the seen board."""
    record = as_answered(record, answer, seat)
    state = record.state
    other = game.opponent(seat)
    assert answer["seat"] == seat and answer["position"] is None and answer["records"] == []
    assert not answer["can_undo"] and not answer["draws"]
    check_grid(game, answer["board"], state, seat)
    assert answer["text"] == game.display(game.seen_state(state, seat))
    assert game.is_terminal(state) or "sees" not in answer["text"]
    players = [move["player"] for move in answer["moves"]]
    pairs = itertools.pairwise(players)
    assert all(not a == b == other for a, b in pairs), players  # none of the other's tries
    for move, turn in zip(answer["moves"], shown_turns(record, seat), strict=True):
        assert move["search"] is None and move["lines"] == [] and not move["has_tree"]
        if turn.player == other:
            assert move["notation"] == f"{other} moves"
    thinking = answer.get("thinking")
    assert thinking is None or (thinking["report"] is None and thinking["lines"] == [])
    assert SECRET not in json.dumps(answer)


SEEN = {"kuhn": check_seen, "leduc": check_seen, "phantom": check_grid_seen}
"""Each game's check of a session's JSON against the true record."""
BOARDS = {"kuhn": check_board, "leduc": check_board, "phantom": check_grid}
"""Each game's check of a board against the true state."""


def play_hand(
    client: TestClient, session: dict[str, Any], seat: str, rng: random.Random
) -> dict[str, Any]:
    """Play a hand (a game) to its end from the person's seat, checking every answer and
    the board after every move (:data:`SEEN`, :data:`BOARDS`); the last answer."""
    game, session_id = make_game(session["game"]), session["id"]
    check_seen, check_board = SEEN[game.name], BOARDS[game.name]
    record = true_record(client, session_id)
    deadline = time.monotonic() + 30
    while not session["finished"]:
        assert time.monotonic() < deadline, session
        check_seen(game, session, record, seat)
        if session["legal"]:
            move = rng.choice(session["legal"])["notation"]
            answer = client.post(f"/api/sessions/{session_id}/move", json={"move": move})
            assert answer.status_code == 200, answer.text
            session = answer.json()
        else:
            time.sleep(0.01)
            session = client.get(f"/api/sessions/{session_id}").json()
    check_seen(game, session, record, seat)
    for ply in range(len(session["moves"]) + 1):
        board = client.get(f"/api/sessions/{session_id}/board?ply={ply}").json()["board"]
        check_board(game, board, state_after(record, ply, seat), seat)
        assert SECRET not in json.dumps(board)
    return session


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("seat", ["P1", "P2"])
def test_a_person_is_sent_only_what_their_seat_sees(
    client: TestClient, name: str, seat: str
) -> None:
    """Many hands against the peeker, every answer checked against the true deal."""
    other = "P2" if seat == "P1" else "P1"
    session = create(client, name, seed=11, **{seat: "human", other: "peeker"})
    rng, showdowns = random.Random(5), 0
    for _ in range(30):
        session = play_hand(client, session, seat, rng)
        record = true_record(client, session["id"])
        showdowns += showdown(make_game(name), record.state)
        answer = client.post(f"/api/sessions/{session['id']}/new")
        assert answer.status_code == 200, answer.text
        session = answer.json()
    assert showdowns > 0  # the hands ended both ways


@pytest.mark.parametrize("seat", ["X", "O"])
def test_a_person_sees_only_their_marks_and_those_they_bump_into(
    client: TestClient, seat: str
) -> None:
    """Phantom tic-tac-toe: many games against the peeker, every answer checked."""
    other = "O" if seat == "X" else "X"
    session = create(client, "phantom", seed=4, **{seat: "human", other: "peeker"})
    rng, bumps = random.Random(6), 0
    for _ in range(15):
        session = play_hand(client, session, seat, rng)
        bumps += sum("try again" in move["notation"] for move in session["moves"])
        answer = client.post(f"/api/sessions/{session['id']}/new")
        assert answer.status_code == 200, answer.text
        session = answer.json()
    assert bumps > 0  # the person bumped into hidden marks


class Placer:
    """O in phantom tic-tac-toe, a test's agent that sees the whole state: with ``bump``, it
    first tries a cell X holds (each once), then plays the first empty cell."""

    name, last = "placer", None

    def __init__(self, bump: bool) -> None:
        self.bump = bump

    def __call__(self, game: Any, state: Any) -> Any:
        held = [cell for cell, mark in enumerate(state.cells) if mark == "X"]
        untried = [cell for cell in held if cell not in state.tries[1]]
        return untried[0] if self.bump and untried else state.cells.index(".")

    def reset(self, seed: int | None = None) -> None:
        pass


def x_is_shown(client: TestClient, monkeypatch: pytest.MonkeyPatch, bump: bool) -> list[Any]:
    """What X is sent over three moves against an O that bumps into X's marks or not: every
    state published, then every board and the session, less the game's id and the seconds
    (the versions counted from the first)."""
    kind = AgentKind("placer", "places", (), lambda *_: Placer(bump), hidden_information=True)
    monkeypatch.setitem(AGENTS, "placer", kind)
    session = create(client, "phantom", X="human", O="placer")
    session_id, first = session["id"], session["version"]
    events: list[dict[str, Any]] = []
    client.app.state.sessions.get(session_id).subscribe(events.append)  # type: ignore[attr-defined]
    for move in ("b2", "a1", "c3"):
        client.post(f"/api/sessions/{session_id}/move", json={"move": move})
        session = wait_for_turn(client, session_id)
    boards = [
        client.get(f"/api/sessions/{session_id}/board?ply={number}").json()
        for number in range(len(session["moves"]) + 1)
    ]
    shown = [event["session"] for event in events] + [session]
    for seen in shown:
        seen["version"] -= first
        seen["id"] = None
        for move in seen["moves"]:
            move["seconds"] = 0
    return [*shown, *boards]


def wait_for_turn(client: TestClient, session_id: str) -> dict[str, Any]:
    """The session once the person may move (or the game is over)."""
    deadline = time.monotonic() + 30
    while True:
        session: dict[str, Any] = client.get(f"/api/sessions/{session_id}").json()
        if session["legal"] or session["finished"]:
            return session
        assert time.monotonic() < deadline, session
        time.sleep(0.01)


def test_nothing_sent_counts_the_tries_the_person_does_not_see(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Phantom tic-tac-toe: X is sent the same states, boards and versions whether O bumped
    into X's marks first or not (a try X does not see), and no more states."""
    plain = x_is_shown(client, monkeypatch, bump=False)
    bumped = x_is_shown(client, monkeypatch, bump=True)
    assert bumped == plain
    versions = [shown["version"] for shown in plain if "version" in shown]
    assert versions == sorted(versions) and len(versions) > 3


@pytest.mark.parametrize("name", GAMES)
def test_the_live_socket_sends_no_search_and_only_the_seats_view(
    client: TestClient, name: str
) -> None:
    session = create(client, name, P1="peeker", P2="human")
    game, session_id = make_game(name), session["id"]
    record = true_record(client, session_id)
    frames: list[dict[str, Any]] = []
    answered = set()
    with client.websocket_connect(f"/api/sessions/{session_id}/live") as socket:
        while not frames or not frames[-1]["session"]["finished"]:
            frames.append(socket.receive_json())
            shown = frames[-1]["session"]
            if shown["legal"] and len(shown["moves"]) not in answered:
                answered.add(len(shown["moves"]))
                move = shown["legal"][0]["notation"]
                client.post(f"/api/sessions/{session_id}/move", json={"move": move})
    assert {frame["type"] for frame in frames} == {"state"}
    for frame in frames:
        check_seen(game, frame["session"], record, "P2")


@pytest.mark.parametrize("name", GAMES)
def test_what_would_show_the_hidden_part_is_refused_with_the_reason(
    client: TestClient, name: str
) -> None:
    answer = client.post(
        "/api/sessions",
        json={"game": name, "players": {"P1": "human", "P2": "peeker"}, "hints": True},
    )
    session = answer.json()
    session_id, why = session["id"], "each player sees only part of the game"
    assert client.post(f"/api/sessions/{session_id}/hint").json()["error"].startswith("no hints")
    move = session["legal"][0]["notation"]
    session = client.post(f"/api/sessions/{session_id}/move", json={"move": move}).json()
    for method, path, refused in (
        ("GET", "record.json", "no record of this game is given"),
        ("GET", "moves/2/search", "no search is shown"),
        ("POST", "undo", "no undo"),
    ):
        answer = client.request(method, f"/api/sessions/{session_id}/{path}")
        assert answer.status_code == 400, (path, answer.text)
        message = answer.json()["error"]
        assert message.startswith(refused) and why in message and "\n" not in message
    client.post(f"/api/sessions/{session_id}/resign")
    answer = client.post(f"/api/sessions/{session_id}/review")
    assert answer.status_code == 400 and answer.json()["error"].startswith("no review")
    clocked = {"game": name, "players": {"P1": "human", "P2": "peeker"}, "clock": "60+1"}
    answer = client.post("/api/sessions", json=clocked)
    assert answer.status_code == 400 and answer.json()["error"].startswith("no clock")
    analysed = client.post("/api/analyse", json={"game": name})
    assert analysed.status_code == 400 and "hides part of the game" in analysed.json()["error"]


class Failing:
    """An agent whose error names its card."""

    name, last = "failing", None

    def __call__(self, game: Any, state: Any) -> Any:
        key = game.information_key(state, game.to_move(state))
        raise RuntimeError(f"{SECRET} {key}")

    def reset(self, seed: int | None = None) -> None:
        pass


def test_an_agents_failure_is_shown_without_its_reason(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The reason an agent gives may name what its seat sees: only that it failed is shown."""
    kind = AgentKind("failing", "fails", (), lambda *_: Failing(), hidden_information=True)
    monkeypatch.setitem(AGENTS, "failing", kind)
    session = create(client, "leduc", P1="failing", P2="human")
    deadline = time.monotonic() + 30
    while session["error"] is None:
        assert time.monotonic() < deadline, session
        time.sleep(0.02)
        session = client.get(f"/api/sessions/{session['id']}").json()
    assert session["error"] == "failing (P1) could not move"
    assert SECRET not in json.dumps(session)


@pytest.mark.parametrize("name", GAMES)
def test_agents_alone_are_shown_whole(client: TestClient, name: str) -> None:
    """A spectator of agents sees every card, the moves as played, the searches, and may
    download the game."""
    session = create(client, name, P1="peeker", P2="random")
    deadline = time.monotonic() + 30
    while not session["finished"]:
        assert time.monotonic() < deadline
        time.sleep(0.02)
        session = client.get(f"/api/sessions/{session['id']}").json()
    record = true_record(client, session["id"])
    assert session["seat"] is None and session["records"] == ["json"]
    drawn = {seat["player"]: seat["cards"] for seat in session["board"]["seats"]}
    assert drawn == {"P1": [record.state.cards[0]], "P2": [record.state.cards[1]]}
    assert [move["notation"] for move in session["moves"][:2]] == list(record.state.cards[:2])
    searched = [move["search"] for move in session["moves"] if move["player"] == "P1"]
    assert searched and all(SECRET in search["note"] for search in searched)
    assert client.get(f"/api/sessions/{session['id']}/record.json").status_code == 200


def test_two_people_at_one_screen_see_the_seat_to_move(client: TestClient) -> None:
    session = create(client, "leduc", P1="human", P2="human")
    game, record = make_game("leduc"), true_record(client, session["id"])
    check_seen(game, session, record, "P1")
    session = client.post(f"/api/sessions/{session['id']}/move", json={"move": "raise"}).json()
    check_seen(game, session, record, "P2")
    assert [move["notation"] for move in session["moves"][:2]] == [
        "deals P1 a card",
        f"deals you {record.state.cards[1]}",
    ]
    session = client.post(f"/api/sessions/{session['id']}/move", json={"move": "fold"}).json()
    check_seen(game, session, record, "P2")  # the screen stays with the last to act


def test_the_games_list_offers_only_agents_that_play_hidden_games(client: TestClient) -> None:
    games = {entry["name"]: entry for entry in client.get("/api/games").json()}
    kinds = {kind["name"]: kind for kind in client.get("/api/agents").json()}
    assert kinds["random"]["hidden_information"] and not kinds["alphabeta"]["hidden_information"]
    for name in GAMES:
        entry = games[name]
        assert entry["hidden_information"] and entry["analyser"] is None
        assert entry["agents"][0] == "human" and entry["agents"][-1] == "random"
        offered = [spec.partition(":")[0] for spec in entry["agents"]]
        assert all(kinds[kind]["hidden_information"] for kind in offered if kind in kinds), offered
        assert entry["start"]["board"]["kind"] == "cards"
        answer = client.post(
            "/api/sessions", json={"game": name, "players": {"P1": "human", "P2": "alphabeta"}}
        )
        assert answer.status_code == 400
        message = answer.json()["error"]
        assert "needs perfect information" in message and "random" in message
        assert "\n" not in message
    assert not games["chess"]["hidden_information"]


def redealt(record: GameRecord, seat: str) -> list[GameRecord]:
    """The record replayed with the other seat's private card changed to each card it could
    have been (those the deal allows), every other move the same."""
    game = record.game
    other = 1 - game.players.index(seat)
    found: list[GameRecord] = []
    if len(record.state.cards) <= other:
        return found
    for card in ("J", "Q", "K"):
        again = GameRecord(game, record.start, record.start)
        try:
            for ply, turn in enumerate(record.turns):
                action = card if ply == other else turn.action
                again.play(turn.player, action, turn.seconds, turn.search)
        except IllegalMoveError:
            continue
        if again.state.cards[other] != record.state.cards[other]:
            found.append(again)
    return found


@pytest.mark.parametrize("name", GAMES)
def test_nothing_sent_depends_on_the_hidden_card(name: str) -> None:
    """For random hands and every prefix of them that has not shown the cards, the JSON of
    the session and of its boards is the same whatever the other card was."""
    game, rng = make_game(name), random.Random(3)
    for _ in range(60):
        record = GameRecord(game, game.initial_state(), game.initial_state())
        seat = rng.choice(game.players)
        while not record.finished:
            state = record.state
            action = rng.choice(list(game.actions(state)))
            record.play(game.to_move(state), action)
            if showdown(game, record.state):
                break
            view = seat_view(game, [seat], record)
            shown = _shown(record, view)
            for other in redealt(record, seat):
                assert _shown(other, seat_view(game, [seat], other)) == shown


def _shown(record: GameRecord, view: SeatView) -> str:
    """What the session and its boards send of ``record`` (agents' notes naming their card)."""
    notes = [TurnNotes(search={"note": str(turn.action)}) for turn in record.turns]
    people = [view.seat] if view.seat else []
    players = {player: "human" for player in record.game.players}
    sent = position_json("id", "spec", record, notes, players, people, True, False, view)
    shown = range(len(view.moves(record)) + 1)
    boards = [board_after(record, number, False, view) for number in shown]
    return json.dumps([sent, boards], sort_keys=True)
