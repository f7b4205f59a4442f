"""board_view and move_paths for every game, over seeded random playouts: views are JSON and
agree with the game's own notation; every legal move has a path of clickable targets, its
notation reads back to the move, and no two moves share a path the page cannot tell apart."""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from pathlib import Path
from typing import Any, get_args

import chess
import pytest

from plies.game import CHANCE, random_move
from plies.games import make_game
from plies.games.grid import Colour, Piece, Surface
from plies.games.tree import parse_tree, tree_game
from plies.web.boards import board_view, move_paths

GAMES = {
    "tictactoe": 3,
    "tictactoe:m=4,n=5,k=3": 2,
    "tictactoe3": 2,
    "tiles:length=5": 4,
    "nim:heaps=2-3-5": 4,
    "connect4": 2,
    "connect4:width=5,height=4": 2,
    "othello": 1,
    "checkers": 1,
    "chess": 1,
    "backgammon": 1,
    "go:size=5": 2,
    "go": 1,
    "kuhn": 4,
    "leduc": 4,
}
"""Game specs and the number of seeded random games played through each."""
PLIES = 70
"""The longest stretch of a game looked at (chess, checkers and backgammon go on longer)."""


def playout(spec: str, seed: int) -> tuple[Any, list[tuple[Any, Any]]]:
    """The game and the (state, action that led to it) pairs of one seeded random game."""
    game = make_game(spec)
    rng = random.Random(seed)
    state, last = game.initial_state(), None
    seen = [(state, last)]
    while not game.is_terminal(state) and len(seen) < PLIES:
        last = random_move(game, state, rng)
        state = game.result(state, last)
        seen.append((state, last))
    return game, seen


CASES = [(spec, seed) for spec, games in GAMES.items() for seed in range(games)]


def targets(view: dict[str, Any]) -> set[str]:
    """Every id the page can click in ``view``."""
    ids = {button["id"] for button in view["buttons"]}
    kind = view["kind"]
    if kind == "grid":
        if view["cell_targets"]:
            ids |= {cell["id"] for row in view["cells"] for cell in row if cell["id"]}
        ids |= set(view.get("column_targets", []))
    elif kind == "heaps":
        ids |= {object_ for heap in view["heaps"] for object_ in heap["objects"]}
    elif kind == "picture":
        ids |= {name for row in view["squares"] for name in row}
    elif kind == "points":
        ids |= {point["id"] for point in view["points"]} | {"bar", "off"}
    return ids


def pieces(view: dict[str, Any]) -> Counter[str]:
    """The pieces the view draws, by kind."""
    kind = view["kind"]
    if kind == "grid":
        return Counter(cell["piece"] for row in view["cells"] for cell in row if cell["piece"])
    if kind == "picture":
        return Counter(piece["piece"] for piece in view["pieces"])
    if kind == "heaps":
        return Counter({"object": sum(heap["size"] for heap in view["heaps"])})
    if kind == "cards":
        dealt = sum(len(seat["cards"]) for seat in view["seats"]) + len(view["public"])
        return Counter({"card": dealt})
    assert kind == "points"
    counts: Counter[str] = Counter()
    for point in view["points"]:
        if point["side"]:
            counts[point["side"]] += point["count"]
    for side in ("White", "Black"):
        counts[side] += view["bar"][side] + view["off"][side]
    return counts


def own_pieces(game: Any, state: Any) -> Counter[str]:
    """The same count from the game's own notation."""
    name = game.name
    if name in ("tictactoe", "tictactoe3"):
        return Counter(c for c in game.format_position(state) if c not in "./")
    if name == "tiles":
        return Counter("AB")
    if name == "nim":
        return Counter({"object": sum(state.heaps)})
    if name in ("kuhn", "leduc"):
        return Counter({"card": len(state.cards)})
    if name == "connect4":
        rows = game.display(state).splitlines()[: game.height]
        return Counter(c for row in rows for c in row.split() if c != ".")
    if name == "othello":
        board = game.format_position(state).split()[0]
        return Counter({"B": board.count("X"), "W": board.count("O")}) - Counter()
    if name == "checkers":
        _, white, black = game.format_position(state).split(":")[:3]
        return Counter({"W": len(white[1:].split(",")), "B": len(black[1:].split(","))})
    if name == "chess":
        return Counter(piece.symbol() for piece in state.board.piece_map().values())
    if name == "go":
        rows = game.display(state).splitlines()[1 : game.size + 1]
        return Counter({"B": "".join(rows).count("X"), "W": "".join(rows).count("O")}) - Counter()
    return Counter({"White": 15, "Black": 15})


def check_paths(game: Any, state: Any, view: dict[str, Any]) -> None:
    moves = move_paths(game, state)
    if game.is_terminal(state) or game.to_move(state) == CHANCE:
        assert moves == []
        return
    actions = list(game.actions(state))
    assert len(moves) == len(actions)
    clickable = targets(view)
    for move, action in zip(moves, actions, strict=True):
        assert move["path"], move
        assert set(move["path"]) <= clickable, (move, sorted(clickable))
        assert game.parse_action(state, move["notation"]) == action
    if view["pairs"]:
        check_pairs(game, state, moves)
        return
    shared = Counter(tuple(move["path"]) for move in moves)
    for path, count in shared.items():
        if count > 1:  # only promotions share a path: the page offers a chooser
            assert game.name == "chess" and len(path) == 2, path
            assert all(move.promotion for move in actions if _squares(move) == path)


def _squares(move: chess.Move) -> tuple[str, str]:
    return chess.square_name(move.from_square), chess.square_name(move.to_square)


def check_pairs(game: Any, state: Any, moves: list[dict[str, Any]]) -> None:
    """Backgammon: each turn's (from, to) pairs, written back as moves (hits marked as the
    notation marks them), read as the same turn, and no two turns have the same pairs (the
    page takes them in any order)."""
    sets: Counter[tuple[tuple[str, str], ...]] = Counter()
    for move in moves:
        path = move["path"]
        if path == ["pass"]:
            continue
        assert len(path) % 2 == 0
        pairs = tuple(sorted(zip(path[::2], path[1::2], strict=True)))
        sets[pairs] += 1
        hits = set(re.findall(r"([0-9]+)\*", move["notation"]))
        written = " ".join(
            f"{_point(state, a)}/{_point(state, b)}" + "*" * (_point(state, b) in hits)
            for a, b in pairs
        )
        assert game.format_action(state, game.parse_action(state, written)) == move["notation"]
    assert all(count == 1 for count in sets.values())


def _point(state: Any, target: str) -> str:
    """A backgammon target id in the mover's numbering."""
    if target in ("bar", "off"):
        return target
    point = int(target[1:])
    return str(point if state.mover == 0 else 25 - point)


@pytest.mark.parametrize(("spec", "seed"), CASES, ids=[f"{s}-{n}" for s, n in CASES])
def test_views_and_paths_over_random_games(spec: str, seed: int) -> None:
    game, seen = playout(spec, seed)
    for state, last in seen:
        view = board_view(game, state, last)
        assert json.loads(json.dumps(view)) == view
        assert view["game"] == game.name
        assert view["over"] == game.is_terminal(state)
        assert view["status"].startswith("game over") == view["over"]
        assert pieces(view) == own_pieces(game, state)
        assert set(view["last"]) <= targets(view) | _cells(view)
        check_look(view)
        check_paths(game, state, view)


def check_look(view: dict[str, Any]) -> None:
    """A grid's or a points board's look is in the words boards.js draws by, and gives every
    piece drawn its colour."""
    if view["kind"] == "grid":
        look = view["look"]
        assert look["surface"] in get_args(Surface) and look["piece"] in get_args(Piece)
        assert look["labels"] in ("top", "bottom", "around")
        assert set(pieces(view)) <= set(look["colours"])
    elif view["kind"] == "points":
        assert set(view["look"]["colours"]) == set(view["bar"])
    else:
        return
    assert set(view["look"]["colours"].values()) <= set(get_args(Colour))


STATIC = Path(__file__).resolve().parents[2] / "src" / "plies" / "web" / "static"


def test_boards_js_and_css_know_every_word_of_a_look() -> None:
    script = (STATIC / "boards.js").read_text(encoding="utf-8")
    style = (STATIC / "boards.css").read_text(encoding="utf-8")
    for table, words in (("SURFACES", get_args(Surface)), ("PIECES", get_args(Piece))):
        body = script[script.index(f"const {table} = {{") :]
        body = body[: body.index("\n};")]
        keys = set(re.findall(r"^  (?:async )?([a-z]+)[(:]", body, re.MULTILINE))
        assert keys == set(words), (table, keys)
    assert all(f".surface-{surface} " in style for surface in get_args(Surface))
    assert all(f".{colour} " in style for colour in get_args(Colour))


def _cells(view: dict[str, Any]) -> set[str]:
    if view["kind"] != "grid":
        return set()
    return {cell["id"] for row in view["cells"] for cell in row if cell["id"]}


def test_tictactoe_grid_matches_the_position() -> None:
    game = make_game("tictactoe:m=3,n=4,k=3")
    state = game.parse_position("XO../.X../...O")
    view = board_view(game, state, last=11)
    rows = ["".join(cell["piece"] or "." for cell in row) for row in view["cells"]]
    assert "/".join(rows) == game.format_position(state)
    assert view["cells"][1][1]["id"] == "b2"
    assert (view["column_labels"], view["row_labels"]) == (list("abcd"), ["1", "2", "3"])
    assert view["last"] == ["d3"]
    assert move_paths(game, state)[0] == {"notation": "c1", "path": ["c1"]}


def test_connect4_columns_and_last_stone() -> None:
    game = make_game("connect4")
    state = game.parse_position("4453")
    view = board_view(game, state, last=2)
    assert view["cell_targets"] is False
    assert view["column_targets"] == [f"col{c}" for c in range(1, 8)]
    assert view["last"] == ["3-1"]
    assert view["cells"][-1][3] == {"id": "4-1", "piece": "X"}
    assert view["cells"][-2][3] == {"id": "4-2", "piece": "O"}
    assert {m["notation"]: m["path"] for m in move_paths(game, state)}["4"] == ["col4"]
    full = game.parse_position("444444")
    assert "col4" not in {m["path"][0] for m in move_paths(game, full)}


def test_othello_counts_and_pass() -> None:
    game = make_game("othello")
    view = board_view(game, game.initial_state())
    assert view["facts"] == [["black", "2"], ["white", "2"]]
    assert view["cells"][3][3] == {"id": "d4", "piece": "W"}
    assert view["buttons"] == []
    passing = game.parse_position(
        "OOOOXO-XOOOOOOOXOOOOOOOXOOOOOOOXOXOOOXOXOXOOOOOXOOOOOOOXOOOOOOOX O"
    )
    view = board_view(game, passing)
    assert view["buttons"] == [{"id": "pass", "label": "pass"}]
    assert view["status"] == "White has no move and must pass"
    assert move_paths(game, passing) == [{"notation": "pass", "path": ["pass"]}]
    wiped_out = "".join("X" if square in (27, 28, 35, 36) else "-" for square in range(64))
    assert board_view(game, game.parse_position(wiped_out + " O"))["status"] == (
        "game over: Black wins"
    )


def test_checkers_multi_jump_paths_and_flipping() -> None:
    game = make_game("checkers")
    state = game.parse_position("W:W30,K9:B18,19,26,K1")
    paths = {m["notation"]: m["path"] for m in move_paths(game, state)}
    assert paths["30x23x14"] == ["30", "23", "14"]
    view = board_view(game, state)
    assert view["cells"][0][1] == {
        "id": "1",
        "piece": "B",
        "dark": True,
        "king": True,
        "label": "1",
    }
    assert view["row_labels"][0] == "8"
    flipped = board_view(game, state, flipped=True)
    assert flipped["cells"][0][1]["id"] == "32"
    assert flipped["row_labels"][0] == "1"
    assert flipped["column_labels"][0] == "h"
    assert board_view(game, game.parse_position("B:W30:B"))["status"] == "game over: White wins"


def test_chess_view_svg_check_and_last_move() -> None:
    game = make_game("chess")
    before = game.parse_position("rnbqkbnr/ppppp2p/5p2/6p1/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 3")
    last = game.parse_action(before, "Qh5")
    state = game.result(before, last)
    view = board_view(game, state, last)
    assert view["status"] == "game over: White wins (checkmate)"
    assert view["facts"] == [["move", "3"], ["check", "e8"]]
    assert view["last"] == ["d1", "h5"]
    assert view["svg"].startswith("<svg") and "check" in view["svg"]
    assert view["size"] == 2 * view["margin"] + 8 * view["square"]
    assert move_paths(game, state) == []
    assert view["squares"][0][:2] == ["a8", "b8"] and view["squares"][7][7] == "h1"
    flipped = board_view(game, before, flipped=True)
    assert flipped["squares"][0][:2] == ["h1", "g1"] and flipped["squares"][7][7] == "a8"
    assert flipped["svg"] != board_view(game, before)["svg"]


def test_chess_paths_are_uci_squares_and_castling_is_the_king_move() -> None:
    game = make_game("chess")
    state = game.parse_position("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
    paths = {m["notation"]: m["path"] for m in move_paths(game, state)}
    assert paths["O-O"] == ["e1", "g1"]
    assert paths["O-O-O"] == ["e1", "c1"]


def test_nim_clicks_the_first_object_taken() -> None:
    game = make_game("nim:heaps=3-4")
    state = game.initial_state()
    view = board_view(game, state)
    assert view["kind"] == "heaps"
    assert view["heaps"][0] == {"id": "h1", "size": 3, "objects": ["h1o1", "h1o2", "h1o3"]}
    paths = {m["notation"]: m["path"] for m in move_paths(game, state)}
    assert paths["1:3"] == ["h1o1"]
    assert paths["2:1"] == ["h2o4"]


def test_tiles_squares_and_stay() -> None:
    game = make_game("tiles")
    state = game.initial_state()
    view = board_view(game, state)
    assert [cell["piece"] for cell in view["cells"][0]] == ["A", None, None, "B"]
    assert view["buttons"] == [{"id": "stay", "label": "stay"}]
    assert move_paths(game, state) == [
        {"notation": "2", "path": ["2"]},
        {"notation": "stay", "path": ["stay"]},
    ]


def test_backgammon_view_points_dice_and_paths() -> None:
    game = make_game("backgammon")
    start = game.initial_state()
    view = board_view(game, start)
    assert view["status"] == "the opening roll is next"
    assert move_paths(game, start) == []  # a chance state: the session rolls
    assert view["top"][:2] == ["p13", "p14"] and view["bottom"][-1] == "p1"
    state = game.parse_position("W 24:2 13:5 8:3 6:5 / B 24:2 13:5 8:3 6:5 / W 6-5")
    view = board_view(game, state)
    assert view["dice"] == [6, 5]
    assert view["points"][23] == {"id": "p24", "label": "24", "count": 2, "side": "White"}
    assert view["pips"] == {"White": 167, "Black": 167}
    paths = {m["notation"]: m["path"] for m in move_paths(game, state)}
    assert paths["24/13"] == ["p24", "p13"]
    assert paths["24/18 13/8"] == ["p24", "p18", "p13", "p8"]
    black = game.parse_position("W 6:2 4:1 off:12 / B bar:1 20:14 / B 6-4")
    view = board_view(game, black)
    assert view["points"][0]["label"] == "24"  # labels in the mover's numbering
    paths = {m["notation"]: m["path"] for m in move_paths(game, black)}
    assert paths == {
        "bar/21*/15": ["bar", "p4", "p4", "p10"],
        "bar/21* 20/14": ["bar", "p4", "p5", "p11"],
    }
    flipped = board_view(game, black, flipped=True)
    assert flipped["bottom"][-1] == "p24" and flipped["bottom_side"] == "Black"


def test_backgammon_hits_and_doubles_paths() -> None:
    game = make_game("backgammon")
    state = game.parse_position("W 24:2 13:5 8:3 6:5 / B 24:2 13:5 8:3 6:5 / W 3-3")
    paths = {m["notation"]: m["path"] for m in move_paths(game, state)}
    assert paths["8/5(2) 6/3(2)"] == ["p8", "p5", "p8", "p5", "p6", "p3", "p6", "p3"]
    last = game.parse_action(state, "8/5(2) 6/3(2)")
    after = game.result(state, last)
    assert board_view(game, after, last)["last"] == ["p3", "p5", "p6", "p8"]


def test_go_points_stars_pass_and_score() -> None:
    game = make_game("go:size=5,komi=0.5")
    before = game.parse_position("C3 C2 B2 D2 pass B3")
    last = game.parse_action(before, "C1")
    state = game.result(before, last)
    view = board_view(game, state, last)
    assert (view["kind"], view["explain_illegal"]) == ("grid", True)
    assert view["look"] == {
        "surface": "lines",
        "piece": "stone",
        "colours": {"B": "black", "W": "white"},
        "labels": "around",
        "cell": 50,
        "span": 520,
    }
    rows = ["".join(cell["piece"] or "." for cell in row) for row in view["cells"]]
    assert rows == [".....", ".....", ".WB..", ".BWW.", "..B.."]
    assert view["cells"][4][2] == {"id": "C1", "piece": "B", "star": False}
    assert (view["column_labels"], view["row_labels"]) == (list("ABCDE"), list("54321"))
    assert view["last"] == ["C1"]
    assert view["status"] == "White to move"
    assert view["facts"] == [["komi", "0.5"], ["moves", "7"]]
    assert view["buttons"] == [{"id": "pass", "label": "pass"}]
    paths = {m["notation"]: m["path"] for m in move_paths(game, state)}
    assert paths["pass"] == ["pass"] and paths["A1"] == ["A1"] and "C3" not in paths
    passed = game.result(state, game.parse_action(state, "pass"))
    assert board_view(game, passed, last=-1)["status"] == "Black to move (White passed)"
    assert board_view(game, passed, last=-1)["last"] == []
    over = game.result(passed, game.parse_action(passed, "pass"))
    view = board_view(game, over)
    assert view["status"] == "game over: White wins (W+0.5)"
    assert view["facts"] == [["Black", "3 points"], ["White", "3 + komi 0.5"]]
    assert view["buttons"] == [] and move_paths(game, over) == []


@pytest.mark.parametrize(("size", "stars"), [(9, "C3 G3 E5 C7 G7"), (13, "D4 K4 G7 D10 K10")])
def test_go_star_points(size: int, stars: str) -> None:
    game = make_game(f"go:size={size}")
    cells = board_view(game, game.initial_state())["cells"]
    assert sorted(cell["id"] for row in cells for cell in row if cell["star"]) == sorted(
        stars.split()
    )
    big = board_view(make_game("go:size=19"), make_game("go:size=19").initial_state())
    assert sum(cell["star"] for row in big["cells"] for cell in row) == 9
    small = board_view(make_game("go:size=7"), make_game("go:size=7").initial_state())
    assert not any(cell["star"] for row in small["cells"] for cell in row)


def test_unknown_game_is_text_with_every_move_a_target() -> None:
    game = tree_game(parse_tree("[[3, 12], [2, 4]]"))
    state = game.initial_state()
    view = board_view(game, state)
    assert view["kind"] == "text" and view["text"] == game.display(state)
    assert view["position"] is None
    moves = move_paths(game, state)
    assert [m["path"] for m in moves] == [[m["notation"]] for m in moves]
    chance = tree_game(parse_tree("[{0.5: [3, 12], 0.5: [2, 4]}, 1]"))
    assert move_paths(chance, (0,)) == []
    assert board_view(chance, (0,))["status"] == "chance moves next"
