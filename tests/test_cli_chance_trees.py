"""``plies tree`` on trees with chance nodes: expectiminimax by default, Star1 when asked, the
expected values in every output, and one-line errors with exit status 2."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import CliRun, assert_one_line_error

Run = Callable[..., CliRun]

# MAX, chance, MIN, as the lecture's backgammon tree; probabilities in binary fractions.
DICE = "[{3/8: 5, 5/8: [9, {1/2: 1, 1/2: 6}]}, {1/2: [1, 12], 1/4: [2, 4], 1/4: 7}]"
LECTURE = "[[3,12,8],[2,4,6],[14,5,2]]"


def _json(run_cli: Run, *args: str) -> dict[str, Any]:
    result = run_cli("tree", *args, "--json")
    assert result.code == 0, result
    data: dict[str, Any] = json.loads(result.out)
    return data


def test_chance_values_are_exact_weighted_sums(run_cli: Run) -> None:
    data = _json(run_cli, DICE)
    assert (data["algorithm"], data["value"], data["pv_labels"]) == (
        "expectiminimax",
        4.0625,
        ["A", "B"],
    )
    chance = [n for n in data["nodes"] if n["kind"] == "chance"]
    assert [n["label"] for n in chance] == ["B", "G", "C"] and data["chance_nodes"] == 3
    for node in chance:
        children = [n for n in data["nodes"] if n["path"][:-1] == node["path"] and n["path"]]
        assert sum(Fraction(c["probability"]) for c in children) == 1
        expected = sum(Fraction(c["probability"]) * Fraction(c["value"]) for c in children)
        assert Fraction(node["value"]) == Fraction(node["minimax"]) == expected
    values = {n["label"]: n["value"] for n in data["nodes"]}
    assert (values["B"], values["C"], values["G"]) == (4.0625, 2.75, 3.5)


def test_json_keeps_every_field_and_adds_kind_probability_bounds(run_cli: Run) -> None:
    plain = _json(run_cli, LECTURE)
    chance = _json(run_cli, DICE, "--algorithm", "star1")
    assert set(plain) == set(chance)
    assert set(plain["nodes"][0]) == set(chance["nodes"][0])
    assert {"kind", "probability"} <= set(chance["nodes"][0])
    assert (plain["bounds"], plain["chance_nodes"]) == (None, 0)
    assert {n["kind"] for n in plain["nodes"]} == {"decision", "leaf"}
    assert chance["bounds"] == [1, 12] and chance["rule"] == "non-strict"
    kinds = {n["label"]: (n["kind"], n["player"], n["probability"]) for n in chance["nodes"]}
    assert kinds["A"] == ("decision", "MAX", None)
    assert kinds["B"] == ("chance", "chance", None)
    assert kinds["D"] == ("decision", "MIN", 0.625) and kinds["c3"] == ("leaf", "leaf", 0.25)


def test_star1_prunes_and_keeps_the_value(run_cli: Run) -> None:
    plain = _json(run_cli, DICE)
    pruned = _json(run_cli, DICE, "-a", "star1")
    loose = _json(run_cli, DICE, "-a", "star1", "--bounds", "-20,20")
    assert plain["value"] == pruned["value"] == loose["value"]
    # C's window is (4.0625, +inf): E = 1 (e2 cut), then F's window is (2.25, 12): f1 = 2 cuts
    # f2, and C <= 1/2*1 + 1/4*2 + 1/4*12 = 4 <= alpha cuts c3.
    assert plain["pruned_leaves"] == [] and pruned["pruned_leaf_labels"] == ["e2", "f2", "c3"]
    assert [b["at_label"] for b in pruned["pruned_subtrees"]] == ["E", "F", "C"]
    assert pruned["nodes_visited"] < plain["nodes_visited"]
    assert loose["bounds"] == [-20, 20] and loose["nodes_visited"] >= pruned["nodes_visited"]
    for branch in pruned["pruned_subtrees"]:
        at = next(n for n in pruned["nodes"] if n["path"] == branch["at"])
        if at["kind"] == "chance":
            low, high = float(branch["alpha"]), float(branch["beta"])  # "-inf"/"+inf" too
            assert branch["value"] <= low or branch["value"] >= high


def test_text_output_shows_expected_values_and_trace(run_cli: Run) -> None:
    result = run_cli("tree", DICE, "--trace")
    assert result.code == 0
    out = result.out
    assert out.startswith("expectiminimax (no pruning); root MAX; 16 nodes, 9 leaves, 3 chance")
    assert "expected value: C = 0.5*1 + 0.25*2 + 0.25*7 = 2.75" in out
    assert "expected value: B = 0.375*5 + 0.625*3.5 = 4.0625" in out
    assert "    B = 0.375*5 + 0.625*3.5 = 4.0625 (expected value)" in out
    assert "enter B (chance)" in out
    assert "principal variation A -> B (child indices [0]), up to nature's move" in out
    header = next(line for line in out.splitlines() if line.startswith("node "))
    assert header.split()[:5] == ["node", "player", "path", "P", "expectimax"]
    star = run_cli("tree", DICE, "-a", "star1", "--trace").out
    assert "Star1 (*-minimax)" in star and "with leaf values in [1, 12]" in star
    assert "cutoff at" in star and "pruned at" in star


def test_root_min_and_chance_root(run_cli: Run) -> None:
    low = _json(run_cli, DICE, "--root", "min")
    players = {n["label"]: n["player"] for n in low["nodes"]}
    assert (players["A"], players["D"], players["G"]) == ("MIN", "MAX", "chance")
    # MIN picks the chance node whose expected MAX value is smaller.
    b = 3 / 8 * 5 + 5 / 8 * max(9, 1 / 2 * 1 + 1 / 2 * 6)
    c = 1 / 2 * max(1, 12) + 1 / 4 * max(2, 4) + 1 / 4 * 7
    assert (low["value"], low["pv_labels"]) == (min(b, c), ["A", "B"])
    rooted = _json(run_cli, "{1/4: [1, 5], 3/4: [[2, 8], 0]}")
    assert rooted["value"] == 1 / 4 * 5 + 3 / 4 * 2 and rooted["pv"] == []


def test_help_documents_the_chance_notation(run_cli: Run) -> None:
    text = " ".join(run_cli("tree", "--help").out.split())
    assert "{0.5: [3, 12], 0.5: [2, 4]}" in text
    assert '{"chance": [{"probability": 0.5, "value": 3}, ...]}' in text
    assert "MAX, chance, MIN, chance, MAX" in text and "star1" in text and "--bounds" in text


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (("{0.5: 1, 0.25: 2}",), "sum to 0.75, not 1"),
        (("{-0.5: 1, 1.5: 2}",), "probability '-0.5' at character 2 is negative"),
        (("{0.5 1}",), "expected a probability 'P:' at character 2"),
        (('{"chance": [{"value": 1}]}',), "has no 'probability'"),
        ((DICE, "-a", "alphabeta"), "it has chance nodes"),
        ((DICE, "-a", "minimax"), "it has chance nodes"),
        ((DICE, "-a", "star1", "--strict"), "strict pruning is an alpha-beta option"),
        ((DICE, "--bounds", "0,20"), "bounds on leaf values are for star1"),
        ((DICE, "-a", "star1", "--bounds", "2,20"), "leaf g1 = 1 lies outside"),
        ((DICE, "-a", "star1", "--bounds", "20,2"), "lower <= upper"),
        ((DICE, "-a", "star1", "--bounds", "x"), "'x' is not two numbers L,U"),
    ],
)
def test_bad_chance_input_is_one_line(run_cli: Run, args: tuple[str, ...], fragment: str) -> None:
    assert_one_line_error(run_cli("tree", *args), fragment)


@pytest.mark.skipif(shutil.which("dot") is None, reason="Graphviz's dot is not installed")
def test_draw_a_chance_tree(run_cli: Run, tmp_path: Path) -> None:
    target = tmp_path / "dice.svg"
    result = run_cli("tree", DICE, "-a", "star1", "--draw", str(target))
    assert result.code == 0 and f"drawn to {target}" in result.out
    svg = target.read_text(encoding="utf-8")
    assert svg.count("<ellipse") == 3  # the chance nodes
    assert ">0.375<" in svg and ">0.625<" in svg
