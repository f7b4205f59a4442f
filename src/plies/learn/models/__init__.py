"""The networks shipped with plies: ``NAME.pt`` checkpoints and ``models.json``, how each was
made (self-play, distilled, taught; its data, hardware and hours) and its measured figures,
copied from ``BENCHMARKS.md`` where they were measured. Reading it needs no PyTorch."""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

from plies.errors import CheckpointError
from plies.game import Game
from plies.registry import game_identity, make_game

CATALOGUE = "models.json"


def catalogue() -> dict[str, dict[str, Any]]:
    """Each shipped model's entry of ``models.json``, by name (``rank``: the figure the models
    of a game are ranked by, lower is stronger; None where the model is not ranked)."""
    text = (resources.files(__name__) / CATALOGUE).read_text(encoding="utf-8")
    try:
        models: dict[str, dict[str, Any]] = json.loads(text)["models"]
    except (ValueError, KeyError, TypeError) as error:
        raise CheckpointError(f"the shipped {CATALOGUE} is unreadable ({error})") from None
    return models


def strongest(game: Game[Any, Any], kinds: tuple[str, ...]) -> str | None:
    """The name of the strongest shipped model for ``game`` with a network of one of
    ``kinds`` (the lowest ``rank``; a model without one only where none has one), None where
    none is for ``game``."""
    identity = game_identity(game)
    found = [
        (entry.get("rank") is None, entry.get("rank") or 0, name)
        for name, entry in catalogue().items()
        if entry.get("kind") in kinds
        and entry["game"].partition(":")[0] == game.name  # builds no other game
        and game_identity(make_game(entry["game"])) == identity
    ]
    return min(found)[2] if found else None
