"""The trees API: a tree read, searched and replayed, drawn at random, a quiz checked; and
every kind of bad input answered 4xx with a one-line message, never 500."""

from __future__ import annotations

import json
from typing import Any

import pytest

from plies.games.tree import parse_tree
from plies.lectures.random_tree import random_tree, tree_text

LECTURE = "[[3,12,8],[2,4,6],[14,5,2]]"
GHOSTS = "[[[3, 9], [8, 2]], [[4, 7], [1, 5]]]"
CHANCE = "[{1/2: [3, 12], 1/2: [2, 4]}, {1/4: 5, 3/4: 1}]"


def _post(client: Any, path: str, body: Any) -> Any:
    answer = client.post(f"/api/trees/{path}", json=body)
    assert answer.status_code == 200, answer.text
    return answer.json()


def test_analyse_the_lecture_tree(client: Any) -> None:
    data = _post(client, "analyse", {"tree": LECTURE, "algorithm": "alphabeta"})
    assert data["text"] == "[[3, 12, 8], [2, 4, 6], [14, 5, 2]]"
    assert data["report"]["value"] == 3 and data["report"]["pruned_leaf_labels"] == ["c2", "c3"]
    assert data["settings"] == {
        "algorithm": "alphabeta",
        "strict": False,
        "root": "MAX",
        "players": ["MAX", "MIN"],
        "order": "ltr",
        "bounds": None,
    }
    assert data["summary"].startswith("alpha-beta (non-strict pruning")
    tree = data["tree"]
    assert (tree["path"], tree["label"], tree["kind"], tree["named"]) == ("", "A", "MAX", False)
    assert [child["label"] for child in tree["children"][1]["children"]] == ["c1", "c2", "c3"]
    assert tree["children"][1]["children"][2] | {"children": []} == {
        "path": "1.2",
        "label": "c3",
        "named": False,
        "kind": "leaf",
        "player": None,
        "value": 6,
        "probability": None,
        "probability_text": None,
        "children": [],
    }
    assert data["solution"] == {
        "values": {"": "3", "0": "3", "1": "<=2", "2": "2"},
        "pruned": ["1.1", "1.2"],
    }


def test_events_replay_the_search(client: Any) -> None:
    events = _post(client, "analyse", {"tree": LECTURE})["events"]
    assert len(events) == 23  # 11 nodes entered (not c2, c3), 7 leaves, 1 cutoff, 4 backups
    assert events[0] == {
        "kind": "enter",
        "path": "",
        "label": "A",
        "value": None,
        "alpha": "-inf",
        "beta": "+inf",
        "depth": 0,
        "text": "enter A (MAX) alpha=-inf beta=+inf",
        "leaf": False,
        "shown": [
            {
                "path": "",
                "value": None,
                "text": "",
                "final": False,
                "alpha": "-inf",
                "beta": "+inf",
            }
        ],
    }
    cutoff = next(event for event in events if event["kind"] == "cutoff")
    assert cutoff["text"] == "cutoff at C: v=2 <= alpha=3, prune c2, c3"
    assert cutoff["skipped"] == ["1.1", "1.2"] and cutoff["depth"] == 2
    assert (cutoff["value"], cutoff["alpha"], cutoff["beta"]) == (2, 3, 2)
    assert (events[3]["kind"], events[3]["value"], events[3]["alpha"]) == ("leaf", 3, None)
    backup = next(event for event in events if event["kind"] == "backup" and event["path"] == "1")
    assert backup["shown"][0] == {
        "path": "1",
        "value": 2,
        "text": "<=2",
        "final": True,
        "alpha": 3,
        "beta": 2,
    }
    assert backup["shown"][1]["path"] == "" and backup["shown"][1]["alpha"] == 3
    assert [event["leaf"] for event in events[2:4]] == [True, True]  # enter b1, leaf b1


def test_settings_reach_the_search(client: Any) -> None:
    ghosts = _post(client, "analyse", {"tree": GHOSTS, "players": ["MAX", "MIN", "MIN"]})
    assert ghosts["report"]["value"] == 2 and ghosts["settings"]["players"] == ["MAX", "MIN", "MIN"]
    assert ghosts["tree"]["children"][0]["children"][0]["kind"] == "MIN"
    rtl = _post(client, "analyse", {"tree": LECTURE, "order": "rtl"})
    assert rtl["report"]["pruned_leaves"] == [] and rtl["settings"]["order"] == "rtl"
    low = _post(client, "analyse", {"tree": LECTURE, "root": "MIN"})
    assert low["report"]["root"] == "MIN" and low["tree"]["kind"] == "MIN"
    strict = _post(client, "analyse", {"tree": "[[3,12,8],[3,4,6]]", "strict": True})
    assert strict["report"]["rule"] == "strict" and strict["report"]["pruned_leaves"] == []
    assert _post(client, "analyse", {"tree": LECTURE, "algorithm": "minimax"})["solution"] == {
        "values": {"": "3", "0": "3", "1": "2", "2": "2"},
        "pruned": [],
    }


def test_chance_trees(client: Any) -> None:
    data = _post(client, "analyse", {"tree": CHANCE})
    assert data["report"]["algorithm"] == "expectiminimax" and data["report"]["value"] == 2.5
    chance = data["tree"]["children"][1]
    assert chance["kind"] == "chance"
    assert [c["probability_text"] for c in chance["children"]] == ["1/4", "3/4"]
    assert "B = 0.5*3 + 0.5*2 = 2.5 (expected value)" in [e["text"] for e in data["events"]]
    star1 = _post(client, "analyse", {"tree": CHANCE, "algorithm": "star1", "bounds": [0, 20]})
    assert star1["settings"]["bounds"] == [0, 20] and "leaf values in [0, 20]" in star1["summary"]


def test_parse_gives_nothing_of_the_search_away(client: Any) -> None:
    data = _post(client, "parse", {"tree": "(A (B 3 12 8) (C 2 4 6) (D 14 5 2))"})
    assert set(data) == {"text", "tree", "node_count", "leaf_count", "settings"}
    assert data["text"] == "[[3, 12, 8], [2, 4, 6], [14, 5, 2]]"
    assert (data["node_count"], data["leaf_count"]) == (13, 9)
    assert "<=" not in json.dumps(data) and "minimax" not in json.dumps(data)


def test_parse_names_only_what_the_text_must(client: Any) -> None:
    tree = _post(client, "parse", {"tree": "(A (C 1 2) (B 3 4))"})["tree"]
    assert [child["named"] for child in tree["children"]] == [True, True]
    assert not tree["named"] and not tree["children"][0]["children"][0]["named"]
    own = _post(client, "parse", {"tree": '{"children": [{"player": "MAX", "children": [1, 2]}]}'})
    assert own["tree"]["children"][0]["player"] == "MAX" and own["tree"]["named"]


def test_check_a_quiz(client: Any) -> None:
    body = {"tree": LECTURE, "values": {"": 3, "0": "3", "1": "<=2", "2": "2"}}
    right = _post(client, "check", {**body, "pruned": ["1.1", "1.2"]})
    assert right["correct"] and right["first_mistake"] is None
    assert (right["right"], right["total"]) == (16, 16)
    wrong = _post(
        client, "check", {**body, "values": {**body["values"], "2": "5"}, "pruned": ["1.1"]}
    )
    assert not wrong["correct"] and (wrong["right"], wrong["total"]) == (14, 16)
    assert wrong["first_mistake"] == "C is cut after c1: v=2 <= alpha=3, so c2, c3 are pruned"
    marks = {mark["label"]: mark for mark in wrong["nodes"] + wrong["edges"]}
    assert marks["D"] == {
        "path": "2",
        "label": "D",
        "right": False,
        "why": "D = 2: the minimum of 14, 5, 2",
    }
    assert marks["C–c2"]["right"] and not marks["C–c3"]["right"] and marks["B"]["why"] == ""


def test_random_trees(client: Any) -> None:
    body = {"depth": 3, "branching": [2, 3], "low": -5, "high": 5, "seed": 11}
    data = _post(client, "random", body)
    assert data["text"] == tree_text(random_tree(3, (2, 3), -5, 5, seed=11))
    assert data["seed"] == 11 and data["leaf_count"] == parse_tree(data["text"]).leaf_count
    again = _post(client, "random", {**body, "seed": None})
    assert again == _post(client, "random", {**body, "seed": again["seed"]})
    chance = _post(client, "random", {**body, "chance": True, "probabilities": "random"})
    assert "{" in chance["text"] and parse_tree(chance["text"]).has_chance


def test_openapi_documents_the_routes(client: Any) -> None:
    paths = client.get("/openapi.json").json()["paths"]
    for name in ("parse", "analyse", "check", "random"):
        route = paths[f"/api/trees/{name}"]["post"]
        assert route["summary"] and route["description"] and route["tags"] == ["trees"]


DEEP = "[" * 30 + "1" + "]" * 30
WIDE = "[" + ", ".join(["1"] * 1200) + "]"


@pytest.mark.parametrize(
    ("path", "body", "status", "message"),
    [
        ("analyse", {"tree": "[[3, 12"}, 400, "tree: unbalanced brackets"),
        ("analyse", {"tree": ""}, 400, "tree: empty input"),
        ("analyse", {"tree": "[1, nan]"}, 400, "tree: leaf 'nan' at character 5 is not a finite"),
        ("analyse", {"tree": "[1, inf]"}, 400, "is not a finite number"),
        ("analyse", {"tree": "[1, 1e999]"}, 400, "is not a finite number"),
        ("analyse", {"tree": "[1, x]"}, 400, "tree: leaf 'x' at character 5 is not a number"),
        ("analyse", {"tree": '{"children": [NaN]}'}, 400, "is not a finite number"),
        ("analyse", {"tree": "{1/2: 1, 1/3: 2}"}, 400, "sum to 0.833333, not 1"),
        ("analyse", {"tree": DEEP}, 400, "tree: nested 30 levels deep; the page takes at most 24"),
        ("analyse", {"tree": WIDE}, 400, "tree: 1201 nodes; the page takes at most 1000"),
        ("analyse", {"tree": "1" * 20_001}, 422, "tree: String should have at most 20000"),
        ("analyse", {"tree": 5}, 422, "tree: Input should be a valid string"),
        ("analyse", {}, 422, "tree: Field required"),
        ("analyse", {"tree": LECTURE, "algorithm": "negamax"}, 422, "algorithm: Input should be"),
        ("analyse", {"tree": LECTURE, "root": "max"}, 422, "root: Input should be 'MAX' or 'MIN'"),
        ("analyse", {"tree": LECTURE, "players": []}, 422, "players: List should have at least"),
        ("analyse", {"tree": LECTURE, "players": ["MAX", "ghost"]}, 422, "players.1: Input"),
        ("analyse", {"tree": LECTURE, "order": "up"}, 422, "order: Input should be 'ltr'"),
        ("analyse", {"tree": LECTURE, "root": "MIN", "players": ["MAX"]}, 400, "root player MIN"),
        ("analyse", {"tree": CHANCE, "algorithm": "alphabeta"}, 400, "it has chance nodes"),
        ("analyse", {"tree": CHANCE, "algorithm": "star1", "strict": True}, 400, "strict pruning"),
        ("analyse", {"tree": LECTURE, "bounds": [0, 20]}, 400, "bounds on leaf values are for"),
        (
            "analyse",
            {"tree": CHANCE, "algorithm": "star1", "bounds": [9, 0]},
            400,
            "lower <= upper",
        ),
        ("analyse", {"tree": CHANCE, "algorithm": "star1", "bounds": [4, 9]}, 400, "outside"),
        ("analyse", {"tree": LECTURE, "bounds": [0, 1, 2]}, 422, "bounds: Tuple should have"),
        ("parse", {"tree": "(A (A 1 2))"}, 400, "tree: label 'A' is used twice"),
        ("check", {"tree": LECTURE, "values": {"0.x": 3}}, 400, "'0.x' is not a node's path"),
        ("check", {"tree": LECTURE, "values": {"5": 3}}, 400, "there is no node at path 5"),
        ("check", {"tree": LECTURE, "values": {"0.0": 3}}, 400, "b1 is a leaf: its value is given"),
        ("check", {"tree": LECTURE, "values": {"0": "three"}}, 400, "B: 'three' is not a number"),
        ("check", {"tree": LECTURE, "pruned": [""]}, 400, "there is no edge to a node at path"),
        ("check", {"tree": LECTURE, "values": {"0": [3]}}, 422, "values.0.str"),
        ("random", {"depth": 0, "branching": 2, "low": 0, "high": 9}, 400, "depth must be 1 to 8"),
        ("random", {"depth": 99, "branching": 2, "low": 0, "high": 9}, 400, "depth must be 1 to 8"),
        ("random", {"depth": 2, "branching": 0, "low": 0, "high": 9}, 400, "branching must be"),
        ("random", {"depth": 2, "branching": [3, 1], "low": 0, "high": 9}, 400, "branching must"),
        ("random", {"depth": 7, "branching": 3, "low": 0, "high": 9}, 400, "the limit is 400"),
        ("random", {"depth": 2, "branching": 2, "low": 9, "high": 0}, 400, "leaf values must"),
        ("random", {"depth": 2, "branching": 2, "low": 0, "high": 10**9}, 400, "within +-1000000"),
        ("random", {"depth": "abc", "branching": 2, "low": 0, "high": 9}, 422, "depth: Input"),
        ("random", {"depth": 2.5, "branching": 2, "low": 0, "high": 9}, 422, "depth: Input"),
        ("random", {"depth": None, "branching": 2, "low": 0, "high": 9}, 422, "depth: Input"),
        ("random", {"depth": 2, "branching": 2, "low": 0, "high": 9, "seed": -1}, 422, "seed"),
        ("random", {"depth": 2, "branching": 2, "low": 0}, 422, "high: Field required"),
        (
            "random",
            {"depth": 2, "branching": 2, "low": 0, "high": 9, "probabilities": "fair"},
            422,
            "probabilities: Input should be 'equal' or 'random'",
        ),
    ],
)
def test_bad_input_is_answered_in_a_line(
    client: Any, path: str, body: Any, status: int, message: str
) -> None:
    answer = client.post(f"/api/trees/{path}", json=body)
    assert answer.status_code == status, answer.text
    error = answer.json()["error"]
    assert message in error and "\n" not in error


@pytest.mark.parametrize(
    ("path", "raw", "message"),
    [
        ("analyse", '{"tree": "[1, 2]", "algorithm": "star1", "bounds": [NaN, 1]}', "finite"),
        ("analyse", '{"tree": "[1, 2]", "algorithm": "star1", "bounds": [0, Infinity]}', "finite"),
        ("check", '{"tree": "[[1, 2]]", "values": {"0": NaN}}', "B: 'nan' is not a number"),
        ("random", '{"depth": 1e999, "branching": 2, "low": 0, "high": 9}', "depth: Input"),
        ("analyse", '{"tree": ', "JSON decode error"),
        ("analyse", "[1, 2]", "Input should be a valid dictionary"),
    ],
)
def test_json_that_is_not_json_is_refused(client: Any, path: str, raw: str, message: str) -> None:
    answer = client.post(
        f"/api/trees/{path}", content=raw, headers={"Content-Type": "application/json"}
    )
    assert 400 <= answer.status_code < 500, answer.text
    assert message in answer.json()["error"]
