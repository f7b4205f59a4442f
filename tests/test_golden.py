"""Golden playthroughs: a recorded seeded game per registered game and per spec of
:data:`EXTRA_SPECS`, compared on every run (random legal moves; in chance states, outcomes drawn
with their probabilities).

Each record holds, for every position, its notation, its picture, the legal moves and the move
played (in a game of imperfect information also each player's information key and how each
sees the move), so any silent change of rules (or of notation) fails here. After an intended change,
regenerate with ``PLIES_UPDATE_GOLDEN=1 python -m pytest tests/test_golden.py`` and review the
diff of ``tests/golden/``.
"""

from __future__ import annotations

import json
import os
import random
import re
from pathlib import Path
from typing import Any

import pytest

from plies.capabilities import HasInformationSets, HasPositionNotation
from plies.game import random_move
from plies.games import GAMES, make_game

GOLDEN = Path(__file__).parent / "golden"
SEED = 20261121
MAX_MOVES = 600
"""Cap on the recorded game (a random chess game can take 500 plies)."""
EXTRA_SPECS = ("go:size=5", "go:size=19", "backgammon:cube=true", "backgammon:match=3")
"""Specs recorded besides the registered names (which play with their default options)."""


def record_path(spec: str) -> Path:
    """The record of a game name or spec: ``go:size=5`` is ``go-size-5.json``."""
    return GOLDEN / f"{re.sub(r'[^A-Za-z0-9]+', '-', spec)}.json"


def playthrough(name: str) -> dict[str, Any]:
    """A game of uniformly random legal moves from a fixed seed, every step recorded."""
    game = make_game(name)
    rng = random.Random(SEED)
    state = game.initial_state()
    steps = []
    while not game.is_terminal(state) and len(steps) < MAX_MOVES:
        actions = list(game.actions(state))
        action = random_move(game, state, rng)  # chance outcomes by their probabilities
        step = {
            "position": game.format_position(state)
            if isinstance(game, HasPositionNotation)
            else None,
            "board": game.display(state).splitlines(),
            "to_move": game.to_move(state),
            "legal": [game.format_action(state, a) for a in actions],
            "move": game.format_action(state, action),
        }
        if isinstance(game, HasInformationSets):  # what each player knows, and sees of the move
            step["keys"] = {p: game.information_key(state, p) for p in game.players}
            step["seen"] = {p: game.seen_action(state, action, p) for p in game.players}
        steps.append(step)
        state = game.result(state, action)
    return {
        "game": name,
        "seed": SEED,
        "steps": steps,
        "final": {
            "board": game.display(state).splitlines(),
            "terminal": game.is_terminal(state),
            "payoffs": list(game.payoffs(state)) if game.is_terminal(state) else None,
        },
    }


@pytest.mark.parametrize("name", [*sorted(GAMES), *EXTRA_SPECS])
def test_golden_playthrough(name: str) -> None:
    path = record_path(name)
    record = playthrough(name)
    if os.environ.get("PLIES_UPDATE_GOLDEN"):
        path.write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
    if not path.exists():
        pytest.fail(f"no golden record {path.name}; create it with PLIES_UPDATE_GOLDEN=1")
    expected = json.loads(path.read_text(encoding="utf-8"))
    assert record["final"]["terminal"], f"{name}: the recorded game did not finish"
    for index, (got, want) in enumerate(zip(record["steps"], expected["steps"], strict=False)):
        assert got == want, f"{name}: step {index} differs from the golden record"
    assert len(record["steps"]) == len(expected["steps"])
    assert record["final"] == expected["final"]
