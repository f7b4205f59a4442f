"""Go's room: the rules (:mod:`.rules`), the compiled board and playouts (:mod:`.kernel`, which
:mod:`plies.native.go_mcts` runs for MCTS with RAVE) and the ``gtp`` agent that seats a GTP
program such as GNU Go (:mod:`.gtp_agent`)."""

from plies.games.go.rules import Go, GoState

__all__ = ["Go", "GoState"]
