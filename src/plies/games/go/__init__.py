"""Go's room: the rules (:mod:`.rules`), the compiled board and playouts (:mod:`.kernel`), Go's
compiled MCTS with RAVE (:mod:`.mcts_native`, at the compiled searches' layer) and its
knowledge (:mod:`.knowledge`: playout rules and priors, the ``mcts`` options Go alone offers);
the ``gtp`` agent that seats a GTP program such as GNU Go is :mod:`plies.agents.gtp`."""

from __future__ import annotations

from plies.lazy import lazy_exports

__all__ = ["Go", "GoState"]

# the game and state types, imported on first use (importing the room's kernel alone, as the
# compiled searches do, loads no rules)
__getattr__ = lazy_exports(__name__, dict.fromkeys(__all__, ".rules"))
