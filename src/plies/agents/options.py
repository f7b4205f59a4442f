"""The options several agent kinds share."""

from __future__ import annotations

from plies.spec import DEPTH, SECONDS, Option

DEPTH_OPTION = Option("depth", "int", "search to this depth with the game's EVAL", None, DEPTH)
TIME_OPTION = Option("time", "number", "seconds a move", None, SECONDS)
