"""Chess's room: the rules over python-chess (:mod:`.rules`) and the ``uci`` agent that seats a
UCI engine such as Stockfish (:mod:`.uci_agent`)."""

from __future__ import annotations

from plies.lazy import lazy_exports

__all__ = ["Chess", "ChessState"]

# the game and state types, imported on first use (importing the room's kernel alone, as the
# compiled searches do, loads no rules)
__getattr__ = lazy_exports(__name__, dict.fromkeys(__all__, ".rules"))
